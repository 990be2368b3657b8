// Destruction of OpenCL objects: each frees its device memory and releases the objects it
// holds a reference on. Creators may destroy a half-built object when validation fails, so
// every destructor copes with the members that were never set.
#include "objects.h"

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <mutex>
#include <new>
#include <unordered_map>

using amcl::rt::release;

namespace amcl::rt {
namespace {

struct FreeBlock {
  const cl_icd_dispatch* dispatch; // as ObjectHeader lays them out
  uint32_t magic;
  uint32_t refs;
  FreeBlock* next;
};
static_assert(offsetof(FreeBlock, dispatch) == offsetof(ObjectHeader, dispatch) &&
              offsetof(FreeBlock, magic) == offsetof(ObjectHeader, magic) &&
              offsetof(FreeBlock, next) >= sizeof(ObjectHeader));

std::mutex& pool_mutex() {
  static auto* m = new std::mutex;
  return *m;
}
// Free blocks by object size (every CL object type has its own size or shares it harmlessly:
// the magic tells types apart).
std::unordered_map<size_t, FreeBlock*>& free_lists() {
  static auto* lists = new std::unordered_map<size_t, FreeBlock*>;
  return *lists;
}

} // namespace

void* ObjectHeader::operator new(size_t size) {
  size = std::max(size, sizeof(FreeBlock));
  {
    std::lock_guard lock(pool_mutex());
    FreeBlock*& head = free_lists()[size];
    if (FreeBlock* b = head) {
      head = b->next;
      return b;
    }
  }
  if (void* p = std::malloc(size)) return p;
  throw std::bad_alloc();
}

void ObjectHeader::operator delete(void* block, size_t size) {
  size = std::max(size, sizeof(FreeBlock));
  auto* b = static_cast<FreeBlock*>(block);
  b->dispatch = g_dispatch;
  b->magic = 0;
  b->refs = 0;
  std::lock_guard lock(pool_mutex());
  FreeBlock*& head = free_lists()[size];
  b->next = head;
  head = b;
}

} // namespace amcl::rt

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
