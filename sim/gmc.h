// The emulated GMC (gfxhub 3.0 on gfx11, 12.0 on gfx12): translates GPU virtual addresses of
// VMID 0 by walking the driver's 3-level page tables with the card's real PDE/PTE bit layout,
// then resolves VRAM or IOMMU-mapped system memory. Untranslatable accesses raise MemoryFault.
#pragma once
#include "card_model.h"
#include "iommu.h"
#include "register_file.h"
#include "shader/memory_port.h"

#include <cstdint>

namespace sim {

class Gmc : public shader::MemoryPort {
public:
  Gmc(const RegisterFile& regs, const CardModel& model, uint8_t* vram, uint64_t vram_size,
      const Iommu& iommu)
      : regs_(regs), model_(model), vram_(vram), vram_size_(vram_size), iommu_(iommu) {}

  uint8_t* translate(uint64_t va, size_t len, bool write, bool execute = false) override;

  // Device-physical access (page-table walks, VRAM addresses).
  uint8_t* vram_at(uint64_t pa, uint64_t len) const {
    return pa + len <= vram_size_ && pa + len >= pa ? vram_ + pa : nullptr;
  }

private:
  uint64_t read_entry(uint64_t table_pa, unsigned index, uint64_t va) const;
  const RegisterFile& regs_;
  const CardModel& model_;
  uint8_t* vram_;
  uint64_t vram_size_;
  const Iommu& iommu_;
};

} // namespace sim
