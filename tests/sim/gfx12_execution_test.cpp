// The shader core runs gfx12 (RDNA4) machine code: the re-laid SMEM (incl. the new byte and
// short loads) and 96-bit VGLOBAL encodings, per-counter waits, the split barrier, 64-bit scalar
// arithmetic, atomics returning through TH_ATOMIC_RETURN, global_inv, the scalar float ALU and
// the architected work-group ids. Hand-assembled programs run on a flat fake memory.
#include "tests/sim/flat_memory.h"
#include "tests/sim/shader_runner.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <vector>

using namespace sim::shader;

namespace {

constexpr uint64_t kCode = 0x10000, kArgs = 0x12000, kBuf = 0x13000;
using FlatMemory = sim::test::FlatMemory<0x10000, 0x10000>;

// llvm-mc-22 -mcpu=gfx1201 -show-encoding of the text beside each line.
constexpr uint32_t kProgram[] = {
    0xF4002080, 0xF8000000,             // s_load_b64 s[2:3], s[0:1], 0x0
    0xF4016100, 0xF8000008,             // s_load_u16 s4, s[0:1], 0x8
    0xF4010140, 0xF800000A,             // s_load_i8 s5, s[0:1], 0xa
    0xBFC70000,                         // s_wait_kmcnt 0x0
    0xA986FF02, 0x00000100,             // s_add_nc_u64 s[6:7], s[2:3], 0x100
    0xAA880404,                         // s_mul_u64 s[8:9], s[4:5], s[4:5]
    0x30020082,                         // v_lshlrev_b32 v1, 2, v0
    0xEE050002, 0x00000002, 0x00000001, // global_load_b32 v2, v1, s[2:3]
    0xBFC00000,                         // s_wait_loadcnt 0x0
    0x4A040404,                         // v_add_nc_u32 v2, s4, v2
    0xBE804EC1,                         // s_barrier_signal -1
    0xBF94FFFF,                         // s_barrier_wait 0xffff
    0xEE068006, 0x01000000, 0x00000001, // global_store_b32 v1, v2, s[6:7]
    0x7E0A0280,                         // v_mov_b32 v5, 0
    0x7E0C0281,                         // v_mov_b32 v6, 1
    0xEE0D4002, 0x03100004, 0x00020005, // global_atomic_add_u32 v4, v5, v6, s[2:3] offset:512 th:TH_ATOMIC_RETURN
    0xBFC00000,                         // s_wait_loadcnt 0x0
    0xEE068002, 0x02000000, 0x00030001, // global_store_b32 v1, v4, s[2:3] offset:768
    0x7E0E0208,                         // v_mov_b32 v7, s8
    0x7E100209,                         // v_mov_b32 v8, s9
    0xEE06C002, 0x03800000, 0x00040005, // global_store_b64 v5, v[7:8], s[2:3] offset:1024
    0x2C120501,                         // v_max_num_f32 v9, v1, v2
    0xEE0AC07C, 0x00080000, 0x00000000, // global_inv scope:SCOPE_DEV
    0xBFB00000,                         // s_endpgm
};

LaunchState launch() {
  return sim::test::one_group(kCode, kArgs, 32, true, Gfx::v12);
}

} // namespace

TEST(Gfx12Execution, NewEncodingsAndOperationsRun) {
  FlatMemory mem;
  sim::test::put_words(mem, kCode, kProgram);
  mem.put<uint64_t>(kArgs, kBuf);
  mem.put<uint16_t>(kArgs + 8, 0xfff0);
  mem.put<uint8_t>(kArgs + 10, 0x80);
  for (uint32_t i = 0; i < 32; ++i) mem.put(kBuf + 4 * i, 1000 * i);
  const DispatchResult r = sim::test::dispatch(launch(), mem);
  ASSERT_TRUE(r.ok) << r.fault;
  std::vector<uint32_t> olds;
  for (uint32_t i = 0; i < 32; ++i) {
    EXPECT_EQ(mem.get<uint32_t>(kBuf + 0x100 + 4 * i), 1000 * i + 0xfff0) << i; // u16 zero-extended
    olds.push_back(mem.get<uint32_t>(kBuf + 0x300 + 4 * i));
  }
  EXPECT_EQ(mem.get<uint32_t>(kBuf + 0x200), 32u); // every lane's atomic add landed
  std::sort(olds.begin(), olds.end());
  for (uint32_t i = 0; i < 32; ++i) EXPECT_EQ(olds[i], i); // and each got its own old value
  // s[4:5] = 0xfff0 | sign-extended 0x80 << 32, squared modulo 2^64.
  const uint64_t s45 = 0xfff0ull | (uint64_t(0xffffff80u) << 32);
  EXPECT_EQ(mem.get<uint64_t>(kBuf + 0x400), s45 * s45);
}

