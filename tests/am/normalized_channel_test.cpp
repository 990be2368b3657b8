// The float-to-normalized conversions image stores and fill colours share, against OpenCL 3.0
// §8.3.1.1's formulas written with the C library (convert_*_sat_rte(f * max) in float).
#include "am/hw/normalized_channel.h"

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

#include <gtest/gtest.h>

using namespace am::hw::image;

namespace {

// The spec's formula: the product rounded to float, then to the nearest integer, ties to even.
uint32_t spec_unorm(float v, uint32_t max) {
  if (std::isnan(v)) return 0;
  const float product = std::fmin(std::fmax(v, 0.0f), 1.0f) * float(max);
  return uint32_t(std::nearbyint(product));
}
uint32_t spec_snorm(float v, uint32_t max) {
  if (std::isnan(v)) return 0;
  const float product = std::fmin(std::fmax(v, -1.0f), 1.0f) * float(max >> 1);
  return uint32_t(int32_t(std::nearbyint(product)));
}

// Ties round to even, on both sides of zero.
static_assert(round_half_even(42.5) == 42.0 && round_half_even(43.5) == 44.0);
static_assert(round_half_even(-42.5) == -42.0 && round_half_even(-0.5) == 0.0);
static_assert(round_half_even(0.49999999999999994) == 0.0);

TEST(NormalizedChannel, FloatProductTiesRoundToEven) {
  EXPECT_EQ(unorm_from_float(16 / 96.0f, 255), 42u); // 42.5f in float; 42.500002 in double
  EXPECT_EQ(unorm_from_float(0.5f, 255), 128u);      // 127.5 to the even 128
  EXPECT_EQ(unorm_from_float(0.5f, 65535), 32768u);  // 32767.5
  EXPECT_EQ(snorm_from_float(0.5f, 255), 64u);       // 63.5
  EXPECT_EQ(snorm_from_float(-0.5f, 255), uint32_t(-64));
}

TEST(NormalizedChannel, ClampsAndStoresNaNAsZero) {
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_EQ(unorm_from_float(inf, 255), 255u);
  EXPECT_EQ(unorm_from_float(-inf, 255), 0u);
  EXPECT_EQ(unorm_from_float(2.0f, 1023), 1023u);         // 10-bit channels (UNORM_INT_101010)
  EXPECT_EQ(unorm_from_float(1.0f, 31), 31u);             // 5-bit channels (UNORM_SHORT_555)
  EXPECT_EQ(snorm_from_float(-inf, 255), uint32_t(-127)); // -1.0 is -127, never -128
  EXPECT_EQ(snorm_from_float(inf, 65535), 32767u);
  EXPECT_EQ(unorm_from_float(nan, 255), 0u);
  EXPECT_EQ(snorm_from_float(-nan, 65535), 0u);
}

// Every float in [-1.25, 1.25] a 2^-20 step apart, and each one's neighbours, through 8- and
// 16-bit fields: the magic-number rounding agrees with nearbyint of the float product.
TEST(NormalizedChannel, AgreesWithTheSpecFormulaOverTheRange) {
  unsigned checked = 0;
  for (int32_t i = -1310720; i <= 1310720; ++i) {
    const float base = float(i) * 0x1p-20f;
    for (float v : {std::nextafter(base, -2.0f), base, std::nextafter(base, 2.0f)}) {
      for (uint32_t max : {255u, 65535u}) {
        ASSERT_EQ(unorm_from_float(v, max), spec_unorm(v, max)) << v << " max " << max;
        ASSERT_EQ(snorm_from_float(v, max), spec_snorm(v, max)) << v << " max " << max;
        ++checked;
      }
    }
  }
  EXPECT_EQ(checked, 2621441u * 6);
}

} // namespace
