#include "image_pixel.h"

#include "image_format.h"

#include "am/hw/normalized_channel.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

namespace amcl::rt {
namespace {

namespace img = am::hw::image;

// OpenCL 3.0 "Conversion Rules for sRGBA and sBGRA Images": linear to sRGB.
float linear_to_srgb(float c) {
  if (std::isnan(c)) return 0.0f;
  c = std::clamp(c, 0.0f, 1.0f);
  return c <= 0.0031308f ? c * 12.92f : 1.055f * std::pow(c, 1.0f / 2.4f) - 0.055f;
}

// One memory channel of `bits` bits from a component (float bits or an integer).
uint32_t channel(uint32_t comp, unsigned bits, img::NumType type, bool srgb_colour) {
  const uint32_t max = bits == 32 ? ~0u : (1u << bits) - 1;
  const float v = std::bit_cast<float>(comp);
  // Normalized channels convert as kernels' writes store them (am/hw/normalized_channel.h).
  switch (type) {
  case img::NumType::Srgb: // the colour channels through the curve first; alpha as unorm
    return img::unorm_from_float(srgb_colour ? linear_to_srgb(v) : v, max);
  case img::NumType::Unorm:
    return img::unorm_from_float(v, max);
  case img::NumType::Snorm:
    return img::snorm_from_float(v, max);
  case img::NumType::Float:
    return bits == 16 ? float_to_half(v) : comp;
  case img::NumType::Uint:
    return bits == 32 ? comp : std::min(comp, max);
  case img::NumType::Sint: {
    if (bits == 32) return comp;
    const int32_t hi = int32_t(max >> 1), lo = -hi - 1;
    return uint32_t(std::clamp(int32_t(comp), lo, hi));
  }
  }
  return 0;
}

} // namespace

uint16_t float_to_half(float v) {
  const uint32_t b = std::bit_cast<uint32_t>(v);
  const uint16_t sign = uint16_t((b >> 16) & 0x8000);
  const uint32_t abs = b & 0x7fffffff;
  if (abs > 0x7f800000) return uint16_t(sign | 0x7e00 | ((abs >> 13) & 0x3ff)); // NaN
  if (abs >= 0x477ff000) return uint16_t(sign | 0x7c00); // rounds past 65504: infinity
  if (abs < 0x38800000) { // a half denormal (or zero): scale to units of 2^-24
    const float scaled = std::bit_cast<float>(abs) * 16777216.0f;
    return uint16_t(sign | uint16_t(std::nearbyint(scaled)));
  }
  // Normal: drop 13 mantissa bits, round to nearest even.
  const uint32_t rebiased = abs - (112u << 23);
  const uint32_t rest = rebiased & 0x1fff;
  uint32_t h = rebiased >> 13;
  if (rest > 0x1000 || (rest == 0x1000 && (h & 1))) ++h;
  return uint16_t(sign | h);
}

std::vector<uint8_t> fill_texel(const cl_image_format& f, const void* color) {
  const HwImageFormat hw = *hw_image_format(f);
  const img::FormatInfo fi = img::format_info(hw.format);
  uint32_t comp[4];
  std::memcpy(comp, color, sizeof comp);
  // Memory channel m holds the component the read swizzle takes from it; where several do
  // (CL_INTENSITY, CL_LUMINANCE), the first: red.
  uint32_t mem[4] = {};
  for (int c = 3; c >= 0; --c)
    if (const unsigned s = unsigned(hw.dst_sel[c]); s >= unsigned(img::Sel::kX))
      mem[s - unsigned(img::Sel::kX)] = comp[c];
  std::vector<uint8_t> bytes(hw.element_size);
  // Alpha is linear in sRGB formats: the memory channel red, green and blue come from.
  for (unsigned m = 0; m < fi.channels; ++m) {
    bool colour = false;
    for (int c = 0; c < 3; ++c) colour |= unsigned(hw.dst_sel[c]) == unsigned(img::Sel::kX) + m;
    const uint32_t v = channel(mem[m], fi.bits, fi.type, colour);
    std::memcpy(bytes.data() + m * fi.bits / 8, &v, fi.bits / 8);
  }
  return bytes;
}

} // namespace amcl::rt
