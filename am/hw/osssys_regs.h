// The interrupt handler (IH) registers of OSSSYS, per version: 6.0.0 on gfx11 parts, 7.0.0 on
// gfx12 parts. Offsets are dwords from the OSSSYS segment 0 base that IP discovery gives
// (BASE_IDX 0 throughout).
//
// Sources: Linux drivers/gpu/drm/amd/include/asic_reg/oss/osssys_6_0_0_offset.h and
// osssys_7_0_0_offset.h (offsets: 7.0 reorders RPTR/WPTR/BASE and moves IH_CNTL),
// osssys_{6,7}_0_0_sh_mask.h (identical IH_RB_CNTL / IH_RB_WPTR fields), ih_v6_0.c and
// ih_v7_0.c (programming). Pinned by tests/am/hw_facts_test.cpp.
#pragma once
#include <cstdint>

namespace am::hw {

struct IhRegs {
  const char* name;
  uint32_t IH_RB_CNTL, IH_RB_BASE, IH_RB_BASE_HI, IH_RB_RPTR, IH_RB_WPTR;
  uint32_t IH_RB_WPTR_ADDR_HI, IH_RB_WPTR_ADDR_LO, IH_DOORBELL_RPTR, IH_CNTL;
};

inline constexpr IhRegs kOss6{
    .name = "OSSSYS 6.0.0",
    .IH_RB_CNTL = 0x0080,
    .IH_RB_BASE = 0x0081,    // ring address >> 8
    .IH_RB_BASE_HI = 0x0082, // ring address >> 40
    .IH_RB_RPTR = 0x0083,    // byte offset [17:2]
    .IH_RB_WPTR = 0x0084,    // byte offset, RB_OVERFLOW[0]
    .IH_RB_WPTR_ADDR_HI = 0x0085,
    .IH_RB_WPTR_ADDR_LO = 0x0086,
    .IH_DOORBELL_RPTR = 0x0087,
    .IH_CNTL = 0x00c0,
};

inline constexpr IhRegs kOss7{
    .name = "OSSSYS 7.0.0",
    .IH_RB_CNTL = 0x0080,
    .IH_RB_BASE = 0x0083,
    .IH_RB_BASE_HI = 0x0084,
    .IH_RB_RPTR = 0x0081,
    .IH_RB_WPTR = 0x0082,
    .IH_RB_WPTR_ADDR_HI = 0x0085,
    .IH_RB_WPTR_ADDR_LO = 0x0086,
    .IH_DOORBELL_RPTR = 0x0087,
    .IH_CNTL = 0x00a8,
};

// The IH register table of an OSSSYS major version, or nullptr when amcl has none.
inline constexpr const IhRegs* ih_regs_for_major(unsigned major) {
  return major == 6 ? &kOss6 : major == 7 ? &kOss7 : nullptr;
}

// Segment 0 base of OSSSYS on gfx1100 and gfx1201 alike (IP discovery; the *_ip_offset.h
// tables and osssys_7_0_0_offset.h's "base address: 0x4280" bytes = dword 0x10A0).
inline constexpr uint32_t kOssSeg0 = 0x000010A0;

// IH_RB_CNTL fields.
inline constexpr uint32_t IH_RB_CNTL_RB_ENABLE = 1u << 0;
inline constexpr uint32_t IH_RB_CNTL_RB_SIZE_SHIFT = 1; // [5:1] log2(ring dwords)
inline constexpr uint32_t IH_RB_CNTL_RB_SIZE_MASK = 0x3e;
inline constexpr uint32_t IH_RB_CNTL_WPTR_WRITEBACK_ENABLE = 1u << 8;
inline constexpr uint32_t IH_RB_CNTL_WPTR_OVERFLOW_ENABLE = 1u << 16;
inline constexpr uint32_t IH_RB_CNTL_ENABLE_INTR = 1u << 17;
inline constexpr uint32_t IH_RB_CNTL_MC_SPACE_SHIFT = 28; // 4 = GPU VA (VMID 0), 2 = bus address
inline constexpr uint32_t IH_RB_CNTL_MC_SPACE_GPUVA = 4;
inline constexpr uint32_t IH_RB_CNTL_WPTR_OVERFLOW_CLEAR = 1u << 31;
inline constexpr uint32_t IH_RB_WPTR_RB_OVERFLOW = 1u << 0;
inline constexpr uint32_t IH_RB_PTR_OFFSET_MASK = 0x0003fffc;

} // namespace am::hw
