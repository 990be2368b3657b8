// Submissions and timelines: work lost in a queue reset is reported, long SDMA streams are
// split between packets, and each submission leaves its write pointer at the poll address.
#include "device_fixture.h"

#include <atomic>
#include <thread>

using namespace am_test;

namespace {

// AMCL_HANG_TIMEOUT_MS for the devices opened while it lives (read when a Device is made).
struct HangLimit {
  explicit HangLimit(const char* ms) { setenv("AMCL_HANG_TIMEOUT_MS", ms, 1); }
  ~HangLimit() { unsetenv("AMCL_HANG_TIMEOUT_MS"); }
};

// A zeroed page of VRAM for the packets to wait on and write.
am::Allocation zeroed_page(am::Device& dev) {
  am::Allocation mem = dev.alloc_vram(4096);
  std::memset(mem.cpu, 0, 4096);
  return mem;
}

} // namespace

// Work queued behind a hang is thrown away by the queue reset: whoever waits for it later gets
// an error, not a completed timeline value for work that never ran.
TEST_P(AmDevice, WorkLostInAQueueResetReportsAnError) {
  const HangLimit limit("200");
  am::Device dev(card());
  am::Allocation mem = zeroed_page(dev);
  am::Pm4Builder hang, behind;
  hang.wait_mem(mem.va, am::hw::pm4::WAIT_EQ, 1, 0xffffffff); // nobody writes the 1
  behind.write_data_mem(mem.va + 64, {7});
  const uint64_t stuck = dev.submit_compute(hang), queued = dev.submit_compute(behind);
  EXPECT_THROW(dev.wait(am::Engine::Compute, stuck), am::DeviceError);
  try {
    dev.wait(am::Engine::Compute, queued);
    ADD_FAILURE() << "work thrown away by the reset reported success";
  } catch (const am::DeviceError& e) {
    EXPECT_NE(std::string(e.what()).find("before this work ran"), std::string::npos) << e.what();
  }
  EXPECT_EQ(reinterpret_cast<uint32_t*>(mem.cpu)[16], 0u);
  am::Pm4Builder after;
  after.write_data_mem(mem.va + 64, {9});
  dev.wait(am::Engine::Compute, dev.submit_compute(after), kAfterResetLimit); // works again
  EXPECT_EQ(reinterpret_cast<uint32_t*>(mem.cpu)[16], 9u);
  dev.free(mem);
}

// The hang limit is for the user's work: the boot's own submissions (the clock calibration)
// wait longer, or a host that leaves the emulated MEC unscheduled for the limit fails the boot.
// Under 1 ms, any descheduling of the MEC during a calibration sample would.
TEST_P(AmDevice, TheBootDoesNotTakeTheHangLimit) {
  const HangLimit limit("1");
  for (int i = 0; i < 3; ++i) {
    am::Device dev(card());
    EXPECT_EQ(dev.hang_timeout(), std::chrono::milliseconds(1));
  }
}

// A kernel queue may write the MEC's own control register (SET_UCONFIG_REG reaches
// CP_MEC_RS64_CNTL, in the UCONFIG window): a stream that clears the pipes' ACTIVE bits stops the
// MEC under its own queue. The hang's reset must start the MEC again, or every later submission
// hangs too (found by the pm4 fuzzer).
TEST_P(AmDevice, AQueueResetRestartsAMecTheStreamStopped) {
  setenv("AMCL_HANG_TIMEOUT_MS", "200", 1);
  auto gpu = card();
  am::Device dev(gpu);
  unsetenv("AMCL_HANG_TIMEOUT_MS");
  const sim::CardModel& m = gpu->model();
  am::Allocation mem = dev.alloc_vram(4096);
  std::memset(mem.cpu, 0, 4096);
  for (uint32_t cntl : {0u, am::hw::CP_MEC_RS64_HALT, am::hw::CP_MEC_RS64_ALL_PIPES_RESET}) {
    am::Pm4Builder stop;
    stop.set_uconfig_regs(m.gc_reg(m.gc->CP_MEC_RS64_CNTL), {cntl});
    stop.write_data_mem(mem.va, {1}); // never runs
    EXPECT_THROW(dev.wait(am::Engine::Compute, dev.submit_compute(stop)), am::DeviceError)
        << std::hex << cntl;
    am::Pm4Builder after;
    after.write_data_mem(mem.va + 64, {cntl + 9});
    dev.wait(am::Engine::Compute, dev.submit_compute(after), kAfterResetLimit); // works again
    EXPECT_EQ(reinterpret_cast<uint32_t*>(mem.cpu)[16], cntl + 9);
  }
  dev.free(mem);
}

