#include "image_transfer.h"

#include "hold.h"
#include "host_copy.h"
#include "image.h"
#include "scheduler.h"
#include "staging.h"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <utility>

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
  if (to_device) note_written(image);
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
  note_written(dst);
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
  if (to_image) note_written(image);
  return to_image ? enqueue_copy_buffer_rect(q, buffer, image, buf, img, b.r, waits, nwait,
                                             CL_COMMAND_COPY_BUFFER_TO_IMAGE)
                  : enqueue_copy_buffer_rect(q, image, buffer, img, buf, b.r, waits, nwait,
                                             CL_COMMAND_COPY_IMAGE_TO_BUFFER);
}

cl_event enqueue_fill_image(cl_command_queue q, cl_mem image, std::vector<uint8_t> texel,
                            const size_t* origin, const size_t* region, const cl_event* waits,
                            cl_uint nwait) {
  const Rect dev = image_device_rect(image, origin);
  const std::array<size_t, 3> r = {region[0], region[1], region[2]};
  note_written(image);
  return enqueue(
      q, CL_COMMAND_FILL_IMAGE, waits, nwait,
      [q, mem = Hold(image), texel = std::move(texel), dev, r] {
        // A row of texels in the staging memory, copied to each row of the region; a longer
        // row (a 1D buffer image) is copied in pieces of the staging memory's size.
        ensure_staging(q);
        const size_t es = texel.size(), staged = std::min<size_t>(r[0], kStagingBytes / es);
        for (size_t i = 0; i < staged; ++i) std::memcpy(q->staging.cpu + i * es, texel.data(), es);
        am::SdmaBuilder b;
        for (size_t z = 0; z < r[2]; ++z)
          for (size_t y = 0; y < r[1]; ++y)
            for (size_t x = 0; x < r[0]; x += staged)
              b.copy_linear(mem->va() + dev.offset(y, z) + x * es, q->staging.va,
                            std::min(staged, r[0] - x) * es);
        run_sdma(q, b);
      },
      false);
}

void* take_map_copy(cl_mem image, size_t& bytes) {
  {
    std::lock_guard lock(image->map_mutex);
    _cl_mem::Image& im = *image->image;
    if (im.spare_map && im.spare_map_bytes >= bytes) {
      bytes = im.spare_map_bytes;
      return im.spare_map.release();
    }
  }
  {
    cl_context c = image->context;
    std::lock_guard lock(c->spare_map_mutex);
    if (c->spare_map && c->spare_map_bytes >= bytes) {
      bytes = c->spare_map_bytes;
      return c->spare_map.release();
    }
  }
  return alloc_host_copy(bytes);
}

void retire_map_copy(cl_mem image) {
  _cl_mem::Image& im = *image->image;
  if (!im.spare_map || !image->context) return;
  cl_context c = image->context;
  std::lock_guard lock(c->spare_map_mutex);
  if (im.spare_map_bytes <= kContextMapCopyMax &&
      (!c->spare_map || c->spare_map_bytes < im.spare_map_bytes)) {
    c->spare_map = std::move(im.spare_map);
    c->spare_map_bytes = im.spare_map_bytes;
  }
}

void keep_map_copy(cl_mem image, void* ptr, size_t bytes) {
  std::lock_guard lock(image->map_mutex);
  _cl_mem::Image& im = *image->image;
  if (im.spare_map && im.spare_map_bytes >= bytes) return std::free(ptr);
  im.spare_map.reset(ptr);
  im.spare_map_bytes = bytes;
}

MappedImage enqueue_map_image(cl_command_queue q, cl_mem image, cl_map_flags flags,
                              const size_t* origin, const size_t* region, const cl_event* waits,
                              cl_uint nwait, bool blocking) {
  const _cl_mem::Image& im = *image->image;
  const bool layers_are_rows = im.desc.image_type == CL_MEM_OBJECT_IMAGE1D_ARRAY;
  _cl_mem::Mapping map{};
  map.flags = flags;
  map.image = true;
  std::copy(origin, origin + 3, map.origin);
  std::copy(region, region + 3, map.region);
  // An image on the application's memory maps onto it; others get a packed host copy.
  const bool on_host = image->host_ptr && !image->parent;
  if (on_host) {
    map.row_pitch = im.host_row_pitch;
    map.slice_pitch = im.host_slice_pitch;
    map.ptr = static_cast<uint8_t*>(image->host_ptr) + origin[0] * im.element_size +
              (layers_are_rows ? origin[1] * map.slice_pitch
                               : origin[1] * map.row_pitch + origin[2] * map.slice_pitch);
  } else {
    map.row_pitch = region[0] * im.element_size;
    map.slice_pitch = layers_are_rows ? map.row_pitch : map.row_pitch * region[1];
    const size_t count = layers_are_rows ? region[1] : region[2];
    map.size = std::max<size_t>(1, map.slice_pitch * count);
    map.ptr = take_map_copy(image, map.size);
    if (!map.ptr) throw ClError{CL_OUT_OF_HOST_MEMORY, ""};
    map.owned = true;
  }
  {
    std::lock_guard lock(image->map_mutex);
    image->maps.push_back(map);
    ++image->map_count;
  }
  const size_t bytes[3] = {region[0] * im.element_size, region[1], region[2]};
  const Rect host{{0, 0, 0}, layers_are_rows ? map.slice_pitch : map.row_pitch, map.slice_pitch};
  // Undefined texels (see _cl_mem::Image) need no copy either: the CTS maps every image it
  // makes for writing before anything has written it.
  const bool undefined = !im.texels_defined.load(std::memory_order_acquire);
  try {
    cl_event e =
        (flags & CL_MAP_WRITE_INVALIDATE_REGION) || undefined
            ? enqueue(q, CL_COMMAND_MAP_IMAGE, waits, nwait, nullptr, blocking)
            : enqueue_rect_transfer(q, image, image_device_rect(image, origin), host, bytes,
                                    map.ptr, false, waits, nwait, blocking, CL_COMMAND_MAP_IMAGE);
    return {{map.ptr, e}, map.row_pitch, map.slice_pitch};
  } catch (const ClError&) {
    throw ClError{CL_MAP_FAILURE, ""};
  }
}

} // namespace amcl::rt
