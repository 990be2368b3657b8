// The builtin libraries every executable links (compiler.cpp), for tools that check them.
#pragma once
#include <string>

namespace llvm {
class Module;
}

namespace amcl::compiler {

// Links amcl's work-item builtins for `target` and wave size, then libclc, into `program`,
// pulling in only what it references; the first definition wins. Not to run beside a build
// (LLVM's process-wide state; compiler.cpp's builds take turns).
bool link_builtins(llvm::Module& program, const std::string& target, bool wave64, std::string& log);

} // namespace amcl::compiler
