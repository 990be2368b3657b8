// The registers of a GPU VM hub amcl programs. A RDNA card has two hubs in front of memory:
// GFXHUB (in GC) serves the command processor, the shaders and SDMA; MMHUB serves the other
// clients, among them the interrupt handler writing its ring (Linux ih_v6_0.c / ih_v7_0.c: the
// IH ring is a VMID 0 address; amdgpu's gmc_v11_0.c / gmc_v12_0.c and tinygrad's AM enable
// VMID 0 on both hubs with the same page directory). Per hub: where the VBIOS put the frame
// buffer in the MC address space, the AGP and system apertures, the L1 TLB and L2 cache
// controls, the default page for faulting accesses, and VMID 0's context (CNTL, the
// page-table base/start/end pairs, invalidation engine 17 with REQ/ACK).
//
// Sources: Linux drivers/gpu/drm/amd/include/asic_reg/mmhub/mmhub_3_0_0_offset.h (Navi31),
// mmhub_3_0_2_offset.h and mmhub_4_1_0_offset.h (Navi4x), all BASE_IDX 0 (they differ
// everywhere: MMVM_CONTEXT0_CNTL is 0x0740, 0x06c0 and 0x0564); the GFXHUB side from the GC
// tables. Fields:
// mmhub_4_1_0_sh_mask.h (MC_VM_MX_L1_TLB_CNTL, VM_L2_CNTL/CNTL2, the same on every hub).
// MMVM_CONTEXT0_CNTL.PAGE_TABLE_BLOCK_SIZE sits where GCVM's does on the same generation
// ([6:3] on MMHUB 3, [7:4] on MMHUB 4). Pinned by tests/am/hw_facts_test.cpp.
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
  // The first of the 18 invalidation engines' ADDR_RANGE_LO32/HI32 pairs (engine i's LO32 at
  // +2i, HI32 one after it), right after ENG17_ACK in every hub's header.
  Reg INVALIDATE_ENG0_ADDR_RANGE_LO32;
  // MC_VM_FB_LOCATION_BASE/TOP: bits [23:0] = MC address >> 24, as the VBIOS leaves them.
  Reg FB_LOCATION_BASE, FB_LOCATION_TOP;
  Reg AGP_TOP, AGP_BOT, AGP_BASE;                                         // >> 24
  Reg SYSTEM_APERTURE_LOW_ADDR, SYSTEM_APERTURE_HIGH_ADDR;                // >> 18
  Reg SYSTEM_APERTURE_DEFAULT_ADDR_LSB, SYSTEM_APERTURE_DEFAULT_ADDR_MSB; // >> 12, >> 44
  Reg MX_L1_TLB_CNTL;
  Reg L2_CNTL, L2_CNTL2;
  Reg L2_PROTECTION_FAULT_DEFAULT_ADDR_LO32, L2_PROTECTION_FAULT_DEFAULT_ADDR_HI32; // >> 12
  // The rest of the L2 set-up and the fault handling every hub's init_cache_regs,
  // init_system_aperture_regs and set_fault_enable_default program (gfxhub_v3_0/v12_0,
  // mmhub_v3_0/v3_0_2/v4_1_0): CNTL3..5 written whole from `l2_cntl3_default` (and the CNTL4/5
  // defaults every hub shares) with amdgpu's tuning, PROTECTION_FAULT_CNTL/CNTL2 read-modify-write.
  Reg L2_CNTL3, L2_CNTL4, L2_CNTL5;
  Reg L2_PROTECTION_FAULT_CNTL, L2_PROTECTION_FAULT_CNTL2;
  uint32_t l2_cntl3_default;
  // MMHUB's TLB invalidation takes engine 17's semaphore and ends with a private invalidation
  // (gmc_v11_0_flush_gpu_tlb, gmc_v12_0 alike; GFXHUB takes neither: gmc_v11_0_use_invalidate_
  // semaphore). Offsets from mmhub_3_0_0/3_0_2/4_1_0_offset.h, BASE_IDX 0.
  bool invalidate_semaphore = false;
  Reg INVALIDATE_ENG17_SEM{0, 0}, L2_BANK_SELECT_RESERVED_CID2{0, 0};
};
// MMVM_L2_BANK_SELECT_RESERVED_CID2.RESERVED_CACHE_PRIVATE_INVALIDATION (gmc_v11_0.c: "bit 25").
inline constexpr uint32_t RESERVED_CACHE_PRIVATE_INVALIDATION = 1u << 25;

