// Destruction of OpenCL objects: each frees its device memory and releases the objects it
// holds a reference on.
#include "objects.h"

using amcl::rt::release;

_cl_command_queue::~_cl_command_queue() {
  device->am->free(kernargs);
  device->am->free(staging);
  release(context);
}

_cl_mem::~_cl_mem() {
  // Destructor callbacks run in reverse registration order, before the memory is freed.
  for (auto it = destructors.rbegin(); it != destructors.rend(); ++it) it->fn(this, it->data);
  if (parent) release(parent);
  else context->devices[0]->am->free(alloc);
  release(context);
}

_cl_program::~_cl_program() {
  if (image) context->devices[0]->am->free(image);
  release(context);
}

_cl_kernel::~_cl_kernel() {
  --program->kernels_attached;
  release(program);
}

_cl_event::~_cl_event() {
  if (queue) release(queue);
}
