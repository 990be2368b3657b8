// Corrections of libclc 22's math builtins where its algorithm, not the hardware, is wrong for
// a device that keeps denormals and signed zeros (amcl reports CL_FP_DENORM for float and
// double). Appended to workitem_builtins.cl (its typedefs and OVERLOAD) and linked ahead of
// libclc like it. A wrapper reaches libclc's own definition of the builtin it replaces as
// __libclc_<name>: link_builtins (compiler.cpp) gives libclc's function of the same mangled
// parameters that name. Only replaced overloads go through __libclc_; anything else is called
// by its own name. Each case was shown to be libclc's by extracting its bitcode
// (llvm-extract-22) and running it on the host CPU, where it gives the same wrong result.
#define LIBCLC __attribute__((overloadable))
#define EVERY_WIDTH(M, T) M(T) M(T##2) M(T##3) M(T##4) M(T##8) M(T##16)
#define EVERY_VECTOR(M, T) M(T, 2) M(T, 3) M(T, 4) M(T, 8) M(T, 16)
// Loops over the components of a vector are unrolled: a component indexed at run time is a
// v_movrels_b32, which the emulator does not implement yet.

// ---- Signed zeros: f(-0) is -0 ----
// libclc's double sin, tan, asin, asinpi, atan, erf, expm1 and sincos work on |x| and put the
// sign back with x < 0, which -0 is not: f(-0) came back +0.
#define KEEP_ZERO(fn, T)                                                                           \
  LIBCLC T __libclc_##fn(T);                                                                       \
  OVERLOAD T fn(T x) { return x == (T)0 ? x : __libclc_##fn(x); }
#define KEEP_ZERO_DOUBLE(T)                                                                        \
  KEEP_ZERO(sin, T)                                                                                \
  KEEP_ZERO(tan, T)                                                                                \
  KEEP_ZERO(asin, T)                                                                               \
  KEEP_ZERO(asinpi, T) KEEP_ZERO(atan, T) KEEP_ZERO(erf, T) KEEP_ZERO(expm1, T)
EVERY_WIDTH(KEEP_ZERO_DOUBLE, double)

#define SINCOS_IN(T, AS)                                                                           \
  LIBCLC T __libclc_sincos(T, AS T*);                                                              \
  OVERLOAD T sincos(T x, AS T* cosval) {                                                           \
    const T s = __libclc_sincos(x, cosval);                                                        \
    return x == (T)0 ? x : s;                                                                      \
  }
#define SINCOS(T)                                                                                  \
  SINCOS_IN(T, __global) SINCOS_IN(T, __local) SINCOS_IN(T, __private) SINCOS_IN(T, __generic)
EVERY_WIDTH(SINCOS, double)

// ---- Signed zeros of sinpi, cospi, tanpi and atanpi ----
// OpenCL 3.0 §7.5.1 gives their zeros signs that libclc's (of every type) get wrong, or
// right only by chance: sinpi(n) is copysign(0, n) (sinpi(1) was -0), cospi(n + 0.5) is +0 (was
// -0), tanpi(n) is copysign(0, n) for even n and copysign(0, -n) for odd n (tanpi(1) was +0);
// double atanpi(-0) is -0 (was +0). A zero result means such an argument: near 0 the functions
// are about pi x or 1/pi x, never 0 for a nonzero x.
#define PI_ZEROS(T)                                                                                \
  LIBCLC T __libclc_sinpi(T);                                                                      \
  OVERLOAD T sinpi(T x) {                                                                          \
    const T r = __libclc_sinpi(x);                                                                 \
    return r == (T)0 ? __builtin_elementwise_copysign((T)0, x) : r;                                \
  }                                                                                                \
  LIBCLC T __libclc_cospi(T);                                                                      \
  OVERLOAD T cospi(T x) {                                                                          \
    const T r = __libclc_cospi(x);                                                                 \
    return r == (T)0 ? (T)0 : r;                                                                   \
  }                                                                                                \
  LIBCLC T __libclc_tanpi(T);                                                                      \
  OVERLOAD T tanpi(T x) {                                                                          \
    const T r = __libclc_tanpi(x), half_x = x * (T)0.5;                                            \
    return r == (T)0 ? __builtin_elementwise_copysign(                                             \
                          (T)0, half_x == __builtin_elementwise_floor(half_x) ? x : -x)            \
                    : r;                                                                           \
  }
EVERY_WIDTH(PI_ZEROS, float)
EVERY_WIDTH(PI_ZEROS, double)
EVERY_WIDTH(PI_ZEROS, half)
#define KEEP_ZERO_ATANPI(T) KEEP_ZERO(atanpi, T)
EVERY_WIDTH(KEEP_ZERO_ATANPI, double)

// ---- tgamma ----
// libclc's double tgamma is within 0.6 ulp on [1, 2) but drifts away from it: measured on the
// host against tgammal, 44 ulp on [5, 10], 393 on [20, 50], 2040 on [150, 171.6], 1762 for
// negative x below -50 (what follows stays within 3.4 ulp everywhere). It gives +inf for -0,
// for negative denormals and where a large negative argument's result underflows
// (tgamma(-829.5)). So only its [1, 2) core is used: for x >= 2,
// tgamma(x) = tgamma(x - n) (x - 1) (x - 2) ... (x - n) with x - n in [1, 2), the product
// kept in double-double (each x - k is exact) with its exponent apart; on (0, 1),
// tgamma(x + 1) / x; for negative x, the reflection pi / (sinpi(x) tgamma(1 - x)),
// tgamma(1 - x) being -x tgamma(-x) with the exact factor -x in the product (1 - x itself is
// rounded once it leaves -x's binade, which costs 600 ulp near -127).
// Near zero tgamma(x) = 1/x - 0.577... + O(x), so below 2^-53 1/x is within half an ulp. Below
// -185 |tgamma(x)| is under half the least denormal: zero of the sign of sin(pi x) (-0 for an
// odd floor(x)), NaN at the poles. Float and half compute in double. Vectors go component by
// component, unrolled (a component indexed at run time is a v_movrels_b32, which the emulator
// does not implement yet).
LIBCLC double __libclc_tgamma(double);
OVERLOAD double sinpi(double);
// tgamma(x) (first = 1, x in [2, 171.7]) or x tgamma(x) (first = 0, x >= 1): a mantissa times
// 2^*exponent.
static double tgamma_product(double x, double first, int* exponent) {
  const double n = __builtin_floor(x) - 1.0;
  double hi = 1.0, lo = 0.0;
  int e = 0;
  for (double k = first; k <= n; k += 1.0) {
    const double f = x - k, p = hi * f;
    lo = __builtin_fma(hi, f, -p) + lo * f;
    hi = p;
    if (hi > 0x1p512) hi *= 0x1p-512, lo *= 0x1p-512, e += 512;
  }
  const double g = __libclc_tgamma(x - n);
  *exponent = e;
  return __builtin_fma(g, hi, g * lo);
}
static double tgamma_double(double x) {
  if (__builtin_fabs(x) < 0x1p-53) return 1.0 / x; // and the zeros
  if (!(x == x)) return x;
  if (x >= 2.0) {
    if (x > 171.7) return __builtin_inf();
    int e;
    const double m = tgamma_product(x, 1.0, &e);
    return __builtin_ldexp(m, e);
  }
  if (x >= 1.0) return __libclc_tgamma(x);
  if (x > 0.0) return __libclc_tgamma(x + 1.0) / x;
  const double f = __builtin_floor(x);
  if (f == x) return __builtin_nan(""); // the poles and -inf
  if (x < -185.0) return ((long)__builtin_fmax(f, -0x1p53) & 1) ? -0.0 : 0.0;
  int e = 0;
  const double g = x > -1.0 ? __libclc_tgamma(1.0 - x) : tgamma_product(-x, 0.0, &e);
  return __builtin_ldexp(0x1.921fb54442d18p+1 / (sinpi(x) * g), -e);
}
OVERLOAD double tgamma(double x) {
  return tgamma_double(x);
}
OVERLOAD float tgamma(float x) {
  return (float)tgamma_double(x);
}
OVERLOAD half tgamma(half x) {
  return (half)tgamma_double(x);
}
#define TGAMMA_VECTOR(T, N)                                                                        \
  OVERLOAD T##N tgamma(T##N x) {                                                                   \
    T##N r;                                                                                        \
    _Pragma("unroll") for (int i = 0; i < N; ++i) r[i] = (T)tgamma_double(x[i]);                   \
    return r;                                                                                      \
  }
