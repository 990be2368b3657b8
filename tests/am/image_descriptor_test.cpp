// The image and sampler descriptors against words worked out by hand from the field tables of
// ROCR's resource_gfx11.h / resource_gfx12.h and Mesa's ac_descriptors.c, and the unified format
// numbers against llvm-mc-22's BUF_FMT encodings (gfx1100 and gfx1201 agree).
#include "am/hw/image_descriptor.h"

#include <gtest/gtest.h>

using namespace am::hw::image;

namespace {

Resource sample_2d() {
  Resource r;
  r.base = 0x123456789A00ull;
  r.format = fmt::k8_8_8_8Unorm;
  r.width = 5;
  r.height = 3;
  r.pitch = 64;
  r.type = Type::k2D;
  return r;
}

TEST(ImageDescriptor, Gfx11ResourceWords) {
  const auto w = pack(Gen::gfx11, sample_2d());
  EXPECT_EQ(w[0], 0x3456789Au); // BASE_ADDRESS = address[39:8]
  EXPECT_EQ(w[1], 0x02A00012u); // BASE_ADDRESS_HI [7:0], FORMAT 42 [27:20], WIDTH_LO 0
  EXPECT_EQ(w[2], 0x00008001u); // WIDTH_HI [11:0] = 4 >> 2, HEIGHT [27:14] = 2
  EXPECT_EQ(w[3], 0x90000FACu); // DST_SEL XYZW (4,5,6,7), TYPE 2D = 9 [31:28]
  EXPECT_EQ(w[4], 63u);         // linear 2D: DEPTH holds pitch - 1
  EXPECT_EQ(w[5] | w[6] | w[7], 0u);
}

TEST(ImageDescriptor, Gfx12ResourceWords) {
  Resource r = sample_2d();
  r.base_level = 3;
  const auto w = pack(Gen::gfx12, r);
  EXPECT_EQ(w[0], 0x3456789Au);
  EXPECT_EQ(w[1], 0x06540012u); // FORMAT 42 [24:17], BASE_LEVEL 3 [29:25]
  EXPECT_EQ(w[2], 0x00008001u); // WIDTH_HI [13:0], HEIGHT [29:14]
  EXPECT_EQ(w[3], 0x90000FACu);
  EXPECT_EQ(w[4], 63u);
}

TEST(ImageDescriptor, PitchHighBits) {
  Resource r = sample_2d();
  r.width = 16384;
  r.pitch = 16384;
  EXPECT_EQ(pack(Gen::gfx11, r)[4], 0x3FFFu); // DEPTH [12:0] and PITCH_MSB [13]
  EXPECT_EQ(pack(Gen::gfx12, r)[4], 0x3FFFu); // DEPTH [13:0]
  EXPECT_EQ(pack(Gen::gfx11, r)[2] & 0xfff, 0xfffu);
  for (Gen g : {Gen::gfx11, Gen::gfx12}) {
    const auto w = pack(g, r);
    EXPECT_EQ(unpack_resource(g, w.data()).pitch, 16384u);
    EXPECT_EQ(unpack_resource(g, w.data()).width, 16384u);
  }
}

TEST(ImageDescriptor, ArraysAnd3DRoundTrip) {
  for (Gen g : {Gen::gfx11, Gen::gfx12})
    for (Type t : {Type::k1DArray, Type::k2DArray, Type::k3D}) {
      Resource r;
      r.base = 0x7f0000100ull << 8;
      r.format = fmt::k32_32_32_32Float;
      r.width = 1000;
      r.height = t == Type::k1DArray ? 1 : 77;
      r.depth = 9;
      r.base_array = t == Type::k3D ? 0 : 2;
      r.type = t;
      r.dst_sel[0] = Sel::kZ;
      r.dst_sel[2] = Sel::kX;
      r.dst_sel[3] = Sel::k1;
      const auto w = pack(g, r);
      const Resource u = unpack_resource(g, w.data());
      EXPECT_EQ(u.base, r.base);
      EXPECT_EQ(u.format, r.format);
      EXPECT_EQ(u.width, r.width);
      EXPECT_EQ(u.height, r.height);
      EXPECT_EQ(u.depth, 9u);
      EXPECT_EQ(u.pitch, 0u);
      EXPECT_EQ(u.base_array, r.base_array);
      EXPECT_EQ(u.type, t);
      EXPECT_EQ(u.dst_sel[0], Sel::kZ);
      EXPECT_EQ(u.dst_sel[3], Sel::k1);
      EXPECT_EQ(w[4] >> 16, r.base_array); // BASE_ARRAY [28:16] on both
    }
}

TEST(ImageDescriptor, ImplicitLinearPitch) {
  Resource r;
  r.format = fmt::k8_8_8_8Unorm; // 4 bytes: 64 texels make 256 B, 32 make 128 B
  r.width = 65;
  r.type = Type::k2DArray;
  EXPECT_EQ(row_pitch(Gen::gfx11, r), 128u);
  EXPECT_EQ(row_pitch(Gen::gfx12, r), 96u);
  r.type = Type::k2D;
  r.pitch = 80;
  EXPECT_EQ(row_pitch(Gen::gfx11, r), 80u);
}

TEST(ImageDescriptor, SamplerWords) {
  Sampler s;
  s.clamp[0] = Clamp::ClampBorder;
  s.clamp[1] = Clamp::Wrap;
  s.clamp[2] = Clamp::Mirror;
  s.force_unnormalized = true;
  s.mag = s.min = XyFilter::Bilinear;
  s.border = Border::OpaqueWhite;
  s.max_lod = 15 << 8;
  for (Gen g : {Gen::gfx11, Gen::gfx12}) {
    const auto w = pack(g, s);
    EXPECT_EQ(w[0], 0x8046u); // CLAMP_X/Y/Z [8:0], FORCE_UNNORMALIZED [15]
    EXPECT_EQ(w[1], g == Gen::gfx12 ? 0x1E00000u : 0xF00000u); // MAX_LOD [25:13] / [23:12]
    EXPECT_EQ(w[2], 0x00500000u);                              // XY_MAG [21:20], XY_MIN [23:22]
    EXPECT_EQ(w[3], 0x80000000u);                              // BORDER_COLOR_TYPE [31:30]
    const Sampler u = unpack_sampler(g, w.data());
    EXPECT_EQ(u.clamp[0], Clamp::ClampBorder);
    EXPECT_EQ(u.clamp[2], Clamp::Mirror);
    EXPECT_TRUE(u.force_unnormalized);
    EXPECT_EQ(u.min, XyFilter::Bilinear);
    EXPECT_EQ(u.max_lod, 15u << 8);
    EXPECT_EQ(u.border, Border::OpaqueWhite);
  }
}

TEST(ImageDescriptor, UnifiedFormatNumbers) {
  // llvm-mc-22 -mcpu=gfx1100 / gfx1201: tbuffer_load_format_x ... format:[BUF_FMT_*].
  EXPECT_EQ(fmt::k8_8_8_8Unorm, 42);
  EXPECT_EQ(fmt::k16_16_16_16Float, 57);
  EXPECT_EQ(fmt::k32_32_32_32Float, 63);
  EXPECT_EQ(fmt::k32Float, 22);
  EXPECT_EQ(fmt::k16_16Sint, 28);
  EXPECT_EQ(format_info(fmt::k16_16_16_16Snorm).bytes(), 8u);
  EXPECT_EQ(format_info(fmt::k8_8Uint).channels, 2);
  EXPECT_EQ(format_info(fmt::k10_11_11Float).channels, 0); // packed: not described
}

} // namespace
