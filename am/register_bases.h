// The register segment bases IP discovery lists for one IP block: they turn a register of the
// block's table (hw::Reg, an offset in segment base_idx) into a BAR5 dword index, as amdgpu's
// SOC15_REG_OFFSET does with adev->reg_offset.
#pragma once
#include "hw/gc_regs.h"
#include "ip_discovery.h"

#include <algorithm>
#include <cstdint>

namespace am {

struct RegisterBases {
  uint32_t base[4] = {};

  static RegisterBases of(const IpBlock& block) {
    RegisterBases r;
    for (size_t i = 0; i < std::min<size_t>(4, block.bases.size()); ++i)
      r.base[i] = uint32_t(block.bases[i]);
    return r;
  }
  uint32_t operator()(hw::Reg r) const { return base[r.base_idx] + r.offset; }
};

// GC's register table and bases: the GFX, GFXHUB and (on these parts) SDMA 0 registers.
struct GcRegisters {
  const hw::GcRegs* table = nullptr;
  RegisterBases bases;
  unsigned major = 0; // the generation: 11 or 12

  const hw::GcRegs* operator->() const { return table; }
  uint32_t operator()(hw::Reg r) const { return bases(r); }
};

} // namespace am
