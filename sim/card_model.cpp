#include "card_model.h"

#include "am/hw/discovery.h"
#include "am/hw/gc_11_0_0_regs.h"
#include "am/hw/gc_12_0_0_regs.h"

namespace sim {
namespace {

using namespace am::hw;
using namespace am::hw::discovery;

// The blocks each IP discovery table lists: GC, SDMA (its queue registers live in the GC space:
// Linux programs SDMA0 through the GC bases on these parts) and OSSSYS, at the segment bases
// the register headers are relative to. IP versions as Linux amdgpu_discovery.c matches them:
// Navi31 GC 11.0.0 / SDMA 6.0.0 / OSSSYS 6.0.0; Navi44 GC 12.0.0 / SDMA 7.0.0 / OSSSYS 7.0.0;
// Navi48 GC 12.0.1 / SDMA 7.0.1 / OSSSYS 7.0.0. The chips have more blocks (PSP, SMU, NBIO,
// MMHUB, HDP, ...); they join the tables as their models do.
CardModel gfx11_card(std::string gfx, uint16_t device, uint8_t revision, uint8_t gc_rev) {
  return CardModel{std::move(gfx),
                   device,
                   revision,
                   {{GC_HWID, 11, 0, gc_rev, {kGc11Seg0, kGc11Seg1}},
                    {SDMA0_HWID, 6, 0, 0, {kGc11Seg0, kGc11Seg1}},
                    {OSSSYS_HWID, 6, 0, 0, {kOssSeg0}}},
                   &kGc11,
                   {kGc11Seg0, kGc11Seg1},
                   &kOss6,
                   kOssSeg0,
                   gmc::PteFormat::v11,
                   shader::Gfx::v11};
}

CardModel gfx12_card(std::string gfx, uint16_t device, uint8_t revision, uint8_t rev) {
  return CardModel{std::move(gfx),
                   device,
                   revision,
                   {{GC_HWID, 12, 0, rev, {kGc12Seg0, kGc12Seg1}},
                    {SDMA0_HWID, 7, 0, rev, {kGc12Seg0, kGc12Seg1}},
                    {OSSSYS_HWID, 7, 0, 0, {kOssSeg0}}},
                   &kGc12,
                   {kGc12Seg0, kGc12Seg1},
                   &kOss7,
                   kOssSeg0,
                   gmc::PteFormat::v12,
                   shader::Gfx::v12};
}

// PCI ids from am/hw/pci_ids.h: RX 7900 XTX (Navi31), RX 9060 XT (Navi44), RX 9070 XT (Navi48).
// Never destroyed: the emulated cards live until the process exits (open_emulated_gpu keeps
// them in a static map) and their engine threads read their model until they are joined, which
// can be after other statics are gone.
const std::vector<CardModel>& models() {
  static const auto* all = new std::vector<CardModel>{
      gfx11_card("gfx1100", 0x744c, 0xc8, 0),
      gfx12_card("gfx1200", 0x7590, 0xc0, 0),
      gfx12_card("gfx1201", 0x7550, 0xc0, 1),
  };
  return *all;
}

} // namespace

const CardModel* find_card_model(const std::string& gfx) {
  for (const CardModel& m : models())
    if (m.gfx == gfx) return &m;
  return nullptr;
}

std::string card_model_names() {
  std::string out;
  for (const CardModel& m : models()) out += (out.empty() ? "" : ", ") + m.gfx;
  return out;
}

} // namespace sim
