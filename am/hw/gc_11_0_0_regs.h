// GC 11.0.0 (RDNA3, gfx1100) register offsets amcl uses.
//
// Source: Linux drivers/gpu/drm/amd/include/asic_reg/gc/gc_11_0_0_offset.h (offset, BASE_IDX)
// and gc_11_0_0_sh_mask.h (fields). Pinned by tests/am/hw_facts_test.cpp.
#pragma once
#include "gc_regs.h"

namespace am::hw {

// Segment bases of the GC block on gfx1100 (IP discovery, GC 11.0.0 instance 0). The header's
// regCOMPUTE_DISPATCH_INITIATOR (0x1ba0, base 0) landing on SH register 0x2E00 confirms seg 0.
inline constexpr uint32_t kGc11Seg0 = 0x00001260;
inline constexpr uint32_t kGc11Seg1 = 0x0000A000;

inline constexpr GcRegs kGc11{
    .name = "GC 11.0.0",
    .GRBM_GFX_CNTL = {0x0900, 1},
    .GRBM_CNTL = {0x0da0, 0}, // gc_11_0_0_offset.h, re-read
    .SH_MEM_BASES = {0x09e3, 1},
    .SH_MEM_CONFIG = {0x09e4, 1},
    .SCRATCH_REG6 = {0x2046, 1},
    .SCRATCH_REG7 = {0x2047, 1},
    .SDMA0_QUEUE0_RB_CNTL = {0x0080, 0},
    .SDMA0_QUEUE0_RB_BASE = {0x0081, 0},
    .SDMA0_QUEUE0_RB_BASE_HI = {0x0082, 0},
    .SDMA0_QUEUE0_RB_RPTR = {0x0083, 0},
    .SDMA0_QUEUE0_RB_RPTR_HI = {0x0084, 0},
    .SDMA0_QUEUE0_RB_WPTR = {0x0085, 0},
    .SDMA0_QUEUE0_RB_WPTR_HI = {0x0086, 0},
    .SDMA0_QUEUE0_RB_RPTR_ADDR_LO = {0x0089, 0},
    .SDMA0_QUEUE0_RB_RPTR_ADDR_HI = {0x0088, 0},
    .SDMA0_QUEUE0_IB_CNTL = {0x008a, 0},
    .SDMA0_QUEUE0_DOORBELL = {0x0092, 0},
    .SDMA0_QUEUE0_DOORBELL_OFFSET = {0x00ab, 0},
    .SDMA0_QUEUE0_RB_WPTR_POLL_ADDR_LO = {0x00b3, 0},
    .SDMA0_QUEUE0_RB_WPTR_POLL_ADDR_HI = {0x00b2, 0},
    .SDMA0_QUEUE0_MINOR_PTR_UPDATE = {0x00b5, 0},
    // SDMA0_F32_CNTL: 0x589a, base 1, the hyp-dec range's end (gc_11_0_0_offset.h, re-read);
    // reset value 0x08084001 (gc_11_0_0_default.h as transcribed). Fields (gc_11_0_0_sh_mask.h,
    // read): HALT [0], TH0_RESET [9], TH0_ENABLE [10], TH1_RESET [13], TH1_ENABLE [14],
    // TH0/TH1_PRIORITY [23:16]/[31:24]; so out of reset HALT and TH1_ENABLE are set, priorities
    // 8. gfx_resume clears HALT and TH1_RESET (amdgpu's soft reset sets both; a reset card has
    // TH1_RESET clear already).
    .SDMA0_ENGINE_CNTL = {0x589a, 1},
    .sdma_engine_cntl_reset = 0x08084001,
    .sdma_engine_run_clear = 0x2001,
    .GCVM_CONTEXT0_CNTL = {0x1688, 0},
    .GCVM_CONTEXT0_PAGE_TABLE_BASE_ADDR_LO32 = {0x16f3, 0},
    .GCVM_CONTEXT0_PAGE_TABLE_BASE_ADDR_HI32 = {0x16f4, 0},
    .GCVM_CONTEXT0_PAGE_TABLE_START_ADDR_LO32 = {0x1713, 0},
    .GCVM_CONTEXT0_PAGE_TABLE_START_ADDR_HI32 = {0x1714, 0},
    .GCVM_CONTEXT0_PAGE_TABLE_END_ADDR_LO32 = {0x1733, 0},
    .GCVM_CONTEXT0_PAGE_TABLE_END_ADDR_HI32 = {0x1734, 0},
    .vm_context_block_size_shift = 3,
    .GCVM_INVALIDATE_ENG17_REQ = {0x16bc, 0},
    .GCVM_INVALIDATE_ENG17_ACK = {0x16ce, 0},
    .GCVM_INVALIDATE_ENG0_ADDR_RANGE_LO32 = {0x16cf, 0},
    .GCVM_L2_PROTECTION_FAULT_CNTL = {0x15c4, 0},
    .GCVM_L2_PROTECTION_FAULT_STATUS = {0x15c8, 0},
    .GCVM_L2_PROTECTION_FAULT_ADDR_LO32 = {0x15c9, 0},
    .GCVM_L2_PROTECTION_FAULT_ADDR_HI32 = {0x15ca, 0},
    .GCMC_VM_FB_LOCATION_BASE = {0x1678, 0},
    .GCMC_VM_FB_LOCATION_TOP = {0x1679, 0},
    .GCMC_VM_AGP_TOP = {0x167a, 0},
    .GCMC_VM_AGP_BOT = {0x167b, 0},
    .GCMC_VM_AGP_BASE = {0x167c, 0},
    .GCMC_VM_SYSTEM_APERTURE_LOW_ADDR = {0x167d, 0},
    .GCMC_VM_SYSTEM_APERTURE_HIGH_ADDR = {0x167e, 0},
    .GCMC_VM_SYSTEM_APERTURE_DEFAULT_ADDR_LSB = {0x15a8, 0},
    .GCMC_VM_SYSTEM_APERTURE_DEFAULT_ADDR_MSB = {0x15a9, 0},
    .GCMC_VM_MX_L1_TLB_CNTL = {0x167f, 0},
    .GCVM_L2_CNTL = {0x15bc, 0},
    .GCVM_L2_CNTL2 = {0x15bd, 0},
    .GCVM_L2_PROTECTION_FAULT_DEFAULT_ADDR_LO32 = {0x15cb, 0},
    .GCVM_L2_PROTECTION_FAULT_DEFAULT_ADDR_HI32 = {0x15cc, 0},
    .GCVM_L2_CNTL3 = {0x15be, 0}, // gc_11_0_0_offset.h, gcvml2pfdec, read
    .GCVM_L2_CNTL4 = {0x15d4, 0},
    .GCVM_L2_CNTL5 = {0x15da, 0},
    .GCVM_L2_PROTECTION_FAULT_CNTL2 = {0x15c5, 0},
    // Added to gc_11_0_0_offset.h by "drm/amd/amdgpu: add additional page fault settings for
    // gfx11" (July 2022), next to GB_EDC_MODE 0x1e1e and CP_CPC_DEBUG 0x1e21.
    // Second source for CP_DEBUG, CP_ME1_PIPE0_INT_CNTL, CP_PQ_WPTR_POLL_CNTL, CP_PQ_STATUS and
    // SDMA0_F32_CNTL: tinygrad's copy, extra/hip_gpu_driver/gc_11_0_0_offset.h (same offsets and
    // BASE_IDX). Their bit fields have one source only (gc_11_0_0_sh_mask.h): unverified.
    .CP_DEBUG = {0x1e1f, 0},
    .CP_MQD_BASE_ADDR = {0x1fa9, 0},
    .CP_HQD_ACTIVE = {0x1fab, 0},
    .CP_HQD_PQ_BASE = {0x1fb1, 0},
    .CP_HQD_PQ_BASE_HI = {0x1fb2, 0},
    .CP_HQD_PQ_RPTR = {0x1fb3, 0},
    .CP_HQD_PQ_RPTR_REPORT_ADDR = {0x1fb4, 0},
    .CP_HQD_PQ_RPTR_REPORT_ADDR_HI = {0x1fb5, 0},
    .CP_HQD_PQ_WPTR_POLL_ADDR = {0x1fb6, 0},
    .CP_HQD_PQ_WPTR_POLL_ADDR_HI = {0x1fb7, 0},
    .CP_HQD_PQ_DOORBELL_CONTROL = {0x1fb8, 0},
    .CP_HQD_PQ_CONTROL = {0x1fba, 0},
    .CP_HQD_EOP_BASE_ADDR = {0x1fce, 0},
    .CP_HQD_EOP_BASE_ADDR_HI = {0x1fcf, 0},
    .CP_HQD_EOP_CONTROL = {0x1fd0, 0},
    .CP_HQD_PQ_WPTR_LO = {0x1fdf, 0},
    .CP_HQD_PQ_WPTR_HI = {0x1fe0, 0},
    // CP_MEC_DOORBELL_RANGE_LOWER/UPPER: 0x1dfc/0x1dfd (gc_11_0_0_offset.h, re-read).
    .CP_MEC_DOORBELL_RANGE_LOWER = {0x1dfc, 0},
    .CP_MEC_DOORBELL_RANGE_UPPER = {0x1dfd, 0},
    // Linux gc_11_0_0_offset.h, re-read: CP_STAT 0x0f40 (base 0), RLC_RLCS_BOOTLOAD_STATUS
    // 0x4e82 and the RS64 MEC block 0x2900 (PRGRM_CNTR_START), 0x2904 (CNTL) and 0x2938
    // (PRGRM_CNTR_START_HI), base 1.
    .CP_STAT = {0x0f40, 0},
    .RLC_RLCS_BOOTLOAD_STATUS = {0x4e82, 1},
    .CP_MEC_RS64_PRGRM_CNTR_START = {0x2900, 1},
    .CP_MEC_RS64_PRGRM_CNTR_START_HI = {0x2938, 1},
    .CP_MEC_RS64_CNTL = {0x2904, 1},
    // Linux gc_11_0_0_offset.h, re-read: CP_ME1_PIPE0_INT_CNTL 0x1e25 and SDMA0_CNTL 0x001c,
    // base 0.
    .CP_ME1_PIPE0_INT_CNTL = {0x1e25, 0},
    .SDMA0_CNTL = {0x001c, 0},
    // CP_HQD_DEQUEUE_REQUEST 0x1fc1 (the HQD block, v11_structs.h's cp_hqd_dequeue_request at
    // MQD dword 152) and SPI_COMPUTE_QUEUE_RESET 0x1f73, base 0 (gc_11_0_0_offset.h, re-read).
    .CP_HQD_DEQUEUE_REQUEST = {0x1fc1, 0},
    .SPI_COMPUTE_QUEUE_RESET = {0x1f73, 0},
    // CP_PQ_WPTR_POLL_CNTL 0x1e23 and CP_PQ_STATUS 0x1e58, base 0 (gc_11_0_0_offset.h, re-read).
    .CP_PQ_WPTR_POLL_CNTL = {0x1e23, 0},
    .CP_PQ_STATUS = {0x1e58, 0},
    // SDMA0_WATCHDOG_CNTL 0x002e, SDMA0_UTCL1_CNTL 0x003c, SDMA0_UTCL1_PAGE 0x003f, base 0
    // (tinygrad extra/hip_gpu_driver/gc_11_0_0_offset.h and autogen/am/regs.py gc_11_0_0).
    .SDMA0_WATCHDOG_CNTL = {0x002e, 0},
    .SDMA0_UTCL1_CNTL = {0x003c, 0},
    .SDMA0_UTCL1_PAGE = {0x003f, 0},
    .sdma_utcl1_llc_noalloc = true,
};

} // namespace am::hw
