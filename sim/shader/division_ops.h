// The division helpers of the vector ALU (V_DIV_SCALE, V_DIV_FMAS, V_DIV_FIXUP), shared by the
// general path (valu.cpp) and the fast path (valu_fast_path.cpp): LLVM's division sequences
// (SITargetLowering::LowerFDIV32/64) scale, refine and fix up with them.
#pragma once
#include "float_ops.h"

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

namespace sim::shader {

inline int exponent_of(float x) {
  return std::fpclassify(x) == FP_ZERO ? 0 : int((std::bit_cast<uint32_t>(x) >> 23) & 0xff);
}
inline int exponent_of(double x) {
  return std::fpclassify(x) == FP_ZERO ? 0 : int((std::bit_cast<uint64_t>(x) >> 52) & 0x7ff);
}

// V_DIV_SCALE (AMD ISA pseudocode): scale an operand of a division so that the Newton-Raphson
// steps see no subnormals; VCC says whether the quotient needs post-scaling (V_DIV_FMAS).
// One case departs from the manual's text: when both 1/S1 and S2/S1 are subnormal (a
// denominator near the top of the range and a quotient below the normals), the manual scales
// the denominator up by 2^scale, which overflows it to infinity and would make 1.0 / DBL_MAX
// infinite. The denominator has to go down, as in the plain "1/S1 is subnormal" case below,
// with VCC set so that V_DIV_FMAS scales the (now normal) quotient back down into the
// subnormals in its one rounding: that is the only reading under which LLVM's division
// sequence (SITargetLowering::LowerFDIV64) is correctly rounded there, as OpenCL requires.
template <class T> T div_scale(T s0, T s1, T s2, bool& vcc, int big, int scale, int tiny_exp) {
  vcc = false;
  auto denorm = [](auto v) { return std::fpclassify(v) == FP_SUBNORMAL; };
  if (s2 == T(0) || s1 == T(0)) return std::numeric_limits<T>::quiet_NaN();
  if (exponent_of(s2) - exponent_of(s1) >= big) {
    vcc = true;
    return s0 == s1 ? std::ldexp(s0, scale) : s0;
  }
  if (denorm(s1)) return std::ldexp(s0, scale);
  // 1/S1 below the normals of T. The manual computes it in double for f32 too; tested as a
  // double's denormal it could never be one, and a float reciprocal of 2^-128 left the Newton
  // steps short of a bit (2^64 / 0x1.fffffep+127 came out 0x1p-64, not 0x1.000002p-64).
  const double rcp = std::fabs(1.0 / double(s1));
  const bool rcp_denorm = rcp != 0.0 && rcp < double(std::numeric_limits<T>::min());
  if (rcp_denorm && denorm(T(s2 / s1))) {
    vcc = true;
    return s0 == s1 ? std::ldexp(s0, -scale) : s0;
  }
  if (rcp_denorm) return std::ldexp(s0, -scale);
  if (denorm(T(s2 / s1))) {
    vcc = true;
    return s0 == s2 ? std::ldexp(s0, scale) : s0;
  }
  if (exponent_of(s2) <= tiny_exp) return std::ldexp(s0, scale);
  return s0;
}

// A float with at least binary128's 113-bit significand, where the host has one.
#if defined(__SIZEOF_FLOAT128__)
__extension__ typedef __float128 Quad;
#else
typedef long double Quad;
#endif

// V_DIV_FIXUP: special cases of a quotient s0 = s2 / s1. A quotient whose exponent is below
// the smallest subnormal's by more than a rounding can reach is zero (f32: exponent difference
// under -150, f64: under -1075; the f16 form has no such case): V_DIV_SCALE may have pushed a
// huge denominator of a tiny numerator to infinity, leaving s0 meaningless.
template <class T> T div_fixup(T s0, T s1, T s2, int underflow = std::numeric_limits<int>::min()) {
  const bool sign = std::signbit(s1) != std::signbit(s2);
  const T inf = std::numeric_limits<T>::infinity();
  if (std::isnan(s2)) return std::numeric_limits<T>::quiet_NaN();
  if (std::isnan(s1)) return std::numeric_limits<T>::quiet_NaN();
  if (s1 == T(0) && s2 == T(0)) return -std::numeric_limits<T>::quiet_NaN();
  if (std::isinf(s1) && std::isinf(s2)) return -std::numeric_limits<T>::quiet_NaN();
  if (s1 == T(0) || std::isinf(s2)) return sign ? -inf : inf;
  if (std::isinf(s1) || s2 == T(0)) return sign ? -T(0) : T(0);
  if (exponent_of(s2) - exponent_of(s1) < underflow) return sign ? -T(0) : T(0);
  if (std::isnan(s0)) return sign ? -inf : inf; // overflowed quotient
  return sign ? -std::fabs(s0) : std::fabs(s0);
}

// V_DIV_FMAS_F64: as for f32, one rounding for fma and scaling. Without VCC a plain fma: x87's
// 64-bit long double would round twice (fma(0x1p-53, 1 + 0x1p-27, 1) gave 1, not 1 + 2^-52).
// With it, the product is exact in binary128 and the sum is rounded to 113 bits before the one
// rounding to double, after the (exact) scaling.
inline double div_fmas_f64(double a, double b, double c, bool vcc) {
  if (!vcc) return isa_fma(a, b, c);
  Quad f = Quad(a) * Quad(b) + Quad(c);
  f *= exponent_of(c) >= 1023 ? Quad(0x1p128) : Quad(0x1p-128);
  return double(f);
}

} // namespace sim::shader