EVERY_VECTOR(TGAMMA_VECTOR, double)
EVERY_VECTOR(TGAMMA_VECTOR, float)
EVERY_VECTOR(TGAMMA_VECTOR, half)

// ---- float results below FLT_MIN ----
// libclc's float exp scales its result by adding p << 23 to the bits, which cannot make a
// denormal, and returns 0 below ln(FLT_MIN): exp(-98.15) was 0, not 2.4e-43. Below -64, exp(x)
// is exp(x + 64 ln 2) * 2^-64. With 64 ln 2 = C_HI + C_LO, C_HI a float, x + C_HI is exact (both
// are multiples of 2^-18 and the sum is below 64 in magnitude), exp(x + C_HI) is a normal
// float, the factor 1 + C_LO corrects for the tail, and the scaling by 2^-64 rounds once, into
// the denormals.
#define EXP_SCALED_BELOW -64.0f
#define EXP_C_HI 0x1.62e43p+5f
#define EXP_C_LO -0x1.05c61p-23f
LIBCLC float __libclc_exp(float);
static inline float exp_scaled(float x) {
  const float e = __libclc_exp(x + EXP_C_HI);
  return __builtin_fmaf(e, EXP_C_LO, e) * 0x1p-64f;
}
OVERLOAD float exp(float x) {
  return x < EXP_SCALED_BELOW ? exp_scaled(x) : __libclc_exp(x);
}
#define EXP_VECTOR(T, N)                                                                           \
  LIBCLC T##N __libclc_exp(T##N);                                                                  \
  OVERLOAD T##N exp(T##N x) {                                                                      \
    T##N r = __libclc_exp(x);                                                                      \
    _Pragma("unroll") for (int i = 0; i < N; ++i)                                                  \
      if (x[i] < EXP_SCALED_BELOW) r[i] = exp_scaled(x[i]);                                        \
    return r;                                                                                      \
  }
