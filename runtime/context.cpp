#include "context.h"

#include <memory>

namespace amcl::rt {

cl_context create_context(std::vector<cl_device_id> devices,
                          std::vector<cl_context_properties> properties, ContextNotify notify,
                          void* notify_data) {
  for (cl_device_id d : devices)
    if (!d->am) throw ClError{CL_DEVICE_NOT_AVAILABLE, d->held_by};
  auto ctx = std::make_unique<_cl_context>();
  ctx->devices = std::move(devices);
  ctx->properties = std::move(properties);
  ctx->notify = notify;
  ctx->notify_data = notify_data;
  return ctx.release();
}

} // namespace amcl::rt
