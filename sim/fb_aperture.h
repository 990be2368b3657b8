// The frame buffer as the PSP reaches it: by MC address. The PSP's bootloader runs before any
// driver has set up page tables, and amdgpu hands the PSP MC addresses throughout (psp_v13_0.c:
// C2PMSG_36 = fw_pri_mc_addr >> 20, the ring and its frames, LOAD_IP_FW and SETUP_TMR buffers;
// tinygrad's AM: paddr2mc): an address in [FB base, FB top] is VRAM at (address - FB base),
// where MMHUB's MMMC_VM_FB_LOCATION_BASE/TOP (16 MiB units, bits [23:0]) say, as the VBIOS
// leaves them. Anything outside faults: a GPU virtual address there is a driver bug.
#pragma once
#include "am/hw/vm_hub_regs.h"
#include "card_model.h"
#include "register_file.h"
#include "shader/memory_port.h"

#include <cstdint>

namespace sim {

class FbAperture : public shader::MemoryPort {
public:
  // Where this model's VBIOS puts the frame buffer: 512 GiB, just above what VMID 0's page
  // tables cover (amdgpu reads the value from the card; on discrete RDNA parts it is a high
  // address of this kind, not 0).
  static constexpr uint64_t kFbBase = 512ull << 30;

  FbAperture(const RegisterFile& regs, const CardModel& model, uint8_t* vram, uint64_t vram_size)
      : regs_(regs), model_(model), vram_(vram), vram_size_(vram_size) {}
  // The FB_LOCATION registers' power-on values (the VBIOS's): written at construction of the
  // card and after a mode1 reset.
  void set_power_on_location(RegisterFile& regs) const;
  uint8_t* translate(uint64_t mc, size_t len, bool write, bool execute = false) override;
  // The whole frame buffer is contiguous host memory.
  size_t contiguous(uint64_t mc) const override;

private:
  uint64_t base() const;
  const RegisterFile& regs_;
  const CardModel& model_;
  uint8_t* vram_;
  uint64_t vram_size_;
};

} // namespace sim
