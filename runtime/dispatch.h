// Turns clEnqueueNDRangeKernel into a kernel dispatch: kernel arguments (explicit and code
// object v5 hidden ones), an HSA dispatch packet for kernels that read it, the user SGPRs the
// kernel descriptor asks for, and the PM4 packets on the compute ring.
#pragma once
#include "objects.h"

#include <memory>
#include <vector>

namespace amcl::rt {

// At most this many dispatches of one queue are on the device at once: each has its own
// kernel-argument slot, reused only after the dispatch that had it has finished.
inline constexpr size_t kDispatchesInFlight = 64;
// A work-group's local memory (LDS) on RDNA3/RDNA4 (CL_DEVICE_LOCAL_MEM_SIZE).
inline constexpr uint64_t kLocalMemoryBytes = 64 * 1024;

// A kernel's arguments as they were at enqueue, with references on the buffers they name. One
// snapshot serves every launch enqueued while the arguments stay unchanged (clSetKernelArg
// starts a new one), so enqueueing the same kernel again copies nothing.
struct ArgSnapshot {
  std::vector<std::vector<uint8_t>> values;
  std::vector<size_t> local_sizes;
  std::vector<cl_mem> buffers;
  bool prints = false; // the kernel calls printf: its output is written once it has finished
  ArgSnapshot() = default;
  ArgSnapshot(const ArgSnapshot&) = delete;
  ArgSnapshot& operator=(const ArgSnapshot&) = delete;
  ~ArgSnapshot();
};

// A validated NDRange with a snapshot of the kernel's arguments; it holds a reference on the
// kernel (and, through the snapshot, on the buffers) until it is destroyed.
struct Launch {
  cl_kernel kernel = nullptr;
  cl_uint dims = 1;
  bool empty = false; // a zero-sized NDRange: nothing runs, the command completes
  size_t global[3] = {1, 1, 1}, local[3] = {1, 1, 1}, offset[3] = {0, 0, 0};
  std::shared_ptr<const ArgSnapshot> args;
  bool prints() const { return args && args->prints; }
  Launch() = default;
  Launch(const Launch& other);
  Launch(Launch&& other) noexcept;
  Launch& operator=(const Launch&) = delete;
  ~Launch();
};

// Checks the NDRange against the kernel as built for `device` and the device (throws ClError
// with the spec's code).
Launch prepare_launch(cl_kernel k, cl_device_id device, cl_uint dims, const size_t* offset, const size_t* global,
                      const size_t* local);
// Writes the launch's arguments into the queue's next kernel-argument slot and submits the
// dispatch without waiting; returns the compute timeline value that marks its completion. The
// caller makes sure fewer than kDispatchesInFlight dispatches of `q` are unfinished. Throws
// am::DeviceError or ClError.
// On a profiling queue the CP also writes GPU timestamps at the dispatch's start and end.
_cl_command_queue::Submitted submit_launch(cl_command_queue q, const Launch& launch);
// Submits, waits for completion and writes what the kernel printed.
void run_launch(cl_command_queue q, const Launch& launch);

} // namespace amcl::rt
