// The emulated PSP (MP0): the bootloader mailbox (C2PMSG_35/36) that takes the sOS components
// in order, the sOS's GPCOM ring (C2PMSG_64/67/69-71) and the ring commands a compute driver
// sends: LOAD_TOC (answers the TMR size), SETUP_TMR (refused where the TMR was set up at
// boot: MP0 14.0.2/14.0.3), LOAD_IP_FW (copies the image into the TMR,
// starts the SMU firmware when it is the SMU's) and AUTOLOAD_RLC (starts the CP and SDMA
// firmware; the MEC's pipes still wait for the driver, see mec_control.h). A command out of order,
// an unknown firmware type or an unreadable buffer gets a non-zero status in the response, as the
// PSP answers; layouts from am/hw/psp_gfx_if.h. Commands complete within the register write that
// submits them.
#pragma once
#include "card_model.h"
#include "firmware_state.h"
#include "gmc.h"
#include "register_file.h"
#include "smu.h"

#include <chrono>
#include <cstdint>
#include <set>
#include <string>

namespace sim {

class Psp {
public:
  static constexpr uint32_t kTmrBytes = 8u << 20; // what LOAD_TOC answers
  // A TMR the PSP set up at boot (am::hw::psp::tmr_set_up_at_boot): the model's, in the top
  // MiB of VRAM below the 64 KiB discovery table, which drivers keep off.
  static constexpr uint32_t kBootTmrBytes = (1u << 20) - (64u << 10);
  // How long the RLC autoload takes after AUTOLOAD_RLC returns (the IMU and RLC load the CP and
  // SDMA firmware meanwhile). Real parts publish no figure; amdgpu polls for it.
  static constexpr std::chrono::milliseconds kAutoloadTime{2};

  // `boot_tmr_mc`: where a TMR set up at boot starts (an MC address), on parts that have one.
  Psp(RegisterFile& regs, const CardModel& model, shader::MemoryPort& gmc, FirmwareState& fw, Smu& smu,
      int debug, uint64_t boot_tmr_mc = 0);
  // The register writes the PSP handles (returns false for others).
  bool write(uint32_t index, uint32_t value);
  // Power-on / mode1-reset state: the bootloader waits, nothing is loaded.
  void reset();
  // The state another driver leaves behind: the sOS runs with its ring, all firmware loaded.
  // (Lets tests present a card amdgpu had initialised.)
  void assume_booted_elsewhere();
  bool sos_alive() const { return sos_alive_; }

private:
  void bootloader_command(uint32_t command);
  void ring_control(uint32_t command);
  void process_ring(uint32_t wptr);
  uint32_t execute(uint64_t cmd_va); // returns the response status
  void log(const std::string& what) const;
  uint32_t reg(am::hw::Reg r) const { return model_.psp_reg(r); }
  static bool soc21_image(uint32_t type);
  bool autoload_ready() const;

  RegisterFile& regs_;
  const CardModel& model_;
  shader::MemoryPort& gmc_; // the GMC: VMID 0 addresses
  FirmwareState& fw_;
  Smu& smu_;
  int debug_;
  std::set<uint32_t> bootloaded_; // bootloader commands done
  bool sos_alive_ = false;
  bool ring_ = false;
  uint64_t ring_va_ = 0;
  uint32_t ring_dwords_ = 0, rptr_ = 0;
  bool toc_ = false;
  uint64_t tmr_va_ = 0, tmr_used_ = 0, tmr_bytes_ = kTmrBytes;
  bool tmr_at_boot_ = false; // am::hw::psp::tmr_set_up_at_boot of the card's MP0
  uint64_t boot_tmr_mc_ = 0;
  std::set<uint32_t> loaded_; // GFX_FW_TYPE_* images in
};

} // namespace sim
