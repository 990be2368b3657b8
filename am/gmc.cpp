#include "gmc.h"

#include "debug_log.h"
#include "device_error.h"
#include "hw/discovery.h"

#include <chrono>
#include <cstdio>
#include <cstring>

namespace am {
namespace {

using namespace hw;

constexpr uint64_t kPage = 4096;

std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

} // namespace

void Gmc::init_sw(const IpDiscovery& ip, const GcRegisters& gc) {
  gc_ = gc;
  pte_format_ = gmc::pte_format_for_gc_major(gc.major);
  const IpBlock* mmhub = ip.find(discovery::MMHUB_HWID);
  const VmHubRegs* mmhub_regs = mmhub && !mmhub->bases.empty()
                                    ? mmhub_regs_for(mmhub->major, mmhub->minor, mmhub->revision)
                                    : nullptr;
  if (!mmhub_regs)
    throw DeviceError(pci_.address() + ": IP discovery lists no MMHUB amcl knows" +
                      (mmhub ? " (MMHUB " + version_of(*mmhub) + ")" : std::string()) +
                      "; it has register tables for MMHUB 3.0.0, 3.0.2 and 4.1.0");
  hubs_.clear();
  hubs_.push_back({gfxhub_regs(*gc.table), gc.bases});
  hubs_.push_back({*mmhub_regs, RegisterBases::of(*mmhub)});
  // The frame buffer's MC range, as the VBIOS left it (16 MiB units): the PSP and the SMU are
  // given MC addresses (mmhub_v3_0_get_fb_location). VMID 0 reaches it through the system
  // aperture, so it must not overlap the virtual range amcl's page tables serve.
  const VmHub& mm = hubs_.back();
  fb_base_ = uint64_t(pci_.reg_read32(mm.reg(mm.regs.FB_LOCATION_BASE)) & 0xffffff) << 24;
  fb_top_ =
      (uint64_t(pci_.reg_read32(mm.reg(mm.regs.FB_LOCATION_TOP)) & 0xffffff) << 24) | 0xffffff;
  if (fb_top_ < fb_base_ || fb_base_ < gmc::kVaSpan)
    throw DeviceError(pci_.address() + ": the frame buffer's MC range [" + hex(fb_base_) + ", " +
                      hex(fb_top_) +
                      "] (MMMC_VM_FB_LOCATION_BASE/TOP) overlaps VMID 0's virtual range [0, " +
                      hex(gmc::kVaSpan) + "), which amcl needs for its page tables");
  AM_LOG(kDebugBlocks, pci_,
         "GMC: GFXHUB from GC's table, MMHUB %s at %s; frame buffer at MC [0x%llx, 0x%llx]",
         version_of(*mmhub).c_str(), bases_of(*mmhub).c_str(),
         static_cast<unsigned long long>(fb_base_), static_cast<unsigned long long>(fb_top_));
}

void Gmc::init_hw(VramAllocator& vram) {
  uint8_t* cpu = pci_.vram();
  pt_ = std::make_unique<PageTable>(cpu, pte_format_, [&vram, cpu] {
    auto off = vram.allocate(kPage, kPage);
    if (!off) throw DeviceError("out of VRAM for page tables");
    std::memset(cpu + *off, 0, kPage);
    return *off;
  });
  // Where the system aperture sends an access it has no page for, and where a faulting access
  // goes instead of its address (amdgpu's mem_scratch and dummy page, tinygrad's AM alike).
  // Physical pages only: no mapping (the hubs are not set up yet, so nothing to invalidate).
  for (uint64_t* page : {&scratch_page_, &fault_page_}) {
    auto phys = vram.allocate(kPage, kPage);
    if (!phys) throw DeviceError("out of VRAM for the VM hubs' default pages");
    std::memset(cpu + *phys, 0, kPage);
    *page = *phys;
  }
  // MMHUB now (gmc_v11_0_hw_init; tinygrad's AM_GMC.init_hw: init_hub("MM")), GFXHUB after
  // the RLC autoload (init_gfxhub). The same VMID 0 on both: one address means the same memory
  // to the shaders and to the IH.
  for (VmHub& hub : hubs_) hub.programmed = false;
  init_hub(hubs_[kMmhub]);
  init_hub_l2_and_fault_defaults(hubs_[kMmhub]);
  invalidate_tlb(); // whatever an earlier session left cached (the fast path) is gone
  AM_LOG(kDebugBlocks, pci_,
         "GMC: page directory at VRAM 0x%llx (%u levels below it), VA [0, 0x%llx) on VMID 0 of "
         "MMHUB; default page 0x%llx, fault page 0x%llx",
         static_cast<unsigned long long>(pt_->root()), gmc::kPageTableDepth,
         static_cast<unsigned long long>(gmc::kVaSpan),
         static_cast<unsigned long long>(scratch_page_),
         static_cast<unsigned long long>(fault_page_));
}

void Gmc::init_gfxhub() {
  init_hub(hubs_[kGfxhub]);
  init_hub_l2_and_fault_defaults(hubs_[kGfxhub]);
  invalidate_tlb();
  AM_LOG(kDebugBlocks, pci_, "GMC: GFXHUB given VMID 0 after the RLC autoload");
}

// In gart_enable's order: the system apertures, the L1 TLB, the L2 cache, then context 0, with
// every invalidation engine's range over the whole VA space (program_invalidation).
void Gmc::init_hub(VmHub& hub) {
  const VmHubRegs& h = hub.regs;
  const uint64_t base = pt_->root() | gmc::PTE_VALID;
  const uint64_t last_page = (gmc::kVaSpan >> 12) - 1;
  pci_.reg_write32(hub.reg(h.AGP_BASE), 0);
  pci_.reg_write32(hub.reg(h.AGP_BOT), kAgpBotDisabled);
  pci_.reg_write32(hub.reg(h.AGP_TOP), 0);
  pci_.reg_write32(hub.reg(h.SYSTEM_APERTURE_LOW_ADDR), uint32_t(fb_base_ >> 18));
  pci_.reg_write32(hub.reg(h.SYSTEM_APERTURE_HIGH_ADDR), uint32_t(fb_top_ >> 18));
  pci_.reg_write32(hub.reg(h.SYSTEM_APERTURE_DEFAULT_ADDR_LSB), uint32_t(scratch_page_ >> 12));
  pci_.reg_write32(hub.reg(h.SYSTEM_APERTURE_DEFAULT_ADDR_MSB), uint32_t(scratch_page_ >> 44));
  pci_.reg_write32(hub.reg(h.L2_PROTECTION_FAULT_DEFAULT_ADDR_LO32), uint32_t(fault_page_ >> 12));
  pci_.reg_write32(hub.reg(h.L2_PROTECTION_FAULT_DEFAULT_ADDR_HI32), uint32_t(fault_page_ >> 44));
  const uint32_t l1 = pci_.reg_read32(hub.reg(h.MX_L1_TLB_CNTL));
  pci_.reg_write32(hub.reg(h.MX_L1_TLB_CNTL), (l1 & ~MX_L1_TLB_FIELDS_MASK) | kMxL1TlbCntl);
  pci_.reg_write32(hub.reg(h.L2_CNTL), vm_l2_cntl(pci_.reg_read32(hub.reg(h.L2_CNTL))));
  pci_.reg_write32(hub.reg(h.L2_CNTL2), kVmL2Cntl2InvalidateAll);
  pci_.reg_write32(hub.reg(h.PAGE_TABLE_BASE_LO32), uint32_t(base));
  pci_.reg_write32(hub.reg(h.PAGE_TABLE_BASE_HI32), uint32_t(base >> 32));
  pci_.reg_write32(hub.reg(h.PAGE_TABLE_START_LO32), 0);
  pci_.reg_write32(hub.reg(h.PAGE_TABLE_START_HI32), 0);
  pci_.reg_write32(hub.reg(h.PAGE_TABLE_END_LO32), uint32_t(last_page));
  pci_.reg_write32(hub.reg(h.PAGE_TABLE_END_HI32), uint32_t(last_page >> 32));
  for (unsigned e = 0; e < kInvalidationEngines; ++e) {
    pci_.reg_write32(hub.reg(invalidate_range_lo32(h, e)), kInvalidateRangeLo32);
    pci_.reg_write32(hub.reg(invalidate_range_hi32(h, e)), kInvalidateRangeHi32);
  }
  pci_.reg_write32(hub.reg(h.CONTEXT0_CNTL),
                   VM_CONTEXT_CNTL_ENABLE | (gmc::kPageTableDepth << VM_CONTEXT_CNTL_DEPTH_SHIFT) |
                       (0u << h.block_size_shift) |
                       vm_context_fault_interrupts(h.block_size_shift));
  hub.programmed = true;
}

// What amdgpu's hub code programs beyond VMID 0's context: the rest of the L2 set-up
// (init_cache_regs' CNTL3..5, init_system_aperture_regs' PTE read retry), then
// set_fault_enable_default(true), which gmc_v11_0/v12_0_gart_enable call after gart_enable:
// faulting accesses go to the default page (fault_page_) rather than through; on GFXHUB also
// CP_DEBUG, so that the CP keeps running after a translation error on its own fetches instead
// of halting, and the fault is reported and the queue can be reset.
void Gmc::init_hub_l2_and_fault_defaults(const VmHub& hub) {
  auto set_bits = [this](uint32_t index, uint32_t bits, uint32_t write_as_zero = 0) {
    pci_.reg_write32(index, (pci_.reg_read32(index) & ~write_as_zero) | bits);
  };
  const VmHubRegs& h = hub.regs;
  pci_.reg_write32(hub.reg(h.L2_CNTL3), vm_l2_cntl3(h.l2_cntl3_default));
  pci_.reg_write32(hub.reg(h.L2_CNTL4), kGcvmL2Cntl4);
  pci_.reg_write32(hub.reg(h.L2_CNTL5), kGcvmL2Cntl5);
  set_bits(hub.reg(h.L2_PROTECTION_FAULT_CNTL2), GCVM_L2_PROTECTION_FAULT_CNTL2_PTE_READ_RETRY);
  // CLEAR_PROTECTION_FAULT_STATUS_ADDR [0] written as 0: re-arming the fault latch is
  // rearm_fault_latch's, once the IH is up.
  set_bits(hub.reg(h.L2_PROTECTION_FAULT_CNTL), GCVM_L2_PROTECTION_FAULT_ENABLE_DEFAULTS, 1u);
  if (&hub == &hubs_[kGfxhub]) set_bits(gc_(gc_->CP_DEBUG), CP_DEBUG_CPG_UTCL1_ERROR_HALT_DISABLE);
}

void Gmc::invalidate_tlb() {
  // One request in flight on each engine at a time. The page-table stores reach memory
  // before the request does (WC buffers, then the HDP): flushed under the lock, so two threads'
  // flushes never both precede the first request and leave the second request unflushed.
  std::lock_guard lock(tlb_mutex_);
  nbio_.flush_hdp();
  // A hub not programmed yet has no engine range to invalidate (tinygrad's flush_tlb skips it).
  for (const VmHub& hub : hubs_)
    if (hub.programmed) invalidate_hub(hub);
}

// gmc_v11_0_flush_gpu_tlb (gmc_v12_0 alike) for VMID 0 on one hub: on MMHUB, engine 17's
// semaphore taken first and released after the ACK, then the private invalidation.
void Gmc::invalidate_hub(const VmHub& hub) {
  const VmHubRegs& h = hub.regs;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(100);
  auto wait_for = [&](Reg r, uint32_t bit, const char* what) {
    while (!(pci_.reg_read32(hub.reg(r)) & bit))
      if (std::chrono::steady_clock::now() > deadline)
        throw DeviceError(std::string("GPU TLB invalidation: ") + h.name + " " + what);
  };
  if (h.invalidate_semaphore) wait_for(h.INVALIDATE_ENG17_SEM, 1u, "semaphore not granted");
  pci_.reg_write32(hub.reg(h.INVALIDATE_ENG17_REQ), vm_invalidate_req(1u << 0, 0));
  wait_for(h.INVALIDATE_ENG17_ACK, 1u, "not acknowledged (INVALIDATE_ENG17_ACK)");
  if (!h.invalidate_semaphore) return;
  pci_.reg_write32(hub.reg(h.INVALIDATE_ENG17_SEM), 0);
  const uint32_t cid2 = hub.reg(h.L2_BANK_SELECT_RESERVED_CID2);
  pci_.reg_write32(cid2, pci_.reg_read32(cid2) | RESERVED_CACHE_PRIVATE_INVALIDATION);
  (void)pci_.reg_read32(cid2); // read back: the invalidation is done
}

// CLEAR_PROTECTION_FAULT_STATUS_ADDR [0] of GCVM_L2_PROTECTION_FAULT_CNTL, the register's other
// fields (the per-fault-type default-page and retry controls) kept as they are: amdgpu sets the
// bit with WREG32_P(reg, 1, ~1) (gmc_v11_0_process_interrupt), never a plain write of 1.
void Gmc::rearm_fault_latch() {
  const uint32_t cntl = gc_(gc_->GCVM_L2_PROTECTION_FAULT_CNTL);
  pci_.reg_write32(cntl, pci_.reg_read32(cntl) | 1u);
}

std::optional<DeviceFault> Gmc::on_vm_fault(const ih::IvEntry& iv) {
  const uint64_t page = iv.src_data[0] | (uint64_t(iv.src_data[1] & 0xf) << 32);
  const uint32_t status = pci_.reg_read32(gc_(gc_->GCVM_L2_PROTECTION_FAULT_STATUS));
  char buf[160];
  std::snprintf(buf, sizeof buf,
                "GPU page fault (%s) at address 0x%llx, GCVM_L2_PROTECTION_FAULT_STATUS 0x%08x",
                (iv.ring_id & ih::FAULT_RING_PROT_WRITE) ? "write" : "read",
                static_cast<unsigned long long>(page << 12), status);
  rearm_fault_latch();
  return DeviceFault{buf, std::nullopt};
}

} // namespace am
