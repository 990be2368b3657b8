// Which register table drives which GC generation.
#pragma once
#include "gc_11_0_0_regs.h"
#include "gc_12_0_0_regs.h"

namespace am::hw {

// The register table of a GC major version, or nullptr when amcl has none.
inline constexpr const GcRegs* gc_regs_for_major(unsigned major) {
  return major == 11 ? &kGc11 : major == 12 ? &kGc12 : nullptr;
}

} // namespace am::hw