EVERY_VECTOR(EXP_VECTOR, float)

// libclc's float exp2 builds its result the same way and is 0 below -126: exp2(-126.03) was 0,
// not 0x1.ea4afcp-127. Below -64, exp2(x) is exp2(x + 64) * 2^-64: x + 64 is exact (x is a
// multiple of 2^-17 there), exp2(x + 64) a normal float, and the scaling rounds once.
#define EXP2_SCALED_BELOW -64.0f
LIBCLC float __libclc_exp2(float);
OVERLOAD float exp2(float x) {
  return x < EXP2_SCALED_BELOW ? __libclc_exp2(x + 64.0f) * 0x1p-64f : __libclc_exp2(x);
}
#define EXP2_VECTOR(T, N)                                                                          \
  LIBCLC T##N __libclc_exp2(T##N);                                                                 \
  OVERLOAD T##N exp2(T##N x) {                                                                     \
    T##N r = __libclc_exp2(x);                                                                     \
    _Pragma("unroll") for (int i = 0; i < N; ++i)                                                  \
      if (x[i] < EXP2_SCALED_BELOW) r[i] = __libclc_exp2(x[i] + 64.0f) * 0x1p-64f;                 \
    return r;                                                                                      \
  }
EVERY_VECTOR(EXP2_VECTOR, float)