// Scalar float ALU (f16 and f32, IEEE 754-2019 minimum/maximum vs maximumNumber, s_fmac_f16,
// s_cvt_pk_rtz, s_cmp_lt_f16) and the architected work-group ids: ttmp9 = x, ttmp7 = y | z << 16,
// ttmp8[29:25] = wave in the group. Each of the 3 x 2 groups (two waves each) records its ids.
constexpr uint32_t kScalarFloatProgram[] = {
    0xF4002080, 0xF8000000,               // s_load_b64 s[2:3], s[0:1], 0x0
    0xBFC70000,                           // s_wait_kmcnt 0x0
    0xBE8A00FF, 0x00003E00,               // s_mov_b32 s10, 0x3e00
    0xBE8B00FF, 0x00004100,               // s_mov_b32 s11, 0x4100
    0xA48C0B0A,                           // s_add_f16 s12, s10, s11
    0xA68D0B0A,                           // s_mul_f16 s13, s10, s11
    0xBE8E690C,                           // s_cvt_f32_f16 s14, s12
    0xBE9000FF, 0x3C000000,               // s_mov_b32 s16, 0x3c000000
    0xBE8F6A10,                           // s_cvt_hi_f32_f16 s15, s16
    0xBE9200FF, 0x80000000,               // s_mov_b32 s18, 0x80000000
    0xA7918012,                           // s_minimum_f32 s17, s18, 0
    0xBE9300FF, 0x7FC00000,               // s_mov_b32 s19, 0x7fc00000
    0xA814F213,                           // s_maximum_f32 s20, s19, 1.0
    0xA195F213,                           // s_max_num_f32 s21, s19, 1.0
    0xA4160F0E,                           // s_cvt_pk_rtz_f16_f32 s22, s14, s15
    0xBE97000C,                           // s_mov_b32 s23, s12
    0xA7170B0A,                           // s_fmac_f16 s23, s10, s11
    0xBF510B0A,                           // s_cmp_lt_f16 s10, s11
    0x98188081,                           // s_cselect_b32 s24, 1, 0
    0x8B1AFF73, 0x0000FFFF,               // s_and_b32 s26, ttmp7, 0xffff
    0x961B831A,                           // s_mul_i32 s27, s26, 3
    0x811B751B,                           // s_add_co_i32 s27, s27, ttmp9
    0x931CFF74, 0x00050019,               // s_bfe_u32 s28, ttmp8, 0x50019
    0x841D811B,                           // s_lshl_b32 s29, s27, 1
    0x811D1C1D,                           // s_add_co_i32 s29, s29, s28
    0x841D821D,                           // s_lshl_b32 s29, s29, 2
    0x841E881A,                           // s_lshl_b32 s30, s26, 8
    0x8C1E751E,                           // s_or_b32 s30, s30, ttmp9
    0x841F901C,                           // s_lshl_b32 s31, s28, 16
    0x8C1E1F1E,                           // s_or_b32 s30, s30, s31
    0x7E02021D,                           // v_mov_b32_e32 v1, s29
    0x7E04021E,                           // v_mov_b32_e32 v2, s30
    0xEE068002, 0x01000000, 0x00010001,   // global_store_b32 v1, v2, s[2:3] offset:256
    0x7E020280,                           // v_mov_b32_e32 v1, 0
    0x7E04020C,                           // v_mov_b32_e32 v2, s12
    0x7E06020D,                           // v_mov_b32_e32 v3, s13
    0x7E08020E,                           // v_mov_b32_e32 v4, s14
    0x7E0A020F,                           // v_mov_b32_e32 v5, s15
    0xEE074002, 0x01000000, 0x00000001,   // global_store_b128 v1, v[2:5], s[2:3]
    0x7E040211,                           // v_mov_b32_e32 v2, s17
    0x7E060214,                           // v_mov_b32_e32 v3, s20
    0x7E080215,                           // v_mov_b32_e32 v4, s21
    0x7E0A0216,                           // v_mov_b32_e32 v5, s22
    0xEE074002, 0x01000000, 0x00001001,   // global_store_b128 v1, v[2:5], s[2:3] offset:16
    0x7E040217,                           // v_mov_b32_e32 v2, s23
    0x7E060218,                           // v_mov_b32_e32 v3, s24
    0xEE06C002, 0x01000000, 0x00002001,   // global_store_b64 v1, v[2:3], s[2:3] offset:32
    0xBFB00000,                           // s_endpgm
};

