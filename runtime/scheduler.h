// Command scheduling (OpenCL 3.0, "Execution Model" and "Event Objects"). Each queue keeps its
// enqueued commands in order; a command runs once every event it waits for has completed and
// the commands before it on an in-order queue are done. On an out-of-order queue a command
// needs only its wait list (and the barriers enqueued before it); a marker or barrier without
// a wait list waits for everything enqueued before it. A non-blocking enqueue only records
// its command: the runtime's submission thread runs it, and so does any thread that blocks
// waiting for completion (it would otherwise sit idle). Kernel dispatches do not wait on the
// device: up to kDispatchesInFlight of a queue are submitted back to back and retired in order
// as the compute timeline passes them; host-side work on an in-order queue starts once the
// dispatches before it are retired. Device failures become the event's (negative) status.
#pragma once
#include "objects.h"

#include <functional>
#include <vector>

namespace amcl::rt {

// Enqueues `work` (device work, may throw am::DeviceError) behind `waits`. Returns the
// command's event with one reference for the caller (who passes it on or releases it).
// `blocking` waits for completion and throws ClError{CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST}
// or the failure status when the command did not complete.
cl_event enqueue(cl_command_queue q, cl_command_type type, const cl_event* waits, cl_uint nwait,
                 std::function<void()> work, bool blocking);

// Enqueues a kernel dispatch: submit_launch puts it on the device without waiting and says
// what completes it; the event completes when the device gets there (profiling times from the
// GPU's timestamps when the queue profiles).
// Several dispatches of a queue are on the device at once, so the CP runs through them without
// a round trip to the host each time. Without `want_event` (the application passed no event)
// the command has none and null is returned: an event costs an allocation from the object
// arena (under its lock) and three status changes under the scheduler's.
cl_event enqueue_dispatch(cl_command_queue q, cl_command_type type, const cl_event* waits,
                          cl_uint nwait, Launch&& launch, bool want_event = true);

// Makes sure the submission thread sees what is enqueued (clFlush).
void flush(cl_command_queue q);
// Blocks until every command enqueued so far has finished (clFinish).
void finish(cl_command_queue q);
// Blocks until the events have completed; returns CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST
// if any of them failed (clWaitForEvents).
cl_int wait_for(const cl_event* events, cl_uint n);

// User events and callbacks.
cl_event create_user_event(cl_context context);
void set_status(cl_event e, cl_int status); // completes (or fails) the event, runs dependants
void add_callback(cl_event e, cl_int on, void(CL_CALLBACK* fn)(cl_event, cl_int, void*), void* data);

} // namespace amcl::rt
