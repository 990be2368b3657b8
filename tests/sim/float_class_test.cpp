// fp_class (float_ops.h), V_CMP_CLASS's bit index from a value's bits, against the host's own
// classification: every half pattern, and f32 and f64 patterns at each class's edges and at
// random. The compare tests run the instruction through both of the emulator's paths, which
// share this function, so it is pinned here against an oracle of its own.
#include "sim/shader/float_ops.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

namespace {

using sim::shader::fp_class;

// The ISA's indices (RDNA3 ISA manual, "VOPC"): 0 signalling NaN, 1 quiet NaN, 2 -inf,
// 3 -normal, 4 -denormal, 5 -0, 6 +0, 7 +denormal, 8 +normal, 9 +inf.
template <class T> unsigned host_class(T x, bool quiet) {
  const bool neg = std::signbit(x);
  switch (std::fpclassify(x)) {
  case FP_NAN:
    return quiet ? 1 : 0;
  case FP_INFINITE:
    return neg ? 2 : 9;
  case FP_NORMAL:
    return neg ? 3 : 8;
  case FP_SUBNORMAL:
    return neg ? 4 : 7;
  default:
    return neg ? 5 : 6;
  }
}

TEST(FloatClass, EveryHalfPattern) {
  // A half's class read through its float value: denormal halves are those below 2^-14 in
  // magnitude (and not zero), which the float they widen to calls normal.
  for (uint32_t b = 0; b < 0x10000; ++b) {
    const bool neg = b >> 15;
    const unsigned e = (b >> 10) & 0x1f, f = b & 0x3ff;
    const float mag =
        e == 0 ? std::ldexp(float(f), -24) : std::ldexp(float(f | 0x400), int(e) - 25);
    unsigned want;
    if (e == 0x1f)
      want = f ? ((f >> 9) ? 1 : 0) : (neg ? 2 : 9);
    else if (mag == 0)
      want = neg ? 5 : 6;
    else if (mag < std::ldexp(1.0f, -14))
      want = neg ? 4 : 7;
    else
      want = neg ? 3 : 8;
    ASSERT_EQ(fp_class(uint16_t(b)), want) << std::hex << b;
  }
}

TEST(FloatClass, SinglePatterns) {
  std::vector<uint32_t> bits = {0,          1,          0x7fffff,   0x800000,   0x7f7fffff,
                                0x7f800000, 0x7f800001, 0x7fbfffff, 0x7fc00000, 0x7fffffff};
  for (size_t i = 0, n = bits.size(); i < n; ++i) bits.push_back(bits[i] | 0x80000000u);
  std::mt19937 rng(7);
  for (int i = 0; i < 100000; ++i) bits.push_back(uint32_t(rng()));
  for (uint32_t b : bits)
    ASSERT_EQ(fp_class(b), host_class(std::bit_cast<float>(b), (b >> 22) & 1)) << std::hex << b;
}

TEST(FloatClass, DoublePatterns) {
  std::vector<uint64_t> bits = {0,
                                1,
                                0xfffffffffffffull,
                                0x10000000000000ull,
                                0x7fefffffffffffffull,
                                0x7ff0000000000000ull,
                                0x7ff0000000000001ull,
                                0x7ff7ffffffffffffull,
                                0x7ff8000000000000ull,
                                0x7fffffffffffffffull};
  for (size_t i = 0, n = bits.size(); i < n; ++i) bits.push_back(bits[i] | 1ull << 63);
  std::mt19937_64 rng(7);
  for (int i = 0; i < 100000; ++i) bits.push_back(rng());
  for (uint64_t b : bits)
    ASSERT_EQ(fp_class(b), host_class(std::bit_cast<double>(b), (b >> 51) & 1)) << std::hex << b;
}

} // namespace
