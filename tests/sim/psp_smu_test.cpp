// The emulated PSP and SMU against their register contract (am/hw/mp_regs.h, psp_gfx_if.h):
// the bootloader's component order, the GPCOM ring and its commands' order rules, the firmware
// start states, and the SMU mailbox with and without firmware.
#include "am/hw/psp_gfx_if.h"
#include "sim/card_model.h"
#include "sim/fb_aperture.h"
#include "sim/psp.h"
#include "sim/smu.h"
#include "tests/sim/flat_memory.h"

#include <gtest/gtest.h>

#include <cstring>

namespace {

using namespace am::hw;
using namespace am::hw::psp;

constexpr uint64_t kMem = 0x1000000;                        // 16 MiB of fake VMID 0 memory at 16 MiB
constexpr uint64_t kMsg1 = 0x1100000, kRing = 0x1200000, kCmdBuf = 0x1210000, kFence = 0x1211000,
                   kTmr = 0x1400000, kImage = 0x1220000, kBootTmr = 0x1c00000;

class PspSmu : public testing::Test {
protected:
  explicit PspSmu(const char* card = "gfx1100") : model(*sim::find_card_model(card)) {}
  sim::RegisterFile regs;
  const sim::CardModel& model;
  sim::test::FlatMemory<kMem, 16u << 20> mem;
  sim::FirmwareState fw;
  sim::Smu smu{regs, model, fw, 0};
  sim::Psp psp{regs, model, mem, fw, smu, 0, kBootTmr};
  uint32_t wptr = 0;

  uint32_t read(Reg r, bool smu_reg = false) { return regs.read(smu_reg ? model.smu_reg(r) : model.psp_reg(r)); }
  void write(Reg r, uint32_t v) { ASSERT_TRUE(psp.write(model.psp_reg(r), v)); }
  void bootload(uint32_t command) {
    mem.put<uint32_t>(kMsg1, 0x12345678); // a non-empty component
    write(model.psp->bl_addr, uint32_t(kMsg1 >> 20));
    write(model.psp->bl_cmd, command);
  }
  void start_sos() {
    for (uint32_t c : {BL_LOAD_KEY_DATABASE, BL_LOAD_SYSDRV, BL_LOAD_SOSDRV}) bootload(c);
    ASSERT_NE(read(model.psp->sos_alive), 0u);
    write(model.psp->ring_lo, uint32_t(kRing));
    write(model.psp->ring_hi, 0);
    write(model.psp->ring_size, 0x1000);
    write(model.psp->ring_cmd, GFX_CTRL_CMD_ID_INIT_GPCOM_RING);
    ASSERT_EQ(read(model.psp->ring_cmd), GFX_FLAG_RESPONSE);
  }
  // Submits one command (its fields from +28 as given) and returns the PSP's response status.
  uint32_t submit(uint32_t id, std::initializer_list<uint32_t> fields) {
    std::memset(&mem.bytes[kCmdBuf - kMem], 0, kCmdBufBytes);
    mem.put<uint32_t>(kCmdBuf + kCmdId, id);
    uint64_t at = kCmdBuf + kCmd;
    for (uint32_t f : fields) mem.put<uint32_t>(at, f), at += 4;
    const uint64_t frame = kRing + wptr * 4;
    mem.put<uint32_t>(frame + kFrameCmdBufLo, uint32_t(kCmdBuf));
    mem.put<uint32_t>(frame + kFrameFenceLo, uint32_t(kFence));
    mem.put<uint32_t>(frame + kFrameFenceValue, wptr + 16);
    wptr += 16;
    write(model.psp->ring_wptr, wptr);
    EXPECT_EQ(mem.get<uint32_t>(kFence), wptr) << "fence not written";
    return mem.get<uint32_t>(kCmdBuf + kResp + kRespStatus);
  }
  uint32_t load_ip_fw(uint32_t type) {
    return submit(GFX_CMD_ID_LOAD_IP_FW, {uint32_t(kImage), 0, 4096, type});
  }
};

// Navi48: MP0 14.0.3, whose PSP set its TMR up at boot.
class PspSmuNavi48 : public PspSmu {
protected:
  PspSmuNavi48() : PspSmu("gfx1201") {}
};

} // namespace

