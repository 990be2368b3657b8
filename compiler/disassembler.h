// One AMDGPU instruction as text, from its machine-code dwords, with LLVM's MC disassembler:
// what names an instruction a wave faulted on (the driver reports only its dwords).
#pragma once
#include <cstdint>
#include <span>
#include <string>

namespace amcl::compiler {

struct DisassembledInstruction {
  bool valid = false;
  std::string text;  // "global_load_d16_hi_b16 v1, v[2:3], off", or "invalid encoding"
  unsigned size = 0; // bytes the instruction takes (0 when invalid)
};

// Disassembles the instruction `words` start with, for `target` ("gfx1100", "gfx1201"), as
// llvm-objdump prints it (mnemonic and operands, no comment). An instruction longer than the
// words given, or words LLVM decodes as no instruction, give "invalid encoding".
DisassembledInstruction disassemble_one(const std::string& target, std::span<const uint32_t> words);

} // namespace amcl::compiler
