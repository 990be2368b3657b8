// Texel format conversions for the image instructions (see image_format.h).
#include "image_format.h"

#include "float_ops.h"

#include "am/hw/normalized_channel.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cmath>
#include <cstring>
#include <utility>

namespace sim::shader {

using am::hw::image::FormatInfo;
using am::hw::image::NumType;

namespace {

// One load of the channel's own width: a variable-length copy into a wider stack word stalls
// the load that follows it (store forwarding fails), 60 % of decode_texel under perf.
uint32_t read_channel(const uint8_t* p, unsigned bits) {
  switch (bits) {
  case 8:
    return p[0];
  case 16: {
    uint16_t v;
    std::memcpy(&v, p, sizeof v);
    return v;
  }
  default: {
    uint32_t v;
    std::memcpy(&v, p, sizeof v);
    return v;
  }
  }
}
void write_channel(uint8_t* p, unsigned bits, uint32_t v) {
  std::memcpy(p, &v, bits / 8);
}

float srgb_to_linear(float c) {
  return c <= 0.04045f ? c / 12.92f : std::pow((c + 0.055f) / 1.055f, 2.4f);
}

} // namespace

void decode_texel(const FormatInfo& f, const uint8_t* bytes, uint32_t out[4]) {
  const bool integer = is_integer(f.type);
  const uint32_t one = integer ? 1u : std::bit_cast<uint32_t>(1.0f);
  out[0] = out[1] = out[2] = 0;
  out[3] = one;
  const uint32_t max = f.bits == 32 ? ~0u : (1u << f.bits) - 1;
  for (unsigned c = 0; c < f.channels; ++c) {
    const uint32_t raw = read_channel(bytes + c * f.bits / 8, f.bits);
    const int32_t sraw =
        f.bits == 32 ? int32_t(raw) : int32_t(raw << (32 - f.bits)) >> (32 - f.bits);
    float v = 0;
    switch (f.type) {
    case NumType::Uint:
      out[c] = raw;
      continue;
    case NumType::Sint:
      out[c] = uint32_t(sraw);
      continue;
    case NumType::Unorm:
      v = float(double(raw) / max);
      break;
    // -2^(n-1) and -2^(n-1)+1 both read as -1.0 (the ISA's snorm rule).
    case NumType::Snorm:
      v = std::max(-1.0f, float(double(sraw) / (max >> 1)));
      break;
    case NumType::Float:
      v = f.bits == 16 ? h2f(uint16_t(raw)) : std::bit_cast<float>(raw);
      break;
    case NumType::Srgb:
      v = float(double(raw) / max);
      if (c < 3) v = srgb_to_linear(v);
      break;
    }
    out[c] = std::bit_cast<uint32_t>(v);
  }
}

void encode_texel(const FormatInfo& f, const uint32_t in[4], uint8_t* bytes) {
  const uint32_t max = f.bits == 32 ? ~0u : (1u << f.bits) - 1;
  for (unsigned c = 0; c < f.channels; ++c) {
    const float v = std::bit_cast<float>(in[c]);
    uint32_t raw = 0;
    switch (f.type) {
    case NumType::Uint:
    case NumType::Sint:
      raw = in[c];
      break;
    case NumType::Unorm:
    case NumType::Srgb: // stored without the sRGB curve: amcl offers no sRGB write
      raw = am::hw::image::unorm_from_float(v, max);
      break;
    case NumType::Snorm:
      raw = am::hw::image::snorm_from_float(v, max);
      break;
    case NumType::Float:
      raw = f.bits == 16 ? f2h(v) : in[c];
      break;
    }
    write_channel(bytes + c * f.bits / 8, f.bits, raw);
  }
}

namespace {

// The per-format converters. Each channel goes through the same expressions as decode_texel
// and encode_texel, with the width and type constant; 8-bit unorm, snorm and sRGB reads come
// from tables filled with exactly those expressions.
struct Tables8 {
  uint32_t unorm[256], snorm[256], srgb[256];
};
Tables8 make_tables8() {
  Tables8 t;
  for (unsigned raw = 0; raw < 256; ++raw) {
    const int32_t sraw = int32_t(raw << 24) >> 24;
    t.unorm[raw] = std::bit_cast<uint32_t>(float(double(raw) / 255));
    t.snorm[raw] = std::bit_cast<uint32_t>(std::max(-1.0f, float(double(sraw) / 127)));
    t.srgb[raw] = std::bit_cast<uint32_t>(srgb_to_linear(float(double(raw) / 255)));
  }
  return t;
}
const Tables8 kTables8 = make_tables8();

// A half's bits as a float's, by fields: the conversion is exact, and the compiler's _Float16
// conversion is a libgcc call on x86-64 (__extendhfsf2, two fifths of a half-float load's
// cost under callgrind, stop 37). Same bits as h2f for every half, NaN payloads included
// (ImageCodec.DecodesAsTheGeneralConversion runs all 65536).
inline uint32_t half_bits_to_float(uint32_t h) {
  const uint32_t sign = (h & 0x8000u) << 16, e = (h >> 10) & 0x1f, m = h & 0x3ff;
  if (e == 0x1f) return sign | 0x7f800000u | (m ? 0x400000u | m << 13 : 0); // NaN: quieted
  if (e == 0) return sign | std::bit_cast<uint32_t>(float(m) * 0x1p-24f);   // zero, subnormal
  return sign | (e + 112) << 23 | m << 13;
}

template <unsigned B> uint32_t load_bits(const uint8_t* p) {
  if constexpr (B == 8) {
    return p[0];
  } else if constexpr (B == 16) {
    uint16_t v;
    std::memcpy(&v, p, sizeof v);
    return v;
  } else {
    uint32_t v;
    std::memcpy(&v, p, sizeof v);
    return v;
  }
}
template <unsigned B, NumType T> uint32_t channel_in(uint32_t raw, unsigned c) {
  constexpr uint32_t max = B == 32 ? ~0u : (1u << B) - 1;
  const int32_t sraw = B == 32 ? int32_t(raw) : int32_t(raw << (32 - B)) >> (32 - B);
  if constexpr (T == NumType::Uint) {
    return raw;
  } else if constexpr (T == NumType::Sint) {
    return uint32_t(sraw);
  } else if constexpr (T == NumType::Float) {
    return B == 16 ? half_bits_to_float(raw) : raw;
  } else if constexpr (B == 8) {
    if constexpr (T == NumType::Unorm) return kTables8.unorm[raw];
    if constexpr (T == NumType::Snorm) return kTables8.snorm[raw];
    return c < 3 ? kTables8.srgb[raw] : kTables8.unorm[raw]; // alpha is linear
  } else if constexpr (T == NumType::Unorm) {
    return std::bit_cast<uint32_t>(float(double(raw) / max));
  } else if constexpr (T == NumType::Snorm) {
    return std::bit_cast<uint32_t>(std::max(-1.0f, float(double(sraw) / (max >> 1))));
  } else {
    const float v = float(double(raw) / max);
    return std::bit_cast<uint32_t>(c < 3 ? srgb_to_linear(v) : v);
  }
}

template <unsigned B, NumType T> uint32_t channel_out(uint32_t in) {
  constexpr uint32_t max = B == 32 ? ~0u : (1u << B) - 1;
  const float v = std::bit_cast<float>(in);
  if constexpr (T == NumType::Uint || T == NumType::Sint) {
    return in;
  } else if constexpr (T == NumType::Float) {
    return B == 16 ? f2h(v) : in;
  } else if constexpr (T == NumType::Snorm) {
    return am::hw::image::snorm_from_float(v, max);
  } else { // Unorm, Srgb (stored without the curve, as encode_texel does)
    return am::hw::image::unorm_from_float(v, max);
  }
}

// The texel leaves in one 16-byte store and enters memory in words of up to 8 bytes: the
// caller reads the components back as one vector and moves the bytes by words, and a load
// wider than the separate stores before it stalls (store forwarding fails; a third of the
// image instructions' time under perf). Channels are unrolled by index so that the values stay
// in registers until that one store.
using Vec4 = uint32_t __attribute__((vector_size(16)));
template <unsigned C, unsigned B, NumType T, unsigned c> uint32_t component(const uint8_t* bytes) {
  constexpr bool integer = T == NumType::Uint || T == NumType::Sint;
  if constexpr (c < C)
    return channel_in<B, T>(load_bits<B>(bytes + c * B / 8), c);
  else if constexpr (c == 3)
    return integer ? 1u : std::bit_cast<uint32_t>(1.0f);
  else
    return 0;
}
template <unsigned C, unsigned B, NumType T> void decode_as(const uint8_t* bytes, uint32_t out[4]) {
  const Vec4 v = {component<C, B, T, 0>(bytes), component<C, B, T, 1>(bytes),
                  component<C, B, T, 2>(bytes), component<C, B, T, 3>(bytes)};
  std::memcpy(out, &v, sizeof v);
}
// Channel c's bits at their place in the 64-bit word `word` of the texel (0 elsewhere).
template <unsigned C, unsigned B, NumType T, unsigned c>
uint64_t placed(const uint32_t in[4], unsigned word) {
  constexpr uint64_t mask = B == 32 ? 0xffffffffull : (1ull << B) - 1;
  if constexpr (c >= C)
    return 0;
  else
    return c * B / 64 == word ? (channel_out<B, T>(in[c]) & mask) << (c * B % 64) : 0;
}
template <unsigned C, unsigned B, NumType T> void encode_as(const uint32_t in[4], uint8_t* bytes) {
  constexpr unsigned n = C * B / 8;
  const uint64_t lo = placed<C, B, T, 0>(in, 0) | placed<C, B, T, 1>(in, 0) |
                      placed<C, B, T, 2>(in, 0) | placed<C, B, T, 3>(in, 0);
  if constexpr (n <= 8) {
    std::memcpy(bytes, &lo, n);
  } else {
    const uint64_t hi = placed<C, B, T, 2>(in, 1) | placed<C, B, T, 3>(in, 1);
    std::memcpy(bytes, &lo, 8);
    std::memcpy(bytes + 8, &hi, n - 8);
  }
}

// A texel's N bytes from guest memory in relaxed words of the widest size its alignment allows
// (image.cpp's move_texel: 8-byte words for 8 and 16 bytes, 4-byte ones for 12).
template <class W, unsigned N> void read_words(const uint8_t* guest, uint8_t* bytes) {
  for (unsigned i = 0; i < N; i += sizeof(W)) {
    const W v = std::atomic_ref<W>(*reinterpret_cast<W*>(const_cast<uint8_t*>(guest + i)))
                    .load(std::memory_order_relaxed);
    std::memcpy(bytes + i, &v, sizeof(W));
  }
}
template <unsigned C, unsigned B, NumType T> void load_as(const uint8_t* guest, uint32_t out[4]) {
  constexpr unsigned n = C * B / 8;
  uint8_t bytes[16];
  if constexpr (n == 1)
    read_words<uint8_t, n>(guest, bytes);
  else if constexpr (n == 2)
    read_words<uint16_t, n>(guest, bytes);
  else if constexpr (n == 8 || n == 16)
    read_words<uint64_t, n>(guest, bytes);
  else
    read_words<uint32_t, n>(guest, bytes);
  decode_as<C, B, T>(bytes, out);
}

constexpr unsigned kFormats = 128; // IMG_FORMAT codes the table covers (format_info's are < 67)
template <uint16_t F> constexpr TexelCodec codec_of() {
  constexpr FormatInfo f = am::hw::image::format_info(F);
  if constexpr (f.channels == 0) {
    return {};
  } else {
    return {&decode_as<f.channels, f.bits, f.type>, &encode_as<f.channels, f.bits, f.type>,
            &load_as<f.channels, f.bits, f.type>};
  }
}
template <size_t... F>
constexpr std::array<TexelCodec, kFormats> codecs(std::index_sequence<F...>) {
  return {codec_of<uint16_t(F)>()...};
}
constexpr std::array<TexelCodec, kFormats> kCodecs = codecs(std::make_index_sequence<kFormats>());

} // namespace

TexelCodec texel_codec(uint16_t format) {
  return format < kFormats ? kCodecs[format] : TexelCodec{};
}

} // namespace sim::shader
