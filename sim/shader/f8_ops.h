// 8-bit floats (RDNA4 ISA manual, 7.5 "8-bit Math"): FP8 is E4M3 with bias 7, no infinity and
// 0x7f/0xff as NaN (largest 448); BF8 is E5M2 with bias 15, IEEE-like (largest 57344). The
// conversions from f32 round to nearest even or truncate (the stochastic forms), and an overflow
// gives NaN (FP8) or infinity (BF8), or the largest value under MODE.FP16_OVFL (7.6.2).
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>

namespace sim::shader {

struct F8Format {
  int mant_bits, bias;
  bool has_inf;
  float max;
};
inline constexpr F8Format kFp8{3, 7, false, 448.0f}, kBf8{2, 15, true, 57344.0f};

inline float f8_to_f32(uint8_t v, const F8Format& f) {
  const bool neg = v >> 7;
  const int exp_bits = 7 - f.mant_bits, top = (1 << exp_bits) - 1;
  const int e = (v >> f.mant_bits) & top, m = v & ((1 << f.mant_bits) - 1);
  float r;
  if (f.has_inf && e == top)
    r = m ? NAN : INFINITY;
  else if (!f.has_inf && e == top && m == (1 << f.mant_bits) - 1)
    r = NAN;
  else if (e == 0)
    r = std::ldexp(float(m), 1 - f.bias - f.mant_bits);
  else
    r = std::ldexp(float(m + (1 << f.mant_bits)), e - f.bias - f.mant_bits);
  return neg ? -r : r;
}

// `truncate`: round toward zero (the stochastic conversions); else to nearest even.
inline uint8_t f32_to_f8(float x, const F8Format& f, bool truncate, bool clamp_overflow) {
  const uint8_t sign = std::signbit(x) ? 0x80 : 0;
  const uint8_t nan = uint8_t(sign | 0x7f);
  const uint8_t largest = uint8_t(sign | (f.has_inf ? 0x7b : 0x7e));
  const uint8_t inf = f.has_inf ? uint8_t(sign | 0x7c) : nan;
  if (std::isnan(x)) return nan;
  const float a = std::fabs(x);
  if (std::isinf(a)) return clamp_overflow ? largest : inf;
  // The value's quantum: 2^(exponent - mantissa bits), at least that of the denormals.
  const int min_exp = 1 - f.bias;
  const int e = a == 0 ? min_exp : std::max(std::ilogb(a), min_exp);
  const float quantum = std::ldexp(1.0f, e - f.mant_bits);
  const float q = truncate ? std::trunc(a / quantum) : std::nearbyint(a / quantum);
  const float v = q * quantum; // exact: q has at most mant_bits + 2 bits
  if (v > f.max) return clamp_overflow ? largest : inf;
  if (v < std::ldexp(1.0f, min_exp)) return uint8_t(sign | uint8_t(q)); // denormal (or zero)
  const int ve = std::ilogb(v);
  const int m = int(std::ldexp(v, f.mant_bits - ve)) - (1 << f.mant_bits);
  return uint8_t(sign | (ve + f.bias) << f.mant_bits | m);
}

} // namespace sim::shader
