// The cards the emulator can present. A model is what distinguishes one product from another
// at the PCI seam: its PCI identity, the IP blocks (and versions and register bases) its IP
// discovery binary lists, and the register tables, page-table format and instruction set those
// IP versions bring. The engines themselves are shared.
#pragma once
#include "am/hw/gc_regs.h"
#include "am/hw/gmc.h"
#include "am/hw/mp_regs.h"
#include "am/hw/nbio_regs.h"
#include "am/hw/osssys_regs.h"
#include "am/hw/vm_hub_regs.h"
#include "ip_discovery.h"
#include "shader/isa.h"

#include <cstdint>
#include <string>
#include <vector>

namespace sim {

struct CardModel {
  std::string gfx; // LLVM processor: "gfx1100"
  uint16_t device_id;
  uint8_t revision;
  std::vector<IpBlockModel> blocks;
  const am::hw::GcRegs* gc;
  uint32_t gc_seg[2]; // GC segment 0 and 1 bases
  const am::hw::IhRegs* ih;
  uint32_t oss_seg0;
  const am::hw::PspRegs* psp; // MP0
  uint32_t mp0_seg[2];
  const am::hw::SmuRegs* smu; // MP1
  uint32_t mp1_seg[2];
  uint32_t sos_version;       // what C2PMSG_81 reads once the sOS runs
  uint32_t smu_version;       // what GetSmuVersion answers
  am::hw::gmc::PteFormat pte_format;
  shader::Gfx isa;
  const am::hw::VmHubRegs* mmhub; // the MMHUB the IH writes through
  uint32_t mmhub_seg[2];
  const am::hw::NbioRegs* nbio; // the doorbell aperture switch
  uint32_t nbio_seg[4];

  uint32_t nbio_reg(am::hw::Reg r) const { return nbio_seg[r.base_idx] + r.offset; }
  // The part's shader engines (am/hw/pci_ids.h), over which a dispatch's work-groups go.
  unsigned shader_engines() const;

  // The BAR5 dword index of a GC register on this card.
  uint32_t gc_reg(am::hw::Reg r) const { return gc_seg[r.base_idx] + r.offset; }
  uint32_t ih_reg(uint32_t offset) const { return oss_seg0 + offset; }
  uint32_t mmhub_reg(am::hw::Reg r) const { return mmhub_seg[r.base_idx] + r.offset; }
  uint32_t psp_reg(am::hw::Reg r) const { return mp0_seg[r.base_idx] + r.offset; }
  uint32_t smu_reg(am::hw::Reg r) const { return mp1_seg[r.base_idx] + r.offset; }
};

// The model of an LLVM processor name, or nullptr.
const CardModel* find_card_model(const std::string& gfx);
// The processor names that have a model, comma separated (for messages).
std::string card_model_names();

} // namespace sim
