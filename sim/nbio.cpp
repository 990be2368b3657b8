#include "nbio.h"

namespace sim {

using namespace am::hw;

bool Nbio::aperture_open() const {
  return regs_.read(reg(model_.nbio->RCC_DEV0_EPF0_RCC_DOORBELL_APER_EN)) & BIF_DOORBELL_APER_EN;
}

Nbio::Port Nbio::route_doorbell(uint32_t index) const {
  auto port = [](uint32_t awid) {
    return awid == kS2aAwidSdma0                       ? Port::Sdma0
           : awid == kS2aAwidCp || awid == kS2aAwidCp2 ? Port::Cp
                                                       : Port::Other;
  };
  for (unsigned n = 0; n < kS2aEntries; ++n) {
    const S2aDoorbellEntry e = s2a_doorbell_entry_fields(entry(n));
    if (e.enable && e.range_size && index >= e.range_offset &&
        index < e.range_offset + e.range_size)
      return port(e.awid);
  }
  const S2aDoorbellEntry cp = s2a_doorbell_entry_fields(entry(kS2aCpEntry));
  return cp.enable && cp.range_size == 0 ? port(cp.awid) : Port::None;
}

bool Nbio::is_hdp_flush(uint32_t index) const {
  const uint32_t remap = regs_.read(reg(model_.nbio->REMAP_HDP_MEM_FLUSH_CNTL)) & 0x7fffc;
  return remap != 0 && index == remap / 4;
}

bool Nbio::flushed_since(std::atomic<uint64_t>& mark) const {
  const uint64_t now = hdp_flushes();
  return mark.exchange(now, std::memory_order_acq_rel) < now;
}

bool Nbio::known_register(uint32_t index) const {
  const NbioRegs& n = *model_.nbio;
  const uint32_t first_entry = reg(n.S2A_DOORBELL_ENTRY_0_CTRL);
  return index == reg(n.RCC_DEV0_EPF0_RCC_DOORBELL_APER_EN) || index == reg(n.PCIE_INDEX2) ||
         index == reg(n.PCIE_DATA2) || index == reg(n.REMAP_HDP_MEM_FLUSH_CNTL) ||
         (index >= first_entry && index < first_entry + kS2aEntries);
}

} // namespace sim
