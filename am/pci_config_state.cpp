#include "pci_config_state.h"

namespace am {

PciConfigHeader save_config_header(Pci& pci) {
  PciConfigHeader h;
  for (uint32_t i = 0; i < h.dwords.size(); ++i) h.dwords[i] = pci.config_read32(4 * i);
  return h;
}

void restore_config_header(Pci& pci, const PciConfigHeader& saved) {
  auto restore_range = [&](uint32_t first, uint32_t last) {
    for (uint32_t i = last + 1; i-- > first;) {
      const uint32_t want = i == 1 ? saved.dwords[i] & 0xffffu : saved.dwords[i];
      const uint32_t now = i == 1 ? pci.config_read32(4 * i) & 0xffffu : pci.config_read32(4 * i);
      if (now != want) pci.config_write32(4 * i, want);
    }
  };
  restore_range(10, 15);
  restore_range(4, 9);
  restore_range(0, 3);
}

} // namespace am