// The hubs' L2 CNTL3..5, written whole from their reset values with amdgpu's tuning
// (gfxhub_v3_0/v12_0 and mmhub_v3_0/v3_0_2/v4_1_0 init_cache_regs without translate_further,
// which amcl's 4 KiB-block page tables are). Defaults: regGCVM_L2_CNTL3/4/5_DEFAULT of
// gc_11_0_0_default.h and gfxhub_v12_0.c, 0x80120007, 0xc1, 0x3fe0; regMMVM_L2_CNTL3_DEFAULT of
// mmhub_v3_0.c, mmhub_v3_0_2.c and mmhub_v4_1_0.c, 0x80100007 (CNTL4/5 as GC's). The MMHUB
// fields are assumed where GCVM's are, as for CONTEXT0_CNTL (their sh_masks were not read).
// Fields, read in gc_11_0_0_sh_mask.h and gc_12_0_0_sh_mask.h (the same on both): CNTL3 BANK_SELECT
// [5:0] = 9 and L2_CACHE_BIGK_FRAGMENT_SIZE [19:15] = 6; CNTL4 VMC_TAP_PDE_REQUEST_PHYSICAL [6] and
// VMC_TAP_PTE_REQUEST_PHYSICAL [7] = 0; CNTL5 L2_CACHE_SMALLK_FRAGMENT_SIZE [4:0] = 0.
inline constexpr uint32_t kGcvmL2Cntl3Default = 0x80120007, kMmvmL2Cntl3Default = 0x80100007;
inline constexpr uint32_t kGcvmL2Cntl4Default = 0x000000c1, kGcvmL2Cntl5Default = 0x00003fe0;
inline constexpr uint32_t GCVM_L2_CNTL3_BANK_SELECT_MASK = 0x3f,
                          GCVM_L2_CNTL3_BIGK_FRAGMENT_SIZE_SHIFT = 15,
                          GCVM_L2_CNTL3_BIGK_FRAGMENT_SIZE_MASK = 0x1fu << 15;
inline constexpr uint32_t vm_l2_cntl3(uint32_t reset_value) {
  return (reset_value & ~(GCVM_L2_CNTL3_BANK_SELECT_MASK | GCVM_L2_CNTL3_BIGK_FRAGMENT_SIZE_MASK)) |
         9u | (6u << GCVM_L2_CNTL3_BIGK_FRAGMENT_SIZE_SHIFT);
}
inline constexpr uint32_t GCVM_L2_CNTL4_VMC_TAP_REQUEST_PHYSICAL_MASK = 0xc0; // PDE [6], PTE [7]
inline constexpr uint32_t kGcvmL2Cntl4 =
    kGcvmL2Cntl4Default & ~GCVM_L2_CNTL4_VMC_TAP_REQUEST_PHYSICAL_MASK;
inline constexpr uint32_t GCVM_L2_CNTL5_SMALLK_FRAGMENT_SIZE_MASK = 0x1f;
inline constexpr uint32_t kGcvmL2Cntl5 =
    kGcvmL2Cntl5Default & ~GCVM_L2_CNTL5_SMALLK_FRAGMENT_SIZE_MASK;

