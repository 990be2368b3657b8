// libFuzzer target: the build path. The input's first line is the build options (prefixed
// "@compile " for clCompileProgram instead of clBuildProgram), the rest is OpenCL C source.
// Seeds: the kernel corpus (tests/corpus) with empty options, written by fuzz_seeds.
#include "build_target.h"
#include "fuzzer_main.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string input(reinterpret_cast<const char*>(data), size);
  const size_t eol = input.find('\n');
  std::string options = input.substr(0, eol);
  const std::string source = eol == std::string::npos ? "" : input.substr(eol + 1);
  auto mode = amcl_fuzz::BuildMode::Build;
  if (options.rfind("@compile ", 0) == 0) {
    options.erase(0, 9);
    mode = amcl_fuzz::BuildMode::Compile;
  }
  amcl_fuzz::require(amcl_fuzz::exercise_build(source, options, mode));
  return 0;
}
