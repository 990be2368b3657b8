// Hardware facts pinned to the literal values of their public sources: Linux
// gc_11_0_0_offset.h / gc_12_0_0_offset.h (offset, BASE_IDX), osssys_{6,7}_0_0_offset.h (IH),
// amdgpu_vm.h (PTE/PDE bits), v11/v12_structs.h (MQD), irqsrcs_gfx_11_0_0.h and soc21's ih
// client ids (interrupt sources), LLVM SIDefines.h (COMPUTE_TMPRING_SIZE).
#include "am/hw/gc_generations.h"
#include "am/hw/gmc.h"
#include "am/hw/ih_v6.h"
#include "am/hw/mp_regs.h"
#include "am/hw/mqd.h"
#include "am/hw/nbio_regs.h"
#include "am/hw/osssys_regs.h"
#include "am/hw/pci_ids.h"
#include "am/hw/psp_gfx_if.h"
#include "am/hw/sh_regs.h"
#include "am/hw/sq.h"
#include "am/hw/ucode.h"
#include "am/hw/vm_hub_regs.h"

#include <gtest/gtest.h>
#include <tuple>

using namespace am::hw;

namespace {
void expect_reg(Reg r, uint32_t offset, uint8_t base_idx) {
  EXPECT_EQ(r.offset, offset);
  EXPECT_EQ(r.base_idx, base_idx);
}
uint32_t gc11_addr(Reg r) { return (r.base_idx ? kGc11Seg1 : kGc11Seg0) + r.offset; }
} // namespace

TEST(Gc1100Registers, MatchLinuxHeader) {
  const GcRegs& g = kGc11;
  expect_reg(g.GRBM_GFX_CNTL, 0x0900, 1);
  expect_reg(g.SCRATCH_REG6, 0x2046, 1);
  expect_reg(g.SCRATCH_REG7, 0x2047, 1);
  expect_reg(g.SDMA0_QUEUE0_RB_CNTL, 0x0080, 0);
  expect_reg(g.SDMA0_QUEUE0_RB_BASE, 0x0081, 0);
  expect_reg(g.SDMA0_QUEUE0_RB_RPTR_ADDR_HI, 0x0088, 0);
  expect_reg(g.SDMA0_QUEUE0_RB_RPTR_ADDR_LO, 0x0089, 0);
  expect_reg(g.SDMA0_QUEUE0_DOORBELL, 0x0092, 0);
  expect_reg(g.SDMA0_QUEUE0_DOORBELL_OFFSET, 0x00ab, 0);
  expect_reg(g.SDMA0_QUEUE0_RB_WPTR_POLL_ADDR_HI, 0x00b2, 0);
  expect_reg(g.SDMA0_QUEUE0_MINOR_PTR_UPDATE, 0x00b5, 0);
  expect_reg(g.GCVM_CONTEXT0_CNTL, 0x1688, 0);
  expect_reg(g.GCVM_CONTEXT0_PAGE_TABLE_BASE_ADDR_LO32, 0x16f3, 0);
  expect_reg(g.GCVM_CONTEXT0_PAGE_TABLE_START_ADDR_LO32, 0x1713, 0);
  expect_reg(g.GCVM_CONTEXT0_PAGE_TABLE_END_ADDR_LO32, 0x1733, 0);
  expect_reg(g.GCVM_INVALIDATE_ENG17_REQ, 0x16bc, 0);
  expect_reg(g.GCVM_INVALIDATE_ENG17_ACK, 0x16ce, 0);
  EXPECT_EQ(g.vm_context_block_size_shift, 3u);
  // gc_11_0_0_sh_mask.h GCVM_INVALIDATE_ENG0_REQ: PER_VMID_INVALIDATE_REQ 0x0000FFFF,
  // FLUSH_TYPE 0x00070000, INVALIDATE_L2_PTES 0x00080000 ... INVALIDATE_L1_PTES 0x00800000.
  EXPECT_EQ(vm_invalidate_req(1, 0), 0x00F80001u);
  EXPECT_EQ(vm_invalidate_req(0x8000, 2), 0x00FA8000u);
  expect_reg(g.GCVM_L2_PROTECTION_FAULT_CNTL, 0x15c4, 0);
  expect_reg(g.GCVM_L2_PROTECTION_FAULT_STATUS, 0x15c8, 0);
  expect_reg(g.GCVM_L2_PROTECTION_FAULT_ADDR_LO32, 0x15c9, 0);
  expect_reg(g.CP_MQD_BASE_ADDR, 0x1fa9, 0);
  expect_reg(g.CP_HQD_ACTIVE, 0x1fab, 0);
  expect_reg(g.CP_HQD_PQ_DOORBELL_CONTROL, 0x1fb8, 0);
  expect_reg(g.CP_HQD_PQ_CONTROL, 0x1fba, 0);
  expect_reg(g.CP_HQD_EOP_CONTROL, 0x1fd0, 0);
  expect_reg(g.CP_HQD_PQ_WPTR_LO, 0x1fdf, 0);
  expect_reg(g.CP_MEC_DOORBELL_RANGE_LOWER, 0x1dfc, 0);
  expect_reg(g.CP_MEC_DOORBELL_RANGE_UPPER, 0x1dfd, 0);
  expect_reg(g.SH_MEM_BASES, 0x09e3, 1);
  expect_reg(g.SH_MEM_CONFIG, 0x09e4, 1);
}

// gc_12_0_0_offset.h / sh_mask.h (tinygrad's autogen regs/gc_12_0_0.py carries the same
// numbers in decimal: e.g. SDMA0_QUEUE0_RB_RPTR_ADDR_LO 135, GCVM_CONTEXT0_CNTL 5668 with
// page_table_block_size (4, 7), GCVM_L2_PROTECTION_FAULT_STATUS_LO32 5584, SH_MEM_BASES 2531).
TEST(Gc1200Registers, MatchLinuxHeader) {
  const GcRegs& g = kGc12;
  expect_reg(g.GRBM_GFX_CNTL, 0x0900, 1);
  expect_reg(g.SCRATCH_REG7, 0x2047, 1);
  expect_reg(g.SH_MEM_BASES, 0x09e3, 1);
  expect_reg(g.SH_MEM_CONFIG, 0x09e4, 1);
  expect_reg(g.SDMA0_QUEUE0_RB_CNTL, 0x0080, 0);
  expect_reg(g.SDMA0_QUEUE0_RB_WPTR_HI, 0x0086, 0);
  expect_reg(g.SDMA0_QUEUE0_RB_RPTR_ADDR_LO, 0x0087, 0);
  expect_reg(g.SDMA0_QUEUE0_RB_RPTR_ADDR_HI, 0x0088, 0);
  expect_reg(g.SDMA0_QUEUE0_IB_CNTL, 0x0089, 0);
  expect_reg(g.SDMA0_QUEUE0_DOORBELL, 0x008f, 0);
  expect_reg(g.SDMA0_QUEUE0_DOORBELL_OFFSET, 0x0091, 0);
  expect_reg(g.SDMA0_QUEUE0_RB_WPTR_POLL_ADDR_LO, 0x0098, 0);
  expect_reg(g.SDMA0_QUEUE0_RB_WPTR_POLL_ADDR_HI, 0x0099, 0);
  expect_reg(g.SDMA0_QUEUE0_MINOR_PTR_UPDATE, 0x009b, 0);
  expect_reg(g.GCVM_CONTEXT0_CNTL, 0x1624, 0);
  EXPECT_EQ(g.vm_context_block_size_shift, 4u);
  expect_reg(g.GCVM_CONTEXT0_PAGE_TABLE_BASE_ADDR_LO32, 0x168f, 0);
  expect_reg(g.GCVM_CONTEXT0_PAGE_TABLE_BASE_ADDR_HI32, 0x1690, 0);
  expect_reg(g.GCVM_CONTEXT0_PAGE_TABLE_START_ADDR_LO32, 0x16af, 0);
  expect_reg(g.GCVM_CONTEXT0_PAGE_TABLE_END_ADDR_LO32, 0x16cf, 0);
  expect_reg(g.GCVM_CONTEXT0_PAGE_TABLE_END_ADDR_HI32, 0x16d0, 0);
  // tinygrad's generated gc_12_0_0 tables: ENG17_SEM 5702, ENG17_REQ 5720, ENG17_ACK 5738.
  expect_reg(g.GCVM_INVALIDATE_ENG17_REQ, 5720, 0);
  expect_reg(g.GCVM_INVALIDATE_ENG17_ACK, 5738, 0);
  expect_reg(g.GCVM_L2_PROTECTION_FAULT_CNTL, 0x15cc, 0);
  expect_reg(g.GCVM_L2_PROTECTION_FAULT_STATUS, 0x15d0, 0);
  expect_reg(g.GCVM_L2_PROTECTION_FAULT_ADDR_LO32, 0x15d2, 0);
  expect_reg(g.GCVM_L2_PROTECTION_FAULT_ADDR_HI32, 0x15d3, 0);
  expect_reg(g.CP_MQD_BASE_ADDR, 0x1fa9, 0);
  expect_reg(g.CP_HQD_PQ_CONTROL, 0x1fba, 0);
  expect_reg(g.CP_HQD_PQ_WPTR_HI, 0x1fe0, 0);
  expect_reg(g.CP_MEC_DOORBELL_RANGE_LOWER, 0x1dfc, 0);
  expect_reg(g.CP_MEC_DOORBELL_RANGE_UPPER, 0x1dfd, 0);
  EXPECT_EQ(kMecDoorbellRangeUpper, 0x450u); // tinygrad's AM writes the same
  EXPECT_EQ(kGc12Seg0, 0x1260u);
  EXPECT_EQ(kGc12Seg1, 0xA000u);
}

