// Image reads, writes, copies, fills and maps: an image is linear (runtime/image.h), so each is
// the rows of a rectangle and runs on the copy engine as buffer rectangles do (transfer.h).
// Origins and regions are in texels; the entry point has checked them against the image.
#pragma once
#include "objects.h"
#include "transfer.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace amcl::rt {

// clEnqueueReadImage (to_device false) and clEnqueueWriteImage with the host's pitches (0:
// tightly packed; a 1D array's layers are `slice_pitch` apart).
cl_event enqueue_image_transfer(cl_command_queue q, cl_mem image, const size_t* origin,
                                const size_t* region, size_t row_pitch, size_t slice_pitch,
                                void* ptr, bool to_device, const cl_event* waits, cl_uint nwait,
                                bool blocking);
cl_event enqueue_copy_image(cl_command_queue q, cl_mem src, cl_mem dst, const size_t* src_origin,
                            const size_t* dst_origin, const size_t* region, const cl_event* waits,
                            cl_uint nwait);
// clEnqueueCopyImageToBuffer (to_image false) and clEnqueueCopyBufferToImage: the buffer holds
// the region tightly packed from `offset`.
cl_event enqueue_copy_image_buffer(cl_command_queue q, cl_mem image, cl_mem buffer,
                                   const size_t* origin, const size_t* region, size_t offset,
                                   bool to_image, const cl_event* waits, cl_uint nwait);

// clEnqueueFillImage: every texel of the region becomes `texel` (image_pixel.h).
cl_event enqueue_fill_image(cl_command_queue q, cl_mem image, std::vector<uint8_t> texel,
                            const size_t* origin, const size_t* region, const cl_event* waits,
                            cl_uint nwait);

// clEnqueueMapImage: the region in host memory (the application's, for CL_MEM_USE_HOST_PTR)
// at the returned pitches, filled unless CL_MAP_WRITE_INVALIDATE_REGION; enqueue_unmap
// (transfer.h) writes it back. A failed enqueue is CL_MAP_FAILURE.
struct MappedImage {
  Mapped mapped;
  size_t row_pitch, slice_pitch;
};
// The host memory of an image map that amcl allocates: the image's spare copy when it is
// large enough, else new memory; keep_map_copy takes it back when the unmap has run.
void* take_map_copy(cl_mem image, size_t& bytes);
void keep_map_copy(cl_mem image, void* ptr, size_t bytes);
// A released image's spare copy goes to its context for the next image's map, if larger than
// the context's and at most kContextMapCopyMax bytes; else it is freed.
inline constexpr size_t kContextMapCopyMax = size_t{128} << 20;
void retire_map_copy(cl_mem image);

MappedImage enqueue_map_image(cl_command_queue q, cl_mem image, cl_map_flags flags,
                              const size_t* origin, const size_t* region, const cl_event* waits,
                              cl_uint nwait, bool blocking);

} // namespace amcl::rt
