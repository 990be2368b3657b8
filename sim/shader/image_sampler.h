// The sampler's addressing and filtering along one axis (RDNA3/RDNA4 ISA manuals, "Image
// Sampling"; SQ_TEX_CLAMP and SQ_TEX_XY_FILTER from the S#): which texels a point or bilinear
// filter reads for a coordinate, with what weights, and which of them are border texels.
#pragma once
#include "am/hw/image_descriptor.h"

#include <cstdint>

namespace sim::shader {

struct AxisTaps {
  int index[2] = {0, 0};
  float weight[2] = {1, 0};
  bool border[2] = {false, false};
  unsigned count = 1;
};
// `coord` in texels (unnormalized) or in [0, 1) of the size (normalized).
AxisTaps axis_taps(float coord, unsigned size, bool normalized, bool linear,
                   am::hw::image::Clamp mode);
// A texel index brought back into [0, size) by `mode`; false when it reads the border.
bool address_texel(int& i, unsigned size, am::hw::image::Clamp mode);
// The border colour of the predefined types (false: the border colour table, not modelled).
bool border_color(am::hw::image::Border b, bool integer, uint32_t out[4]);

} // namespace sim::shader
