// PCI identities of the RDNA3/RDNA4 parts amcl knows.
// Source: Linux drivers/gpu/drm/amd/amdgpu/amdgpu_drv.c (pciidlist) and the PCI ID database;
// compute units and boost clocks from AMD's product specifications; shader engines from AMD's
// RDNA 3/RDNA 4 die descriptions (Navi31 6, Navi32 3, Navi33 2, Navi48 4, Navi44 2; amdgpu reads
// them from IP discovery's gc_info, gc_num_se), which COMPUTE_TMPRING_SIZE.WAVES counts per;
// memory interface widths from AMD's product specifications (amdgpu reads them from the VBIOS's
// vram_info, and ROCm reports width / 32 as CL_DEVICE_GLOBAL_MEM_CHANNELS_AMD).
#pragma once
#include <cstdint>
#include <string_view>

namespace am::hw {

inline constexpr uint16_t kVendorAmd = 0x1002;

struct PciPart {
  uint16_t device;
  std::string_view gfx; // LLVM processor name
  std::string_view marketing;
  unsigned compute_units;
  unsigned max_clock_mhz; // boost clock
  unsigned shader_engines;
  unsigned vram_bus_bits; // the GDDR interface's width
};

inline constexpr PciPart kKnownParts[] = {
    {0x744c, "gfx1100", "AMD Radeon RX 7900 XTX", 96, 2500, 6, 384},
    {0x7448, "gfx1100", "AMD Radeon PRO W7900", 96, 2495, 6, 384},
    {0x747e, "gfx1101", "AMD Radeon RX 7800 XT", 60, 2430, 3, 256},
    {0x7480, "gfx1102", "AMD Radeon RX 7600", 32, 2655, 2, 128},
    {0x7550, "gfx1201", "AMD Radeon RX 9070 XT", 64, 2970, 4, 256},
    {0x7590, "gfx1200", "AMD Radeon RX 9060 XT", 32, 3130, 2, 128},
};

} // namespace am::hw
