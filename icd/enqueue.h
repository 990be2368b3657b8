// Helpers shared by the enqueue entry points: the checks of wait lists and buffer ranges, and
// handing a command's event to the caller. The commands themselves are runtime/'s
// (runtime/scheduler.h runs them when their dependencies allow).
#pragma once
#include "api_util.h"

namespace amcl::icd {

void check_wait_list(cl_command_queue q, cl_uint n, const cl_event* list);

void check_buffer_range(cl_mem m, size_t offset, size_t size);
// Checks shared by the host<->buffer transfers; `forbidden` are the host access flags that
// make the transfer invalid.
void check_host_transfer(cl_command_queue q, cl_mem m, size_t offset, size_t size, const void* ptr,
                         cl_uint nwait, const cl_event* wait, cl_mem_flags forbidden);

// Gives the caller the command's event if asked for, or drops the reference runtime/ returned.
inline cl_int hand_back(cl_event e, cl_event* event) {
  if (event)
    *event = e;
  else if (e) // a command enqueued without an event when none was asked for has none
    rt::release(e);
  return CL_SUCCESS;
}

} // namespace amcl::icd
