// The per-format texel converters (texel_codec) against the general ones (decode_texel,
// encode_texel) that define the conversions: every IMG_FORMAT amcl models, every 8- and 16-bit
// channel value, and stored values around each rounding tie, out of range, NaN and infinities.
#include "sim/shader/image_format.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

namespace {

namespace img = am::hw::image;
using sim::shader::texel_codec;

std::vector<uint16_t> modelled_formats() {
  std::vector<uint16_t> out;
  for (uint16_t f = 0; f < 256; ++f)
    if (img::format_info(f).channels) out.push_back(f);
  return out;
}

// Channel values to read: all of them for 8 and 16 bits, random and edge ones for 32.
std::vector<uint32_t> raw_values(unsigned bits, std::mt19937& rng) {
  std::vector<uint32_t> v;
  if (bits < 32) {
    for (uint32_t r = 0; r < (1u << bits); ++r) v.push_back(r);
  } else {
    for (uint32_t r : {0u, 1u, 0x7fffffffu, 0x80000000u, 0xffffffffu, 0x3f800000u, 0x7f800001u})
      v.push_back(r);
    for (int i = 0; i < 4096; ++i) v.push_back(rng());
  }
  return v;
}

// Values to store: ties and their neighbours for the format's width, and special floats.
std::vector<float> stored_values(unsigned bits, std::mt19937& rng) {
  std::vector<float> v = {0.0f,
                          -0.0f,
                          1.0f,
                          -1.0f,
                          2.0f,
                          -2.0f,
                          1e-30f,
                          std::numeric_limits<float>::infinity(),
                          -std::numeric_limits<float>::infinity(),
                          std::numeric_limits<float>::quiet_NaN(),
                          std::bit_cast<float>(0xffc00001u)};
  const double max = bits == 32 ? 4294967295.0 : double((1u << bits) - 1);
  for (unsigned k = 0; k < 600; ++k) {
    const double tie = (k + 0.5) / (bits == 8 ? 255 : max);
    for (const float f :
         {float(tie), std::nextafter(float(tie), 0.0f), std::nextafter(float(tie), 2.0f)})
      v.push_back(f), v.push_back(-f);
  }
  std::uniform_real_distribution<float> d(-1.5f, 1.5f);
  for (int i = 0; i < 4096; ++i) v.push_back(d(rng));
  return v;
}

TEST(ImageCodec, EveryFormatHasOne) {
  for (const uint16_t f : modelled_formats()) {
    const sim::shader::TexelCodec c = texel_codec(f);
    EXPECT_TRUE(c.decode && c.encode && c.load) << "format " << f;
  }
  EXPECT_EQ(texel_codec(img::fmt::kInvalid).decode, nullptr);
  EXPECT_EQ(texel_codec(img::fmt::k10_11_11Float).decode, nullptr); // not modelled
  EXPECT_EQ(texel_codec(0xffff).decode, nullptr);
}

TEST(ImageCodec, DecodesAsTheGeneralConversion) {
  std::mt19937 rng(7);
  for (const uint16_t f : modelled_formats()) {
    const img::FormatInfo info = img::format_info(f);
    const sim::shader::TexelDecoder decode = texel_codec(f).decode;
    ASSERT_NE(decode, nullptr);
    for (const uint32_t raw : raw_values(info.bits, rng)) {
      // Channel c holds raw rotated by c, so the channels differ.
      uint8_t bytes[16] = {};
      for (unsigned c = 0; c < info.channels; ++c) {
        const uint32_t r =
            info.bits == 32 ? std::rotl(raw, int(c * 7)) : (raw + c * 37) & ((1u << info.bits) - 1);
        std::memcpy(bytes + c * info.bits / 8, &r, info.bits / 8);
      }
      uint32_t want[4], got[4], loaded[4];
      sim::shader::decode_texel(info, bytes, want);
      decode(bytes, got);
      // The load from guest memory: the same texel after a texel's worth of other bytes.
      alignas(16) uint8_t guest[32];
      std::memset(guest, 0xa5, sizeof guest);
      std::memcpy(guest + 16, bytes, info.bytes());
      texel_codec(f).load(guest + 16, loaded);
      for (unsigned c = 0; c < 4; ++c) {
        ASSERT_EQ(got[c], want[c]) << "format " << f << " raw " << raw << " channel " << c;
        ASSERT_EQ(loaded[c], want[c]) << "format " << f << " raw " << raw << " channel " << c;
      }
    }
  }
}

TEST(ImageCodec, EncodesAsTheGeneralConversion) {
  std::mt19937 rng(11);
  for (const uint16_t f : modelled_formats()) {
    const img::FormatInfo info = img::format_info(f);
    const sim::shader::TexelEncoder encode = texel_codec(f).encode;
    ASSERT_NE(encode, nullptr);
    const bool integer = sim::shader::is_integer(info.type);
    const std::vector<float> values = stored_values(info.bits, rng);
    for (size_t i = 0; i < values.size(); ++i) {
      uint32_t in[4];
      for (unsigned c = 0; c < 4; ++c) {
        const float v = values[(i + c * 101) % values.size()];
        in[c] = integer ? uint32_t(rng()) : std::bit_cast<uint32_t>(v);
      }
      uint8_t want[16] = {}, got[16] = {};
      sim::shader::encode_texel(info, in, want);
      encode(in, got);
      ASSERT_EQ(std::memcmp(got, want, sizeof want), 0)
          << "format " << f << " value " << values[i] << " (" << std::bit_cast<uint32_t>(values[i])
          << ")";
    }
  }
}

} // namespace
