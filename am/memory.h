// GPU memory as the driver hands it out: a VA range in VMID 0 backed by VRAM or by pinned,
// IOMMU-mapped host pages, with a CPU pointer (BAR0 for VRAM inside the BAR, the host pages for
// system memory; none for VRAM beyond the BAR, which the CPU reaches only by SDMA).
#pragma once
#include <cstdint>

namespace am {

enum class MemoryKind : uint8_t { Vram, System };

struct Allocation {
  uint64_t va = 0;
  uint64_t size = 0;      // bytes mapped (page multiple)
  uint8_t* cpu = nullptr; // CPU view; nullptr for VRAM beyond BAR0
  MemoryKind kind = MemoryKind::Vram;
  uint64_t phys = 0;      // VRAM offset or bus address
  explicit operator bool() const { return va != 0; }
};

} // namespace am
