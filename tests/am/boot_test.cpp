// Booting am::Device (DESIGN.md's three boot states): identification from the card's own
// discovery table, the full boot through the PSP and the SMU, the mode1 reset of a card another
// driver had, the fast re-init of one AM booted, and IP versions without a register table.
#include "device_fixture.h"

#include "am/hw/discovery.h"
#include "am/forwarding_pci.h"
#include "am/hw/mqd.h"
#include "am/hw/psp_gfx_if.h"
#include "sim/ip_discovery.h"

using namespace am_test;

INSTANTIATE_TEST_SUITE_P(Cards, AmDevice, testing::Values("gfx1100", "gfx1201"),
                         [](const auto& info) { return std::string(info.param); });

TEST_P(AmDevice, BootsFromTheCardsOwnDiscoveryTable) {
  am::Device dev(card());
  EXPECT_EQ(dev.info().gfx, GetParam());
  const am::IpBlock* gc = dev.ip_discovery().find(am::hw::discovery::GC_HWID);
  ASSERT_NE(gc, nullptr);
  if (dev.info().gfx == "gfx1201") {
    EXPECT_EQ(dev.info().device_id, 0x7550);
    EXPECT_EQ(gc->major * 100 + gc->minor * 10 + gc->revision, 1201);
    EXPECT_EQ(dev.info().compute_units, 64u);
    EXPECT_NE(dev.info().name.find("RX 9070 XT"), std::string::npos) << dev.info().name;
  } else {
    EXPECT_EQ(dev.info().device_id, 0x744c);
    EXPECT_EQ(gc->major * 100 + gc->minor * 10 + gc->revision, 1100);
    EXPECT_EQ(dev.info().compute_units, 96u);
  }
}

TEST_P(AmDevice, SecondBootInTheSameProcessSeesTheEarlierBoot) {
  auto gpu = card(1);
  {
    am::Device first(gpu);
    EXPECT_FALSE(first.booted_fast());
  }
  am::Device second(gpu);
  EXPECT_TRUE(second.booted_fast());
  am::Allocation mem = second.alloc_vram(4096);
  am::SdmaBuilder b;
  b.const_fill(mem.va, 5, 4096);
  second.wait(am::Engine::Sdma, second.submit_sdma(b));
  EXPECT_EQ(reinterpret_cast<uint32_t*>(mem.cpu)[1000], 5u);
  second.free(mem);
}

// A card nothing ran on: the driver loads the sOS through the PSP's bootloader, creates its
// ring, sizes and sets up the TMR, loads the SMU and graphics firmware, autoloads the RLC, then
// talks to the SMU. The PSP keeps the images in the TMR, in the boot region at the top of VRAM.
TEST_P(AmDevice, FreshCardBootsThroughThePspAndTheSmu) {
  auto gpu = card(2);
  EXPECT_FALSE(gpu->firmware().gfx_running);
  EXPECT_EQ(gpu->config_read32(am::kPciCommand) & am::kPciCommandBusMaster, 0u);
  am::Device dev(gpu);
  EXPECT_EQ(dev.boot_state(), am::BootState::Fresh);
  EXPECT_NE(gpu->config_read32(am::kPciCommand) & am::kPciCommandBusMaster, 0u);
  EXPECT_EQ(dev.firmware_source(), "synthetic");
  EXPECT_EQ(dev.smu_version(), gpu->model().smu_version);
  EXPECT_TRUE(gpu->firmware().smu_running);
  EXPECT_TRUE(gpu->firmware().gfx_running);
  const bool gfx11 = dev.info().gfx == "gfx1100";
  // Synthetic images start with "AMCL <file>[ <piece>]", then a byte pattern (firmware_set.cpp):
  // RLC_G is the RLC file's bare tag followed by the pattern's first byte.
  const std::string rlc_tag = gfx11 ? "AMCL gc_11_0_0_rlc.bin" : "AMCL gc_12_0_1_rlc.bin";
  const std::string rlc_g = rlc_tag + char(uint8_t(rlc_tag.size() * 7 + 3));
  const std::string sdma = gfx11 ? "AMCL sdma_6_0_0.bin ctx" : "AMCL sdma_7_0_1.bin";
  const uint64_t boot_region = boot_region_of(*gpu);
  // The driver stages each image in one buffer, which the last (RLC_G) image overwrote, and the
  // PSP copies each into the TMR: the first image (SDMA's) is there once, RLC_G twice.
  const size_t at = find_in_vram(*gpu, boot_region, sdma);
  ASSERT_NE(at, std::string::npos) << sdma << " is not in the TMR";
  EXPECT_EQ(find_in_vram(*gpu, at + 1, sdma), std::string::npos);
  const size_t g1 = find_in_vram(*gpu, boot_region, rlc_g);
  ASSERT_NE(g1, std::string::npos);
  EXPECT_NE(find_in_vram(*gpu, g1 + 1, rlc_g), std::string::npos);
  EXPECT_NE(find_in_vram(*gpu, boot_region, rlc_tag + " part 26"), std::string::npos); // RLC IRAM
  // The PSP was given MC addresses (the frame buffer aperture), not GPU virtual ones: its
  // bootloader buffer register points into the aperture.
  const uint64_t msg1 = uint64_t(gpu->reg_read32(gpu->model().psp_reg(gpu->model().psp->bl_addr)))
                        << 20;
  EXPECT_GE(msg1, sim::FbAperture::kFbBase);
  EXPECT_LT(msg1, sim::FbAperture::kFbBase + gpu->vram_bytes());
  expect_sdma_fills(dev, 0x77);
  // Every TLB invalidation so far (boot, the mapping above, its unmapping) reached all of
  // VMID 0: the engines' address ranges were programmed first.
  EXPECT_EQ(gpu->invalidation_range_faults(), 0u);
  // The compute HQD's control registers start from their reset values, as amdgpu's do (a
  // register written 0 would lose bits the MEC firmware expects).
  const sim::CardModel& m = gpu->model();
  const am::hw::GcRegs& g = *m.gc;
  auto gc = [&](am::hw::Reg r) { return m.gc_reg(r); };
  auto hqd = [&](uint32_t idx) {
    return gpu->reg_read32(gc(g.CP_MQD_BASE_ADDR) + (idx - am::hw::mqd::kHqdFirst));
  };
  gpu->reg_write32(gc(g.GRBM_GFX_CNTL), am::hw::grbm_gfx_cntl(1, 0, 0, 0));
  EXPECT_EQ(hqd(am::hw::mqd::cp_hqd_persistent_state), 0x0be05501u);
  EXPECT_EQ(hqd(am::hw::mqd::cp_hqd_ib_control), 0x00300000u);
  EXPECT_EQ(hqd(am::hw::mqd::cp_mqd_control), 0x00000100u);
  EXPECT_EQ(hqd(am::hw::mqd::cp_hqd_pq_control) & ~0x3fu, 0xD0308500u);
  EXPECT_EQ(hqd(am::hw::mqd::cp_hqd_active), 1u);
  gpu->reg_write32(gc(g.GRBM_GFX_CNTL), 0);
}

