// Device enumeration: AMCL_DEVICES selects what amcl drives — "auto" (default: every RDNA3/4
// card not bound to amdgpu, or one emulated gfx1100 when there is none), "sim:gfx1100"
// entries, comma separated. A device that cannot be used is reported once and skipped.
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
