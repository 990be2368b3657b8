// libFuzzer target: clCreateProgramWithIL's build path. The input is a SPIR-V module (header
// check, specialization, the amcl-spirv helper process, lowering, code generation); every
// module ends in a code object or in a build log that says why, and no translator crash or
// assert reaches the host process. Seeds: modules clang 22 makes from tests/system/spirv/*.cl
// at build time (fuzz/CMakeLists.txt).
#include "build_target.h"
#include "fuzzer_main.h"

#include <cstddef>
#include <cstdint>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::vector<uint8_t> module(data, data + size);
  amcl_fuzz::require(amcl_fuzz::exercise_il_build(module, amcl_fuzz::BuildMode::Build));
  return 0;
}
