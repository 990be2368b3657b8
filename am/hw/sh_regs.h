// Persistent-state (SH) compute registers written with PM4 SET_SH_REG.
// Source: Mesa src/amd/common/sid.h (R_00B8xx_COMPUTE_* byte addresses; dword index = addr/4)
// and Linux gc_11_0_0_offset.h (regCOMPUTE_*, base_idx 0 with the SH window at 0x2C00).
#pragma once
#include <cstdint>

namespace am::hw::sh {

inline constexpr uint32_t kShRegStart = 0x2C00; // PACKET3_SET_SH_REG_START
inline constexpr uint32_t kShRegEnd = 0x3000;

inline constexpr uint32_t regCOMPUTE_DISPATCH_INITIATOR = 0x2E00; // 0xB800
inline constexpr uint32_t regCOMPUTE_DIM_X = 0x2E01;
inline constexpr uint32_t regCOMPUTE_START_X = 0x2E04;            // 0xB810
inline constexpr uint32_t regCOMPUTE_START_Y = 0x2E05;
inline constexpr uint32_t regCOMPUTE_START_Z = 0x2E06;
inline constexpr uint32_t regCOMPUTE_NUM_THREAD_X = 0x2E07;       // 0xB81C
inline constexpr uint32_t regCOMPUTE_NUM_THREAD_Y = 0x2E08;
inline constexpr uint32_t regCOMPUTE_NUM_THREAD_Z = 0x2E09;
inline constexpr uint32_t regCOMPUTE_PGM_LO = 0x2E0C;             // 0xB830
inline constexpr uint32_t regCOMPUTE_PGM_HI = 0x2E0D;
inline constexpr uint32_t regCOMPUTE_DISPATCH_SCRATCH_BASE_LO = 0x2E10; // 0xB840, address >> 8
inline constexpr uint32_t regCOMPUTE_DISPATCH_SCRATCH_BASE_HI = 0x2E11; // 0xB844
inline constexpr uint32_t regCOMPUTE_PGM_RSRC1 = 0x2E12;          // 0xB848
inline constexpr uint32_t regCOMPUTE_PGM_RSRC2 = 0x2E13;          // 0xB84C
inline constexpr uint32_t regCOMPUTE_RESOURCE_LIMITS = 0x2E15;    // 0xB854
inline constexpr uint32_t regCOMPUTE_TMPRING_SIZE = 0x2E18;       // 0xB860
inline constexpr uint32_t regCOMPUTE_PGM_RSRC3 = 0x2E28;          // 0xB8A0
inline constexpr uint32_t regCOMPUTE_USER_DATA_0 = 0x2E40;        // 0xB900
inline constexpr uint32_t kNumComputeUserData = 16;

// COMPUTE_NUM_THREAD_X/Y/Z: NUM_THREAD_FULL[15:0] work-items per work-group along the
// dimension, NUM_THREAD_PARTIAL[31:16] those of the dimension's last work-group when
// DISPATCH_INITIATOR.PARTIAL_TG_EN is set (gc_11_0_0_sh_mask.h, GFX6-GFX11 layout; Mesa
// radeonsi writes the remainder there, or a whole group when the grid divides evenly).
inline constexpr uint32_t num_thread(uint32_t full, uint32_t partial) {
  return (full & 0xffff) | (partial << 16);
}
inline constexpr uint32_t num_thread_full(uint32_t v) { return v & 0xffff; }
inline constexpr uint32_t num_thread_partial(uint32_t v) { return v >> 16; }

// COMPUTE_DISPATCH_INITIATOR bits.
inline constexpr uint32_t DISPATCH_COMPUTE_SHADER_EN = 1u << 0;
inline constexpr uint32_t DISPATCH_PARTIAL_TG_EN = 1u << 1;
inline constexpr uint32_t DISPATCH_FORCE_START_AT_000 = 1u << 2;
inline constexpr uint32_t DISPATCH_USE_THREAD_DIMENSIONS = 1u << 5;
inline constexpr uint32_t DISPATCH_CS_W32_EN = 1u << 15;

// COMPUTE_TMPRING_SIZE: WAVES[11:0] scratch slots and, from bit 12, WAVESIZE: the bytes of one
// wave's slot in units of 256 on gfx11 and gfx12 (Mesa ac_gpu_info.c:
// scratch_wavesize_granularity_shift = 8 from GFX11 on), 15 bits wide on gfx11 and 18 on gfx12
// (LLVM SIDefines.h: S_00B860_WAVESIZE_GFX11, S_00B860_WAVESIZE_GFX12Plus).
inline constexpr uint32_t kScratchWaveGranule = 256;
inline constexpr uint32_t tmpring_wavesize_max(bool gfx12) { return gfx12 ? 0x3ffff : 0x7fff; }
inline constexpr uint32_t tmpring_size(uint32_t waves, uint32_t wave_bytes, bool gfx12) {
  return (waves & 0xfff) | (((wave_bytes / kScratchWaveGranule) & tmpring_wavesize_max(gfx12)) << 12);
}
inline constexpr uint32_t tmpring_waves(uint32_t v) { return v & 0xfff; }
inline constexpr uint32_t tmpring_wave_bytes(uint32_t v, bool gfx12) {
  return ((v >> 12) & tmpring_wavesize_max(gfx12)) * kScratchWaveGranule;
}

// COMPUTE_PGM_RSRC2 fields (also the kernel descriptor's compute_pgm_rsrc2).
inline constexpr uint32_t rsrc2_user_sgpr(uint32_t v) { return (v >> 1) & 0x1f; }
inline constexpr bool rsrc2_tgid_x(uint32_t v) { return (v >> 7) & 1; }
inline constexpr bool rsrc2_tgid_y(uint32_t v) { return (v >> 8) & 1; }
inline constexpr bool rsrc2_tgid_z(uint32_t v) { return (v >> 9) & 1; }
inline constexpr bool rsrc2_tg_size(uint32_t v) { return (v >> 10) & 1; }
inline constexpr uint32_t rsrc2_tidig_comp_cnt(uint32_t v) { return (v >> 11) & 3; }
inline constexpr bool rsrc2_scratch_en(uint32_t v) { return v & 1; }

} // namespace am::hw::sh
