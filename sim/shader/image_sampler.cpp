// Sampler addressing and filtering along one axis (see image_sampler.h).
#include "image_sampler.h"

#include <bit>
#include <cmath>

namespace sim::shader {

using am::hw::image::Border;
using am::hw::image::Clamp;

bool address_texel(int& i, unsigned size, Clamp mode) {
  const int n = int(size);
  switch (mode) {
  case Clamp::Wrap:
    i = ((i % n) + n) % n;
    return true;
  case Clamp::Mirror: {
    const int m = ((i % (2 * n)) + 2 * n) % (2 * n);
    i = m < n ? m : 2 * n - 1 - m;
    return true;
  }
  case Clamp::ClampLastTexel:
    i = i < 0 ? 0 : i >= n ? n - 1 : i;
    return true;
  case Clamp::MirrorOnceLastTexel:
    if (i < 0) i = -1 - i;
    if (i >= n) i = n - 1;
    return true;
  case Clamp::ClampHalfBorder:
  case Clamp::ClampBorder:
    return i >= 0 && i < n;
  case Clamp::MirrorOnceHalfBorder:
  case Clamp::MirrorOnceBorder:
    if (i < 0) i = -1 - i;
    return i < n;
  }
  return false;
}

AxisTaps axis_taps(float coord, unsigned size, bool normalized, bool linear, Clamp mode) {
  AxisTaps t;
  // Wrap takes the fraction of a normalized coordinate before scaling it (OpenCL 3.0 §8.2,
  // CL_ADDRESS_REPEAT): scaling first moves a weight of exactly 0 onto a neighbour by rounding.
  if (normalized && mode == Clamp::Wrap) coord -= std::floor(coord);
  const float u = normalized ? coord * float(size) : coord;
  if (!linear) {
    t.index[0] = int(std::floor(u));
  } else {
    const float s = u - 0.5f;
    const float base = std::floor(s);
    t.index[0] = int(base);
    t.index[1] = t.index[0] + 1;
    t.weight[1] = s - base;
    t.weight[0] = 1.0f - t.weight[1];
    t.count = 2;
  }
  for (unsigned k = 0; k < t.count; ++k) t.border[k] = !address_texel(t.index[k], size, mode);
  return t;
}

bool border_color(Border b, bool integer, uint32_t out[4]) {
  const uint32_t one = integer ? 1u : std::bit_cast<uint32_t>(1.0f);
  switch (b) {
  case Border::TransBlack:
    out[0] = out[1] = out[2] = out[3] = 0;
    return true;
  case Border::OpaqueBlack:
    out[0] = out[1] = out[2] = 0, out[3] = one;
    return true;
  case Border::OpaqueWhite:
    out[0] = out[1] = out[2] = out[3] = one;
    return true;
  case Border::Register:
    return false;
  }
  return false;
}

} // namespace sim::shader
