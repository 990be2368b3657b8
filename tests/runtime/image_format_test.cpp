// The runtime's image format facts: which OpenCL formats are valid and offered, the IMG_FORMAT
// and DST_SEL each becomes (am/hw/image_descriptor.h), and fill colours as texel bytes
// (OpenCL 3.0 "Conversion Rules"), with values worked out by hand from those rules.
#include "runtime/image_format.h"
#include "runtime/image_pixel.h"

#include <gtest/gtest.h>

#include <cstring>
#include <limits>
#include <vector>

using namespace amcl::rt;
namespace img = am::hw::image;

namespace {

std::vector<uint8_t> fill_f(cl_channel_order o, cl_channel_type t, float r, float g, float b,
                            float a) {
  const float c[4] = {r, g, b, a};
  return fill_texel({o, t}, c);
}
std::vector<uint8_t> fill_i(cl_channel_order o, cl_channel_type t, int32_t r, int32_t g, int32_t b,
                            int32_t a) {
  const int32_t c[4] = {r, g, b, a};
  return fill_texel({o, t}, c);
}
using Bytes = std::vector<uint8_t>;

} // namespace

TEST(ImageFormat, ValidPairsFollowTheSpec) {
  EXPECT_TRUE(valid_image_format({CL_RGBA, CL_FLOAT}));
  EXPECT_TRUE(valid_image_format({CL_BGRA, CL_SIGNED_INT8}));
  EXPECT_FALSE(valid_image_format({CL_BGRA, CL_UNORM_INT16}));
  EXPECT_TRUE(valid_image_format({CL_LUMINANCE, CL_HALF_FLOAT}));
  EXPECT_FALSE(valid_image_format({CL_LUMINANCE, CL_UNSIGNED_INT8}));
  EXPECT_TRUE(valid_image_format({CL_RGB, CL_UNORM_SHORT_565}));
  EXPECT_FALSE(valid_image_format({CL_RGB, CL_FLOAT}));
  EXPECT_TRUE(valid_image_format({CL_sRGBA, CL_UNORM_INT8}));
  EXPECT_FALSE(valid_image_format({CL_sRGBA, CL_UNORM_INT16}));
  EXPECT_FALSE(valid_image_format({0x1234, CL_FLOAT}));
}