// An SDMA stream longer than a ring (a rectangular copy of many short rows is one packet per
// row) goes as several submissions split between packets; the value returned completes after
// all of them. A stream the ring can never hold was refused after the timeline value was
// handed out, so later waits for that value never returned.
TEST_P(AmDevice, SdmaStreamsLongerThanTheRingAreSplitBetweenPackets) {
  am::Device dev(card());
  constexpr size_t kFills = 40000; // 5 dwords each: three rings' worth
  am::Allocation mem = dev.alloc_vram(kFills * 4);
  am::SdmaBuilder b;
  for (size_t i = 0; i < kFills; ++i) b.const_fill(mem.va + 4 * i, uint32_t(i * 7 + 1), 4);
  ASSERT_GT(b.words().size() * 4, 3 * 256 * 1024u);
  const uint64_t before = dev.submitted(am::Engine::Sdma);
  const uint64_t done = dev.submit_sdma(b);
  EXPECT_GE(done - before, b.words().size() / am::Device::kMaxSubmissionDwords);
  dev.wait(am::Engine::Sdma, done);
  const auto* v = reinterpret_cast<const uint32_t*>(mem.cpu);
  for (size_t i = 0; i < kFills; ++i) ASSERT_EQ(v[i], uint32_t(i * 7 + 1)) << i;
  // One packet larger than the ring cannot be submitted; the queue goes on.
  am::SdmaBuilder huge;
  huge.write_linear(mem.va, std::vector<uint32_t>(70000, 5));
  const uint64_t last = dev.submitted(am::Engine::Sdma);
  EXPECT_ANY_THROW(dev.submit_sdma(huge));
  EXPECT_EQ(dev.submitted(am::Engine::Sdma), last) << "a value was handed out for nothing";
  am::SdmaBuilder ok;
  ok.const_fill(mem.va, 0x600d, 64);
  dev.wait(am::Engine::Sdma, dev.submit_sdma(ok));
  EXPECT_EQ(v[0], 0x600du);
  dev.free(mem);
}

// Each submission leaves its write pointer at the queue's poll address before the doorbell, as
// amdgpu's set_wptr does: once the work ran, the poll address holds where the engine's read
// pointer stopped.
TEST_P(AmDevice, EachSubmissionLeavesItsWritePointerAtThePollAddress) {
  auto gpu = card();
  am::Device dev(gpu);
  const sim::CardModel& m = gpu->model();
  auto reg = [&](am::hw::Reg r) { return gpu->reg_read32(m.gc_reg(r)); };
  auto read64 = [&](uint64_t va) {
    uint64_t v = 0;
    gpu->gmc().read(va, &v, 8);
    return v;
  };
  dev.wait(am::Engine::Compute, dev.submit_compute(am::Pm4Builder{}));
  dev.wait(am::Engine::Sdma, dev.submit_sdma(am::SdmaBuilder(dev.sdma_major())));
  gpu->reg_write32(m.gc_reg(m.gc->GRBM_GFX_CNTL), am::hw::grbm_gfx_cntl(1, 0, 0, 0));
  const uint64_t cp_poll = uint64_t(reg(m.gc->CP_HQD_PQ_WPTR_POLL_ADDR)) |
                           uint64_t(reg(m.gc->CP_HQD_PQ_WPTR_POLL_ADDR_HI)) << 32;
  const uint32_t ring_dwords = 2u << (reg(m.gc->CP_HQD_PQ_CONTROL) & 0x3f); // QUEUE_SIZE = log2 - 1
  EXPECT_NE(read64(cp_poll), 0u);
  EXPECT_TRUE(eventually([&] {
    return read64(cp_poll) % ring_dwords == reg(m.gc->CP_HQD_PQ_RPTR);
  })) << read64(cp_poll)
      << " " << reg(m.gc->CP_HQD_PQ_RPTR);
  gpu->reg_write32(m.gc_reg(m.gc->GRBM_GFX_CNTL), 0);
  const uint64_t sdma_poll = uint64_t(reg(m.gc->SDMA0_QUEUE0_RB_WPTR_POLL_ADDR_LO)) |
                             uint64_t(reg(m.gc->SDMA0_QUEUE0_RB_WPTR_POLL_ADDR_HI)) << 32;
  EXPECT_NE(read64(sdma_poll), 0u);
  EXPECT_TRUE(eventually([&] { return read64(sdma_poll) == reg(m.gc->SDMA0_QUEUE0_RB_RPTR); }))
      << read64(sdma_poll) << " " << reg(m.gc->SDMA0_QUEUE0_RB_RPTR);
  // The SDMA ring as sdma_v6_0/v7_0_gfx_resume leaves it on bare metal: the firmware may poll
  // that address, the ring's own polling is off, the read pointer is written back every 2^4 x
  // 32 clocks, and indirect buffers are on.
  const uint32_t rb_cntl = reg(m.gc->SDMA0_QUEUE0_RB_CNTL);
  EXPECT_NE(rb_cntl & am::hw::SDMA_RB_CNTL_F32_WPTR_POLL_ENABLE, 0u);
  EXPECT_EQ(rb_cntl & (1u << 8), 0u) << "WPTR_POLL_ENABLE is for SR-IOV";
  EXPECT_EQ((rb_cntl >> am::hw::SDMA_RB_CNTL_RPTR_WRITEBACK_TIMER_SHIFT) & 0x1f,
            am::hw::kSdmaRptrWritebackTimer);
  EXPECT_NE(reg(m.gc->SDMA0_QUEUE0_IB_CNTL) & am::hw::SDMA_IB_CNTL_IB_ENABLE, 0u);
}

