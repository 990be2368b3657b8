// VRAM as the driver reaches it before and beside its own allocations: the size the card reports
// and byte copies from any VRAM offset, through BAR0 where it reaches and through NBIO's
// MM_INDEX/MM_DATA window beyond (a BAR0 of 256 MiB on a card with 24 GiB of VRAM, no resizable
// BAR). amdgpu_discovery_read_binary_from_mem with amdgpu_device_vram_access in small.
#pragma once
#include "pci.h"

#include <cstdint>
#include <span>

namespace am {

// RCC_CONFIG_MEMSIZE << 20: the card's VRAM in bytes. Throws DeviceError when the card reports
// none (a card that is off the bus reads all ones, which is also refused).
uint64_t read_vram_size(Pci& pci);

// Copies out.size() bytes at VRAM `offset`: the part inside BAR0 through the mapping, the rest
// dword by dword through MM_INDEX/MM_INDEX_HI/MM_DATA (boot only: the window is one per card).
void read_vram(Pci& pci, uint64_t offset, std::span<uint8_t> out);

} // namespace am