// Tables go by the exact IP version: GC 11.0.0 and 11.0.2 share gc_11_0_0's offsets, 11.0.3
// has its own VM blocks, 12.0.0 and 12.0.1 share gc_12_0_0's; the APUs' 11.0.1/11.0.4/11.5.x and
// anything newer get no table (a clear error rather than registers off by a few dwords).
TEST(GcRegisters, TableByExactIpVersion) {
  EXPECT_EQ(gc_regs_for(11, 0, 0), &kGc11);
  EXPECT_EQ(gc_regs_for(11, 0, 2), &kGc11);
  EXPECT_EQ(gc_regs_for(11, 0, 3), &kGc11_0_3);
  EXPECT_EQ(gc_regs_for(12, 0, 0), &kGc12);
  EXPECT_EQ(gc_regs_for(12, 0, 1), &kGc12);
  for (auto [ma, mi, rev] : {std::tuple{10u, 3u, 0u},
                             {11u, 0u, 1u},
                             {11u, 0u, 4u},
                             {11u, 5u, 0u},
                             {12u, 0u, 2u},
                             {12u, 1u, 0u},
                             {13u, 0u, 0u}})
    EXPECT_EQ(gc_regs_for(ma, mi, rev), nullptr) << ma << "." << mi << "." << rev;
}

// GC 11.0.3 (Navi32): gc_11_0_3_offset.h's VM blocks, everything else GC 11.0.0's.
TEST(GcRegisters, Gc1103MovesOnlyTheVmBlocks) {
  const GcRegs& g = kGc11_0_3;
  expect_reg(g.GCVM_L2_CNTL, 0x15c0, 0);
  expect_reg(g.GCVM_L2_CNTL2, 0x15c1, 0);
  expect_reg(g.GCVM_L2_CNTL3, 0x15c2, 0);
  expect_reg(g.GCVM_L2_PROTECTION_FAULT_CNTL, 0x15c8, 0);
  expect_reg(g.GCVM_L2_PROTECTION_FAULT_CNTL2, 0x15c9, 0);
  expect_reg(g.GCVM_L2_PROTECTION_FAULT_STATUS, 0x15cc, 0);
  expect_reg(g.GCVM_L2_PROTECTION_FAULT_ADDR_LO32, 0x15cd, 0);
  expect_reg(g.GCVM_L2_PROTECTION_FAULT_ADDR_HI32, 0x15ce, 0);
  expect_reg(g.GCVM_L2_PROTECTION_FAULT_DEFAULT_ADDR_LO32, 0x15cf, 0);
  expect_reg(g.GCVM_L2_PROTECTION_FAULT_DEFAULT_ADDR_HI32, 0x15d0, 0);
  expect_reg(g.GCVM_L2_CNTL4, 0x15d8, 0);
  expect_reg(g.GCVM_L2_CNTL5, 0x15de, 0);
  expect_reg(g.GCMC_VM_SYSTEM_APERTURE_DEFAULT_ADDR_LSB, 0x15a8, 0);
  expect_reg(g.GCMC_VM_SYSTEM_APERTURE_DEFAULT_ADDR_MSB, 0x15a9, 0);
  expect_reg(g.GCMC_VM_FB_LOCATION_BASE, 0x1688, 0);
  expect_reg(g.GCMC_VM_FB_LOCATION_TOP, 0x1689, 0);
  expect_reg(g.GCMC_VM_AGP_TOP, 0x168a, 0);
  expect_reg(g.GCMC_VM_AGP_BOT, 0x168b, 0);
  expect_reg(g.GCMC_VM_AGP_BASE, 0x168c, 0);
  expect_reg(g.GCMC_VM_SYSTEM_APERTURE_LOW_ADDR, 0x168d, 0);
  expect_reg(g.GCMC_VM_SYSTEM_APERTURE_HIGH_ADDR, 0x168e, 0);
  expect_reg(g.GCMC_VM_MX_L1_TLB_CNTL, 0x168f, 0);
  expect_reg(g.GCVM_CONTEXT0_CNTL, 0x1698, 0);
  expect_reg(g.GCVM_INVALIDATE_ENG17_REQ, 0x16cc, 0);
  expect_reg(g.GCVM_INVALIDATE_ENG17_ACK, 0x16de, 0);
  expect_reg(g.GCVM_INVALIDATE_ENG0_ADDR_RANGE_LO32, 0x16df, 0);
  expect_reg(g.GCVM_CONTEXT0_PAGE_TABLE_BASE_ADDR_LO32, 0x1703, 0);
  expect_reg(g.GCVM_CONTEXT0_PAGE_TABLE_BASE_ADDR_HI32, 0x1704, 0);
  expect_reg(g.GCVM_CONTEXT0_PAGE_TABLE_START_ADDR_LO32, 0x1723, 0);
  expect_reg(g.GCVM_CONTEXT0_PAGE_TABLE_START_ADDR_HI32, 0x1724, 0);
  expect_reg(g.GCVM_CONTEXT0_PAGE_TABLE_END_ADDR_LO32, 0x1743, 0);
  expect_reg(g.GCVM_CONTEXT0_PAGE_TABLE_END_ADDR_HI32, 0x1744, 0);
  // Not a VM register: the same as GC 11.0.0's.
  for (auto r : {&GcRegs::GRBM_GFX_CNTL, &GcRegs::SH_MEM_CONFIG, &GcRegs::CP_HQD_PQ_CONTROL,
                 &GcRegs::SDMA0_QUEUE0_RB_CNTL, &GcRegs::RLC_RLCS_BOOTLOAD_STATUS,
                 &GcRegs::CP_DEBUG, &GcRegs::SCRATCH_REG7})
    EXPECT_EQ((g.*r).offset, (kGc11.*r).offset);
}

