// The NBIO (PCIe bus interface) registers amcl programs:
// - the doorbell aperture, without which the bus drops every doorbell write to BAR2 (amdgpu's
//   nbio_v4_3_enable_doorbell_aperture and nbif_v6_3_1's, and tinygrad's AM, set it);
// - the S2A doorbell routing entries, which send a doorbell to the engine that owns its index:
//   entry 0 the CP (AWID 3), entry 3 AWID 6, both with the address bits 31:28 = 3 (amdgpu's
//   SR-IOV host driver writes 0x30000007 / 0x3000000d for Navi32, tinygrad's AM the same
//   fields), entry 2 SDMA 0 (nbio_v4_3_sdma_doorbell_range / nbif_v6_3_1_sdma_doorbell_range:
//   AWID 0xe, range offset = the SDMA doorbell's dword index, size 20 × 2, bits 31:28 = 3);
// - the PCIe index/data pair (BIF_BX0_PCIE_INDEX2/DATA2) that reaches registers beyond the
//   register BAR (amdgpu_device_indirect_wreg: index then data, each read back); NBIO 4.3.0's
//   S2A entries are such registers;
// - the HDP flush: REMAP_HDP_MEM_FLUSH_CNTL maps the flush register into the register BAR at
//   the "MMIO hole" (amdgpu's rmmio_remap: 0x80000 - 4 KiB, KFD_MMIO_REMAP_HDP_MEM_FLUSH_CNTL
//   at +0; nbio_v4_3_remap_hdp_registers), and a write there (read back) makes the CPU's
//   earlier writes to VRAM through the BAR visible to the engines (hdp_v6_0_flush_hdp).
//
// Sources: Linux drivers/gpu/drm/amd/include/asic_reg/nbio/nbio_4_3_0_offset.h / _sh_mask.h
// (gfx11) and nbif_6_3_1_offset.h / _sh_mask.h (gfx12), as tinygrad's generated
// runtime/autogen/am/regs/nbio_4_3_0.py and nbif_6_3_1.py list them: DOORBELL_APER_EN 0x00c0
// seg 2 bit 0; PCIE_INDEX2/DATA2 0x000e/0x000f seg 0; REMAP_HDP_MEM_FLUSH_CNTL 0x012d seg 2
// (ADDRESS bits 18:2); S2A_DOORBELL_ENTRY_0_CTRL 0x4f7640 seg 3 on NBIO 4.3.0 and
// GDC_S2A0_S2A_DOORBELL_ENTRY_0_CTRL 0x01cb seg 2 on NBIF 6.3.1, entries n at +n; entry fields
// ENABLE 0, AWID 5:1, RANGE_OFFSET 16:7, RANGE_SIZE 24:17, AWADDR_31_28 31:28.
// Pinned by tests/am/hw_facts_test.cpp.
#pragma once
#include "gc_regs.h"

#include <cstdint>

namespace am::hw {

struct NbioRegs {
  const char* name;
  Reg RCC_DEV0_EPF0_RCC_DOORBELL_APER_EN;
  Reg PCIE_INDEX2;
  Reg PCIE_DATA2;
  Reg REMAP_HDP_MEM_FLUSH_CNTL;
  Reg S2A_DOORBELL_ENTRY_0_CTRL; // entry n at offset + n
};

inline constexpr uint32_t BIF_DOORBELL_APER_EN = 1u << 0;

inline constexpr NbioRegs kNbio4_3{"NBIO 4.3.0", {0x00c0, 2}, {0x000e, 0},
                                   {0x000f, 0},  {0x012d, 2}, {0x4f7640, 3}};
inline constexpr NbioRegs kNbif6_3{"NBIF 6.3.1", {0x00c0, 2}, {0x000e, 0},
                                   {0x000f, 0},  {0x012d, 2}, {0x01cb, 2}};

// The table of an NBIO/NBIF major version (IP discovery's NBIF block), or nullptr.
inline constexpr const NbioRegs* nbio_regs_for_major(unsigned major) {
  return major == 4 ? &kNbio4_3 : major == 6 ? &kNbif6_3 : nullptr;
}

// One S2A doorbell routing entry.
struct S2aDoorbellEntry {
  bool enable;
  uint32_t awid;         // the engine's port
  uint32_t range_offset; // first doorbell (dword index) of the range
  uint32_t range_size;   // doorbells (dwords) in the range
  uint32_t awaddr_31_28;
};
inline constexpr uint32_t s2a_doorbell_entry(const S2aDoorbellEntry& e) {
  return (e.enable ? 1u : 0u) | (e.awid & 0x1f) << 1 | (e.range_offset & 0x3ff) << 7 |
         (e.range_size & 0xff) << 17 | (e.awaddr_31_28 & 0xf) << 28;
}
inline constexpr S2aDoorbellEntry s2a_doorbell_entry_fields(uint32_t v) {
  return {(v & 1u) != 0, (v >> 1) & 0x1f, (v >> 7) & 0x3ff, (v >> 17) & 0xff, v >> 28};
}
// The S2A entries amcl routes through and the ports they name.
inline constexpr unsigned kS2aCpEntry = 0, kS2aSdma0Entry = 2, kS2aCpEntry2 = 3;
inline constexpr uint32_t kS2aAwidCp = 3, kS2aAwidCp2 = 6, kS2aAwidSdma0 = 0xe;
inline constexpr uint32_t kS2aSdmaRangeSize = 20 * 2;

// amdgpu's MMIO hole (amdgpu_device.h MMIO_REG_HOLE_OFFSET = 0x80000 - PAGE_SIZE): the byte
// offset in the register BAR where REMAP_HDP_MEM_FLUSH_CNTL puts the HDP flush register.
inline constexpr uint32_t kMmioRemapHdpMemFlush = 0x80000 - 4096;

// Before discovery names the NBIO's bases, amdgpu reads the VRAM size (MiB) at a fixed register
// and reaches VRAM the BAR does not cover through the MM_INDEX/MM_DATA window (amdgpu_discovery.c:
// mmRCC_CONFIG_MEMSIZE 0xde3, mmMM_INDEX 0x0, mmMM_DATA 0x1, mmMM_INDEX_HI 0x6; the window as
// amdgpu_device_mm_access uses it: MM_INDEX = address bits 30:0 | bit 31 (VRAM, not registers),
// MM_INDEX_HI = address >> 31, then MM_DATA reads or writes the dword). 0xde3 is NBIO seg 2
// (0xd20 on Navi3x) + regRCC_DEV0_EPF0_RCC_CONFIG_MEMSIZE 0xc3 (nbio_v4_3_get_memsize).
inline constexpr uint32_t kRccConfigMemsize = 0xde3;
inline constexpr uint32_t kMmIndex = 0x0, kMmData = 0x1, kMmIndexHi = 0x6;
inline constexpr uint32_t kMmIndexVram = 1u << 31;

} // namespace am::hw
