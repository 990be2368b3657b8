// The GC registers amcl programs (SDMA0 queue 0 included: on SOC21/SOC24 parts its registers
// sit in the GC register space), as one table per GC generation, and the register fields the
// generations share.
//
// Each register is a dword offset plus a BASE_IDX naming the GC segment it is relative to
// (Linux gc_<ver>_offset.h); its BAR5 dword index is that segment's base, from IP discovery,
// plus the offset. The tables are in gc_11_0_0_regs.h, gc_11_0_3_regs.h and gc_12_0_0_regs.h
// (which IP version takes which: gc_generations.h), pinned by tests/am/hw_facts_test.cpp.
#pragma once
#include <cstdint>

namespace am::hw {

struct Reg {
  uint32_t offset;
  uint8_t base_idx;
};

struct GcRegs {
  const char* name; // "GC 11.0.0": the header the offsets were read from
  Reg GRBM_GFX_CNTL;
  // GRBM_CNTL.READ_TIMEOUT [7:0]: how long a register read through the GRBM waits for a block
  // to answer; gfx_v11_0/v12_0_constants_init (and tinygrad's AM) set it to 0xff. The field was
  // read in gc_11_0_0_sh_mask.h (gc_grbmdec; REPORT_LAST_RDERR is [31]); for GC 12 it is
  // assumed unchanged, as it has been since gc_9.
  Reg GRBM_CNTL;
  Reg SH_MEM_BASES, SH_MEM_CONFIG;
  Reg SCRATCH_REG6, SCRATCH_REG7;
  Reg SDMA0_QUEUE0_RB_CNTL, SDMA0_QUEUE0_RB_BASE, SDMA0_QUEUE0_RB_BASE_HI;
  Reg SDMA0_QUEUE0_RB_RPTR, SDMA0_QUEUE0_RB_RPTR_HI, SDMA0_QUEUE0_RB_WPTR, SDMA0_QUEUE0_RB_WPTR_HI;
  Reg SDMA0_QUEUE0_RB_RPTR_ADDR_LO, SDMA0_QUEUE0_RB_RPTR_ADDR_HI, SDMA0_QUEUE0_IB_CNTL;
  Reg SDMA0_QUEUE0_DOORBELL, SDMA0_QUEUE0_DOORBELL_OFFSET;
  Reg SDMA0_QUEUE0_RB_WPTR_POLL_ADDR_LO, SDMA0_QUEUE0_RB_WPTR_POLL_ADDR_HI;
  Reg SDMA0_QUEUE0_MINOR_PTR_UPDATE;
  // The SDMA engine's microcontroller control: SDMA0_F32_CNTL on SDMA 6, SDMA0_MCU_CNTL on
  // SDMA 7, in the "hyp dec" range 0x5880-0x589a of GC segment 1 (sdma_v6_0.c / sdma_v7_0.c
  // SDMA0_HYP_DEC_REG_START/END, which sdma_v*_get_reg_offset maps to reg_offset[GC][0][1]).
  // Out of reset the engine is halted; amdgpu's gfx_resume clears the bits in
  // sdma_engine_run_clear (HALT, and TH1_RESET on SDMA 6 / RESET on SDMA 7) before enabling the
  // ring.
  Reg SDMA0_ENGINE_CNTL;
  uint32_t sdma_engine_cntl_reset; // its power-on value
  uint32_t sdma_engine_run_clear;
  // GCVM context 0, the one VMID amcl uses.
  Reg GCVM_CONTEXT0_CNTL;
  Reg GCVM_CONTEXT0_PAGE_TABLE_BASE_ADDR_LO32, GCVM_CONTEXT0_PAGE_TABLE_BASE_ADDR_HI32;
  Reg GCVM_CONTEXT0_PAGE_TABLE_START_ADDR_LO32, GCVM_CONTEXT0_PAGE_TABLE_START_ADDR_HI32;
  Reg GCVM_CONTEXT0_PAGE_TABLE_END_ADDR_LO32, GCVM_CONTEXT0_PAGE_TABLE_END_ADDR_HI32;
  // GCVM_CONTEXT0_CNTL.PAGE_TABLE_BLOCK_SIZE: [6:3] on GC 11, [7:4] on GC 12.
  uint32_t vm_context_block_size_shift;
  // TLB invalidation engine 17 (the one amdgpu's GMC code leaves to the driver's own flushes):
  // write REQ, poll ACK for the VMID's bit. GCVM_CONTEXT0..15_CNTL, GCVM_CONTEXTS_DISABLE, then
  // ENG0..17_SEM, ENG0..17_REQ, ENG0..17_ACK follow each other in the offset headers.
  Reg GCVM_INVALIDATE_ENG17_REQ, GCVM_INVALIDATE_ENG17_ACK;
  Reg GCVM_INVALIDATE_ENG0_ADDR_RANGE_LO32; // engine i at +2i, HI32 one after
  // VM protection fault reporting (STATUS is STATUS_LO32 on GC 12, same fields).
  Reg GCVM_L2_PROTECTION_FAULT_CNTL, GCVM_L2_PROTECTION_FAULT_STATUS;
  Reg GCVM_L2_PROTECTION_FAULT_ADDR_LO32, GCVM_L2_PROTECTION_FAULT_ADDR_HI32;
  // GFXHUB's apertures, L1 TLB and L2 cache controls and fault default page (vm_hub_regs.h).
  Reg GCMC_VM_FB_LOCATION_BASE, GCMC_VM_FB_LOCATION_TOP;
  Reg GCMC_VM_AGP_TOP, GCMC_VM_AGP_BOT, GCMC_VM_AGP_BASE;
  Reg GCMC_VM_SYSTEM_APERTURE_LOW_ADDR, GCMC_VM_SYSTEM_APERTURE_HIGH_ADDR;
  Reg GCMC_VM_SYSTEM_APERTURE_DEFAULT_ADDR_LSB, GCMC_VM_SYSTEM_APERTURE_DEFAULT_ADDR_MSB;
  Reg GCMC_VM_MX_L1_TLB_CNTL;
  Reg GCVM_L2_CNTL, GCVM_L2_CNTL2;
  Reg GCVM_L2_PROTECTION_FAULT_DEFAULT_ADDR_LO32, GCVM_L2_PROTECTION_FAULT_DEFAULT_ADDR_HI32;
  // The rest of GFXHUB's L2 set-up (gfxhub_v3_0/v12_0 init_cache_regs: CNTL3..5 from their
  // reset defaults with amdgpu's tuning; init_system_aperture_regs: PROTECTION_FAULT_CNTL2), and
  // CP_DEBUG, whose CPG_UTCL1_ERROR_HALT_DISABLE set_fault_enable_default sets ("NO halt CP when
  // page fault").
  Reg GCVM_L2_CNTL3, GCVM_L2_CNTL4, GCVM_L2_CNTL5, GCVM_L2_PROTECTION_FAULT_CNTL2;
  Reg CP_DEBUG;
  // Hardware queue descriptor registers of the queue GRBM_GFX_CNTL selects; they mirror the
  // compute MQD from dword 128 on (mqd.h), CP_MQD_BASE_ADDR first.
  Reg CP_MQD_BASE_ADDR, CP_HQD_ACTIVE, CP_HQD_PQ_BASE, CP_HQD_PQ_BASE_HI, CP_HQD_PQ_RPTR;
  Reg CP_HQD_PQ_RPTR_REPORT_ADDR, CP_HQD_PQ_RPTR_REPORT_ADDR_HI;
  Reg CP_HQD_PQ_WPTR_POLL_ADDR, CP_HQD_PQ_WPTR_POLL_ADDR_HI;
  Reg CP_HQD_PQ_DOORBELL_CONTROL, CP_HQD_PQ_CONTROL;
  Reg CP_HQD_EOP_BASE_ADDR, CP_HQD_EOP_BASE_ADDR_HI, CP_HQD_EOP_CONTROL;
  Reg CP_HQD_PQ_WPTR_LO, CP_HQD_PQ_WPTR_HI;
  // The doorbells the MEC listens to: byte offsets into the doorbell BAR, inclusive
  // (gfx_v11_0_kiq_init_register: KIQ's doorbell * 2 << 2 to userqueue_end * 2 << 2).
  Reg CP_MEC_DOORBELL_RANGE_LOWER, CP_MEC_DOORBELL_RANGE_UPPER;
  // Bringing up the MEC after the PSP's RLC autoload (gfx_v11_0_hw_init / gfx_v12_0_hw_init):
  // wait for RLC_RLCS_BOOTLOAD_STATUS.BOOTLOAD_COMPLETE with CP_STAT 0
  // (wait_for_rlc_autoload_complete), give every MEC pipe its program counter start from the
  // firmware file's ucode_start_addr with the pipe selected in GRBM_GFX_CNTL (ME 1), pulse the
  // pipe resets so they take it (config_gfx_rs64), then release the pipes and the halt in
  // CP_MEC_RS64_CNTL (cp_compute_enable).
  Reg CP_STAT, RLC_RLCS_BOOTLOAD_STATUS;
  Reg CP_MEC_RS64_PRGRM_CNTR_START, CP_MEC_RS64_PRGRM_CNTR_START_HI;
  Reg CP_MEC_RS64_CNTL;
  // Interrupt sources the driver waits on (amdgpu turns them on when a fence or fault handler
  // takes its IRQ): MEC 1 pipe 0's end-of-pipe and bad-opcode interrupts
  // (gfx_v11_0_set_compute_eop_interrupt_state; amdkfd's init_interrupts), and SDMA 0's trap
  // (sdma_v6_0/v7_0_set_trap_irq_state: SDMA0_CNTL.TRAP_ENABLE).
  Reg CP_ME1_PIPE0_INT_CNTL, SDMA0_CNTL;
  // Taking a compute queue off the hardware: a dequeue request to the selected HQD, the SPI's
  // per-queue wave reset, then CP_HQD_ACTIVE polled to 0 (gfx_v11_0_soft_reset,
  // kiq_init_register; tinygrad's AM fini).
  Reg CP_HQD_DEQUEUE_REQUEST, SPI_COMPUTE_QUEUE_RESET;
  // Around a directly programmed queue (gfx_v11_0_kiq_init_register, which amcl's queue is
  // programmed like): write-pointer polling off before, the CP's queue doorbells on after.
  Reg CP_PQ_WPTR_POLL_CNTL, CP_PQ_STATUS;
  // SDMA 0's hang watchdog and its UTCL1 (the engine's address translation and L2 policy),
  // programmed as tinygrad's AM_SDMA.init_hw does before the queue (fields below).
  Reg SDMA0_WATCHDOG_CNTL, SDMA0_UTCL1_CNTL, SDMA0_UTCL1_PAGE;
  // UTCL1_PAGE.LLC_NOALLOC [24] exists on SDMA 6 (F32) only; tinygrad sets it there.
  bool sdma_utcl1_llc_noalloc;
};

// SDMA0_WATCHDOG_CNTL.QUEUE_HANG_COUNT [7:0] in 100 ms units; SDMA0_UTCL1_CNTL.REDO_DELAY [4:0],
// RESP_MODE [10:9]; SDMA0_UTCL1_PAGE.RD_L2_POLICY [13:12], WR_L2_POLICY [15:14] (0 LRU,
// 1 stream, 2 no-allocate, 3 bypass), LLC_NOALLOC [24]. Fields: tinygrad autogen/am/regs.py
// (gc_11_0_0, gc_11_0_3, gc_12_0_0 tables, generated from Linux gc_*_sh_mask.h). Values:
// tinygrad runtime/support/am/ip.py AM_SDMA.init_hw (hang count 100 = 10 s; resp_mode 3,
// redo_delay 9; reads no-allocate, writes bypass GL2; LLC no-allocate on SDMA 6).
inline constexpr uint32_t SDMA_WATCHDOG_QUEUE_HANG_COUNT_MASK = 0xff, kSdmaQueueHangCount = 100;
inline constexpr uint32_t SDMA_UTCL1_CNTL_REDO_DELAY_MASK = 0x1f, kSdmaUtcl1RedoDelay = 9;
inline constexpr uint32_t SDMA_UTCL1_CNTL_RESP_MODE_SHIFT = 9;
inline constexpr uint32_t SDMA_UTCL1_CNTL_RESP_MODE_MASK = 3u << 9, kSdmaUtcl1RespMode = 3;
inline constexpr uint32_t SDMA_UTCL1_PAGE_RD_L2_POLICY_SHIFT = 12;
inline constexpr uint32_t SDMA_UTCL1_PAGE_WR_L2_POLICY_SHIFT = 14;
inline constexpr uint32_t SDMA_UTCL1_PAGE_L2_POLICY_MASK = 0xfu << 12; // both policies
inline constexpr uint32_t SDMA_UTCL1_PAGE_LLC_NOALLOC = 1u << 24;
inline constexpr uint32_t kSdmaL2PolicyNoAlloc = 2, kSdmaL2PolicyBypass = 3;

inline constexpr uint32_t GRBM_CNTL_READ_TIMEOUT_MASK = 0xff, kGrbmReadTimeout = 0xff;

// CP_DEBUG.CPG_UTCL1_ERROR_HALT_DISABLE [15] (gc_11_0_0_sh_mask.h, gc_12_0_0_sh_mask.h, read):
// with it clear, a translation error on the CP's own fetches halts the CP instead of being
// reported; amdgpu's gfxhub set_fault_enable_default sets it on both generations.
inline constexpr uint32_t CP_DEBUG_CPG_UTCL1_ERROR_HALT_DISABLE = 1u << 15;

// GRBM_GFX_CNTL fields: PIPEID[1:0] MEID[3:2] VMID[7:4] QUEUEID[10:8] (both generations).
inline constexpr uint32_t grbm_gfx_cntl(uint32_t me, uint32_t pipe, uint32_t queue, uint32_t vmid) {
  return (pipe & 3) | ((me & 3) << 2) | ((vmid & 0xf) << 4) | ((queue & 7) << 8);
}

// SH_MEM_BASES: PRIVATE_BASE[15:0] and SHARED_BASE[31:16] are bits [63:48] of the private
// (scratch) and shared (LDS) apertures flat addresses fall into.
inline constexpr uint32_t sh_mem_bases(uint64_t private_aperture, uint64_t shared_aperture) {
  return uint32_t(private_aperture >> 48) | (uint32_t(shared_aperture >> 48) << 16);
}
// SH_MEM_CONFIG (gc_11_0_0_sh_mask.h): ADDRESS_MODE[0] (0: 64-bit), ALIGNMENT_MODE[3:2],
// INITIAL_INST_PREFETCH[15:14]. ALIGNMENT_MODE decides what a vector memory access to an address
// not a multiple of min(access size, 4) does (AMD GCN3/Vega/RDNA ISA manuals, "Alignment"):
// DWORD (0) rounds it down, DWORD_STRICT (1) and STRICT (2) are memory violations, UNALIGNED (3)
// accesses the bytes asked for. LLVM's amdhsa code assumes UNALIGNED (+unaligned-access-mode:
// an align(1) uint4 load is one global_load_b128), so the driver must select it.
inline constexpr uint32_t SH_MEM_CONFIG_ALIGNMENT_MODE_SHIFT = 2;
inline constexpr uint32_t SH_MEM_CONFIG_ALIGNMENT_MODE_MASK = 3u
                                                              << SH_MEM_CONFIG_ALIGNMENT_MODE_SHIFT;
enum ShMemAlignmentMode : uint32_t {
  kAlignDword = 0,
  kAlignDwordStrict = 1,
  kAlignStrict = 2,
  kAlignUnaligned = 3
};
inline constexpr uint32_t sh_mem_alignment_mode(uint32_t sh_mem_config) {
  return (sh_mem_config & SH_MEM_CONFIG_ALIGNMENT_MODE_MASK) >> SH_MEM_CONFIG_ALIGNMENT_MODE_SHIFT;
}
// amdgpu's DEFAULT_SH_MEM_CONFIG (gfx_v11_0.c, gfx_v12_0.c; written for every VMID including 0
// by gfx_v11_0_constants_init): 64-bit addressing, UNALIGNED, INITIAL_INST_PREFETCH 3 = 0xc00c,
// the value tinygrad's AM writes too. gfx12 builds it from the same named fields, and
// gc_12_0_0_sh_mask.h keeps ADDRESS_MODE [0], ALIGNMENT_MODE [3:2] and INITIAL_INST_PREFETCH
// [15:14] where gc_11 has them (GC 12 adds F8_MODE [8] and ICACHE_USE_GL1 [18], both left 0).
inline constexpr uint32_t kDefaultShMemConfig =
    (0u << 0) | (kAlignUnaligned << SH_MEM_CONFIG_ALIGNMENT_MODE_SHIFT) | (3u << 14);

// Where amdgpu puts the apertures on gfx11 and gfx12 (gmc_v11_0.c / gmc_v12_0.c:
// private_aperture_start, shared_aperture_start), above any address the 48-bit GPU VM maps.
inline constexpr uint64_t kPrivateAperture = 0x1000000000000000ull;
inline constexpr uint64_t kSharedAperture = 0x2000000000000000ull;

// CP_MEC_DOORBELL_RANGE_UPPER as amdgpu sets it (and tinygrad's AM): the end of the Navi10
// doorbell layout's user queues, AMDGPU_NAVI10_DOORBELL_USERQUEUE_END = 0x08a, * 2 << 2.
inline constexpr uint32_t kMecDoorbellRangeUpper = (0x08a * 2) << 2;

// RLC_RLCS_BOOTLOAD_STATUS: BOOTLOAD_COMPLETE[31] (gc_11_0_0_sh_mask.h and gc_12_0_0_sh_mask.h,
// both read; GFX_INIT_DONE [0], RLC_GPM_IRAM_LOADED [3] and _DONE [4] are the others).
inline constexpr uint32_t RLC_BOOTLOAD_COMPLETE = 1u << 31;
// CP_MEC_RS64_CNTL (gc_11_0_0_sh_mask.h and gc_12_0_0_sh_mask.h, both read):
// MEC_INVALIDATE_ICACHE[4], MEC_PIPE0..3_RESET[19:16], MEC_PIPE0..3_ACTIVE[29:26], MEC_HALT[30].
// CP_MEC_RS64_PRGRM_CNTR_START_HI.IP_START is [29:0].
inline constexpr uint32_t CP_MEC_RS64_INVALIDATE_ICACHE = 1u << 4;
inline constexpr uint32_t CP_MEC_RS64_PIPE_RESET_SHIFT = 16;
inline constexpr uint32_t CP_MEC_RS64_PIPE_ACTIVE_SHIFT = 26;
inline constexpr uint32_t CP_MEC_RS64_HALT = 1u << 30;
inline constexpr uint32_t kMecPipes = 4; // per MEC on gfx11 and gfx12 (num_pipe_per_mec)
inline constexpr uint32_t CP_MEC_RS64_ALL_PIPES_RESET = 0xfu << CP_MEC_RS64_PIPE_RESET_SHIFT;
inline constexpr uint32_t CP_MEC_RS64_ALL_PIPES_ACTIVE = 0xfu << CP_MEC_RS64_PIPE_ACTIVE_SHIFT;
// CP_MEC_RS64_PRGRM_CNTR_START holds the dword address of the firmware's entry, its low 32
// bits, and _HI the rest: gfx_v11_0_config_gfx_rs64 writes ucode_start_addr_lo >> 2 |
// ucode_start_addr_hi << 30 and ucode_start_addr_hi >> 2.
inline constexpr uint32_t rs64_prgrm_cntr_start(uint64_t entry) {
  return uint32_t(entry >> 2);
}
inline constexpr uint32_t rs64_prgrm_cntr_start_hi(uint64_t entry) {
  return uint32_t(entry >> 34);
}

// CP_ME1_PIPE0_INT_CNTL (gc_11_0_0_sh_mask.h and gc_12_0_0_sh_mask.h, both read):
// OPCODE_ERROR_INT_ENABLE [24], TIME_STAMP_INT_ENABLE [26]
// (RELEASE_MEM's interrupt), GENERIC0_INT_ENABLE [31], which amdgpu sets together with
// TIME_STAMP.
inline constexpr uint32_t CP_INT_OPCODE_ERROR_ENABLE = 1u << 24;
inline constexpr uint32_t CP_INT_TIME_STAMP_ENABLE = 1u << 26;
inline constexpr uint32_t CP_INT_GENERIC0_ENABLE = 1u << 31;
// CP_HQD_DEQUEUE_REQUEST values (as amdgpu's soft reset and tinygrad write them): 1 drains the
// pipe, 2 resets the queue's waves. SPI_COMPUTE_QUEUE_RESET: RESET [0].
inline constexpr uint32_t kDequeueDrainPipe = 1, kDequeueResetWaves = 2;
inline constexpr uint32_t SPI_COMPUTE_QUEUE_RESET_RESET = 1u << 0;
// CP_PQ_WPTR_POLL_CNTL: EN [31]. CP_PQ_STATUS: DOORBELL_ENABLE [1] (gc_11_0_0_sh_mask.h,
// re-read).
inline constexpr uint32_t CP_PQ_WPTR_POLL_CNTL_EN = 1u << 31;
inline constexpr uint32_t CP_PQ_STATUS_DOORBELL_ENABLE = 1u << 1;
// SDMA0_CNTL: TRAP_ENABLE [0] (the TRAP packet's interrupt; gc_11_0_0_sh_mask.h, re-read).
inline constexpr uint32_t SDMA_CNTL_TRAP_ENABLE = 1u << 0;

// SDMA0_QUEUE0_RB_CNTL (gc_11_0_0_sh_mask.h; gc_12_0_0_sh_mask.h, read): RB_ENABLE[0]
// RB_SIZE[5:1] (log2 of ring dwords), WPTR_POLL_ENABLE[8] (left 0 on bare metal by amdgpu),
// F32_WPTR_POLL_ENABLE[11] (MCU_WPTR_POLL_ENABLE on SDMA 7: the engine's firmware may read the
// write pointer at RB_WPTR_POLL_ADDR), RPTR_WRITEBACK_ENABLE[12], RPTR_WRITEBACK_TIMER[20:16]
// (every 2^n x 32 clocks), RB_VMID [27:24] (0).
inline constexpr uint32_t SDMA_RB_CNTL_RB_ENABLE = 1u << 0;
inline constexpr uint32_t SDMA_RB_CNTL_RB_SIZE_SHIFT = 1;
inline constexpr uint32_t SDMA_RB_CNTL_F32_WPTR_POLL_ENABLE = 1u << 11;
inline constexpr uint32_t SDMA_RB_CNTL_RPTR_WRITEBACK_ENABLE = 1u << 12;
inline constexpr uint32_t SDMA_RB_CNTL_RPTR_WRITEBACK_TIMER_SHIFT = 16;
// The read-pointer write-back period amdgpu's sdma_v6_0/v7_0_mqd_init gives its SDMA queues
// (and tinygrad's AM its ring): 2^4 x 32 clocks.
inline constexpr uint32_t kSdmaRptrWritebackTimer = 4;
// SDMA0_QUEUE0_IB_CNTL: IB_ENABLE [0], set by gfx_resume after the ring is on.
inline constexpr uint32_t SDMA_IB_CNTL_IB_ENABLE = 1u << 0;
// RB_PRIV [23]: a privileged (kernel) ring, as amdgpu's sdma_v6_0/v7_0 gfx_resume sets it.
inline constexpr uint32_t SDMA_RB_CNTL_RB_PRIV = 1u << 23;
inline constexpr uint32_t SDMA_ENGINE_CNTL_HALT = 1u << 0;
// SDMA0_QUEUE0_DOORBELL: ENABLE[28]. DOORBELL_OFFSET: OFFSET[27:2] (dword index in BAR2).
inline constexpr uint32_t SDMA_DOORBELL_ENABLE = 1u << 28;

// GCVM_INVALIDATE_ENG0_REQ fields (gc_11_0_0_sh_mask.h, same on 12): PER_VMID_INVALIDATE_REQ
// [15:0], FLUSH_TYPE [18:16], INVALIDATE_L2_PTES [19], INVALIDATE_L2_PDE0..2 [22:20],
// INVALIDATE_L1_PTES [23], CLEAR_PROTECTION_FAULT_STATUS_ADDR [24]. ACK: PER_VMID_INVALIDATE_ACK
// [15:0].
inline constexpr uint32_t VM_INVALIDATE_REQ_L2_PTES = 1u << 19;
inline constexpr uint32_t VM_INVALIDATE_REQ_L2_PDE0 = 1u << 20;
inline constexpr uint32_t VM_INVALIDATE_REQ_L2_PDE1 = 1u << 21;
inline constexpr uint32_t VM_INVALIDATE_REQ_L2_PDE2 = 1u << 22;
inline constexpr uint32_t VM_INVALIDATE_REQ_L1_PTES = 1u << 23;
inline constexpr uint32_t VM_INVALIDATE_REQ_ALL_LEVELS = VM_INVALIDATE_REQ_L2_PTES | VM_INVALIDATE_REQ_L2_PDE0 |
                                                        VM_INVALIDATE_REQ_L2_PDE1 | VM_INVALIDATE_REQ_L2_PDE2 |
                                                        VM_INVALIDATE_REQ_L1_PTES;
inline constexpr uint32_t vm_invalidate_req(uint32_t vmid_mask, uint32_t flush_type) {
  return (vmid_mask & 0xffff) | ((flush_type & 7) << 16) | VM_INVALIDATE_REQ_ALL_LEVELS;
}

// GCVM_CONTEXT0_CNTL: ENABLE_CONTEXT[0] PAGE_TABLE_DEPTH[2:1] (block size: see GcRegs).
inline constexpr uint32_t VM_CONTEXT_CNTL_ENABLE = 1u << 0;
inline constexpr uint32_t VM_CONTEXT_CNTL_DEPTH_SHIFT = 1;

// CP_HQD_PQ_CONTROL: QUEUE_SIZE[5:0] = log2(ring dwords) - 1; RPTR_BLOCK_SIZE[13:8];
// NO_UPDATE_RPTR[27]; UNORD_DISPATCH[28]; PRIV_STATE[30]; KMD_QUEUE[31].
inline constexpr uint32_t CP_HQD_PQ_CONTROL_QUEUE_SIZE_MASK = 0x3f;
// CP_HQD_PQ_DOORBELL_CONTROL: DOORBELL_OFFSET[27:2] (dword index in BAR2) DOORBELL_EN[30].
inline constexpr uint32_t CP_HQD_DOORBELL_OFFSET_SHIFT = 2;
inline constexpr uint32_t CP_HQD_DOORBELL_OFFSET_MASK = 0x03FFFFFCu;
inline constexpr uint32_t CP_HQD_DOORBELL_EN = 1u << 30;

// GCVM_L2_PROTECTION_FAULT_STATUS(_LO32) fields: MORE_FAULTS[0] MAPPING_ERROR[8] RW[18].
inline constexpr uint32_t VM_FAULT_STATUS_MORE_FAULTS = 1u << 0;
inline constexpr uint32_t VM_FAULT_STATUS_MAPPING_ERROR = 1u << 8;
inline constexpr uint32_t VM_FAULT_STATUS_RW = 1u << 18;

} // namespace am::hw