// mmhub_3_0_0_offset.h (MMHUB 3.0.0, Navi31) and mmhub_4_1_0_offset.h (4.1.0, Navi4x): the
// two lay their blocks out differently. GFXHUB's registers come from the GC tables.
TEST(VmHubRegisters, MatchLinuxHeaders) {
  struct Expect {
    const VmHubRegs* hub;
    uint32_t cntl, pt_base, pt_start, pt_end, req, ack, fb_base, agp_top, sys_low, l1_tlb,
        default_lsb, l2_cntl, fault_default;
  };
  const Expect expect[] = {
      {&kMmhub3, 0x0740, 0x07ab, 0x07cb, 0x07eb, 0x0774, 0x0786, 0x08ec, 0x08ee, 0x08f1, 0x08f3,
       0x08d8, 0x0700, 0x070f},
      {&kMmhub4, 0x0564, 0x05cf, 0x05ef, 0x060f, 0x0598, 0x05aa, 0x0554, 0x0556, 0x0559, 0x055b,
       0x04c8, 0x04e4, 0x04f4},
  };
  for (const Expect& e : expect) {
    const VmHubRegs& h = *e.hub;
    SCOPED_TRACE(h.name);
    expect_reg(h.CONTEXT0_CNTL, e.cntl, 0);
    expect_reg(h.PAGE_TABLE_BASE_LO32, e.pt_base, 0);
    expect_reg(h.PAGE_TABLE_BASE_HI32, e.pt_base + 1, 0);
    expect_reg(h.PAGE_TABLE_START_LO32, e.pt_start, 0);
    expect_reg(h.PAGE_TABLE_START_HI32, e.pt_start + 1, 0);
    expect_reg(h.PAGE_TABLE_END_LO32, e.pt_end, 0);
    expect_reg(h.PAGE_TABLE_END_HI32, e.pt_end + 1, 0);
    expect_reg(h.INVALIDATE_ENG17_REQ, e.req, 0);
    expect_reg(h.INVALIDATE_ENG17_ACK, e.ack, 0);
    expect_reg(h.FB_LOCATION_BASE, e.fb_base, 0);
    expect_reg(h.FB_LOCATION_TOP, e.fb_base + 1, 0);
    expect_reg(h.AGP_TOP, e.agp_top, 0);
    expect_reg(h.AGP_BOT, e.agp_top + 1, 0);
    expect_reg(h.AGP_BASE, e.agp_top + 2, 0);
    expect_reg(h.SYSTEM_APERTURE_LOW_ADDR, e.sys_low, 0);
    expect_reg(h.SYSTEM_APERTURE_HIGH_ADDR, e.sys_low + 1, 0);
    expect_reg(h.MX_L1_TLB_CNTL, e.l1_tlb, 0);
    expect_reg(h.SYSTEM_APERTURE_DEFAULT_ADDR_LSB, e.default_lsb, 0);
    expect_reg(h.SYSTEM_APERTURE_DEFAULT_ADDR_MSB, e.default_lsb + 1, 0);
    expect_reg(h.L2_CNTL, e.l2_cntl, 0);
    expect_reg(h.L2_CNTL2, e.l2_cntl + 1, 0);
    expect_reg(h.L2_PROTECTION_FAULT_DEFAULT_ADDR_LO32, e.fault_default, 0);
    expect_reg(h.L2_PROTECTION_FAULT_DEFAULT_ADDR_HI32, e.fault_default + 1, 0);
  }
  // gc_11_0_0_offset.h / gc_12_0_0_offset.h: the GCMC_VM apertures and GCVM_L2 controls.
  const VmHubRegs g11 = gfxhub_regs(kGc11), g12 = gfxhub_regs(kGc12);
  expect_reg(g11.FB_LOCATION_BASE, 0x1678, 0);
  expect_reg(g11.AGP_TOP, 0x167a, 0);
  expect_reg(g11.SYSTEM_APERTURE_LOW_ADDR, 0x167d, 0);
  expect_reg(g11.MX_L1_TLB_CNTL, 0x167f, 0);
  expect_reg(g11.SYSTEM_APERTURE_DEFAULT_ADDR_LSB, 0x15a8, 0);
  expect_reg(g11.L2_CNTL, 0x15bc, 0);
  expect_reg(g11.L2_PROTECTION_FAULT_DEFAULT_ADDR_LO32, 0x15cb, 0);
  expect_reg(g12.FB_LOCATION_BASE, 0x1614, 0);
  expect_reg(g12.AGP_BASE, 0x1618, 0);
  expect_reg(g12.SYSTEM_APERTURE_HIGH_ADDR, 0x161a, 0);
  expect_reg(g12.MX_L1_TLB_CNTL, 0x161b, 0);
  expect_reg(g12.SYSTEM_APERTURE_DEFAULT_ADDR_MSB, 0x15a9, 0);
  expect_reg(g12.L2_CNTL2, 0x15c5, 0);
  expect_reg(g12.L2_PROTECTION_FAULT_DEFAULT_ADDR_HI32, 0x15d5, 0);
  // mmhub_4_1_0_sh_mask.h fields: the L1 TLB value amdgpu leaves (tinygrad reads 0x1859 back),
  // and VM_L2_CNTL's cache enable over whatever the other fields hold.
  EXPECT_EQ(kMxL1TlbCntl, 0x1859u);
  EXPECT_EQ(vm_l2_cntl(0), 0x00080801u);
  EXPECT_EQ(vm_l2_cntl(0xffffffffu), 0xfc0bfefdu);
  EXPECT_EQ(kMmhub3.block_size_shift, 3u);
  EXPECT_EQ(kMmhub4.block_size_shift, 4u);
  EXPECT_EQ(kMmhub3_0_2.block_size_shift, 3u);
  EXPECT_EQ(mmhub_regs_for(3, 0, 0), &kMmhub3);
  EXPECT_EQ(mmhub_regs_for(3, 0, 2), &kMmhub3_0_2);
  EXPECT_EQ(mmhub_regs_for(4, 1, 0), &kMmhub4);
  for (auto [ma, mi, rev] : {std::tuple{2u, 0u, 0u}, {3u, 0u, 1u}, {3u, 3u, 0u}, {4u, 2u, 0u}})
    EXPECT_EQ(mmhub_regs_for(ma, mi, rev), nullptr) << ma << "." << mi << "." << rev;
  // The L2 CNTL3..5 and fault controls of each MMHUB (mmhub_3_0_0/3_0_2/4_1_0_offset.h).
  for (auto [h, cntl3, cntl4, cntl5, fault] :
       {std::tuple{&kMmhub3, 0x0702u, 0x0718u, 0x071eu, 0x0708u},
        {&kMmhub3_0_2, 0x0682u, 0x0698u, 0x069eu, 0x0688u},
        {&kMmhub4, 0x04e6u, 0x04fdu, 0x0503u, 0x04ecu}}) {
    SCOPED_TRACE(h->name);
    expect_reg(h->L2_CNTL3, cntl3, 0);
    expect_reg(h->L2_CNTL4, cntl4, 0);
    expect_reg(h->L2_CNTL5, cntl5, 0);
    expect_reg(h->L2_PROTECTION_FAULT_CNTL, fault, 0);
    expect_reg(h->L2_PROTECTION_FAULT_CNTL2, fault + 1, 0);
    EXPECT_EQ(h->l2_cntl3_default, 0x80100007u);
  }
  EXPECT_EQ(gfxhub_regs(kGc11).l2_cntl3_default, 0x80120007u);
  EXPECT_EQ(vm_l2_cntl3(0x80100007u), vm_l2_cntl3(0x80120007u)); // BIGK_FRAGMENT_SIZE rewritten
  // MMHUB 3.0.2 (mmhub_3_0_2_offset.h): 3.0.0's blocks 0x80 dwords lower.
  const VmHubRegs& m2 = kMmhub3_0_2;
  expect_reg(m2.L2_CNTL, 0x0680, 0);
  expect_reg(m2.L2_CNTL2, 0x0681, 0);
  expect_reg(m2.L2_PROTECTION_FAULT_DEFAULT_ADDR_LO32, 0x068f, 0);
  expect_reg(m2.L2_PROTECTION_FAULT_DEFAULT_ADDR_HI32, 0x0690, 0);
  expect_reg(m2.CONTEXT0_CNTL, 0x06c0, 0);
  expect_reg(m2.INVALIDATE_ENG17_REQ, 0x06f4, 0);
  expect_reg(m2.INVALIDATE_ENG17_ACK, 0x0706, 0);
  expect_reg(m2.INVALIDATE_ENG0_ADDR_RANGE_LO32, 0x0707, 0);
  expect_reg(m2.PAGE_TABLE_BASE_LO32, 0x072b, 0);
  expect_reg(m2.PAGE_TABLE_BASE_HI32, 0x072c, 0);
  expect_reg(m2.PAGE_TABLE_START_LO32, 0x074b, 0);
  expect_reg(m2.PAGE_TABLE_START_HI32, 0x074c, 0);
  expect_reg(m2.PAGE_TABLE_END_LO32, 0x076b, 0);
  expect_reg(m2.PAGE_TABLE_END_HI32, 0x076c, 0);
  expect_reg(m2.SYSTEM_APERTURE_DEFAULT_ADDR_LSB, 0x0858, 0);
  expect_reg(m2.SYSTEM_APERTURE_DEFAULT_ADDR_MSB, 0x0859, 0);
  expect_reg(m2.FB_LOCATION_BASE, 0x086c, 0);
  expect_reg(m2.FB_LOCATION_TOP, 0x086d, 0);
  expect_reg(m2.AGP_TOP, 0x086e, 0);
  expect_reg(m2.AGP_BOT, 0x086f, 0);
  expect_reg(m2.AGP_BASE, 0x0870, 0);
  expect_reg(m2.SYSTEM_APERTURE_LOW_ADDR, 0x0871, 0);
  expect_reg(m2.SYSTEM_APERTURE_HIGH_ADDR, 0x0872, 0);
  expect_reg(m2.MX_L1_TLB_CNTL, 0x0873, 0);
  const VmHubRegs gfx11 = gfxhub_regs(kGc11);
  expect_reg(gfx11.CONTEXT0_CNTL, 0x1688, 0);
  expect_reg(gfx11.PAGE_TABLE_END_HI32, 0x1734, 0);
  expect_reg(gfx11.INVALIDATE_ENG17_ACK, 0x16ce, 0);
  EXPECT_EQ(gfx11.block_size_shift, kGc11.vm_context_block_size_shift);
  const VmHubRegs gfx12 = gfxhub_regs(kGc12);
  expect_reg(gfx12.PAGE_TABLE_BASE_LO32, 0x168f, 0);
  expect_reg(gfx12.INVALIDATE_ENG17_REQ, 0x1658, 0);
  // The invalidation engines' ADDR_RANGE pairs follow ENG17_ACK (gc_11_0_0_offset.h 0x16cf,
  // MMHUB 3.0.0 0x0787, MMHUB 4.1.0 0x05ab; gc_12 by the same layout after its 0x166a),
  // engine i's LO32 at +2i: engine 17's pair ends at 0x16f2 on gc_11.
  expect_reg(gfx11.INVALIDATE_ENG0_ADDR_RANGE_LO32, 0x16cf, 0);
  expect_reg(invalidate_range_lo32(gfx11, 17), 0x16f1, 0);
  expect_reg(invalidate_range_hi32(gfx11, 17), 0x16f2, 0);
  expect_reg(gfx12.INVALIDATE_ENG0_ADDR_RANGE_LO32, 0x166b, 0);
  expect_reg(kMmhub3.INVALIDATE_ENG0_ADDR_RANGE_LO32, 0x0787, 0);
  expect_reg(kMmhub4.INVALIDATE_ENG0_ADDR_RANGE_LO32, 0x05ab, 0);
  EXPECT_EQ(kInvalidationEngines, 18u);
  EXPECT_EQ(kInvalidateRangeLo32, 0xffffffffu);
  EXPECT_EQ(kInvalidateRangeHi32, 0x1fu);
}

