#include "memory.h"

#include "staging.h"
#include "svm.h"

#include <memory>
#include <mutex>

namespace amcl::rt {

cl_mem create_buffer(cl_context context, cl_mem_flags flags, size_t size, void* host_ptr,
                     std::vector<cl_mem_properties> properties) {
  auto m = std::make_unique<_cl_mem>();
  m->context = context;
  retain(context); // released by ~_cl_mem, also when creation fails below
  m->flags = flags;
  m->size = size;
  m->host_ptr = (flags & CL_MEM_USE_HOST_PTR) ? host_ptr : nullptr;
  m->properties = std::move(properties);
  if (flags & CL_MEM_USE_HOST_PTR) {
    if (auto svm = svm_region(context, host_ptr, size)) {
      // The buffer is the SVM memory itself, already mapped on every card at its address.
      m->uses_svm_pointer = true;
      m->alloc = {reinterpret_cast<uint64_t>(host_ptr), size, static_cast<uint8_t*>(host_ptr),
                  am::MemoryKind::System, 0};
      return m.release();
    }
  }
  am::Device& dev = *context->devices[0]->am;
  try {
    m->alloc = alloc_in_context(context, size);
  } catch (const am::DeviceError&) {
    throw ClError{CL_MEM_OBJECT_ALLOCATION_FAILURE, ""};
  }
  if (flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR)) {
    // Through the device's own staging buffer: creating a buffer needs no queue.
    cl_device_id d = context->devices[0];
    std::lock_guard lock(d->staging_mutex);
    copy_to_device(dev, d->staging, m->alloc.va, static_cast<const uint8_t*>(host_ptr), size);
  }
  return m.release();
}

am::Allocation alloc_in_context(cl_context context, uint64_t size, Visibility visibility) {
  am::Device& dev = *context->devices[0]->am;
  const bool peers = context->devices.size() > 1;
  am::Allocation a = visibility == Visibility::CpuVisible || peers ? dev.alloc_vram(size)
                                                                   : dev.alloc_vram_gpu(size);
  size_t mapped = 1;
  try {
    // One VA space for every card: the context's other devices map the same address to this
    // VRAM (through its BAR), so any of them can run commands on it.
    for (; mapped < context->devices.size(); ++mapped) context->devices[mapped]->am->map_peer(a);
  } catch (...) {
    for (size_t i = 1; i < mapped; ++i) context->devices[i]->am->unmap_peer(a);
    dev.free(a);
    throw;
  }
  return a;
}

cl_mem create_sub_buffer(cl_mem parent, cl_mem_flags flags, size_t origin, size_t size) {
  const cl_mem_flags access = kDeviceAccessFlags, host = kHostAccessFlags;
  auto m = std::make_unique<_cl_mem>();
  m->context = parent->context;
  retain(m->context);
  m->parent = parent;
  retain(parent);
  m->offset = origin;
  m->size = size;
  m->flags = (flags & access ? flags & access : parent->flags & access) |
             (flags & host ? flags & host : parent->flags & host) |
             (parent->flags & kHostPointerFlags);
  if (parent->host_ptr) m->host_ptr = static_cast<uint8_t*>(parent->host_ptr) + origin;
  return m.release();
}

LiveAllocations live_allocations(cl_device_id d) {
  if (!d->am) return {}; // a card another process holds: nothing of ours on it
  return {d->am->live_allocations(), d->am->live_bytes()};
}

} // namespace amcl::rt
