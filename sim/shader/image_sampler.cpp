// Sampler addressing and filtering along one axis (see image_sampler.h).
#include "image_sampler.h"

#include <bit>

namespace sim::shader {

using am::hw::image::Border;

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
