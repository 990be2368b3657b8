// Sampler objects: the OpenCL sampler as the S# and sampler bits of a descriptor block per GPU
// generation (compiler/image_abi.h), which a sampler kernel argument points at.
#pragma once
#include "objects.h"

#include <vector>

namespace amcl::rt {

// A new sampler; the entry point has checked the values. CL_OUT_OF_RESOURCES when the
// descriptor memory cannot be had.
cl_sampler create_sampler(cl_context context, cl_bool normalized, cl_addressing_mode addressing,
                          cl_filter_mode filter, std::vector<cl_sampler_properties> properties);

// The OpenCL C sampler bits (CLK_NORMALIZED_COORDS_* | CLK_ADDRESS_* | CLK_FILTER_*) of the
// host-side values.
uint32_t sampler_bits(cl_bool normalized, cl_addressing_mode addressing, cl_filter_mode filter);

// The device address of `s`'s descriptor block for `d`'s generation.
uint64_t sampler_block_va(cl_sampler s, cl_device_id d);

} // namespace amcl::rt
