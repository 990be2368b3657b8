// How a card was left, read through its BARs without booting it (amcl-smi status): the IP
// discovery table at the top of VRAM, AM's marker in SCRATCH_REG7, the PSP's sOS and
// bootloader mailboxes and the SMU's version (one GetSmuVersion message, when the SMU answers).
// Device::boot reads the same registers to pick its boot state, and says it in the same words.
#pragma once
#include "pci.h"

#include <cstdint>
#include <string>

namespace am {

// Written to SCRATCH_REG7 once AM has booted the card (the fast re-init marker).
inline constexpr uint32_t kAmBootedMagic = 0xA3C1B007;

// "left by amcl (SCRATCH_REG7 marker)", "left by another driver (amdgpu: PSP sOS running)" or
// "fresh (PSP sOS not running)".
const char* boot_state_found(bool am_marker, bool sos_alive);

struct BootProbe {
  std::string gfx;        // "gfx1100", from the GC version discovery lists
  std::string gc_version; // "11.0.0"
  uint32_t scratch7 = 0;  // SCRATCH_REG7 as read
  bool am_marker = false; // scratch7 == kAmBootedMagic
  bool sos_alive = false; // the PSP's secure OS runs (someone loaded firmware)
  bool bootloader_ready = false;
  bool smu_responding = false;
  uint32_t smu_version = 0; // 0 when the SMU does not answer
  std::string found;        // boot_state_found's words
};

// Throws DeviceError when the card has no readable discovery table or an IP version amcl has
// no tables for.
BootProbe probe_boot_state(Pci& pci);

} // namespace am
