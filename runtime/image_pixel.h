// A fill colour as an image format's texel bytes (clEnqueueFillImage): float4 for normalized,
// half and float formats, int4 or uint4 for integer ones, converted on the host as the image
// write path converts (OpenCL 3.0 "Conversion Rules": round to nearest even, saturate, the sRGB
// curve for sRGB formats) and laid out in the channel order's memory order.
#pragma once
#include "objects.h"

#include <cstdint>
#include <vector>

namespace amcl::rt {

// The texel of an offered format `f` for the colour at `color` (16 bytes).
std::vector<uint8_t> fill_texel(const cl_image_format& f, const void* color);

// IEEE binary16 from binary32, rounded to nearest even (overflow to infinity, NaN kept).
uint16_t float_to_half(float v);

} // namespace amcl::rt
