// GC 12.0.0 (RDNA4, gfx1200/gfx1201) register offsets amcl uses.
//
// Source: Linux drivers/gpu/drm/amd/include/asic_reg/gc/gc_12_0_0_offset.h and
// gc_12_0_0_sh_mask.h (also in tinygrad's generated tinygrad/runtime/autogen/am/regs/
// gc_12_0_0.py, which carries offset, BASE_IDX and fields together). Against GC 11.0.0: the
// SDMA0 queue registers past WPTR_HI, the GCVM context registers, the protection-fault block
// (STATUS became STATUS_LO32/HI32), the CONTEXT_CNTL block-size field and
// RLC_RLCS_BOOTLOAD_STATUS moved; GRBM, SH_MEM, SCRATCH, the CP interrupt and poll registers,
// the RS64 MEC block and the HQD block did not. Every offset below was read in the Linux
// gc_12_0_0_offset.h (the hyp-dec SDMA block and the RLCS block included), and every field
// amcl sets in gc_12_0_0_sh_mask.h. Pinned by tests/am/hw_facts_test.cpp.
#pragma once
#include "gc_regs.h"

namespace am::hw {

// GC 12 keeps GC 11's segment bases (IP discovery, GC 12.0.x instance 0).
inline constexpr uint32_t kGc12Seg0 = 0x00001260;
inline constexpr uint32_t kGc12Seg1 = 0x0000A000;

inline constexpr GcRegs kGc12{
    .name = "GC 12.0.0",
    .GRBM_GFX_CNTL = {0x0900, 1},
    .GRBM_CNTL = {0x0da0, 0},
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
    .SDMA0_QUEUE0_RB_RPTR_ADDR_LO = {0x0087, 0},
    .SDMA0_QUEUE0_RB_RPTR_ADDR_HI = {0x0088, 0},
    .SDMA0_QUEUE0_IB_CNTL = {0x0089, 0},
    .SDMA0_QUEUE0_DOORBELL = {0x008f, 0},
    .SDMA0_QUEUE0_DOORBELL_OFFSET = {0x0091, 0},
    .SDMA0_QUEUE0_RB_WPTR_POLL_ADDR_LO = {0x0098, 0},
    .SDMA0_QUEUE0_RB_WPTR_POLL_ADDR_HI = {0x0099, 0},
    .SDMA0_QUEUE0_MINOR_PTR_UPDATE = {0x009b, 0},
    // SDMA0_MCU_CNTL 0x588e (base 1; SDMA1's 0x20 further at 0x58ae), HALT [0], RESET [1],
    // DBG_SELECT_BITS [7:2]. Its reset value is not in the headers: the model's is HALT.
    .SDMA0_ENGINE_CNTL = {0x588e, 1},
    .sdma_engine_cntl_reset = 0x1,
    .sdma_engine_run_clear = 0x3,
    .GCVM_CONTEXT0_CNTL = {0x1624, 0},
    .GCVM_CONTEXT0_PAGE_TABLE_BASE_ADDR_LO32 = {0x168f, 0},
    .GCVM_CONTEXT0_PAGE_TABLE_BASE_ADDR_HI32 = {0x1690, 0},
    .GCVM_CONTEXT0_PAGE_TABLE_START_ADDR_LO32 = {0x16af, 0},
    .GCVM_CONTEXT0_PAGE_TABLE_START_ADDR_HI32 = {0x16b0, 0},
    .GCVM_CONTEXT0_PAGE_TABLE_END_ADDR_LO32 = {0x16cf, 0},
    .GCVM_CONTEXT0_PAGE_TABLE_END_ADDR_HI32 = {0x16d0, 0},
    .vm_context_block_size_shift = 4,
    .GCVM_INVALIDATE_ENG17_REQ = {0x1658, 0},
    .GCVM_INVALIDATE_ENG17_ACK = {0x166a, 0},
    .GCVM_INVALIDATE_ENG0_ADDR_RANGE_LO32 = {0x166b, 0}, // after ENG17_ACK, as in every hub
    .GCVM_L2_PROTECTION_FAULT_CNTL = {0x15cc, 0},
    .GCVM_L2_PROTECTION_FAULT_STATUS = {0x15d0, 0}, // STATUS_LO32
    .GCVM_L2_PROTECTION_FAULT_ADDR_LO32 = {0x15d2, 0},
    .GCVM_L2_PROTECTION_FAULT_ADDR_HI32 = {0x15d3, 0},
    .GCMC_VM_FB_LOCATION_BASE = {0x1614, 0},
    .GCMC_VM_FB_LOCATION_TOP = {0x1615, 0},
    .GCMC_VM_AGP_TOP = {0x1616, 0},
    .GCMC_VM_AGP_BOT = {0x1617, 0},
    .GCMC_VM_AGP_BASE = {0x1618, 0},
    .GCMC_VM_SYSTEM_APERTURE_LOW_ADDR = {0x1619, 0},
    .GCMC_VM_SYSTEM_APERTURE_HIGH_ADDR = {0x161a, 0},
    .GCMC_VM_SYSTEM_APERTURE_DEFAULT_ADDR_LSB = {0x15a8, 0},
    .GCMC_VM_SYSTEM_APERTURE_DEFAULT_ADDR_MSB = {0x15a9, 0},
    .GCMC_VM_MX_L1_TLB_CNTL = {0x161b, 0},
    .GCVM_L2_CNTL = {0x15c4, 0},
    .GCVM_L2_CNTL2 = {0x15c5, 0},
    .GCVM_L2_PROTECTION_FAULT_DEFAULT_ADDR_LO32 = {0x15d4, 0},
    .GCVM_L2_PROTECTION_FAULT_DEFAULT_ADDR_HI32 = {0x15d5, 0},
    .GCVM_L2_CNTL3 = {0x15c6, 0}, // gc_12_0_0_offset.h, gcvml2pfdec, read
    .GCVM_L2_CNTL4 = {0x15dd, 0},
    .GCVM_L2_CNTL5 = {0x15e3, 0},
    .GCVM_L2_PROTECTION_FAULT_CNTL2 = {0x15cd, 0},
    .CP_DEBUG = {0x1e1f, 0}, // gc_12_0_0_offset.h cppdec, read
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
    .CP_MEC_DOORBELL_RANGE_LOWER = {0x1dfc, 0},
    .CP_MEC_DOORBELL_RANGE_UPPER = {0x1dfd, 0},
    // RLC_RLCS_BOOTLOAD_STATUS moved to 0x4e7c on GC 12 (BOOTLOAD_COMPLETE still [31]); GC 11's
    // 0x4e82 is RLC_RLCS_GENERAL_2 here, a firmware scratch register a poll would never see
    // complete. The RS64 MEC block is GC 11's, fields included.
    .CP_STAT = {0x0f40, 0},
    .RLC_RLCS_BOOTLOAD_STATUS = {0x4e7c, 1},
    .CP_MEC_RS64_PRGRM_CNTR_START = {0x2900, 1},
    .CP_MEC_RS64_PRGRM_CNTR_START_HI = {0x2938, 1},
    .CP_MEC_RS64_CNTL = {0x2904, 1},
    // SDMA0_CNTL moved with the rest of SDMA 7's engine registers; TRAP_ENABLE is still [0].
    .CP_ME1_PIPE0_INT_CNTL = {0x1e25, 0},
    .SDMA0_CNTL = {0x000d, 0},
    // SPI_COMPUTE_QUEUE_RESET is in the SE's spipdec block (0x1f73, base 0), as on GC 11.
    .CP_HQD_DEQUEUE_REQUEST = {0x1fc1, 0},
    .SPI_COMPUTE_QUEUE_RESET = {0x1f73, 0},
    .CP_PQ_WPTR_POLL_CNTL = {0x1e23, 0},
    .CP_PQ_STATUS = {0x1e58, 0},
    // SDMA 7 moved them: SDMA0_WATCHDOG_CNTL 0x002b, SDMA0_UTCL1_CNTL 0x0035, SDMA0_UTCL1_PAGE
    // 0x0038 (no LLC_NOALLOC), base 0 (tinygrad autogen/am/regs.py gc_12_0_0).
    .SDMA0_WATCHDOG_CNTL = {0x002b, 0},
    .SDMA0_UTCL1_CNTL = {0x0035, 0},
    .SDMA0_UTCL1_PAGE = {0x0038, 0},
    .sdma_utcl1_llc_noalloc = false,
};

} // namespace am::hw
