// Turns clEnqueueNDRangeKernel into a kernel dispatch: kernel arguments (explicit and code
// object v5 hidden ones), an HSA dispatch packet for kernels that read it, the user SGPRs the
// kernel descriptor asks for, and the PM4 packets on the compute ring.
#pragma once
#include "objects.h"

#include <vector>

namespace amcl::rt {

// At most this many dispatches of one queue are on the device at once: each has its own
// kernel-argument slot, reused only after the dispatch that had it has finished.
inline constexpr size_t kDispatchesInFlight = 64;

// A validated NDRange with a snapshot of the kernel's arguments; it holds references on the
// kernel and on the buffers the arguments name until it is destroyed.
struct Launch {
  cl_kernel kernel = nullptr;
  cl_uint dims = 1;
  size_t global[3] = {1, 1, 1}, local[3] = {1, 1, 1}, offset[3] = {0, 0, 0};
  std::vector<std::vector<uint8_t>> values;
  std::vector<size_t> local_sizes;
  std::vector<cl_mem> buffers;
  bool prints = false; // the kernel calls printf: its output is written once it has finished
  Launch() = default;
  Launch(const Launch& other);
  // Moving hands over the kernel and buffer references (the enqueue path moves the snapshot
  // into its command: no second round of retains and vector copies).
  Launch(Launch&& other) noexcept;
  Launch& operator=(const Launch&) = delete;
  ~Launch();
};

// Checks the NDRange against the kernel and device (throws ClError with the spec's code).
Launch prepare_launch(cl_kernel k, cl_uint dims, const size_t* offset, const size_t* global,
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
