// The program-scope sampler table as OpenCL C, from the S#s tools/gen_sampler_sharps.cpp
// generates at build time from am/hw/cl_sampler.h (the one mapping of sampler values to S#s),
// so that the runtime's sampler objects and the kernels' literal samplers read alike.
#include "sampler_table.h"

#include "compiler/image_abi.h"

#include <cstdint>
#include <cstdio>

namespace amcl::compiler {
namespace {
#include "sampler_sharps.inc"
} // namespace

std::string sampler_table_source(const std::string& target) {
  const unsigned gen = target.rfind("gfx12", 0) == 0 ? 1 : 0;
  constexpr unsigned kValues = 64, kDwords = AMCL_SAMPLER_BLOCK_BYTES / 4;
  std::string s = "static __constant unsigned int amcl_sampler_blocks[" +
                  std::to_string(kValues * kDwords) + "] __attribute__((aligned(64))) = {\n";
  for (uint32_t bits = 0; bits < kValues; ++bits) {
    uint32_t block[kDwords] = {};
    if (kSamplerValueValid[bits]) {
      for (unsigned i = 0; i < 4; ++i)
        block[AMCL_SAMPLER_SSHARP + i] = kSamplerSharps[gen][bits][i];
      block[AMCL_SAMPLER_BITS] = bits;
    }
    for (uint32_t w : block) {
      char word[16];
      std::snprintf(word, sizeof word, "0x%08xu,", w);
      s += word;
    }
    s += "\n";
  }
  return s + "};\n";
}

} // namespace amcl::compiler
