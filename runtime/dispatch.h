// Turns clEnqueueNDRangeKernel into a kernel dispatch: kernel arguments (explicit and code
// object v5 hidden ones), an HSA dispatch packet for kernels that read it, the user SGPRs the
// kernel descriptor asks for, and the PM4 packets on the compute ring.
#pragma once
#include "launch.h"
#include "objects.h"

#include <memory>
#include <vector>

namespace amcl::rt {

// At most this many dispatches of one queue are on the device at once: each has its own
// kernel-argument slot, reused only after the dispatch that had it has finished.
inline constexpr size_t kDispatchesInFlight = 64;
// A work-group's local memory (LDS) on RDNA3/RDNA4 (CL_DEVICE_LOCAL_MEM_SIZE).
inline constexpr uint64_t kLocalMemoryBytes = 64 * 1024;

// Checks the NDRange against the kernel as built for `device` and the device (throws ClError
// with the spec's code).
Launch prepare_launch(cl_kernel k, cl_device_id device, cl_uint dims, const size_t* offset, const size_t* global,
                      const size_t* local);
// Writes the launch's arguments into the queue's next kernel-argument slot and submits the
// dispatch without waiting; returns the compute timeline value that marks its completion. The
// caller makes sure fewer than kDispatchesInFlight dispatches of `q` are unfinished. Throws
// am::DeviceError or ClError.
// On a profiling queue the CP also writes GPU timestamps at the dispatch's start and end.
// `more_follow`: the caller submits more dispatches at once and hands them to the device with
// the last (am::Device::submit_compute).
_cl_command_queue::Submitted submit_launch(cl_command_queue q, const Launch& launch,
                                           bool more_follow = false);
// Submits, waits for completion and writes what the kernel printed.
void run_launch(cl_command_queue q, const Launch& launch);

// clEnqueueNDRangeKernel once its handles and wait list are checked: the NDRange checked
// (prepare_launch) and the kernel enqueued behind `waits`; returns the command's event with one
// reference for the caller. An empty NDRange only waits; a kernel that prints runs to
// completion before its event completes, so that its output is out by then. Without
// `want_event` a dispatch may go without an event (null is returned; enqueue_dispatch).
cl_event enqueue_ndrange(cl_command_queue q, cl_kernel k, cl_uint dims, const size_t* offset,
                         const size_t* global, const size_t* local, const cl_event* waits,
                         cl_uint nwait, bool want_event = true);

} // namespace amcl::rt
