// Which cards this process drives, chosen above the driver: AMCL_DEVICES lists them, comma
// separated — "auto" (the default: every RDNA3/4 card amcl can open, or one emulated gfx1100
// when there is no card at all), "sim:gfx1100" / "sim:gfx1101" / "sim:gfx1201" / "sim:gfx1200"
// for emulated cards (sim/), or PCI addresses ("0000:03:00.0") for real ones (am/enumerate).
// An entry that cannot be used is reported once on stderr, with what to do, and skipped.
#pragma once
#include "am/pci.h"

#include <memory>
#include <string>
#include <vector>

namespace amcl::rt {

// The PCI functions to drive, in AMCL_DEVICES order; `messages` (if given) receives what was
// reported.
std::vector<std::shared_ptr<am::Pci>>
open_device_backends(std::vector<std::string>* messages = nullptr);

} // namespace amcl::rt
