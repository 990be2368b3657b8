// The cache controls amcl writes, against literal values worked out from Linux nvd.h's
// PACKET3_ACQUIRE_MEM_GCR_CNTL_* / PACKET3_RELEASE_MEM_* shifts and sdma_v6_0_0_pkt_open.h.
#include "am/pm4_builder.h"
#include "am/sdma_builder.h"

#include <gtest/gtest.h>

using namespace am;
using namespace am::hw;

TEST(Pm4Gcr, FieldPositionsFromNvdH) {
  EXPECT_EQ(pm4::gcr_gli_inv(1), 0x1u);
  EXPECT_EQ(pm4::GCR_GLM_WB, 0x10u);
  EXPECT_EQ(pm4::GCR_GLM_INV, 0x20u);
  EXPECT_EQ(pm4::GCR_GLK_WB, 0x40u);
  EXPECT_EQ(pm4::GCR_GLK_INV, 0x80u);
  EXPECT_EQ(pm4::GCR_GLV_INV, 0x100u);
  EXPECT_EQ(pm4::GCR_GL1_INV, 0x200u);
  EXPECT_EQ(pm4::GCR_GL2_INV, 0x4000u);
  EXPECT_EQ(pm4::GCR_GL2_WB, 0x8000u);
  EXPECT_EQ(pm4::gcr_seq(pm4::GCR_SEQ_FORWARD), 0x10000u);
  EXPECT_EQ(pm4::release_mem_cache_policy(pm4::CACHE_POLICY_BYPASS), 0x06000000u);
}

// gfx_v11_0_emit_mem_sync / gfx_v12_0_emit_mem_sync: GL2_INV|GL2_WB|GLM_INV|GLM_WB|GL1_INV|
// GLV_INV|GLK_INV|GLI_INV(1) = 0xC3B1, plus SEQ forward; the per-dispatch acquire drops GLI.
TEST(Pm4Gcr, AcquireMemAsAmdgpuEmitMemSync) {
  EXPECT_EQ(pm4::kGcrMemSync, 0x1C3B1u);
  EXPECT_EQ(pm4::kGcrDataAcquire, 0x1C3B0u);
  Pm4Builder b;
  b.acquire_mem_all();
  EXPECT_EQ(
      std::vector<uint32_t>(b.words().begin(), b.words().end()),
      (std::vector<uint32_t>{0xC0065802u, 0, 0xffffffffu, 0x00ffffffu, 0, 0, 0xAu, 0x1C3B1u}));
  b.clear();
  b.acquire_mem_data();
  ASSERT_EQ(b.words().size(), 8u);
  EXPECT_EQ(b.words()[7], 0x1C3B0u);
}

// gfx_v11_0_ring_emit_fence: SEQ | GL2_WB | GLM_INV | GLM_WB | CACHE_POLICY(3) |
// EVENT_TYPE(CACHE_FLUSH_AND_INV_TS_EVENT) | EVENT_INDEX(5).
TEST(Pm4Gcr, ReleaseMemAsAmdgpuRingEmitFence) {
  Pm4Builder b;
  b.release_mem_signal(0x1000, 1, true);
  ASSERT_EQ(b.words().size(), 8u);
  EXPECT_EQ(b.words()[1], 0x06603514u);
}

// sdma_v6_0_ring_emit_fence and tinygrad's ops_amd.py: FENCE with MTYPE 3 (uncached).
TEST(SdmaFence, UncachedMtypeInTheHeader) {
  SdmaBuilder b;
  b.fence(0x1000, 42, sdma::MTYPE_UC);
  EXPECT_EQ(b.words(), (std::vector<uint32_t>{0x00030005u, 0x1000, 0, 42}));
  EXPECT_EQ(sdma::fence_header_mtype(b.words()[0]), 3u);
}
