// GMC: both VM hubs given VMID 0 with one page directory (per-generation PTE formats and
// register tables), their apertures, L2 and fault defaults, and TLB invalidation.
#include "device_fixture.h"

#include "am/forwarding_pci.h"
#include "am/hw/discovery.h"
#include "am/hw/gc_generations.h"

using namespace am_test;

// Whole 2 MiB blocks of VRAM are mapped by one PDE-as-PTE entry, whose flag bit differs
// between GMC v11 (54) and v12 (63): a copy spanning two such blocks lands on both.
TEST_P(AmDevice, SdmaFillsAcrossHugePages) {
  am::Device dev(card());
  am::Allocation big = dev.alloc_vram(4u << 20);
  std::memset(big.cpu, 0, 4u << 20);
  am::SdmaBuilder b;
  b.const_fill(big.va + (2u << 20) - 64, 0xfeedf00d, 128);
  dev.wait(am::Engine::Sdma, dev.submit_sdma(b));
  const auto* w = reinterpret_cast<const uint32_t*>(big.cpu);
  EXPECT_EQ(w[(2u << 20) / 4 - 1], 0xfeedf00du);
  EXPECT_EQ(w[(2u << 20) / 4 + 15], 0xfeedf00du);
  EXPECT_EQ(w[(2u << 20) / 4 + 16], 0u);
  dev.free(big);
}

// The card caches translations (the model's TLBs, like the UTCL1/UTCL2): after free() the
// driver invalidates them, so a write to the freed address faults instead of reaching the
// old page through a cached translation.
TEST_P(AmDevice, FreedMemoryIsUnreachableOnceTheTlbIsInvalidated) {
  am::Device dev(card());
  am::Allocation mem = dev.alloc_vram(4096);
  am::Pm4Builder p;
  p.write_data_mem(mem.va, {1});
  dev.wait(am::Engine::Compute, dev.submit_compute(p)); // the MEC now has mem's page cached
  const uint64_t va = mem.va;
  dev.free(mem);
  const am::IpBlock* gc = dev.ip_discovery().find(am::hw::discovery::GC_HWID);
  ASSERT_NE(gc, nullptr);
  const am::hw::GcRegs& g = *am::hw::gc_regs_for(gc->major, gc->minor, gc->revision);
  const uint32_t ack = uint32_t(gc->bases[g.GCVM_INVALIDATE_ENG17_ACK.base_idx]) +
                       g.GCVM_INVALIDATE_ENG17_ACK.offset;
  EXPECT_EQ(dev.pci().reg_read32(ack) & 1u, 1u) << "VMID 0 invalidation acknowledged";
  am::Pm4Builder stale;
  stale.write_data_mem(va, {2});
  EXPECT_THROW(dev.wait(am::Engine::Compute, dev.submit_compute(stale)), am::DeviceError);
}

// The TLB keeps where a system page lies in host memory, but the IOMMU has the last word: once
// the page is unmapped there, a write through the still-cached translation is an IOMMU fault
// that leaves the memory alone, as on a card behind vfio, even when the driver forgot to
// invalidate the card's TLB.
TEST_P(AmDevice, IommuUnmapEndsAccessThoughTheTlbStillHoldsThePage) {
  auto gpu = card();
  am::Device dev(gpu);
  am::Allocation host = dev.alloc_system(4096);
  auto* word = reinterpret_cast<volatile uint32_t*>(host.cpu);
  *word = 0;
  am::Pm4Builder p;
  p.write_data_mem(host.va, {1});
  dev.wait(am::Engine::Compute, dev.submit_compute(p)); // the MEC now has the page cached
  EXPECT_EQ(*word, 1u);
  gpu->dma_unmap(host.cpu, host.size); // no TLB invalidation
  am::Pm4Builder stale;
  stale.write_data_mem(host.va, {2});
  EXPECT_THROW(dev.wait(am::Engine::Compute, dev.submit_compute(stale)), am::DeviceError);
  EXPECT_EQ(*word, 1u);
  gpu->dma_map(host.cpu, host.size); // for free() to unmap
  dev.free(host);
}

