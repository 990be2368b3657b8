// The driver's side of the PSP (MP0), the security processor that loads every other firmware:
// its bootloader takes the sOS components through a 1 MiB buffer (C2PMSG_35/36); the running
// sOS then takes commands on the GPCOM ring (LOAD_TOC -> TMR size, SETUP_TMR, LOAD_IP_FW,
// AUTOLOAD_RLC), each a frame pointing at a 1 KiB command buffer and a fence the PSP writes.
// Follows psp_v13_0.c / psp_v14_0.c and amdgpu_psp.c's order (tinygrad's AM_PSP does the same).
#pragma once
#include "firmware_set.h"
#include "hw/mp_regs.h"
#include "ip_discovery.h"
#include "memory.h"
#include "nbio.h"
#include "pci.h"
#include "register_bases.h"

#include <chrono>
#include <cstdint>
#include <span>

namespace am {

class MemoryManager;

struct PspBuffers {
  Allocation msg1;  // 1 MiB, 1 MiB aligned: bootloader components, TOC and IP images
  Allocation ring;  // the GPCOM ring
  Allocation cmd;   // one psp_gfx_cmd_resp
  Allocation fence; // the value of the last completed frame
};

class Psp {
public:
  // Each command is preceded by an HDP flush through `nbio`, so that the PSP sees the CPU's
  // writes to VRAM.
  Psp(Pci& pci, Nbio& nbio) : pci_(pci), nbio_(nbio) {}

  // MP0's table by IP discovery's major version (13 on gfx11 parts, 14 on gfx12; the SPL table
  // component differs); DeviceError when amcl has none.
  void init_sw(const IpDiscovery& ip);
  // psp_hw_start in amdgpu_psp.c's order (tinygrad's AM follows it): the sOS through the
  // bootloader, the GPCOM ring, the table of contents (which sizes the TMR), the SMU firmware,
  // the TMR, the graphics firmware, then the RLC autoload that starts the CP and SDMA firmware.
  // Buffers and the TMR come from the boot region. The PSP is given MC addresses (`fb_base`:
  // MMMC_VM_FB_LOCATION_BASE) of them, not GPU virtual ones, as amdgpu and tinygrad's AM do;
  // its bootloader runs before any page table exists.
  void init_hw(const FirmwareSet& fw, MemoryManager& memory, uint64_t fb_base);

  bool sos_alive() const;
  // Whether the bootloader idles, waiting for a command (true after power-on or a mode1 reset).
  bool bootloader_ready() const;

private:
  // Loads the sOS components in amdgpu's order and waits for the sOS to come alive.
  void start_sos(const FirmwareSet& fw);
  void create_ring();
  // Hands the PSP its table of contents; returns the TMR size it asks for.
  uint32_t load_toc(std::span<const uint8_t> toc);
  void setup_tmr(const Allocation& tmr);
  void load_ip_fw(const FirmwareImage& image);
  // All graphics firmware is in: the RLC starts and brings up the CP and SDMA firmware.
  void autoload_rlc();
  uint32_t reg(hw::Reg r) const { return bases_(r); }
  uint64_t mc(const Allocation& a) const { return fb_base_ + a.phys; }
  void copy_to_msg1(std::span<const uint8_t> bytes, const char* what);
  // Submits the command in the command buffer (already filled) and waits for its fence;
  // throws DeviceError naming `what` when the PSP reports a failure or does not answer.
  void submit(uint32_t cmd_id, const char* what);

  Pci& pci_;
  Nbio& nbio_;
  const hw::PspRegs* regs_ = nullptr;
  RegisterBases bases_;
  unsigned mp0_major_ = 0;
  bool tmr_at_boot_ = false; // hw::psp::tmr_set_up_at_boot
  PspBuffers buf_;
  uint64_t fb_base_ = 0;
  uint32_t wptr_ = 0; // ring write pointer, in dwords
  std::chrono::milliseconds timeout_{3000};
};

} // namespace am
