// How enqueued commands execute. Commands run in submission order: each becomes SDMA or PM4
// packets on the device's rings and completes (its signal reached) before the enqueue returns,
// which satisfies in-order semantics; events therefore start out complete, with host
// timestamps around the GPU work.
#pragma once
#include "api_util.h"

#include <cstdio>
#include <string>

namespace amcl::icd {

inline constexpr uint64_t kStagingBytes = 1 << 20;

void check_wait_list(cl_command_queue q, cl_uint n, const cl_event* list);
cl_event make_event(cl_command_queue q, cl_command_type type, uint64_t queued,
                    cl_int status = CL_COMPLETE);
void finish_event(cl_command_queue q, cl_command_type type, uint64_t queued, cl_event* event);
void report_device_error(cl_command_queue q, const am::DeviceError& e);

// Runs a command on the device. A device-side failure (page fault, shader exception, hang)
// does not fail the enqueue: it becomes the event's error status and is reported through the
// context's notify callback, and the queue stays usable. Returns that status.
template <class F>
cl_int execute(cl_command_queue q, cl_command_type type, cl_event* event, F&& body) {
  const uint64_t queued = rt::host_time_ns();
  cl_int status = CL_COMPLETE;
  try {
    std::lock_guard lock(q->mutex);
    body();
  } catch (const am::DeviceError& e) {
    status = CL_OUT_OF_RESOURCES;
    report_device_error(q, e);
  }
  if (event) *event = make_event(q, type, queued, status);
  return status;
}

void check_buffer_range(cl_mem m, size_t offset, size_t size);
// Checks shared by the host<->buffer transfers; `forbidden` are the host access flags that
// make the transfer invalid.
void check_host_transfer(cl_command_queue q, cl_mem m, size_t offset, size_t size, const void* ptr,
                         cl_uint nwait, const cl_event* wait, cl_mem_flags forbidden);

am::Device& device_of(cl_command_queue q);
// Staged copies through the queue's pinned staging buffer (q->mutex held).
void copy_to_device(cl_command_queue q, uint64_t dst_va, const uint8_t* src, size_t size);
void copy_from_device(cl_command_queue q, uint8_t* dst, uint64_t src_va, size_t size);
void ensure_staging(cl_command_queue q);
// Submits SDMA packets and waits for them.
void run_sdma(cl_command_queue q, const am::SdmaBuilder& packets);

} // namespace amcl::icd
