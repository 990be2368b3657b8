// GC 11.0.3 (Navi32, gfx1101) register offsets amcl uses.
//
// Linux drives GC 11.0.3 with gfx_v11_0.c and sdma_v6_0.c, both built on gc_11_0_0_offset.h,
// so the command processor, RLC, SDMA, SPI and shader-memory registers are GC 11.0.0's. Its
// GPU VM blocks moved: gmc_v11_0_set_gfxhub_funcs gives GC 11.0.3 its own gfxhub_v3_0_3.c on
// gc_11_0_3_offset.h, where gc_gcvml2pfdec starts at 0x15c0 (GC 11.0.0: 0x15bc) and
// gc_gcvmsharedvcdec / gc_gcvml2vcdec at 0x1688 / 0x1698 (0x1678 / 0x1688); gc_gcvmsharedpfdec
// (the system aperture's default page, 0x15a8) did not move. Every offset below was read in
// Linux drivers/gpu/drm/amd/include/asic_reg/gc/gc_11_0_3_offset.h, all BASE_IDX 0. Driving a
// Navi32 with GC 11.0.0's VM offsets would program registers 4 and 16 dwords off the hub's.
// Pinned by tests/am/hw_facts_test.cpp.
#pragma once
#include "gc_11_0_0_regs.h"

namespace am::hw {

inline constexpr GcRegs gc_11_0_3_regs() {
  GcRegs g = kGc11;
  g.name = "GC 11.0.3";
  // gc_gcvml2pfdec
  g.GCVM_L2_CNTL = {0x15c0, 0};
  g.GCVM_L2_CNTL2 = {0x15c1, 0};
  g.GCVM_L2_CNTL3 = {0x15c2, 0};
  g.GCVM_L2_PROTECTION_FAULT_CNTL = {0x15c8, 0};
  g.GCVM_L2_PROTECTION_FAULT_CNTL2 = {0x15c9, 0};
  g.GCVM_L2_PROTECTION_FAULT_STATUS = {0x15cc, 0};
  g.GCVM_L2_PROTECTION_FAULT_ADDR_LO32 = {0x15cd, 0};
  g.GCVM_L2_PROTECTION_FAULT_ADDR_HI32 = {0x15ce, 0};
  g.GCVM_L2_PROTECTION_FAULT_DEFAULT_ADDR_LO32 = {0x15cf, 0};
  g.GCVM_L2_PROTECTION_FAULT_DEFAULT_ADDR_HI32 = {0x15d0, 0};
  g.GCVM_L2_CNTL4 = {0x15d8, 0};
  g.GCVM_L2_CNTL5 = {0x15de, 0};
  // gc_gcvmsharedvcdec
  g.GCMC_VM_FB_LOCATION_BASE = {0x1688, 0};
  g.GCMC_VM_FB_LOCATION_TOP = {0x1689, 0};
  g.GCMC_VM_AGP_TOP = {0x168a, 0};
  g.GCMC_VM_AGP_BOT = {0x168b, 0};
  g.GCMC_VM_AGP_BASE = {0x168c, 0};
  g.GCMC_VM_SYSTEM_APERTURE_LOW_ADDR = {0x168d, 0};
  g.GCMC_VM_SYSTEM_APERTURE_HIGH_ADDR = {0x168e, 0};
  g.GCMC_VM_MX_L1_TLB_CNTL = {0x168f, 0};
  // gc_gcvml2vcdec
  g.GCVM_CONTEXT0_CNTL = {0x1698, 0};
  g.GCVM_INVALIDATE_ENG17_REQ = {0x16cc, 0};
  g.GCVM_INVALIDATE_ENG17_ACK = {0x16de, 0};
  g.GCVM_INVALIDATE_ENG0_ADDR_RANGE_LO32 = {0x16df, 0};
  g.GCVM_CONTEXT0_PAGE_TABLE_BASE_ADDR_LO32 = {0x1703, 0};
  g.GCVM_CONTEXT0_PAGE_TABLE_BASE_ADDR_HI32 = {0x1704, 0};
  g.GCVM_CONTEXT0_PAGE_TABLE_START_ADDR_LO32 = {0x1723, 0};
  g.GCVM_CONTEXT0_PAGE_TABLE_START_ADDR_HI32 = {0x1724, 0};
  g.GCVM_CONTEXT0_PAGE_TABLE_END_ADDR_LO32 = {0x1743, 0};
  g.GCVM_CONTEXT0_PAGE_TABLE_END_ADDR_HI32 = {0x1744, 0};
  return g;
}
inline constexpr GcRegs kGc11_0_3 = gc_11_0_3_regs();

} // namespace am::hw
