// Which register table drives which GC IP version.
#pragma once
#include "gc_11_0_0_regs.h"
#include "gc_11_0_3_regs.h"
#include "gc_12_0_0_regs.h"

namespace am::hw {

// The register table of a GC IP version (major, minor, revision, as IP discovery reports it),
// or nullptr when amcl has none: an exact match, never the nearest, because a table for the
// wrong revision writes registers that are not the ones it names (GC 11.0.3's VM blocks sit 4
// and 16 dwords above GC 11.0.0's). Linux amdgpu as the guide to which versions share a table:
// gfx_v11_0.c and sdma_v6_0.c serve every GC 11.0.x from gc_11_0_0_offset.h, and
// gmc_v11_0_set_gfxhub_funcs gives all of them gfxhub_v3_0 (gc_11_0_0) but GC 11.0.3
// (gfxhub_v3_0_3, gc_11_0_3); gfx_v12_0.c, sdma_v7_0.c and gfxhub_v12_0.c serve GC 12.0.0 and
// 12.0.1 from gc_12_0_0_offset.h. Of the GC 11 parts only the discrete ones amcl lists in
// pci_ids.h are accepted: 11.0.0 (Navi31), 11.0.2 (Navi33), 11.0.3 (Navi32).
inline constexpr const GcRegs* gc_regs_for(unsigned major, unsigned minor, unsigned revision) {
  if (major == 11 && minor == 0 && (revision == 0 || revision == 2)) return &kGc11;
  if (major == 11 && minor == 0 && revision == 3) return &kGc11_0_3;
  if (major == 12 && minor == 0 && revision <= 1) return &kGc12;
  return nullptr;
}

} // namespace am::hw
