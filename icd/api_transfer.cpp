// Buffer transfers: read, write, copy, fill, map/unmap, rectangular transfers and migration.
// The checks are here; runtime/transfer.h does the work.
#include "api_util.h"
#include "enqueue.h"
#include "runtime/buffer_geometry.h"
#include "runtime/scheduler.h"
#include "runtime/transfer.h"

using namespace amcl;
using namespace amcl::icd;

namespace {

bool valid_pattern_size(size_t s) {
  return s == 1 || s == 2 || s == 4 || s == 8 || s == 16 || s == 32 || s == 64 || s == 128;
}

// clEnqueueReadBufferRect and clEnqueueWriteBufferRect: the same checks and transfer, in
// opposite directions.
cl_int enqueue_rect(cl_command_queue q, cl_mem m, cl_bool blocking, const size_t* buffer_origin,
                    const size_t* host_origin, const size_t* region, size_t buffer_row_pitch,
                    size_t buffer_slice_pitch, size_t host_row_pitch, size_t host_slice_pitch,
                    void* p, cl_uint nwait, const cl_event* wait, cl_event* event, bool to_device) {
  return guarded([&] {
    rt::Rect dev = rt::make_rect(buffer_origin, region, buffer_row_pitch, buffer_slice_pitch);
    rt::Rect host = rt::make_rect(host_origin, region, host_row_pitch, host_slice_pitch);
    check_host_transfer(q, m, 0, rt::rect_end(dev, region), p, nwait, wait,
                        (to_device ? CL_MEM_HOST_READ_ONLY : CL_MEM_HOST_WRITE_ONLY) |
                            CL_MEM_HOST_NO_ACCESS);
    return hand_back(
        rt::enqueue_rect_transfer(q, m, dev, host, region, p, to_device, wait, nwait, blocking),
        event);
  });
}

} // namespace

extern "C" {

cl_int CL_API_CALL clEnqueueWriteBuffer(cl_command_queue q, cl_mem m, cl_bool blocking,
                                        size_t offset, size_t size, const void* ptr, cl_uint nwait,
                                        const cl_event* wait, cl_event* event) {
  return guarded([&] {
    check_host_transfer(q, m, offset, size, ptr, nwait, wait,
                        CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS);
    return hand_back(rt::enqueue_write_buffer(q, m, offset, size, ptr, wait, nwait, blocking),
                     event);
  });
}

cl_int CL_API_CALL clEnqueueReadBuffer(cl_command_queue q, cl_mem m, cl_bool blocking,
                                       size_t offset, size_t size, void* ptr, cl_uint nwait,
                                       const cl_event* wait, cl_event* event) {
  return guarded([&] {
    check_host_transfer(q, m, offset, size, ptr, nwait, wait,
                        CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS);
    return hand_back(rt::enqueue_read_buffer(q, m, offset, size, ptr, wait, nwait, blocking),
                     event);
  });
}

cl_int CL_API_CALL clEnqueueCopyBuffer(cl_command_queue q, cl_mem src, cl_mem dst, size_t src_off,
                                       size_t dst_off, size_t size, cl_uint nwait,
                                       const cl_event* wait, cl_event* event) {
  return guarded([&] {
    require(q, CL_INVALID_COMMAND_QUEUE);
    check_buffer_range(src, src_off, size);
    check_buffer_range(dst, dst_off, size);
    if (size == 0) throw ClError{CL_INVALID_VALUE, ""};
    if (rt::copy_overlaps(src, src_off, dst, dst_off, size)) throw ClError{CL_MEM_COPY_OVERLAP, ""};
    check_wait_list(q, nwait, wait);
    return hand_back(rt::enqueue_copy_buffer(q, src, dst, src_off, dst_off, size, wait, nwait),
                     event);
  });
}

cl_int CL_API_CALL clEnqueueFillBuffer(cl_command_queue q, cl_mem m, const void* pattern,
                                       size_t pattern_size, size_t offset, size_t size,
                                       cl_uint nwait, const cl_event* wait, cl_event* event) {
  return guarded([&] {
    require(q, CL_INVALID_COMMAND_QUEUE);
    check_buffer_range(m, offset, size);
    if (m->context != q->context) throw ClError{CL_INVALID_CONTEXT, ""};
    if (!pattern || !valid_pattern_size(pattern_size) || offset % pattern_size ||
        size % pattern_size)
      throw ClError{CL_INVALID_VALUE, ""};
    check_wait_list(q, nwait, wait);
    return hand_back(
        rt::enqueue_fill_buffer(q, m, pattern, pattern_size, offset, size, wait, nwait), event);
  });
}

void* CL_API_CALL clEnqueueMapBuffer(cl_command_queue q, cl_mem m, cl_bool blocking,
                                     cl_map_flags flags, size_t offset, size_t size, cl_uint nwait,
                                     const cl_event* wait, cl_event* event, cl_int* errcode_ret) {
  return create<void*>(errcode_ret, [&]() -> void* {
    require(q, CL_INVALID_COMMAND_QUEUE);
    check_buffer_range(m, offset, size);
    if (size == 0) throw ClError{CL_INVALID_VALUE, ""};
    if (m->context != q->context) throw ClError{CL_INVALID_CONTEXT, ""};
    const cl_map_flags known = CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION;
    if ((flags & ~known) ||
        ((flags & CL_MAP_WRITE_INVALIDATE_REGION) && (flags & (CL_MAP_READ | CL_MAP_WRITE))))
      throw ClError{CL_INVALID_VALUE, ""};
    if ((flags & CL_MAP_READ) && (m->flags & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS)))
      throw ClError{CL_INVALID_OPERATION, ""};
    if ((flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) &&
        (m->flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS)))
      throw ClError{CL_INVALID_OPERATION, ""};
    check_wait_list(q, nwait, wait);
    rt::Mapped mapped = rt::enqueue_map_buffer(q, m, flags, offset, size, wait, nwait, blocking);
    hand_back(mapped.event, event);
    return mapped.ptr;
  });
}