// VM_L2_PROTECTION_FAULT_CNTL's ENABLE_DEFAULT bits (GCVM's; MMVM's assumed the same): RANGE [2],
// PDE0..2 [5:3], TRANSLATE_FURTHER [6], NACK [7], DUMMY_PAGE [8], VALID [9], READ [10], WRITE [11],
// EXECUTE [12] (gc_11/gc_12 sh_mask, read). gmc_v11_0/v12_0_gart_enable calls
// set_fault_enable_default with true unless amdgpu.vm_fault_stop=2: a faulting access is sent to
// the PROTECTION_FAULT_DEFAULT_ADDR page instead of through, and the CRASH_ON_*_FAULT bits [31:30]
// stay clear. Read-modify-write: the other fields are the per-client interrupt enables.
inline constexpr uint32_t GCVM_L2_PROTECTION_FAULT_ENABLE_DEFAULTS = 0x1ffc;
// GCVM_L2_PROTECTION_FAULT_CNTL2.ACTIVE_PAGE_MIGRATION_PTE_READ_RETRY [18]
// (init_system_aperture_regs sets it with WREG32_FIELD15_PREREG).
inline constexpr uint32_t GCVM_L2_PROTECTION_FAULT_CNTL2_PTE_READ_RETRY = 1u << 18;

// GFXHUB's registers, from the GC table (their BASE_IDX are GC segments).
inline constexpr VmHubRegs gfxhub_regs(const GcRegs& g) {
  return VmHubRegs{
      .name = g.name,
      .CONTEXT0_CNTL = g.GCVM_CONTEXT0_CNTL,
      .PAGE_TABLE_BASE_LO32 = g.GCVM_CONTEXT0_PAGE_TABLE_BASE_ADDR_LO32,
      .PAGE_TABLE_BASE_HI32 = g.GCVM_CONTEXT0_PAGE_TABLE_BASE_ADDR_HI32,
      .PAGE_TABLE_START_LO32 = g.GCVM_CONTEXT0_PAGE_TABLE_START_ADDR_LO32,
      .PAGE_TABLE_START_HI32 = g.GCVM_CONTEXT0_PAGE_TABLE_START_ADDR_HI32,
      .PAGE_TABLE_END_LO32 = g.GCVM_CONTEXT0_PAGE_TABLE_END_ADDR_LO32,
      .PAGE_TABLE_END_HI32 = g.GCVM_CONTEXT0_PAGE_TABLE_END_ADDR_HI32,
      .block_size_shift = g.vm_context_block_size_shift,
      .INVALIDATE_ENG17_REQ = g.GCVM_INVALIDATE_ENG17_REQ,
      .INVALIDATE_ENG17_ACK = g.GCVM_INVALIDATE_ENG17_ACK,
      .INVALIDATE_ENG0_ADDR_RANGE_LO32 = g.GCVM_INVALIDATE_ENG0_ADDR_RANGE_LO32,
      .FB_LOCATION_BASE = g.GCMC_VM_FB_LOCATION_BASE,
      .FB_LOCATION_TOP = g.GCMC_VM_FB_LOCATION_TOP,
      .AGP_TOP = g.GCMC_VM_AGP_TOP,
      .AGP_BOT = g.GCMC_VM_AGP_BOT,
      .AGP_BASE = g.GCMC_VM_AGP_BASE,
      .SYSTEM_APERTURE_LOW_ADDR = g.GCMC_VM_SYSTEM_APERTURE_LOW_ADDR,
      .SYSTEM_APERTURE_HIGH_ADDR = g.GCMC_VM_SYSTEM_APERTURE_HIGH_ADDR,
      .SYSTEM_APERTURE_DEFAULT_ADDR_LSB = g.GCMC_VM_SYSTEM_APERTURE_DEFAULT_ADDR_LSB,
      .SYSTEM_APERTURE_DEFAULT_ADDR_MSB = g.GCMC_VM_SYSTEM_APERTURE_DEFAULT_ADDR_MSB,
      .MX_L1_TLB_CNTL = g.GCMC_VM_MX_L1_TLB_CNTL,
      .L2_CNTL = g.GCVM_L2_CNTL,
      .L2_CNTL2 = g.GCVM_L2_CNTL2,
      .L2_PROTECTION_FAULT_DEFAULT_ADDR_LO32 = g.GCVM_L2_PROTECTION_FAULT_DEFAULT_ADDR_LO32,
      .L2_PROTECTION_FAULT_DEFAULT_ADDR_HI32 = g.GCVM_L2_PROTECTION_FAULT_DEFAULT_ADDR_HI32,
      .L2_CNTL3 = g.GCVM_L2_CNTL3,
      .L2_CNTL4 = g.GCVM_L2_CNTL4,
      .L2_CNTL5 = g.GCVM_L2_CNTL5,
      .L2_PROTECTION_FAULT_CNTL = g.GCVM_L2_PROTECTION_FAULT_CNTL,
      .L2_PROTECTION_FAULT_CNTL2 = g.GCVM_L2_PROTECTION_FAULT_CNTL2,
      .l2_cntl3_default = kGcvmL2Cntl3Default,
      .invalidate_semaphore = false,
      .INVALIDATE_ENG17_SEM = {0, 0},
      .L2_BANK_SELECT_RESERVED_CID2 = {0, 0}};
}

