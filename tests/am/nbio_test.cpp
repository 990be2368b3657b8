// SOC/NBIO as the boot leaves it: the doorbell aperture open, the S2A entries routing the CP's
// and SDMA 0's doorbells, and an HDP flush before every doorbell.
#include "device_fixture.h"

using namespace am_test;

namespace {

// With `block` applied an SDMA fill's doorbell never reaches the engine: the fill does not run.
// After `unblock`, the next doorbell carries both it and a second fill.
void expect_sdma_unheard_until_unblocked(am::Device& dev, const std::function<void()>& block,
                                         const std::function<void()>& unblock, uint32_t value) {
  am::Allocation mem = dev.alloc_vram(4096);
  std::memset(mem.cpu, 0, 4096);
  block();
  am::SdmaBuilder b;
  b.const_fill(mem.va, value, 64);
  const uint64_t dropped = dev.submit_sdma(b);
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_LT(dev.completed(am::Engine::Sdma), dropped);
  EXPECT_EQ(reinterpret_cast<uint32_t*>(mem.cpu)[0], 0u);
  unblock();
  b.clear();
  b.const_fill(mem.va + 64, value + 1, 64);
  dev.wait(am::Engine::Sdma, dev.submit_sdma(b)); // this doorbell carries both submissions
  EXPECT_EQ(reinterpret_cast<uint32_t*>(mem.cpu)[0], value);
  EXPECT_EQ(reinterpret_cast<uint32_t*>(mem.cpu)[16], value + 1);
  dev.free(mem);
}

} // namespace

namespace {

// A register anywhere in the card's register space, as a driver reaches it: through BAR5, or
// past it through NBIO's PCIe index/data pair.
uint32_t read_any(sim::Gpu& gpu, uint32_t index) {
  if (uint64_t(index) * 4 + 4 <= gpu.reg_bytes()) return gpu.reg_read32(index);
  const sim::CardModel& m = gpu.model();
  gpu.reg_write32(m.nbio_reg(m.nbio->PCIE_INDEX2), index * 4);
  return gpu.reg_read32(m.nbio_reg(m.nbio->PCIE_DATA2));
}
void write_any(sim::Gpu& gpu, uint32_t index, uint32_t value) {
  if (uint64_t(index) * 4 + 4 <= gpu.reg_bytes()) return gpu.reg_write32(index, value);
  const sim::CardModel& m = gpu.model();
  gpu.reg_write32(m.nbio_reg(m.nbio->PCIE_INDEX2), index * 4);
  gpu.reg_write32(m.nbio_reg(m.nbio->PCIE_DATA2), value);
}

} // namespace

// SOC init opens NBIO's doorbell aperture; while it is closed the bus drops doorbell writes
// and the engines never hear of new work.
TEST_P(AmDevice, DoorbellsReachTheEnginesOnlyThroughTheOpenAperture) {
  auto gpu = card();
  am::Device dev(gpu);
  const sim::CardModel& m = gpu->model();
  const uint32_t aperture = m.nbio_reg(m.nbio->RCC_DEV0_EPF0_RCC_DOORBELL_APER_EN);
  EXPECT_EQ(gpu->reg_read32(aperture) & 1u, 1u); // the boot opened it
  expect_sdma_unheard_until_unblocked(
      dev, [&] { gpu->reg_write32(aperture, 0); }, [&] { gpu->reg_write32(aperture, 1); }, 0x5a);
}

// NBIO 4.3.0 keeps its S2A doorbell routing past BAR5 (reached through PCIE_INDEX2/DATA2),
// NBIF 6.3.1 inside it. The boot routes the CP's doorbells (entries 0 and 3) and SDMA 0's
// range (entry 2: amdgpu's and tinygrad's values); without entry 2 the SDMA engine never
// hears its doorbell.
TEST_P(AmDevice, S2aEntriesRouteTheSdmaDoorbellRange) {
  auto gpu = card();
  am::Device dev(gpu);
  const sim::CardModel& m = gpu->model();
  const uint32_t entry0 = m.nbio_reg(m.nbio->S2A_DOORBELL_ENTRY_0_CTRL);
  EXPECT_EQ(read_any(*gpu, entry0 + 0), 0x30000007u);
  EXPECT_EQ(read_any(*gpu, entry0 + 3), 0x3000000du);
  EXPECT_EQ(read_any(*gpu, entry0 + 2), 0x3051001du);
  if (dev.info().gfx == "gfx1100") {
    EXPECT_GT(uint64_t(entry0) * 4, gpu->reg_bytes());
    EXPECT_EQ(gpu->reg_read32(entry0), 0xffffffffu); // nothing answers past the BAR
  }
  expect_sdma_unheard_until_unblocked(
      dev, [&] { write_any(*gpu, entry0 + 2, 0); },
      [&] { write_any(*gpu, entry0 + 2, 0x3051001d); }, 0x6a);
}

// The CPU's writes to VRAM through the BAR reach the engines only after an HDP flush: the
// driver flushes before every doorbell, TLB invalidation and PSP command, and the model drops
// (and counts) a doorbell that follows none.
TEST_P(AmDevice, EveryDoorbellFollowsAnHdpFlush) {
  auto gpu = card();
  am::Device dev(gpu);
  const uint64_t faults = gpu->hdp_faults(), flushes = gpu->nbio().hdp_flushes();
  am::Allocation mem = dev.alloc_vram(4096);
  am::Pm4Builder p;
  p.nop(4);
  dev.wait(am::Engine::Compute, dev.submit_compute(p));
  am::SdmaBuilder b;
  b.const_fill(mem.va, 7, 64);
  dev.wait(am::Engine::Sdma, dev.submit_sdma(b));
  EXPECT_EQ(gpu->hdp_faults(), faults);
  EXPECT_GE(gpu->nbio().hdp_flushes(), flushes + 3); // the page-table change and two doorbells
  // A doorbell that repeats the SDMA ring's current position, with no flush since the last.
  const uint32_t rptr = gpu->reg_read32(gpu->model().gc_reg(gpu->model().gc->SDMA0_QUEUE0_RB_RPTR));
  gpu->doorbell_write64(0x100 * 2, rptr);
  EXPECT_EQ(gpu->hdp_faults(), faults + 1);
  b.clear();
  b.const_fill(mem.va, 8, 64);
  dev.wait(am::Engine::Sdma, dev.submit_sdma(b)); // the driver's own doorbells still pass
  EXPECT_EQ(reinterpret_cast<uint32_t*>(mem.cpu)[0], 8u);
  EXPECT_EQ(gpu->hdp_faults(), faults + 1);
  dev.free(mem);
}
