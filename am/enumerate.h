// Device enumeration: AMCL_DEVICES selects what amcl drives — "auto" (default: every RDNA3/4
// card it can open, or one emulated gfx1100 when there is no card), "sim:gfx1100" /
// "sim:gfx1101" / "sim:gfx1201" / "sim:gfx1200" entries, or PCI addresses ("0000:03:00.0"),
// comma separated.
// Real cards open through vfio-pci when bound to it in an IOMMU group, through sysfs (no
// IOMMU, warned about) when they have no driver and no group or VFIO=0 asks.
// A device that cannot be used is reported once, with what to do, and skipped.
#pragma once
#include "pci.h"

#include <memory>
#include <string>
#include <vector>

namespace am {

struct Enumerated {
  std::shared_ptr<Pci> pci;
};

std::vector<Enumerated> enumerate_devices(std::vector<std::string>* messages = nullptr);

} // namespace am