// The boot programs both VM hubs as amdgpu's gart_enable does: AGP off, the system aperture
// over the frame buffer's MC range, the L1 TLB on (0x1859), the L2 cache on. VMID 0 then
// reaches VRAM by MC address without a page walk: an SDMA copy from FB base + offset reads
// the allocation at that offset.
TEST_P(AmDevice, BothHubsOpenTheSystemApertureOverTheFrameBuffer) {
  auto gpu = card();
  am::Device dev(gpu);
  const sim::CardModel& m = gpu->model();
  const am::hw::VmHubRegs gfx = am::hw::gfxhub_regs(*m.gc);
  const uint64_t fb = sim::FbAperture::kFbBase;
  for (auto [h, reg] :
       {std::pair{&gfx, +[](const sim::CardModel&c, am::hw::Reg r) { return c.gc_reg(r); }},
        std::pair{m.mmhub,
                  +[](const sim::CardModel&c, am::hw::Reg r) { return c.mmhub_reg(r); }}}) {
    SCOPED_TRACE(h->name);
    auto read = [&](am::hw::Reg r) { return gpu->reg_read32(reg(m, r)); };
    EXPECT_EQ(read(h->MX_L1_TLB_CNTL) & 0x1fffu, 0x1859u);
    EXPECT_EQ(read(h->L2_CNTL) & 1u, 1u);
    EXPECT_GT(read(h->AGP_BOT), read(h->AGP_TOP)); // AGP off
    EXPECT_EQ(uint64_t(read(h->SYSTEM_APERTURE_LOW_ADDR)) << 18, fb);
    EXPECT_EQ((uint64_t(read(h->SYSTEM_APERTURE_HIGH_ADDR)) << 18) | 0x3ffff,
              fb + gpu->vram_bytes() - 1);
  }
  am::Allocation src = dev.alloc_vram(4096), dst = dev.alloc_vram(4096);
  for (uint32_t i = 0; i < 1024; ++i) reinterpret_cast<uint32_t*>(src.cpu)[i] = 0x5000 + i;
  std::memset(dst.cpu, 0, 4096);
  am::SdmaBuilder b;
  b.copy_linear(dst.va, fb + src.phys, 4096); // the source by MC address
  dev.wait(am::Engine::Sdma, dev.submit_sdma(b));
  EXPECT_EQ(reinterpret_cast<uint32_t*>(dst.cpu)[0], 0x5000u);
  EXPECT_EQ(reinterpret_cast<uint32_t*>(dst.cpu)[1023], 0x5000u + 1023);
  dev.free(src);
  dev.free(dst);
}

// A hub whose L1 TLB is off translates nothing: the SDMA engine cannot even fetch its ring (the
// queue halts and is found hung), and the queue goes on once the TLB is back.
TEST_P(AmDevice, AHubWithItsL1TlbOffTranslatesNothing) {
  auto gpu = card();
  setenv("AMCL_HANG_TIMEOUT_MS", "200", 1);
  am::Device dev(gpu);
  unsetenv("AMCL_HANG_TIMEOUT_MS");
  const sim::CardModel& m = gpu->model();
  const uint32_t l1 = m.gc_reg(m.gc->GCMC_VM_MX_L1_TLB_CNTL);
  am::Allocation vram = dev.alloc_vram(4096);
  const uint32_t on = gpu->reg_read32(l1);
  gpu->reg_write32(l1, on & ~1u);
  dev.free(dev.alloc_vram(4096)); // a page-table change: the cached translations go
  expect_sdma_fill_fails_until(dev, vram, 1, [&] { gpu->reg_write32(l1, on); });
}

