// The VMID 0 registers of a GPU VM hub. A RDNA card has two hubs in front of memory: GFXHUB
// (in GC) serves the command processor, the shaders and SDMA; MMHUB serves the other clients,
// among them the interrupt handler writing its ring (Linux ih_v6_0.c / ih_v7_0.c: the IH ring
// is a VMID 0 address; amdgpu's gmc_v11_0.c / gmc_v12_0.c and tinygrad's AM enable VMID 0 on
// both hubs with the same page directory). Both hubs lay out context 0 the same way: CNTL,
// the page-table base/start/end pairs, and invalidation engines with REQ/ACK.
//
// Sources for MMHUB: Linux drivers/gpu/drm/amd/include/asic_reg/mmhub/mmhub_3_0_0_offset.h
// (Navi31) and mmhub_4_1_0_offset.h (Navi4x): identical offsets for every register here, all
// BASE_IDX 0. MMVM_CONTEXT0_CNTL.PAGE_TABLE_BLOCK_SIZE sits where GCVM's does on the same
// generation ([6:3] on MMHUB 3, [7:4] on MMHUB 4: mmhub_4_2_0_sh_mask.h gives shift 4).
// Pinned by tests/am/hw_facts_test.cpp.
#pragma once
#include "gc_regs.h"

#include <cstdint>

namespace am::hw {

struct VmHubRegs {
  const char* name;
  Reg CONTEXT0_CNTL;
  Reg PAGE_TABLE_BASE_LO32, PAGE_TABLE_BASE_HI32;
  Reg PAGE_TABLE_START_LO32, PAGE_TABLE_START_HI32;
  Reg PAGE_TABLE_END_LO32, PAGE_TABLE_END_HI32;
  uint32_t block_size_shift; // CONTEXT0_CNTL.PAGE_TABLE_BLOCK_SIZE
  Reg INVALIDATE_ENG17_REQ, INVALIDATE_ENG17_ACK;
};

// GFXHUB's context 0 registers, from the GC table (their BASE_IDX are GC segments).
inline constexpr VmHubRegs gfxhub_regs(const GcRegs& g) {
  return VmHubRegs{g.name,
                   g.GCVM_CONTEXT0_CNTL,
                   g.GCVM_CONTEXT0_PAGE_TABLE_BASE_ADDR_LO32,
                   g.GCVM_CONTEXT0_PAGE_TABLE_BASE_ADDR_HI32,
                   g.GCVM_CONTEXT0_PAGE_TABLE_START_ADDR_LO32,
                   g.GCVM_CONTEXT0_PAGE_TABLE_START_ADDR_HI32,
                   g.GCVM_CONTEXT0_PAGE_TABLE_END_ADDR_LO32,
                   g.GCVM_CONTEXT0_PAGE_TABLE_END_ADDR_HI32,
                   g.vm_context_block_size_shift,
                   g.GCVM_INVALIDATE_ENG17_REQ,
                   g.GCVM_INVALIDATE_ENG17_ACK};
}

// MMHUB 3.0.0 (gfx11) and 4.1.0 (gfx12): MMVM_CONTEXT0_CNTL 0x0564, MMVM_INVALIDATE_ENG17_REQ
// 0x0598 / _ACK 0x05aa, MMVM_CONTEXT0_PAGE_TABLE_BASE_ADDR_LO32 0x05cf, START 0x05ef, END 0x060f.
inline constexpr VmHubRegs mmhub_regs(const char* name, uint32_t block_size_shift) {
  return VmHubRegs{name,        {0x0564, 0}, {0x05cf, 0}, {0x05d0, 0},      {0x05ef, 0},
                   {0x05f0, 0}, {0x060f, 0}, {0x0610, 0}, block_size_shift, {0x0598, 0},
                   {0x05aa, 0}};
}
inline constexpr VmHubRegs kMmhub3 = mmhub_regs("MMHUB 3.0.0", 3);
inline constexpr VmHubRegs kMmhub4 = mmhub_regs("MMHUB 4.1.0", 4);

// Where the frame buffer sits in the MC address space, as the VBIOS programs it:
// MMMC_VM_FB_LOCATION_BASE/TOP, bits [23:0] = address >> 24 (amdgpu's mmhub_v3_0 / v4_1
// get_fb_location). The PSP is given MC addresses, FB base + VRAM offset. Same offsets on MMHUB
// 3.0.0 and 4.1.0.
inline constexpr Reg kMmhubFbLocationBase{0x0554, 0}, kMmhubFbLocationTop{0x0555, 0};

// The MMHUB table of an MMHUB major version, or nullptr when amcl has none.
inline constexpr const VmHubRegs* mmhub_regs_for_major(unsigned major) {
  return major == 3 ? &kMmhub3 : major == 4 ? &kMmhub4 : nullptr;
}

} // namespace am::hw
