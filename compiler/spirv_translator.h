// Runs amcl-spirv (spirv_translator_main.cpp), the helper process that translates a SPIR-V
// module into LLVM bitcode with the SPIRV-LLVM translator 15, under a time and output limit.
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace amcl::compiler {

struct SpirvTranslation {
  bool ok = false;
  std::vector<uint8_t> bitcode;      // LLVM 15 bitcode of a spir64 module when ok
  std::string log;                   // the translator's message, or why it did not run
  double spawn_ms = 0, total_ms = 0; // until the helper runs; until its output is read
};

// Where the helper is: $AMCL_SPIRV_TRANSLATOR, else next to the library or program holding
// this code, else libexec/amcl relative to that library's directory (a package installed
// under another prefix than configured), else the configured install, else the build tree. Empty: none found
// (amcl was built without the translator packages, or the file was removed).
std::string spirv_translator_path();

// What identifies the translation in build-cache keys: the translator library's size and
// modification time (a package update changes both).
std::string spirv_translator_identity();

// Whether amcl was built with the translator (CL_DEVICE_IL_VERSION is empty otherwise).
bool spirv_translator_built();

// Translates `module` (already through prepare_spirv). The helper gets `timeout_ms` and at
// most `max_output` bytes of output; beyond either it is killed and the build fails.
SpirvTranslation translate_spirv(std::span<const uint8_t> module, int timeout_ms = 60000,
                                 size_t max_output = size_t(512) << 20);

} // namespace amcl::compiler