// nbio_4_3_0_offset.h / nbif_6_3_1_offset.h: RCC_DEV0_EPF0_RCC_DOORBELL_APER_EN, sh_mask bit 0.
TEST(NbioRegisters, MatchLinuxHeaders) {
  expect_reg(kNbio4_3.RCC_DEV0_EPF0_RCC_DOORBELL_APER_EN, 0x00c0, 2);
  expect_reg(kNbif6_3.RCC_DEV0_EPF0_RCC_DOORBELL_APER_EN, 0x00c0, 2);
  EXPECT_EQ(BIF_DOORBELL_APER_EN, 1u);
  EXPECT_EQ(nbio_regs_for_major(4), &kNbio4_3);
  EXPECT_EQ(nbio_regs_for_major(6), &kNbif6_3);
  EXPECT_EQ(nbio_regs_for_major(7), nullptr);
}

// amdgpu_discovery.c: the fixed VRAM-size register and the MM_INDEX/MM_DATA window it reads the
// discovery binary through when the BAR does not reach it (amdgpu_device_mm_access).
TEST(NbioRegisters, VramSizeAndWindowMatchAmdgpuDiscovery) {
  EXPECT_EQ(kRccConfigMemsize, 0xde3u);
  EXPECT_EQ(kRccConfigMemsize, 0xd20u + 0xc3u); // NBIO seg 2 + regRCC_DEV0_EPF0_RCC_CONFIG_MEMSIZE
  EXPECT_EQ(kMmIndex, 0x0u);
  EXPECT_EQ(kMmData, 0x1u);
  EXPECT_EQ(kMmIndexHi, 0x6u);
  EXPECT_EQ(kMmIndexVram, 0x80000000u);
}

// The same headers (as tinygrad's generated nbio_4_3_0.py / nbif_6_3_1.py list them): the PCIe
// index/data pair, the HDP flush remap, the S2A doorbell entries and their fields.
TEST(NbioRegisters, DoorbellRoutingAndHdpFlushMatchLinuxHeaders) {
  for (const NbioRegs* n : {&kNbio4_3, &kNbif6_3}) {
    expect_reg(n->PCIE_INDEX2, 0x000e, 0);
    expect_reg(n->PCIE_DATA2, 0x000f, 0);
    expect_reg(n->REMAP_HDP_MEM_FLUSH_CNTL, 0x012d, 2);
  }
  expect_reg(kNbio4_3.S2A_DOORBELL_ENTRY_0_CTRL, 0x4f7640, 3); // 5207616
  expect_reg(kNbif6_3.S2A_DOORBELL_ENTRY_0_CTRL, 0x01cb, 2);   // GDC_S2A0_..., 459
  // amdgpu's SR-IOV host driver for Navi32 and tinygrad's AM: the CP's two ports, whole aperture.
  EXPECT_EQ(s2a_doorbell_entry({true, kS2aAwidCp, 0, 0, 3}), 0x30000007u);
  EXPECT_EQ(s2a_doorbell_entry({true, kS2aAwidCp2, 0, 0, 3}), 0x3000000du);
  // SDMA 0: AWID 0xe, from doorbell 0x100 << 1 for 20 × 2 dwords (tinygrad writes 0x3051001d).
  EXPECT_EQ(s2a_doorbell_entry({true, kS2aAwidSdma0, 0x200, kS2aSdmaRangeSize, 3}), 0x3051001du);
  const S2aDoorbellEntry e = s2a_doorbell_entry_fields(0x3051001d);
  EXPECT_TRUE(e.enable);
  EXPECT_EQ(e.awid, 0xeu);
  EXPECT_EQ(e.range_offset, 0x200u);
  EXPECT_EQ(e.range_size, 40u);
  EXPECT_EQ(e.awaddr_31_28, 3u);
  EXPECT_EQ(kMmioRemapHdpMemFlush, 0x7f000u);
}

// osssys_6_0_0_offset.h and osssys_7_0_0_offset.h (7.0 puts RPTR/WPTR before BASE and moves
// IH_CNTL from 0xc0 to 0xa8).
TEST(IhRegisters, MatchLinuxHeaders) {
  EXPECT_EQ(kOss6.IH_RB_CNTL, 0x80u);
  EXPECT_EQ(kOss6.IH_RB_BASE, 0x81u);
  EXPECT_EQ(kOss6.IH_RB_BASE_HI, 0x82u);
  EXPECT_EQ(kOss6.IH_RB_RPTR, 0x83u);
  EXPECT_EQ(kOss6.IH_RB_WPTR, 0x84u);
  EXPECT_EQ(kOss6.IH_RB_WPTR_ADDR_HI, 0x85u);
  EXPECT_EQ(kOss6.IH_RB_WPTR_ADDR_LO, 0x86u);
  EXPECT_EQ(kOss6.IH_CNTL, 0xc0u);
  EXPECT_EQ(kOss7.IH_RB_CNTL, 0x80u);
  EXPECT_EQ(kOss7.IH_RB_RPTR, 0x81u);
  EXPECT_EQ(kOss7.IH_RB_WPTR, 0x82u);
  EXPECT_EQ(kOss7.IH_RB_BASE, 0x83u);
  EXPECT_EQ(kOss7.IH_RB_BASE_HI, 0x84u);
  EXPECT_EQ(kOss7.IH_RB_WPTR_ADDR_HI, 0x85u);
  EXPECT_EQ(kOss7.IH_RB_WPTR_ADDR_LO, 0x86u);
  EXPECT_EQ(kOss7.IH_DOORBELL_RPTR, 0x87u);
  EXPECT_EQ(kOss7.IH_CNTL, 0xa8u);
  EXPECT_EQ(kOssSeg0, 0x4280u / 4);
  EXPECT_EQ(ih_regs_for_major(6), &kOss6);
  EXPECT_EQ(ih_regs_for_major(7), &kOss7);
  EXPECT_EQ(ih_regs_for_major(5), nullptr);
  // IH_RB_CNTL fields (identical in both sh_mask headers).
  EXPECT_EQ(IH_RB_CNTL_WPTR_WRITEBACK_ENABLE, 0x100u);
  EXPECT_EQ(IH_RB_CNTL_ENABLE_INTR, 0x20000u);
  EXPECT_EQ(IH_RB_CNTL_MC_SPACE_SHIFT, 28u);
  EXPECT_EQ(IH_RB_PTR_OFFSET_MASK, 0x3fffcu);
}

// SH_MEM_BASES holds bits [63:48] of each aperture (PRIVATE_BASE low half, SHARED_BASE high
// half), at amdgpu's gfx11/gfx12 aperture addresses (gmc_v11_0.c, gmc_v12_0.c).
TEST(Gc1100Registers, ShMemBasesFields) {
  EXPECT_EQ(kPrivateAperture, 0x1000000000000000ull);
  EXPECT_EQ(kSharedAperture, 0x2000000000000000ull);
  EXPECT_EQ(sh_mem_bases(kPrivateAperture, kSharedAperture), 0x20001000u);
}