// libclc's float erfc builds on that exp and is 0 from about 9.19 on (erfc(9.70) was 0, not
// 7.2e-43). There libclc's double erfc, rounded to float once, is well within the bound.
#define ERFC_DOUBLE_ABOVE 9.0f
OVERLOAD double erfc(double);
LIBCLC float __libclc_erfc(float);
OVERLOAD float erfc(float x) {
  return x > ERFC_DOUBLE_ABOVE ? (float)erfc((double)x) : __libclc_erfc(x);
}
#define ERFC_VECTOR(T, N)                                                                          \
  LIBCLC T##N __libclc_erfc(T##N);                                                                 \
  OVERLOAD T##N erfc(T##N x) {                                                                     \
    T##N r = __libclc_erfc(x);                                                                     \
    _Pragma("unroll") for (int i = 0; i < N; ++i)                                                  \
      if (x[i] > ERFC_DOUBLE_ABOVE) r[i] = (float)erfc((double)x[i]);                              \
    return r;                                                                                      \
  }
EVERY_VECTOR(ERFC_VECTOR, float)

// libclc's float rootn loses results near and below FLT_MIN the same way:
// rootn(-0x1.000002p-126, 1) was -0. There its double rootn, rounded to float once, is within
// the bound; zeros go that way too and come back unchanged.
#define ROOTN_DOUBLE_BELOW 0x1p-125f
OVERLOAD double rootn(double, int);
LIBCLC float __libclc_rootn(float, int);
OVERLOAD float rootn(float x, int n) {
  const float r = __libclc_rootn(x, n);
  return __builtin_fabsf(r) < ROOTN_DOUBLE_BELOW ? (float)rootn((double)x, n) : r;
}
#define ROOTN_VECTOR(T, N)                                                                         \
  LIBCLC T##N __libclc_rootn(T##N, int##N);                                                        \
  OVERLOAD T##N rootn(T##N x, int##N n) {                                                          \
    T##N r = __libclc_rootn(x, n);                                                                 \
    _Pragma("unroll") for (int i = 0; i < N; ++i)                                                  \
      if (__builtin_fabsf(r[i]) < ROOTN_DOUBLE_BELOW) r[i] = (float)rootn((double)x[i], n[i]);     \
    return r;                                                                                      \
  }
EVERY_VECTOR(ROOTN_VECTOR, float)

// ---- float fmod, remainder and remquo of a denormal operand ----
// libclc's float versions rebuild the result from the operands' exponent fields, which are 0 for
// a denormal: fmod(0.3387, 0x1.fffffcp-127) was 0, remainder(-7543.95, 0x1p-149) +0 instead of
// -0, remquo(5.65, 0x1p-149) NaN, remquo(-0x1.5b2dd8p-127, -0x1.0068eap-110) -0 instead of x.
// The results are exact, and a float denormal is a normal double: the double versions give
// them, and the quotient bits, exactly.
static inline int denormal_float(float y) {
  return y != 0.0f && __builtin_fabsf(y) < 0x1p-126f;
}
static inline int denormal_operand(float x, float y) {
  return denormal_float(x) || denormal_float(y);
}
#define EXACT_IN_DOUBLE(fn)                                                                        \
  OVERLOAD double fn(double, double);                                                              \
  LIBCLC float __libclc_##fn(float, float);                                                        \
  OVERLOAD float fn(float x, float y) {                                                            \
    return denormal_operand(x, y) ? (float)fn((double)x, (double)y) : __libclc_##fn(x, y);         \
  }
