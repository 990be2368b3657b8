#include "queue.h"

#include "scheduler.h"

#include <memory>

namespace amcl::rt {

cl_command_queue create_queue(cl_context context, cl_device_id device,
                              cl_command_queue_properties properties,
                              std::vector<cl_queue_properties> property_list) {
  auto q = std::make_unique<_cl_command_queue>();
  q->properties = properties;
  q->property_list = std::move(property_list);
  q->context = context;
  q->device = device;
  retain(context);
  return q.release();
}

void set_queue_properties(cl_command_queue q, cl_command_queue_properties properties, bool enable) {
  finish(q);
  if (enable)
    q->properties |= properties;
  else
    q->properties &= ~properties;
}

} // namespace amcl::rt