// The SDMA engine's microcontroller control in GC segment 1's hyp-dec range (0x5880-0x589a):
// SDMA 6's F32_CNTL at its end with reset value 0x08084001 (HALT, TH1_RESET [13] cleared to
// run), SDMA 7's MCU_CNTL (HALT, RESET).
TEST(GcRegisters, SdmaEngineControl) {
  expect_reg(kGc11.SDMA0_ENGINE_CNTL, 0x589a, 1);
  EXPECT_EQ(kGc11.sdma_engine_cntl_reset, 0x08084001u);
  EXPECT_EQ(kGc11.sdma_engine_run_clear, SDMA_ENGINE_CNTL_HALT | (1u << 13)); // HALT, TH1_RESET
  EXPECT_EQ(kGc11.sdma_engine_cntl_reset & (1u << 13), 0u);
  expect_reg(kGc12.SDMA0_ENGINE_CNTL, 0x588e, 1);
  EXPECT_EQ(kGc12.sdma_engine_run_clear, 0x3u);
  for (const GcRegs* g : {&kGc11, &kGc12}) {
    EXPECT_GE(g->SDMA0_ENGINE_CNTL.offset, 0x5880u);
    EXPECT_LE(g->SDMA0_ENGINE_CNTL.offset, 0x589au);
    EXPECT_NE(g->sdma_engine_cntl_reset & SDMA_ENGINE_CNTL_HALT, 0u);
  }
  EXPECT_EQ(SDMA_RB_CNTL_RB_PRIV, 1u << 23);
  EXPECT_EQ(SDMA_RB_CNTL_F32_WPTR_POLL_ENABLE, 1u << 11);
  EXPECT_EQ(SDMA_RB_CNTL_RPTR_WRITEBACK_ENABLE, 1u << 12);
  EXPECT_EQ(SDMA_RB_CNTL_RPTR_WRITEBACK_TIMER_SHIFT, 16u);
  EXPECT_EQ(SDMA_IB_CNTL_IB_ENABLE, 1u);
}

// CONTEXTn_CNTL's seven *_PROTECTION_FAULT_ENABLE_INTERRUPT bits (gc_11_0_0_sh_mask.h: RANGE 9,
// DUMMY_PAGE 11, PDE0 13, VALID 15, READ 17, WRITE 19, EXECUTE 21; gc_12_0_0_sh_mask.h: each one
// higher, as PAGE_TABLE_BLOCK_SIZE moved from [6:3] to [7:4]).
TEST(VmHubRegisters, ContextFaultInterruptEnables) {
  EXPECT_EQ(vm_context_fault_interrupts(kGc11.vm_context_block_size_shift), 0x002aaa00u);
  EXPECT_EQ(vm_context_fault_interrupts(kGc12.vm_context_block_size_shift), 0x00555400u);
  EXPECT_EQ(vm_context_valid_fault_interrupt(kGc11.vm_context_block_size_shift), 0x00008000u);
  EXPECT_EQ(vm_context_valid_fault_interrupt(kGc12.vm_context_block_size_shift), 0x00010000u);
  EXPECT_EQ(kMmhub3.block_size_shift, kGc11.vm_context_block_size_shift);
  EXPECT_EQ(kMmhub4.block_size_shift, kGc12.vm_context_block_size_shift);
}

// The MEC's start-up registers (Linux gc_11_0_0_offset.h and gc_12_0_0_offset.h: CP_STAT base 0,
// the rest base 1) and the fields amdgpu's config_gfx_rs64 / cp_compute_enable touch. Only the
// RLC's bootload status moved: GC 12's 0x4e82 is RLC_RLCS_GENERAL_2.
TEST(GcRegisters, MecStartUp) {
  expect_reg(kGc11.RLC_RLCS_BOOTLOAD_STATUS, 0x4e82, 1);
  expect_reg(kGc12.RLC_RLCS_BOOTLOAD_STATUS, 0x4e7c, 1);
  for (const GcRegs* g : {&kGc11, &kGc12}) {
    expect_reg(g->CP_STAT, 0x0f40, 0);
    expect_reg(g->CP_MEC_RS64_PRGRM_CNTR_START, 0x2900, 1);
    expect_reg(g->CP_MEC_RS64_CNTL, 0x2904, 1);
    expect_reg(g->CP_MEC_RS64_PRGRM_CNTR_START_HI, 0x2938, 1);
  }
  EXPECT_EQ(RLC_BOOTLOAD_COMPLETE, 0x80000000u);
  EXPECT_EQ(CP_MEC_RS64_INVALIDATE_ICACHE, 0x10u);
  EXPECT_EQ(CP_MEC_RS64_ALL_PIPES_RESET, 0x000f0000u);
  EXPECT_EQ(CP_MEC_RS64_ALL_PIPES_ACTIVE, 0x3c000000u);
  EXPECT_EQ(CP_MEC_RS64_HALT, 0x40000000u);
  // The interrupt enables: CP_ME1_PIPE0_INT_CNTL 0x1e25 (base 0), SDMA0_CNTL 0x001c on GC 11
  // and 0x000d on GC 12 (SDMA 7 packed its registers).
  expect_reg(kGc11.CP_ME1_PIPE0_INT_CNTL, 0x1e25, 0);
  expect_reg(kGc12.CP_ME1_PIPE0_INT_CNTL, 0x1e25, 0);
  expect_reg(kGc11.SDMA0_CNTL, 0x001c, 0);
  expect_reg(kGc12.SDMA0_CNTL, 0x000d, 0);
  EXPECT_EQ(CP_INT_OPCODE_ERROR_ENABLE, 0x01000000u);
  EXPECT_EQ(CP_INT_TIME_STAMP_ENABLE, 0x04000000u);
  EXPECT_EQ(CP_INT_GENERIC0_ENABLE, 0x80000000u);
  EXPECT_EQ(SDMA_CNTL_TRAP_ENABLE, 1u);
  // Dequeuing: CP_HQD_DEQUEUE_REQUEST is MQD dword 152's register, SPI_COMPUTE_QUEUE_RESET 0x1f73.
  for (const GcRegs* g : {&kGc11, &kGc12}) {
    expect_reg(g->CP_HQD_DEQUEUE_REQUEST, 0x1fc1, 0);
    EXPECT_EQ(g->CP_HQD_DEQUEUE_REQUEST.offset - g->CP_MQD_BASE_ADDR.offset + mqd::kHqdFirst, 152u);
    expect_reg(g->SPI_COMPUTE_QUEUE_RESET, 0x1f73, 0);
  }
  EXPECT_EQ(kDequeueResetWaves, 2u);
  for (const GcRegs* g : {&kGc11, &kGc12}) {
    expect_reg(g->CP_PQ_WPTR_POLL_CNTL, 0x1e23, 0);
    expect_reg(g->CP_PQ_STATUS, 0x1e58, 0);
  }
  EXPECT_EQ(CP_PQ_WPTR_POLL_CNTL_EN, 0x80000000u);
  EXPECT_EQ(CP_PQ_STATUS_DOORBELL_ENABLE, 0x2u);
  expect_reg(kGc11.GRBM_CNTL, 0x0da0, 0);
  expect_reg(kGc12.GRBM_CNTL, 0x0da0, 0);
  EXPECT_EQ(GRBM_CNTL_READ_TIMEOUT_MASK, 0xffu);
  // GFXHUB's L2 CNTL3..5 and PROTECTION_FAULT_CNTL2 (gc_*_offset.h gcvml2pfdec), CP_DEBUG.
  expect_reg(kGc11.GCVM_L2_CNTL3, 0x15be, 0);
  expect_reg(kGc11.GCVM_L2_CNTL4, 0x15d4, 0);
  expect_reg(kGc11.GCVM_L2_CNTL5, 0x15da, 0);
  expect_reg(kGc11.GCVM_L2_PROTECTION_FAULT_CNTL2, 0x15c5, 0);
  expect_reg(kGc12.GCVM_L2_CNTL3, 0x15c6, 0);
  expect_reg(kGc12.GCVM_L2_CNTL4, 0x15dd, 0);
  expect_reg(kGc12.GCVM_L2_CNTL5, 0x15e3, 0);
  expect_reg(kGc12.GCVM_L2_PROTECTION_FAULT_CNTL2, 0x15cd, 0);
  for (const GcRegs* g : {&kGc11, &kGc12}) {
    expect_reg(g->CP_DEBUG, 0x1e1f, 0);
    EXPECT_EQ(g->GCVM_L2_PROTECTION_FAULT_CNTL2.offset,
              g->GCVM_L2_PROTECTION_FAULT_CNTL.offset + 1);
    EXPECT_EQ(g->GCVM_L2_CNTL3.offset, g->GCVM_L2_CNTL2.offset + 1);
  }
  EXPECT_EQ(vm_l2_cntl3(kGcvmL2Cntl3Default), 0x80130009u);
  EXPECT_EQ(kGcvmL2Cntl4, 0x00000001u);
  EXPECT_EQ(kGcvmL2Cntl5, 0x00003fe0u);
  EXPECT_EQ(GCVM_L2_PROTECTION_FAULT_ENABLE_DEFAULTS, 0x1ffcu);
  EXPECT_EQ(GCVM_L2_PROTECTION_FAULT_CNTL2_PTE_READ_RETRY, 0x40000u);
  EXPECT_EQ(CP_DEBUG_CPG_UTCL1_ERROR_HALT_DISABLE, 0x8000u);
  // gfx_firmware_header_v2_0: ucode_start_addr_lo at byte 52, _hi at 56, 60 bytes in all.
  EXPECT_EQ(ucode::kCpv2UcodeStartLo, 52u);
  EXPECT_EQ(ucode::kCpv2UcodeStartHi, 56u);
  EXPECT_EQ(ucode::kCpv2HeaderBytes, 60u);
}