#define EXACT_IN_DOUBLE_VECTOR(fn, N)                                                              \
  LIBCLC float##N __libclc_##fn(float##N, float##N);                                               \
  OVERLOAD float##N fn(float##N x, float##N y) {                                                   \
    float##N r = __libclc_##fn(x, y);                                                              \
    _Pragma("unroll") for (int i = 0; i < N; ++i)                                                  \
      if (denormal_operand(x[i], y[i])) r[i] = (float)fn((double)x[i], (double)y[i]);              \
    return r;                                                                                      \
  }
#define FMOD_VECTOR(T, N) EXACT_IN_DOUBLE_VECTOR(fmod, N)
#define REMAINDER_VECTOR(T, N) EXACT_IN_DOUBLE_VECTOR(remainder, N)
EXACT_IN_DOUBLE(fmod)
EVERY_VECTOR(FMOD_VECTOR, float)
EXACT_IN_DOUBLE(remainder)
EVERY_VECTOR(REMAINDER_VECTOR, float)

OVERLOAD double remquo(double, double, __private int*);
#define REMQUO_IN(AS)                                                                              \
  LIBCLC float __libclc_remquo(float, float, AS int*);                                             \
  OVERLOAD float remquo(float x, float y, AS int* quo) {                                           \
    if (!denormal_operand(x, y)) return __libclc_remquo(x, y, quo);                                \
    int q;                                                                                         \
    const float r = (float)remquo((double)x, (double)y, &q);                                       \
    *quo = q;                                                                                      \
    return r;                                                                                      \
  }
#define REMQUO_VECTOR_IN(N, AS)                                                                    \
  LIBCLC float##N __libclc_remquo(float##N, float##N, AS int##N*);                                 \
  OVERLOAD float##N remquo(float##N x, float##N y, AS int##N* quo) {                               \
    float##N r = __libclc_remquo(x, y, quo);                                                       \
    int##N q = *quo;                                                                               \
    _Pragma("unroll") for (int i = 0; i < N; ++i) {                                                \
      if (!denormal_operand(x[i], y[i])) continue;                                                 \
      int qi;                                                                                      \
      r[i] = (float)remquo((double)x[i], (double)y[i], &qi);                                       \
      q[i] = qi;                                                                                   \
    }                                                                                              \
    *quo = q;                                                                                      \
    return r;                                                                                      \
  }
#define REMQUO_VECTOR(T, N)                                                                        \
  REMQUO_VECTOR_IN(N, __global)                                                                    \
  REMQUO_VECTOR_IN(N, __local) REMQUO_VECTOR_IN(N, __private) REMQUO_VECTOR_IN(N, __generic)
REMQUO_IN(__global)
REMQUO_IN(__local)
REMQUO_IN(__private)
REMQUO_IN(__generic)
EVERY_VECTOR(REMQUO_VECTOR, float)

// ---- double pow and powr of a huge y ----
// libclc's double pow and powr lose y * log(x) once |y| is large: pow(0.5, 0x1p200) is
// 0x1.33a82303c1153p-584, pow(0.5, 0x1p1000) +inf, pow(22.37, DBL_MAX) NaN, where all are 0 or
// +inf. From |y| = 2^64 on, y is an even integer and |y log2|x|| exceeds 2048 for every finite
// |x| other than 1 and 0, so the result is +inf or +0 by whether |x| and |y| lie on the same
// side of 1, and 1 for |x| = 1.
#define POW_HUGE_Y(fn, N, POSITIVE_X)                                                              \
  LIBCLC double##N __libclc_##fn(double##N, double##N);                                            \
  OVERLOAD double##N fn(double##N x, double##N y) {                                                \
    const double##N ax = __builtin_elementwise_abs(x), ay = __builtin_elementwise_abs(y);          \
    const double##N beyond = (ax > 1.0) == (y > 0.0) ? (double##N)__builtin_inf() : 0.0;           \
    const double##N exact = ax == 1.0 ? (double##N)1.0 : beyond;                                   \
    return ay >= 0x1p64 && ay < __builtin_inf() && ax > 0.0 && ax < __builtin_inf() && POSITIVE_X  \
               ? exact                                                                             \
               : __libclc_##fn(x, y);                                                              \
  }
