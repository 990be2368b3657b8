// GMC (gmc_v11_0 / gmc_v12_0 with gfxhub_v3_0 / v12_0 and mmhub_v3_0 / v3_0_2 / v4_1_0): the
// two VM hubs in front of memory, both given VMID 0 with one page directory: GFXHUB (CP,
// shaders, SDMA) and MMHUB (the IH). It owns the page directory, the hubs' apertures, L1 TLB,
// L2 cache and fault defaults, TLB invalidation and the VM fault latch. tinygrad's AM_GMC does
// the same.
#pragma once
#include "hw/gmc.h"
#include "hw/ih_v6.h"
#include "hw/vm_hub_regs.h"
#include "ih.h"
#include "ip_discovery.h"
#include "nbio.h"
#include "page_table.h"
#include "pci.h"
#include "register_bases.h"
#include "vram_allocator.h"

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

namespace am {

class Gmc {
public:
  Gmc(Pci& pci, Nbio& nbio) : pci_(pci), nbio_(nbio) {}

  // GFXHUB from GC's table, MMHUB by its exact IP version (DeviceError when amcl has no table),
  // the page-table format of the GC generation, and where the VBIOS put the frame buffer in
  // the MC address space.
  void init_sw(const IpDiscovery& ip, const GcRegisters& gc);
  // gmc_v11_0_hw_init (mmhub gart_enable): the page directory (tables from `vram`), then
  // MMHUB's apertures, L1 TLB, L2 cache and VMID 0 context and fault defaults; its TLB
  // invalidated. GFXHUB waits for init_gfxhub: the RLC autoload resets the GC's VM registers.
  void init_hw(VramAllocator& vram);
  // gfx_v11_0_hw_init's gfxhub_enable, after wait_for_rlc_autoload_complete (tinygrad's
  // AM_GFX.init_hw: init_hub("GC") after the autoload): GFXHUB given the same VMID 0.
  void init_gfxhub();

  // The frame buffer's MC address (the PSP's and the SMU's addresses).
  uint64_t fb_base() const { return fb_base_; }
  PageTable& page_table() { return *pt_; }
  // After the page tables change: both VM hubs (those programmed so far) drop their cached translations of VMID 0
  // (INVALIDATE_ENG17_REQ, then ACK's VMID 0 bit), so the GPU sees new mappings and stops
  // reaching unmapped memory before that memory is reused.
  void invalidate_tlb();
  // Re-arms GCVM's protection-fault latch, so that the next fault is recorded.
  void rearm_fault_latch();
  // The IH handler of UTCL2 faults (gmc_v11_0_process_interrupt): the faulting address and
  // GCVM_L2_PROTECTION_FAULT_STATUS, then the latch re-armed.
  std::optional<DeviceFault> on_vm_fault(const hw::ih::IvEntry& iv);

private:
  // A VM hub's registers and their segment bases.
  struct VmHub {
    hw::VmHubRegs regs;
    RegisterBases bases;
    bool programmed = false; // an invalidation needs the hub's engine ranges set
    uint32_t reg(hw::Reg r) const { return bases(r); }
  };
  void init_hub(VmHub& hub);
  void invalidate_hub(const VmHub& hub);
  void init_hub_l2_and_fault_defaults(const VmHub& hub);
  static constexpr size_t kGfxhub = 0, kMmhub = 1; // indices into hubs_

  Pci& pci_;
  Nbio& nbio_;
  GcRegisters gc_;
  std::vector<VmHub> hubs_; // GFXHUB, MMHUB
  hw::gmc::PteFormat pte_format_ = hw::gmc::PteFormat::v11;
  uint64_t fb_base_ = 0;                       // the frame buffer's MC address
  uint64_t fb_top_ = 0;                        // its last byte
  uint64_t scratch_page_ = 0, fault_page_ = 0; // VRAM offsets: the hubs' default and fault pages
  std::unique_ptr<PageTable> pt_;
  std::mutex tlb_mutex_;
};

} // namespace am
