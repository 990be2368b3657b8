// The GPU virtual address space of VMID 0, one per process and shared by every AM device, so
// that an address means the same buffer on all cards (peer-to-peer needs no translation).
#pragma once
#include "vram_allocator.h"

#include <cstdint>
#include <optional>

namespace am {

class VaSpace {
public:
  static VaSpace& process();
  static constexpr uint64_t kEnd = 1ull << 39; // 512 GiB: one 3-level page directory

  // Host-address windows the allocator below never hands out: shared virtual memory puts host
  // pages at the same address on the host and in the GPU (MemoryManager::map_host). The upper
  // half first; the GiB below 2 GiB for processes whose upper half is taken (ASan's shadow
  // starts at 0x7fff8000 and covers the rest below 512 GiB: compiler-rt asan_mapping.h).
  struct Window {
    uint64_t base, size;
  };
  static constexpr Window kHostWindows[] = {{1ull << 38, 1ull << 38},
                                            {1ull << 30, (1ull << 30) - (2ull << 20)}};
  static bool in_host_window(uint64_t va, uint64_t size) {
    for (const Window& w : kHostWindows)
      if (va >= w.base && size <= w.size && va - w.base <= w.size - size) return true;
    return false;
  }
  // Device allocations start above the low window (the first GiB stays unused, so a null-ish
  // pointer never maps anything) and end below the upper one.
  static constexpr uint64_t kBase = 2ull << 30;
  static constexpr uint64_t kDeviceEnd = 1ull << 38;

  std::optional<uint64_t> allocate(uint64_t size, uint64_t align) {
    return ranges_.allocate(size, align);
  }
  void free(uint64_t va, uint64_t size) { ranges_.free(va, size); }

private:
  VaSpace() : ranges_(kBase, kDeviceEnd - kBase) {}
  VramAllocator ranges_;
};

} // namespace am
