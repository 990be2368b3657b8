// The driver's side of the PSP (MP0), the security processor that loads every other firmware:
// its bootloader takes the sOS components through a 1 MiB buffer (C2PMSG_35/36); the running
// sOS then takes commands on the GPCOM ring (LOAD_TOC -> TMR size, SETUP_TMR, LOAD_IP_FW,
// AUTOLOAD_RLC), each a frame pointing at a 1 KiB command buffer and a fence the PSP writes.
// Follows psp_v13_0.c / psp_v14_0.c and amdgpu_psp.c's order (tinygrad's AM does the same).
#pragma once
#include "firmware_set.h"
#include "hw/mp_regs.h"
#include "memory.h"
#include "pci.h"

#include <chrono>
#include <cstdint>
#include <functional>
#include <span>

namespace am {

struct PspBuffers {
  Allocation msg1;  // 1 MiB, 1 MiB aligned: bootloader components, TOC and IP images
  Allocation ring;  // the GPCOM ring
  Allocation cmd;   // one psp_gfx_cmd_resp
  Allocation fence; // the value of the last completed frame
};

class Psp {
public:
  using RegIndex = std::function<uint32_t(hw::Reg)>;
  // Makes the CPU's writes to VRAM visible to the PSP (an HDP flush) before each command.
  using FlushHdp = std::function<void()>;
  // `mp0_major`: 13 on gfx11 parts, 14 on gfx12 parts (the SPL table component differs).
  // `fb_base`: the frame buffer's MC address (MMMC_VM_FB_LOCATION_BASE): the PSP is given MC
  // addresses of the (VRAM) buffers, not GPU virtual ones, as amdgpu and tinygrad's AM do; its
  // bootloader runs before any page table exists.
  Psp(Pci& pci, const hw::PspRegs& regs, unsigned mp0_major, RegIndex reg_index, PspBuffers buffers,
      uint64_t fb_base, FlushHdp flush_hdp);

  bool sos_alive() const;
  // Whether the bootloader idles, waiting for a command (true after power-on or a mode1 reset).
  bool bootloader_ready() const;
  // Loads the sOS components in amdgpu's order and waits for the sOS to come alive.
  void start_sos(const FirmwareSet& fw);
  void create_ring();
  // Hands the PSP its table of contents; returns the TMR size it asks for.
  uint32_t load_toc(std::span<const uint8_t> toc);
  void setup_tmr(const Allocation& tmr);
  void load_ip_fw(const FirmwareImage& image);
  // All graphics firmware is in: the RLC starts and brings up the CP and SDMA firmware.
  void autoload_rlc();

private:
  uint32_t reg(hw::Reg r) const { return reg_index_(r); }
  uint64_t mc(const Allocation& a) const { return fb_base_ + a.phys; }
  void copy_to_msg1(std::span<const uint8_t> bytes, const char* what);
  // Submits the command in the command buffer (already filled) and waits for its fence;
  // throws DeviceError naming `what` when the PSP reports a failure or does not answer.
  void submit(uint32_t cmd_id, const char* what);

  Pci& pci_;
  const hw::PspRegs& regs_;
  unsigned mp0_major_;
  RegIndex reg_index_;
  FlushHdp flush_hdp_;
  PspBuffers buf_;
  uint64_t fb_base_;
  uint32_t wptr_ = 0; // ring write pointer, in dwords
  std::chrono::milliseconds timeout_{3000};
};

} // namespace am
