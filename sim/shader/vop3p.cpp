// VOP3P: packed 16-bit operations, mixed-precision FMA and the dot products, lane by lane
// (RDNA3 ISA manual, "VOP3P"); valu_fast_path.cpp runs the packed integer operations.
#include "executor.h"
#include "float_ops.h"
#include "wmma_layout.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace sim::shader {

// VOP3P: packed 16-bit math (op_sel / op_sel_hi pick each half's sources) and mixed
// precision FMA (op_sel_hi says which sources are f16, op_sel which half).
void Executor::exec_vop3p(Wave& w, const Inst& in) {
  if (in.wmma) return exec_wmma(w, in);
  if (fast_paths && exec_vop3p_fast(w, in)) return;
  if (is_f8_dot(in.op)) return exec_dot4_f8(w, in);
  const uint32_t exec = w.exec();
  const bool mix =
      in.op == Op::v_fma_mix_f32 || in.op == Op::v_fma_mixlo_f16 || in.op == Op::v_fma_mixhi_f16;
  for (unsigned lane = 0; lane < kWaveSize; ++lane) {
    if (!((exec >> lane) & 1)) continue;
    uint32_t v[3];
    for (unsigned i = 0; i < 3; ++i) {
      uint16_t code = in.src[i];
      // Inline float constants are packed halves, except where the operand is an f32 (the
      // mixed-precision forms, and dot2's accumulator).
      const bool int_dot = in.op == Op::v_dot4_i32_iu8 || in.op == Op::v_dot4_u32_u8 ||
                           in.op == Op::v_dot8_i32_iu4 || in.op == Op::v_dot8_u32_u4;
      const bool f32_operand =
          mix || int_dot ||
          ((in.op == Op::v_dot2_f32_f16 || in.op == Op::v_dot2_f32_bf16) && i == 2);
      if (code >= src::kFloatHalf && code <= src::kFloatInv2Pi && !f32_operand)
        v[i] = kInlineF16[code - 240] | (uint32_t(kInlineF16[code - 240]) << 16);
      else
        v[i] = vread(w, in, i, lane);
    }
    uint32_t& d = vreg(w, in.dst, lane);
    if (mix) {
      auto arg = [&](unsigned i) {
        double x = (in.opsel_hi >> i) & 1 ? h2f(uint16_t((in.opsel >> i) & 1 ? v[i] >> 16 : v[i]))
                                          : f32(v[i]);
        if (in.neg_hi & (1u << i)) x = std::fabs(x);
        if (in.neg & (1u << i)) x = -x;
        return x;
      };
      double r = std::fma(arg(0), arg(1), arg(2));
      if (in.clamp) r = clamp01(r);
      if (in.op == Op::v_fma_mix_f32)
        d = u32(float(r));
      else if (in.op == Op::v_fma_mixlo_f16)
        d = (d & 0xffff0000u) | f2h(r);
      else
        d = (d & 0xffffu) | (uint32_t(f2h(r)) << 16);
      continue;
    }
    auto half = [&](unsigned i, bool hi) {
      bool sel = hi ? (in.opsel_hi >> i) & 1 : (in.opsel >> i) & 1;
      return uint16_t(sel ? v[i] >> 16 : v[i]);
    };
    auto fhalf = [&](unsigned i, bool hi) {
      float x = h2f(half(i, hi));
      if (((hi ? in.neg_hi : in.neg) >> i) & 1) x = -x;
      return x;
    };
    // Integer dot products of bytes or nibbles (RDNA3 ISA manual, V_DOT4_I32_IU8 ...): the iu
    // forms' neg_lo[0] and neg_lo[1] say whether src0's and src1's elements are signed; clamp
    // saturates the 32-bit sum.
    if (in.op == Op::v_dot4_i32_iu8 || in.op == Op::v_dot4_u32_u8 || in.op == Op::v_dot8_i32_iu4 ||
        in.op == Op::v_dot8_u32_u4) {
      const bool nibbles = in.op == Op::v_dot8_i32_iu4 || in.op == Op::v_dot8_u32_u4;
      const bool iu = in.op == Op::v_dot4_i32_iu8 || in.op == Op::v_dot8_i32_iu4;
      const unsigned bits = nibbles ? 4 : 8, n = 32 / bits;
      auto elem = [&](uint32_t word, unsigned k, bool sign) {
        const uint32_t e = (word >> (k * bits)) & ((1u << bits) - 1);
        return sign ? int64_t(int32_t(e << (32 - bits)) >> (32 - bits)) : int64_t(e);
      };
      int64_t sum = iu ? int64_t(int32_t(v[2])) : int64_t(v[2]);
      for (unsigned k = 0; k < n; ++k)
        sum += elem(v[0], k, iu && (in.neg & 1)) * elem(v[1], k, iu && (in.neg & 2));
      if (in.clamp)
        sum = iu ? std::clamp<int64_t>(sum, INT32_MIN, INT32_MAX)
                 : std::clamp<int64_t>(sum, 0, UINT32_MAX);
      d = uint32_t(sum);
      continue;
    }
    if (in.op == Op::v_dot2_f32_bf16) { // bf16 pairs (the high halves of f32s) into an f32
      auto bf = [&](unsigned i, bool hi) {
        float x = f32(uint32_t(half(i, hi)) << 16);
        if (((hi ? in.neg_hi : in.neg) >> i) & 1) x = -x;
        return x;
      };
      const long double r = (long double)bf(0, false) * bf(1, false) +
                            (long double)bf(0, true) * bf(1, true) + f32(v[2]);
      d = u32(float(in.clamp ? clamp01(r) : r));
      continue;
    }
    if (in.op == Op::v_dot2_f32_f16) { // f16 pairs multiplied and summed into an f32
      const long double r = (long double)fhalf(0, false) * fhalf(1, false) +
                            (long double)fhalf(0, true) * fhalf(1, true) + f32(v[2]);
      d = u32(float(in.clamp ? clamp01(r) : r));
      continue;
    }
    uint16_t out[2];
    for (int hi = 0; hi < 2; ++hi) {
      uint16_t x = half(0, hi), y = half(1, hi);
      // One operation per line: it reads as the ISA table it is.
      // clang-format off
      switch (in.op) {
      case Op::v_pk_mul_lo_u16: out[hi] = uint16_t(uint32_t(x) * y); break;
      // With the clamp bit, additions and subtractions saturate.
      case Op::v_pk_add_u16: {
        const uint32_t r = uint32_t(x) + y;
        out[hi] = uint16_t(in.clamp && r > 0xffff ? 0xffff : r); break;
      }
      case Op::v_pk_sub_u16: out[hi] = uint16_t(in.clamp && y > x ? 0 : x - y); break;
      case Op::v_pk_add_i16: case Op::v_pk_sub_i16: {
        int32_t r = in.op == Op::v_pk_add_i16 ? int32_t(int16_t(x)) + int16_t(y) : int32_t(int16_t(x)) - int16_t(y);
        if (in.clamp) r = std::clamp(r, -32768, 32767);
        out[hi] = uint16_t(r); break;
      }
      case Op::v_pk_max_i16: out[hi] = uint16_t(std::max(int16_t(x), int16_t(y))); break;
      case Op::v_pk_min_i16: out[hi] = uint16_t(std::min(int16_t(x), int16_t(y))); break;
      case Op::v_pk_max_u16: out[hi] = std::max(x, y); break;
      case Op::v_pk_min_u16: out[hi] = std::min(x, y); break;
      case Op::v_pk_mad_u16: {
        const uint32_t r = uint32_t(x) * y + half(2, hi);
        out[hi] = uint16_t(in.clamp && r > 0xffff ? 0xffff : r); break;
      }
      case Op::v_pk_mad_i16: {
        int32_t r = int32_t(int16_t(x)) * int16_t(y) + int16_t(half(2, hi));
        if (in.clamp) r = std::clamp(r, -32768, 32767);
        out[hi] = uint16_t(r); break;
      }
      case Op::v_pk_max_f16: out[hi] = f2h(fmax_ieee(fhalf(0, hi), fhalf(1, hi))); break;
      // gfx12: IEEE 754-2019 minimum/maximum (NaN in, NaN out; -0 below +0).
      case Op::v_pk_minimum_f16: out[hi] = f2h(fminimum(fhalf(0, hi), fhalf(1, hi))); break;
      case Op::v_pk_maximum_f16: out[hi] = f2h(fmaximum(fhalf(0, hi), fhalf(1, hi))); break;
      case Op::v_pk_min_f16: out[hi] = f2h(fmin_ieee(fhalf(0, hi), fhalf(1, hi))); break;
      case Op::v_pk_lshlrev_b16: out[hi] = uint16_t(y << (x & 15)); break;
      case Op::v_pk_lshrrev_b16: out[hi] = uint16_t(y >> (x & 15)); break;
      case Op::v_pk_ashrrev_i16: out[hi] = uint16_t(int16_t(y) >> (x & 15)); break;
      case Op::v_pk_add_f16: out[hi] = f2h(double(fhalf(0, hi)) + fhalf(1, hi)); break;
      case Op::v_pk_mul_f16: out[hi] = f2h(double(fhalf(0, hi)) * fhalf(1, hi)); break;
      case Op::v_pk_fma_f16: out[hi] = f2h_exact(fma_exact(fhalf(0, hi), fhalf(1, hi), fhalf(2, hi))); break;
      default: instruction_fault(w, in, "unimplemented packed instruction");
      }
      // clang-format on
    }
    d = out[0] | (uint32_t(out[1]) << 16);
  }
}

} // namespace sim::shader
