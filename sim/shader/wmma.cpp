// v_wmma_*: D = A x B + C on 16x16 matrices spread over the wave's VGPRs as wmma_layout.h
// says, in wave32 and wave64, gfx11 and gfx12. The whole wave computes one product, so a
// wave64 runs it once (exec_wave64), not per pass.
#include "executor.h"
#include "f8_ops.h"
#include "float_ops.h"
#include "wmma_layout.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace sim::shader {
namespace {

// The dword of VGPR `reg` in `lane` (0..63) of the whole wave.
uint32_t& lane_reg(Wave& w, unsigned reg, unsigned lane) { return w.whole_wave_v(reg, lane); }

double element_value(uint32_t raw, WmmaElem e, bool is_signed) {
  switch (e) {
  case WmmaElem::F16:
    return h2f(uint16_t(raw));
  case WmmaElem::BF16:
    return bf2f(uint16_t(raw));
  case WmmaElem::FP8:
    return f8_to_f32(uint8_t(raw), kFp8);
  case WmmaElem::BF8:
    return f8_to_f32(uint8_t(raw), kBf8);
  case WmmaElem::I8:
    return is_signed ? double(int8_t(raw)) : double(uint8_t(raw));
  case WmmaElem::I4:
    return is_signed ? double(int32_t(raw << 28) >> 28) : double(raw & 15);
  default:
    return f32(raw);
  }
}

} // namespace