cl_int CL_API_CALL clEnqueueUnmapMemObject(cl_command_queue q, cl_mem m, void* mapped,
                                           cl_uint nwait, const cl_event* wait, cl_event* event) {
  return guarded([&] {
    require(q, CL_INVALID_COMMAND_QUEUE);
    require(m, CL_INVALID_MEM_OBJECT);
    if (m->context != q->context) throw ClError{CL_INVALID_CONTEXT, ""};
    check_wait_list(q, nwait, wait);
    return hand_back(rt::enqueue_unmap(q, m, mapped, wait, nwait), event);
  });
}

cl_int CL_API_CALL clEnqueueReadBufferRect(cl_command_queue q, cl_mem m, cl_bool blocking,
                                           const size_t* buffer_origin, const size_t* host_origin,
                                           const size_t* region, size_t buffer_row_pitch,
                                           size_t buffer_slice_pitch, size_t host_row_pitch,
                                           size_t host_slice_pitch, void* ptr, cl_uint nwait,
                                           const cl_event* wait, cl_event* event) {
  return enqueue_rect(q, m, blocking, buffer_origin, host_origin, region, buffer_row_pitch,
                      buffer_slice_pitch, host_row_pitch, host_slice_pitch, ptr, nwait, wait, event,
                      false);
}

cl_int CL_API_CALL clEnqueueWriteBufferRect(cl_command_queue q, cl_mem m, cl_bool blocking,
                                            const size_t* buffer_origin, const size_t* host_origin,
                                            const size_t* region, size_t buffer_row_pitch,
                                            size_t buffer_slice_pitch, size_t host_row_pitch,
                                            size_t host_slice_pitch, const void* ptr, cl_uint nwait,
                                            const cl_event* wait, cl_event* event) {
  // Only read from: the transfer copies host rows out when `to_device`.
  return enqueue_rect(q, m, blocking, buffer_origin, host_origin, region, buffer_row_pitch,
                      buffer_slice_pitch, host_row_pitch, host_slice_pitch, const_cast<void*>(ptr),
                      nwait, wait, event, true);
}

cl_int CL_API_CALL clEnqueueCopyBufferRect(cl_command_queue q, cl_mem src, cl_mem dst,
                                           const size_t* src_origin, const size_t* dst_origin,
                                           const size_t* region, size_t src_row_pitch,
                                           size_t src_slice_pitch, size_t dst_row_pitch,
                                           size_t dst_slice_pitch, cl_uint nwait,
                                           const cl_event* wait, cl_event* event) {
  return guarded([&] {
    require(q, CL_INVALID_COMMAND_QUEUE);
    rt::Rect s = rt::make_rect(src_origin, region, src_row_pitch, src_slice_pitch);
    rt::Rect d = rt::make_rect(dst_origin, region, dst_row_pitch, dst_slice_pitch);
    check_buffer_range(src, 0, rt::rect_end(s, region));
    check_buffer_range(dst, 0, rt::rect_end(d, region));
    if (src->context != q->context || dst->context != q->context)
      throw ClError{CL_INVALID_CONTEXT, ""};
    if (src == dst && (src_row_pitch != dst_row_pitch || src_slice_pitch != dst_slice_pitch))
      throw ClError{CL_INVALID_VALUE, ""};
    if (rt::rect_copy_overlaps(src, s, dst, d, region)) throw ClError{CL_MEM_COPY_OVERLAP, ""};
    check_wait_list(q, nwait, wait);
    return hand_back(rt::enqueue_copy_buffer_rect(q, src, dst, s, d, region, wait, nwait), event);
  });
}

cl_int CL_API_CALL clEnqueueMigrateMemObjects(cl_command_queue q, cl_uint n, const cl_mem* objs,
                                              cl_mem_migration_flags flags, cl_uint nwait,
                                              const cl_event* wait, cl_event* event) {
  return guarded([&] {
    require(q, CL_INVALID_COMMAND_QUEUE);
    if (n == 0 || !objs) throw ClError{CL_INVALID_VALUE, ""};
    if (flags & ~cl_mem_migration_flags(CL_MIGRATE_MEM_OBJECT_HOST |
                                        CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED))
      throw ClError{CL_INVALID_VALUE, ""};
    for (cl_uint i = 0; i < n; ++i) {
      require(objs[i], CL_INVALID_MEM_OBJECT);
      if (objs[i]->context != q->context) throw ClError{CL_INVALID_CONTEXT, ""};
    }
    check_wait_list(q, nwait, wait);
    // Buffers live on the context's one device already: nothing moves.
    return hand_back(rt::enqueue(q, CL_COMMAND_MIGRATE_MEM_OBJECTS, wait, nwait, nullptr, false),
                     event);
  });
}

} // extern "C"