// amdgpu_psp.c psp_hw_start sends no SETUP_TMR where the TMR was set up at boot (MP0 14.0.2,
// 14.0.3 with autoload): the model refuses one, and loads the firmware into the TMR it set up
// at boot and starts the autoload.
TEST_F(PspSmuNavi48, ATmrSetUpAtBootTakesNoSetupTmr) {
  EXPECT_TRUE(am::hw::psp::tmr_set_up_at_boot(14, 0, 3));
  EXPECT_TRUE(am::hw::psp::tmr_set_up_at_boot(14, 0, 2));
  EXPECT_FALSE(am::hw::psp::tmr_set_up_at_boot(13, 0, 0));
  start_sos();
  mem.put<uint32_t>(kImage, 0xfeedf00d);
  EXPECT_EQ(submit(GFX_CMD_ID_LOAD_TOC, {uint32_t(kImage), 0, 4096}), 0u);
  EXPECT_EQ(load_ip_fw(GFX_FW_TYPE_SMU), 0u);
  EXPECT_NE(submit(GFX_CMD_ID_SETUP_TMR, {uint32_t(kTmr), 0, sim::Psp::kTmrBytes}), 0u);
  for (uint32_t type : {GFX_FW_TYPE_RLC_G, GFX_FW_TYPE_RS64_MEC, GFX_FW_TYPE_RS64_MEC_P0_STACK,
                        GFX_FW_TYPE_SDMA_UCODE_TH0, GFX_FW_TYPE_IMU_I, GFX_FW_TYPE_IMU_D})
    EXPECT_EQ(load_ip_fw(type), 0u) << type;
  EXPECT_EQ(mem.get<uint32_t>(kTmr), 0u);             // no driver TMR
  EXPECT_EQ(mem.get<uint32_t>(kBootTmr), 0xfeedf00du); // the image in the boot-time TMR
  EXPECT_EQ(submit(GFX_CMD_ID_AUTOLOAD_RLC, {}), 0u);
  EXPECT_TRUE(fw.gfx_running);
}

TEST_F(PspSmu, BootloaderTakesTheSosComponentsInOrder) {
  EXPECT_EQ(read(model.psp->bl_cmd), BL_READY); // power-on: waiting
  EXPECT_EQ(read(model.psp->sos_alive), 0u);
  bootload(BL_LOAD_SOSDRV); // the sOS before its system driver
  EXPECT_EQ(read(model.psp->bl_cmd), BL_READY | 2);
  bootload(BL_LOAD_SYSDRV); // the system driver before the key database
  EXPECT_EQ(read(model.psp->bl_cmd), BL_READY | 2);
  mem.put<uint32_t>(kMsg1, 0);
  write(model.psp->bl_addr, uint32_t(kMsg1 >> 20));
  write(model.psp->bl_cmd, BL_LOAD_KEY_DATABASE); // an empty buffer
  EXPECT_EQ(read(model.psp->bl_cmd), BL_READY | 2);
  start_sos();
  EXPECT_EQ(read(model.psp->sos_alive), model.sos_version);
}

TEST_F(PspSmu, RingCommandsFollowTheFirmwareLoadOrder) {
  start_sos();
  mem.put<uint32_t>(kImage, 0xfeedf00d);
  EXPECT_NE(load_ip_fw(GFX_FW_TYPE_RLC_G), 0u);                  // before LOAD_TOC
  EXPECT_EQ(submit(GFX_CMD_ID_LOAD_TOC, {uint32_t(kImage), 0, 4096}), 0u);
  EXPECT_EQ(mem.get<uint32_t>(kCmdBuf + kResp + kRespTmrSize), sim::Psp::kTmrBytes);
  EXPECT_FALSE(fw.smu_running);
  EXPECT_EQ(load_ip_fw(GFX_FW_TYPE_SMU), 0u);                     // the SMU's image may precede the TMR
  EXPECT_TRUE(fw.smu_running);
  EXPECT_EQ(read(model.smu->resp, true), smu::RESULT_OK);
  EXPECT_NE(load_ip_fw(GFX_FW_TYPE_RLC_G), 0u);                  // the others need the TMR
  EXPECT_NE(submit(GFX_CMD_ID_SETUP_TMR, {uint32_t(kTmr + 4096), 0, sim::Psp::kTmrBytes}), 0u);
  EXPECT_EQ(submit(GFX_CMD_ID_SETUP_TMR, {uint32_t(kTmr), 0, sim::Psp::kTmrBytes}), 0u);
  EXPECT_EQ(load_ip_fw(GFX_FW_TYPE_RLC_G), 0u);
  EXPECT_EQ(mem.get<uint32_t>(kTmr), 0xfeedf00du);               // the image now lives in the TMR
  EXPECT_NE(load_ip_fw(0x3ff), 0u);                              // a type the PSP does not know
  EXPECT_NE(submit(GFX_CMD_ID_AUTOLOAD_RLC, {}), 0u);             // MEC, SDMA and IMU missing
  EXPECT_FALSE(fw.gfx_running);
  EXPECT_NE(load_ip_fw(GFX_FW_TYPE_CP_MEC), 0u); // pre-SOC21 types: refused
  EXPECT_NE(load_ip_fw(GFX_FW_TYPE_SDMA0), 0u);
  EXPECT_EQ(load_ip_fw(GFX_FW_TYPE_RS64_MEC), 0u);
  EXPECT_EQ(load_ip_fw(GFX_FW_TYPE_SDMA_UCODE_TH0), 0u);
  EXPECT_EQ(load_ip_fw(GFX_FW_TYPE_IMU_I), 0u);
  EXPECT_EQ(load_ip_fw(GFX_FW_TYPE_IMU_D), 0u);
  EXPECT_NE(submit(GFX_CMD_ID_AUTOLOAD_RLC, {}), 0u); // MEC pipe 0's stack missing
  EXPECT_EQ(load_ip_fw(GFX_FW_TYPE_RS64_MEC_P0_STACK), 0u);
  EXPECT_NE(submit(GFX_CMD_ID_AUTOLOAD_RLC, {}), 0u); // SDMA 6's control thread missing
  EXPECT_FALSE(fw.imu_running);
  EXPECT_EQ(load_ip_fw(GFX_FW_TYPE_SDMA_UCODE_TH1), 0u);
  EXPECT_EQ(submit(GFX_CMD_ID_AUTOLOAD_RLC, {}), 0u);
  EXPECT_TRUE(fw.imu_running);
  EXPECT_TRUE(fw.gfx_running);
  EXPECT_EQ(submit(0x3f, {}), 0x100u);                            // PSP_ERR_UNKNOWN_COMMAND
  psp.reset();                                                    // mode1 reset
  EXPECT_FALSE(fw.gfx_running);
  EXPECT_FALSE(fw.imu_running);
  EXPECT_EQ(read(model.psp->bl_cmd), BL_READY);
  EXPECT_EQ(read(model.psp->sos_alive), 0u);
}

