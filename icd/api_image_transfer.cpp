// Image transfers: read, write, copy, copies to and from buffers, fill and map. The checks are
// here (OpenCL 3.0's rules for origin and region per image type); runtime/image_transfer.h does
// the work.
#include "api_util.h"
#include "enqueue.h"
#include "runtime/image.h"
#include "runtime/image_pixel.h"
#include "runtime/image_transfer.h"

using namespace amcl;
using namespace amcl::icd;

namespace {

cl_mem require_image(cl_mem m) {
  if (!rt::valid(m) || !m->image) fail(CL_INVALID_MEM_OBJECT);
  return m;
}

// Origin and region within the image, with the unused coordinates of its type 0 (origin) and 1
// (region): a 1D image uses x; 2D images and 1D arrays x and y (a 1D array's layer); the rest
// all three.
void check_image_region(cl_mem image, const size_t* origin, const size_t* region) {
  if (!origin || !region) fail(CL_INVALID_VALUE);
  size_t extent[3];
  rt::image_extent(image, extent);
  const cl_mem_object_type t = image->image->desc.image_type;
  const int dims = t == CL_MEM_OBJECT_IMAGE1D || t == CL_MEM_OBJECT_IMAGE1D_BUFFER  ? 1
                   : t == CL_MEM_OBJECT_IMAGE2D || t == CL_MEM_OBJECT_IMAGE1D_ARRAY ? 2
                                                                                    : 3;
  for (int i = 0; i < 3; ++i) {
    if (region[i] == 0) fail(CL_INVALID_VALUE);
    if (i >= dims && (origin[i] != 0 || region[i] != 1)) fail(CL_INVALID_VALUE);
    if (origin[i] > extent[i] || region[i] > extent[i] - origin[i]) fail(CL_INVALID_VALUE);
  }
}

// The checks of an image command on `q`.
void check_image_command(cl_command_queue q, cl_mem image, cl_uint nwait, const cl_event* wait) {
  require(q, CL_INVALID_COMMAND_QUEUE);
  require_image(image);
  if (image->context != q->context) fail(CL_INVALID_CONTEXT);
  check_wait_list(q, nwait, wait);
}

// clEnqueueReadImage and clEnqueueWriteImage: the same checks, opposite directions.
cl_int image_transfer(cl_command_queue q, cl_mem image, cl_bool blocking, const size_t* origin,
                      const size_t* region, size_t row_pitch, size_t slice_pitch, void* ptr,
                      cl_uint nwait, const cl_event* wait, cl_event* event, bool to_device) {
  return guarded([&] {
    check_image_command(q, image, nwait, wait);
    check_image_region(image, origin, region);
    if (!ptr) fail(CL_INVALID_VALUE);
    const size_t row = region[0] * image->image->element_size;
    if (row_pitch && row_pitch < row) fail(CL_INVALID_VALUE);
    const size_t rows_pitch = row_pitch ? row_pitch : row;
    const cl_mem_object_type t = image->image->desc.image_type;
    if (slice_pitch && t == CL_MEM_OBJECT_IMAGE1D_ARRAY && slice_pitch < rows_pitch)
      fail(CL_INVALID_VALUE);
    if (slice_pitch && (t == CL_MEM_OBJECT_IMAGE3D || t == CL_MEM_OBJECT_IMAGE2D_ARRAY) &&
        slice_pitch < rows_pitch * region[1])
      fail(CL_INVALID_VALUE);
    if (image->flags &
        ((to_device ? CL_MEM_HOST_READ_ONLY : CL_MEM_HOST_WRITE_ONLY) | CL_MEM_HOST_NO_ACCESS))
      fail(CL_INVALID_OPERATION);
    return hand_back(rt::enqueue_image_transfer(q, image, origin, region, row_pitch, slice_pitch,
                                                ptr, to_device, wait, nwait, blocking),
                     event);
  });
}

// Whether a copy within one image reads texels it writes.
bool regions_overlap(const size_t* a, const size_t* b, const size_t* region) {
  for (int i = 0; i < 3; ++i)
    if (a[i] >= b[i] + region[i] || b[i] >= a[i] + region[i]) return false;
  return true;
}

// clEnqueueCopyImageToBuffer and clEnqueueCopyBufferToImage: the region, tightly packed in the
// buffer from `offset`.
cl_int copy_image_buffer(cl_command_queue q, cl_mem image, cl_mem buffer, const size_t* origin,
                         const size_t* region, size_t offset, cl_uint nwait, const cl_event* wait,
                         cl_event* event, bool to_image) {
  return guarded([&] {
    require(q, CL_INVALID_COMMAND_QUEUE);
    require_image(image);
    if (!rt::valid(buffer) || buffer->image) fail(CL_INVALID_MEM_OBJECT);
    if (image->context != q->context || buffer->context != q->context) fail(CL_INVALID_CONTEXT);
    check_image_region(image, origin, region);
    const size_t bytes = region[0] * region[1] * region[2] * image->image->element_size;
    check_buffer_range(buffer, offset, bytes);
    check_wait_list(q, nwait, wait);
    return hand_back(rt::enqueue_copy_image_buffer(q, image, buffer, origin, region, offset,
                                                   to_image, wait, nwait),
                     event);
  });
}

} // namespace

