// Image instruction encodings. gfx11 MIMG (llvm-mc-22 -mcpu=gfx1100 -show-encoding): NSA [0],
// dim [4:2], unorm [7], dmask [11:8], slc [12], dlc [13], glc [14], r128 [15], a16 [16],
// d16 [17], opcode [25:18]; dword 1: vaddr [7:0], vdata [15:8], srsrc/4 [20:16], tfe [21],
// lwe [22], ssamp/4 [30:26]; NSA dwords: one more address VGPR per byte.
// gfx12 VIMAGE/VSAMPLE (-mcpu=gfx1201): dim [2:0], r128 [4], d16 [5], a16 [6], unorm [13]
// (VSAMPLE), opcode [21:14], dmask [25:22]; dword 1: vdata [7:0], lwe [8] (VSAMPLE), rsrc
// [17:9], scope [19:18], th [22:20], tfe [23] (VIMAGE), samp [31:23] (VSAMPLE); dword 2:
// vaddr0..3, one byte each.
#include "image_isa.h"

#include <bit>
#include <cstdio>

namespace sim::shader {
namespace {

uint32_t bits(uint32_t v, int hi, int lo) {
  return (v >> lo) & ((1u << (hi - lo + 1)) - 1);
}

bool fail(std::string* why, const std::string& msg) {
  if (why) *why = msg;
  return false;
}

std::string vreg(unsigned first, unsigned n) {
  if (n == 1) return "v" + std::to_string(first);
  return "v[" + std::to_string(first) + ":" + std::to_string(first + n - 1) + "]";
}
std::string sreg(unsigned first, unsigned n) {
  return "s[" + std::to_string(first) + ":" + std::to_string(first + n - 1) + "]";
}

const char* const kDimNames[] = {"1D",       "2D",       "3D",      "CUBE",
                                 "1D_ARRAY", "2D_ARRAY", "2D_MSAA", "2D_MSAA_ARRAY"};

} // namespace

unsigned image_coords(unsigned dim) {
  static const unsigned kCoords[] = {1, 2, 3, 3, 2, 3, 3, 4};
  return kCoords[dim & 7];
}

unsigned image_components(Op op, unsigned dim) {
  if (op == Op::image_get_resinfo) return 1; // the mip level
  const bool level =
      op == Op::image_load_mip || op == Op::image_store_mip || op == Op::image_sample_l;
  return image_coords(dim) + (level ? 1 : 0);
}

unsigned image_addr_dwords(const Inst& in) {
  const unsigned n = image_components(in.op, in.img.dim);
  return in.img.a16 ? (n + 1) / 2 : n;
}

unsigned image_data_dwords(const Inst& in) {
  unsigned n = in.img.dmask ? unsigned(std::popcount(in.img.dmask)) : 1;
  if (in.img.d16) n = (n + 1) / 2;
  return n + (in.img.tfe ? 1 : 0); // LLVM counts no status dword for lwe alone
}

bool decode_mimg11(Inst& inst, std::span<const uint32_t> w, std::string* why) {
  const uint32_t d0 = w[0];
  if (w.size() < 2) return fail(why, "MIMG needs 2 dwords");
  const uint32_t d1 = w[1];
  ImageOperands& m = inst.img;
  m.nsa = bits(d0, 0, 0);
  m.dim = uint8_t(bits(d0, 4, 2));
  m.unorm = bits(d0, 7, 7);
  m.dmask = uint8_t(bits(d0, 11, 8));
  inst.slc = bits(d0, 12, 12);
  inst.dlc = bits(d0, 13, 13);
  inst.glc = bits(d0, 14, 14);
  m.r128 = bits(d0, 15, 15);
  m.a16 = bits(d0, 16, 16);
  m.d16 = bits(d0, 17, 17);
  m.vaddr[0] = uint8_t(bits(d1, 7, 0));
  inst.dst = uint16_t(src::kVgpr0 + bits(d1, 15, 8));
  inst.src[1] = uint16_t(bits(d1, 20, 16) * 4);
  m.tfe = bits(d1, 21, 21);
  m.lwe = bits(d1, 22, 22);
  inst.src[2] = uint16_t(bits(d1, 30, 26) * 4);
  if (bits(d0, 1, 1) || bits(d1, 25, 23) || bits(d1, 31, 31) ||
      (!is_image_sample(inst.op) && bits(d1, 30, 26)))
    return fail(why, "MIMG bits amcl does not decode are set");
  if (m.d16 && inst.op == Op::image_get_resinfo) return fail(why, "d16 image_get_resinfo");
  if (m.r128) return fail(why, "MIMG r128 not decoded");
  inst.size = 8;
  m.naddr = uint8_t(image_addr_dwords(inst));
  if (m.nsa) {
    if (m.naddr < 2) return fail(why, "MIMG NSA with one address");
    if (m.naddr > 5) return fail(why, "MIMG NSA with more than 5 addresses");
    const unsigned extra = (m.naddr - 1 + 3) / 4;
    if (w.size() < 2 + extra) return fail(why, "MIMG NSA dwords missing");
    for (unsigned i = 1; i < m.naddr; ++i)
      m.vaddr[i] = uint8_t(w[2 + (i - 1) / 4] >> (8 * ((i - 1) % 4)));
    inst.size = uint8_t(8 + 4 * extra);
  }
  return true;
}

bool decode_vimage12(Inst& inst, std::span<const uint32_t> w, bool sample, std::string* why) {
  if (w.size() < 3) return fail(why, "VIMAGE/VSAMPLE needs 3 dwords");
  const uint32_t d0 = w[0], d1 = w[1], d2 = w[2];
  ImageOperands& m = inst.img;
  m.nsa = true;
  m.dim = uint8_t(bits(d0, 2, 0));
  m.r128 = bits(d0, 4, 4);
  m.d16 = bits(d0, 5, 5);
  m.a16 = bits(d0, 6, 6);
  m.dmask = uint8_t(bits(d0, 25, 22));
  inst.dst = uint16_t(src::kVgpr0 + bits(d1, 7, 0));
  inst.src[1] = uint16_t(bits(d1, 17, 9));
  inst.scope = uint8_t(bits(d1, 19, 18));
  inst.th = uint8_t(bits(d1, 22, 20));
  if (sample) {
    m.unorm = bits(d0, 13, 13);
    m.lwe = bits(d1, 8, 8);
    inst.src[2] = uint16_t(bits(d1, 31, 23));
  } else {
    m.tfe = bits(d1, 23, 23);
  }
  if (m.r128) return fail(why, "VIMAGE r128 not decoded");
  if (m.d16 && inst.op == Op::image_get_resinfo) return fail(why, "d16 image_get_resinfo");
  // The resource and sampler must be SGPRs.
  if (inst.src[1] >= 106 || (sample && inst.src[2] >= 106))
    return fail(why, "image descriptor outside the SGPRs");
  m.naddr = uint8_t(image_addr_dwords(inst));
  for (unsigned i = 0; i < 4; ++i) m.vaddr[i] = uint8_t(d2 >> (8 * i));
  // llvm-mc-22 rejects a VSAMPLE word naming a fourth address it does not use.
  if (sample && m.naddr < 4 && m.vaddr[3])
    return fail(why, "VSAMPLE with an unused fourth address");
  m.vaddr[4] = m.vaddr[3];                  // more than 4 addresses: the last field starts a range
  if (m.naddr > 4) m.vaddr[3] = m.vaddr[4]; // printed as a range from it
  inst.size = 12;
  return true;
}

std::string print_image(const Inst& in, const std::string& cache_policy) {
  const ImageOperands& m = in.img;
  // llvm-objdump-22 pads the NSA form of gfx11's sampling operations with a second space.
  const bool pad = in.gfx == Gfx::v11 && m.nsa && is_image_sample(in.op);
  std::string s = std::string(op_name(in.op, in.gfx)) + (pad ? "  " : " ") +
                  vreg(in.dst - src::kVgpr0, image_data_dwords(in)) + ", ";
  if (in.gfx == Gfx::v11) {
    if (!m.nsa) {
      s += vreg(m.vaddr[0], m.naddr);
    } else {
      s += "[";
      for (unsigned i = 0; i < m.naddr; ++i) s += (i ? ", v" : "v") + std::to_string(m.vaddr[i]);
      s += "]";
    }
  } else if (m.naddr == 1) {
    s += "v" + std::to_string(m.vaddr[0]);
  } else {
    s += "[";
    for (unsigned i = 0; i < m.naddr && i < 4; ++i) {
      if (i) s += ", ";
      s += i == 3 && m.naddr > 4 ? vreg(m.vaddr[3], m.naddr - 3) : "v" + std::to_string(m.vaddr[i]);
    }
    s += "]";
  }
  s += ", " + sreg(in.src[1], m.r128 ? 4 : 8);
  if (is_image_sample(in.op)) s += ", " + sreg(in.src[2], 4);
  if (m.dmask) {
    char b[16];
    std::snprintf(b, sizeof b, " dmask:0x%x", m.dmask);
    s += b;
  }
  s += std::string(" dim:SQ_RSRC_IMG_") + kDimNames[m.dim];
  if (m.unorm) s += " unorm";
  s += cache_policy;
  if (m.r128) s += " r128";
  if (m.a16) s += " a16";
  if (m.tfe) s += " tfe";
  if (m.lwe) s += " lwe";
  if (m.d16) s += " d16";
  return s;
}

} // namespace sim::shader
