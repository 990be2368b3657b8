#include "sampler.h"

#include "memory.h"

#include "am/hw/cl_sampler.h"
#include "compiler/image_abi.h"

#include <cstring>
#include <memory>

namespace amcl::rt {
namespace {

namespace img = am::hw::image;

bool is_gfx12(cl_device_id d) {
  return d->info().gfx.rfind("gfx12", 0) == 0;
}

} // namespace

uint32_t sampler_bits(cl_bool normalized, cl_addressing_mode addressing, cl_filter_mode filter) {
  uint32_t bits = normalized ? img::kClNormalizedCoords : 0;
  switch (addressing) {
  case CL_ADDRESS_CLAMP_TO_EDGE:
    bits |= img::kClAddressClampToEdge;
    break;
  case CL_ADDRESS_CLAMP:
    bits |= img::kClAddressClamp;
    break;
  case CL_ADDRESS_REPEAT:
    bits |= img::kClAddressRepeat;
    break;
  case CL_ADDRESS_MIRRORED_REPEAT:
    bits |= img::kClAddressMirroredRepeat;
    break;
  default:
    bits |= img::kClAddressNone;
    break;
  }
  return bits | (filter == CL_FILTER_LINEAR ? img::kClFilterLinear : img::kClFilterNearest);
}

cl_sampler create_sampler(cl_context context, cl_bool normalized, cl_addressing_mode addressing,
                          cl_filter_mode filter, std::vector<cl_sampler_properties> properties) {
  auto s = std::make_unique<_cl_sampler>();
  s->context = context;
  retain(context); // released by ~_cl_sampler, also when creation fails below
  s->normalized_coords = normalized ? CL_TRUE : CL_FALSE;
  s->addressing = addressing;
  s->filter = filter;
  s->properties = std::move(properties);
  try {
    s->descriptors =
        alloc_in_context(context, 2 * AMCL_SAMPLER_BLOCK_BYTES, Visibility::CpuVisible);
  } catch (const am::DeviceError&) {
    throw ClError{CL_OUT_OF_RESOURCES, ""};
  }
  const uint32_t bits = sampler_bits(normalized, addressing, filter);
  for (img::Gen g : {img::Gen::gfx11, img::Gen::gfx12}) {
    uint32_t block[AMCL_SAMPLER_BLOCK_BYTES / 4] = {};
    const auto ssharp = img::pack(g, img::cl_sampler(bits));
    std::memcpy(block + AMCL_SAMPLER_SSHARP, ssharp.data(), sizeof ssharp);
    block[AMCL_SAMPLER_BITS] = bits;
    std::memcpy(s->descriptors.cpu + (g == img::Gen::gfx12 ? AMCL_SAMPLER_BLOCK_BYTES : 0), block,
                sizeof block);
  }
  return s.release();
}

uint64_t sampler_block_va(cl_sampler s, cl_device_id d) {
  return s->descriptors.va + (is_gfx12(d) ? AMCL_SAMPLER_BLOCK_BYTES : 0);
}

} // namespace amcl::rt