extern "C" {

cl_int CL_API_CALL clEnqueueReadImage(cl_command_queue q, cl_mem image, cl_bool blocking,
                                      const size_t* origin, const size_t* region, size_t row_pitch,
                                      size_t slice_pitch, void* ptr, cl_uint nwait,
                                      const cl_event* wait, cl_event* event) {
  return image_transfer(q, image, blocking, origin, region, row_pitch, slice_pitch, ptr, nwait,
                        wait, event, false);
}

cl_int CL_API_CALL clEnqueueWriteImage(cl_command_queue q, cl_mem image, cl_bool blocking,
                                       const size_t* origin, const size_t* region, size_t row_pitch,
                                       size_t slice_pitch, const void* ptr, cl_uint nwait,
                                       const cl_event* wait, cl_event* event) {
  // Only read from: the transfer copies host rows out when `to_device`.
  return image_transfer(q, image, blocking, origin, region, row_pitch, slice_pitch,
                        const_cast<void*>(ptr), nwait, wait, event, true);
}

cl_int CL_API_CALL clEnqueueCopyImage(cl_command_queue q, cl_mem src, cl_mem dst,
                                      const size_t* src_origin, const size_t* dst_origin,
                                      const size_t* region, cl_uint nwait, const cl_event* wait,
                                      cl_event* event) {
  return guarded([&] {
    require(q, CL_INVALID_COMMAND_QUEUE);
    require_image(src);
    require_image(dst);
    if (src->context != q->context || dst->context != q->context) fail(CL_INVALID_CONTEXT);
    const cl_image_format& a = src->image->format;
    const cl_image_format& b = dst->image->format;
    if (a.image_channel_order != b.image_channel_order ||
        a.image_channel_data_type != b.image_channel_data_type)
      fail(CL_IMAGE_FORMAT_MISMATCH);
    check_image_region(src, src_origin, region);
    check_image_region(dst, dst_origin, region);
    if (src == dst && regions_overlap(src_origin, dst_origin, region)) fail(CL_MEM_COPY_OVERLAP);
    check_wait_list(q, nwait, wait);
    return hand_back(
        rt::enqueue_copy_image(q, src, dst, src_origin, dst_origin, region, wait, nwait), event);
  });
}

cl_int CL_API_CALL clEnqueueCopyImageToBuffer(cl_command_queue q, cl_mem src, cl_mem dst,
                                              const size_t* src_origin, const size_t* region,
                                              size_t dst_offset, cl_uint nwait,
                                              const cl_event* wait, cl_event* event) {
  return copy_image_buffer(q, src, dst, src_origin, region, dst_offset, nwait, wait, event, false);
}

cl_int CL_API_CALL clEnqueueCopyBufferToImage(cl_command_queue q, cl_mem src, cl_mem dst,
                                              size_t src_offset, const size_t* dst_origin,
                                              const size_t* region, cl_uint nwait,
                                              const cl_event* wait, cl_event* event) {
  return copy_image_buffer(q, dst, src, dst_origin, region, src_offset, nwait, wait, event, true);
}

cl_int CL_API_CALL clEnqueueFillImage(cl_command_queue q, cl_mem image, const void* color,
                                      const size_t* origin, const size_t* region, cl_uint nwait,
                                      const cl_event* wait, cl_event* event) {
  return guarded([&] {
    check_image_command(q, image, nwait, wait);
    if (!color) fail(CL_INVALID_VALUE);
    check_image_region(image, origin, region);
    return hand_back(rt::enqueue_fill_image(q, image, rt::fill_texel(image->image->format, color),
                                            origin, region, wait, nwait),
                     event);
  });
}

void* CL_API_CALL clEnqueueMapImage(cl_command_queue q, cl_mem image, cl_bool blocking,
                                    cl_map_flags flags, const size_t* origin, const size_t* region,
                                    size_t* row_pitch, size_t* slice_pitch, cl_uint nwait,
                                    const cl_event* wait, cl_event* event, cl_int* errcode_ret) {
  return create<void*>(errcode_ret, [&]() -> void* {
    check_image_command(q, image, nwait, wait);
    check_image_region(image, origin, region);
    const cl_mem_object_type t = image->image->desc.image_type;
    const bool sliced = t == CL_MEM_OBJECT_IMAGE3D || t == CL_MEM_OBJECT_IMAGE1D_ARRAY ||
                        t == CL_MEM_OBJECT_IMAGE2D_ARRAY;
    if (!row_pitch || (sliced && !slice_pitch)) fail(CL_INVALID_VALUE);
    const cl_map_flags known = CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION;
    if ((flags & ~known) ||
        ((flags & CL_MAP_WRITE_INVALIDATE_REGION) && (flags & (CL_MAP_READ | CL_MAP_WRITE))))
      fail(CL_INVALID_VALUE);
    if ((flags & CL_MAP_READ) && (image->flags & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS)))
      fail(CL_INVALID_OPERATION);
    if ((flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) &&
        (image->flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS)))
      fail(CL_INVALID_OPERATION);
    const rt::MappedImage m =
        rt::enqueue_map_image(q, image, flags, origin, region, wait, nwait, blocking);
    *row_pitch = m.row_pitch;
    if (slice_pitch) *slice_pitch = sliced ? m.slice_pitch : 0;
    hand_back(m.mapped.event, event);
    return m.mapped.ptr;
  });
}

} // extern "C"