void Executor::exec_wmma(Wave& w, const Inst& in) {
  const Gfx gfx = in.gfx;
  const WmmaShape shape = wmma_shape(in.op);
  const WmmaRegs regs = wmma_regs(in.op, gfx, w.wave64);
  const bool integer = shape.out == WmmaElem::I32;
  const unsigned out_bits = wmma_bits(shape.out);
  // The RDNA3/RDNA4 ISA manuals make a WMMA with lanes off undefined: say so rather than guess.
  const uint64_t all = w.wave64 ? ~uint64_t(0) : 0xffffffffu;
  if (w.exec_mask() != all) instruction_fault(w, in, "WMMA with EXEC not all ones (undefined)");
  for (unsigned i = 0; i < 2; ++i)
    if (in.src[i] < src::kVgpr0) instruction_fault(w, in, "WMMA A or B operand not in VGPRs");
  // C is VGPRs or an inline constant (LLVM rejects SGPRs and literals there).
  const uint16_t c_code = in.src[2];
  if (c_code < src::kVgpr0 && !(c_code >= 128 && c_code <= src::kConstNeg16) &&
      !(c_code >= src::kFloatHalf && c_code <= src::kFloatInv2Pi))
    instruction_fault(w, in, "WMMA C operand neither VGPRs nor an inline constant");
  const unsigned last =
      std::max({in.dst - src::kVgpr0 + regs.d, in.src[0] - src::kVgpr0 + regs.a,
                in.src[1] - src::kVgpr0 + regs.b,
                in.src[2] >= src::kVgpr0 ? in.src[2] - src::kVgpr0 + regs.c : 0u});
  if (last > w.num_vgprs) vgpr_fault(w, last - 1);

  // Inputs: neg_lo/neg_hi[0..1] negate the low/high halves of A and B (16-bit floats), or make
  // them signed (integers).
  auto element = [&](unsigned which, WmmaElem e, WmmaSlot s) {
    const unsigned bits = wmma_bits(e);
    const uint32_t word = lane_reg(w, in.src[which] - src::kVgpr0 + s.gpr, s.lane);
    const uint32_t raw = (word >> s.bit) & (bits == 32 ? ~0u : (1u << bits) - 1);
    double v = element_value(raw, e, integer && ((in.neg >> which) & 1));
    if (!integer && bits == 16 && ((s.bit % 32 ? in.neg_hi : in.neg) >> which & 1)) v = -v;
    return v;
  };
  const unsigned abits = wmma_bits(shape.a), bbits = wmma_bits(shape.b);
  // A's values by row; a_k[r][n] is value n's K (dense: n itself; sparse: the kept values only,
  // so a skipped zero meets no infinity of B).
  double a[16][64], b[64][16];
  uint8_t a_k[16][64];
  const unsigned a_count = shape.sparse ? shape.k / 2 : shape.k;
  if (!shape.sparse) {
    for (unsigned r = 0; r < 16; ++r)
      for (unsigned k = 0; k < shape.k; ++k) {
        a[r][k] = element(0, shape.a, wmma_input_slot(gfx, w.wave64, abits, shape.k, r, k));
        a_k[r][k] = uint8_t(k);
        b[k][r] = element(1, shape.b, wmma_input_slot(gfx, w.wave64, bbits, shape.k, r, k));
      }
  } else {
    // 4:2 sparse A: each group of four K values keeps two, and the index VGPR's 4-bit field
    // for the group says where they go (bits [1:0] the first kept, [3:2] the second); op_sel
    // picks the set of fields.
    const unsigned fields = regs.a * 32 / (2 * abits), sets = 32 / (4 * fields);
    const unsigned set = in.opsel & 3;
    if (set >= sets) instruction_fault(w, in, "SWMMAC index_key past the index VGPR's sets");
    for (unsigned r = 0; r < 16; ++r)
      for (unsigned k = 0; k < shape.k; k += 4) {
        const WmmaSlot g = swmmac_a_slot(w.wave64, abits, shape.k, r, k);
        const unsigned field = (lane_reg(w, in.src[2] - src::kVgpr0, g.lane) >>
                                swmmac_index_bit(g, abits, regs.a, set)) &
                               15;
        for (unsigned kept = 0; kept < 2; ++kept) {
          a[r][k / 2 + kept] = element(0, shape.a, {g.gpr, g.lane, g.bit + kept * abits});
          a_k[r][k / 2 + kept] = uint8_t(k + ((field >> (2 * kept)) & 3));
        }
      }
    for (unsigned k = 0; k < shape.k; ++k)
      for (unsigned c = 0; c < 16; ++c)
        b[k][c] = element(1, shape.b, swmmac_b_slot(w.wave64, bbits, shape.k, c, k));
  }

  // C: VGPRs or an inline constant; neg_lo[2] subtracts it, neg_hi[2] takes its magnitude.
  const bool high = gfx == Gfx::v11 && out_bits == 16 && ((in.opsel >> 2) & 1);
  auto c_value = [&](unsigned i, unsigned j) -> double {
    const WmmaSlot s = wmma_output_slot(gfx, w.wave64, out_bits, high, i, j);
    uint32_t raw;
    if (shape.sparse) // SWMMAC accumulates into D
      raw = lane_reg(w, in.dst - src::kVgpr0 + s.gpr, s.lane) >> s.bit;
    else if (in.src[2] >= src::kVgpr0)
      raw = lane_reg(w, in.src[2] - src::kVgpr0 + s.gpr, s.lane) >> s.bit;
    else if (out_bits == 16 && in.src[2] >= src::kFloatHalf && in.src[2] <= src::kFloatInv2Pi)
      raw = shape.out == WmmaElem::BF16 ? u32(h2f(kInlineF16[in.src[2] - 240])) >> 16
                                        : kInlineF16[in.src[2] - 240];
    else
      raw = sread(w, in, in.src[2]);
    if (out_bits == 16) raw &= 0xffff;
    if (integer) return double(int32_t(raw));
    double c = element_value(raw, shape.out, false);
    if ((in.neg_hi >> 2) & 1) c = std::fabs(c);
    if ((in.neg >> 2) & 1) c = -c;
    return c;
  };

  // Results: products summed exactly (long double holds every 16-bit product and their sum
  // closely), C added, one rounding to D's type; integers wrap or, with clamp, saturate.
  uint32_t d[16][16];
  for (unsigned i = 0; i < 16; ++i)
    for (unsigned j = 0; j < 16; ++j) {
      const double c = c_value(i, j);
      if (integer) {
        int64_t sum = int64_t(c);
        for (unsigned n = 0; n < a_count; ++n) sum += int64_t(a[i][n]) * int64_t(b[a_k[i][n]][j]);
        if (in.clamp) sum = std::clamp<int64_t>(sum, INT32_MIN, INT32_MAX);
        d[i][j] = uint32_t(sum);
        continue;
      }
      long double sum = c;
      for (unsigned n = 0; n < a_count; ++n) sum += (long double)a[i][n] * b[a_k[i][n]][j];
      if (shape.out == WmmaElem::F32)
        d[i][j] = u32(float(sum));
      else if (shape.out == WmmaElem::F16)
        d[i][j] = f2h_exact(sum);
      else
        d[i][j] = f2bf(double(sum));
    }
  // Written after everything is read: D may be C's registers (LLVM ties them).
  for (unsigned i = 0; i < 16; ++i)
    for (unsigned j = 0; j < 16; ++j) {
      const WmmaSlot s = wmma_output_slot(gfx, w.wave64, out_bits, high, i, j);
      uint32_t& out = lane_reg(w, in.dst - src::kVgpr0 + s.gpr, s.lane);
      if (out_bits == 32) {
        out = d[i][j];
      } else {
        const uint32_t mask = 0xffffu << s.bit;
        out = (out & ~mask) | (d[i][j] << s.bit);
      }
    }
}

} // namespace sim::shader
