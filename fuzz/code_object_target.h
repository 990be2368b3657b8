// One input of the code-object fuzzers (what clCreateProgramWithBinary hands the compiler
// layer): classify it and, when it claims to be an executable, read and load it the way the
// runtime does. Returns "" or the promise the reader broke.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace amcl_fuzz {

std::string exercise_code_object(const std::vector<uint8_t>& bytes);

} // namespace amcl_fuzz
