// The one place the compiler/ files register LLVM's AMDGPU target (info, code generator, MC
// layer, assembly printer, disassembler), once per process.
#pragma once

namespace amcl::compiler {

void init_llvm();

} // namespace amcl::compiler
