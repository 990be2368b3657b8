// Register offsets of GC 11.0.0 (RDNA3, gfx1100) that amcl's driver and emulator use.
//
// Source: Linux drivers/gpu/drm/amd/include/asic_reg/gc/gc_11_0_0_offset.h: each register is
// a dword offset plus a BASE_IDX naming the GC segment it is relative to; the absolute dword
// index in BAR5 is segment base (from IP discovery) + offset. Values below were read from that
// header and are pinned by tests/am/hw_facts_test.cpp.
#pragma once
#include <cstdint>

namespace am::hw::gc11 {

// Segment bases of the GC block on gfx1100 (IP discovery, GC 11.0.0 instance 0). The header's
// regCOMPUTE_DISPATCH_INITIATOR (0x1ba0, base 0) landing on SH register 0x2E00 confirms seg 0.
inline constexpr uint32_t kGcSeg0 = 0x00001260;
inline constexpr uint32_t kGcSeg1 = 0x0000A000;

struct Reg {
  uint32_t offset;
  uint8_t base_idx;
};
// Absolute BAR5 dword index of a GC register on gfx1100.
inline constexpr uint32_t addr(Reg r) { return (r.base_idx == 0 ? kGcSeg0 : kGcSeg1) + r.offset; }

inline constexpr Reg regGRBM_GFX_CNTL{0x0900, 1};
// GRBM_GFX_CNTL fields: PIPEID[1:0] MEID[3:2] VMID[7:4] QUEUEID[10:8].
inline constexpr uint32_t grbm_gfx_cntl(uint32_t me, uint32_t pipe, uint32_t queue,
                                        uint32_t vmid) {
  return (pipe & 3) | ((me & 3) << 2) | ((vmid & 0xf) << 4) | ((queue & 7) << 8);
}

// Shader memory apertures, banked per VMID through GRBM_GFX_CNTL.VMID (gc_11_0_0_offset.h,
// base_idx 1). SH_MEM_BASES: PRIVATE_BASE[15:0] and SHARED_BASE[31:16] are bits [63:48] of
// the private (scratch) and shared (LDS) apertures that flat addresses fall into.
inline constexpr Reg regSH_MEM_BASES{0x09e3, 1};
inline constexpr Reg regSH_MEM_CONFIG{0x09e4, 1};
inline constexpr uint32_t sh_mem_bases(uint64_t private_aperture, uint64_t shared_aperture) {
  return uint32_t(private_aperture >> 48) | (uint32_t(shared_aperture >> 48) << 16);
}
// Where amdgpu puts the apertures on gfx11 (gmc_v11_0.c: private_aperture_start and
// shared_aperture_start), above any virtual address the 48-bit GPU VM can map.
inline constexpr uint64_t kPrivateAperture = 0x1000000000000000ull;
inline constexpr uint64_t kSharedAperture = 0x2000000000000000ull;

// SDMA0 queue 0 ring registers (gc_sdma0_sdma0dec, base_idx 0).
inline constexpr Reg regSDMA0_QUEUE0_RB_CNTL{0x0080, 0};
inline constexpr Reg regSDMA0_QUEUE0_RB_BASE{0x0081, 0};
inline constexpr Reg regSDMA0_QUEUE0_RB_BASE_HI{0x0082, 0};
inline constexpr Reg regSDMA0_QUEUE0_RB_RPTR{0x0083, 0};
inline constexpr Reg regSDMA0_QUEUE0_RB_RPTR_HI{0x0084, 0};
inline constexpr Reg regSDMA0_QUEUE0_RB_WPTR{0x0085, 0};
inline constexpr Reg regSDMA0_QUEUE0_RB_WPTR_HI{0x0086, 0};
inline constexpr Reg regSDMA0_QUEUE0_RB_RPTR_ADDR_HI{0x0088, 0};
inline constexpr Reg regSDMA0_QUEUE0_RB_RPTR_ADDR_LO{0x0089, 0};
inline constexpr Reg regSDMA0_QUEUE0_IB_CNTL{0x008a, 0};
inline constexpr Reg regSDMA0_QUEUE0_DOORBELL{0x0092, 0};
inline constexpr Reg regSDMA0_QUEUE0_DOORBELL_OFFSET{0x00ab, 0};
inline constexpr Reg regSDMA0_QUEUE0_RB_WPTR_POLL_ADDR_HI{0x00b2, 0};
inline constexpr Reg regSDMA0_QUEUE0_RB_WPTR_POLL_ADDR_LO{0x00b3, 0};
inline constexpr Reg regSDMA0_QUEUE0_MINOR_PTR_UPDATE{0x00b5, 0};
// SDMA0_QUEUE0_RB_CNTL fields: RB_ENABLE[0] RB_SIZE[5:1] (log2 of ring dwords)
// RPTR_WRITEBACK_ENABLE[12].
inline constexpr uint32_t SDMA_RB_CNTL_RB_ENABLE = 1u << 0;
inline constexpr uint32_t SDMA_RB_CNTL_RB_SIZE_SHIFT = 1;
inline constexpr uint32_t SDMA_RB_CNTL_RPTR_WRITEBACK_ENABLE = 1u << 12;
// SDMA0_QUEUE0_DOORBELL: ENABLE[28]. DOORBELL_OFFSET: OFFSET[27:2] (dword index in BAR2).
inline constexpr uint32_t SDMA_DOORBELL_ENABLE = 1u << 28;

// GCVM (gfxhub v3.0) context 0: the one VMID amcl uses.
inline constexpr Reg regGCVM_CONTEXT0_CNTL{0x1688, 0};
inline constexpr Reg regGCVM_CONTEXT0_PAGE_TABLE_BASE_ADDR_LO32{0x16f3, 0};
inline constexpr Reg regGCVM_CONTEXT0_PAGE_TABLE_BASE_ADDR_HI32{0x16f4, 0};
inline constexpr Reg regGCVM_CONTEXT0_PAGE_TABLE_START_ADDR_LO32{0x1713, 0};
inline constexpr Reg regGCVM_CONTEXT0_PAGE_TABLE_START_ADDR_HI32{0x1714, 0};
inline constexpr Reg regGCVM_CONTEXT0_PAGE_TABLE_END_ADDR_LO32{0x1733, 0};
inline constexpr Reg regGCVM_CONTEXT0_PAGE_TABLE_END_ADDR_HI32{0x1734, 0};
// GCVM_CONTEXT0_CNTL: ENABLE_CONTEXT[0] PAGE_TABLE_DEPTH[2:1] PAGE_TABLE_BLOCK_SIZE[6:3].
inline constexpr uint32_t VM_CONTEXT_CNTL_ENABLE = 1u << 0;
inline constexpr uint32_t VM_CONTEXT_CNTL_DEPTH_SHIFT = 1;
inline constexpr uint32_t VM_CONTEXT_CNTL_BLOCK_SIZE_SHIFT = 3;

// Hardware queue descriptor registers of the queue selected by GRBM_GFX_CNTL; they mirror
// the compute MQD from dword 128 on (see mqd_v11.h).
inline constexpr Reg regCP_MQD_BASE_ADDR{0x1fa9, 0};
inline constexpr Reg regCP_MQD_BASE_ADDR_HI{0x1faa, 0};
inline constexpr Reg regCP_HQD_ACTIVE{0x1fab, 0};
inline constexpr Reg regCP_HQD_VMID{0x1fac, 0};
inline constexpr Reg regCP_HQD_PQ_BASE{0x1fb1, 0};
inline constexpr Reg regCP_HQD_PQ_BASE_HI{0x1fb2, 0};
inline constexpr Reg regCP_HQD_PQ_RPTR{0x1fb3, 0};
inline constexpr Reg regCP_HQD_PQ_RPTR_REPORT_ADDR{0x1fb4, 0};
inline constexpr Reg regCP_HQD_PQ_RPTR_REPORT_ADDR_HI{0x1fb5, 0};
inline constexpr Reg regCP_HQD_PQ_WPTR_POLL_ADDR{0x1fb6, 0};
inline constexpr Reg regCP_HQD_PQ_WPTR_POLL_ADDR_HI{0x1fb7, 0};
inline constexpr Reg regCP_HQD_PQ_DOORBELL_CONTROL{0x1fb8, 0};
inline constexpr Reg regCP_HQD_PQ_CONTROL{0x1fba, 0};
inline constexpr Reg regCP_HQD_EOP_BASE_ADDR{0x1fce, 0};
inline constexpr Reg regCP_HQD_EOP_BASE_ADDR_HI{0x1fcf, 0};
inline constexpr Reg regCP_HQD_EOP_CONTROL{0x1fd0, 0};
inline constexpr Reg regCP_HQD_PQ_WPTR_LO{0x1fdf, 0};
inline constexpr Reg regCP_HQD_PQ_WPTR_HI{0x1fe0, 0};
// CP_HQD_PQ_CONTROL: QUEUE_SIZE[5:0] = log2(ring dwords) - 1; RPTR_BLOCK_SIZE[13:8];
// NO_UPDATE_RPTR[27]; UNORD_DISPATCH[28]; PRIV_STATE[30]; KMD_QUEUE[31].
inline constexpr uint32_t CP_HQD_PQ_CONTROL_QUEUE_SIZE_MASK = 0x3f;
// CP_HQD_PQ_DOORBELL_CONTROL: DOORBELL_OFFSET[27:2] (dword index in BAR2) DOORBELL_EN[30].
inline constexpr uint32_t CP_HQD_DOORBELL_OFFSET_SHIFT = 2;
inline constexpr uint32_t CP_HQD_DOORBELL_OFFSET_MASK = 0x03FFFFFCu;
inline constexpr uint32_t CP_HQD_DOORBELL_EN = 1u << 30;

// Scratch registers AM uses to recognise its own earlier boot (tinygrad's AM convention):
// REG7 holds the AM version, REG6 says whether the last session ended cleanly.
inline constexpr Reg regSCRATCH_REG6{0x2046, 1};
inline constexpr Reg regSCRATCH_REG7{0x2047, 1};

// VM protection fault reporting (gc_gcvml2pfdec).
inline constexpr Reg regGCVM_L2_PROTECTION_FAULT_CNTL{0x15c4, 0};
inline constexpr Reg regGCVM_L2_PROTECTION_FAULT_STATUS{0x15c8, 0};
inline constexpr Reg regGCVM_L2_PROTECTION_FAULT_ADDR_LO32{0x15c9, 0};
inline constexpr Reg regGCVM_L2_PROTECTION_FAULT_ADDR_HI32{0x15ca, 0};

} // namespace am::hw::gc11