inline constexpr VmHubRegs kMmhub3{.name = "MMHUB 3.0.0",
                                   .CONTEXT0_CNTL = {0x0740, 0},
                                   .PAGE_TABLE_BASE_LO32 = {0x07ab, 0},
                                   .PAGE_TABLE_BASE_HI32 = {0x07ac, 0},
                                   .PAGE_TABLE_START_LO32 = {0x07cb, 0},
                                   .PAGE_TABLE_START_HI32 = {0x07cc, 0},
                                   .PAGE_TABLE_END_LO32 = {0x07eb, 0},
                                   .PAGE_TABLE_END_HI32 = {0x07ec, 0},
                                   .block_size_shift = 3,
                                   .INVALIDATE_ENG17_REQ = {0x0774, 0},
                                   .INVALIDATE_ENG17_ACK = {0x0786, 0},
                                   .INVALIDATE_ENG0_ADDR_RANGE_LO32 = {0x0787, 0},
                                   .FB_LOCATION_BASE = {0x08ec, 0},
                                   .FB_LOCATION_TOP = {0x08ed, 0},
                                   .AGP_TOP = {0x08ee, 0},
                                   .AGP_BOT = {0x08ef, 0},
                                   .AGP_BASE = {0x08f0, 0},
                                   .SYSTEM_APERTURE_LOW_ADDR = {0x08f1, 0},
                                   .SYSTEM_APERTURE_HIGH_ADDR = {0x08f2, 0},
                                   .SYSTEM_APERTURE_DEFAULT_ADDR_LSB = {0x08d8, 0},
                                   .SYSTEM_APERTURE_DEFAULT_ADDR_MSB = {0x08d9, 0},
                                   .MX_L1_TLB_CNTL = {0x08f3, 0},
                                   .L2_CNTL = {0x0700, 0},
                                   .L2_CNTL2 = {0x0701, 0},
                                   .L2_PROTECTION_FAULT_DEFAULT_ADDR_LO32 = {0x070f, 0},
                                   .L2_PROTECTION_FAULT_DEFAULT_ADDR_HI32 = {0x0710, 0},
                                   .L2_CNTL3 = {0x0702, 0},
                                   .L2_CNTL4 = {0x0718, 0},
                                   .L2_CNTL5 = {0x071e, 0},
                                   .L2_PROTECTION_FAULT_CNTL = {0x0708, 0},
                                   .L2_PROTECTION_FAULT_CNTL2 = {0x0709, 0},
                                   .l2_cntl3_default = kMmvmL2Cntl3Default,
                                   .invalidate_semaphore = true,
                                   .INVALIDATE_ENG17_SEM = {0x0762, 0},
                                   .L2_BANK_SELECT_RESERVED_CID2 = {0x071b, 0}};