// SH_MEM_CONFIG: amdgpu's DEFAULT_SH_MEM_CONFIG is 0xc00c (the value tinygrad's AM spells out),
// ALIGNMENT_MODE in bits [3:2] with UNALIGNED = 3 (gc_11_0_0_sh_mask.h, navi10_enum.h).
TEST(Gc1100Registers, ShMemConfigFields) {
  EXPECT_EQ(kDefaultShMemConfig, 0xc00cu);
  EXPECT_EQ(SH_MEM_CONFIG_ALIGNMENT_MODE_MASK, 0xcu);
  EXPECT_EQ(sh_mem_alignment_mode(kDefaultShMemConfig), uint32_t(kAlignUnaligned));
  EXPECT_EQ(sh_mem_alignment_mode(0), uint32_t(kAlignDword));
}

TEST(Gc1100Registers, SegmentBasesPlaceShRegistersWhereSidHSaysTheyAre) {
  // gc_11_0_0_offset.h: regCOMPUTE_DISPATCH_INITIATOR 0x1ba0 and regCOMPUTE_PGM_LO 0x1bac at
  // BASE_IDX 0; Mesa sid.h: R_00B800 / R_00B830 (byte addresses).
  EXPECT_EQ(gc11_addr(Reg{0x1ba0, 0}), sh::regCOMPUTE_DISPATCH_INITIATOR);
  EXPECT_EQ(gc11_addr(Reg{0x1bac, 0}), sh::regCOMPUTE_PGM_LO);
  EXPECT_EQ(sh::regCOMPUTE_DISPATCH_INITIATOR, 0xB800u / 4);
  EXPECT_EQ(sh::regCOMPUTE_PGM_RSRC1, 0xB848u / 4);
  EXPECT_EQ(sh::regCOMPUTE_USER_DATA_0, 0xB900u / 4);
  EXPECT_EQ(gc11_addr(kGc11.GRBM_GFX_CNTL), 0xA900u);
}

// COMPUTE_TMPRING_SIZE.WAVESIZE: 256-byte units, 15 bits on gfx11 and 18 on gfx12 (LLVM
// SIDefines.h S_00B860_WAVESIZE_GFX11 = (x & 0x7FFF) << 12, _GFX12Plus = (x & 0x3FFFF) << 12).
TEST(ShRegisters, TmpringWaveSizeWidthPerGeneration) {
  EXPECT_EQ(sh::tmpring_size(32, 0x7fff * 256, false), 32u | (0x7fffu << 12));
  EXPECT_EQ(sh::tmpring_size(32, 0x8000 * 256, false), 32u); // beyond the gfx11 field
  EXPECT_EQ(sh::tmpring_size(32, 0x3ffff * 256, true), 32u | (0x3ffffu << 12));
  EXPECT_EQ(sh::tmpring_wave_bytes(sh::tmpring_size(1, 0x12345 * 256, true), true), 0x12345u * 256);
  EXPECT_EQ(sh::tmpring_wave_bytes(0x7fffu << 12, false), 0x7fffu * 256);
}

// v11_structs.h and v12_structs.h: cp_mqd_base_addr_lo at 128 (0x80), the HQD mirror from there.
TEST(Mqd, MirrorsHqdRegistersOnBothGenerations) {
  for (const GcRegs* g : {&kGc11, &kGc12}) {
    SCOPED_TRACE(g->name);
    EXPECT_EQ(mqd::kHqdFirst, 128u);
    EXPECT_EQ(g->CP_MQD_BASE_ADDR.offset + (mqd::cp_hqd_active - mqd::kHqdFirst), g->CP_HQD_ACTIVE.offset);
    EXPECT_EQ(g->CP_MQD_BASE_ADDR.offset + (mqd::cp_hqd_pq_base_lo - mqd::kHqdFirst), g->CP_HQD_PQ_BASE.offset);
    EXPECT_EQ(g->CP_MQD_BASE_ADDR.offset + (mqd::cp_hqd_pq_doorbell_control - mqd::kHqdFirst),
              g->CP_HQD_PQ_DOORBELL_CONTROL.offset);
    EXPECT_EQ(g->CP_MQD_BASE_ADDR.offset + (mqd::cp_hqd_pq_control - mqd::kHqdFirst),
              g->CP_HQD_PQ_CONTROL.offset);
    EXPECT_EQ(g->CP_MQD_BASE_ADDR.offset + (mqd::cp_hqd_eop_base_addr_lo - mqd::kHqdFirst),
              g->CP_HQD_EOP_BASE_ADDR.offset);
    EXPECT_EQ(g->CP_MQD_BASE_ADDR.offset + (mqd::cp_hqd_eop_control - mqd::kHqdFirst),
              g->CP_HQD_EOP_CONTROL.offset);
    EXPECT_EQ(g->CP_MQD_BASE_ADDR.offset + (mqd::cp_hqd_pq_wptr_lo - mqd::kHqdFirst),
              g->CP_HQD_PQ_WPTR_LO.offset);
    EXPECT_EQ(g->CP_MQD_BASE_ADDR.offset + (mqd::cp_hqd_pq_wptr_hi - mqd::kHqdFirst),
              g->CP_HQD_PQ_WPTR_HI.offset);
  }
}

// v11_structs.h dword indices of what the driver fills, and gfx_v11_0.c's reset values it starts
// from (regCP_HQD_PERSISTENT_STATE_DEFAULT and friends; gfx_v12_0.c has the same).
TEST(Mqd, IndicesAndTheHqdResetValuesAmdgpuStartsFrom) {
  EXPECT_EQ(mqd::header, 0u);
  EXPECT_EQ(mqd::compute_static_thread_mgmt_se0, 23u);
  EXPECT_EQ(mqd::compute_static_thread_mgmt_se1, 24u);
  EXPECT_EQ(mqd::compute_static_thread_mgmt_se2, 26u);
  EXPECT_EQ(mqd::compute_static_thread_mgmt_se3, 27u);
  EXPECT_EQ(mqd::compute_misc_reserved, 32u);
  EXPECT_EQ(mqd::cp_hqd_persistent_state, 132u);
  EXPECT_EQ(mqd::cp_hqd_pipe_priority, 133u);
  EXPECT_EQ(mqd::cp_hqd_queue_priority, 134u);
  EXPECT_EQ(mqd::cp_hqd_quantum, 135u);
  EXPECT_EQ(mqd::cp_hqd_ib_control, 149u);
  EXPECT_EQ(mqd::cp_hqd_hq_status0, 160u);
  EXPECT_EQ(mqd::cp_mqd_control, 162u);
  EXPECT_EQ(mqd::cp_hqd_aql_control, 181u);
  EXPECT_EQ(mqd::kHeader, 0xC0310800u);
  EXPECT_EQ(mqd::kCpHqdPersistentStateDefault, 0x0be05501u);
  EXPECT_EQ(mqd::kCpHqdIbControlDefault, 0x00300000u);
  EXPECT_EQ(mqd::kCpMqdControlDefault, 0x00000100u);
  EXPECT_EQ(mqd::kCpHqdPqControlDefault, 0x00308509u);
  EXPECT_EQ(mqd::kCpHqdEopControlDefault, 0x00000006u);
  // A 2048-dword ring: QUEUE_SIZE 10 over the reset value, kernel queue, UNORD_DISPATCH on.
  EXPECT_EQ(mqd::pq_control(10), 0xD030850Au);
}

// amdgpu_vm.h, gfx12 format change: AMDGPU_PDE_PTE_GFX12 and AMDGPU_PTE_IS_PTE are bit 63,
// AMDGPU_PTE_MTYPE_GFX12 sits at bit 54.
TEST(GmcV12, PteBits) {
  EXPECT_EQ(gmc::PDE_PTE_GFX12, 1ull << 63);
  EXPECT_EQ(gmc::PTE_IS_PTE_GFX12, 1ull << 63);
  EXPECT_EQ(gmc::pte_mtype_gfx12(3), 3ull << 54);
  EXPECT_EQ(gmc::pde_pte_flag(gmc::PteFormat::v12), 1ull << 63);
  EXPECT_EQ(gmc::pte_format_for_gc_major(11), gmc::PteFormat::v11);
  EXPECT_EQ(gmc::pte_format_for_gc_major(12), gmc::PteFormat::v12);
}

