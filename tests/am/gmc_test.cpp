// GMC: both VM hubs given VMID 0 with one page directory (per-generation PTE formats and
// register tables), their apertures, L2 and fault defaults, and TLB invalidation.
#include "device_fixture.h"

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
              fb + gpu->vram_size() - 1);
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
