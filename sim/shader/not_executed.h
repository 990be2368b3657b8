// Names of the instructions amcl decodes no further than to name them in a fault: graphics-only
// encodings and the compute operations the executor does not run (see the decode sweep's
// kKnownGaps). Mnemonics as llvm-mc-22 -mcpu=gfx1100/gfx1201 --disassemble prints them.
#pragma once
#include "isa.h"

#include <cstdint>
#include <string>
#include <vector>

namespace sim::shader {

// The mnemonic of opcode `code` of `family` ("SOP1", "DS", "VOP3P", "VFLAT", ...) when it is a
// known instruction amcl does not execute; nullptr otherwise.
const char* not_executed_name(Gfx gfx, const char* family, uint32_t code);
// Why that instruction cannot run in a compute wave of `gfx`; nullptr when it is not one.
const char* not_executed_reason(Gfx gfx, const char* family, uint32_t code);
// Every compute instruction of `gfx` that faults by name, in table order (graphics-only encodings
// are named by graphics_only_name).
std::vector<std::string> not_executed_names(Gfx gfx);
// "exp", "v_interp_p10_f32", "lds_param_load" ...: the graphics-only instruction whose first
// dword is `d0`, or an empty string when `d0` starts none.
std::string graphics_only_name(uint32_t d0, Gfx gfx);

} // namespace sim::shader