// Both VM hubs get VMID 0 with the one page directory: GFXHUB for the CP, shaders and SDMA,
// MMHUB for the IH, whose ring writes reach memory only through it (the emulated IH faults and
// loses the interrupt when MMHUB's context is not set up; then the SDMA fault below would
// never be reported and its wait would run into the hang timeout).
TEST_P(AmDevice, BothVmHubsMapVmidZeroAndTheIhWritesThroughMmhub) {
  auto gpu = card();
  am::Device dev(gpu);
  const sim::CardModel& model = *sim::find_card_model(GetParam());
  const am::hw::VmHubRegs gfx = am::hw::gfxhub_regs(*model.gc), mm = *model.mmhub;
  auto gfx_reg = [&](am::hw::Reg r) { return gpu->reg_read32(model.gc_reg(r)); };
  auto mm_reg = [&](am::hw::Reg r) { return gpu->reg_read32(model.mmhub_reg(r)); };
  EXPECT_EQ(mm_reg(mm.CONTEXT0_CNTL), gfx_reg(gfx.CONTEXT0_CNTL));
  EXPECT_EQ(mm_reg(mm.CONTEXT0_CNTL) & 1u, 1u);
  // Every protection-fault interrupt on, as amdgpu's vm_fault_interrupt_state sets them.
  const uint32_t faults = am::hw::vm_context_fault_interrupts(gfx.block_size_shift);
  EXPECT_EQ(gfx_reg(gfx.CONTEXT0_CNTL) & faults, faults);
  EXPECT_EQ(mm_reg(mm.PAGE_TABLE_BASE_LO32), gfx_reg(gfx.PAGE_TABLE_BASE_LO32));
  EXPECT_EQ(mm_reg(mm.PAGE_TABLE_BASE_HI32), gfx_reg(gfx.PAGE_TABLE_BASE_HI32));
  EXPECT_EQ(mm_reg(mm.PAGE_TABLE_END_LO32), gfx_reg(gfx.PAGE_TABLE_END_LO32));
  EXPECT_EQ(mm_reg(mm.PAGE_TABLE_END_HI32), gfx_reg(gfx.PAGE_TABLE_END_HI32));

  const uint64_t posted = gpu->ih().posted();
  am::Allocation vram = dev.alloc_vram(4096);
  am::SdmaBuilder b;
  b.copy_linear(vram.va, 0x6100000000ull, 64); // never mapped: a VM fault, through the IH
  EXPECT_THROW(dev.wait(am::Engine::Sdma, dev.submit_sdma(b)), am::DeviceError);
  EXPECT_GT(gpu->ih().posted(), posted);
  EXPECT_EQ(gpu->ih().dropped(), 0u);
  dev.free(vram);
}

// Threads allocating and freeing at once each change the page table and invalidate the TLBs:
// every request still follows a flush made after the one before it (the CTS's vectors suite,
// whose threads did, drew the model's warning).
TEST_P(AmDevice, ConcurrentMappingsFlushBeforeEveryTlbInvalidation) {
  auto gpu = card();
  am::Device dev(gpu);
  const uint64_t faults = gpu->hdp_faults();
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&dev] {
      for (int i = 0; i < 5000; ++i) dev.free(dev.alloc_vram(4096));
    });
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(gpu->hdp_faults(), faults);
}

// Both hubs' L2 and fault handling as amdgpu's hub code leaves them: CNTL3..5 from their reset
// defaults with amdgpu's tuning, faults sent to the default page, PTE reads retried, and (GC) the
// CP not halted by a translation error; on every boot, over whatever an earlier session left.
TEST_P(AmDevice, TheHubsL2AndFaultDefaultsAreAmdgpus) {
  auto gpu = card(5);
  const sim::CardModel& m = gpu->model();
  const am::hw::VmHubRegs gfx = am::hw::gfxhub_regs(*m.gc), &mm = *m.mmhub;
  auto gc = [&](am::hw::Reg r) { return gpu->reg_read32(m.gc_reg(r)); };
  auto mmhub = [&](am::hw::Reg r) { return gpu->reg_read32(m.mmhub_reg(r)); };
  { am::Device first(gpu); }
  gpu->reg_write32(m.gc_reg(gfx.L2_CNTL3), 0);
  gpu->reg_write32(m.mmhub_reg(mm.L2_CNTL3), 0);
  gpu->reg_write32(m.gc_reg(gfx.L2_PROTECTION_FAULT_CNTL), 0);
  gpu->reg_write32(m.mmhub_reg(mm.L2_PROTECTION_FAULT_CNTL), 0);
  gpu->reg_write32(m.gc_reg(m.gc->CP_DEBUG), 0x10u); // a field amcl does not own
  am::Device dev(gpu);
  EXPECT_EQ(dev.boot_state(), am::BootState::FastReinit);
  auto expect_tuned = [](const am::hw::VmHubRegs& hub, auto read) {
    SCOPED_TRACE(hub.name);
    EXPECT_EQ(read(hub.L2_CNTL3), 0x80130009u); // BANK_SELECT 9, BIGK_FRAGMENT_SIZE 6
    EXPECT_EQ(read(hub.L2_CNTL4), 0x00000001u); // no physical PDE/PTE requests
    EXPECT_EQ(read(hub.L2_CNTL5), 0x00003fe0u); // SMALLK_FRAGMENT_SIZE 0
    EXPECT_EQ(read(hub.L2_PROTECTION_FAULT_CNTL) & 0xc0001ffcu, 0x1ffcu); // no CRASH_ON_*
    EXPECT_NE(read(hub.L2_PROTECTION_FAULT_CNTL2) & (1u << 18), 0u);
  };
  expect_tuned(gfx, gc);
  expect_tuned(mm, mmhub);
  EXPECT_EQ(gc(m.gc->CP_DEBUG), 0x8010u);
}

