// SDMA: engine 0 queue 0 copies and fills, runs only while unhalted, reports a bad packet, and
// encodes its packets for the card's SDMA version.
#include "device_fixture.h"

using namespace am_test;

TEST_P(AmDevice, SdmaCopiesBetweenVramAndSystemMemory) {
  am::Device dev(card());
  am::Allocation host = dev.alloc_system(8192), vram = dev.alloc_vram(8192);
  for (int i = 0; i < 2048; ++i) reinterpret_cast<uint32_t*>(host.cpu)[i] = 0xA5000000u + i;
  am::SdmaBuilder b;
  b.copy_linear(vram.va, host.va, 8192);
  dev.wait(am::Engine::Sdma, dev.submit_sdma(b));
  EXPECT_EQ(std::memcmp(vram.cpu, host.cpu, 8192), 0);
  b.clear();
  b.const_fill(vram.va + 4096, 0x12345678, 4096);
  dev.wait(am::Engine::Sdma, dev.submit_sdma(b));
  EXPECT_EQ(reinterpret_cast<uint32_t*>(vram.cpu)[1024], 0x12345678u);
  EXPECT_EQ(reinterpret_cast<uint32_t*>(vram.cpu)[1023], 0xA5000000u + 1023);
  dev.free(host);
  dev.free(vram);
}

// The SDMA engine raises SDMA_QUEUE_HANG for a packet it cannot execute, so the driver reports
// the error and resets the queue at once instead of waiting out the hang timeout (60 s).
TEST_P(AmDevice, BadSdmaPacketIsReportedWithoutWaitingForTheHangTimeout) {
  am::Device dev(card());
  am::SdmaBuilder bad;
  bad.words().push_back(am::hw::sdma::header(0x7f, 0)); // no such opcode
  expect_stop_reported_at_once(
      dev, am::Engine::Sdma, [&] { return dev.submit_sdma(bad); }, "SDMA queue stopped");
  expect_sdma_fills(dev, 0x600d);
}

// The SDMA engine is halted out of reset (SDMA0_F32_CNTL / SDMA0_MCU_CNTL.HALT) and the boot
// starts it; halted again, it leaves a submission alone until HALT is cleared, then runs it.
TEST_P(AmDevice, SdmaRunsOnlyWhileItsEngineIsUnhalted) {
  auto gpu = card();
  am::Device dev(gpu);
  const sim::CardModel& m = gpu->model();
  const uint32_t engine_cntl = m.gc_reg(m.gc->SDMA0_ENGINE_CNTL);
  EXPECT_EQ(gpu->reg_read32(engine_cntl) & am::hw::SDMA_ENGINE_CNTL_HALT, 0u);
  expect_held_while_set(*gpu, dev, engine_cntl, am::hw::SDMA_ENGINE_CNTL_HALT, am::Engine::Sdma,
                        0x5a, [&](uint64_t va) {
                          am::SdmaBuilder b(dev.sdma_major());
                          b.const_fill(va, 0x5a, 64);
                          return dev.submit_sdma(b);
                        });
}

// SDMA WRITE, POLL_REGMEM and COPY_LINEAR_SUB_WINDOW (whose pitch field moved between SDMA 6
// and 7: the builder encodes for the card's version).
TEST_P(AmDevice, SdmaWritePollAndSubWindowCopy) {
  am::Device dev(card());
  am::Allocation mem = dev.alloc_vram(1 << 16);
  std::memset(mem.cpu, 0, 1 << 16);
  auto* w = reinterpret_cast<uint32_t*>(mem.cpu);
  am::SdmaBuilder b(dev.sdma_major());
  b.poll_mem(mem.va, 3 /* == */, 1, 0xffffffff);
  b.write_linear(mem.va + 64, {10, 11, 12});
  const uint64_t done = dev.submit_sdma(b);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_LT(dev.completed(am::Engine::Sdma), done); // still polling
  std::atomic_ref<uint32_t>(w[0]).store(1);
  dev.wait(am::Engine::Sdma, done);
  EXPECT_EQ(w[16], 10u);
  EXPECT_EQ(w[18], 12u);
  // A 3 x 2 x 2 box of 4-byte elements from a 16-wide, 16-slice-pitch... source surface.
  const uint32_t src0 = 1024, dst0 = 8192; // dword offsets
  for (uint32_t i = 0; i < 1024; ++i) w[src0 + i] = 0x1000 + i;
  am::SdmaSurface src{mem.va + 4 * src0, 2, 1, 1, 16, 16 * 8};
  am::SdmaSurface dst{mem.va + 4 * dst0, 0, 0, 0, 4, 4 * 2};
  b.clear();
  b.copy_sub_window(dst, src, 2, 3, 2, 2);
  dev.wait(am::Engine::Sdma, dev.submit_sdma(b));
  for (uint32_t z = 0; z < 2; ++z)
    for (uint32_t y = 0; y < 2; ++y)
      for (uint32_t x = 0; x < 4; ++x) {
        const uint32_t got = w[dst0 + z * 8 + y * 4 + x];
        const uint32_t want = x < 3 ? 0x1000 + (1 + z) * 128 + (1 + y) * 16 + 2 + x : 0;
        EXPECT_EQ(got, want) << x << "," << y << "," << z;
      }
  dev.free(mem);
}

