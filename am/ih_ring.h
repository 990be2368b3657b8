// The driver's side of the interrupt handler: a ring in VRAM the IH writes IV entries into,
// read from IH_RB_RPTR up to the write-back copy of IH_RB_WPTR.
#pragma once
#include "hw/ih_v6.h"
#include "hw/osssys_regs.h"
#include "memory.h"
#include "pci.h"

#include <cstdint>
#include <mutex>
#include <vector>

namespace am {

class IhRing {
public:
  // `oss_base`: the OSSSYS register base from IP discovery and `regs` the IH registers of its
  // version; `ring` is the ring buffer (a power of two bytes); `wptr_wb` an 8-byte write-back slot.
  void init(Pci& pci, uint32_t oss_base, const hw::IhRegs& regs, const Allocation& ring,
            const Allocation& wptr_wb_page, uint64_t wb_offset);
  // Entries written since the last call, oldest first.
  std::vector<hw::ih::IvEntry> drain();
  uint64_t overflows() const { return overflows_; }

private:
  Pci* pci_ = nullptr;
  uint32_t base_ = 0;
  const hw::IhRegs* regs_ = nullptr;
  Allocation ring_;
  const volatile uint32_t* wptr_wb_ = nullptr;
  uint32_t rptr_ = 0;
  uint64_t overflows_ = 0;
  std::mutex mutex_;
};

} // namespace am