TEST(ImageFormat, HardwareFormatAndSwizzlePerOrder) {
  using S = img::Sel;
  struct Case {
    cl_image_format f;
    uint16_t hw;
    S sel[4];
    unsigned size;
  };
  const Case cases[] = {
      {{CL_RGBA, CL_UNORM_INT8}, img::fmt::k8_8_8_8Unorm, {S::kX, S::kY, S::kZ, S::kW}, 4},
      {{CL_BGRA, CL_UNORM_INT8}, img::fmt::k8_8_8_8Unorm, {S::kZ, S::kY, S::kX, S::kW}, 4},
      {{CL_ARGB, CL_UNSIGNED_INT8}, img::fmt::k8_8_8_8Uint, {S::kY, S::kZ, S::kW, S::kX}, 4},
      {{CL_ABGR, CL_SNORM_INT8}, img::fmt::k8_8_8_8Snorm, {S::kW, S::kZ, S::kY, S::kX}, 4},
      {{CL_R, CL_FLOAT}, img::fmt::k32Float, {S::kX, S::k0, S::k0, S::k1}, 4},
      {{CL_A, CL_HALF_FLOAT}, img::fmt::k16Float, {S::k0, S::k0, S::k0, S::kX}, 2},
      {{CL_RG, CL_SIGNED_INT16}, img::fmt::k16_16Sint, {S::kX, S::kY, S::k0, S::k1}, 4},
      {{CL_RA, CL_UNORM_INT16}, img::fmt::k16_16Unorm, {S::kX, S::k0, S::k0, S::kY}, 4},
      {{CL_INTENSITY, CL_UNORM_INT8}, img::fmt::k8Unorm, {S::kX, S::kX, S::kX, S::kX}, 1},
      {{CL_LUMINANCE, CL_FLOAT}, img::fmt::k32Float, {S::kX, S::kX, S::kX, S::k1}, 4},
      {{CL_RGBA, CL_UNSIGNED_INT32}, img::fmt::k32_32_32_32Uint, {S::kX, S::kY, S::kZ, S::kW}, 16},
      {{CL_sRGBA, CL_UNORM_INT8}, img::fmt::k8_8_8_8Srgb, {S::kX, S::kY, S::kZ, S::kW}, 4},
      {{CL_sBGRA, CL_UNORM_INT8}, img::fmt::k8_8_8_8Srgb, {S::kZ, S::kY, S::kX, S::kW}, 4},
  };
  for (const Case& c : cases) {
    auto hw = hw_image_format(c.f);
    ASSERT_TRUE(hw) << c.f.image_channel_order << " " << c.f.image_channel_data_type;
    EXPECT_EQ(hw->format, c.hw) << c.f.image_channel_order;
    for (int i = 0; i < 4; ++i) EXPECT_EQ(hw->dst_sel[i], c.sel[i]) << c.f.image_channel_order;
    EXPECT_EQ(hw->element_size, c.size);
    EXPECT_EQ(hw->writable,
              c.f.image_channel_order != CL_sRGBA && c.f.image_channel_order != CL_sBGRA);
  }
  EXPECT_FALSE(hw_image_format({CL_RGB, CL_UNORM_SHORT_565}));
  EXPECT_FALSE(hw_image_format({CL_DEPTH, CL_FLOAT}));
}

TEST(ImageFormat, SupportedListsByAccess) {
  const auto ro = supported_image_formats(CL_MEM_READ_ONLY);
  const auto wo = supported_image_formats(CL_MEM_WRITE_ONLY);
  const auto rw = supported_image_formats(CL_MEM_READ_WRITE);
  EXPECT_EQ(ro.size(), wo.size() + 2); // sRGBA and sBGRA
  EXPECT_EQ(wo.size(), rw.size());
  for (const cl_image_format& f : wo) EXPECT_TRUE(hw_image_format(f)->writable);
}

