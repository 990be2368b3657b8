// The copy and fill engine: buffer reads, writes, copies, rectangular transfers, fills and
// maps as SDMA streams, host data passing through the queue's staging memory (staging.h). Each
// function enqueues one command behind `waits` and returns its event with one reference for
// the caller; the arguments were checked by the entry point.
#pragma once
#include "buffer_geometry.h"
#include "objects.h"

#include <cstddef>

namespace amcl::rt {

cl_event enqueue_write_buffer(cl_command_queue q, cl_mem m, size_t offset, size_t size,
                              const void* src, const cl_event* waits, cl_uint nwait, bool blocking);
cl_event enqueue_read_buffer(cl_command_queue q, cl_mem m, size_t offset, size_t size, void* dst,
                             const cl_event* waits, cl_uint nwait, bool blocking);
cl_event enqueue_copy_buffer(cl_command_queue q, cl_mem src, cl_mem dst, size_t src_offset,
                             size_t dst_offset, size_t size, const cl_event* waits, cl_uint nwait);

// clEnqueueReadBufferRect (to_device false) and clEnqueueWriteBufferRect: the rows of `region`
// between the buffer (`dev`) and host memory (`host`). Image transfers (image_transfer.h) are
// the same rows under their own command type.
cl_event enqueue_rect_transfer(cl_command_queue q, cl_mem m, const Rect& dev, const Rect& host,
                               const size_t* region, void* host_ptr, bool to_device,
                               const cl_event* waits, cl_uint nwait, bool blocking,
                               cl_command_type type = 0);
cl_event enqueue_copy_buffer_rect(cl_command_queue q, cl_mem src, cl_mem dst, const Rect& s,
                                  const Rect& d, const size_t* region, const cl_event* waits,
                                  cl_uint nwait, cl_command_type type = CL_COMMAND_COPY_BUFFER_RECT);

// Fills [offset, offset + size) with copies of a pattern of 1 to 128 bytes.
cl_event enqueue_fill_buffer(cl_command_queue q, cl_mem m, const void* pattern, size_t pattern_size,
                             size_t offset, size_t size, const cl_event* waits, cl_uint nwait);

// clEnqueueMapBuffer: where the host sees the region, and the command that fills it (none
// for CL_MAP_WRITE_INVALIDATE_REGION). A failed enqueue is CL_MAP_FAILURE.
struct Mapped {
  void* ptr;
  cl_event event;
};
Mapped enqueue_map_buffer(cl_command_queue q, cl_mem m, cl_map_flags flags, size_t offset,
                          size_t size, const cl_event* waits, cl_uint nwait, bool blocking);
// clEnqueueUnmapMemObject: writes a written mapping back. CL_INVALID_VALUE when `mapped` is
// not a live mapping of `m`.
cl_event enqueue_unmap(cl_command_queue q, cl_mem m, void* mapped, const cl_event* waits,
                       cl_uint nwait);

} // namespace amcl::rt