#define POW_ANY_X(T, N) POW_HUGE_Y(pow, N, 1)
#define POWR_POSITIVE_X(T, N) POW_HUGE_Y(powr, N, x > 0.0)
POW_ANY_X(double, )
EVERY_VECTOR(POW_ANY_X, double)
POWR_POSITIVE_X(double, )
EVERY_VECTOR(POWR_POSITIVE_X, double)

// ---- vstore_half*_rtp and _rtn (OpenCL C 3.0 §6.15.8) ----
// libclc 22's rounding helper sets the mantissa bits below half's precision and steps to the
// next float, but counts at most 10 of half's denormal steps, so a value below half's least
// denormal (2^-24) stays below it and then rounds to zero: vstore_half_rtp(0x1p-100f) stored +0,
// not 0x0001, and rtn of a tiny negative value -0, not 0x8001 (found by tests/system/
// builtin_family_differential_test against PoCL). Here the half is rounded in integer
// arithmetic from the value's bits, in the direction asked, for float and double alike.

// The half nearest x in direction `up` (toward +infinity when the value is positive, -infinity
// when negative: rtp or rtn by the sign), else toward zero. `bits` is the value's magnitude as
// an integer with `mant` fraction bits and exponent bias `bias`.
static ushort half_directed(ulong bits, int mant, int bias, ushort sign, bool up) {
  const int exp_bits = mant == 23 ? 8 : 11;
  const ulong exp_field = bits >> mant, frac = bits & ((1UL << mant) - 1);
  const ulong max_field = (1UL << exp_bits) - 1;
  if (exp_field == max_field) // infinity, or a NaN kept quiet with its payload's top bits
    return sign | (frac ? (ushort)(0x7e00 | (frac >> (mant - 10))) : (ushort)0x7c00);
  if (bits == 0) return sign;
  // The value is m * 2^(e - mant), m with its leading bit (none for a denormal).
  const int e = exp_field ? (int)exp_field - bias : 1 - bias;
  const ulong m = exp_field ? frac | (1UL << mant) : frac;
  if (e > 15) return sign | (up ? 0x7c00 : 0x7bff);
  // Fraction bits dropped: half keeps 10 of a normal, fewer of a denormal (exponent -14).
  int shift = mant - 10 + (e < -14 ? -14 - e : 0);
  if (shift > mant + 2) shift = mant + 2; // every bit dropped, the value nonzero
  const ulong q = m >> shift, rest = m & ((1UL << shift) - 1);
  // A normal's leading bit lands on bit 10 and carries into the exponent field.
  const uint h = (uint)q + (e >= -14 ? (uint)(e + 14) << 10 : 0u) + (up && rest ? 1u : 0u);
  if (h >= 0x7c00) return sign | (up ? 0x7c00 : 0x7bff);
  return sign | (ushort)h;
}
static OVERLOAD ushort half_rtp(float x) {
  const uint u = __builtin_astype(x, uint);
  return half_directed(u & 0x7fffffff, 23, 127, (ushort)(u >> 16 & 0x8000), !(u >> 31));
}
static OVERLOAD ushort half_rtn(float x) {
  const uint u = __builtin_astype(x, uint);
  return half_directed(u & 0x7fffffff, 23, 127, (ushort)(u >> 16 & 0x8000), u >> 31);
}
static OVERLOAD ushort half_rtp(double x) {
  const ulong u = __builtin_astype(x, ulong);
  return half_directed(u & 0x7fffffffffffffffUL, 52, 1023, (ushort)(u >> 48 & 0x8000), !(u >> 63));
}
static OVERLOAD ushort half_rtn(double x) {
  const ulong u = __builtin_astype(x, ulong);
  return half_directed(u & 0x7fffffffffffffffUL, 52, 1023, (ushort)(u >> 48 & 0x8000), u >> 63);
}

