// gfx12's work-group barrier state: s_barrier_signal_isfirst and s_get_barrier_state, in
// wave32 and wave64 work-groups of 1 to 8 waves, against the RDNA4 ISA manual ("Work-groups and
// Barriers", "Barrier State", SOP1 S_BARRIER_SIGNAL_ISFIRST and S_GET_BARRIER_STATE): each
// barrier phase has exactly one first signaller, the signal count each wave reads right after
// its own signal runs through 1..N-1 and then 0 (the last one completes the barrier), the
// member count is the work-group's waves, barrier 0 and the trap barrier (-2) do nothing for
// user code (_isfirst clears SCC), and a single-wave work-group treats barriers as S_NOP (SCC,
// which the program sets before each _isfirst, and the destinations keep their values).
// Barrier numbers RDNA4 does not have, and M0 as the number, fault.
#include "tests/sim/flat_memory.h"
#include "tests/sim/shader_runner.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

using namespace sim::shader;

namespace {

constexpr uint64_t kCode = 0x10000, kArgs = 0x12000, kOut = 0x13000;
using FlatMemory = sim::test::FlatMemory<0x10000, 0x10000>;

// llvm-mc-22 -mcpu=gfx1201 -show-encoding of the text beside each line. Every wave stores the
// eight values s9..s16 at out + 32 * (its number in the work-group, TTMP8[29:25]).
constexpr uint32_t kProgram[] = {
    0xF4002100, 0xF8000000,             // s_load_b64 s[4:5], s[0:1], 0x0
    0xBFC70000,                         // s_wait_kmcnt 0x0
    0xBE8A0080,                         // s_mov_b32 s10, 0
    0xBE8C0080,                         // s_mov_b32 s12, 0
    0xBE8D0080,                         // s_mov_b32 s13, 0
    0xBE900080,                         // s_mov_b32 s16, 0
    0x9308FF74, 0x00050019,             // s_bfe_u32 s8, ttmp8, 0x50019
    0xBF060808,                         // s_cmp_eq_u32 s8, s8
    0xBE804FC1,                         // s_barrier_signal_isfirst -1
    0x98098081,                         // s_cselect_b32 s9, 1, 0
    0xBE8A50C1,                         // s_get_barrier_state s10, -1
    0xBF94FFFF,                         // s_barrier_wait -1
    0xBF060808,                         // s_cmp_eq_u32 s8, s8
    0xBE804FC1,                         // s_barrier_signal_isfirst -1
    0x980B8081,                         // s_cselect_b32 s11, 1, 0
    0xBE8C50C1,                         // s_get_barrier_state s12, -1
    0xBF94FFFF,                         // s_barrier_wait -1
    0xBE8D50C1,                         // s_get_barrier_state s13, -1
    0xBF060808,                         // s_cmp_eq_u32 s8, s8
    0xBE804F80,                         // s_barrier_signal_isfirst 0
    0x980E8081,                         // s_cselect_b32 s14, 1, 0
    0xBF060808,                         // s_cmp_eq_u32 s8, s8
    0xBE804FC2,                         // s_barrier_signal_isfirst -2
    0x980F8081,                         // s_cselect_b32 s15, 1, 0
    0xBE9050C2,                         // s_get_barrier_state s16, -2
    0x84118508,                         // s_lshl_b32 s17, s8, 5
    0x80121104,                         // s_add_co_u32 s18, s4, s17
    0x82138005,                         // s_add_co_ci_u32 s19, s5, 0
    0x7E040280,                         // v_mov_b32_e32 v2, 0
    0x7E020209,                         // v_mov_b32_e32 v1, s9
    0xEE068012, 0x00800000, 0x00000002, // global_store_b32 v2, v1, s[18:19]
    0x7E02020A,                         // v_mov_b32_e32 v1, s10
    0xEE068012, 0x00800000, 0x00000402, // global_store_b32 v2, v1, s[18:19] offset:4
    0x7E02020B,                         // v_mov_b32_e32 v1, s11
    0xEE068012, 0x00800000, 0x00000802, // global_store_b32 v2, v1, s[18:19] offset:8
    0x7E02020C,                         // v_mov_b32_e32 v1, s12
    0xEE068012, 0x00800000, 0x00000C02, // global_store_b32 v2, v1, s[18:19] offset:12
    0x7E02020D,                         // v_mov_b32_e32 v1, s13
    0xEE068012, 0x00800000, 0x00001002, // global_store_b32 v2, v1, s[18:19] offset:16
    0x7E02020E,                         // v_mov_b32_e32 v1, s14
    0xEE068012, 0x00800000, 0x00001402, // global_store_b32 v2, v1, s[18:19] offset:20
    0x7E02020F,                         // v_mov_b32_e32 v1, s15
    0xEE068012, 0x00800000, 0x00001802, // global_store_b32 v2, v1, s[18:19] offset:24
    0x7E020210,                         // v_mov_b32_e32 v1, s16
    0xEE068012, 0x00800000, 0x00001C02, // global_store_b32 v2, v1, s[18:19] offset:28
    0xBFB00000,                         // s_endpgm
};

// S_GET_BARRIER_STATE's result: {9'0, signalCnt[6:0], 5'0, memberCnt[6:0], 3'0, valid}.
uint32_t state(unsigned signalled, unsigned members) {
  return signalled << 16 | members << 4 | 1u;
}

struct Outcome {
  DispatchResult result;
  std::vector<uint32_t> out; // 8 values per wave
};

Outcome run(unsigned waves, bool wave64, std::span<const uint32_t> code = kProgram) {
  FlatMemory mem;
  sim::test::put_words(mem, kCode, code);
  mem.put<uint64_t>(kArgs, kOut);
  for (unsigned i = 0; i < 8 * 8; ++i) mem.put<uint32_t>(kOut + 4 * i, 0xdeadbeef);
  const LaunchState L =
      sim::test::one_group(kCode, kArgs, waves * (wave64 ? 64 : 32), !wave64, Gfx::v12);
  Outcome r{sim::test::dispatch(L, mem), {}};
  for (unsigned i = 0; i < 8 * waves; ++i) r.out.push_back(mem.get<uint32_t>(kOut + 4 * i));
  return r;
}

class BarrierState : public testing::TestWithParam<bool> {};

TEST_P(BarrierState, OneFirstSignallerPerPhaseAndCountsFromTheManual) {
  const bool wave64 = GetParam();
  for (unsigned n = 2; n <= 8; ++n) {
    SCOPED_TRACE("waves " + std::to_string(n));
    const Outcome r = run(n, wave64);
    ASSERT_TRUE(r.result.ok) << r.result.fault;
    // Per phase (s9/s10, s11/s12): one wave saw SCC = 1, and the counts read after each
    // wave's own signal are 1..N-1 and 0, in whatever order the waves ran.
    for (unsigned phase = 0; phase < 2; ++phase) {
      unsigned firsts = 0;
      std::vector<uint32_t> seen, want;
      for (unsigned w = 0; w < n; ++w) {
        const uint32_t first = r.out[8 * w + 2 * phase], st = r.out[8 * w + 2 * phase + 1];
        ASSERT_LE(first, 1u);
        firsts += first;
        // The wave that signalled first read a count of 1 (of 0 had it also been the last).
        if (first) EXPECT_EQ(st, state(1, n));
        seen.push_back(st);
        want.push_back(state((w + 1) % n, n));
      }
      EXPECT_EQ(firsts, 1u) << "phase " << phase;
      std::sort(seen.begin(), seen.end());
      std::sort(want.begin(), want.end());
      EXPECT_EQ(seen, want) << "phase " << phase;
    }
    for (unsigned w = 0; w < n; ++w) {
      EXPECT_EQ(r.out[8 * w + 4], state(0, n)) << "after the wait: completed, count reset";
      EXPECT_EQ(r.out[8 * w + 5], 0u) << "barrier 0 is a no-op: SCC = 0";
      EXPECT_EQ(r.out[8 * w + 6], 0u) << "the trap barrier is ignored outside the trap handler";
      EXPECT_EQ(r.out[8 * w + 7], state(0, n)) << "the trap barrier: never signalled";
    }
  }
}

TEST_P(BarrierState, ASingleWaveWorkGroupTreatsBarriersAsNops) {
  const Outcome r = run(1, GetParam());
  ASSERT_TRUE(r.result.ok) << r.result.fault;
  // s10, s12, s13 and s16 are set to 0 first (a wave's SGPRs start undefined, as on
  // hardware), and SCC is 1 before each _isfirst.
  const std::vector<uint32_t> want = {1, 0, 1, 0, 0, 1, 1, 0};
  EXPECT_EQ(r.out, want);
}

TEST_P(BarrierState, BarriersRdna4DoesNotHaveFaultByName) {
  // The fault program's instructions, each run alone before s_endpgm.
  constexpr uint32_t kFaults[] = {
      0xBE804E81, // s_barrier_signal 1
      0xBE804E7D, // s_barrier_signal m0
      0xBE804F85, // s_barrier_signal_isfirst 5
      0xBE81507D, // s_get_barrier_state s1, m0
      0xBE8051C1, // s_barrier_init -1
  };
  const char* const kWhy[] = {"barrier 1", "M0", "barrier 5", "M0", "s_barrier_init"};
  for (size_t i = 0; i < std::size(kFaults); ++i) {
    const uint32_t code[] = {kFaults[i], sim::test::kEndpgm};
    const Outcome r = run(2, GetParam(), code);
    EXPECT_FALSE(r.result.ok) << i;
    EXPECT_NE(r.result.fault.find(kWhy[i]), std::string::npos) << r.result.fault;
  }
}

INSTANTIATE_TEST_SUITE_P(Waves, BarrierState, testing::Values(false, true),
                         [](const auto& info) { return info.param ? "wave64" : "wave32"; });

} // namespace
