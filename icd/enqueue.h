// Helpers shared by the enqueue entry points. Commands go to the scheduler
// (runtime/scheduler.h), which runs them when their dependencies allow; the device work of
// each becomes SDMA or PM4 packets and completes before the next command of its queue starts.
#pragma once
#include "api_util.h"
#include "runtime/scheduler.h"

#include <functional>

#include <cstdio>
#include <string>

namespace amcl::icd {

inline constexpr uint64_t kStagingBytes = 4 << 20; // two halves, see copy_to_device

void check_wait_list(cl_command_queue q, cl_uint n, const cl_event* list);

// Hands a command to the scheduler (runtime/scheduler.h) and gives the caller its event if
// asked for. Blocking commands wait; their failure is returned (CL_EXEC_STATUS_ERROR...).
cl_int submit(cl_command_queue q, cl_command_type type, cl_uint nwait, const cl_event* wait,
              cl_event* event, std::function<void()> work, bool blocking);

// A reference on a CL object for as long as a command needs it.
template <class T> class Hold {
public:
  explicit Hold(T* h) : h_(h) { rt::retain(h_); }
  Hold(const Hold& o) : h_(o.h_) { rt::retain(h_); }
  Hold& operator=(const Hold&) = delete;
  ~Hold() { rt::release(h_); }
  T* operator->() const { return h_; }
  T* get() const { return h_; }

private:
  T* h_;
};

void check_buffer_range(cl_mem m, size_t offset, size_t size);
// Checks shared by the host<->buffer transfers; `forbidden` are the host access flags that
// make the transfer invalid.
void check_host_transfer(cl_command_queue q, cl_mem m, size_t offset, size_t size, const void* ptr,
                         cl_uint nwait, const cl_event* wait, cl_mem_flags forbidden);

am::Device& device_of(cl_command_queue q);
// Staged copies through a pinned staging buffer the caller holds exclusively: the queue's
// (q->mutex held) or the device's (device->staging_mutex held, for work outside any queue).
void copy_to_device(am::Device& dev, am::Allocation& staging, uint64_t dst_va, const uint8_t* src,
                    size_t size);
void copy_to_device(cl_command_queue q, uint64_t dst_va, const uint8_t* src, size_t size);
void copy_from_device(cl_command_queue q, uint8_t* dst, uint64_t src_va, size_t size);
void ensure_staging(cl_command_queue q);
// Submits SDMA packets and waits for them.
void run_sdma(am::Device& dev, const am::SdmaBuilder& packets);
void run_sdma(cl_command_queue q, const am::SdmaBuilder& packets);

} // namespace amcl::icd
