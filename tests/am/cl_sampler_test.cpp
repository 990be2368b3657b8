// The OpenCL sampler bits -> S# mapping (am/hw/cl_sampler.h), pinned word by word.
#include "am/hw/cl_sampler.h"

#include <gtest/gtest.h>

namespace img = am::hw::image;

namespace {

TEST(ClSampler, AddressingModesPickTheClamp) {
  EXPECT_EQ(img::cl_sampler(img::kClAddressNone).clamp[0], img::Clamp::ClampLastTexel);
  EXPECT_EQ(img::cl_sampler(img::kClAddressClampToEdge).clamp[1], img::Clamp::ClampLastTexel);
  EXPECT_EQ(img::cl_sampler(img::kClAddressClamp).clamp[2], img::Clamp::ClampBorder);
  EXPECT_EQ(img::cl_sampler(img::kClAddressRepeat).clamp[0], img::Clamp::Wrap);
  EXPECT_EQ(img::cl_sampler(img::kClAddressMirroredRepeat).clamp[0], img::Clamp::Mirror);
  EXPECT_EQ(img::cl_sampler(img::kClAddressClamp).border, img::Border::TransBlack);
}

TEST(ClSampler, FilterAndNormalization) {
  const img::Sampler n = img::cl_sampler(img::kClFilterNearest);
  EXPECT_TRUE(n.force_unnormalized);
  EXPECT_EQ(n.mag, img::XyFilter::Point);
  EXPECT_EQ(n.z, img::ZFilter::Point);
  const img::Sampler l = img::cl_sampler(img::kClNormalizedCoords | img::kClFilterLinear);
  EXPECT_FALSE(l.force_unnormalized);
  EXPECT_EQ(l.min, img::XyFilter::Bilinear);
  EXPECT_EQ(l.z, img::ZFilter::Linear);
}

// CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_REPEAT | CLK_FILTER_LINEAR (0x27): wrap is clamp 0,
// normalized leaves FORCE_UNNORMALIZED (word 0 bit 15) clear, bilinear is 1 in XY_MAG (word 2
// bits 20-21) and XY_MIN (22-23), Z_FILTER linear is 2 (24-25), MIP_FILTER none.
TEST(ClSampler, PackedWordsOnBothGenerations) {
  for (img::Gen g : {img::Gen::gfx11, img::Gen::gfx12}) {
    const auto w = img::pack(g, img::cl_sampler(0x27));
    EXPECT_EQ(w[0], 0u);
    EXPECT_EQ(w[2], (1u << 20) | (1u << 22) | (2u << 24));
    EXPECT_EQ(w[3], 0u);
  }
  // CLK_ADDRESS_CLAMP, unnormalized, nearest (0x14): clamp-border 6 on X, Y and Z, bit 15 set.
  const auto w = img::pack(img::Gen::gfx11, img::cl_sampler(0x14));
  EXPECT_EQ(w[0], 6u | (6u << 3) | (6u << 6) | (1u << 15));
  EXPECT_EQ(w[2], (1u << 24));
}

TEST(ClSampler, ValidBits) {
  EXPECT_TRUE(img::valid_cl_sampler_bits(0x14));
  EXPECT_TRUE(img::valid_cl_sampler_bits(0x29));
  EXPECT_FALSE(img::valid_cl_sampler_bits(0x30)); // both filters
  EXPECT_FALSE(img::valid_cl_sampler_bits(0xA));  // no addressing mode 10
  EXPECT_FALSE(img::valid_cl_sampler_bits(0x40));
}

} // namespace
