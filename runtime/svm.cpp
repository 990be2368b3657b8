#include "svm.h"

#include "am/va_space.h"
#include "scheduler.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>

#include <sys/mman.h>

// Why no SVM atomics (CL_DEVICE_SVM_ATOMICS): the emulator's system-memory atomics are host
// atomics and would be coherent with the host's, but on a card a device atomic reaches host
// memory as a PCIe AtomicOp, which the root port must route (AtomicOp Routing in its Device
// Capabilities 2) and which amcl neither checks nor enables, and the page tables map system
// memory with the default MTYPE, not the uncached one amdgpu's KFD uses for coherent memory
// (svm_range_get_pte_flags). Fine-grain buffers need neither: host and kernels see each other's
// writes at the synchronisation points, where the dispatch's cache acquire and release act.

namespace amcl::rt {
namespace {

constexpr size_t kPage = 4096;
// The host reservation in a window: address space only, no memory until an allocation.
constexpr uint64_t kHostReservation = 64ull << 30;

size_t round_up(size_t v, size_t a) {
  return (v + a - 1) / a * a;
}

// The host side of the window: reserved with no access at an address the GPU's VA allocator
// never hands out (am::VaSpace::kHostWindows), and carved into allocations.
struct Window {
  uint8_t* base;
  am::VramAllocator ranges;
  Window(uint8_t* b, uint64_t size) : base(b), ranges(0, size) {}
};

Window* open_window() {
  for (const am::VaSpace::Window& w : am::VaSpace::kHostWindows) {
    const uint64_t size = std::min(w.size, kHostReservation);
    void* want = reinterpret_cast<void*>(w.base);
    void* p = mmap(want, size, PROT_NONE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE, -1, 0);
    if (p == MAP_FAILED) continue; // taken (a sanitizer's shadow, a library)
    if (p != want) {               // a kernel before 4.17 took the address as a hint
      munmap(p, size);
      continue;
    }
    return new Window(static_cast<uint8_t*>(p), size);
  }
  return nullptr;
}

// Never destroyed: allocations may be freed while the process runs its exit handlers.
Window* window() {
  static Window* w = open_window();
  return w;
}

struct Entry {
  cl_context context;
  size_t size;   // as requested
  size_t mapped; // whole pages
  cl_svm_mem_flags flags;
};
std::mutex g_mutex;
std::map<uintptr_t, Entry> g_allocations; // by start address

// Gives back an allocation's pages and its range (g_mutex held).
void release_pages(uint8_t* p, size_t mapped) {
  madvise(p, mapped, MADV_DONTNEED); // the next allocation here starts zeroed
  mprotect(p, mapped, PROT_NONE);
  window()->ranges.free(uint64_t(p - window()->base), mapped);
}

void unmap_from(const std::vector<cl_device_id>& devices, size_t count, uint8_t* p, size_t mapped) {
  for (size_t i = 0; i < count; ++i) devices[i]->am->unmap_host(p, mapped);
}

} // namespace

void* svm_alloc(cl_context context, cl_svm_mem_flags flags, size_t size, size_t alignment) {
  Window* w = window();
  if (!w) return nullptr;
  const size_t mapped = round_up(size, kPage);
  std::lock_guard lock(g_mutex);
  const auto offset = w->ranges.allocate(mapped, std::max(alignment, kPage));
  if (!offset) return nullptr;
  uint8_t* p = w->base + *offset;
  if (mprotect(p, mapped, PROT_READ | PROT_WRITE) != 0) {
    w->ranges.free(*offset, mapped);
    return nullptr;
  }
  // Fault the pages in at once for pinning; best effort (before 5.14 they fault in as pinned).
  (void)madvise(p, mapped, MADV_POPULATE_WRITE);
  size_t done = 0;
  try {
    for (; done < context->devices.size(); ++done) context->devices[done]->am->map_host(p, mapped);
  } catch (...) { // DeviceError, or no memory for the bookkeeping
    unmap_from(context->devices, done, p, mapped);
    release_pages(p, mapped);
    return nullptr;
  }
  g_allocations[uintptr_t(p)] = {context, size, mapped, flags};
  return p;
}

void svm_free(cl_context context, void* p) {
  std::lock_guard lock(g_mutex);
  auto it = g_allocations.find(uintptr_t(p));
  if (it == g_allocations.end() || it->second.context != context) return;
  auto* bytes = static_cast<uint8_t*>(p);
  unmap_from(context->devices, context->devices.size(), bytes, it->second.mapped);
  release_pages(bytes, it->second.mapped);
  g_allocations.erase(it);
}

void svm_release_context(cl_context context) {
  std::vector<void*> left;
  {
    std::lock_guard lock(g_mutex);
    for (const auto& [start, e] : g_allocations)
      if (e.context == context) left.push_back(reinterpret_cast<void*>(start));
  }
  for (void* p : left) svm_free(context, p);
}

std::optional<SvmRegion> svm_region(cl_context context, const void* p, size_t size) {
  const auto at = reinterpret_cast<uintptr_t>(p);
  std::lock_guard lock(g_mutex);
  auto it = g_allocations.upper_bound(at);
  if (it == g_allocations.begin()) return std::nullopt;
  --it;
  const Entry& e = it->second;
  const uintptr_t offset = at - it->first;
  const bool inside = size ? offset < e.size && size <= e.size - offset : offset <= e.size;
  if (e.context != context || !inside) return std::nullopt;
  return SvmRegion{reinterpret_cast<uint8_t*>(it->first), e.size, e.flags};
}

cl_event enqueue_svm_free(cl_command_queue q, std::vector<void*> pointers, SvmFreeCallback callback,
                          void* user_data, const cl_event* waits, cl_uint nwait) {
  return enqueue(
      q, CL_COMMAND_SVM_FREE, waits, nwait,
      [q, pointers = std::move(pointers), callback, user_data]() mutable {
        if (callback)
          callback(q, cl_uint(pointers.size()), pointers.data(), user_data);
        else
          for (void* p : pointers) svm_free(q->context, p);
      },
      false);
}

cl_event enqueue_svm_memcpy(cl_command_queue q, void* dst, const void* src, size_t size,
                            const cl_event* waits, cl_uint nwait, bool blocking) {
  return enqueue(
      q, CL_COMMAND_SVM_MEMCPY, waits, nwait, [dst, src, size] { std::memcpy(dst, src, size); },
      blocking);
}

cl_event enqueue_svm_fill(cl_command_queue q, void* dst, const void* pattern, size_t pattern_size,
                          size_t size, const cl_event* waits, cl_uint nwait) {
  const auto* bytes = static_cast<const uint8_t*>(pattern);
  std::vector<uint8_t> pat(bytes, bytes + pattern_size); // the caller's copy may go at once
  return enqueue(
      q, CL_COMMAND_SVM_MEMFILL, waits, nwait,
      [dst, pat, size] {
        auto* out = static_cast<uint8_t*>(dst);
        for (size_t i = 0; i < size; i += pat.size()) std::memcpy(out + i, pat.data(), pat.size());
      },
      false);
}

cl_event enqueue_svm_sync(cl_command_queue q, cl_command_type type, const cl_event* waits,
                          cl_uint nwait, bool blocking) {
  return enqueue(q, type, waits, nwait, nullptr, blocking);
}

cl_int set_kernel_arg_svm(cl_kernel k, cl_uint index, const void* p) {
  const compiler::KernelArg& arg = k->info->args[k->explicit_args[index]];
  if (arg.kind != compiler::ArgKind::GlobalBuffer) return CL_INVALID_ARG_VALUE;
  if (p && !svm_region(k->program->context, p, 0)) return CL_INVALID_ARG_VALUE;
  std::lock_guard snapshot_lock(k->snapshot_mutex);
  k->snapshot.reset();
  const auto address = reinterpret_cast<uint64_t>(p);
  k->arg_values[index].assign(reinterpret_cast<const uint8_t*>(&address),
                              reinterpret_cast<const uint8_t*>(&address) + sizeof address);
  k->arg_svm[index] = true;
  k->arg_set[index] = true;
  return CL_SUCCESS;
}

} // namespace amcl::rt