namespace {

// Watches the boot: before the PSP's first ring command (so before AUTOLOAD_RLC) it writes a
// marker into GFXHUB's VMID 0 context, and at the driver's first look at
// RLC_RLCS_BOOTLOAD_STATUS (the wait for the autoload) it notes what the marker became and
// whether the driver had written GFXHUB's context itself by then.
class AutoloadWatch : public am::ForwardingPci {
public:
  AutoloadWatch(std::shared_ptr<sim::Gpu> gpu)
      : ForwardingPci(gpu), m_(gpu->model()), hub_(am::hw::gfxhub_regs(*m_.gc)) {}
  void reg_write32(uint32_t index, uint32_t value) override {
    if (index == m_.psp_reg(m_.psp->ring_wptr) && !marked_) {
      card().reg_write32(m_.gc_reg(hub_.PAGE_TABLE_START_LO32), kMarker);
      marked_ = true;
    }
    if (index == m_.gc_reg(hub_.CONTEXT0_CNTL) && !waited_) gfxhub_before_autoload = true;
    card().reg_write32(index, value);
  }
  uint32_t reg_read32(uint32_t index) override {
    if (index == m_.gc_reg(m_.gc->RLC_RLCS_BOOTLOAD_STATUS) && !waited_) {
      waited_ = true;
      marker_after_autoload = card().reg_read32(m_.gc_reg(hub_.PAGE_TABLE_START_LO32));
    }
    return card().reg_read32(index);
  }
  static constexpr uint32_t kMarker = 0x5a5a;
  bool gfxhub_before_autoload = false;
  uint32_t marker_after_autoload = kMarker;

private:
  const sim::CardModel& m_;
  const am::hw::VmHubRegs hub_;
  bool marked_ = false, waited_ = false;
};

} // namespace

// The RLC autoload resets GC, GFXHUB's VM registers with it (the emulated card clears them at
// AUTOLOAD_RLC): the driver programs GFXHUB after the autoload, as gfx_v11_0_hw_init and
// tinygrad's AM_GFX.init_hw do, and MMHUB at GMC init. Programmed before, VMID 0 would be lost
// and the first submission would fault.
TEST_P(AmDevice, GfxhubIsProgrammedAfterTheRlcAutoloadWhichResetsIt) {
  auto gpu = card(8);
  auto watch = std::make_shared<AutoloadWatch>(gpu);
  am::Device dev(watch);
  EXPECT_EQ(watch->marker_after_autoload, 0u) << "the autoload left GFXHUB's registers";
  EXPECT_FALSE(watch->gfxhub_before_autoload) << "GFXHUB programmed before the RLC autoload";
  const sim::CardModel& m = gpu->model();
  const am::hw::VmHubRegs gfx = am::hw::gfxhub_regs(*m.gc);
  EXPECT_EQ(gpu->reg_read32(m.gc_reg(gfx.CONTEXT0_CNTL)) & 1u, 1u);
  EXPECT_EQ(gpu->reg_read32(m.gc_reg(gfx.PAGE_TABLE_BASE_LO32)) & 1u, 1u); // VALID
  EXPECT_EQ(gpu->invalidation_range_faults(), 0u); // no invalidation of an unprogrammed hub
  expect_compute_writes(dev, 0x600d);
  expect_sdma_fills(dev, 0x600e);
}