// A run of compute submissions with more_follow reaches the MEC with the run's last one: one
// doorbell, and one end-of-pipe interrupt for the lot. ring_compute (or a wait) hands over a
// run whose last submission never came.
TEST_P(AmDevice, ARunOfComputeSubmissionsGetsOneDoorbellAndOneInterrupt) {
  auto gpu = card();
  am::Device dev(gpu);
  am::Allocation mem = dev.alloc_vram(4096);
  std::memset(mem.cpu, 0, 4096);
  const auto* words = reinterpret_cast<volatile uint32_t*>(mem.cpu);
  const uint64_t booted = gpu->ih().posted();
  dev.wait(am::Engine::Compute, dev.submit_compute(am::Pm4Builder{}));
  // Its interrupt follows its signal's write (INT_SEL_SEND_AFTER_WRITE_CONFIRM): counted first.
  EXPECT_TRUE(eventually([&] { return gpu->ih().posted() > booted; }));
  const uint64_t posted = gpu->ih().posted();
  am::Pm4Builder a, b, c;
  a.write_data_mem(mem.va, {1});
  b.write_data_mem(mem.va + 4, {2});
  c.write_data_mem(mem.va + 8, {3});
  const uint64_t first = dev.submit_compute(a, true);
  dev.submit_compute(b, true);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_LT(dev.completed(am::Engine::Compute), first) << "ran before the run's doorbell";
  EXPECT_EQ(words[0], 0u);
  dev.wait(am::Engine::Compute, dev.submit_compute(c));
  EXPECT_EQ(words[0], 1u);
  EXPECT_EQ(words[1], 2u);
  EXPECT_EQ(words[2], 3u);
  // Likewise; the first two would have been posted before the MEC took the third packet.
  EXPECT_TRUE(eventually([&] { return gpu->ih().posted() - posted >= 1; }));
  EXPECT_EQ(gpu->ih().posted() - posted, 1u);

  am::Pm4Builder d, e;
  d.write_data_mem(mem.va + 12, {4});
  const uint64_t before_lone = gpu->ih().posted();
  const uint64_t lone = dev.submit_compute(d, true);
  dev.ring_compute();
  EXPECT_TRUE(eventually([&] { return dev.completed(am::Engine::Compute) >= lone; }));
  EXPECT_EQ(words[3], 4u);
  // The run went without its own interrupt: ring_compute's fence raises one, so a waiter
  // asleep on it wakes at its end.
  EXPECT_TRUE(eventually([&] { return gpu->ih().posted() > before_lone; }));
  e.write_data_mem(mem.va + 16, {5});
  dev.wait(am::Engine::Compute, dev.submit_compute(e, true)); // the wait hands it over
  EXPECT_EQ(words[4], 5u);
  dev.free(mem);
}

// An emulated card runs kernels thousands of times slower than a real one: its default hang
// limit is 10 minutes, not a real card's 60 s (a CTS image test's kernels ran past 60 s).
TEST_P(AmDevice, AnEmulatedCardWaitsTenMinutesBeforeCallingAQueueHung) {
  unsetenv("AMCL_HANG_TIMEOUT_MS");
  EXPECT_EQ(am::Device(card()).hang_timeout(), std::chrono::minutes(10));
  setenv("AMCL_HANG_TIMEOUT_MS", "1234", 1);
  EXPECT_EQ(am::Device(card()).hang_timeout(), std::chrono::milliseconds(1234));
  unsetenv("AMCL_HANG_TIMEOUT_MS");
}

// A wait far behind the engine is no hang while the work before it keeps finishing: twelve
// submissions each held 100 ms (1.2 s in all) pass a wait for the last under a 600 ms limit,
// and a queue that then stops moving is still called hung.
TEST_P(AmDevice, AWaitBehindWorkThatKeepsFinishingIsNoHang) {
  const HangLimit limit("600");
  am::Device dev(card());
  am::Allocation mem = zeroed_page(dev);
  auto* flags = reinterpret_cast<std::atomic<uint32_t>*>(mem.cpu);
  constexpr int kSteps = 12;
  uint64_t last = 0;
  for (int i = 0; i < kSteps; ++i) {
    am::Pm4Builder held;
    held.wait_mem(mem.va + 4 * i, am::hw::pm4::WAIT_EQ, 1, 0xffffffff);
    last = dev.submit_compute(held);
  }
  std::thread releaser([&] {
    for (int i = 0; i < kSteps; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      flags[i].store(1);
    }
  });
  EXPECT_NO_THROW(dev.wait(am::Engine::Compute, last));
  releaser.join();
  am::Pm4Builder stuck;
  stuck.wait_mem(mem.va + 4 * kSteps, am::hw::pm4::WAIT_EQ, 1, 0xffffffff); // nobody writes it
  EXPECT_THROW(dev.wait(am::Engine::Compute, dev.submit_compute(stuck)), am::DeviceError);
  dev.free(mem);
}
