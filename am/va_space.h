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
  // Leaves the first GiB unused so a null-ish pointer never maps anything.
  static constexpr uint64_t kBase = 1ull << 30;
  static constexpr uint64_t kEnd = 1ull << 39; // 512 GiB: one 3-level page directory

  std::optional<uint64_t> allocate(uint64_t size, uint64_t align) {
    return ranges_.allocate(size, align);
  }
  void free(uint64_t va, uint64_t size) { ranges_.free(va, size); }

private:
  VaSpace() : ranges_(kBase, kEnd - kBase) {}
  VramAllocator ranges_;
};

} // namespace am
