// gfx12's 8-bit float operations (RDNA4 ISA manual, 7.5-7.6 and the V_CVT_*FP8*/*BF8* and
// V_DOT4_F32_*8_*8 pseudocode): conversions to and from f32 that pick bytes or halves with
// op_sel, the stochastic-rounding conversions, and the dot products of four 8-bit pairs.
#include "executor.h"
#include "f8_ops.h"
#include "float_ops.h"

#include <bit>
#include <cmath>

namespace sim::shader {

void Executor::exec_valu_f8(Wave& w, const Inst& in) {
  const bool bf8 = in.op == Op::v_cvt_f32_bf8 || in.op == Op::v_cvt_pk_f32_bf8 ||
                   in.op == Op::v_cvt_pk_bf8_f32 || in.op == Op::v_cvt_sr_bf8_f32;
  const F8Format& fmt = bf8 ? kBf8 : kFp8;
  const bool clamp_overflow = (w.mode_upper >> 23) & 1; // MODE.FP16_OVFL
  auto fsrc = [&](unsigned i, unsigned lane) {
    float x = flush(f32(vread(w, in, i, lane)), w.flush_f32_denorms);
    if (in.abs & (1u << i)) x = std::fabs(x);
    if (in.neg & (1u << i)) x = -x;
    return x;
  };
  for (uint32_t m = w.exec(); m; m &= m - 1) {
    const unsigned lane = unsigned(std::countr_zero(m));
    switch (in.op) {
    case Op::v_cvt_f32_fp8:
    case Op::v_cvt_f32_bf8: { // OPSEL 0, 2, 1, 3 pick bytes 0, 1, 2, 3
      const unsigned byte = (in.opsel & 1) << 1 | ((in.opsel >> 1) & 1);
      vreg(w, in.dst, lane) = u32(f8_to_f32(uint8_t(vread(w, in, 0, lane) >> (8 * byte)), fmt));
      break;
    }
    case Op::v_cvt_pk_f32_fp8:
    case Op::v_cvt_pk_f32_bf8: { // the half op_sel[0] picks, two bytes to two f32s
      const uint16_t h = read_half(w, in, 0, lane);
      vreg(w, in.dst, lane) = u32(f8_to_f32(uint8_t(h), fmt));
      vreg(w, in.dst, lane, 1) = u32(f8_to_f32(uint8_t(h >> 8), fmt));
      break;
    }
    case Op::v_cvt_pk_fp8_f32:
    case Op::v_cvt_pk_bf8_f32: { // { f8(S1), f8(S0) } into the half op_sel[3] picks
      const uint32_t pair = f32_to_f8(fsrc(0, lane), fmt, false, clamp_overflow) |
                            uint32_t(f32_to_f8(fsrc(1, lane), fmt, false, clamp_overflow)) << 8;
      uint32_t& d = vreg(w, in.dst, lane);
      d = in.opsel & 8 ? (d & 0xffffu) | pair << 16 : (d & 0xffff0000u) | pair;
      break;
    }
    default: { // v_cvt_sr_*8_f32: S1's top bits added to the mantissa (wrapping), then truncated
      const uint32_t x = u32(fsrc(0, lane)), seed = vread(w, in, 1, lane);
      const uint32_t add = bf8 ? seed >> 11 : seed >> 12;
      const uint32_t tmp = (x & 0xff800000u) | ((x + add) & 0x7fffffu);
      const unsigned byte = (in.opsel >> 2) & 3;
      uint32_t& d = vreg(w, in.dst, lane);
      const uint32_t v = f32_to_f8(f32(tmp), fmt, true, clamp_overflow);
      d = (d & ~(0xffu << (8 * byte))) | v << (8 * byte);
      break;
    }
    }
  }
}

// D = S2 + sum of the four byte products, added in order and each sum rounded to f32 (the
// products of two 8-bit floats are exact); neg_hi[2] is src2's abs, neg_lo[2] its negation.
void Executor::exec_dot4_f8(Wave& w, const Inst& in) {
  const bool a_bf8 = in.op == Op::v_dot4_f32_bf8_fp8 || in.op == Op::v_dot4_f32_bf8_bf8;
  const bool b_bf8 = in.op == Op::v_dot4_f32_fp8_bf8 || in.op == Op::v_dot4_f32_bf8_bf8;
  for (uint32_t m = w.exec(); m; m &= m - 1) {
    const unsigned lane = unsigned(std::countr_zero(m));
    const uint32_t a = vread(w, in, 0, lane), b = vread(w, in, 1, lane);
    float acc = f32(vread(w, in, 2, lane));
    if (in.neg_hi & 4) acc = std::fabs(acc);
    if (in.neg & 4) acc = -acc;
    for (unsigned k = 0; k < 4; ++k)
      acc += f8_to_f32(uint8_t(a >> (8 * k)), a_bf8 ? kBf8 : kFp8) *
             f8_to_f32(uint8_t(b >> (8 * k)), b_bf8 ? kBf8 : kFp8);
    vreg(w, in.dst, lane) = u32(acc);
  }
}

} // namespace sim::shader
