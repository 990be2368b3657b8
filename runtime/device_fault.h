// A device failure as the user reads it: the driver's message, with the instruction a faulting
// wave stopped on named (the driver reports its dwords; the compiler's disassembler names it).
#pragma once
#include "am/device_error.h"

#include <string>

namespace amcl::rt {

// For an illegal instruction whose code the driver read: "shader exception at pc 0x...:
// illegal instruction <mnemonic operands | invalid encoding> (<its dwords>)"; for every other
// failure, the driver's own text.
std::string describe_failure(const am::DeviceError& e, const std::string& gfx);

} // namespace amcl::rt
