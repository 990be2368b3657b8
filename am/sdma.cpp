#include "sdma.h"

#include "debug_log.h"
#include "doorbells.h"
#include "hw/discovery.h"
#include "memory_manager.h"

#include <bit>

namespace am {

using namespace hw;

void Sdma::init_sw(const IpDiscovery& ip, const GcRegisters& gc) {
  gc_ = gc;
  if (const IpBlock* sdma = ip.find(discovery::SDMA0_HWID)) {
    major_ = sdma->major;
    AM_LOG(kDebugBlocks, pci_, "SDMA: SDMA0 %s (registers in GC's table)",
           version_of(*sdma).c_str());
  }
}

void Sdma::init_hw(MemoryManager& memory, SignalPage& signals) {
  // tinygrad's AM_SDMA.init_hw, before the engine runs: the hang watchdog at 10 s, the UTCL1's
  // retry timing, reads not allocating and writes bypassing GL2 (the engine's data goes to and
  // from memory the host and the shader array see without a cache flush).
  auto update = [&](Reg r, uint32_t clear, uint32_t set) {
    pci_.reg_write32(reg(r), (pci_.reg_read32(reg(r)) & ~clear) | set);
  };
  update(gc_->SDMA0_WATCHDOG_CNTL, SDMA_WATCHDOG_QUEUE_HANG_COUNT_MASK, kSdmaQueueHangCount);
  update(gc_->SDMA0_UTCL1_CNTL, SDMA_UTCL1_CNTL_REDO_DELAY_MASK | SDMA_UTCL1_CNTL_RESP_MODE_MASK,
         kSdmaUtcl1RedoDelay | (kSdmaUtcl1RespMode << SDMA_UTCL1_CNTL_RESP_MODE_SHIFT));
  const uint32_t llc_noalloc = gc_->sdma_utcl1_llc_noalloc ? SDMA_UTCL1_PAGE_LLC_NOALLOC : 0;
  update(gc_->SDMA0_UTCL1_PAGE, SDMA_UTCL1_PAGE_L2_POLICY_MASK | llc_noalloc,
         (kSdmaL2PolicyNoAlloc << SDMA_UTCL1_PAGE_RD_L2_POLICY_SHIFT) |
             (kSdmaL2PolicyBypass << SDMA_UTCL1_PAGE_WR_L2_POLICY_SHIFT) | llc_noalloc);
  // sdma_v6_0_set_trap_irq_state: without TRAP_ENABLE the engine writes its fences but raises
  // no interrupt, and waits would only notice at their polling interval.
  const uint32_t cntl = reg(gc_->SDMA0_CNTL);
  pci_.reg_write32(cntl, pci_.reg_read32(cntl) | SDMA_CNTL_TRAP_ENABLE);
  queue_.init(pci_, nbio_, signals, memory.alloc_vram(kQueueRingBytes),
              {kSdmaDoorbell, SignalPage::kSdmaRptr, SignalPage::kSdmaWptrPoll, 4});
  program_queue();
  AM_LOG(kDebugBlocks, pci_, "SDMA: engine 0 queue 0 ring at VA 0x%llx (%llu KiB), doorbell %u",
         static_cast<unsigned long long>(queue_.memory().va),
         static_cast<unsigned long long>(queue_.memory().size >> 10), kSdmaDoorbell);
}

void Sdma::fini_hw() {
  pci_.reg_write32(reg(gc_->SDMA0_QUEUE0_RB_CNTL), 0);
}

void Sdma::program_queue() {
  const uint64_t rptr_va = queue_.rptr_va(), wptr_va = queue_.wptr_poll_va();
  const uint32_t log2_dwords = uint32_t(std::countr_zero(uint32_t(kQueueRingBytes / 4)));
  auto w = [&](Reg r, uint32_t v) { pci_.reg_write32(reg(r), v); };
  // sdma_v6_0_gfx_resume's order: the ring off and described, the pointers zeroed (a write-
  // pointer move backwards inside a MINOR_PTR_UPDATE bracket), the doorbell, the engine
  // unhalted, the ring on, then its indirect buffers. The ring control is the bare-metal one:
  // the firmware's write-pointer polling on, the ring's own (WPTR_POLL_ENABLE) off.
  const uint32_t rb_cntl = (log2_dwords << SDMA_RB_CNTL_RB_SIZE_SHIFT) |
                           SDMA_RB_CNTL_F32_WPTR_POLL_ENABLE | SDMA_RB_CNTL_RPTR_WRITEBACK_ENABLE |
                           (kSdmaRptrWritebackTimer << SDMA_RB_CNTL_RPTR_WRITEBACK_TIMER_SHIFT) |
                           SDMA_RB_CNTL_RB_PRIV;
  w(gc_->SDMA0_QUEUE0_RB_CNTL, 0);
  w(gc_->SDMA0_QUEUE0_RB_BASE, uint32_t(queue_.memory().va >> 8));
  w(gc_->SDMA0_QUEUE0_RB_BASE_HI, uint32_t(queue_.memory().va >> 40));
  w(gc_->SDMA0_QUEUE0_RB_RPTR, 0);
  w(gc_->SDMA0_QUEUE0_RB_RPTR_HI, 0);
  w(gc_->SDMA0_QUEUE0_MINOR_PTR_UPDATE, 1);
  w(gc_->SDMA0_QUEUE0_RB_WPTR, 0);
  w(gc_->SDMA0_QUEUE0_RB_WPTR_HI, 0);
  w(gc_->SDMA0_QUEUE0_MINOR_PTR_UPDATE, 0);
  w(gc_->SDMA0_QUEUE0_RB_RPTR_ADDR_LO, uint32_t(rptr_va));
  w(gc_->SDMA0_QUEUE0_RB_RPTR_ADDR_HI, uint32_t(rptr_va >> 32));
  w(gc_->SDMA0_QUEUE0_RB_WPTR_POLL_ADDR_LO, uint32_t(wptr_va));
  w(gc_->SDMA0_QUEUE0_RB_WPTR_POLL_ADDR_HI, uint32_t(wptr_va >> 32));
  w(gc_->SDMA0_QUEUE0_DOORBELL_OFFSET, kSdmaDoorbell << 2);
  w(gc_->SDMA0_QUEUE0_DOORBELL, SDMA_DOORBELL_ENABLE);
  const uint32_t engine = pci_.reg_read32(reg(gc_->SDMA0_ENGINE_CNTL));
  w(gc_->SDMA0_ENGINE_CNTL, engine & ~gc_->sdma_engine_run_clear);
  w(gc_->SDMA0_QUEUE0_RB_CNTL, rb_cntl | SDMA_RB_CNTL_RB_ENABLE);
  const uint32_t ib_cntl = pci_.reg_read32(reg(gc_->SDMA0_QUEUE0_IB_CNTL));
  w(gc_->SDMA0_QUEUE0_IB_CNTL, ib_cntl | SDMA_IB_CNTL_IB_ENABLE);
}

void Sdma::stop_queue() {
  pci_.reg_write32(reg(gc_->SDMA0_QUEUE0_RB_CNTL), 0);
}

void Sdma::restart_queue() {
  queue_.reset();
  program_queue();
  stopped_ = false;
}

std::optional<DeviceFault> Sdma::on_queue_hang(const ih::IvEntry&) {
  stopped_ = true;
  return DeviceFault{"SDMA queue stopped on a packet it cannot execute", std::nullopt};
}

} // namespace am
