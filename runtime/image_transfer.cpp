#include "image_transfer.h"

#include "image.h"

namespace amcl::rt {
namespace {

// The region in bytes, rows and slices.
struct ByteRegion {
  size_t r[3];
};
ByteRegion bytes_of(cl_mem image, const size_t* region) {
  return {{region[0] * image->image->element_size, region[1], region[2]}};
}

// A tightly packed region in a buffer or host memory at `offset`, with the given pitches.
Rect packed_rect(size_t offset, size_t row_bytes, size_t rows, size_t row_pitch,
                 size_t slice_pitch) {
  const size_t row = row_pitch ? row_pitch : row_bytes;
  return Rect{{offset, 0, 0}, row, slice_pitch ? slice_pitch : row * rows};
}

} // namespace

cl_event enqueue_image_transfer(cl_command_queue q, cl_mem image, const size_t* origin,
                                const size_t* region, size_t row_pitch, size_t slice_pitch,
                                void* ptr, bool to_device, const cl_event* waits, cl_uint nwait,
                                bool blocking) {
  const ByteRegion b = bytes_of(image, region);
  Rect host = packed_rect(0, b.r[0], b.r[1], row_pitch, slice_pitch);
  if (image->image->desc.image_type == CL_MEM_OBJECT_IMAGE1D_ARRAY && slice_pitch)
    host.row_pitch = slice_pitch; // layers are the rows
  return enqueue_rect_transfer(q, image, image_device_rect(image, origin), host, b.r, ptr,
                               to_device, waits, nwait, blocking,
                               to_device ? CL_COMMAND_WRITE_IMAGE : CL_COMMAND_READ_IMAGE);
}

cl_event enqueue_copy_image(cl_command_queue q, cl_mem src, cl_mem dst, const size_t* src_origin,
                            const size_t* dst_origin, const size_t* region, const cl_event* waits,
                            cl_uint nwait) {
  const ByteRegion b = bytes_of(src, region);
  return enqueue_copy_buffer_rect(q, src, dst, image_device_rect(src, src_origin),
                                  image_device_rect(dst, dst_origin), b.r, waits, nwait,
                                  CL_COMMAND_COPY_IMAGE);
}

cl_event enqueue_copy_image_buffer(cl_command_queue q, cl_mem image, cl_mem buffer,
                                   const size_t* origin, const size_t* region, size_t offset,
                                   bool to_image, const cl_event* waits, cl_uint nwait) {
  const ByteRegion b = bytes_of(image, region);
  const Rect img = image_device_rect(image, origin);
  const Rect buf = packed_rect(offset, b.r[0], b.r[1], 0, 0);
  return to_image ? enqueue_copy_buffer_rect(q, buffer, image, buf, img, b.r, waits, nwait,
                                             CL_COMMAND_COPY_BUFFER_TO_IMAGE)
                  : enqueue_copy_buffer_rect(q, image, buffer, img, buf, b.r, waits, nwait,
                                             CL_COMMAND_COPY_IMAGE_TO_BUFFER);
}

} // namespace amcl::rt