TEST(GmcV11, PteBits) {
  EXPECT_EQ(gmc::PTE_VALID, 1ull);
  EXPECT_EQ(gmc::PTE_SYSTEM, 2ull);
  EXPECT_EQ(gmc::PTE_SNOOPED, 4ull);
  EXPECT_EQ(gmc::PTE_EXECUTABLE, 0x10ull);
  EXPECT_EQ(gmc::PTE_READABLE, 0x20ull);
  EXPECT_EQ(gmc::PTE_WRITEABLE, 0x40ull);
  EXPECT_EQ(gmc::pte_fragment(9), 9ull << 7);
  EXPECT_EQ(gmc::PDE_PTE, 1ull << 54);
  EXPECT_EQ(gmc::pde_pte_flag(gmc::PteFormat::v11), 1ull << 54);
  EXPECT_EQ(gmc::level_shift(2), 30u); // the root covers 512 x 1 GiB = 512 GiB
}

// irqsrcs_gfx_11_0_0.h; kfd soc15_int.h agrees (SOC21_INTSRC_SDMA_TRAP 49, SOC15's was 224).
// irqsrcs_gfx_12_0_0.h keeps every one of these numbers, so gfx12 shares the table.
TEST(Ih, InterruptSourcesOfGfx11) {
  EXPECT_EQ(ih::CLIENTID_GFX, 0x0a);
  EXPECT_EQ(ih::CLIENTID_GRBM_CP, 0x14);
  EXPECT_EQ(ih::SRCID_UTCL2_FAULT, 0);
  EXPECT_EQ(ih::SRCID_SDMA_TRAP, 49);
  EXPECT_EQ(ih::SRCID_SDMA_QUEUE_HANG, 55);
  EXPECT_EQ(ih::SRCID_CP_EOP_INTERRUPT, 181);
  EXPECT_EQ(ih::SRCID_CP_BAD_OPCODE, 183);
  EXPECT_EQ(ih::SRCID_SQ_INTERRUPT_MSG, 239);
}

// mp_13_0_0_offset.h: MP0_SMN_C2PMSG_n = 0x40 + n, MP1_SMN_C2PMSG_n = 0x240 + n (BASE_IDX 0);
// mp_14_0_2_offset.h: MPASP_SMN_C2PMSG_n = 0x40 + n (BASE_IDX 0), MP1_SMN_C2PMSG_n = 0x40 + n
// at BASE_IDX 1. amdgpu_psp.h bootloader commands, smu_v13_0_0/v14_0_2_ppsmc.h messages.
TEST(MpRegisters, MailboxesMatchLinuxHeaders) {
  expect_reg(kMp0_13.bl_cmd, 0x63, 0);
  expect_reg(kMp0_13.bl_addr, 0x64, 0);
  expect_reg(kMp0_13.ring_cmd, 0x80, 0);
  expect_reg(kMp0_13.ring_wptr, 0x83, 0);
  expect_reg(kMp0_13.ring_lo, 0x85, 0);
  expect_reg(kMp0_13.ring_size, 0x87, 0);
  expect_reg(kMp0_13.sos_alive, 0x91, 0);
  expect_reg(kMp0_14.sos_alive, 0x91, 0);
  expect_reg(kMp1_13.msg, 0x282, 0);
  expect_reg(kMp1_13.arg, 0x292, 0);
  expect_reg(kMp1_13.resp, 0x29a, 0);
  expect_reg(kMp1_14.msg, 0x82, 1);
  expect_reg(kMp1_14.resp, 0x9a, 1);
  // The debug mailbox: C2PMSG_75 message, C2PMSG_53 argument, C2PMSG_54 response (0x28b is
  // smu_v13_0_0_ppt.c's own mmMP1_SMN_C2PMSG_75).
  expect_reg(kMp1_13.debug_msg, 0x28b, 0);
  expect_reg(kMp1_13.debug_arg, 0x275, 0);
  expect_reg(kMp1_13.debug_resp, 0x276, 0);
  expect_reg(kMp1_14.debug_msg, 0x8b, 1);
  expect_reg(kMp1_14.debug_arg, 0x75, 1);
  expect_reg(kMp1_14.debug_resp, 0x76, 1);
  EXPECT_EQ(smu::DEBUGSMC_MSG_Mode1Reset, 2u);
  EXPECT_EQ(kMp1_13.mode1_reset_wait_ms, 500u);
  EXPECT_EQ(kMp1_14.mode1_reset_wait_ms, 1000u);
  EXPECT_EQ(psp_regs_for_major(13), &kMp0_13);
  EXPECT_EQ(smu_regs_for_major(14), &kMp1_14);
  EXPECT_EQ(smu_regs_for_major(12), nullptr);
  EXPECT_EQ(psp::BL_LOAD_SYSDRV, 0x10000u);
  EXPECT_EQ(psp::BL_LOAD_SOSDRV, 0x20000u);
  EXPECT_EQ(psp::BL_LOAD_KEY_DATABASE, 0x80000u);
  EXPECT_EQ(psp::BL_LOAD_TOS_SPL_TABLE, 0x10000000u);
  EXPECT_EQ(psp::GFX_CTRL_CMD_ID_INIT_GPCOM_RING, 0x20000u);
  EXPECT_EQ(smu::MSG_GetSmuVersion, 0x2u);
  EXPECT_EQ(smu::MSG_SetDriverDramAddrHigh, 0xEu);
  EXPECT_EQ(smu::MSG_Mode1Reset, 0x2Fu);
  EXPECT_EQ(smu::MSG_RunDcBtc, 0x36u);
  EXPECT_EQ(smu::RESULT_UNKNOWN_CMD, 0xFEu);
}

// psp_gfx_if.h: 64-byte ring frames, 1 KiB command buffers with the command at +28 and the
// response at +864; command and firmware type numbers.
TEST(PspGfxInterface, LayoutsAndNumbers) {
  EXPECT_EQ(psp::kFrameBytes, 64u);
  EXPECT_EQ(psp::kFrameFenceValue, 20u);
  EXPECT_EQ(psp::kCmdBufBytes, 1024u);
  EXPECT_EQ(psp::kCmd, 28u);
  EXPECT_EQ(psp::kResp, 864u);
  EXPECT_EQ(psp::kRespTmrSize, 16u);
  EXPECT_EQ(psp::GFX_CMD_ID_SETUP_TMR, 5u);
  EXPECT_EQ(psp::GFX_CMD_ID_LOAD_IP_FW, 6u);
  EXPECT_EQ(psp::GFX_CMD_ID_LOAD_TOC, 0x20u);
  EXPECT_EQ(psp::GFX_CMD_ID_AUTOLOAD_RLC, 0x21u);
  EXPECT_EQ(psp::GFX_FW_TYPE_CP_MEC, 4u);
  EXPECT_EQ(psp::GFX_FW_TYPE_RLC_G, 8u);
  EXPECT_EQ(psp::GFX_FW_TYPE_SDMA0, 9u);
  EXPECT_EQ(psp::GFX_FW_TYPE_SMU, 18u);
  EXPECT_EQ(psp::GFX_FW_TYPE_IMU_I, 68u);
  EXPECT_EQ(psp::GFX_FW_TYPE_IMU_D, 69u);
  EXPECT_EQ(psp::kTmrAlignment, 1u << 20);
}

// The SQ interrupt word (kfd_int_process_v11.c, GC 11 and GC 12): context_id0 DETAIL [20:0],
// TYPE [24:21], SH_ID [25], PRIV [26], WAVE_ID [31:27]; context_id1 SIMD_ID [1:0], WGP_ID [5:2],
// ENCODING [7:6]; encodings AUTO 0, INST 1, ERROR 2; error types EDC_FUE 0, ILLEGAL_INST 1,
// MEMVIOL 2, EDC_FED 3.
TEST(SqInterruptWord, MatchesKfdV11Layout) {
  using namespace am::hw::sq;
  EXPECT_EQ(CTXID0_DETAIL_MASK, 0x001fffffu);
  EXPECT_EQ(CTXID0_TYPE_MASK, 0x01e00000u);
  EXPECT_EQ(CTXID0_TYPE_SHIFT, 21u);
  EXPECT_EQ(CTXID0_SH_ID_SHIFT, 25u);
  EXPECT_EQ(CTXID0_PRIV_SHIFT, 26u);
  EXPECT_EQ(CTXID0_WAVE_ID_SHIFT, 27u);
  EXPECT_EQ(CTXID1_SIMD_ID_MASK, 0x00000003u);
  EXPECT_EQ(CTXID1_WGP_ID_MASK, 0x0000003cu);
  EXPECT_EQ(CTXID1_ENCODING_MASK, 0x000000c0u);
  EXPECT_EQ(uint32_t(ENCODING_ERROR), 2u);
  EXPECT_EQ(uint32_t(ERROR_TYPE_ILLEGAL_INST), 1u);
  EXPECT_EQ(uint32_t(ERROR_TYPE_MEMVIOL), 2u);
  InterruptWord w;
  w.encoding = ENCODING_ERROR;
  w.error_type = ERROR_TYPE_ILLEGAL_INST;
  w.sh_id = 1, w.wave_id = 0x13, w.simd_id = 2, w.wgp_id = 0xa;
  uint32_t c0 = 0, c1 = 0;
  encode(w, c0, c1);
  EXPECT_EQ(c0, (1u << 21) | (1u << 25) | (0x13u << 27));
  EXPECT_EQ(c1, 2u | (0xau << 2) | (2u << 6));
  const InterruptWord d = decode(c0, c1);
  EXPECT_EQ(d.encoding, uint32_t(ENCODING_ERROR));
  EXPECT_EQ(d.error_type, uint32_t(ERROR_TYPE_ILLEGAL_INST));
  EXPECT_EQ(d.sh_id, 1u);
  EXPECT_EQ(d.wave_id, 0x13u);
  EXPECT_EQ(d.simd_id, 2u);
  EXPECT_EQ(d.wgp_id, 0xau);
}

