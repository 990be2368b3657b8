// Image objects: their device layout (linear, SW_MODE 0), the limits the T# fields set, and the
// descriptor blocks a kernel argument points at (compiler/image_abi.h), one per GPU generation.
// The entry point has checked the format, the description and the flags.
#pragma once
#include "buffer_geometry.h"
#include "objects.h"

#include <cstddef>
#include <vector>

namespace amcl::rt {

// What a device's T# can describe (OpenCL's CL_DEVICE_IMAGE* limits), in texels or images.
struct ImageLimits {
  size_t width_2d, height_2d, width_3d, height_3d, depth_3d, array_size, buffer_size;
  size_t max_pitch;    // a 2D image's row pitch in texels (the T# DEPTH/PITCH field)
  cl_uint pitch_align; // CL_DEVICE_IMAGE_PITCH_ALIGNMENT, in texels
  cl_uint base_align;  // CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT, in texels
};
ImageLimits image_limits(cl_device_id d);
// The strictest of the context's devices: what every one of them can use.
ImageLimits image_limits(cl_context c);

// Bytes per texel of an offered format (0 if not offered).
size_t image_element_size(const cl_image_format& f);

// A new image. `desc.buffer` (1D buffer and 2D images from a buffer) is a buffer of the
// context, whose storage the image uses; otherwise the image gets its own storage, filled from
// `host_ptr` with the description's (host) pitches for CL_MEM_COPY_HOST_PTR and
// CL_MEM_USE_HOST_PTR. CL_MEM_OBJECT_ALLOCATION_FAILURE when memory cannot be had.
cl_mem create_image(cl_context context, cl_mem_flags flags, const cl_image_format& format,
                    const cl_image_desc& desc, void* host_ptr,
                    std::vector<cl_mem_properties> properties);

// The device address of `image`'s descriptor block for `d`'s generation.
uint64_t image_block_va(cl_mem image, cl_device_id d);

// An image's extent in texels as (width, height, depth) where height counts the layers of a
// 1D array and depth the layers of a 2D array: the space origin and region address.
void image_extent(cl_mem image, size_t extent[3]);
// The device bytes of the texels at `origin` (in texels, as clEnqueueReadImage takes them):
// a rectangle whose rows are region[0] * element size bytes.
Rect image_device_rect(cl_mem image, const size_t* origin);
// Before enqueuing a command that may write an image's texels (see _cl_mem::Image).
inline void note_written(cl_mem m) {
  if (m && m->image) m->image->texels_defined.store(true, std::memory_order_release);
}

} // namespace amcl::rt