inline constexpr VmHubRegs kMmhub4{.name = "MMHUB 4.1.0",
                                   .CONTEXT0_CNTL = {0x0564, 0},
                                   .PAGE_TABLE_BASE_LO32 = {0x05cf, 0},
                                   .PAGE_TABLE_BASE_HI32 = {0x05d0, 0},
                                   .PAGE_TABLE_START_LO32 = {0x05ef, 0},
                                   .PAGE_TABLE_START_HI32 = {0x05f0, 0},
                                   .PAGE_TABLE_END_LO32 = {0x060f, 0},
                                   .PAGE_TABLE_END_HI32 = {0x0610, 0},
                                   .block_size_shift = 4,
                                   .INVALIDATE_ENG17_REQ = {0x0598, 0},
                                   .INVALIDATE_ENG17_ACK = {0x05aa, 0},
                                   .INVALIDATE_ENG0_ADDR_RANGE_LO32 = {0x05ab, 0},
                                   .FB_LOCATION_BASE = {0x0554, 0},
                                   .FB_LOCATION_TOP = {0x0555, 0},
                                   .AGP_TOP = {0x0556, 0},
                                   .AGP_BOT = {0x0557, 0},
                                   .AGP_BASE = {0x0558, 0},
                                   .SYSTEM_APERTURE_LOW_ADDR = {0x0559, 0},
                                   .SYSTEM_APERTURE_HIGH_ADDR = {0x055a, 0},
                                   .SYSTEM_APERTURE_DEFAULT_ADDR_LSB = {0x04c8, 0},
                                   .SYSTEM_APERTURE_DEFAULT_ADDR_MSB = {0x04c9, 0},
                                   .MX_L1_TLB_CNTL = {0x055b, 0},
                                   .L2_CNTL = {0x04e4, 0},
                                   .L2_CNTL2 = {0x04e5, 0},
                                   .L2_PROTECTION_FAULT_DEFAULT_ADDR_LO32 = {0x04f4, 0},
                                   .L2_PROTECTION_FAULT_DEFAULT_ADDR_HI32 = {0x04f5, 0},
                                   .L2_CNTL3 = {0x04e6, 0},
                                   .L2_CNTL4 = {0x04fd, 0},
                                   .L2_CNTL5 = {0x0503, 0},
                                   .L2_PROTECTION_FAULT_CNTL = {0x04ec, 0},
                                   .L2_PROTECTION_FAULT_CNTL2 = {0x04ed, 0},
                                   .l2_cntl3_default = kMmvmL2Cntl3Default,
                                   .invalidate_semaphore = true,
                                   .INVALIDATE_ENG17_SEM = {0x0586, 0},
                                   .L2_BANK_SELECT_RESERVED_CID2 = {0x0500, 0}};