// The compute queue's priorities, quantum and HQ_STATUS0 as tinygrad's AM_GFX.setup_ring and
// amdgpu's high-priority compute MQD set them (gfx_v11_0_compute_mqd_init).
TEST_P(AmDevice, TheComputeQueueHasAmdgpusPrioritiesAndQuantum) {
  auto gpu = card();
  am::Device dev(gpu);
  const sim::CardModel& m = gpu->model();
  const am::hw::GcRegs& g = *m.gc;
  auto hqd = [&](uint32_t idx) {
    return gpu->reg_read32(m.gc_reg(g.CP_MQD_BASE_ADDR) + (idx - am::hw::mqd::kHqdFirst));
  };
  gpu->reg_write32(m.gc_reg(g.GRBM_GFX_CNTL), am::hw::grbm_gfx_cntl(1, 0, 0, 0));
  EXPECT_EQ(hqd(am::hw::mqd::cp_hqd_pipe_priority), 2u);
  EXPECT_EQ(hqd(am::hw::mqd::cp_hqd_queue_priority), 15u);
  EXPECT_EQ(hqd(am::hw::mqd::cp_hqd_quantum), 0x111u);
  EXPECT_EQ(hqd(am::hw::mqd::cp_hqd_hq_status0), 0x20004000u);
  gpu->reg_write32(m.gc_reg(g.GRBM_GFX_CNTL), 0);
  expect_compute_writes(dev, 0x9a);
}

namespace {

// Times the PSP's ring creation: from the write of INIT_GPCOM_RING to C2PMSG_64 to the driver's
// next look at C2PMSG_64.
class RingCreateWatch : public am::ForwardingPci {
public:
  RingCreateWatch(std::shared_ptr<sim::Gpu> gpu) : ForwardingPci(gpu), m_(gpu->model()) {}
  void reg_write32(uint32_t index, uint32_t value) override {
    if (index == m_.psp_reg(m_.psp->ring_cmd) &&
        value == am::hw::psp::GFX_CTRL_CMD_ID_INIT_GPCOM_RING)
      written_ = std::chrono::steady_clock::now(), pending_ = true;
    card().reg_write32(index, value);
  }
  uint32_t reg_read32(uint32_t index) override {
    if (index == m_.psp_reg(m_.psp->ring_cmd) && pending_) {
      pending_ = false;
      first_poll_after = std::chrono::steady_clock::now() - written_;
    }
    return card().reg_read32(index);
  }
  std::chrono::steady_clock::duration first_poll_after{-1};

private:
  const sim::CardModel& m_;
  std::chrono::steady_clock::time_point written_;
  bool pending_ = false;
};

} // namespace

