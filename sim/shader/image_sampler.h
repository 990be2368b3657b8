// The sampler's addressing and filtering along one axis (RDNA3/RDNA4 ISA manuals, "Image
// Sampling"; SQ_TEX_CLAMP and SQ_TEX_XY_FILTER from the S#): which texels a point or bilinear
// filter reads for a coordinate, with what weights, and which of them are border texels.
#pragma once
#include "am/hw/image_descriptor.h"

#include <cmath>
#include <cstdint>

namespace sim::shader {

struct AxisTaps {
  int index[2] = {0, 0};
  float weight[2] = {1, 0};
  bool border[2] = {false, false};
  unsigned count = 1;
};
// floor(u) as an int for -2^31 <= u < 2^31 (not NaN): the truncation, one less below a fraction.
// std::floor is a call or a long sequence on baseline x86-64 (no SSE4.1 round): a sample's
// floors were a tenth of its lane (callgrind, stop 37). Exact: a float of magnitude 2^23 or
// more is an integer, and a smaller one's truncation converts back exactly.
[[gnu::always_inline]] inline int floor_to_int(float u) {
  const int i = int(u);
  return i - (float(i) > u ? 1 : 0);
}
// The layer an array coordinate selects: round half up, clamped to [0, layers). The texture
// unit's float-to-integer conversion saturates, as the GPU's conversions do (v_cvt_i32_f32:
// out-of-range values clamp, NaN gives 0): a coordinate past int's range selects the first or
// the last layer, a NaN the first. (The model took x86's INT_MIN for any of them, layer 0,
// until stop 38.) OpenCL's builtins clamp the layer before the instruction anyway.
[[gnu::always_inline]] inline int array_layer(float coord, unsigned layers) {
  const float x = coord + 0.5f;
  const int layer = x >= -0x1p31f && x < 0x1p31f ? floor_to_int(x)
                    : x >= 0x1p31f               ? int(layers) - 1
                                                 : 0; // below int's range, or NaN
  return layer < 0 ? 0 : layer >= int(layers) ? int(layers) - 1 : layer;
}
// Both inline: they run for every lane and axis of a sample, and a call returning AxisTaps in
// memory cost more than their work (stop 32, the CTS image suites).
// A texel index brought back into [0, size) by `mode`; false when it reads the border.
[[gnu::always_inline]] inline bool address_texel(int& i, unsigned size, am::hw::image::Clamp mode) {
  const int n = int(size);
  switch (mode) {
  case am::hw::image::Clamp::Wrap:
    i = ((i % n) + n) % n;
    return true;
  case am::hw::image::Clamp::Mirror: {
    const int m = ((i % (2 * n)) + 2 * n) % (2 * n);
    i = m < n ? m : 2 * n - 1 - m;
    return true;
  }
  case am::hw::image::Clamp::ClampLastTexel:
    i = i < 0 ? 0 : i >= n ? n - 1 : i;
    return true;
  case am::hw::image::Clamp::MirrorOnceLastTexel:
    if (i < 0) i = -1 - i;
    if (i >= n) i = n - 1;
    return true;
  case am::hw::image::Clamp::ClampHalfBorder:
  case am::hw::image::Clamp::ClampBorder:
    return i >= 0 && i < n;
  case am::hw::image::Clamp::MirrorOnceHalfBorder:
  case am::hw::image::Clamp::MirrorOnceBorder:
    if (i < 0) i = -1 - i;
    return i < n;
  }
  return false;
}
// `coord` in texels (unnormalized) or in [0, 1) of the size (normalized).
[[gnu::always_inline]] inline AxisTaps axis_taps(float coord, unsigned size, bool normalized,
                                                 bool linear, am::hw::image::Clamp mode) {
  AxisTaps t;
  // Wrap takes the fraction of a normalized coordinate before scaling it (OpenCL 3.0 §8.2,
  // CL_ADDRESS_REPEAT): scaling first moves a weight of exactly 0 onto a neighbour by rounding.
  if (normalized && mode == am::hw::image::Clamp::Wrap) coord -= std::floor(coord);
  float u = normalized ? coord * float(size) : coord;
  // Converting a float past int's range (or a NaN) to int is undefined, and x86 gives INT_MIN:
  // 1e10 would have read the first texel, not the last. An axis is at most 16384 texels long
  // so ±2^30 is past every edge; a NaN (an infinity's fraction too) reads as 0.
  u = u > 0x1p30f ? 0x1p30f : u < -0x1p30f ? -0x1p30f : u == u ? u : 0.0f;
  if (!linear) {
    t.index[0] = floor_to_int(u);
  } else {
    const float s = u - 0.5f;
    t.index[0] = floor_to_int(s);
    const float base = float(t.index[0]);
    t.index[1] = t.index[0] + 1;
    t.weight[1] = s - base;
    t.weight[0] = 1.0f - t.weight[1];
    t.count = 2;
  }
  for (unsigned k = 0; k < t.count; ++k) t.border[k] = !address_texel(t.index[k], size, mode);
  return t;
}
// The border colour of the predefined types (false: the border colour table, not modelled).
bool border_color(am::hw::image::Border b, bool integer, uint32_t out[4]);

} // namespace sim::shader
