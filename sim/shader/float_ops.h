// Floating-point helpers the vector and scalar ALU models share: bit casts, denormal flushing,
// half-precision conversions, the ISA's IEEE-mode min/max, float->int conversions with the
// ISA's saturation, and the 16 comparison predicates of V_CMP/S_CMP (RDNA3/RDNA4 ISA manuals,
// "Instructions" pseudocode).
#pragma once
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

namespace sim::shader {

// Bit casts through memcpy rather than std::bit_cast: GCC 12's vectoriser gives up on
// bit_cast ("unsupported use in stmt"), and the lane loops of valu_fast_path.cpp would run one
// lane at a time. Both compile to a register move.
inline float f32(uint32_t v) {
  float f;
  std::memcpy(&f, &v, 4);
  return f;
}
inline uint32_t u32(float f) {
  uint32_t v;
  std::memcpy(&v, &f, 4);
  return v;
}
inline double f64(uint64_t v) {
  double d;
  std::memcpy(&d, &v, 8);
  return d;
}
inline uint64_t u64(double d) {
  uint64_t v;
  std::memcpy(&v, &d, 8);
  return v;
}

// Which NaN a result carries when several sources are NaN is not in the public manuals. The
// host's arithmetic leaves it to the operand order its compiler picked (vfmadd132/213/231, a
// commuted add in a vector loop), so the emulator fixes one: the first NaN source in the
// instruction's operand order, quieted. (One NaN source: the host already gives it, quieted.)
// Written as integer selects, not ternaries on floats: GCC 12 vectorises these (blends), and the
// lane loops of valu_fast_path.cpp would otherwise run one lane at a time (the ALU kernel fell
// from 1.6e9 to 0.9e9 lane-instructions/s when they did).
[[gnu::always_inline]] inline bool nan_bits(uint32_t v) { return (v & 0x7fffffffu) > 0x7f800000u; }
[[gnu::always_inline]] inline bool nan_bits(uint64_t v) {
  return (v & ~(uint64_t(1) << 63)) > 0x7ff0000000000000u;
}
[[gnu::always_inline]] inline uint32_t bits_of(float x) { return u32(x); }
[[gnu::always_inline]] inline uint64_t bits_of(double x) { return u64(x); }
[[gnu::always_inline]] inline float from_bits(uint32_t v) { return f32(v); }
[[gnu::always_inline]] inline double from_bits(uint64_t v) { return f64(v); }
// V_CMP_CLASS's mask bit for a float's bits (RDNA3 ISA manual, "VOPC"): 0 signalling NaN,
// 1 quiet NaN, 2..9 -inf, -normal, -denormal, -0, +0, +denormal, +normal, +inf. Read from the
// bits at the format's own width: a denormal half widens to a normal float. Selects, not a
// switch, so the compare rows' lane loops stay branch-free.
template <unsigned kExpBits, unsigned kMantBits, class U>
[[gnu::always_inline]] inline unsigned fp_class_bits(U b) {
  const U emax = (U(1) << kExpBits) - 1, mant = (U(1) << kMantBits) - 1;
  const unsigned neg = unsigned(b >> (kExpBits + kMantBits)) & 1;
  const U e = (b >> kMantBits) & emax, f = b & mant;
  return e == emax ? (f ? unsigned(f >> (kMantBits - 1)) : 9 - 7 * neg)
         : e == 0  ? (f ? 7 - 3 * neg : 6 - neg)
                   : 8 - 5 * neg;
}
[[gnu::always_inline]] inline unsigned fp_class(uint16_t b) {
  return fp_class_bits<5, 10>(b);
}
[[gnu::always_inline]] inline unsigned fp_class(uint32_t b) {
  return fp_class_bits<8, 23>(b);
}
[[gnu::always_inline]] inline unsigned fp_class(uint64_t b) {
  return fp_class_bits<11, 52>(b);
}
template <class T> [[gnu::always_inline]] inline auto quiet_bit() {
  if constexpr (sizeof(T) == 4) return uint32_t(0x00400000u);
  else return uint64_t(1) << 51;
}
template <class T> [[gnu::always_inline]] inline T quieted(T x) {
  return from_bits(bits_of(x) | quiet_bit<T>());
}
template <class T> [[gnu::always_inline]] inline T first_nan(T r, T a, T b) {
  const auto ri = bits_of(r), ai = bits_of(a), bi = bits_of(b);
  auto pick = nan_bits(bi) ? bi : ri;
  pick = nan_bits(ai) ? ai : pick;
  return from_bits(nan_bits(ri) ? pick | quiet_bit<T>() : ri);
}
template <class T> [[gnu::always_inline]] inline T first_nan(T r, T a, T b, T c) {
  const auto ri = bits_of(r), ai = bits_of(a), bi = bits_of(b), ci = bits_of(c);
  auto pick = nan_bits(ci) ? ci : ri;
  pick = nan_bits(bi) ? bi : pick;
  pick = nan_bits(ai) ? ai : pick;
  return from_bits(nan_bits(ri) ? pick | quiet_bit<T>() : ri);
}
// std::ldexp without the library call where the result is exact: a normal x whose scaled
// exponent stays normal only changes its exponent field; zeros, denormals, infinities, NaNs and
// results that overflow or leave the normal range go to std::ldexp (V_LDEXP_F32/F64 are it).
template <class T> [[gnu::always_inline]] inline T ldexp_exact(T x, int32_t n) {
  using Bits = decltype(bits_of(x));
  constexpr int kMantissa = std::numeric_limits<T>::digits - 1;
  constexpr int64_t kExpMax = 2 * std::numeric_limits<T>::max_exponent - 1; // inf/NaN's field
  const Bits b = bits_of(x);
  const int64_t e = int64_t((b >> kMantissa) & Bits(kExpMax));
  const int64_t r = e + n;
  if (e == 0 || e == kExpMax || r < 1 || r >= kExpMax) [[unlikely]]
    return std::ldexp(x, n);
  return from_bits(Bits((b & ~(Bits(kExpMax) << kMantissa)) | Bits(r) << kMantissa));
}

// The arithmetic with that rule; sources in operand order.
template <class T> [[gnu::always_inline]] inline T isa_add(T a, T b) { return first_nan(a + b, a, b); }
template <class T> [[gnu::always_inline]] inline T isa_sub(T a, T b) { return first_nan(a - b, a, b); }
// b - a, with a the first source (V_SUBREV).
template <class T> [[gnu::always_inline]] inline T isa_subrev(T a, T b) { return first_nan(b - a, a, b); }
template <class T> [[gnu::always_inline]] inline T isa_mul(T a, T b) { return first_nan(a * b, a, b); }
template <class T> [[gnu::always_inline]] inline T isa_fma(T a, T b, T c) {
  return first_nan(std::fma(a, b, c), a, b, c);
}

// Rounding to an integral value quiets a signalling NaN (IEEE 754 roundToIntegral; the host's
// libm trunc and floor return it as it is, its vroundps quiets it).
template <class T> [[gnu::always_inline]] inline T isa_trunc(T x) {
  const auto xi = bits_of(x), ri = bits_of(std::trunc(x));
  return from_bits(nan_bits(xi) ? xi | quiet_bit<T>() : ri);
}
template <class T> [[gnu::always_inline]] inline T isa_floor(T x) {
  const auto xi = bits_of(x), ri = bits_of(std::floor(x));
  return from_bits(nan_bits(xi) ? xi | quiet_bit<T>() : ri);
}
template <class T> [[gnu::always_inline]] inline T isa_ceil(T x) {
  const auto xi = bits_of(x), ri = bits_of(std::ceil(x));
  return from_bits(nan_bits(xi) ? xi | quiet_bit<T>() : ri);
}
template <class T> [[gnu::always_inline]] inline T isa_rndne(T x) {
  const auto xi = bits_of(x), ri = bits_of(std::nearbyint(x));
  return from_bits(nan_bits(xi) ? xi | quiet_bit<T>() : ri);
}

// V_FREXP_*: NaN and infinity give 0 exponent and the input itself as mantissa.
inline int32_t frexp_exp(float x) {
  if (std::isnan(x) || std::isinf(x)) return 0;
  int e;
  std::frexp(x, &e);
  return e;
}
inline float frexp_mant(float x) {
  if (std::isnan(x) || std::isinf(x)) return x;
  int e;
  return std::frexp(x, &e);
}

// Denormal flushing per the MODE register's FP_DENORM field, sign kept.
inline float flush(float x, bool on) {
  return on && std::fpclassify(x) == FP_SUBNORMAL ? std::copysign(0.0f, x) : x;
}
// IEEE half precision through the compiler's _Float16 (correctly rounded conversions).
inline float h2f(uint16_t h) {
  return float(std::bit_cast<_Float16>(h));
}
inline uint16_t f2h(double f) {
  return std::bit_cast<uint16_t>(_Float16(f));
}
// bf16 is the high half of an f32.
inline float bf2f(uint16_t b) {
  return f32(uint32_t(b) << 16);
}
inline uint16_t f2bf(double d) { // round to nearest even; NaN stays a (quiet) NaN
  const float f = float(d);
  uint32_t u = u32(f);
  if (std::isnan(f)) return uint16_t((u >> 16) | 0x40);
  u += 0x7fff + ((u >> 16) & 1);
  return uint16_t(u >> 16);
}
// From long double: fused results of halves (a * b + c spans at most 56 bits) are exact in it,
// so their one rounding to half is the only one.
inline uint16_t f2h_exact(long double f) {
  return std::bit_cast<uint16_t>(_Float16(f));
}
inline long double fma_exact(float a, float b, float c) {
  return (long double)a * b + c;
}
// f32 -> f16 rounding toward zero (v_cvt_pk_rtz_f16_f32).
inline uint16_t f2h_rtz(float f) {
  uint16_t h = f2h(f);
  if (std::isnan(f) || std::isinf(f)) return h;
  float back = h2f(h);
  if (std::fabs(back) > std::fabs(f)) h = uint16_t(h - 1); // step toward zero
  return h;
}

// Float -> integer with the ISA's saturation (NaN gives 0).
inline uint32_t cvt_f32_to_u32(float f) {
  if (std::isnan(f) || f <= 0.0f) return 0;
  if (f >= 4294967296.0f) return 0xffffffffu;
  return uint32_t(f);
}
inline int32_t cvt_f32_to_i32(float f) {
  if (std::isnan(f)) return 0;
  if (f >= 2147483648.0f) return std::numeric_limits<int32_t>::max();
  if (f < -2147483648.0f) return std::numeric_limits<int32_t>::min();
  return int32_t(f);
}

// VOP3's output modifier (OMOD 1, 2, 3): the result times 2, 4 or 0.5, before clamping.
template <class T> T apply_omod(T r, unsigned omod) {
  return omod == 1 ? r * T(2) : omod == 2 ? r * T(4) : omod == 3 ? r * T(0.5) : r;
}
// The clamp bit of VOP3 and VOP3P float results: saturate to [0, 1].
template <class T> T clamp01(T x) {
  return x < T(0) ? T(0) : x > T(1) ? T(1) : x;
}
// DX9 multiply: a zero operand gives +0 even against infinity or NaN.
inline float fmul_dx9_zero(float a, float b) {
  return a == 0.0f || b == 0.0f ? 0.0f : a * b;
}

// Inline float constants (operand codes 240..248: 0.5, -0.5, 1, -1, 2, -2, 4, -4, 1/(2*pi)) as an
// f32, f64 or f16 operand sees them (RDNA3 ISA manual, "Scalar ALU operands").
inline constexpr float kInlineF32[] = {0.5f, -0.5f, 1.0f, -1.0f, 2.0f, -2.0f, 4.0f, -4.0f,
                                       0.15915494f};
inline constexpr double kInlineF64[] = {0.5, -0.5, 1.0, -1.0, 2.0, -2.0, 4.0, -4.0,
                                        0.15915494309189532};
inline constexpr uint16_t kInlineF16[] = {0x3800, 0xB800, 0x3C00, 0xBC00, 0x4000,
                                          0xC000, 0x4400, 0xC400, 0x3118};

// IEEE min/max as the ISA defines them in IEEE mode (and IEEE 754-2019 minimumNumber /
// maximumNumber, gfx12's *_num_* operations): a NaN input yields the other operand, and -0
// orders below +0 (the manuals' LT_NEG_ZERO / GT_NEG_ZERO: max(+0, -0) is +0 in either order,
// which std::fmax leaves open and glibc's does not give).
template <class T> T fmin_ieee(T a, T b) {
  if (std::isnan(a)) return b;
  if (std::isnan(b)) return a;
  if (a == b) return std::signbit(a) ? a : b;
  return a < b ? a : b;
}
template <class T> T fmax_ieee(T a, T b) {
  if (std::isnan(a)) return b;
  if (std::isnan(b)) return a;
  if (a == b) return std::signbit(a) ? b : a;
  return a > b ? a : b;
}
// IEEE 754-2019 minimum / maximum (gfx12's s_minimum_* / s_maximum_*): a NaN input gives NaN,
// and -0 orders below +0.
template <class T> T fminimum(T a, T b) {
  if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<T>::quiet_NaN();
  if (a == b) return std::signbit(a) ? a : b;
  return a < b ? a : b;
}
template <class T> T fmaximum(T a, T b) {
  if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<T>::quiet_NaN();
  if (a == b) return std::signbit(a) ? b : a;
  return a > b ? a : b;
}

// The V_CMP / S_CMP float predicates by their 4-bit code.
inline bool compare_f(unsigned code, double a, double b) {
  switch (code & 0xf) {
  case 0x0:
    return false; // f
  case 0x1:
    return a < b; // lt
  case 0x2:
    return a == b; // eq
  case 0x3:
    return a <= b; // le
  case 0x4:
    return a > b; // gt
  case 0x5:
    return a < b || a > b; // lg
  case 0x6:
    return a >= b; // ge
  case 0x7:
    return !std::isnan(a) && !std::isnan(b); // o
  case 0x8:
    return std::isnan(a) || std::isnan(b); // u
  case 0x9:
    return !(a >= b); // nge
  case 0xa:
    return !(a < b || a > b); // nlg
  case 0xb:
    return !(a > b); // ngt
  case 0xc:
    return !(a <= b); // nle
  case 0xd:
    return !(a == b); // neq
  case 0xe:
    return !(a < b); // nlt
  default:
    return true; // t
  }
}

} // namespace sim::shader
