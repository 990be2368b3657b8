// The program-scope sampler table, generated from the one mapping of sampler values to S#s
// (am/hw/cl_sampler.h) so that the runtime's sampler objects and the kernels' literal samplers
// read alike, for the generation the program is built for.
#include "sampler_table.h"

#include "am/hw/cl_sampler.h"
#include "compiler/image_abi.h"

#include <cstdio>

namespace amcl::compiler {

namespace img = am::hw::image;

std::string sampler_table_source(const std::string& target) {
  const img::Gen gen = target.rfind("gfx12", 0) == 0 ? img::Gen::gfx12 : img::Gen::gfx11;
  constexpr unsigned kValues = 64, kDwords = AMCL_SAMPLER_BLOCK_BYTES / 4;
  std::string s = "static __constant unsigned int amcl_sampler_blocks[" +
                  std::to_string(kValues * kDwords) + "] __attribute__((aligned(64))) = {\n";
  for (uint32_t bits = 0; bits < kValues; ++bits) {
    uint32_t block[kDwords] = {};
    if (img::valid_cl_sampler_bits(bits)) {
      const auto sharp = img::pack(gen, img::cl_sampler(bits));
      for (unsigned i = 0; i < sharp.size(); ++i) block[AMCL_SAMPLER_SSHARP + i] = sharp[i];
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
