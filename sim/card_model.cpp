#include "card_model.h"

#include "am/hw/discovery.h"
#include "am/hw/gc_11_0_0_regs.h"
#include "am/hw/gc_11_0_3_regs.h"
#include "am/hw/gc_12_0_0_regs.h"
#include "am/hw/pci_ids.h"

namespace sim {
namespace {

using namespace am::hw;
using namespace am::hw::discovery;

// What each IP discovery table lists, with IP versions as Linux amdgpu_discovery.c matches them:
// Navi31 GC 11.0.0, SDMA 6.0.0, OSSSYS 6.0.0, MP0/MP1 13.0.0, MMHUB 3.0.0, HDP 6.0.0, NBIO 4.3.0
// (Navi32 the same with GC 11.0.3 and, by assumption, MMHUB 3.0.2; see models());
// Navi44 GC 12.0.0, SDMA 7.0.0, OSSSYS 7.0.0, MP0/MP1 14.0.2, MMHUB 4.1.0, HDP 7.0.0, NBIF 6.3.1;
// Navi48 the same with GC 12.0.1, SDMA 7.0.1 and MP0/MP1 14.0.3. SDMA's queue registers live in
// the GC space (Linux programs SDMA0 through the GC bases on these parts). Register bases: GC
// and OSSSYS where their offset headers say; Linux publishes no Navi3x/4x *_ip_offset.h (it reads
// the card), so MP0, MP1, MMHUB, HDP and NBIO sit at Navi2x's published bases
// (sienna_cichlid_ip_offset.h), MP1 14's second segment 0x200 above its first so that
// C2PMSG_66 lands where MP1 13's does. Of MMHUB the model has what GFXHUB has (VMID 0's
// context, the system aperture, the L1 TLB switch; the IH writes through it); of NBIO the
// doorbell aperture switch, the S2A doorbell routing, the PCIe index/data pair and the HDP flush
// (sim/nbio.h); HDP's own registers are listed, not modelled.
constexpr uint32_t kMpSeg0 = 0x00016000, kMp1Seg1 = 0x00016200;
constexpr uint32_t kMmhubSeg0 = 0x0001A000, kHdpSeg0 = 0x00000F20;
constexpr uint32_t kNbioSeg[4] = {0x0, 0x14, 0xD20, 0x10400};

CardModel gfx11_card(std::string gfx, uint16_t device, uint8_t revision, uint8_t gc_rev,
                     const GcRegs& gc, uint8_t mmhub_rev, const VmHubRegs& mmhub) {
  return CardModel{std::move(gfx),
                   device,
                   revision,
                   {{GC_HWID, 11, 0, gc_rev, {kGc11Seg0, kGc11Seg1}},
                    {SDMA0_HWID, 6, 0, 0, {kGc11Seg0, kGc11Seg1}},
                    {OSSSYS_HWID, 6, 0, 0, {kOssSeg0}},
                    {MP0_HWID, 13, 0, 0, {kMpSeg0, 0}},
                    {MP1_HWID, 13, 0, 0, {kMpSeg0, kMp1Seg1}},
                    {MMHUB_HWID, 3, 0, mmhub_rev, {kMmhubSeg0}},
                    {HDP_HWID, 6, 0, 0, {kHdpSeg0}},
                    {NBIF_HWID, 4, 3, 0, {kNbioSeg[0], kNbioSeg[1], kNbioSeg[2], kNbioSeg[3]}}},
                   &gc,
                   {kGc11Seg0, kGc11Seg1},
                   &kOss6,
                   kOssSeg0,
                   &kMp0_13,
                   {kMpSeg0, 0},
                   &kMp1_13,
                   {kMpSeg0, kMp1Seg1},
                   0x00210000,
                   0x004e3a00,
                   gmc::PteFormat::v11,
                   shader::Gfx::v11,
                   &mmhub,
                   {kMmhubSeg0, 0},
                   &kNbio4_3,
                   {kNbioSeg[0], kNbioSeg[1], kNbioSeg[2], kNbioSeg[3]}};
}

CardModel gfx12_card(std::string gfx, uint16_t device, uint8_t revision, uint8_t rev) {
  const uint8_t mp_rev = rev ? 3 : 2;
  return CardModel{std::move(gfx),
                   device,
                   revision,
                   {{GC_HWID, 12, 0, rev, {kGc12Seg0, kGc12Seg1}},
                    {SDMA0_HWID, 7, 0, rev, {kGc12Seg0, kGc12Seg1}},
                    {OSSSYS_HWID, 7, 0, 0, {kOssSeg0}},
                    {MP0_HWID, 14, 0, mp_rev, {kMpSeg0, 0}},
                    {MP1_HWID, 14, 0, mp_rev, {kMpSeg0, kMp1Seg1}},
                    {MMHUB_HWID, 4, 1, 0, {kMmhubSeg0}},
                    {HDP_HWID, 7, 0, 0, {kHdpSeg0}},
                    {NBIF_HWID, 6, 3, 1, {kNbioSeg[0], kNbioSeg[1], kNbioSeg[2], kNbioSeg[3]}}},
                   &kGc12,
                   {kGc12Seg0, kGc12Seg1},
                   &kOss7,
                   kOssSeg0,
                   &kMp0_14,
                   {kMpSeg0, 0},
                   &kMp1_14,
                   {kMpSeg0, kMp1Seg1},
                   0x00270000,
                   0x00680000,
                   gmc::PteFormat::v12,
                   shader::Gfx::v12,
                   &kMmhub4,
                   {kMmhubSeg0, 0},
                   &kNbif6_3,
                   {kNbioSeg[0], kNbioSeg[1], kNbioSeg[2], kNbioSeg[3]}};
}

// PCI ids from am/hw/pci_ids.h: RX 7900 XTX (Navi31), RX 7800 XT (Navi32), RX 9060 XT (Navi44),
// RX 9070 XT (Navi48). Navi32 is GC 11.0.3, whose VM registers moved (gc_11_0_3_regs.h); which
// MMHUB revision it carries Linux does not say (it reads the card), so the model gives it 3.0.2,
// the other MMHUB 3 layout amcl has read, and the pair exercises both moved register tables.
// Never destroyed: the emulated cards live until the process exits (open_emulated_gpu keeps
// them in a static map) and their engine threads read their model until they are joined, which
// can be after other statics are gone.
const std::vector<CardModel>& models() {
  static const auto* all = new std::vector<CardModel>{
      gfx11_card("gfx1100", 0x744c, 0xc8, 0, kGc11, 0, kMmhub3),
      gfx11_card("gfx1101", 0x747e, 0xc8, 3, kGc11_0_3, 2, kMmhub3_0_2),
      gfx12_card("gfx1200", 0x7590, 0xc0, 0),
      gfx12_card("gfx1201", 0x7550, 0xc0, 1),
  };
  return *all;
}

} // namespace

unsigned CardModel::shader_engines() const {
  for (const PciPart& p : kKnownParts)
    if (p.device == device_id) return p.shader_engines;
  return 1;
}

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
