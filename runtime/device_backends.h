// Which cards this process drives, chosen above the driver: AMCL_DEVICES lists them, comma
// separated — "auto" (the default: every RDNA3/4 card amcl can open, or one emulated gfx1100
// when there is no card at all), "sim:gfx1100" / "sim:gfx1101" / "sim:gfx1201" / "sim:gfx1200"
// for emulated cards (sim/), or PCI addresses ("0000:03:00.0") for real ones (am/enumerate).
// An entry that cannot be used is reported once on stderr, with what to do, and skipped. A real
// card another process holds (am/card_lock.h) stays in the list without a PCI function, so
// OpenCL lists it as not available; AM_DEBUG >= 1 says who holds it. Emulated cards belong to
// their process and take no lock.
#pragma once
#include "am/device.h"
#include "am/pci.h"

#include <memory>
#include <string>
#include <vector>

namespace amcl::rt {

struct DeviceBackend {
  std::shared_ptr<am::Pci> pci; // the card to drive, or null when another process holds it:
  am::DeviceInfo identity;      // then what sysfs says of it (PCI ids, part, VRAM aperture)
  std::string held_by;          // and who holds it, with how to free it
};

// The cards to drive, in AMCL_DEVICES order; `messages` (if given) receives what was reported.
std::vector<DeviceBackend> open_device_backends(std::vector<std::string>* messages = nullptr);

} // namespace amcl::rt
