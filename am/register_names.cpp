#include "register_names.h"

#include "hw/discovery.h"
#include "hw/mp_regs.h"
#include "hw/nbio_regs.h"
#include "hw/osssys_regs.h"
#include "hw/vm_hub_regs.h"

#include <cstdio>
#include <initializer_list>
#include <string>
#include <utility>

namespace am {
namespace {

using namespace hw;

// A table's Reg members with their names, as its header spells them.
template <class Table> struct NamedReg {
  Reg Table::*reg;
  const char* name;
};
// The lists below keep several names to a line, as the headers' register blocks read.
#define NAMED(field)                                                                               \
  { &Table::field, #field }
#define AS(field, name)                                                                            \
  { &Table::field, #name } // a table member named for its role

template <class Table>
void add_all(RegisterNames& names, const Table& table, const RegisterBases& bases,
             const std::string& prefix, std::initializer_list<NamedReg<Table>> regs) {
  for (const NamedReg<Table>& r : regs) names.add(bases(table.*(r.reg)), prefix + r.name);
}

void add_gc(RegisterNames& names, const GcRegisters& gc) {
  using Table = GcRegs;
  add_all<Table>(names, *gc.table, gc.bases, "",
                 // clang-format off
                 {
      NAMED(GRBM_GFX_CNTL), NAMED(GRBM_CNTL), NAMED(SH_MEM_BASES), NAMED(SH_MEM_CONFIG),
      NAMED(SCRATCH_REG6), NAMED(SCRATCH_REG7), NAMED(SDMA0_QUEUE0_RB_CNTL),
      NAMED(SDMA0_QUEUE0_RB_BASE), NAMED(SDMA0_QUEUE0_RB_BASE_HI), NAMED(SDMA0_QUEUE0_RB_RPTR),
      NAMED(SDMA0_QUEUE0_RB_RPTR_HI), NAMED(SDMA0_QUEUE0_RB_WPTR), NAMED(SDMA0_QUEUE0_RB_WPTR_HI),
      NAMED(SDMA0_QUEUE0_RB_RPTR_ADDR_LO), NAMED(SDMA0_QUEUE0_RB_RPTR_ADDR_HI),
      NAMED(SDMA0_QUEUE0_IB_CNTL), NAMED(SDMA0_QUEUE0_DOORBELL),
      NAMED(SDMA0_QUEUE0_DOORBELL_OFFSET), NAMED(SDMA0_QUEUE0_RB_WPTR_POLL_ADDR_LO),
      NAMED(SDMA0_QUEUE0_RB_WPTR_POLL_ADDR_HI), NAMED(SDMA0_QUEUE0_MINOR_PTR_UPDATE),
      NAMED(SDMA0_ENGINE_CNTL), NAMED(GCVM_CONTEXT0_CNTL),
      NAMED(GCVM_CONTEXT0_PAGE_TABLE_BASE_ADDR_LO32),
      NAMED(GCVM_CONTEXT0_PAGE_TABLE_BASE_ADDR_HI32),
      NAMED(GCVM_CONTEXT0_PAGE_TABLE_START_ADDR_LO32),
      NAMED(GCVM_CONTEXT0_PAGE_TABLE_START_ADDR_HI32),
      NAMED(GCVM_CONTEXT0_PAGE_TABLE_END_ADDR_LO32), NAMED(GCVM_CONTEXT0_PAGE_TABLE_END_ADDR_HI32),
      NAMED(GCVM_INVALIDATE_ENG17_REQ), NAMED(GCVM_INVALIDATE_ENG17_ACK),
      NAMED(GCVM_INVALIDATE_ENG0_ADDR_RANGE_LO32), NAMED(GCVM_L2_PROTECTION_FAULT_CNTL),
      NAMED(GCVM_L2_PROTECTION_FAULT_STATUS), NAMED(GCVM_L2_PROTECTION_FAULT_ADDR_LO32),
      NAMED(GCVM_L2_PROTECTION_FAULT_ADDR_HI32), NAMED(GCMC_VM_FB_LOCATION_BASE),
      NAMED(GCMC_VM_FB_LOCATION_TOP), NAMED(GCMC_VM_AGP_TOP), NAMED(GCMC_VM_AGP_BOT),
      NAMED(GCMC_VM_AGP_BASE), NAMED(GCMC_VM_SYSTEM_APERTURE_LOW_ADDR),
      NAMED(GCMC_VM_SYSTEM_APERTURE_HIGH_ADDR), NAMED(GCMC_VM_SYSTEM_APERTURE_DEFAULT_ADDR_LSB),
      NAMED(GCMC_VM_SYSTEM_APERTURE_DEFAULT_ADDR_MSB), NAMED(GCMC_VM_MX_L1_TLB_CNTL),
      NAMED(GCVM_L2_CNTL), NAMED(GCVM_L2_CNTL2), NAMED(GCVM_L2_PROTECTION_FAULT_DEFAULT_ADDR_LO32),
      NAMED(GCVM_L2_PROTECTION_FAULT_DEFAULT_ADDR_HI32), NAMED(GCVM_L2_CNTL3), NAMED(GCVM_L2_CNTL4),
      NAMED(GCVM_L2_CNTL5), NAMED(GCVM_L2_PROTECTION_FAULT_CNTL2), NAMED(CP_DEBUG),
      NAMED(CP_MQD_BASE_ADDR), NAMED(CP_HQD_ACTIVE), NAMED(CP_HQD_PQ_BASE),
      NAMED(CP_HQD_PQ_BASE_HI), NAMED(CP_HQD_PQ_RPTR), NAMED(CP_HQD_PQ_RPTR_REPORT_ADDR),
      NAMED(CP_HQD_PQ_RPTR_REPORT_ADDR_HI), NAMED(CP_HQD_PQ_WPTR_POLL_ADDR),
      NAMED(CP_HQD_PQ_WPTR_POLL_ADDR_HI), NAMED(CP_HQD_PQ_DOORBELL_CONTROL),
      NAMED(CP_HQD_PQ_CONTROL), NAMED(CP_HQD_EOP_BASE_ADDR), NAMED(CP_HQD_EOP_BASE_ADDR_HI),
      NAMED(CP_HQD_EOP_CONTROL), NAMED(CP_HQD_PQ_WPTR_LO), NAMED(CP_HQD_PQ_WPTR_HI),
      NAMED(CP_MEC_DOORBELL_RANGE_LOWER), NAMED(CP_MEC_DOORBELL_RANGE_UPPER), NAMED(CP_STAT),
      NAMED(RLC_RLCS_BOOTLOAD_STATUS), NAMED(CP_MEC_RS64_PRGRM_CNTR_START),
      NAMED(CP_MEC_RS64_PRGRM_CNTR_START_HI), NAMED(CP_MEC_RS64_CNTL), NAMED(CP_ME1_PIPE0_INT_CNTL),
      NAMED(SDMA0_CNTL), NAMED(CP_HQD_DEQUEUE_REQUEST), NAMED(SPI_COMPUTE_QUEUE_RESET),
      NAMED(CP_PQ_WPTR_POLL_CNTL), NAMED(CP_PQ_STATUS)
                     // clang-format on
                 });
}

void add_mmhub(RegisterNames& names, const VmHubRegs& hub, const RegisterBases& bases) {
  using Table = VmHubRegs;
  add_all<Table>(names, hub, bases, "MMHUB ",
                 // clang-format off
                 {
      NAMED(CONTEXT0_CNTL), NAMED(PAGE_TABLE_BASE_LO32), NAMED(PAGE_TABLE_BASE_HI32),
      NAMED(PAGE_TABLE_START_LO32), NAMED(PAGE_TABLE_START_HI32), NAMED(PAGE_TABLE_END_LO32),
      NAMED(PAGE_TABLE_END_HI32), NAMED(INVALIDATE_ENG17_REQ), NAMED(INVALIDATE_ENG17_ACK),
      NAMED(INVALIDATE_ENG0_ADDR_RANGE_LO32), NAMED(FB_LOCATION_BASE), NAMED(FB_LOCATION_TOP),
      NAMED(AGP_TOP), NAMED(AGP_BOT), NAMED(AGP_BASE), NAMED(SYSTEM_APERTURE_LOW_ADDR),
      NAMED(SYSTEM_APERTURE_HIGH_ADDR), NAMED(SYSTEM_APERTURE_DEFAULT_ADDR_LSB),
      NAMED(SYSTEM_APERTURE_DEFAULT_ADDR_MSB), NAMED(MX_L1_TLB_CNTL), NAMED(L2_CNTL),
      NAMED(L2_CNTL2), NAMED(L2_PROTECTION_FAULT_DEFAULT_ADDR_LO32),
      NAMED(L2_PROTECTION_FAULT_DEFAULT_ADDR_HI32), NAMED(L2_CNTL3), NAMED(L2_CNTL4),
      NAMED(L2_CNTL5), NAMED(L2_PROTECTION_FAULT_CNTL), NAMED(L2_PROTECTION_FAULT_CNTL2)
                     // clang-format on
                 });
}

void add_mp(RegisterNames& names, const IpDiscovery& ip) {
  // The mailbox registers by their C2PMSG numbers (mp_regs.h's comments).
  if (const IpBlock* mp0 = ip.find(discovery::MP0_HWID)) {
    if (const PspRegs* p = psp_regs_for_major(mp0->major)) {
      using Table = PspRegs;
      add_all<Table>(names, *p, RegisterBases::of(*mp0), "MP0_SMN_",
                     {AS(bl_cmd, C2PMSG_35), AS(bl_addr, C2PMSG_36), AS(ring_cmd, C2PMSG_64),
                      AS(ring_wptr, C2PMSG_67), AS(ring_lo, C2PMSG_69), AS(ring_hi, C2PMSG_70),
                      AS(ring_size, C2PMSG_71), AS(sos_alive, C2PMSG_81)});
    }
  }
  if (const IpBlock* mp1 = ip.find(discovery::MP1_HWID)) {
    if (const SmuRegs* s = smu_regs_for_major(mp1->major)) {
      using Table = SmuRegs;
      add_all<Table>(names, *s, RegisterBases::of(*mp1), "MP1_SMN_",
                     {AS(msg, C2PMSG_66), AS(arg, C2PMSG_82), AS(resp, C2PMSG_90),
                      AS(debug_msg, C2PMSG_75), AS(debug_arg, C2PMSG_53),
                      AS(debug_resp, C2PMSG_54)});
    }
  }
}

void add_nbio_and_ih(RegisterNames& names, const IpDiscovery& ip) {
  if (const IpBlock* nbio = ip.find(discovery::NBIF_HWID)) {
    if (const NbioRegs* n = nbio_regs_for_major(nbio->major)) {
      using Table = NbioRegs;
      add_all<Table>(names, *n, RegisterBases::of(*nbio), "",
                     {NAMED(RCC_DEV0_EPF0_RCC_DOORBELL_APER_EN), NAMED(PCIE_INDEX2),
                      NAMED(PCIE_DATA2), NAMED(REMAP_HDP_MEM_FLUSH_CNTL),
                      NAMED(S2A_DOORBELL_ENTRY_0_CTRL)});
    }
  }
  const IpBlock* oss = ip.find(discovery::OSSSYS_HWID);
  const IhRegs* ih = oss && !oss->bases.empty() ? ih_regs_for_major(oss->major) : nullptr;
  if (!ih) return;
  const uint32_t base = uint32_t(oss->bases[0]);
  for (const auto& [offset, name] : std::initializer_list<std::pair<uint32_t, const char*>>{
           {ih->IH_RB_CNTL, "IH_RB_CNTL"},
           {ih->IH_RB_BASE, "IH_RB_BASE"},
           {ih->IH_RB_BASE_HI, "IH_RB_BASE_HI"},
           {ih->IH_RB_RPTR, "IH_RB_RPTR"},
           {ih->IH_RB_WPTR, "IH_RB_WPTR"},
           {ih->IH_RB_WPTR_ADDR_HI, "IH_RB_WPTR_ADDR_HI"},
           {ih->IH_RB_WPTR_ADDR_LO, "IH_RB_WPTR_ADDR_LO"},
           {ih->IH_DOORBELL_RPTR, "IH_DOORBELL_RPTR"},
           {ih->IH_CNTL, "IH_CNTL"}})
    names.add(base + offset, name);
}

#undef NAMED
#undef AS

} // namespace

void RegisterNames::add(uint32_t index, std::string name) {
  names_.emplace(index, std::move(name)); // the first table to name an index keeps it
}

const char* RegisterNames::find(uint32_t index) const {
  const auto it = names_.find(index);
  return it == names_.end() ? nullptr : it->second.c_str();
}

std::string RegisterNames::label(uint32_t index) const {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%05x", index);
  const char* name = find(index);
  return name ? std::string(name) + " (" + buf + ")" : std::string(buf);
}

RegisterNames register_names(const IpDiscovery& ip, const GcRegisters& gc) {
  RegisterNames names;
  if (gc.table) add_gc(names, gc);
  if (const IpBlock* mmhub = ip.find(discovery::MMHUB_HWID))
    if (const VmHubRegs* hub = mmhub_regs_for(mmhub->major, mmhub->minor, mmhub->revision))
      add_mmhub(names, *hub, RegisterBases::of(*mmhub));
  add_nbio_and_ih(names, ip);
  add_mp(names, ip);
  return names;
}

} // namespace am
