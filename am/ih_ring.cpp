#include "ih_ring.h"


#include <atomic>
#include <bit>

namespace am {

using namespace hw;

void IhRing::init(Pci& pci, uint32_t oss_base, const hw::IhRegs& regs, const Allocation& ring,
                  const Allocation& wb_page, uint64_t wb_offset) {
  pci_ = &pci;
  base_ = oss_base;
  regs_ = &regs;
  ring_ = ring;
  rptr_ = 0;
  wptr_wb_ = reinterpret_cast<const volatile uint32_t*>(wb_page.cpu + wb_offset);
  const uint64_t wb_va = wb_page.va + wb_offset;
  const uint32_t log2_dwords = uint32_t(std::countr_zero(uint32_t(ring.size / 4)));
  // ih_v6_0 / ih_v7_0 programming order: ring base, write-back address, pointers, then enable.
  pci.reg_write32(base_ + regs_->IH_RB_CNTL, 0);
  pci.reg_write32(base_ + regs_->IH_RB_BASE, uint32_t(ring.va >> 8));
  pci.reg_write32(base_ + regs_->IH_RB_BASE_HI, uint32_t(ring.va >> 40));
  pci.reg_write32(base_ + regs_->IH_RB_WPTR_ADDR_LO, uint32_t(wb_va) & ~3u);
  pci.reg_write32(base_ + regs_->IH_RB_WPTR_ADDR_HI, uint32_t(wb_va >> 32) & 0xff);
  pci.reg_write32(base_ + regs_->IH_RB_RPTR, 0);
  pci.reg_write32(base_ + regs_->IH_RB_WPTR, 0);
  pci.reg_write32(base_ + regs_->IH_RB_CNTL,
                  (log2_dwords << IH_RB_CNTL_RB_SIZE_SHIFT) |
                      IH_RB_CNTL_WPTR_WRITEBACK_ENABLE | IH_RB_CNTL_WPTR_OVERFLOW_ENABLE |
                      IH_RB_CNTL_ENABLE_INTR |
                      (IH_RB_CNTL_MC_SPACE_GPUVA << IH_RB_CNTL_MC_SPACE_SHIFT) |
                      IH_RB_CNTL_RB_ENABLE);
}

std::vector<ih::IvEntry> IhRing::drain() {
  std::vector<ih::IvEntry> out;
  if (!pci_) return out;
  std::lock_guard lock(mutex_);
  const uint32_t size = uint32_t(ring_.size);
  const uint32_t wptr_raw = std::atomic_ref<uint32_t>(*const_cast<uint32_t*>(wptr_wb_))
                               .load(std::memory_order_acquire);
  if (wptr_raw & IH_RB_WPTR_RB_OVERFLOW) {
    // Entries were lost; acknowledge so the IH keeps writing (ih_v6_0_get_wptr).
    ++overflows_;
    uint32_t cntl = pci_->reg_read32(base_ + regs_->IH_RB_CNTL);
    pci_->reg_write32(base_ + regs_->IH_RB_CNTL, cntl | IH_RB_CNTL_WPTR_OVERFLOW_CLEAR);
  }
  const uint32_t wptr = wptr_raw & IH_RB_PTR_OFFSET_MASK & (size - 1);
  while (rptr_ != wptr) {
    uint32_t words[ih::kEntryDwords];
    for (uint32_t i = 0; i < ih::kEntryDwords; ++i)
      words[i] = reinterpret_cast<const volatile uint32_t*>(ring_.cpu)[(rptr_ / 4 + i) % (size / 4)];
    out.push_back(ih::decode(words));
    rptr_ = (rptr_ + ih::kEntryBytes) & (size - 1);
  }
  if (!out.empty()) pci_->reg_write32(base_ + regs_->IH_RB_RPTR, rptr_);
  return out;
}

} // namespace am
