// GPU memory as the driver hands it out: a VA range in VMID 0 backed by VRAM or by pinned,
// IOMMU-mapped host pages, with a CPU pointer (BAR0 for VRAM, the host pages otherwise).
#pragma once
#include <cstdint>

namespace am {

enum class MemoryKind : uint8_t { Vram, System };

struct Allocation {
  uint64_t va = 0;
  uint64_t size = 0;      // bytes mapped (page multiple)
  uint8_t* cpu = nullptr; // CPU view
  MemoryKind kind = MemoryKind::Vram;
  uint64_t phys = 0;      // VRAM offset or bus address
  explicit operator bool() const { return va != 0; }
};

} // namespace am
