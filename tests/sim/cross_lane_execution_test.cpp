// The cross-lane moves the sub-group operations of hand-written or other compilers' code use:
// ds_swizzle_b32 (quad and bit-mask modes), ds_permute_b32 / ds_bpermute_b32 (a lane picked by a
// byte address, wrapping at the wave size) and v_permlane16 / v_permlanex16_b32 (gathers within
// a row of 16 lanes and across a row pair), with the RDNA3 ISA manual's EXEC rules: an inactive
// source lane reads as 0 for the DS moves; for the row gathers it leaves the destination alone,
// or writes 0 with BOUND_CTRL. And wave64's two-pass execution (below). Hand-assembled programs
// on a flat fake memory, wave32 and wave64. Also the plain LDS load and store at the edge of
// the work-group's allocation.
#include "tests/sim/flat_memory.h"
#include "tests/sim/shader_runner.h"

#include <gtest/gtest.h>

using namespace sim::shader;

namespace {

constexpr uint64_t kCode = 0x10000, kArgs = 0x12000, kBuf = 0x13000;
using FlatMemory = sim::test::FlatMemory<0x10000, 0x10000>;

// llvm-mc-22 -mcpu=gfx1100 -show-encoding of the text beside each line.
constexpr uint32_t kWave32Program[] = {
    0xF4040080, 0xF8000000, // s_load_b64 s[2:3], s[0:1], 0x0
    0xBF89FC07,             // s_waitcnt lgkmcnt(0)
    0x30020082,             // v_lshlrev_b32_e32 v1, 2, v0
    0x4A0400FF, 0x00000100, // v_add_nc_u32_e32 v2, 0x100, v0
    0xD8D480B1, 0x03000002, // ds_swizzle_b32 v3, v2 offset:swizzle(QUAD_PERM,1,0,3,2)
    0xD8D4403C, 0x04000002, // ds_swizzle_b32 v4, v2 offset:swizzle(BITMASK_PERM,"ipp01")
    0x4C0A009F,             // v_sub_nc_u32_e32 v5, 31, v0
    0x300A0A82,             // v_lshlrev_b32_e32 v5, 2, v5
    0xDACC0000, 0x06000205, // ds_bpermute_b32 v6, v5, v2
    0x4A0E0081,             // v_add_nc_u32_e32 v7, 1, v0
    0x300E0E82,             // v_lshlrev_b32_e32 v7, 2, v7
    0xDAC80000, 0x08000207, // ds_permute_b32 v8, v7, v2
    0xBE8400FF, 0x89ABCDEF, // s_mov_b32 s4, 0x89abcdef
    0xBE8500FF, 0x01234567, // s_mov_b32 s5, 0x1234567
    0xD65B0009, 0x00140902, // v_permlane16_b32 v9, v2, s4, s5
    0xBE8600FF, 0x76543210, // s_mov_b32 s6, 0x76543210
    0xBE8700FF, 0xFEDCBA98, // s_mov_b32 s7, 0xfedcba98
    0xD65C000A, 0x001C0D02, // v_permlanex16_b32 v10, v2, s6, s7
    0x7E160287,             // v_mov_b32_e32 v11, 7
    0x7E180287,             // v_mov_b32_e32 v12, 7
    0x7E1A0287,             // v_mov_b32_e32 v13, 7
    0xBEFE00FF, 0x00FFFFFF, // s_mov_b32 exec_lo, 0xffffff
    0xDACC0000, 0x0B000205, // ds_bpermute_b32 v11, v5, v2
    0xD65B000C, 0x00140902, // v_permlane16_b32 v12, v2, s4, s5
    0xD65B100D, 0x00140902, // v_permlane16_b32 v13, v2, s4, s5 op_sel:[0,1]
    0xBEFE00C1,             // s_mov_b32 exec_lo, -1
    0xBF89FC07,             // s_waitcnt lgkmcnt(0)
    0xDC6A0000, 0x00020301, // global_store_b32 v1, v3, s[2:3]
    0xDC6A0080, 0x00020401, // global_store_b32 v1, v4, s[2:3] offset:128
    0xDC6A0100, 0x00020601, // global_store_b32 v1, v6, s[2:3] offset:256
    0xDC6A0180, 0x00020801, // global_store_b32 v1, v8, s[2:3] offset:384
    0xDC6A0200, 0x00020901, // global_store_b32 v1, v9, s[2:3] offset:512
    0xDC6A0280, 0x00020A01, // global_store_b32 v1, v10, s[2:3] offset:640
    0xDC6A0300, 0x00020B01, // global_store_b32 v1, v11, s[2:3] offset:768
    0xDC6A0380, 0x00020C01, // global_store_b32 v1, v12, s[2:3] offset:896
    0xDC6A0400, 0x00020D01, // global_store_b32 v1, v13, s[2:3] offset:1024
    0xBFB00000,             // s_endpgm
};

// llvm-mc-22 -mcpu=gfx1100 -mattr=+wavefrontsize64 -show-encoding.
constexpr uint32_t kWave64Program[] = {
    0xF4040080, 0xF8000000, // s_load_b64 s[2:3], s[0:1], 0x0
    0xBF89FC07,             // s_waitcnt lgkmcnt(0)
    0x30020082,             // v_lshlrev_b32_e32 v1, 2, v0
    0xD71F0002, 0x000100C1, // v_mbcnt_lo_u32_b32 v2, -1, 0
    0xD7200002, 0x000204C1, // v_mbcnt_hi_u32_b32 v2, -1, v2
    0x4C0604BF,             // v_sub_nc_u32_e32 v3, 63, v2
    0x30060682,             // v_lshlrev_b32_e32 v3, 2, v3
    0xDACC0000, 0x04000203, // ds_bpermute_b32 v4, v3, v2
    0xD8D4403C, 0x05000002, // ds_swizzle_b32 v5, v2 offset:swizzle(BITMASK_PERM,"ipp01")
    0xBF89FC07,             // s_waitcnt lgkmcnt(0)
    0xDC6A0000, 0x00020401, // global_store_b32 v1, v4, s[2:3]
    0xDC6A0100, 0x00020501, // global_store_b32 v1, v5, s[2:3] offset:256
    0xBFB00000,             // s_endpgm
};

// llvm-mc-22 -mcpu=gfx1100 -mattr=+wavefrontsize64 -show-encoding of the text beside each line.
constexpr uint32_t kWave64MaskProgram[] = {
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

// llvm-mc-22 -mcpu=gfx1100 -show-encoding: stores and loads inside and past a 512-byte LDS.
constexpr uint32_t kLdsRangeProgram[] = {
    0xF4040080, 0xF8000000, // s_load_b64 s[2:3], s[0:1], 0x0
    0xBF89FC07,             // s_waitcnt lgkmcnt(0)
    0x30020082,             // v_lshlrev_b32_e32 v1, 2, v0
    0x4A0400FF, 0x00000100, // v_add_nc_u32_e32 v2, 0x100, v0
    0xD8340000, 0x00000201, // ds_store_b32 v1, v2
    0xD83401FC, 0x00000201, // ds_store_b32 v1, v2 offset:508
    0xBF89FC07,             // s_waitcnt lgkmcnt(0)
    0xD8D80000, 0x03000001, // ds_load_b32 v3, v1
    0xD8D801E0, 0x04000001, // ds_load_b32 v4, v1 offset:480
    0x7E0A0287,             // v_mov_b32_e32 v5, 7
    0xBEFE00FF, 0x0000FFFF, // s_mov_b32 exec_lo, 0xffff
    0xD8D80000, 0x05000001, // ds_load_b32 v5, v1
    0xBEFE00C1,             // s_mov_b32 exec_lo, -1
    0xBF89FC07,             // s_waitcnt lgkmcnt(0)
    0xDC6A0000, 0x00020301, // global_store_b32 v1, v3, s[2:3]
    0xDC6A0080, 0x00020401, // global_store_b32 v1, v4, s[2:3] offset:128
    0xDC6A0100, 0x00020501, // global_store_b32 v1, v5, s[2:3] offset:256
    0xBFB00000,             // s_endpgm
};

// `lds_blocks`: the work-group's LDS in 512-byte units (COMPUTE_PGM_RSRC2.LDS_SIZE).
DispatchResult run(FlatMemory& mem, std::span<const uint32_t> program, bool wave32,
                   uint32_t lds_blocks = 0) {
  sim::test::put_words(mem, kCode, program);
  mem.put<uint64_t>(kArgs, kBuf);
  LaunchState L = sim::test::one_group(kCode, kArgs, wave32 ? 32 : 64, wave32);
  L.rsrc2 |= lds_blocks << 15;
  return sim::test::dispatch(L, mem);
}

} // namespace

TEST(CrossLaneExecution, SwizzlePermutesAndRowGathersInWave32) {
  FlatMemory mem;
  const DispatchResult r = run(mem, kWave32Program, true);
  ASSERT_TRUE(r.ok) << r.fault;
  auto at = [&](unsigned block, uint32_t lane) {
    return mem.get<uint32_t>(kBuf + 128 * block + 4 * lane);
  };
  for (uint32_t l = 0; l < 32; ++l) {
    SCOPED_TRACE("lane " + std::to_string(l));
    EXPECT_EQ(at(0, l), 0x100 + (l ^ 1));                   // quad perm 1,0,3,2
    EXPECT_EQ(at(1, l), 0x100 + (((l & 0x1c) | 1) ^ 0x10)); // and 0x1c, or 1, xor 0x10
    EXPECT_EQ(at(2, l), 0x100 + 31 - l);                    // bpermute from lane 31 - l
    EXPECT_EQ(at(3, l), 0x100 + (l + 31) % 32);             // permute to lane (l + 1) % 32
    EXPECT_EQ(at(4, l), 0x100 + (l & 16) + 15 - (l & 15));  // each row reversed
    EXPECT_EQ(at(5, l), 0x100 + (l ^ 16));                  // the other row, same place
    // EXEC = lanes 0..23: lanes 24..31 keep 7; bpermute reads 0 from an inactive lane.
    EXPECT_EQ(at(6, l), l >= 24 ? 7u : 31 - l >= 24 ? 0u : 0x100 + 31 - l);
    // Row 1's active lanes 16..23 all gather from lanes 24..31: kept, or 0 with BOUND_CTRL.
    EXPECT_EQ(at(7, l), l < 16 ? 0x100 + 15 - l : 7u);
    EXPECT_EQ(at(8, l), l < 16 ? 0x100 + 15 - l : l < 24 ? 0u : 7u);
  }
}

TEST(CrossLaneExecution, DsMovesSpanBothHalvesOfAWave64) {
  FlatMemory mem;
  const DispatchResult r = run(mem, kWave64Program, false);
  ASSERT_TRUE(r.ok) << r.fault;
  for (uint32_t l = 0; l < 64; ++l) {
    SCOPED_TRACE("lane " + std::to_string(l));
    EXPECT_EQ(mem.get<uint32_t>(kBuf + 4 * l), 63 - l); // bpermute wraps at 64, not 32
    // Bit-mask swizzles stay within each 32 lanes.
    EXPECT_EQ(mem.get<uint32_t>(kBuf + 0x100 + 4 * l), (l & 32) | (((l & 0x1c) | 1) ^ 0x10));
  }
}

// A wave64 runs each vector instruction as two passes of 32 lanes over SGPR-pair lane masks:
// operations on one lane of the whole wave (readlane, writelane), across the halves
// (permlane64), the lane count (mbcnt_hi), 64-bit EXEC (s_and_saveexec_b64), a carry-out whose
// SGPR pair a source of the same instruction reads, DPP's row mask for rows 2 and 3, and
// s_bcnt1_i32_b64; wave32 code in a wave64 dispatch would go wrong on every one.
TEST(Wave64Execution, CrossLaneMasksAndCarriesSpanBothHalves) {
  FlatMemory mem;
  const DispatchResult r = run(mem, kWave64MaskProgram, false);
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

// ds_store_b32 / ds_load_b32 past the work-group's LDS: stores are discarded (they do not wrap
// onto the start), loads return 0; lanes off in EXEC keep their destination.
TEST(LdsExecution, AccessesPastTheAllocationAreDiscardedOrReadZero) {
  FlatMemory mem;
  const DispatchResult r = run(mem, kLdsRangeProgram, true, 1); // 512 bytes of LDS
  ASSERT_TRUE(r.ok) << r.fault;
  auto at = [&](unsigned block, uint32_t lane) {
    return mem.get<uint32_t>(kBuf + 128 * block + 4 * lane);
  };
  for (uint32_t l = 0; l < 32; ++l) {
    SCOPED_TRACE("lane " + std::to_string(l));
    EXPECT_EQ(at(0, l), 0x100 + l);                     // no store at 508 + 4l wrapped onto it
    EXPECT_EQ(at(1, l), l == 7 ? 0x100u : 0u);          // 480 + 4l: lane 0's store at 508, else 0
    EXPECT_EQ(at(2, l), l < 16 ? 0x100 + l : 7u);       // EXEC = lanes 0..15
  }
}