TEST(Gfx12Execution, ScalarFloatAndArchitectedWorkGroupIds) {
  FlatMemory mem;
  sim::test::put_words(mem, kCode, kScalarFloatProgram);
  mem.put<uint64_t>(kArgs, kBuf);
  LaunchState L = launch();
  L.group_size[0] = L.last_group_size[0] = 64;
  L.grid_groups[0] = 3;
  L.grid_groups[1] = 2;
  L.rsrc2 |= (1u << 7) | (1u << 8); // TGID_X_EN, TGID_Y_EN (gfx12 delivers them in ttmp)
  const DispatchResult r = sim::test::dispatch(L, mem);
  ASSERT_TRUE(r.ok) << r.fault;
  auto word = [&](unsigned i) { return mem.get<uint32_t>(kBuf + 4 * i); };
  auto f = [&](unsigned i) { return std::bit_cast<float>(word(i)); };
  EXPECT_EQ(word(0), 0x4400u);          // 1.5h + 2.5h = 4.0h
  EXPECT_EQ(word(1), 0x4380u);          // 1.5h * 2.5h = 3.75h
  EXPECT_EQ(f(2), 4.0f);                // s_cvt_f32_f16
  EXPECT_EQ(f(3), 1.0f);                // s_cvt_hi_f32_f16 of 0x3c00xxxx
  EXPECT_EQ(word(4), 0x80000000u);      // minimum(-0, +0) = -0
  EXPECT_TRUE(std::isnan(f(5)));        // maximum(NaN, 1) = NaN
  EXPECT_EQ(f(6), 1.0f);                // maximumNumber(NaN, 1) = 1
  EXPECT_EQ(word(7), 0x3c004400u);      // s_cvt_pk_rtz_f16_f32 4.0, 1.0
  EXPECT_EQ(word(8), 0x47c0u);          // 4.0h + 1.5h * 2.5h = 7.75h
  EXPECT_EQ(word(9), 1u);               // 1.5h < 2.5h
  for (uint32_t y = 0; y < 2; ++y)
    for (uint32_t x = 0; x < 3; ++x)
      for (uint32_t wave = 0; wave < 2; ++wave)
        EXPECT_EQ(word(0x40 + (x + 3 * y) * 2 + wave), x | (y << 8) | (wave << 16))
            << "group " << x << "," << y << " wave " << wave;
}

TEST(Gfx12Execution, Gfx11CodeIsNotGfx12Code) {
  // s_waitcnt_vscnt null, 0 (gfx11 SOPK 24) does not exist on gfx12 (llvm-mc-22 -mcpu=gfx1201
  // cannot decode 0xbc7c0000): the dispatch faults and names the encoding.
  FlatMemory mem;
  mem.put<uint32_t>(kCode, 0xBC7C0000);
  mem.put<uint32_t>(kCode + 4, 0xBFB00000);
  const DispatchResult r = sim::test::dispatch(launch(), mem);
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.fault.find("SOPK"), std::string::npos) << r.fault;
  LaunchState l11 = launch();
  l11.gfx = Gfx::v11;
  EXPECT_TRUE(sim::test::dispatch(l11, mem).ok);
}

