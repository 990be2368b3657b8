// One input of the build-path fuzzers: OpenCL C source and build options through the whole
// pipeline (clang, builtins, optimiser, code generation, lld). Every request must end in a
// code object or in a failure that says why. Returns "" or the broken promise.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace amcl_fuzz {

enum class BuildMode { Build, Compile };

std::string exercise_build(const std::string& source, const std::string& options, BuildMode mode);
// The same promise for a SPIR-V module (clCreateProgramWithIL's input past the header check).
std::string exercise_il_build(const std::vector<uint8_t>& module, BuildMode mode);

} // namespace amcl_fuzz
