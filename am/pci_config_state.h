// A PCI function's standard config-space header, saved before a reset that clears it and
// written back afterwards: what amdgpu does around its mode1 reset with
// amdgpu_device_cache_pci_state / amdgpu_device_load_pci_state (the PCI core's pci_save_state /
// pci_restore_state). Without it the BARs lose their addresses and the card stops decoding its
// registers, doorbells and VRAM aperture.
#pragma once
#include "pci.h"

#include <array>
#include <cstdint>

namespace am {

struct PciConfigHeader {
  std::array<uint32_t, 16> dwords{};
};

PciConfigHeader save_config_header(Pci& pci);

// Writes back every dword that differs, in the PCI core's order (pci_restore_config_space):
// dwords 15..10, then the BARs 9..4, then 3..0, so the BARs hold their addresses again before
// the command register turns memory decoding back on. The status half of dword 1 is written as
// zero (its error bits are write-one-to-clear). Throws std::runtime_error when config space
// cannot be written.
void restore_config_header(Pci& pci, const PciConfigHeader& saved);

} // namespace am
