// Destruction of OpenCL objects: each frees its device memory and releases the objects it
// holds a reference on. Creators may destroy a half-built object when validation fails, so
// every destructor copes with the members that were never set.
#include "objects.h"

#include "image_transfer.h"
#include "svm.h"

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <mutex>
#include <new>
#include <unordered_map>

#include <sys/mman.h>

#if defined(__SANITIZE_ADDRESS__)
#define AMCL_LEAK_CHECKER 1
#include <sanitizer/lsan_interface.h>
#else
#define AMCL_LEAK_CHECKER 0
#endif

using amcl::rt::release;

namespace amcl::rt {
namespace {

struct FreeBlock {
  const cl_icd_dispatch* dispatch; // as ObjectHeader lays them out
  std::atomic<uint32_t> magic;
  uint32_t refs;
  FreeBlock* next;
};
static_assert(offsetof(FreeBlock, dispatch) == offsetof(ObjectHeader, dispatch) &&
              offsetof(FreeBlock, magic) == offsetof(ObjectHeader, magic) &&
              offsetof(FreeBlock, next) >= sizeof(ObjectHeader));

// All CL objects are carved from one reserved arena (address space only until touched), so
// that "is this a handle amcl made" is a range check: a handle the loader did not vet (a
// cl_mem inside clSetKernelArg's value, an event in a wait list) can be garbage, and must be
// rejected before anything reads through it. The reservation is inaccessible until objects
// need it (committed in kCommitBytes steps), so tools that scan all readable memory (valgrind's
// leak checker) see megabytes, not 16 GiB.
constexpr size_t kArenaBytes = size_t(16) << 30;
constexpr size_t kCommitBytes = size_t(1) << 20;
struct Arena {
  uint8_t* base = nullptr;
  size_t committed = 0;
  std::atomic<size_t> used{0};
  std::mutex mutex;
  // Free blocks by size: an array slot per 16-byte size class up to kSmallBytes (every object
  // type fits: found without hashing on each event's allocation), a map beyond.
  static constexpr size_t kSmallBytes = 2048;
  FreeBlock* small_free[kSmallBytes / 16 + 1] = {};
  std::unordered_map<size_t, FreeBlock*> free_lists;
  FreeBlock*& free_list(size_t size) {
    return size <= kSmallBytes ? small_free[size / 16] : free_lists[size];
  }
  Arena() {
    void* p = mmap(nullptr, kArenaBytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p != MAP_FAILED) base = static_cast<uint8_t*>(p);
  }
};
Arena& arena() {
  static auto* a = new Arena; // never destroyed: objects may outlive static destruction
  return *a;
}

} // namespace

bool is_object_memory(const void* p) {
  const Arena& a = arena();
  const auto addr = reinterpret_cast<uintptr_t>(p), base = reinterpret_cast<uintptr_t>(a.base);
  return a.base && addr >= base && addr - base + sizeof(ObjectHeader) <= a.used.load(std::memory_order_acquire) &&
         addr % alignof(std::max_align_t) == 0;
}

void* ObjectHeader::operator new(size_t size) {
  size = (std::max(size, sizeof(FreeBlock)) + 15) & ~size_t(15);
  Arena& a = arena();
  std::lock_guard lock(a.mutex);
  FreeBlock*& head = a.free_list(size);
  if (FreeBlock* b = head) {
    head = b->next;
    return b;
  }
  const size_t used = a.used.load(std::memory_order_relaxed);
  if (!a.base || size > kArenaBytes - used) throw std::bad_alloc();
  if (used + size > a.committed) {
    const size_t grow = (used + size - a.committed + kCommitBytes - 1) / kCommitBytes * kCommitBytes;
    if (mprotect(a.base + a.committed, grow, PROT_READ | PROT_WRITE) != 0) throw std::bad_alloc();
    // Fault the new pages in now, in one system call, instead of one page fault each on first
    // touch: those land on enqueues (a burst of commands outgrowing the events so far), and
    // a page fault costs microseconds on a paravirtualised machine. Best effort: kernels
    // before 5.14 refuse the advice and the pages fault in as before.
    (void)madvise(a.base + a.committed, grow, MADV_POPULATE_WRITE);
    a.committed += grow;
  }
  a.used.store(used + size, std::memory_order_release);
#if AMCL_LEAK_CHECKER
  // Objects point at heap memory; the leak checker must scan the arena to see those pointers.
  constexpr size_t kChunk = 1 << 20;
  for (size_t c = (used + kChunk - 1) / kChunk * kChunk; c < used + size; c += kChunk)
    __lsan_register_root_region(a.base + c, kChunk);
#endif
  return a.base + used;
}

void ObjectHeader::operator delete(void* block, size_t size) {
  size = (std::max(size, sizeof(FreeBlock)) + 15) & ~size_t(15);
  auto* b = static_cast<FreeBlock*>(block);
  b->dispatch = g_dispatch;
  b->magic.store(0, std::memory_order_relaxed);
  b->refs = 0;
  Arena& a = arena();
  std::lock_guard lock(a.mutex);
  FreeBlock*& head = a.free_list(size);
  b->next = head;
  head = b;
}

} // namespace amcl::rt

_cl_command_queue::~_cl_command_queue() {
  if (device) {
    for (const auto& f : deferred_frees) device->am->free(f.first); // the queue is idle by now
    device->am->free(kernargs);
    device->am->free(staging);
    device->am->free(scratch);
    device->am->free(printf_buffer);
  }
  if (context) release(context);
}

_cl_context::~_cl_context() {
  amcl::rt::svm_release_context(this); // SVM the application did not free
  // Destructor callbacks run in reverse registration order once the context is gone for good.
  for (auto it = destructors.rbegin(); it != destructors.rend(); ++it) it->fn(this, it->data);
}

namespace {

// Frees memory of the context's first device that the others map (buffers, descriptors): the
// other devices reach it through their page tables, so they unmap it first.
void free_in_context(cl_context context, const am::Allocation& alloc) {
  if (!context || !alloc) return;
  for (size_t i = 1; i < context->devices.size(); ++i) context->devices[i]->am->unmap_peer(alloc);
  context->devices[0]->am->free(alloc);
}

} // namespace

_cl_mem::~_cl_mem() {
  // Destructor callbacks run in reverse registration order, before the memory is freed.
  for (auto it = destructors.rbegin(); it != destructors.rend(); ++it) it->fn(this, it->data);
  for (const Mapping& m : maps)
    if (m.owned) std::free(m.ptr); // mapped but never unmapped: the memory goes with the object
  if (image) {
    amcl::rt::retire_map_copy(this); // its map's host copy, for the context's next image map
    free_in_context(context, image->descriptors);
  }
  if (parent)
    release(parent);
  else if (!uses_svm_pointer)
    free_in_context(context, alloc);
  if (context) release(context);
}

_cl_sampler::~_cl_sampler() {
  free_in_context(context, descriptors);
  if (context) release(context);
}

_cl_program::~_cl_program() {
  builds.clear(); // their executables go (LoadedCode frees the images) before the context
  if (context) release(context);
}

_cl_kernel::~_cl_kernel() {
  loaded.clear();
  if (!program) return;
  // A kernel made and dropped again before the application saw it (a failed
  // clCreateKernelsInProgram or clCloneKernel) still counts as attached; every other kernel
  // was detached by the application's last clReleaseKernel.
  if (app_refs.load() != 0) --program->kernels_attached;
  release(program);
}

_cl_event::~_cl_event() {
  if (queue) release(queue);
  if (owns_context) release(context);
}