TEST_F(PspSmu, SmuAnswersOnlyWithFirmware) {
  bool reset = false;
  auto send = [&](uint32_t msg, uint32_t arg) {
    regs.store(model.smu_reg(model.smu->resp), 0);
    EXPECT_TRUE(smu.write(model.smu_reg(model.smu->arg), arg, reset));
    EXPECT_TRUE(smu.write(model.smu_reg(model.smu->msg), msg, reset));
    return read(model.smu->resp, true);
  };
  EXPECT_EQ(send(smu::MSG_GetSmuVersion, 0), 0u); // no firmware: silence
  smu.start();
  EXPECT_EQ(send(smu::MSG_GetSmuVersion, 0), smu::RESULT_OK);
  EXPECT_EQ(read(model.smu->arg, true), model.smu_version);
  EXPECT_EQ(send(0x7f, 0), smu::RESULT_UNKNOWN_CMD);
  EXPECT_EQ(send(smu::MSG_EnableAllSmuFeatures, 0), smu::RESULT_REJECTED_PREREQ); // no driver table
  EXPECT_EQ(send(smu::MSG_SetDriverDramAddrLow, 0x1000), smu::RESULT_OK);
  EXPECT_EQ(send(smu::MSG_EnableAllSmuFeatures, 0), smu::RESULT_OK);
  EXPECT_FALSE(reset);
  EXPECT_EQ(send(smu::MSG_Mode1Reset, 0), smu::RESULT_OK);
  EXPECT_TRUE(reset);
}

// The PSP's view of memory: MC addresses inside the frame buffer aperture the VBIOS set up
// (MMMC_VM_FB_LOCATION_BASE/TOP) are VRAM by offset; a GPU virtual address below it, or
// anything past the top, faults.
TEST(FbAperture, McAddressesInsideTheFrameBufferAreVramByOffset) {
  sim::RegisterFile regs;
  const sim::CardModel& model = *sim::find_card_model("gfx1201");
  std::vector<uint8_t> vram(64u << 20);
  sim::FbAperture fb(regs, model, vram.data(), vram.size());
  const uint64_t base = sim::FbAperture::kFbBase;
  EXPECT_THROW(fb.translate(base, 4, false), sim::shader::MemoryFault); // not set up yet
  fb.set_power_on_location(regs);
  const auto reg = [&](Reg r) { return regs.read(model.mmhub_reg(r)); };
  EXPECT_EQ(uint64_t(reg(model.mmhub->FB_LOCATION_BASE)) << 24, base);
  EXPECT_EQ(uint64_t(reg(model.mmhub->FB_LOCATION_TOP)) << 24, base + vram.size() - (1u << 24));
  EXPECT_EQ(uint64_t(regs.read(model.gc_reg(model.gc->GCMC_VM_FB_LOCATION_BASE))) << 24, base);
  EXPECT_EQ(fb.translate(base + 0x123000, 8, true), vram.data() + 0x123000);
  EXPECT_EQ(fb.translate(base + vram.size() - 4, 4, false), vram.data() + vram.size() - 4);
  EXPECT_THROW(fb.translate(base + vram.size() - 2, 4, false), sim::shader::MemoryFault);
  EXPECT_THROW(fb.translate(0x123000, 4, false), sim::shader::MemoryFault); // a VMID 0 address
}