// vstore_halfN_MODE(data, offset, p) writes p[offset * N + k]; vstorea_halfN_MODE writes
// p[offset * A + k], A being N but 4 for N = 3. Components are named, not indexed: a component
// indexed at run time is a v_movrels_b32, which the emulator does not implement yet.
#define HALF_STORE1(MODE, x, p, at) ((AS_PTR ushort*)(p))[at] = half_##MODE(x);
#define HALF_COMPONENTS_2(MODE, x, p, at)                                                          \
  HALF_STORE1(MODE, x.s0, p, at) HALF_STORE1(MODE, x.s1, p, at + 1)
#define HALF_COMPONENTS_3(MODE, x, p, at)                                                          \
  HALF_COMPONENTS_2(MODE, x, p, at) HALF_STORE1(MODE, x.s2, p, at + 2)
#define HALF_COMPONENTS_4(MODE, x, p, at)                                                          \
  HALF_COMPONENTS_2(MODE, x.lo, p, at) HALF_COMPONENTS_2(MODE, x.hi, p, at + 2)
#define HALF_COMPONENTS_8(MODE, x, p, at)                                                          \
  HALF_COMPONENTS_4(MODE, x.lo, p, at) HALF_COMPONENTS_4(MODE, x.hi, p, at + 4)
#define HALF_COMPONENTS_16(MODE, x, p, at)                                                         \
  HALF_COMPONENTS_8(MODE, x.lo, p, at) HALF_COMPONENTS_8(MODE, x.hi, p, at + 8)

#define VSTORE_HALF_SCALAR(T, MODE)                                                                \
  OVERLOAD void vstore_half_##MODE(T x, size_t offset, AS_PTR half* p) {                           \
    HALF_STORE1(MODE, x, p, offset);                                                               \
  }
#define VSTORE_HALF_N(T, N, MODE)                                                                  \
  OVERLOAD void vstore_half##N##_##MODE(T##N x, size_t offset, AS_PTR half* p) {                   \
    HALF_COMPONENTS_##N(MODE, x, p, offset* N);                                                    \
  }
#define VSTOREA_HALF_N(T, N, A, MODE)                                                              \
  OVERLOAD void vstorea_half##N##_##MODE(T##N x, size_t offset, AS_PTR half* p) {                  \
    HALF_COMPONENTS_##N(MODE, x, p, offset* A);                                                    \
  }
#define VSTORE_HALF_VECTOR(T, N, A, MODE) VSTORE_HALF_N(T, N, MODE) VSTOREA_HALF_N(T, N, A, MODE)
#define VSTORE_HALF_MODE(T, MODE)                                                                  \
  VSTORE_HALF_SCALAR(T, MODE)                                                                      \
  VSTORE_HALF_VECTOR(T, 2, 2, MODE)                                                                \
  VSTORE_HALF_VECTOR(T, 3, 4, MODE)                                                                \
  VSTORE_HALF_VECTOR(T, 4, 4, MODE)                                                                \
  VSTORE_HALF_VECTOR(T, 8, 8, MODE) VSTORE_HALF_VECTOR(T, 16, 16, MODE)
#define VSTORE_HALF_DIRECTED()                                                                     \
  VSTORE_HALF_MODE(float, rtp)                                                                     \
  VSTORE_HALF_MODE(float, rtn) VSTORE_HALF_MODE(double, rtp) VSTORE_HALF_MODE(double, rtn)

#define AS_PTR __global
VSTORE_HALF_DIRECTED()
#undef AS_PTR
#define AS_PTR __local
VSTORE_HALF_DIRECTED()
#undef AS_PTR
#define AS_PTR __private
VSTORE_HALF_DIRECTED()
#undef AS_PTR
#define AS_PTR __generic
VSTORE_HALF_DIRECTED()
#undef AS_PTR
