// Texel format conversions for the image instructions (see image_format.h).
#include "image_format.h"

#include "float_ops.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

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
      raw = std::isnan(v) ? 0 : uint32_t(std::nearbyint(std::clamp(v, 0.0f, 1.0f) * double(max)));
      break;
    case NumType::Snorm: {
      const double half = max >> 1;
      raw =
          std::isnan(v) ? 0 : uint32_t(int32_t(std::nearbyint(std::clamp(v, -1.0f, 1.0f) * half)));
      break;
    }
    case NumType::Float:
      raw = f.bits == 16 ? f2h(v) : in[c];
      break;
    }
    write_channel(bytes + c * f.bits / 8, f.bits, raw);
  }
}

} // namespace sim::shader
