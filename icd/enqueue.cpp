#include "enqueue.h"

namespace amcl::icd {

void check_wait_list(cl_command_queue q, cl_uint n, const cl_event* list) {
  if ((n == 0) != (list == nullptr)) throw ClError{CL_INVALID_EVENT_WAIT_LIST, ""};
  for (cl_uint i = 0; i < n; ++i) {
    if (!rt::valid(list[i])) throw ClError{CL_INVALID_EVENT_WAIT_LIST, ""};
    if (list[i]->context != q->context) throw ClError{CL_INVALID_CONTEXT, ""};
  }
  for (cl_uint i = 0; i < n; ++i)
    if (list[i]->status < 0) throw ClError{CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, ""};
}

void check_buffer_range(cl_mem m, size_t offset, size_t size) {
  if (!rt::valid(m) || m->image) throw ClError{CL_INVALID_MEM_OBJECT, ""};
  if (offset > m->size || size > m->size - offset) throw ClError{CL_INVALID_VALUE, ""};
}

void check_host_transfer(cl_command_queue q, cl_mem m, size_t offset, size_t size, const void* ptr,
                         cl_uint nwait, const cl_event* wait, cl_mem_flags forbidden) {
  require(q, CL_INVALID_COMMAND_QUEUE);
  check_buffer_range(m, offset, size);
  if (!ptr || size == 0) throw ClError{CL_INVALID_VALUE, ""};
  if (m->context != q->context) throw ClError{CL_INVALID_CONTEXT, ""};
  if (m->flags & forbidden) throw ClError{CL_INVALID_OPERATION, ""};
  check_wait_list(q, nwait, wait);
}

} // namespace amcl::icd