TEST(Gfx12Execution, SWaitcntIsAWait) {
  // gfx12 kept s_waitcnt as SOPP 9 (RDNA4 ISA manual's SOPP table; llvm-mc-22 -mcpu=gfx1201
  // decodes 0xbf89fc07 as "s_waitcnt lgkmcnt(0)"): memory is performed in program order, so the
  // wait is satisfied at once and the program goes on.
  FlatMemory mem;
  mem.put<uint32_t>(kCode, 0xBF89FC07);
  mem.put<uint32_t>(kCode + 4, 0xBF890000);
  mem.put<uint32_t>(kCode + 8, 0xBFB00000);
  const DispatchResult r = sim::test::dispatch(launch(), mem);
  EXPECT_TRUE(r.ok) << r.fault;
}

// global_atomic_ordered_add_b64 v[2:3], v[0:1], v[4:5], off th:TH_ATOMIC_RETURN (llvm-mc-22
// -mcpu=gfx1201: 0xee1cc07c 0x02100002 0x00000000) on {id, value} pairs, one per lane, against
// the RDNA4 ISA manual's pseudocode: when the id in memory is the lane's id (DATA[31:0]) the id
// moves to (id + 1) & VGT_GS_MAX_WAVE_ID (0x3ff) and the value adds DATA[63:32]; the old pair is
// returned either way.
TEST(Gfx12Execution, OrderedAddFollowsThePseudocode) {
  FlatMemory mem;
  const uint32_t code[] = {0xEE1CC07C, 0x02100002, 0x00000000, 0xBFB00000};
  for (size_t i = 0; i < std::size(code); ++i) mem.put<uint32_t>(kCode + 4 * i, code[i]);
  sim::test::WaveRunner runner(mem, kCode, Gfx::v12);
  Wave w;
  sim::test::start_wave(w, false, 8, kCode);
  uint32_t old_id[32], old_value[32], id[32], add[32];
  for (unsigned lane = 0; lane < 32; ++lane) {
    old_id[lane] = lane % 4 == 3 ? 0x3ffu : lane * 37u;
    old_value[lane] = lane % 5 == 4 ? 0xfffffff0u : lane * 1000u;
    id[lane] = lane % 3 == 1 ? old_id[lane] + 1 : old_id[lane]; // some lanes out of order
    add[lane] = 16u + lane;
    const uint64_t a = kBuf + 8 * lane;
    mem.put<uint32_t>(a, old_id[lane]);
    mem.put<uint32_t>(a + 4, old_value[lane]);
    w.v(0, lane) = uint32_t(a);
    w.v(1, lane) = uint32_t(a >> 32);
    w.v(4, lane) = id[lane];
    w.v(5, lane) = add[lane];
  }
  runner.run(w);
  ASSERT_TRUE(w.done);
  for (unsigned lane = 0; lane < 32; ++lane) {
    const bool in_order = id[lane] == old_id[lane];
    const uint64_t a = kBuf + 8 * lane;
    EXPECT_EQ(mem.get<uint32_t>(a), in_order ? (old_id[lane] + 1) & 0x3ffu : old_id[lane])
        << "lane " << lane;
    EXPECT_EQ(mem.get<uint32_t>(a + 4), in_order ? old_value[lane] + add[lane] : old_value[lane])
        << "lane " << lane;
    EXPECT_EQ(w.v(2, lane), old_id[lane]) << "lane " << lane;
    EXPECT_EQ(w.v(3, lane), old_value[lane]) << "lane " << lane;
  }
}

TEST(Gfx12Execution, BarrierWaitWithoutSignalFaults) {
  FlatMemory mem;
  mem.put<uint32_t>(kCode, 0xBF94FFFF); // s_barrier_wait 0xffff
  mem.put<uint32_t>(kCode + 4, 0xBFB00000);
  const DispatchResult r = sim::test::dispatch(launch(), mem);
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.fault.find("s_barrier_wait"), std::string::npos) << r.fault;
}
