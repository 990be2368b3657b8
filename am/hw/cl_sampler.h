// The S# an OpenCL sampler becomes: one mapping from the OpenCL C sampler bits
// (CLK_NORMALIZED_COORDS_* | CLK_ADDRESS_* | CLK_FILTER_*, the value of a sampler_t initializer)
// to the hardware sampler, shared by the runtime's sampler objects and the compiler's
// program-scope samplers so that both read alike.
//
// Sources: the bit values are clang's opencl-c-base.h (CLK_ADDRESS_NONE 0, CLAMP_TO_EDGE 2,
// CLAMP 4, REPEAT 6, MIRRORED_REPEAT 8; NORMALIZED_COORDS_TRUE 1; FILTER_NEAREST 0x10, LINEAR
// 0x20). The mapping follows OpenCL C 3.0 "Addressing Mode and Filtering": CLAMP reads the border
// colour (0,0,0,0) for orders with alpha and (0,0,0,1) without; the hardware applies the T#'s
// DST_SEL after the border colour (transparent black), so an order without alpha, whose DST_SEL
// W is 1, reads alpha 1. CLK_ADDRESS_NONE leaves out-of-range reads undefined; clamping to the
// edge keeps them inside the image.
#pragma once
#include "am/hw/image_descriptor.h"

#include <cstdint>

namespace am::hw::image {

inline constexpr uint32_t kClNormalizedCoords = 0x1;
inline constexpr uint32_t kClAddressMask = 0xE;
inline constexpr uint32_t kClAddressNone = 0x0, kClAddressClampToEdge = 0x2, kClAddressClamp = 0x4,
                          kClAddressRepeat = 0x6, kClAddressMirroredRepeat = 0x8;
inline constexpr uint32_t kClFilterMask = 0x30;
inline constexpr uint32_t kClFilterNearest = 0x10, kClFilterLinear = 0x20;

// Whether `bits` is a sampler value OpenCL C allows (one addressing mode, at most one filter;
// no filter bit means nearest).
constexpr bool valid_cl_sampler_bits(uint32_t bits) {
  const uint32_t known = kClNormalizedCoords | kClAddressMask | kClFilterMask;
  return (bits & ~known) == 0 && (bits & kClAddressMask) <= kClAddressMirroredRepeat &&
         (bits & kClFilterMask) != kClFilterMask;
}

constexpr Sampler cl_sampler(uint32_t bits) {
  Sampler s;
  Clamp c = Clamp::ClampLastTexel;
  switch (bits & kClAddressMask) {
  case kClAddressClamp:
    c = Clamp::ClampBorder;
    break;
  case kClAddressRepeat:
    c = Clamp::Wrap;
    break;
  case kClAddressMirroredRepeat:
    c = Clamp::Mirror;
    break;
  default: // NONE and CLAMP_TO_EDGE
    break;
  }
  s.clamp[0] = s.clamp[1] = s.clamp[2] = c;
  s.force_unnormalized = !(bits & kClNormalizedCoords);
  const bool linear = (bits & kClFilterMask) == kClFilterLinear;
  s.mag = s.min = linear ? XyFilter::Bilinear : XyFilter::Point;
  s.z = linear ? ZFilter::Linear : ZFilter::Point;
  s.mip = MipFilter::None;
  s.border = Border::TransBlack;
  return s;
}

} // namespace am::hw::image
