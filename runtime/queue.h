// Command queues: creation and the properties that decide how their commands run
// (runtime/scheduler.h runs them).
#pragma once
#include "objects.h"

#include <vector>

namespace amcl::rt {

// A queue of `context` on `device` (one of the context's) with checked properties, and the
// property list as CL_QUEUE_PROPERTIES_ARRAY reports it.
cl_command_queue create_queue(cl_context context, cl_device_id device,
                              cl_command_queue_properties properties,
                              std::vector<cl_queue_properties> property_list);

// clSetCommandQueueProperty: the queue is finished first, so commands already enqueued keep
// the properties they were enqueued with.
void set_queue_properties(cl_command_queue q, cl_command_queue_properties properties, bool enable);

} // namespace amcl::rt
