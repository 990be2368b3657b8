#include "psp.h"

#include "am/hw/discovery.h"
#include "am/hw/psp_gfx_if.h"
#include "am/synthetic_firmware.h"

#include <cstdio>
#include <cstring>
#include <vector>

namespace sim {
namespace {

using namespace am::hw;
using namespace am::hw::psp;

// Status codes this model answers with (psp_gfx_if.h: PSP_ERR_UNKNOWN_COMMAND,
// TEE_ERROR_NOT_SUPPORTED; the order and buffer errors use the latter too).
constexpr uint32_t kUnknownCommand = 0x100, kNotSupported = 0xFFFF000A;
// C2PMSG_35 after a bootloader command it refused: ready again, with an error in the low bits.
constexpr uint32_t kBootloaderRefused = BL_READY | 0x2;

uint32_t get32(const std::vector<uint8_t>& b, uint32_t at) {
  uint32_t v;
  std::memcpy(&v, b.data() + at, 4);
  return v;
}

} // namespace

Psp::Psp(RegisterFile& regs, const CardModel& model, shader::MemoryPort& gmc, FirmwareState& fw, Smu& smu,
         int debug, uint64_t boot_tmr_mc)
    : regs_(regs), model_(model), gmc_(gmc), fw_(fw), smu_(smu), debug_(debug),
      boot_tmr_mc_(boot_tmr_mc) {
  for (const IpBlockModel& b : model.blocks)
    if (b.hw_id == am::hw::discovery::MP0_HWID)
      tmr_at_boot_ = tmr_set_up_at_boot(b.major, b.minor, b.revision);
  reset();
}

void Psp::assume_booted_elsewhere() {
  const PspRegs& r = *model_.psp;
  sos_alive_ = true;
  regs_.store(reg(r.bl_cmd), 0);
  regs_.store(reg(r.sos_alive), model_.sos_version);
  regs_.store(reg(r.ring_cmd), GFX_FLAG_RESPONSE);
  smu_.start();
  fw_.imu_running = true;
  fw_.gfx_running = true;
  fw_.autoload_done_ns = 1; // long done
}

void Psp::reset() {
  bootloaded_.clear();
  sos_alive_ = ring_ = toc_ = false;
  ring_va_ = 0, ring_dwords_ = rptr_ = 0;
  // A TMR set up at boot is there from the start, in the firmware reservation at the top of VRAM
  // (below the discovery table); otherwise the driver's SETUP_TMR gives one.
  tmr_va_ = tmr_at_boot_ ? boot_tmr_mc_ : 0, tmr_used_ = 0;
  tmr_bytes_ = tmr_at_boot_ ? kBootTmrBytes : kTmrBytes;
  loaded_.clear();
  fw_.imu_running = false;
  fw_.gfx_running = false;
  fw_.autoload_done_ns = 0;
  fw_.mec_entry = FirmwareState::kUnknownEntry;
  const PspRegs& r = *model_.psp;
  for (Reg x : {r.bl_addr, r.ring_cmd, r.ring_wptr, r.ring_lo, r.ring_hi, r.ring_size, r.sos_alive})
    regs_.store(reg(x), 0);
  regs_.store(reg(r.bl_cmd), BL_READY);
}

void Psp::log(const std::string& what) const {
  if (debug_ >= 1) std::fprintf(stderr, "amcl sim: PSP: %s\n", what.c_str());
}

bool Psp::write(uint32_t index, uint32_t value) {
  const PspRegs& r = *model_.psp;
  if (index == reg(r.bl_cmd)) {
    bootloader_command(value);
  } else if (index == reg(r.ring_cmd)) {
    ring_control(value);
  } else if (index == reg(r.ring_wptr)) {
    regs_.store(index, value);
    process_ring(value);
  } else if (index == reg(r.bl_addr) || index == reg(r.ring_lo) || index == reg(r.ring_hi) ||
             index == reg(r.ring_size)) {
    regs_.store(index, value);
  } else {
    return false;
  }
  return true;
}

// The bootloader takes the sOS's pieces in order: the key database first, the system driver
// before the sOS. Each reads its component from the 1 MiB buffer C2PMSG_36 points at.
void Psp::bootloader_command(uint32_t command) {
  const PspRegs& r = *model_.psp;
  if (sos_alive_) {
    log("bootloader command after the sOS started: ignored");
    return;
  }
  bool ok = true;
  switch (command) {
  case BL_LOAD_KEY_DATABASE: break;
  case BL_LOAD_TOS_SPL_TABLE: case BL_LOAD_SYSDRV: case BL_LOAD_SOCDRV: case BL_LOAD_INTFDRV:
  case BL_LOAD_DBGDRV: case BL_LOAD_RASDRV:
    ok = bootloaded_.count(BL_LOAD_KEY_DATABASE) > 0;
    break;
  case BL_LOAD_SOSDRV: ok = bootloaded_.count(BL_LOAD_SYSDRV) > 0; break;
  default: ok = false;
  }
  const uint64_t buffer = uint64_t(regs_.read(reg(r.bl_addr))) << 20;
  try {
    uint32_t head = 0;
    gmc_.read(buffer, &head, 4);
    if (head == 0) ok = false; // an empty buffer holds no component
  } catch (const shader::MemoryFault&) {
    ok = false;
  }
  if (!ok) {
    log("bootloader refused command 0x" + std::to_string(command));
    regs_.store(reg(r.bl_cmd), kBootloaderRefused);
    return;
  }
  bootloaded_.insert(command);
  if (command == BL_LOAD_SOSDRV) {
    sos_alive_ = true;
    regs_.store(reg(r.bl_cmd), 0); // the bootloader is gone
    regs_.store(reg(r.sos_alive), model_.sos_version);
    regs_.store(reg(r.ring_cmd), GFX_FLAG_RESPONSE); // ready for ring commands
  } else {
    regs_.store(reg(r.bl_cmd), BL_READY);
  }
}

void Psp::ring_control(uint32_t command) {
  const PspRegs& r = *model_.psp;
  if (!sos_alive_) {
    regs_.store(reg(r.ring_cmd), command); // no sOS: nobody answers
    return;
  }
  uint32_t status = 0;
  if (command == GFX_CTRL_CMD_ID_INIT_GPCOM_RING) {
    const uint64_t va = uint64_t(regs_.read(reg(r.ring_lo))) | (uint64_t(regs_.read(reg(r.ring_hi))) << 32);
    const uint32_t size = regs_.read(reg(r.ring_size));
    if (size < kFrameBytes || size % kFrameBytes || (va & 0xfff)) {
      status = 1;
    } else {
      ring_ = true, ring_va_ = va, ring_dwords_ = size / 4, rptr_ = 0;
      regs_.store(reg(r.ring_wptr), 0);
    }
  } else if (command == GFX_CTRL_CMD_ID_DESTROY_RINGS) {
    ring_ = false;
  } else {
    status = 1;
  }
  regs_.store(reg(r.ring_cmd), GFX_FLAG_RESPONSE | status);
}

void Psp::process_ring(uint32_t wptr) {
  if (!ring_) {
    log("ring write pointer moved with no ring");
    return;
  }
  while (rptr_ != wptr % ring_dwords_) {
    const uint64_t frame_va = ring_va_ + uint64_t(rptr_) * 4;
    rptr_ = (rptr_ + kFrameBytes / 4) % ring_dwords_;
    std::vector<uint8_t> frame(kFrameBytes);
    try {
      gmc_.read(frame_va, frame.data(), kFrameBytes);
      const uint64_t cmd = uint64_t(get32(frame, kFrameCmdBufLo)) | (uint64_t(get32(frame, kFrameCmdBufHi)) << 32);
      const uint32_t status = execute(cmd);
      gmc_.write(cmd + kResp + kRespStatus, &status, 4);
      const uint64_t fence = uint64_t(get32(frame, kFrameFenceLo)) | (uint64_t(get32(frame, kFrameFenceHi)) << 32);
      gmc_.store32(fence, get32(frame, kFrameFenceValue));
    } catch (const shader::MemoryFault& f) {
      log(std::string("ring frame unreachable: ") + f.what()); // no fence: the driver times out
    }
  }
}

uint32_t Psp::execute(uint64_t cmd_va) {
  std::vector<uint8_t> cmd(kCmdBufBytes);
  gmc_.read(cmd_va, cmd.data(), kCmdBufBytes);
  const uint32_t id = get32(cmd, kCmdId);
  auto addr = [&](uint32_t lo) { return uint64_t(get32(cmd, kCmd + lo)) | (uint64_t(get32(cmd, kCmd + lo + 4)) << 32); };
  switch (id) {
  case GFX_CMD_ID_LOAD_TOC: {
    if (get32(cmd, kCmd + kFwSize) == 0) return kNotSupported;
    toc_ = true;
    const uint32_t tmr = kTmrBytes;
    gmc_.write(cmd_va + kResp + kRespTmrSize, &tmr, 4);
    return 0;
  }
  case GFX_CMD_ID_SETUP_TMR:
    // A PSP that set its TMR up at boot gets none from the driver (amdgpu and tinygrad send
    // none there); the model refuses one so that a driver that sends it is seen.
    if (tmr_at_boot_) {
      log("SETUP_TMR, but this PSP (MP0 14.0.2/14.0.3) set its TMR up at boot");
      return kNotSupported;
    }
    if (!toc_ || get32(cmd, kCmd + kTmrSize) < kTmrBytes || (addr(kTmrAddrLo) & (kTmrAlignment - 1))) {
      log("SETUP_TMR before LOAD_TOC, too small or misaligned");
      return kNotSupported;
    }
    tmr_va_ = addr(kTmrAddrLo), tmr_used_ = 0;
    return 0;
  case GFX_CMD_ID_LOAD_IP_FW: {
    const uint32_t type = get32(cmd, kCmd + kFwType), size = get32(cmd, kCmd + kFwSize);
    const bool known = soc21_image(type);
    // The SMU's image may come before the TMR; every other image lands in it.
    if (!known || size == 0 || !toc_ || (type != GFX_FW_TYPE_SMU && !tmr_va_)) {
      log("LOAD_IP_FW of type " + std::to_string(type) + " refused");
      return kNotSupported;
    }
    std::vector<uint8_t> image(size);
    gmc_.read(addr(kFwAddrLo), image.data(), size);
    if (type != GFX_FW_TYPE_SMU) {
      if (tmr_used_ + size > tmr_bytes_) return kNotSupported;
      const uint64_t at = tmr_va_ + tmr_used_;
      gmc_.write(at, image.data(), size);
      tmr_used_ += (size + 0xfff) & ~0xfffull;
      const uint32_t lo = uint32_t(at), hi = uint32_t(at >> 32);
      gmc_.write(cmd_va + kResp + kRespFwAddrLo, &lo, 4);
      gmc_.write(cmd_va + kResp + kRespFwAddrHi, &hi, 4);
    }
    loaded_.insert(type);
    if (type == GFX_FW_TYPE_SMU) smu_.start();
    if (type == GFX_FW_TYPE_RS64_MEC)
      fw_.mec_entry = am::synthetic::rs64_entry(image).value_or(FirmwareState::kUnknownEntry);
    return 0;
  }
  case GFX_CMD_ID_AUTOLOAD_RLC:
    if (!tmr_va_ || !autoload_ready()) {
      log("AUTOLOAD_RLC without the IMU, RLC, RS64 MEC (code and pipe 0 stack) and SDMA firmware "
          "in the TMR");
      return kNotSupported;
    }
    fw_.imu_running = true; // the IMU starts, brings up the RLC, which starts the CP and SDMA
    fw_.gfx_running = true;
    fw_.autoload_done_ns =
        (std::chrono::steady_clock::now() + kAutoloadTime).time_since_epoch().count();
    return 0;
  default:
    log("unknown ring command " + std::to_string(id));
    return kUnknownCommand;
  }
}

// The images a SOC21/SOC24 PSP takes (the SMU's, and the GFX and SDMA containers' pieces);
// anything else, the pre-SOC21 CP_MEC/SDMA0 types among them, is refused.
bool Psp::soc21_image(uint32_t type) {
  switch (type) {
  case GFX_FW_TYPE_SMU:
  case GFX_FW_TYPE_IMU_I:
  case GFX_FW_TYPE_IMU_D:
  case GFX_FW_TYPE_RLC_G:
  case GFX_FW_TYPE_RLC_RESTORE_LIST_GPM_MEM:
  case GFX_FW_TYPE_RLC_RESTORE_LIST_SRM_MEM:
  case GFX_FW_TYPE_RLC_IRAM:
  case GFX_FW_TYPE_RLC_DRAM_BOOT:
  case GFX_FW_TYPE_RLC_P:
  case GFX_FW_TYPE_RLC_V:
  case GFX_FW_TYPE_SDMA_UCODE_TH0:
  case GFX_FW_TYPE_SDMA_UCODE_TH1:
    return true;
  default:
    return type >= GFX_FW_TYPE_RS64_PFP && type <= GFX_FW_TYPE_RS64_MEC_P3_STACK;
  }
}

// What the RLC autoload needs to bring up what amcl uses: the IMU, RLC_G, the MEC's code and
// the stack of pipe 0 (amcl's compute queue), SDMA's context thread, and on SDMA 6 (gfx11)
// its control thread too.
bool Psp::autoload_ready() const {
  for (uint32_t t : {GFX_FW_TYPE_IMU_I, GFX_FW_TYPE_IMU_D, GFX_FW_TYPE_RLC_G, GFX_FW_TYPE_RS64_MEC,
                     GFX_FW_TYPE_RS64_MEC_P0_STACK, GFX_FW_TYPE_SDMA_UCODE_TH0})
    if (!loaded_.count(t)) return false;
  return model_.isa != shader::Gfx::v11 || loaded_.count(GFX_FW_TYPE_SDMA_UCODE_TH1) > 0;
}

} // namespace sim
