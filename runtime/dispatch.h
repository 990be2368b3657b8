// Turns clEnqueueNDRangeKernel into a kernel dispatch: kernel arguments (explicit and code
// object v5 hidden ones), an HSA dispatch packet for kernels that read it, the user SGPRs the
// kernel descriptor asks for, and the PM4 packets on the compute ring.
#pragma once
#include "launch.h"
#include "objects.h"

#include <memory>
#include <vector>

namespace amcl::rt {

// At most this many dispatches of one queue are on the device at once, while their slots fit
// the queue's kernel-argument ring: each slot (dispatch packet, timestamps, arguments) is
// reused only after the dispatch that had it has finished. A window this deep lets one
// application thread keep the device fed without handing dispatches to the submission
// thread: with 64 fixed 8 KiB slots it filled within microseconds, and every wake-up and
// hand-off that followed cost a futex call (3x the context switches per empty dispatch).
// 512 dispatches of 60-100 dwords of packets stay within the compute ring (64 Ki dwords), so
// one queue's window alone never makes a submission wait for room there; queues of one card
// share the ring, and several busy ones may (the submission then waits for the engine).
inline constexpr size_t kDispatchesInFlight = 512;
inline constexpr uint64_t kKernargRingBytes = 1 << 20;
// The largest slot: 256 bytes of packet and timestamps, CL_DEVICE_MAX_PARAMETER_SIZE (4096)
// and the hidden arguments.
inline constexpr uint64_t kMaxKernargSlotBytes = 8192;
// Whether a dispatch taking `bytes` of the ring may go on the device now, behind the `batched`
// dispatches (`batched_bytes` in all) being submitted with it. Needs the queue's `sched` mutex,
// and no submission of the queue under way (the scheduler's `running`).
bool kernarg_room(cl_command_queue q, size_t batched, uint64_t batched_bytes, uint64_t bytes);
// A work-group's local memory (LDS) on RDNA3/RDNA4 (CL_DEVICE_LOCAL_MEM_SIZE).
inline constexpr uint64_t kLocalMemoryBytes = 64 * 1024;

// Checks the NDRange against the kernel as built for `device` and the device (throws ClError
// with the spec's code).
Launch prepare_launch(cl_kernel k, cl_device_id device, cl_uint dims, const size_t* offset, const size_t* global,
                      const size_t* local);
// Writes the launch's arguments into the queue's next kernel-argument slot and submits the
// dispatch without waiting; returns the compute timeline value that marks its completion. The
// caller makes sure the slot is free (kernarg_room). Throws
// am::DeviceError or ClError.
// On a profiling queue the CP also writes GPU timestamps at the dispatch's start and end.
// `more_follow`: the caller submits more dispatches at once and hands them to the device with
// the last (am::Device::submit_compute).
// `own_slot`: the launch is waited for before anything else of the queue runs (run_launch), and
// takes the slot kept for that instead of one in the ring.
_cl_command_queue::Submitted submit_launch(cl_command_queue q, const Launch& launch,
                                           bool more_follow = false, bool own_slot = false);
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
