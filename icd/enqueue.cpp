#include "enqueue.h"

#include <algorithm>
#include <cstring>

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

cl_int submit(cl_command_queue q, cl_command_type type, cl_uint nwait, const cl_event* wait,
              cl_event* event, std::function<void()> work, bool blocking) {
  cl_event e = rt::enqueue(q, type, wait, nwait, std::move(work), blocking);
  if (event) *event = e;
  else rt::release(e);
  return CL_SUCCESS;
}

void check_buffer_range(cl_mem m, size_t offset, size_t size) {
  if (!rt::valid(m)) throw ClError{CL_INVALID_MEM_OBJECT, ""};
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

am::Device& device_of(cl_command_queue q) { return *q->device->am; }

void ensure_staging(am::Device& dev, am::Allocation& staging) {
  if (!staging) staging = dev.alloc_system(kStagingBytes);
}

void ensure_staging(cl_command_queue q) { ensure_staging(device_of(q), q->staging); }

void copy_to_device(am::Device& dev, am::Allocation& staging, uint64_t dst_va, const uint8_t* src,
                    size_t size) {
  ensure_staging(dev, staging);
  for (size_t done = 0; done < size;) {
    size_t n = std::min<size_t>(size - done, kStagingBytes);
    std::memcpy(staging.cpu, src + done, n);
    am::SdmaBuilder b;
    b.copy_linear(dst_va + done, staging.va, n);
    run_sdma(dev, b);
    done += n;
  }
}

void copy_to_device(cl_command_queue q, uint64_t dst_va, const uint8_t* src, size_t size) {
  copy_to_device(device_of(q), q->staging, dst_va, src, size);
}

void copy_from_device(cl_command_queue q, uint8_t* dst, uint64_t src_va, size_t size) {
  ensure_staging(q);
  for (size_t done = 0; done < size;) {
    size_t n = std::min<size_t>(size - done, kStagingBytes);
    am::SdmaBuilder b;
    b.copy_linear(q->staging.va, src_va + done, n);
    run_sdma(q, b);
    std::memcpy(dst + done, q->staging.cpu, n);
    done += n;
  }
}

void run_sdma(am::Device& dev, const am::SdmaBuilder& packets) {
  dev.wait(am::Engine::Sdma, dev.submit_sdma(packets));
}

void run_sdma(cl_command_queue q, const am::SdmaBuilder& packets) { run_sdma(device_of(q), packets); }

} // namespace amcl::icd
