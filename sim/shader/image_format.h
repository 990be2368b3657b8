// Texel conversions between an image format's bytes in memory and the four 32-bit components an
// image instruction returns or takes (RDNA3/RDNA4 ISA manuals, "Data Format and Conversion":
// unorm/snorm/float/half become floats, uint/sint stay integers).
#pragma once
#include "am/hw/image_descriptor.h"

#include <cstdint>

namespace sim::shader {

// Whether the format's components are integers (returned and taken as such) or floats.
inline bool is_integer(am::hw::image::NumType t) {
  return t == am::hw::image::NumType::Uint || t == am::hw::image::NumType::Sint;
}
// Reads one texel: channels the format lacks read as 0, alpha as 1 (1.0 or integer 1).
void decode_texel(const am::hw::image::FormatInfo& f, const uint8_t* bytes, uint32_t out[4]);
// Writes one texel from four components (floats or integers as the format's type wants);
// unorm/snorm values are clamped and rounded to nearest, integers keep their low bits
// (the hardware's typed stores clamp only the normalized types).
void encode_texel(const am::hw::image::FormatInfo& f, const uint32_t in[4], uint8_t* bytes);

} // namespace sim::shader
