// OSSSYS 6.0 (the interrupt handler, IH) registers on gfx1100.
// Source: Linux drivers/gpu/drm/amd/include/asic_reg/oss/osssys_6_0_0_offset.h (offsets,
// BASE_IDX 0), osssys_6_0_0_sh_mask.h (IH_RB_CNTL fields), ih_v6_0.c (programming), and the
// *_ip_offset.h tables (OSSSYS_BASE__INST0_SEG0 = 0x10A0). Pinned by tests/am/hw_facts_test.cpp.
#pragma once
#include <cstdint>

namespace am::hw::oss6 {

inline constexpr uint32_t kOssSeg0 = 0x000010A0;

// Dword offsets from the OSSSYS segment 0 base (the driver adds the base IP discovery gives).
namespace offset {
inline constexpr uint32_t IH_RB_CNTL = 0x0080;
inline constexpr uint32_t IH_RB_BASE = 0x0081;    // ring address >> 8
inline constexpr uint32_t IH_RB_BASE_HI = 0x0082; // ring address >> 40
inline constexpr uint32_t IH_RB_RPTR = 0x0083;    // byte offset [17:2]
inline constexpr uint32_t IH_RB_WPTR = 0x0084;    // byte offset, RB_OVERFLOW[0]
inline constexpr uint32_t IH_RB_WPTR_ADDR_HI = 0x0085;
inline constexpr uint32_t IH_RB_WPTR_ADDR_LO = 0x0086;
inline constexpr uint32_t IH_DOORBELL_RPTR = 0x0087;
inline constexpr uint32_t IH_CNTL = 0x00c0;
} // namespace offset

// Absolute BAR5 dword indices on gfx1100 (the emulator's fixed register map).
inline constexpr uint32_t regIH_RB_CNTL = kOssSeg0 + offset::IH_RB_CNTL;
inline constexpr uint32_t regIH_RB_BASE = kOssSeg0 + offset::IH_RB_BASE;
inline constexpr uint32_t regIH_RB_BASE_HI = kOssSeg0 + offset::IH_RB_BASE_HI;
inline constexpr uint32_t regIH_RB_RPTR = kOssSeg0 + offset::IH_RB_RPTR;
inline constexpr uint32_t regIH_RB_WPTR = kOssSeg0 + offset::IH_RB_WPTR;
inline constexpr uint32_t regIH_RB_WPTR_ADDR_HI = kOssSeg0 + offset::IH_RB_WPTR_ADDR_HI;
inline constexpr uint32_t regIH_RB_WPTR_ADDR_LO = kOssSeg0 + offset::IH_RB_WPTR_ADDR_LO;
inline constexpr uint32_t regIH_DOORBELL_RPTR = kOssSeg0 + offset::IH_DOORBELL_RPTR;
inline constexpr uint32_t regIH_CNTL = kOssSeg0 + offset::IH_CNTL;

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

} // namespace am::hw::oss6
