// libFuzzer target: bytes as a program binary (clCreateProgramWithBinary's input).
// Seeds: the executable, object and library fuzz_seeds writes.
#include "code_object_target.h"
#include "fuzzer_main.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  amcl_fuzz::require(amcl_fuzz::exercise_code_object(std::vector<uint8_t>(data, data + size)));
  return 0;
}