// MMHUB 3.0.2, read in Linux mmhub_3_0_2_offset.h (all BASE_IDX 0): the same blocks as 3.0.0,
// 0x80 dwords lower (L2 0x0680, contexts 0x06c0), the shared blocks at 0x0858 / 0x086c.
// amdgpu drives it with its own mmhub_v3_0_2.c (gmc_v11_0_set_mmhub_funcs).
inline constexpr VmHubRegs kMmhub3_0_2{.name = "MMHUB 3.0.2",
                                       .CONTEXT0_CNTL = {0x06c0, 0},
                                       .PAGE_TABLE_BASE_LO32 = {0x072b, 0},
                                       .PAGE_TABLE_BASE_HI32 = {0x072c, 0},
                                       .PAGE_TABLE_START_LO32 = {0x074b, 0},
                                       .PAGE_TABLE_START_HI32 = {0x074c, 0},
                                       .PAGE_TABLE_END_LO32 = {0x076b, 0},
                                       .PAGE_TABLE_END_HI32 = {0x076c, 0},
                                       .block_size_shift = 3,
                                       .INVALIDATE_ENG17_REQ = {0x06f4, 0},
                                       .INVALIDATE_ENG17_ACK = {0x0706, 0},
                                       .INVALIDATE_ENG0_ADDR_RANGE_LO32 = {0x0707, 0},
                                       .FB_LOCATION_BASE = {0x086c, 0},
                                       .FB_LOCATION_TOP = {0x086d, 0},
                                       .AGP_TOP = {0x086e, 0},
                                       .AGP_BOT = {0x086f, 0},
                                       .AGP_BASE = {0x0870, 0},
                                       .SYSTEM_APERTURE_LOW_ADDR = {0x0871, 0},
                                       .SYSTEM_APERTURE_HIGH_ADDR = {0x0872, 0},
                                       .SYSTEM_APERTURE_DEFAULT_ADDR_LSB = {0x0858, 0},
                                       .SYSTEM_APERTURE_DEFAULT_ADDR_MSB = {0x0859, 0},
                                       .MX_L1_TLB_CNTL = {0x0873, 0},
                                       .L2_CNTL = {0x0680, 0},
                                       .L2_CNTL2 = {0x0681, 0},
                                       .L2_PROTECTION_FAULT_DEFAULT_ADDR_LO32 = {0x068f, 0},
                                       .L2_PROTECTION_FAULT_DEFAULT_ADDR_HI32 = {0x0690, 0},
                                       .L2_CNTL3 = {0x0682, 0},
                                       .L2_CNTL4 = {0x0698, 0},
                                       .L2_CNTL5 = {0x069e, 0},
                                       .L2_PROTECTION_FAULT_CNTL = {0x0688, 0},
                                       .L2_PROTECTION_FAULT_CNTL2 = {0x0689, 0},
                                       .l2_cntl3_default = kMmvmL2Cntl3Default,
                                       .invalidate_semaphore = true,
                                       .INVALIDATE_ENG17_SEM = {0x06e2, 0},
                                       .L2_BANK_SELECT_RESERVED_CID2 = {0x069b, 0}};

// The MMHUB table of an MMHUB IP version, or nullptr when amcl has none: an exact match, as for
// GC (gc_generations.h), because the 3.0.x revisions moved their registers. amdgpu's
// gmc_v11_0_set_mmhub_funcs gives 3.0.1, 3.0.2 and 3.3.x their own code and headers; amcl has
// read 3.0.0 and 3.0.2. gmc_v12_0 drives MMHUB 4.1.0 (Navi44, Navi48).
inline constexpr const VmHubRegs* mmhub_regs_for(unsigned major, unsigned minor,
                                                 unsigned revision) {
  if (major == 3 && minor == 0 && revision == 0) return &kMmhub3;
  if (major == 3 && minor == 0 && revision == 2) return &kMmhub3_0_2;
  if (major == 4 && minor == 1 && revision == 0) return &kMmhub4;
  return nullptr;
}

// MC_VM_MX_L1_TLB_CNTL fields: ENABLE_L1_TLB [0], SYSTEM_ACCESS_MODE [4:3],
// SYSTEM_APERTURE_UNMAPPED_ACCESS [5], ENABLE_ADVANCED_DRIVER_MODEL [6], ECO_BITS [10:7],
// MTYPE [12:11]. amdgpu's init_tlb_regs (and tinygrad's AM): L1 TLB on, system access mode 3,
// the advanced driver model, unmapped system-aperture accesses not passed through, MTYPE UC
// (3): 0x1859, the value tinygrad reads back from a card amdgpu set up.
inline constexpr uint32_t MX_L1_TLB_ENABLE_L1_TLB = 1u << 0;
inline constexpr uint32_t MX_L1_TLB_FIELDS_MASK = 0x1fff;
inline constexpr uint32_t kMxL1TlbCntl = MX_L1_TLB_ENABLE_L1_TLB | 3u << 3 | 1u << 6 | 3u << 11;