// The engine reads a packet's fixed dwords in one go (two reads where the packet crosses the
// ring's end). Batches of 13-dword sub-window copies, 7-dword linear copies and a varying
// count of one-dword NOPs go round the 64K-dword ring twice, so packets straddle its end at
// several offsets; every copy must land.
TEST_P(AmDevice, SdmaPacketsAcrossTheRingsEndExecuteWhole) {
  am::Device dev(card());
  constexpr uint32_t kCopies = 600, kBatches = 22;
  am::Allocation mem = dev.alloc_vram(1 << 20);
  auto* w = reinterpret_cast<uint32_t*>(mem.cpu);
  const uint32_t src0 = 0, dst0 = 64 * 1024; // dword offsets; two dwords a copy
  for (uint32_t batch = 0; batch < kBatches; ++batch) {
    for (uint32_t i = 0; i < 2 * kCopies; ++i) w[src0 + i] = batch << 20 | i;
    std::memset(w + dst0, 0, 8 * kCopies);
    am::SdmaBuilder b(dev.sdma_major());
    for (uint32_t n = 0; n < batch % 13; ++n) b.nop();
    for (uint32_t i = 0; i < kCopies; ++i) {
      const uint64_t src = mem.va + 4 * (src0 + 2 * i), dst = mem.va + 4 * (dst0 + 2 * i);
      if (i % 3) { // a 1 x 2 box of dwords as a sub-window, else a linear copy
        am::SdmaSurface s{src, 0, 0, 0, 1, 2}, d{dst, 0, 0, 0, 1, 2};
        b.copy_sub_window(d, s, 2, 1, 2, 1);
      } else {
        b.copy_linear(dst, src, 8);
      }
    }
    dev.wait(am::Engine::Sdma, dev.submit_sdma(b));
    for (uint32_t i = 0; i < 2 * kCopies; ++i)
      ASSERT_EQ(w[dst0 + i], batch << 20 | i) << "batch " << batch << ", dword " << i;
  }
  dev.free(mem);
}

// The engine's watchdog and UTCL1 as tinygrad's AM_SDMA.init_hw leaves them (on a card whose
// registers read 0 out of reset): QUEUE_HANG_COUNT 100, REDO_DELAY 9 | RESP_MODE 3 << 9,
// RD_L2_POLICY 2 << 12 | WR_L2_POLICY 3 << 14, and LLC_NOALLOC 1 << 24 on SDMA 6 only.
TEST_P(AmDevice, SdmaWatchdogAndUtcl1AsTinygradProgramsThem) {
  auto gpu = card();
  am::Device dev(gpu);
  const sim::CardModel& m = gpu->model();
  const bool sdma6 = dev.sdma_major() == 6;
  EXPECT_EQ(gpu->reg_read32(m.gc_reg(m.gc->SDMA0_WATCHDOG_CNTL)), 100u);
  EXPECT_EQ(gpu->reg_read32(m.gc_reg(m.gc->SDMA0_UTCL1_CNTL)), 0x609u);
  EXPECT_EQ(gpu->reg_read32(m.gc_reg(m.gc->SDMA0_UTCL1_PAGE)), sdma6 ? 0x0100E000u : 0xE000u);
  // The offsets per generation (tinygrad autogen/am/regs.py: gc_11_0_0 46/60/63, gc_12_0_0
  // 43/53/56, all BASE_IDX 0).
  EXPECT_EQ(m.gc->SDMA0_WATCHDOG_CNTL.offset, sdma6 ? 0x2eu : 0x2bu);
  EXPECT_EQ(m.gc->SDMA0_UTCL1_CNTL.offset, sdma6 ? 0x3cu : 0x35u);
  EXPECT_EQ(m.gc->SDMA0_UTCL1_PAGE.offset, sdma6 ? 0x3fu : 0x38u);
}