// psp_v13_0_ring_create (and tinygrad's AM_PSP) wait 20 ms after writing the ring command
// before polling for its response; the driver does so on every card.
TEST_P(AmDevice, ThePspRingIsPolledTwentyMillisecondsAfterItsCreation) {
  auto gpu = card(9);
  auto watch = std::make_shared<RingCreateWatch>(gpu);
  am::Device dev(watch);
  EXPECT_EQ(dev.boot_state(), am::BootState::Fresh);
  EXPECT_GE(watch->first_poll_after, std::chrono::milliseconds(am::hw::psp::kRingCreateDelayMs));
  EXPECT_EQ(am::hw::psp::kRingCreateDelayMs, 20u);
}

// A card whose firmware runs without AM's marker (amdgpu had it) is mode1-reset first, and the
// driver leaves it alone while it resets (the emulated chip counts accesses it could not take).
TEST_P(AmDevice, CardAnotherDriverInitialisedIsResetThenBooted) {
  auto gpu = card(3);
  gpu->assume_booted_by_another_driver();
  am::Device dev(gpu);
  EXPECT_EQ(dev.boot_state(), am::BootState::ResetThenFull);
  EXPECT_EQ(gpu->mode1_resets(), 1u);
  EXPECT_EQ(gpu->accesses_during_reset(), 0u);
  EXPECT_EQ(gpu->undecoded_accesses(), 0u);        // config space restored before the first access
  EXPECT_NE(gpu->config_read32(0x24) & ~0xfu, 0u); // BAR5 has its address back
  EXPECT_EQ(dev.firmware_source(), "synthetic");
  expect_compute_writes(dev, 5);
}

// AM_RESET=1 turns the fast re-init into a reset and a full boot; the boot region is outside
// every later allocation, so the TMR the PSP filled survives sessions.
TEST_P(AmDevice, AmResetForcesTheFullBootAndBootMemoryIsNeverReused) {
  auto gpu = card(4);
  { am::Device first(gpu); }
  const uint64_t boot_region = boot_region_of(*gpu), boot_end = boot_region + (32ull << 20);
  {
    am::Device fast(gpu);
    EXPECT_EQ(fast.boot_state(), am::BootState::FastReinit);
    EXPECT_EQ(fast.firmware_source(), "");
    // All of VRAM: beyond the BAR in large blocks, then what is left inside it.
    std::vector<am::Allocation> all;
    try {
      for (;;) all.push_back(fast.alloc_vram_gpu(256ull << 20));
    } catch (const am::DeviceError&) {
    }
    EXPECT_GT(all.size(), 8u);
    try {
      for (;;) all.push_back(fast.alloc_vram(16ull << 20));
    } catch (const am::DeviceError&) {
    }
    for (const am::Allocation& a : all) {
      EXPECT_TRUE(a.phys + a.size <= boot_region || a.phys >= boot_end) << a.phys;
      fast.free(a);
    }
  }
  EXPECT_EQ(gpu->hqd_cleared_while_active(), 0u); // each session's end dequeued the queue
  ::setenv("AM_RESET", "1", 1);
  am::Device forced(gpu);
  ::unsetenv("AM_RESET");
  EXPECT_EQ(forced.boot_state(), am::BootState::ResetThenFull);
  EXPECT_EQ(gpu->mode1_resets(), 1u);
  EXPECT_EQ(gpu->accesses_during_reset(), 0u);
}

// An IP version amcl has no register table for is refused by name before any register is
// written, never driven with the nearest table: the card's discovery table is rewritten to
// list an APU's GC 11.0.1 or MMHUB 3.0.1.
TEST(AmDeviceIpVersions, AVersionWithoutATableIsRefusedByName) {
  struct Case {
    uint16_t hwid;
    uint8_t revision;
    const char* expected;
  };
  unsigned index = 81;
  for (const Case& c : {Case{am::hw::discovery::GC_HWID, 1, "GC IP version 11.0.1 is not known"},
                        Case{am::hw::discovery::MMHUB_HWID, 1, "(MMHUB 3.0.1)"}}) {
    auto gpu = sim::open_emulated_gpu("gfx1100", index++);
    std::vector<sim::IpBlockModel> blocks = gpu->model().blocks;
    for (sim::IpBlockModel& b : blocks)
      if (b.hw_id == c.hwid) b.revision = c.revision;
    const std::vector<uint8_t> bin = sim::build_ip_discovery(blocks);
    std::memcpy(gpu->chip_vram() + gpu->vram_bytes() - am::hw::discovery::kOffsetFromVramTop,
                bin.data(), bin.size());
    try {
      am::Device dev(gpu);
      ADD_FAILURE() << "booted with " << c.expected;
    } catch (const am::DeviceError& e) {
      EXPECT_NE(std::string(e.what()).find(c.expected), std::string::npos) << e.what();
    }
  }
}
