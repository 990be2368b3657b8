// Sampler objects: creation with OpenCL 3.0's property list, queries, reference counting. The
// checks are here; runtime/sampler.h makes them.
#include "api_util.h"
#include "runtime/sampler.h"

#include <vector>

using namespace amcl;
using namespace amcl::icd;

namespace {

bool valid_addressing(cl_addressing_mode m) {
  return m == CL_ADDRESS_NONE || m == CL_ADDRESS_CLAMP_TO_EDGE || m == CL_ADDRESS_CLAMP ||
         m == CL_ADDRESS_REPEAT || m == CL_ADDRESS_MIRRORED_REPEAT;
}

cl_sampler create_checked_sampler(cl_context context, cl_bool normalized, cl_addressing_mode mode,
                                  cl_filter_mode filter, std::vector<cl_sampler_properties> kept) {
  require(context, CL_INVALID_CONTEXT);
  if ((normalized != CL_TRUE && normalized != CL_FALSE) || !valid_addressing(mode) ||
      (filter != CL_FILTER_NEAREST && filter != CL_FILTER_LINEAR))
    fail(CL_INVALID_VALUE);
  // OpenCL C: repeat and mirrored repeat need normalized coordinates. The host API leaves the
  // pair to the kernel's reads (undefined results), so it is accepted here.
  return rt::create_sampler(context, normalized, mode, filter, std::move(kept));
}

} // namespace

extern "C" {

cl_sampler CL_API_CALL clCreateSampler(cl_context context, cl_bool normalized,
                                       cl_addressing_mode mode, cl_filter_mode filter,
                                       cl_int* errcode_ret) {
  return create<cl_sampler>(
      errcode_ret, [&] { return create_checked_sampler(context, normalized, mode, filter, {}); });
}

cl_sampler CL_API_CALL clCreateSamplerWithProperties(cl_context context,
                                                     const cl_sampler_properties* properties,
                                                     cl_int* errcode_ret) {
  return create<cl_sampler>(errcode_ret, [&] {
    require(context, CL_INVALID_CONTEXT);
    cl_bool normalized = CL_TRUE;
    cl_addressing_mode mode = CL_ADDRESS_CLAMP;
    cl_filter_mode filter = CL_FILTER_NEAREST;
    std::vector<cl_sampler_properties> kept;
    bool seen[3] = {};
    for (const cl_sampler_properties* p = properties; p && *p; p += 2) {
      // Each property once; mip-map properties (cl_khr_mipmap_image) are not offered.
      int which = -1;
      switch (p[0]) {
      case CL_SAMPLER_NORMALIZED_COORDS:
        which = 0;
        normalized = cl_bool(p[1]);
        break;
      case CL_SAMPLER_ADDRESSING_MODE:
        which = 1;
        mode = cl_addressing_mode(p[1]);
        break;
      case CL_SAMPLER_FILTER_MODE:
        which = 2;
        filter = cl_filter_mode(p[1]);
        break;
      default:
        fail(CL_INVALID_VALUE);
      }
      if (seen[which]) fail(CL_INVALID_VALUE);
      seen[which] = true;
      kept.insert(kept.end(), {p[0], p[1]});
    }
    if (properties) kept.push_back(0);
    return create_checked_sampler(context, normalized, mode, filter, std::move(kept));
  });
}

cl_int CL_API_CALL clRetainSampler(cl_sampler s) {
  return retain_handle(s, CL_INVALID_SAMPLER);
}

cl_int CL_API_CALL clReleaseSampler(cl_sampler s) {
  return release_handle(s, CL_INVALID_SAMPLER);
}

cl_int CL_API_CALL clGetSamplerInfo(cl_sampler s, cl_sampler_info param, size_t size, void* value,
                                    size_t* size_ret) {
  if (!rt::valid(s)) return CL_INVALID_SAMPLER;
  switch (param) {
  case CL_SAMPLER_REFERENCE_COUNT:
    return rt::write_info(cl_uint(s->refs), size, value, size_ret);
  case CL_SAMPLER_CONTEXT:
    return rt::write_info(s->context, size, value, size_ret);
  case CL_SAMPLER_NORMALIZED_COORDS:
    return rt::write_info(s->normalized_coords, size, value, size_ret);
  case CL_SAMPLER_ADDRESSING_MODE:
    return rt::write_info(s->addressing, size, value, size_ret);
  case CL_SAMPLER_FILTER_MODE:
    return rt::write_info(s->filter, size, value, size_ret);
  case CL_SAMPLER_PROPERTIES:
    return rt::write_info_vector(s->properties, size, value, size_ret);
  default:
    return CL_INVALID_VALUE;
  }
}

} // extern "C"
