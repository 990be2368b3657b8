// The cache controls of ACQUIRE_MEM (GCR_CNTL) and RELEASE_MEM (GCR bits, CACHE_POLICY) on
// gfx11 and gfx12 compute queues, and the values amcl writes.
// Source: Linux drivers/gpu/drm/amd/amdgpu/nvd.h (PACKET3_ACQUIRE_MEM_GCR_CNTL_*,
// PACKET3_RELEASE_MEM_*), which gfx_v11_0.c and gfx_v12_0.c both include. Pinned by
// tests/am/pm4_gcr_test.cpp.
#pragma once
#include <cstdint>

namespace am::hw::pm4 {

// ACQUIRE_MEM (gfx10+, 8 dwords): header, COHER_CNTL, COHER_SIZE, COHER_SIZE_HI[7:0],
// COHER_BASE, COHER_BASE_HI[23:0], POLL_INTERVAL[15:0], GCR_CNTL[18:0].
inline constexpr uint32_t kAcquireMemBodyDwords = 7;
inline constexpr uint32_t kAcquireMemGcrDword = 6;       // body index of GCR_CNTL
inline constexpr uint32_t kAcquireMemPollInterval = 0xA; // amdgpu's emit_mem_sync and Mesa's

// GCR_CNTL. GLI_INV [1:0]: the SQC instruction caches (0 none, 1 all, 2 range, 3 first-last).
inline constexpr uint32_t gcr_gli_inv(uint32_t x) {
  return x & 3;
}
inline constexpr uint32_t GCR_GLI_INV_ALL = 1;
inline constexpr uint32_t GCR_GLM_WB = 1u << 4;  // GL2 metadata cache write-back
inline constexpr uint32_t GCR_GLM_INV = 1u << 5; // ... and invalidate
inline constexpr uint32_t GCR_GLK_WB = 1u << 6;  // scalar (constant) cache write-back
inline constexpr uint32_t GCR_GLK_INV = 1u << 7; // scalar cache invalidate
inline constexpr uint32_t GCR_GLV_INV = 1u << 8; // vector L0 invalidate
inline constexpr uint32_t GCR_GL1_INV = 1u << 9; // per-shader-array GL1 invalidate
inline constexpr uint32_t GCR_GL2_INV = 1u << 14;
inline constexpr uint32_t GCR_GL2_WB = 1u << 15;
// SEQ [17:16]: the order the controls act in (0 parallel, 1 forward = L0 to L2, 2 reverse).
inline constexpr uint32_t gcr_seq(uint32_t x) {
  return (x & 3) << 16;
}
inline constexpr uint32_t GCR_SEQ_FORWARD = 1;

// What gfx_v11_0_emit_mem_sync and gfx_v12_0_emit_mem_sync write (every cache level, the
// instruction cache included), with SEQ forward as radeonsi's compute IB preamble
// (si_begin_new_gfx_cs: S_586_SEQ(V_586_SEQ_FORWARD)) orders them.
inline constexpr uint32_t kGcrMemSync = GCR_GLI_INV_ALL | GCR_GLM_WB | GCR_GLM_INV | GCR_GLK_INV |
                                        GCR_GLV_INV | GCR_GL1_INV | GCR_GL2_INV | GCR_GL2_WB |
                                        gcr_seq(GCR_SEQ_FORWARD);
// Before each dispatch: the data caches only. The instruction cache is invalidated where code
// memory was written (am::Device::note_code_written), not on every dispatch.
inline constexpr uint32_t kGcrDataAcquire = kGcrMemSync & ~gcr_gli_inv(~0u);

// RELEASE_MEM dword 1 beyond the GCR bits in pm4.h: CACHE_POLICY [26:25] of the data write
// (0 LRU, 1 stream, 2 no-allocate, 3 bypass).
inline constexpr uint32_t release_mem_cache_policy(uint32_t x) {
  return (x & 3) << 25;
}
inline constexpr uint32_t CACHE_POLICY_BYPASS = 3;

} // namespace am::hw::pm4
