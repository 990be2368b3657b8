#include "ih.h"

#include <cstdio>

namespace sim {

using namespace am::hw;

bool Ih::post(const ih::IvEntry& entry) {
  std::lock_guard lock(mutex_);
  const uint32_t cntl = regs_.read(model_.ih_reg(model_.ih->IH_RB_CNTL));
  if (!(cntl & IH_RB_CNTL_RB_ENABLE) ||
      ((cntl >> IH_RB_CNTL_MC_SPACE_SHIFT) & 7) != IH_RB_CNTL_MC_SPACE_GPUVA) {
    ++dropped_;
    return false;
  }
  const uint32_t ring_bytes = 4u << ((cntl & IH_RB_CNTL_RB_SIZE_MASK) >> IH_RB_CNTL_RB_SIZE_SHIFT);
  const uint64_t base = regs_.read64(model_.ih_reg(model_.ih->IH_RB_BASE), model_.ih_reg(model_.ih->IH_RB_BASE_HI)) << 8;
  uint32_t wptr_reg = regs_.read(model_.ih_reg(model_.ih->IH_RB_WPTR));
  const uint32_t wptr = wptr_reg & IH_RB_PTR_OFFSET_MASK & (ring_bytes - 1);
  const uint32_t rptr = regs_.read(model_.ih_reg(model_.ih->IH_RB_RPTR)) & IH_RB_PTR_OFFSET_MASK & (ring_bytes - 1);
  const uint32_t next = (wptr + ih::kEntryBytes) & (ring_bytes - 1);
  if (next == rptr) {
    if (cntl & IH_RB_CNTL_WPTR_OVERFLOW_ENABLE)
      regs_.store(model_.ih_reg(model_.ih->IH_RB_WPTR), wptr_reg | IH_RB_WPTR_RB_OVERFLOW);
    ++dropped_;
    return false;
  }
  uint32_t words[ih::kEntryDwords];
  ih::encode(entry, words);
  try {
    gmc_.write(base + wptr, words, sizeof words);
    regs_.store(model_.ih_reg(model_.ih->IH_RB_WPTR), next | (wptr_reg & IH_RB_WPTR_RB_OVERFLOW));
    if (cntl & IH_RB_CNTL_WPTR_WRITEBACK_ENABLE) {
      uint64_t wb = (uint64_t(regs_.read(model_.ih_reg(model_.ih->IH_RB_WPTR_ADDR_HI)) & 0xff) << 32) |
                    (regs_.read(model_.ih_reg(model_.ih->IH_RB_WPTR_ADDR_LO)) & ~3u);
      gmc_.store32(wb, regs_.read(model_.ih_reg(model_.ih->IH_RB_WPTR)));
    }
  } catch (const shader::MemoryFault& e) {
    // The IH's own ring is unreachable (MMHUB not set up, or the ring unmapped): a real card
    // loses the interrupt too. Said once, loudly: every blocking wait now depends on polling.
    if (dropped_faults_++ == 0)
      std::fprintf(stderr, "amcl sim: the IH cannot write its ring (%s): interrupts are lost\n",
                   e.what());
    ++dropped_;
    return false;
  }
  ++posted_;
  return true;
}

} // namespace sim
