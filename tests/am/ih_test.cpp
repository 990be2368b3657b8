// IH: interrupts the boot enables reach the ring, and a VM fault the ring reports reaches the
// waiter once, with the fault latch re-armed.
#include "device_fixture.h"

using namespace am_test;

TEST_P(AmDevice, SdmaCopyOutsideAnyMappingFaultsAndTheQueueGoesOn) {
  auto gpu = card();
  am::Device dev(gpu);
  // The fault control's other fields (firmware defaults, here a pattern) survive the driver's
  // re-arming of the latch: amdgpu sets only CLEAR_PROTECTION_FAULT_STATUS_ADDR [0].
  const uint32_t fault_cntl = gpu->model().gc_reg(gpu->model().gc->GCVM_L2_PROTECTION_FAULT_CNTL);
  gpu->reg_write32(fault_cntl, 0x3ffffffcu);
  am::Allocation vram = dev.alloc_vram(4096);
  am::SdmaBuilder b;
  b.copy_linear(vram.va, 0x6000000000ull, 256); // source never mapped
  try {
    dev.wait(am::Engine::Sdma, dev.submit_sdma(b));
    ADD_FAILURE() << "the faulting copy completed without an error";
  } catch (const am::DeviceError& e) {
    EXPECT_NE(std::string(e.what()).find("page fault (read) at address 0x6000000000"),
              std::string::npos)
        << e.what();
  }
  EXPECT_EQ(gpu->reg_read32(fault_cntl), 0x3ffffffcu);
  b.clear();
  b.const_fill(vram.va, 0xdeadbeef, 64);
  dev.wait(am::Engine::Sdma, dev.submit_sdma(b)); // no error: the fault was reported once
  EXPECT_EQ(reinterpret_cast<uint32_t*>(vram.cpu)[0], 0xdeadbeefu);
  dev.free(vram);
}

// The boot turns on the interrupt sources its waits sleep on. A source turned off raises
// nothing, though the fence its packet carries is still written (the wait then polls).
TEST_P(AmDevice, EndOfPipeAndTrapInterruptsAreRaisedOnlyWhileEnabled) {
  auto gpu = card();
  am::Device dev(gpu);
  const sim::CardModel& m = gpu->model();
  const uint32_t cp_int = m.gc_reg(m.gc->CP_ME1_PIPE0_INT_CNTL),
                 sdma_cntl = m.gc_reg(m.gc->SDMA0_CNTL);
  const uint32_t cp_bits = am::hw::CP_INT_TIME_STAMP_ENABLE | am::hw::CP_INT_GENERIC0_ENABLE |
                           am::hw::CP_INT_OPCODE_ERROR_ENABLE;
  EXPECT_EQ(gpu->reg_read32(cp_int) & cp_bits, cp_bits);
  EXPECT_NE(gpu->reg_read32(sdma_cntl) & am::hw::SDMA_CNTL_TRAP_ENABLE, 0u);
  const uint64_t suppressed = gpu->suppressed_interrupts();
  uint64_t posted = gpu->ih().posted();
  dev.wait(am::Engine::Compute, dev.submit_compute(am::Pm4Builder{}));
  dev.wait(am::Engine::Sdma, dev.submit_sdma(am::SdmaBuilder(dev.sdma_major())));
  EXPECT_TRUE(eventually([&] { return gpu->ih().posted() >= posted + 2; })); // EOP and trap
  EXPECT_EQ(gpu->suppressed_interrupts(), suppressed);

  gpu->reg_write32(cp_int, gpu->reg_read32(cp_int) & ~am::hw::CP_INT_TIME_STAMP_ENABLE);
  gpu->reg_write32(sdma_cntl, gpu->reg_read32(sdma_cntl) & ~am::hw::SDMA_CNTL_TRAP_ENABLE);
  posted = gpu->ih().posted();
  const uint64_t c = dev.submit_compute(am::Pm4Builder{}),
                 d = dev.submit_sdma(am::SdmaBuilder(dev.sdma_major()));
  dev.wait(am::Engine::Compute, c);
  dev.wait(am::Engine::Sdma, d);
  EXPECT_TRUE(eventually([&] { return gpu->suppressed_interrupts() == suppressed + 2; }));
  EXPECT_EQ(gpu->ih().posted(), posted);
}

// The driver keeps a bounded list of the timeline ranges faults left unaccounted for. A value in
// the oldest range must still fail when it is waited for after many later faults: the list
// merges its oldest ranges instead of forgetting them.
TEST_P(AmDevice, AValueAFaultLeftUnaccountedForFailsAfterManyLaterFaults) {
  auto gpu = card();
  am::Device dev(gpu);
  am::Allocation vram = dev.alloc_vram(4096);
  am::SdmaBuilder bad, good;
  bad.copy_linear(vram.va, 0x6000000000ull, 256); // source never mapped
  good.const_fill(vram.va, 0xdeadbeef, 64);
  const uint64_t first_fault = dev.submit_sdma(bad); // nobody waits for it yet
  // The next wait takes the fault off the IH ring and fails; a clean wait after it moves the
  // driver's clean mark past the faulting value.
  EXPECT_THROW(dev.wait(am::Engine::Sdma, dev.submit_sdma(good)), am::DeviceError);
  dev.wait(am::Engine::Sdma, dev.submit_sdma(good));
  for (int i = 0; i < 100; ++i)
    EXPECT_THROW(dev.wait(am::Engine::Sdma, dev.submit_sdma(bad)), am::DeviceError) << i;
  EXPECT_THROW(dev.wait(am::Engine::Sdma, first_fault), am::DeviceError);
  dev.free(vram);
}
