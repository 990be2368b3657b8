// The image instructions' encodings (gfx11 MIMG, gfx12 VIMAGE and VSAMPLE): field decoding, how
// many address and data VGPRs an instruction names, and its llvm-objdump-22 text.
#pragma once
#include "isa.h"

#include <span>
#include <string>

namespace sim::shader {

// Sampling operations (they name a sampler descriptor).
inline constexpr bool is_image_sample(Op op) {
  return op == Op::image_sample || op == Op::image_sample_l || op == Op::image_sample_lz;
}
inline constexpr bool is_image_store(Op op) {
  return op == Op::image_store || op == Op::image_store_mip;
}
// Coordinates a dimension takes (x; x, y; x, y, z or slice; MSAA adds the sample index).
unsigned image_coords(unsigned dim);
// The address components of an instruction: coordinates, then the mip level or LOD.
unsigned image_components(Op op, unsigned dim);
// Address VGPRs (a16 packs two components into each) and data VGPRs (one per dmask bit, two
// halves in each under d16, and one more for the tfe/lwe status).
unsigned image_addr_dwords(const Inst& in);
unsigned image_data_dwords(const Inst& in);

// Field decoders; false (with `why`) when amcl does not decode the encoding.
bool decode_mimg11(Inst& inst, std::span<const uint32_t> w, std::string* why);
bool decode_vimage12(Inst& inst, std::span<const uint32_t> w, bool sample, std::string* why);

// `cache_policy`: the printer's glc/slc/dlc (gfx11) or th/scope (gfx12) text.
std::string print_image(const Inst& in, const std::string& cache_policy);

} // namespace sim::shader
