// Destruction of OpenCL objects: each frees its device memory and releases the objects it
// holds a reference on. Creators may destroy a half-built object when validation fails, so
// every destructor copes with the members that were never set.
#include "objects.h"

#include <cstdlib>

using amcl::rt::release;

_cl_command_queue::~_cl_command_queue() {
  if (device) {
    device->am->free(kernargs);
    device->am->free(staging);
    device->am->free(scratch);
    device->am->free(printf_buffer);
  }
  if (context) release(context);
}

_cl_context::~_cl_context() {
  // Destructor callbacks run in reverse registration order once the context is gone for good.
  for (auto it = destructors.rbegin(); it != destructors.rend(); ++it) it->fn(this, it->data);
}

_cl_mem::~_cl_mem() {
  // Destructor callbacks run in reverse registration order, before the memory is freed.
  for (auto it = destructors.rbegin(); it != destructors.rend(); ++it) it->fn(this, it->data);
  for (const Mapping& m : maps)
    if (m.owned) std::free(m.ptr); // mapped but never unmapped: the memory goes with the object
  if (parent) release(parent);
  else if (context) context->devices[0]->am->free(alloc);
  if (context) release(context);
}

_cl_program::~_cl_program() {
  if (context) {
    context->devices[0]->am->free(image);
    release(context);
  }
}

_cl_kernel::~_cl_kernel() {
  if (!program) return;
  --program->kernels_attached;
  release(program);
}

_cl_event::~_cl_event() {
  if (queue) release(queue);
  if (owns_context) release(context);
}
