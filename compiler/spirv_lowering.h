// The SPIRV-LLVM translator's module (spir64: SPIR address spaces, spir_kernel/spir_func,
// builtins mangled for SPIR) as an AMDGPU module that amcl's pipeline finishes like one
// clang made: triple and data layout, address spaces, calling conventions, builtin names.
#pragma once
#include <memory>
#include <string>

namespace llvm {
class Module;
}

namespace amcl::compiler {

// A new module in `spir`'s context; null with the reason in `log` if `spir` is no SPIR
// module. `features` are the target features amcl sets for `target` (may be empty);
// `exact_divide` is -cl-fp32-correctly-rounded-divide-sqrt.
std::unique_ptr<llvm::Module> lower_spir_module(const llvm::Module& spir, const std::string& target,
                                                const std::string& features, bool exact_divide,
                                                std::string& log);

} // namespace amcl::compiler