TEST(ImagePixel, FillColoursConvertAsWritesDo) {
  // Normalized: round to nearest even, clamp; snorm symmetric (-1 is -127).
  EXPECT_EQ(fill_f(CL_RGBA, CL_UNORM_INT8, 0.0f, 1.0f, 0.5f, 2.0f), (Bytes{0, 255, 128, 255}));
  EXPECT_EQ(fill_f(CL_RGBA, CL_SNORM_INT8, -1.0f, 1.0f, -2.0f, 0.5f), (Bytes{0x81, 127, 0x81, 64}));
  EXPECT_EQ(fill_f(CL_R, CL_UNORM_INT16, 0.25f, 0, 0, 0), (Bytes{0x00, 0x40})); // 16383.75 -> 16384
  // Channel orders: memory order from (r, g, b, a).
  EXPECT_EQ(fill_f(CL_BGRA, CL_UNORM_INT8, 1.0f, 0.0f, 0.0f, 0.0f), (Bytes{0, 0, 255, 0}));
  EXPECT_EQ(fill_i(CL_ARGB, CL_UNSIGNED_INT8, 1, 2, 3, 4), (Bytes{4, 1, 2, 3}));
  EXPECT_EQ(fill_i(CL_ABGR, CL_SIGNED_INT8, 1, 2, 3, 4), (Bytes{4, 3, 2, 1}));
  EXPECT_EQ(fill_f(CL_A, CL_UNORM_INT8, 0.0f, 0.0f, 0.0f, 1.0f), (Bytes{255}));
  EXPECT_EQ(fill_f(CL_RA, CL_UNORM_INT8, 1.0f, 0.0f, 0.0f, 0.0f), (Bytes{255, 0}));
  EXPECT_EQ(fill_f(CL_INTENSITY, CL_UNORM_INT8, 1.0f, 0.0f, 0.0f, 0.0f), (Bytes{255}));
  EXPECT_EQ(fill_f(CL_LUMINANCE, CL_UNORM_INT8, 0.0f, 1.0f, 1.0f, 1.0f), (Bytes{0}));
  // Integers saturate to the channel.
  EXPECT_EQ(fill_i(CL_RG, CL_SIGNED_INT8, 300, -300, 0, 0), (Bytes{127, 0x80}));
  EXPECT_EQ(fill_i(CL_R, CL_UNSIGNED_INT16, 70000, 0, 0, 0), (Bytes{0xff, 0xff}));
  EXPECT_EQ(fill_i(CL_R, CL_SIGNED_INT32, -5, 0, 0, 0), (Bytes{0xfb, 0xff, 0xff, 0xff}));
  // Float and half: 1.0 is 0x3f800000 and 0x3c00.
  EXPECT_EQ(fill_f(CL_R, CL_FLOAT, 1.0f, 0, 0, 0), (Bytes{0, 0, 0x80, 0x3f}));
  EXPECT_EQ(fill_f(CL_RG, CL_HALF_FLOAT, 1.0f, -2.0f, 0, 0), (Bytes{0, 0x3c, 0, 0xc0}));
  // sRGB: the colour channels through the curve (0.5 -> 0.7354 -> 188), alpha linear.
  EXPECT_EQ(fill_f(CL_sRGBA, CL_UNORM_INT8, 0.5f, 0.0f, 1.0f, 0.5f), (Bytes{188, 0, 255, 128}));
  EXPECT_EQ(fill_f(CL_sBGRA, CL_UNORM_INT8, 0.5f, 0.0f, 1.0f, 0.5f), (Bytes{255, 0, 188, 128}));
  // NaN stores 0 in every normalized channel, the sRGB alpha too (it was cast from NaN).
  const float nan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_EQ(fill_f(CL_sRGBA, CL_UNORM_INT8, nan, 0.5f, nan, nan), (Bytes{0, 188, 0, 0}));
  EXPECT_EQ(fill_f(CL_RGBA, CL_UNORM_INT8, nan, 0.0f, nan, nan), (Bytes{0, 0, 0, 0}));
  EXPECT_EQ(fill_f(CL_RG, CL_SNORM_INT16, nan, -1.0f, 0, 0), (Bytes{0, 0, 0x01, 0x80}));
}

TEST(ImagePixel, HalfRoundsToNearestEven) {
  EXPECT_EQ(float_to_half(0.0f), 0x0000);
  EXPECT_EQ(float_to_half(-0.0f), 0x8000);
  EXPECT_EQ(float_to_half(65504.0f), 0x7bff);
  EXPECT_EQ(float_to_half(65520.0f), 0x7c00);           // halfway past the largest: infinity
  EXPECT_EQ(float_to_half(1.0f + 1.0f / 2048), 0x3c00); // a tie goes to the even 1.0
  EXPECT_EQ(float_to_half(1.0f + 3.0f / 2048), 0x3c02); // and to the even neighbour above
  EXPECT_EQ(float_to_half(5.9604645e-8f), 0x0001);      // the smallest denormal
  EXPECT_EQ(float_to_half(2.9802322e-8f), 0x0000);      // half of it: a tie to even zero
  EXPECT_EQ(float_to_half(6.0975552e-5f), 0x03ff);      // the largest denormal
  EXPECT_EQ(float_to_half(std::numeric_limits<float>::infinity()), 0x7c00);
  EXPECT_EQ(float_to_half(-std::numeric_limits<float>::infinity()), 0xfc00);
  EXPECT_EQ(float_to_half(std::numeric_limits<float>::quiet_NaN()) & 0x7e00, 0x7e00);
}
