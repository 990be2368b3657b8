// gfx12's LDS conditional and clamping subtractions (ds_cond_sub_u32, ds_sub_clamp_u32 and their
// _rtn forms) and ds_nop, wave32 and wave64: random values against the RDNA4 ISA manual's
// MEM = old >= data ? old - data : old (cond_sub) or 0 (sub_clamp), returning old. Words follow
// the DS layout llvm-mc-22 -show-encoding gives (ds_cond_sub_rtn_u32 v4, v0, v2: 0xdaa00000
// 0x04000200).
#include "tests/sim/flat_memory.h"
#include "tests/sim/shader_runner.h"

#include <gtest/gtest.h>

#include <random>
#include <utility>
#include <vector>

using namespace sim::shader;

namespace {

constexpr uint64_t kCode = 0x10000;
using FlatMemory = sim::test::FlatMemory<0x10000, 0x1000>;

std::vector<uint32_t> ds(uint32_t op, uint32_t offset, uint32_t vdst, uint32_t data,
                         uint32_t addr) {
  return {0xD8000000u | op << 18 | offset, vdst << 24 | data << 8 | addr};
}

TEST(DsExtraExecution, ConditionalAndClampingSubtractions) {
  for (bool wave64 : {false, true}) {
    std::mt19937 rng(3);
    std::vector<uint32_t> code;
    for (auto part : {ds(13, 0, 0, 1, 0),    // ds_store_b32 v0, v1 (old values)
                      ds(13, 256, 0, 1, 0),  // ds_store_b32 v0, v1 offset:256
                      ds(20, 0, 0, 0, 0),    // ds_nop
                      ds(168, 0, 4, 2, 0),   // ds_cond_sub_rtn_u32 v4, v0, v2
                      ds(169, 256, 5, 2, 0), // ds_sub_clamp_rtn_u32 v5, v0, v2 offset:256
                      ds(152, 0, 0, 3, 0),   // ds_cond_sub_u32 v0, v3
                      ds(54, 0, 6, 0, 0),    // ds_load_b32 v6, v0
                      ds(54, 256, 7, 0, 0)}) // ds_load_b32 v7, v0 offset:256
      code.insert(code.end(), part.begin(), part.end());
    FlatMemory mem;
    code.push_back(sim::test::kEndpgm);
    sim::test::put_words(mem, kCode, code);
    sim::test::WaveRunner runner(mem, kCode, Gfx::v12, 1024);
    Wave w;
    sim::test::start_wave(w, wave64, 8, kCode);
    uint32_t in[64][4];
    for (unsigned lane = 0; lane < w.lanes(); ++lane) {
      w.select_half(lane / 32);
      const uint32_t pick[] = {
          0u, 1u, 0x80000000u, 0xffffffffu, uint32_t(rng()), uint32_t(rng() % 100)};
      in[lane][0] = lane * 4;
      for (unsigned r = 1; r < 4; ++r) in[lane][r] = pick[rng() % std::size(pick)];
      for (unsigned r = 0; r < 4; ++r) w.v(r, lane % 32) = in[lane][r];
    }
    w.select_half(0);
    runner.run(w);
    ASSERT_TRUE(w.done);
    for (unsigned lane = 0; lane < w.lanes(); ++lane) {
      const uint32_t old = in[lane][1], a = in[lane][2], b = in[lane][3];
      const uint32_t cond = old >= a ? old - a : old, clamp = old >= a ? old - a : 0;
      const uint32_t cond2 = cond >= b ? cond - b : cond;
      w.select_half(lane / 32);
      EXPECT_EQ(w.v(4, lane % 32), old) << "lane " << lane;
      EXPECT_EQ(w.v(5, lane % 32), old) << "lane " << lane;
      EXPECT_EQ(w.v(6, lane % 32), cond2)
          << "lane " << lane << " old " << old << " a " << a << " b " << b;
      EXPECT_EQ(w.v(7, lane % 32), clamp) << "lane " << lane << " old " << old << " a " << a;
      w.select_half(0);
    }
  }
}

// global_atomic_csub_u32 (gfx11; gfx12's global_atomic_sub_clamp_u32) and gfx12's
// global_atomic_cond_sub_u32 with return: MEM = old >= data ? old - data : 0 (csub) or old
// (cond_sub), old to VDST. Words as llvm-mc-22 -show-encoding gives for
// "global_atomic_csub_u32 v3, v[0:1], v2, off glc" (0xdcde4000 0x037c0200) and
// "global_atomic_cond_sub_u32 v3, v[0:1], v2, off th:TH_ATOMIC_RETURN".
TEST(DsExtraExecution, GlobalSubClampAndCondSub) {
  constexpr uint64_t kData = 0x10800;
  for (Gfx gfx : {Gfx::v11, Gfx::v12})
    for (uint32_t which : {55u, 80u}) {
      if (gfx == Gfx::v11 && which == 80) continue;
      std::mt19937 rng(which);
      FlatMemory mem;
      if (gfx == Gfx::v11) {
        mem.put<uint32_t>(kCode, 0xDC000000u | which << 18 | 2u << 16 | 1u << 14);
        mem.put<uint32_t>(kCode + 4, 3u << 24 | 0x7cu << 16 | 2u << 8 | 0u);
        mem.put<uint32_t>(kCode + 8, 0xBFB00000u);
      } else {
        mem.put<uint32_t>(kCode, 0xEC000000u | 2u << 24 | which << 14 | 0x7cu);
        mem.put<uint32_t>(kCode + 4, 3u | 1u << 20 | 2u << 23);
        mem.put<uint32_t>(kCode + 8, 0u);
        mem.put<uint32_t>(kCode + 12, 0xBFB00000u);
      }
      uint32_t old[32], data[32];
      for (unsigned lane = 0; lane < 32; ++lane) {
        const uint32_t pick[] = {0u, 1u, 0xffffffffu, uint32_t(rng()), uint32_t(rng() % 50)};
        old[lane] = pick[rng() % 5];
        data[lane] = pick[rng() % 5];
        mem.put<uint32_t>(kData + 4 * lane, old[lane]);
      }
      sim::test::WaveRunner runner(mem, kCode, gfx);
      Wave w;
      sim::test::start_wave(w, false, 4, kCode);
      for (unsigned lane = 0; lane < 32; ++lane) {
        w.v(0, lane) = uint32_t(kData + 4 * lane);
        w.v(1, lane) = 0;
        w.v(2, lane) = data[lane];
      }
      runner.run(w);
      ASSERT_TRUE(w.done);
      for (unsigned lane = 0; lane < 32; ++lane) {
        const uint32_t o = old[lane], d = data[lane];
        const uint32_t expect = o >= d ? o - d : which == 55 ? 0u : o;
        EXPECT_EQ(mem.get<uint32_t>(kData + 4 * lane), expect)
            << "op " << which << " " << o << " - " << d;
        EXPECT_EQ(w.v(3, lane), o) << "returned old value, lane " << lane;
      }
    }
}

} // namespace