// Reading a wave: gc_11_0_0_offset.h regSQ_IND_INDEX 0x1118, regSQ_IND_DATA 0x1119 (BASE_IDX
// 0), regGRBM_GFX_INDEX 0x2200 (BASE_IDX 1); the sqind indices STATUS 0x102, TRAPSTS 0x103,
// PC_LO 0x108, PC_HI 0x109, HW_ID1 0x117; gc_12_0_0_offset.h's gfx_se_sqind: PC_LO 0x140, PC_HI
// 0x141, EXCP_FLAG_PRIV 0x111, HW_ID1 0x117, no TRAPSTS. gc_11_0_0_sh_mask.h: SQ_IND_INDEX
// WAVE_ID 0x1f, WORKITEM_ID 0x7e0, AUTO_INCR 0x800, INDEX 0xffff0000; SQ_WAVE_TRAPSTS
// ILLEGAL_INST 0x800; gc_12_0_0_sh_mask.h: SQ_WAVE_EXCP_FLAG_PRIV ILLEGAL_INST 0x40; both:
// SQ_WAVE_HW_ID1 WAVE_ID 0x1f, SIMD_ID 0x300, WGP_ID 0x3c00, SA_ID 0x10000, SE_ID 0x1c0000,
// SQ_WAVE_PC_HI 0xffff; GRBM_GFX_INDEX SA_INDEX from bit 8, SE_INDEX from bit 16, broadcast
// bits 29..31.
TEST(SqWaveRegisters, MatchLinuxHeaders) {
  using namespace am::hw::sq;
  expect_reg(kSq11.SQ_IND_INDEX, 0x1118, 0);
  expect_reg(kSq11.SQ_IND_DATA, 0x1119, 0);
  expect_reg(kSq11.GRBM_GFX_INDEX, 0x2200, 1);
  EXPECT_EQ(kSq11.ix_status, 0x102u);
  EXPECT_EQ(kSq11.ix_exception, 0x103u);
  EXPECT_EQ(kSq11.ix_pc_lo, 0x108u);
  EXPECT_EQ(kSq11.ix_pc_hi, 0x109u);
  EXPECT_EQ(kSq11.ix_hw_id1, 0x117u);
  EXPECT_EQ(kSq11.illegal_inst, 0x800u);
  expect_reg(kSq12.GRBM_GFX_INDEX, 0x2200, 1);
  EXPECT_EQ(kSq12.ix_status, 0x102u);
  EXPECT_EQ(kSq12.ix_exception, 0x111u);
  EXPECT_EQ(kSq12.ix_pc_lo, 0x140u);
  EXPECT_EQ(kSq12.ix_pc_hi, 0x141u);
  EXPECT_EQ(kSq12.ix_hw_id1, 0x117u);
  EXPECT_EQ(kSq12.illegal_inst, 0x40u);
  EXPECT_EQ(sq_regs_for_gc_major(11), &kSq11);
  EXPECT_EQ(sq_regs_for_gc_major(12), &kSq12);
  EXPECT_EQ(sq_regs_for_gc_major(10), nullptr);
  EXPECT_EQ(SQ_IND_INDEX_WAVE_ID_MASK, 0x1fu);
  EXPECT_EQ(SQ_IND_INDEX_WORKITEM_ID_SHIFT, 5u);
  EXPECT_EQ(SQ_IND_INDEX_AUTO_INCR, 0x800u);
  EXPECT_EQ(sq_ind_index(3, 0x108), 0x01080003u);
  EXPECT_EQ(encode_hw_id1({0x1f, 3, 0xf, 1, 7}), 0x1fu | 0x300u | 0x3c00u | 0x10000u | 0x1c0000u);
  const HwId1 id = decode_hw_id1(0x00143a05); // SE 5, SA 0, WGP 14, SIMD 2, wave 5
  EXPECT_EQ(id.se_id, 5u);
  EXPECT_EQ(id.sa_id, 0u);
  EXPECT_EQ(id.wgp_id, 14u);
  EXPECT_EQ(id.simd_id, 2u);
  EXPECT_EQ(id.wave_id, 5u);
  EXPECT_EQ(SQ_WAVE_PC_HI_MASK, 0xffffu);
  EXPECT_EQ(grbm_gfx_index(3, 1, 0x2b), 0x2bu | (1u << 8) | (3u << 16));
  EXPECT_EQ(kGrbmGfxIndexBroadcast, 0xe0000000u);
}

// MMHUB's invalidation semaphore and private-invalidation register (mmhub_3_0_0, 3_0_2 and
// 4_1_0_offset.h: regMMVM_INVALIDATE_ENG17_SEM, regMMVM_L2_BANK_SELECT_RESERVED_CID2; bit 25 from
// gmc_v11_0_flush_gpu_tlb); GFXHUB takes no semaphore.
TEST(HwFacts, MmhubInvalidationSemaphoreAndPrivateInvalidation) {
  using namespace am::hw;
  for (auto [h, sem, cid2] : {std::tuple{&kMmhub3, 0x0762u, 0x071bu},
                              {&kMmhub3_0_2, 0x06e2u, 0x069bu},
                              {&kMmhub4, 0x0586u, 0x0500u}}) {
    SCOPED_TRACE(h->name);
    EXPECT_TRUE(h->invalidate_semaphore);
    EXPECT_EQ(h->INVALIDATE_ENG17_SEM.offset, sem);
    EXPECT_EQ(h->INVALIDATE_ENG17_SEM.offset + 18, h->INVALIDATE_ENG17_REQ.offset); // ENG0..17_SEM
    EXPECT_EQ(h->L2_BANK_SELECT_RESERVED_CID2.offset, cid2);
    EXPECT_EQ(h->INVALIDATE_ENG17_SEM.base_idx, 0);
    EXPECT_EQ(h->L2_BANK_SELECT_RESERVED_CID2.base_idx, 0);
  }
  EXPECT_FALSE(gfxhub_regs(kGc11).invalidate_semaphore);
  EXPECT_EQ(RESERVED_CACHE_PRIVATE_INVALIDATION, 0x02000000u);
}

// PSP: the TMR set up at boot on MP0 14.0.2/14.0.3 (amdgpu_psp.c psp_early_init) and
// psp_v13_0_ring_create's 20 ms.
TEST(HwFacts, PspBootTimeTmrAndRingCreateDelay) {
  using namespace am::hw::psp;
  EXPECT_TRUE(tmr_set_up_at_boot(14, 0, 2));
  EXPECT_TRUE(tmr_set_up_at_boot(14, 0, 3));
  EXPECT_FALSE(tmr_set_up_at_boot(13, 0, 0));
  EXPECT_FALSE(tmr_set_up_at_boot(13, 0, 10));
  EXPECT_FALSE(tmr_set_up_at_boot(14, 0, 0));
  EXPECT_EQ(kRingCreateDelayMs, 20u);
}

// Shader engines per part, over which COMPUTE_TMPRING_SIZE.WAVES counts (AMD's die descriptions).
TEST(HwFacts, ShaderEnginesOfEachPart) {
  auto engines = [](uint16_t device) {
    for (const am::hw::PciPart& p : am::hw::kKnownParts)
      if (p.device == device) return p.shader_engines;
    return 0u;
  };
  EXPECT_EQ(engines(0x744c), 6u); // Navi31
  EXPECT_EQ(engines(0x7448), 6u);
  EXPECT_EQ(engines(0x747e), 3u); // Navi32
  EXPECT_EQ(engines(0x7480), 2u); // Navi33
  EXPECT_EQ(engines(0x7550), 4u); // Navi48
  EXPECT_EQ(engines(0x7590), 2u); // Navi44
}