// MMHUB's TLB invalidation as gmc_v11_0_flush_gpu_tlb does it: engine 17's semaphore taken
// before the request and released after the ACK, then the private invalidation (CID2 bit 25).
TEST_P(AmDevice, MmhubInvalidationsHoldTheSemaphoreAndEndWithAPrivateOne) {
  auto gpu = card();
  am::Device dev(gpu);
  const uint64_t unguarded = gpu->unguarded_invalidations();
  const uint64_t privates = gpu->private_invalidations();
  dev.free(dev.alloc_vram(4096)); // a mapping and an unmapping: two invalidations
  EXPECT_EQ(gpu->unguarded_invalidations(), unguarded);
  EXPECT_EQ(gpu->unguarded_invalidations(), 0u);
  EXPECT_GE(gpu->private_invalidations(), privates + 2);
  const sim::CardModel& m = gpu->model();
  EXPECT_TRUE(m.mmhub->invalidate_semaphore);
  const uint32_t sem = m.mmhub_reg(m.mmhub->INVALIDATE_ENG17_SEM);
  EXPECT_EQ(gpu->reg_read32(sem), 1u) << "the driver left the semaphore held";
  EXPECT_EQ(gpu->reg_read32(sem), 0u) << "held by this test now";
  gpu->reg_write32(sem, 0);
  EXPECT_EQ(gpu->reg_read32(m.mmhub_reg(m.mmhub->L2_BANK_SELECT_RESERVED_CID2)) &
                am::hw::RESERVED_CACHE_PRIVATE_INVALIDATION,
            0u);
  gpu->reg_write32(sem, 0);
}

// Navi32 (GC 11.0.3; the model gives it MMHUB 3.0.2): both hubs' registers sit elsewhere than on
// Navi31, and the emulated card answers only at its own. The driver takes the tables by exact IP
// version, so it boots, runs both queues, waits on interrupts (the IH writes through MMHUB) and
// hears of a VM fault (GFXHUB's fault registers).
TEST(AmDeviceNavi32, BootsAndRunsThroughItsOwnVmRegisters) {
  auto gpu = sim::open_emulated_gpu("gfx1101", 80);
  am::Device dev(gpu);
  EXPECT_EQ(dev.info().gfx, "gfx1101");
  const sim::CardModel& m = gpu->model();
  EXPECT_NE(gpu->reg_read32(m.gc_reg(am::hw::kGc11_0_3.GCVM_CONTEXT0_CNTL)) &
                am::hw::VM_CONTEXT_CNTL_ENABLE,
            0u);
  EXPECT_NE(gpu->reg_read32(m.mmhub_reg(am::hw::kMmhub3_0_2.CONTEXT0_CNTL)) &
                am::hw::VM_CONTEXT_CNTL_ENABLE,
            0u);
  am::Allocation mem = dev.alloc_vram(8192);
  std::memset(mem.cpu, 0, 8192);
  am::Pm4Builder p;
  p.write_data_mem(mem.va, {0x1101});
  dev.wait(am::Engine::Compute, dev.submit_compute(p));
  am::SdmaBuilder s(dev.sdma_major());
  s.const_fill(mem.va + 4096, 0x32323232, 4096);
  dev.wait(am::Engine::Sdma, dev.submit_sdma(s));
  const auto* words = reinterpret_cast<const uint32_t*>(mem.cpu);
  EXPECT_EQ(words[0], 0x1101u);
  EXPECT_EQ(words[1024], 0x32323232u);
  EXPECT_EQ(words[2047], 0x32323232u);
  am::Pm4Builder wild;
  wild.write_data_mem(mem.va + (uint64_t(1) << 36), {1}); // nothing is mapped there
  EXPECT_THROW(dev.wait(am::Engine::Compute, dev.submit_compute(wild)), am::DeviceError);
  dev.wait(am::Engine::Compute, dev.submit_compute(p)); // and the queue goes on
  dev.free(mem);
}