// VM_L2_CNTL fields amcl sets (init_cache_regs; the others keep their reset values):
// ENABLE_L2_CACHE [0] = 1, ENABLE_L2_FRAGMENT_PROCESSING [1] = 0,
// L2_PDE0_CACHE_TAG_GENERATION_MODE [8] = 0, ENABLE_DEFAULT_PAGE_OUT_TO_SYSTEM_MEMORY [11] = 1,
// PDE_FAULT_CLASSIFICATION [18] = 0, CONTEXT1_IDENTITY_ACCESS_MODE [20:19] = 1,
// IDENTITY_MODE_FRAGMENT_SIZE [25:21] = 0.
inline constexpr uint32_t VM_L2_CNTL_ENABLE_L2_CACHE = 1u << 0;
inline constexpr uint32_t kVmL2CntlMask =
    0x1u | 0x2u | 0x100u | 0x800u | 0x40000u | 0x180000u | 0x3e00000u;
inline constexpr uint32_t kVmL2CntlValue = VM_L2_CNTL_ENABLE_L2_CACHE | 0x800u | 1u << 19;
inline constexpr uint32_t vm_l2_cntl(uint32_t reset_value) {
  return (reset_value & ~kVmL2CntlMask) | kVmL2CntlValue;
}
// VM_L2_CNTL2: INVALIDATE_ALL_L1_TLBS [0], INVALIDATE_L2_CACHE [1].
inline constexpr uint32_t kVmL2Cntl2InvalidateAll = 0x3;

// The invalidation engines' address range, as amdgpu's gfxhub/mmhub program_invalidation sets
// every engine's (gfxhub_v3_0.c, mmhub_v3_0.c, gfxhub_v12_0.c, mmhub_v4_1_0.c): the whole VA
// space, LO32 0xffffffff and HI32 0x1f (logical page numbers, 37 bits). Out of reset the
// range is 0: an invalidation would reach only the first page.
inline constexpr unsigned kInvalidationEngines = 18;
inline constexpr uint32_t kInvalidateRangeLo32 = 0xffffffff, kInvalidateRangeHi32 = 0x1f;
inline constexpr Reg invalidate_range_lo32(const VmHubRegs& h, unsigned engine) {
  return {h.INVALIDATE_ENG0_ADDR_RANGE_LO32.offset + 2 * engine,
          h.INVALIDATE_ENG0_ADDR_RANGE_LO32.base_idx};
}
inline constexpr Reg invalidate_range_hi32(const VmHubRegs& h, unsigned engine) {
  return {h.INVALIDATE_ENG0_ADDR_RANGE_LO32.offset + 2 * engine + 1,
          h.INVALIDATE_ENG0_ADDR_RANGE_LO32.base_idx};
}

// CONTEXTn_CNTL's protection-fault interrupt enables: RANGE, DUMMY_PAGE, PDE0, VALID, READ,
// WRITE and EXECUTE _PROTECTION_FAULT_ENABLE_INTERRUPT, each followed by its ENABLE_DEFAULT,
// starting 6 bits above PAGE_TABLE_BLOCK_SIZE: bits 9, 11 .. 21 on GC 11 (gc_11_0_0_sh_mask.h,
// re-read) and 10, 12 .. 22 on GC 12 (gc_12_0_0_sh_mask.h, re-read); each MMHUB assumed laid out
// as the GC hub of its generation. amdgpu sets all seven in CONTEXT0..15_CNTL of both hubs
// (gmc_v11_0/v12_0_vm_fault_interrupt_state, vm_cntx_cntl_vm_fault): without them a hub
// raises no interrupt for a fault, and the driver never learns of one.
inline constexpr uint32_t vm_context_fault_interrupts(uint32_t block_size_shift) {
  uint32_t mask = 0;
  for (uint32_t k = 0; k < 7; ++k) mask |= 1u << (block_size_shift + 6 + 2 * k);
  return mask;
}
// VALID_PROTECTION_FAULT_ENABLE_INTERRUPT alone (the fourth): an access to an invalid PTE.
inline constexpr uint32_t vm_context_valid_fault_interrupt(uint32_t block_size_shift) {
  return 1u << (block_size_shift + 12);
}

// AGP aperture off: BOT above TOP (amdgpu and tinygrad write BOT = 0xffffff, TOP = BASE = 0).
inline constexpr uint32_t kAgpBotDisabled = 0xffffff;

} // namespace am::hw
