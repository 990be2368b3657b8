// The emulated MEC's start-up contract (sim/mec_control.h): the RLC autoload's status and its
// end state, the per-pipe program counter start banked by GRBM_GFX_CNTL, and pipe 0 running
// only when released, unhalted, active and at its firmware's entry.
#include "am/hw/gc_regs.h"
#include "sim/card_model.h"
#include "sim/mec_control.h"
#include "sim/psp.h"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

namespace {

using namespace am::hw;

constexpr uint64_t kEntry = 0x5'0000'4000; // dword address 0x1'4000'1000

class MecControlTest : public testing::TestWithParam<const char*> {
protected:
  const sim::CardModel& model = *sim::find_card_model(GetParam());
  sim::FirmwareState fw;
  sim::MecControl mec{model, fw, 0};
  uint32_t grbm = 0;

  uint32_t read(Reg r) {
    uint32_t v = 0xdeadbeef;
    EXPECT_TRUE(mec.read(model.gc_reg(r), grbm, v));
    return v;
  }
  bool write(Reg r, uint32_t v) {
    bool started = false;
    EXPECT_TRUE(mec.write(model.gc_reg(r), v, grbm, started));
    return started;
  }
  // What the PSP does at AUTOLOAD_RLC with the MEC image loaded; `done_in` from now.
  void autoload(std::chrono::milliseconds done_in) {
    fw.gfx_running = true;
    fw.mec_entry = kEntry;
    fw.autoload_done_ns = (std::chrono::steady_clock::now() + done_in).time_since_epoch().count();
  }
  void set_start(uint32_t pipe, uint64_t entry) {
    grbm = grbm_gfx_cntl(1, pipe, 0, 0);
    write(model.gc->CP_MEC_RS64_PRGRM_CNTR_START, rs64_prgrm_cntr_start(entry));
    write(model.gc->CP_MEC_RS64_PRGRM_CNTR_START_HI, rs64_prgrm_cntr_start_hi(entry));
    grbm = 0;
  }
  // config_gfx_rs64's reset pulse, then cp_compute_enable; returns whether pipe 0 started.
  bool pulse_and_enable() {
    const uint32_t c = read(model.gc->CP_MEC_RS64_CNTL);
    write(model.gc->CP_MEC_RS64_CNTL, c | CP_MEC_RS64_ALL_PIPES_RESET);
    write(model.gc->CP_MEC_RS64_CNTL, c & ~CP_MEC_RS64_ALL_PIPES_RESET);
    return write(model.gc->CP_MEC_RS64_CNTL,
                 (c & ~(CP_MEC_RS64_ALL_PIPES_RESET | CP_MEC_RS64_HALT)) |
                     CP_MEC_RS64_ALL_PIPES_ACTIVE);
  }
};

TEST_P(MecControlTest, TheStartRegistersSplitTheEntrysDwordAddressAsAmdgpuDoes) {
  // ucode_start_addr_lo >> 2 | ucode_start_addr_hi << 30, and ucode_start_addr_hi >> 2.
  EXPECT_EQ(rs64_prgrm_cntr_start(kEntry),
            (uint32_t(kEntry) >> 2) | (uint32_t(kEntry >> 32) << 30));
  EXPECT_EQ(rs64_prgrm_cntr_start_hi(kEntry), uint32_t(kEntry >> 32) >> 2);
  EXPECT_EQ(rs64_prgrm_cntr_start(kEntry), 0x40001000u);
  EXPECT_EQ(rs64_prgrm_cntr_start_hi(kEntry), 1u);
  EXPECT_EQ(sim::MecControl::kHalted, 0x40000000u);     // MEC_HALT [30]
  EXPECT_EQ(CP_MEC_RS64_ALL_PIPES_RESET, 0x000f0000u);  // PIPE0..3_RESET [19:16]
  EXPECT_EQ(CP_MEC_RS64_ALL_PIPES_ACTIVE, 0x3c000000u); // PIPE0..3_ACTIVE [29:26]
  EXPECT_EQ(RLC_BOOTLOAD_COMPLETE, 0x80000000u);
}

TEST_P(MecControlTest, TheAutoloadIsBusyUntilItEndsAndItsEndHaltsTheMec) {
  EXPECT_EQ(read(model.gc->RLC_RLCS_BOOTLOAD_STATUS), 0u); // no autoload since power-on
  autoload(std::chrono::milliseconds(400)); // long enough that a busy host reads it busy
  EXPECT_EQ(read(model.gc->RLC_RLCS_BOOTLOAD_STATUS), 0u);
  EXPECT_NE(read(model.gc->CP_STAT), 0u);
  // A driver that does not wait: its start-up is overwritten when the autoload ends.
  set_start(0, kEntry);
  EXPECT_FALSE(pulse_and_enable());
  std::this_thread::sleep_for(std::chrono::milliseconds(450));
  EXPECT_EQ(read(model.gc->RLC_RLCS_BOOTLOAD_STATUS), RLC_BOOTLOAD_COMPLETE);
  EXPECT_EQ(read(model.gc->CP_STAT), 0u);
  EXPECT_EQ(read(model.gc->CP_MEC_RS64_CNTL), sim::MecControl::kHalted);
  EXPECT_FALSE(mec.pipe0_running());
  EXPECT_EQ(mec.start_faults(), 0u);
}

TEST_P(MecControlTest, PipeZeroRunsOnlyFromItsFirmwaresEntry) {
  autoload(std::chrono::milliseconds(0));
  ASSERT_EQ(read(model.gc->RLC_RLCS_BOOTLOAD_STATUS), RLC_BOOTLOAD_COMPLETE);
  // Released without a program counter start: the pipe would run from 0.
  EXPECT_FALSE(pulse_and_enable());
  EXPECT_FALSE(mec.pipe0_running());
  EXPECT_EQ(mec.start_faults(), 1u);
  // The start written after the resets were released, so not taken: still from 0.
  write(model.gc->CP_MEC_RS64_CNTL, sim::MecControl::kHalted);
  write(model.gc->CP_MEC_RS64_CNTL, CP_MEC_RS64_HALT | CP_MEC_RS64_ALL_PIPES_ACTIVE);
  set_start(0, kEntry);
  write(model.gc->CP_MEC_RS64_CNTL, CP_MEC_RS64_ALL_PIPES_ACTIVE);
  EXPECT_FALSE(mec.pipe0_running());
  EXPECT_EQ(mec.start_faults(), 2u);
  // One dword off.
  write(model.gc->CP_MEC_RS64_CNTL, sim::MecControl::kHalted);
  set_start(0, kEntry + 4);
  EXPECT_FALSE(pulse_and_enable());
  EXPECT_EQ(mec.start_faults(), 3u);
  // Another pipe's start is not pipe 0's, and a write selecting ME 0 reaches no MEC pipe.
  write(model.gc->CP_MEC_RS64_CNTL, sim::MecControl::kHalted);
  set_start(1, kEntry);
  grbm = grbm_gfx_cntl(0, 0, 0, 0);
  write(model.gc->CP_MEC_RS64_PRGRM_CNTR_START, rs64_prgrm_cntr_start(kEntry));
  EXPECT_FALSE(pulse_and_enable());
  grbm = grbm_gfx_cntl(1, 0, 0, 0);
  EXPECT_EQ(read(model.gc->CP_MEC_RS64_PRGRM_CNTR_START), rs64_prgrm_cntr_start(kEntry + 4));
  // amdgpu's sequence.
  write(model.gc->CP_MEC_RS64_CNTL, sim::MecControl::kHalted);
  set_start(0, kEntry);
  EXPECT_TRUE(pulse_and_enable());
  EXPECT_TRUE(mec.pipe0_running());
  const uint64_t faults = mec.start_faults();
  // Halting stops it, unhalting starts it again; so does a pipe reset pulse.
  const uint32_t running = read(model.gc->CP_MEC_RS64_CNTL);
  EXPECT_FALSE(write(model.gc->CP_MEC_RS64_CNTL, running | CP_MEC_RS64_HALT));
  EXPECT_FALSE(mec.pipe0_running());
  EXPECT_TRUE(write(model.gc->CP_MEC_RS64_CNTL, running));
  EXPECT_FALSE(write(model.gc->CP_MEC_RS64_CNTL, running & ~(1u << CP_MEC_RS64_PIPE_ACTIVE_SHIFT)));
  EXPECT_FALSE(mec.pipe0_running());
  EXPECT_TRUE(pulse_and_enable());
  EXPECT_EQ(mec.start_faults(), faults);
  // A mode1 reset: halted, no autoload.
  fw.autoload_done_ns = 0;
  mec.reset();
  EXPECT_FALSE(mec.pipe0_running());
  EXPECT_EQ(read(model.gc->RLC_RLCS_BOOTLOAD_STATUS), 0u);
  EXPECT_EQ(read(model.gc->CP_MEC_RS64_CNTL), sim::MecControl::kHalted);
}

TEST_P(MecControlTest, OtherRegistersAreNotTheMecs) {
  uint32_t v = 0;
  bool started = false;
  EXPECT_FALSE(mec.read(model.gc_reg(model.gc->GRBM_GFX_CNTL), 0, v));
  EXPECT_FALSE(mec.write(model.gc_reg(model.gc->CP_HQD_ACTIVE), 1, 0, started));
  EXPECT_FALSE(started);
}

INSTANTIATE_TEST_SUITE_P(Cards, MecControlTest, testing::Values("gfx1100", "gfx1201"));

} // namespace
