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

// The same conversions specialised for one IMG_FORMAT (channel count, width and type fixed at
// compile time, 8-bit normalized values from tables), picked once per instruction rather than
// switched on per channel of every texel. Bit for bit decode_texel and encode_texel.
using TexelDecoder = void (*)(const uint8_t* bytes, uint32_t out[4]);
using TexelEncoder = void (*)(const uint32_t in[4], uint8_t* bytes);
struct TexelCodec {
  TexelDecoder decode = nullptr; // nullptr: a format amcl does not convert
  TexelEncoder encode = nullptr;
  // decode of a texel read from guest memory at `guest` (aligned to the texel's size, to 4 for
  // 12 bytes, within one page) in relaxed words, as the image instructions move texels (other
  // waves may write the bytes): the read and the decode in one call (stop 37).
  TexelDecoder load = nullptr;
};
TexelCodec texel_codec(uint16_t format);

} // namespace sim::shader
