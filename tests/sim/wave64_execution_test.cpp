// The shader core runs wave64 code (COMPUTE_DISPATCH_INITIATOR without CS_W32_EN): each vector
// instruction as two passes of 32 lanes over SGPR-pair lane masks. Operations on one lane of
// the whole wave (readlane, writelane), across the halves (permlane64), the lane count
// (mbcnt_hi), 64-bit EXEC (s_and_saveexec_b64), a carry-out whose SGPR pair a source of the
// same instruction reads, DPP's row mask for rows 2 and 3, and s_bcnt1_i32_b64 run on one
// hand-assembled program; wave32 code in a wave64 dispatch would go wrong on every one.
#include "sim/shader/dispatch.h"
#include "sim/shader/worker_pool.h"
#include "tests/sim/flat_memory.h"

#include <gtest/gtest.h>

using namespace sim::shader;

namespace {

constexpr uint64_t kCode = 0x10000, kArgs = 0x12000, kBuf = 0x13000;
using FlatMemory = sim::test::FlatMemory<0x10000, 0x10000>;

// llvm-mc-22 -mcpu=gfx1100 -mattr=+wavefrontsize64 -show-encoding of the text beside each line.
constexpr uint32_t kProgram[] = {
    0xF4040080, 0xF8000000, // s_load_b64 s[2:3], s[0:1], 0x0
    0xBF89FC07,             // s_waitcnt lgkmcnt(0)
    0x30020082,             // v_lshlrev_b32_e32 v1, 2, v0
    0xD71F0002, 0x000100C1, // v_mbcnt_lo_u32_b32 v2, -1, 0
    0xD7200002, 0x000204C1, // v_mbcnt_hi_u32_b32 v2, -1, v2
    0x7E06CF02,             // v_permlane64_b32 v3, v2
    0xD7600004, 0x00015102, // v_readlane_b32 s4, v2, 40
    0xD7610003, 0x00016404, // v_writelane_b32 v3, s4, 50
    0xD44C0006, 0x000204B0, // v_cmp_gt_u32_e64 s[6:7], 48, v2
    0xBE882106,             // s_and_saveexec_b64 s[8:9], s[6:7]
    0x4A0606FF, 0x00000100, // v_add_nc_u32_e32 v3, 0x100, v3
    0xBEFE0108,             // s_mov_b64 exec, s[8:9]
    0xBE8A00C1,             // s_mov_b32 s10, -1
    0xD7000A04, 0x0002040A, // v_add_co_u32 v4, s[10:11], s10, v2
    0xD5010005, 0x00290280, // v_cndmask_b32_e64 v5, 0, 1, s[10:11]
    0xBE8C1906,             // s_bcnt1_i32_b64 s12, s[6:7]
    0x7E0C020C,             // v_mov_b32_e32 v6, s12
    0x7E0E0280,             // v_mov_b32_e32 v7, 0
    0x7E0E02FA, 0x4F010102, // v_mov_b32_dpp v7, v2 row_shl:1 row_mask:0x4 bank_mask:0xf
    0xDC6A0000, 0x00020301, // global_store_b32 v1, v3, s[2:3]
    0xDC6A0100, 0x00020401, // global_store_b32 v1, v4, s[2:3] offset:256
    0xDC6A0200, 0x00020501, // global_store_b32 v1, v5, s[2:3] offset:512
    0xDC6A0300, 0x00020601, // global_store_b32 v1, v6, s[2:3] offset:768
    0xDC6A0400, 0x00020701, // global_store_b32 v1, v7, s[2:3] offset:1024
    0xBFB00000,             // s_endpgm
};

} // namespace

TEST(Wave64Execution, CrossLaneMasksAndCarriesSpanBothHalves) {
  FlatMemory mem;
  for (size_t i = 0; i < std::size(kProgram); ++i) mem.put(kCode + 4 * i, kProgram[i]);
  mem.put<uint64_t>(kArgs, kBuf);
  LaunchState L;
  L.pgm_addr = kCode;
  L.rsrc1 = 3;       // 16 VGPRs in wave64's granules of 4
  L.rsrc2 = 2u << 1; // two user SGPRs: the argument block pointer
  L.user_data[0] = uint32_t(kArgs);
  L.group_size[0] = L.last_group_size[0] = 64;
  L.wave32 = false;
  WorkerPool pool;
  const DispatchResult r = run_dispatch(L, mem, pool);
  ASSERT_TRUE(r.ok) << r.fault;
  EXPECT_EQ(r.waves, 1u);
  for (uint32_t lane = 0; lane < 64; ++lane) {
    SCOPED_TRACE("lane " + std::to_string(lane));
    // permlane64 swapped the halves, lane 50 was written with lane 40's id, lanes 0..47 added.
    const uint32_t v3 = lane == 50 ? 40 : (lane ^ 32) + (lane < 48 ? 0x100 : 0);
    EXPECT_EQ(mem.get<uint32_t>(kBuf + 4 * lane), v3);
    // 0xffffffff + lane: s10 read before the carry-out overwrote it, in both passes.
    EXPECT_EQ(mem.get<uint32_t>(kBuf + 0x100 + 4 * lane), lane - 1);
    EXPECT_EQ(mem.get<uint32_t>(kBuf + 0x200 + 4 * lane), lane >= 1 ? 1u : 0u);
    EXPECT_EQ(mem.get<uint32_t>(kBuf + 0x300 + 4 * lane), 48u); // bits of the 64-bit compare mask
    // Row 2 (lanes 32..47) only; its last lane's source is outside the row.
    EXPECT_EQ(mem.get<uint32_t>(kBuf + 0x400 + 4 * lane), lane >= 32 && lane < 47 ? lane + 1 : 0u);
  }
}
