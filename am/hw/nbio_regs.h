// The NBIO (PCIe bus interface) registers amcl programs: the doorbell aperture, without which
// the bus drops every doorbell write to BAR2 (amdgpu's nbio_v4_3_enable_doorbell_aperture and
// nbif_v6_3_1's, and tinygrad's AM, set it during SOC init).
//
// Sources: Linux drivers/gpu/drm/amd/include/asic_reg/nbio/nbio_4_3_0_offset.h (gfx11: the
// RCC_DEV0_EPF0 registers fill the gaps of the rcc_dev0 block, DOORBELL_APER_EN at 0x00c0,
// CONFIG_MEMSIZE at 0x00c3, BASE_IDX 2) and nbif_6_3_1_offset.h (gfx12: the same offset and
// segment); *_sh_mask.h: BIF_DOORBELL_APER_EN is bit 0. Pinned by tests/am/hw_facts_test.cpp.
#pragma once
#include "gc_regs.h"

#include <cstdint>

namespace am::hw {

struct NbioRegs {
  const char* name;
  Reg RCC_DEV0_EPF0_RCC_DOORBELL_APER_EN;
};

inline constexpr uint32_t BIF_DOORBELL_APER_EN = 1u << 0;

inline constexpr NbioRegs kNbio4_3{"NBIO 4.3.0", {0x00c0, 2}};
inline constexpr NbioRegs kNbif6_3{"NBIF 6.3.1", {0x00c0, 2}};

// The table of an NBIO/NBIF major version (IP discovery's NBIF block), or nullptr.
inline constexpr const NbioRegs* nbio_regs_for_major(unsigned major) {
  return major == 4 ? &kNbio4_3 : major == 6 ? &kNbif6_3 : nullptr;
}

} // namespace am::hw
