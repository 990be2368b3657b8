// Hardware facts pinned to the literal values of their public sources: Linux
// gc_11_0_0_offset.h (offset, BASE_IDX), amdgpu_vm.h (PTE/PDE bits), v11_structs.h (MQD),
// irqsrcs_gfx_11_0_0.h and soc21's ih client ids (interrupt sources).
#include "am/hw/gc_11_0_0_regs.h"
#include "am/hw/gmc_v11.h"
#include "am/hw/ih_v6.h"
#include "am/hw/mqd_v11.h"
#include "am/hw/sh_regs.h"

#include <gtest/gtest.h>

using namespace am::hw;
using namespace am::hw::gc11;

namespace {
void expect_reg(Reg r, uint32_t offset, uint8_t base_idx) {
  EXPECT_EQ(r.offset, offset);
  EXPECT_EQ(r.base_idx, base_idx);
}
} // namespace

TEST(Gc1100Registers, MatchLinuxHeader) {
  expect_reg(regGRBM_GFX_CNTL, 0x0900, 1);
  expect_reg(regSCRATCH_REG6, 0x2046, 1);
  expect_reg(regSCRATCH_REG7, 0x2047, 1);
  expect_reg(regSDMA0_QUEUE0_RB_CNTL, 0x0080, 0);
  expect_reg(regSDMA0_QUEUE0_RB_BASE, 0x0081, 0);
  expect_reg(regSDMA0_QUEUE0_RB_RPTR_ADDR_LO, 0x0089, 0);
  expect_reg(regSDMA0_QUEUE0_DOORBELL, 0x0092, 0);
  expect_reg(regSDMA0_QUEUE0_DOORBELL_OFFSET, 0x00ab, 0);
  expect_reg(regGCVM_CONTEXT0_CNTL, 0x1688, 0);
  expect_reg(regGCVM_CONTEXT0_PAGE_TABLE_BASE_ADDR_LO32, 0x16f3, 0);
  expect_reg(regGCVM_CONTEXT0_PAGE_TABLE_START_ADDR_LO32, 0x1713, 0);
  expect_reg(regGCVM_CONTEXT0_PAGE_TABLE_END_ADDR_LO32, 0x1733, 0);
  expect_reg(regGCVM_L2_PROTECTION_FAULT_STATUS, 0x15c8, 0);
  expect_reg(regGCVM_L2_PROTECTION_FAULT_ADDR_LO32, 0x15c9, 0);
  expect_reg(regCP_MQD_BASE_ADDR, 0x1fa9, 0);
  expect_reg(regCP_HQD_ACTIVE, 0x1fab, 0);
  expect_reg(regCP_HQD_PQ_DOORBELL_CONTROL, 0x1fb8, 0);
  expect_reg(regCP_HQD_PQ_CONTROL, 0x1fba, 0);
  expect_reg(regCP_HQD_EOP_CONTROL, 0x1fd0, 0);
  expect_reg(regCP_HQD_PQ_WPTR_LO, 0x1fdf, 0);
  expect_reg(regSH_MEM_BASES, 0x09e3, 1);
  expect_reg(regSH_MEM_CONFIG, 0x09e4, 1);
}

// SH_MEM_BASES holds bits [63:48] of each aperture (PRIVATE_BASE low half, SHARED_BASE high
// half), at amdgpu's gfx11 aperture addresses (gmc_v11_0.c).
TEST(Gc1100Registers, ShMemBasesFields) {
  EXPECT_EQ(kPrivateAperture, 0x1000000000000000ull);
  EXPECT_EQ(kSharedAperture, 0x2000000000000000ull);
  EXPECT_EQ(sh_mem_bases(kPrivateAperture, kSharedAperture), 0x20001000u);
}

TEST(Gc1100Registers, SegmentBasesPlaceShRegistersWhereSidHSaysTheyAre) {
  // gc_11_0_0_offset.h: regCOMPUTE_DISPATCH_INITIATOR 0x1ba0 and regCOMPUTE_PGM_LO 0x1bac at
  // BASE_IDX 0; Mesa sid.h: R_00B800 / R_00B830 (byte addresses).
  EXPECT_EQ(addr(Reg{0x1ba0, 0}), sh::regCOMPUTE_DISPATCH_INITIATOR);
  EXPECT_EQ(addr(Reg{0x1bac, 0}), sh::regCOMPUTE_PGM_LO);
  EXPECT_EQ(sh::regCOMPUTE_DISPATCH_INITIATOR, 0xB800u / 4);
  EXPECT_EQ(sh::regCOMPUTE_PGM_RSRC1, 0xB848u / 4);
  EXPECT_EQ(sh::regCOMPUTE_USER_DATA_0, 0xB900u / 4);
  EXPECT_EQ(addr(regGRBM_GFX_CNTL), 0xA900u);
}

TEST(Gc1100Registers, MqdMirrorsHqdRegisters) {
  EXPECT_EQ(regCP_MQD_BASE_ADDR.offset + (mqd11::cp_hqd_pq_doorbell_control - mqd11::kHqdFirst),
            regCP_HQD_PQ_DOORBELL_CONTROL.offset);
  EXPECT_EQ(regCP_MQD_BASE_ADDR.offset + (mqd11::cp_hqd_pq_control - mqd11::kHqdFirst),
            regCP_HQD_PQ_CONTROL.offset);
  EXPECT_EQ(regCP_MQD_BASE_ADDR.offset + (mqd11::cp_hqd_eop_control - mqd11::kHqdFirst),
            regCP_HQD_EOP_CONTROL.offset);
  EXPECT_EQ(regCP_MQD_BASE_ADDR.offset + (mqd11::cp_hqd_pq_wptr_lo - mqd11::kHqdFirst),
            regCP_HQD_PQ_WPTR_LO.offset);
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
  EXPECT_EQ(gmc::level_shift(2), 30u); // the root covers 512 x 1 GiB = 512 GiB
}

// irqsrcs_gfx_11_0_0.h; kfd soc15_int.h agrees (SOC21_INTSRC_SDMA_TRAP 49, SOC15's was 224).
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
