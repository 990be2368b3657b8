// A float to a normalized image channel, as image stores and fill colours convert it: the
// product in float, then round to nearest even (OpenCL 3.0 §8.3.1.1, "Converting floating-point
// values to normalized integer channel data types": convert_uchar_sat_rte(f * 255.0f), the
// CTS's NORMALIZE). 16/96.0f into 8 bits is 42.5f and stores 42, not 43 (42.500002 in double).
// NaN stores 0. The emulator's stores and the runtime's fills both use these, so they agree.
// Pinned by tests/am/normalized_channel_test.cpp.
#pragma once
#include <algorithm>
#include <cstdint>

namespace am::hw::image {

// Round to nearest, ties to even, as std::nearbyint does in the default rounding mode, for
// |x| < 2^51: adding and removing 1.5 * 2^52 leaves no fraction bits (nearbyint is a call on
// baseline x86-64, and this is constexpr).
constexpr double round_half_even(double x) {
  constexpr double kMagic = 0x1.8p52;
  return (x + kMagic) - kMagic;
}

// An unsigned normalized channel whose largest value is `max` (255 for 8 bits).
constexpr uint32_t unorm_from_float(float v, uint32_t max) {
  if (v != v) return 0; // NaN
  return uint32_t(round_half_even(std::clamp(v, 0.0f, 1.0f) * float(max)));
}

// A signed normalized channel of a field whose all-ones value is `max` (255 for 8 bits):
// -1.0 stores -(max >> 1), as the spec's convert_char_sat_rte(f * 127.0f).
constexpr uint32_t snorm_from_float(float v, uint32_t max) {
  if (v != v) return 0; // NaN
  return uint32_t(int32_t(round_half_even(std::clamp(v, -1.0f, 1.0f) * float(max >> 1))));
}

} // namespace am::hw::image
