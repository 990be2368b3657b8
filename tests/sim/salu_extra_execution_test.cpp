// The less common scalar operations (sim/shader/salu_extra.cpp, sim/shader/smem.cpp) on gfx11
// and gfx12, wave32 and wave64: randomised operands with integer edge values against references
// written here from the RDNA3/RDNA4 ISA manuals' pseudocode, SCC included. Encodings are built
// from the SOP1/SOP2/SOPK/SOPP/SMEM field layouts (llvm-mc-22 -show-encoding gives the same words
// for the instructions named beside each test).
#include "tests/sim/flat_memory.h"
#include "tests/sim/shader_runner.h"

#include <gtest/gtest.h>

#include <bit>
#include <functional>
#include <memory>
#include <random>
#include <tuple>
#include <utility>
#include <vector>

using namespace sim::shader;

namespace {

constexpr uint64_t kCode = 0x10000, kData = 0x12000;
using FlatMemory = sim::test::FlatMemory<0x10000, 0x4000>;

uint32_t sop2(uint32_t op, uint32_t d, uint32_t s0, uint32_t s1) {
  return 0x80000000u | op << 23 | d << 16 | s1 << 8 | s0;
}
uint32_t sop1(uint32_t op, uint32_t d, uint32_t s0) {
  return 0xBE800000u | d << 16 | op << 8 | s0;
}
uint32_t sopk(uint32_t op, uint32_t d, uint32_t k) {
  return 0xB0000000u | op << 23 | d << 16 | k;
}
uint32_t sopp(uint32_t op, uint32_t k) {
  return 0xBF800000u | op << 16 | k;
}
constexpr uint32_t kM0 = 125, kNullReg = 124, kExecLo = 126;
using sim::test::kEndpgm;

struct Run {
  FlatMemory mem;
  Wave w;
  uint64_t turns = 0;
};

// Runs `words` then s_endpgm on one wave whose SGPRs `init` sets; turns counts the calls of
// Executor::run it took (each call is one turn of the wave).
std::unique_ptr<Run> run(const std::vector<uint32_t>& words, Gfx gfx, bool wave64,
                         const std::function<void(Wave&)>& init = {},
                         const std::function<void(FlatMemory&)>& data = {}) {
  auto r = std::make_unique<Run>();
  r->mem.put(sim::test::put_words(r->mem, kCode, words), kEndpgm);
  if (data) data(r->mem);
  sim::test::WaveRunner runner(r->mem, kCode, gfx);
  sim::test::start_wave(r->w, wave64, 4, kCode);
  if (init) init(r->w);
  while (!r->w.done && r->turns < 100) {
    runner.run(r->w, 1000);
    ++r->turns;
  }
  return r;
}

uint32_t pick(std::mt19937& rng) {
  static const uint32_t kEdges[] = {0u,          1u,          0x80000000u, 0x7fffffffu,
                                    0xffffffffu, 0x0000ffffu, 0xffff0000u, 0x00008000u,
                                    0x0000003fu, 0x00000040u, 0x001f0005u, 0x00400010u};
  const uint32_t r = rng();
  if (r % 3 == 0) return kEdges[(r >> 8) % std::size(kEdges)];
  return rng();
}
uint64_t s64(const Wave& w, unsigned reg) {
  return w.sgpr[reg] | uint64_t(w.sgpr[reg + 1]) << 32;
}

// References from the manuals' pseudocode.
uint64_t ref_bfe(uint64_t v, uint32_t s1, bool sign) {
  const unsigned off = s1 & 63, width = (s1 >> 16) & 0x7f;
  if (width == 0) return 0;
  uint64_t r = v >> off;
  if (width < 64) {
    r &= (uint64_t(1) << width) - 1;
    if (sign && (r >> (width - 1)) & 1) r |= ~uint64_t(0) << width;
  }
  return r;
}
template <class T> T ref_quadmask(T v) {
  T r = 0;
  for (unsigned i = 0; i < sizeof(T) * 2; ++i) r |= T(((v >> (4 * i)) & 0xf) != 0) << i;
  return r;
}
template <class T> T ref_wqm(T v) {
  T r = 0;
  for (unsigned i = 0; i < sizeof(T) * 8; ++i) r |= T(((v >> (i & ~3u)) & 0xf) != 0) << i;
  return r;
}

class ScalarExtra : public testing::TestWithParam<Gfx> {};

// s_pack_lh_b32_b16 s6, s4, s5 (0x99860504), s_pack_hh (0x9a060504), s_pack_hl (0x9a860504);
// s_bfe_u64 s[12:13], s[8:9], s10 (0x948c0a08), s_bfe_i64 (0x950c0a08), s_bfm_b64 s[12:13],
// s4, s5 (0x958c0504).
TEST_P(ScalarExtra, Sop2PacksAndBitFields) {
  std::mt19937 rng(7);
  for (int iter = 0; iter < 200; ++iter) {
    const uint32_t a = pick(rng), b = pick(rng), lo = pick(rng), hi = pick(rng), c = pick(rng);
    const uint64_t v = lo | uint64_t(hi) << 32;
    auto r = run({sop2(51, 6, 4, 5), sop2(52, 7, 4, 5), sop2(53, 11, 4, 5), sop2(40, 12, 8, 10),
                  sop2(41, 14, 8, 10), sop2(43, 16, 4, 5)},
                 GetParam(), false, [&](Wave& w) {
                   w.sgpr[4] = a, w.sgpr[5] = b, w.sgpr[8] = lo, w.sgpr[9] = hi, w.sgpr[10] = c;
                 });
    EXPECT_EQ(r->w.sgpr[6], (b & 0xffff0000u) | (a & 0xffffu)) << "s_pack_lh " << a << " " << b;
    EXPECT_EQ(r->w.sgpr[7], (b & 0xffff0000u) | a >> 16) << "s_pack_hh";
    EXPECT_EQ(r->w.sgpr[11], b << 16 | a >> 16) << "s_pack_hl";
    EXPECT_EQ(s64(r->w, 12), ref_bfe(v, c, false)) << "s_bfe_u64 " << v << " " << c;
    EXPECT_EQ(s64(r->w, 14), ref_bfe(v, c, true)) << "s_bfe_i64 " << v << " " << c;
    EXPECT_EQ(s64(r->w, 16), ((uint64_t(1) << (a & 63)) - 1) << (b & 63)) << "s_bfm_b64";
    // SCC: the last writer is s_bfm_b64, which leaves it; s_bfe_i64's is result != 0.
    EXPECT_EQ(r->w.scc, ref_bfe(v, c, true) != 0);
  }
}

// SOP1 bit operations: s_brev_b64, s_bitset0/1_b64, s_bitreplicate_b64_b32, s_bcnt0_i32_b32/b64,
// s_quadmask_b32/b64, s_wqm_b32/b64, each with its SCC.
TEST_P(ScalarExtra, Sop1BitOperations) {
  std::mt19937 rng(11);
  for (int iter = 0; iter < 200; ++iter) {
    const uint32_t lo = pick(rng), hi = pick(rng), bit = pick(rng), d0 = pick(rng), d1 = pick(rng);
    const uint64_t v = lo | uint64_t(hi) << 32, dv = d0 | uint64_t(d1) << 32;
    auto init = [&](Wave& w) {
      w.sgpr[8] = lo, w.sgpr[9] = hi, w.sgpr[10] = bit, w.sgpr[12] = d0, w.sgpr[13] = d1;
    };
    struct Case {
      uint32_t op, src;
      uint64_t expect;
      bool wide, scc_written;
    };
    uint64_t rev = 0, rep = 0;
    for (int i = 0; i < 64; ++i) rev |= ((v >> i) & 1) << (63 - i);
    for (int i = 0; i < 32; ++i) rep |= ((uint64_t(lo) >> i) & 1) * 3 << (2 * i);
    const Case cases[] = {
        {5, 8, rev, true, false},
        {17, 10, dv & ~(uint64_t(1) << (bit & 63)), true, false},
        {19, 10, dv | uint64_t(1) << (bit & 63), true, false},
        {20, 8, rep, true, false},
        {22, 8, uint64_t(32 - std::popcount(lo)), false, true},
        {23, 8, uint64_t(64 - std::popcount(v)), false, true},
        {26, 8, ref_quadmask(lo), false, true},
        {27, 8, ref_quadmask(v), true, true},
        {28, 8, ref_wqm(lo), false, true},
        {29, 8, ref_wqm(v), true, true},
    };
    for (const Case& c : cases) {
      auto r = run({sop1(c.op, 12, c.src)}, GetParam(), false, [&](Wave& w) {
        init(w);
        w.scc = true;
      });
      const uint64_t got = c.wide ? s64(r->w, 12) : r->w.sgpr[12];
      EXPECT_EQ(got, c.expect) << "SOP1 op " << c.op << " on " << v << " bit " << bit;
      EXPECT_EQ(r->w.scc, c.scc_written ? c.expect != 0 : true) << "SCC of SOP1 op " << c.op;
    }
  }
}

// The EXEC-saving forms: s_nand/nor/xnor_saveexec_b32/b64, s_and_not0/or_not0/or_not1_saveexec_b32
// and s_and_not0_wrexec_b32/b64; the old EXEC goes to the destination, SCC = new EXEC != 0.
TEST_P(ScalarExtra, SaveExecForms) {
  std::mt19937 rng(13);
  for (int iter = 0; iter < 100; ++iter)
    for (bool wave64 : {false, true}) {
      const uint32_t slo = pick(rng), shi = pick(rng), elo = pick(rng),
                     ehi = wave64 ? pick(rng) : 0;
      const uint64_t s = slo | uint64_t(shi) << 32, e = elo | uint64_t(ehi) << 32;
      struct Case {
        uint32_t op;
        uint64_t exec;
        bool wide, wr;
      };
      const Case cases[] = {
          {38, ~(slo & elo), false, false}, {40, ~(slo | elo), false, false},
          {42, ~(slo ^ elo), false, false}, {44, ~slo & elo, false, false},
          {46, ~slo | elo, false, false},   {50, slo | ~elo, false, false},
          {52, ~slo & elo, false, true},    {39, ~(s & e), true, false},
          {41, ~(s | e), true, false},      {43, ~(s ^ e), true, false},
          {53, ~s & e, true, true},
      };
      for (const Case& c : cases) {
        if (c.wide != wave64) continue;
        auto r = run({sop1(c.op, 20, 8)}, GetParam(), wave64, [&](Wave& w) {
          w.sgpr[8] = slo, w.sgpr[9] = shi;
          w.sgpr[src::kExecLo] = elo, w.sgpr[src::kExecHi] = ehi;
        });
        const uint64_t expect_exec = c.wide ? c.exec : uint32_t(c.exec);
        EXPECT_EQ(c.wide ? r->w.exec_mask() : r->w.sgpr[src::kExecLo], expect_exec)
            << "op " << c.op;
        const uint64_t dst = c.wide ? s64(r->w, 20) : r->w.sgpr[20];
        EXPECT_EQ(dst, c.wr ? expect_exec : c.wide ? e : elo) << "destination of op " << c.op;
        EXPECT_EQ(r->w.scc, expect_exec != 0) << "op " << c.op;
      }
    }
}

// s_movrels_b32 s4, s10 (M0-relative source), s_movreld_b64 s[20:21], s[8:9] (M0-relative
// destination), s_movrelsd_2_b32 s30, s40 (M0[9:0] source, M0[25:16] destination); past s105
// is a fault that names the register.
TEST_P(ScalarExtra, RelativeMoves) {
  // s_mov_b32 m0, 0x20006 before s_movrelsd_2_b32: +6 for its source, +2 for its destination.
  auto r = run({sop1(64, 4, 10), sop1(67, 20, 8), sop1(0, kM0, 255), 0x20006, sop1(68, 30, 40)},
               GetParam(), false, [](Wave& w) {
                 for (unsigned i = 0; i < 106; ++i) w.sgpr[i] = 1000 + i;
                 w.sgpr[kM0] = 6;
               });
  EXPECT_EQ(r->w.sgpr[4], 1016u);  // s16
  EXPECT_EQ(r->w.sgpr[26], 1008u); // s[26:27] = s[8:9]
  EXPECT_EQ(r->w.sgpr[27], 1009u);
  EXPECT_EQ(r->w.sgpr[32], 1046u); // s32 = s46
  try {
    run({sop1(64, 4, 100)}, GetParam(), false, [](Wave& w) { w.sgpr[kM0] = 6; });
    ADD_FAILURE() << "s_movrels_b32 past s105 did not fault";
  } catch (const ShaderFault& f) {
    EXPECT_NE(std::string(f.what()).find("s106"), std::string::npos) << f.what();
    EXPECT_NE(std::string(f.what()).find("s_movrels_b32"), std::string::npos) << f.what();
  }
}

// s_getreg_b32 s4, hwreg(HW_REG_MODE) (0xb8840801 | size 32: 0xb884f801), s_setreg_b32 and
// s_setreg_imm32_b32 on MODE's FP_DENORM field, s_denorm_mode and s_round_mode; a rounding mode
// the model does not compute with faults by name.
TEST_P(ScalarExtra, ModeRegister) {
  const uint32_t getmode = sopk(17, 4, 0xf801); // hwreg(MODE, 0, 32)
  auto r = run({getmode}, GetParam(), false, [](Wave& w) {
    w.flush_f32_denorms = true;
    w.flush_f64_denorms = false;
  });
  EXPECT_EQ(r->w.sgpr[4], 0xc0u); // FP_DENORM: single 0 (flush), double/half 3 (keep)
  // s_setreg_b32 hwreg(MODE, 4, 2), s5 with s5 = 3: single-precision denormals kept.
  r = run({sopk(18, 5, 1 | 4 << 6 | 1 << 11), getmode}, GetParam(), false, [](Wave& w) {
    w.flush_f32_denorms = true;
    w.sgpr[5] = 3;
  });
  EXPECT_FALSE(r->w.flush_f32_denorms);
  EXPECT_EQ(r->w.sgpr[4] & 0xff, 0xf0u);
  // s_setreg_imm32_b32 hwreg(MODE, 6, 2), 0: double denormals flushed.
  r = run({sopk(19, 0, 1 | 6 << 6 | 1 << 11), 0, getmode}, GetParam(), false);
  EXPECT_TRUE(r->w.flush_f64_denorms);
  // s_denorm_mode 0xc: single flushed, double kept; then 0xf keeps both.
  r = run({sopp(18, 0xc)}, GetParam(), false);
  EXPECT_TRUE(r->w.flush_f32_denorms);
  EXPECT_FALSE(r->w.flush_f64_denorms);
  r = run({sopp(18, 0xf)}, GetParam(), false, [](Wave& w) { w.flush_f32_denorms = true; });
  EXPECT_FALSE(r->w.flush_f32_denorms);
  r = run({sopp(17, 0)}, GetParam(), false); // s_round_mode 0x0: round to nearest even
  EXPECT_TRUE(r->w.done);
  try {
    run({sopp(17, 3)}, GetParam(), false);
    ADD_FAILURE() << "s_round_mode 0x3 did not fault";
  } catch (const ShaderFault& f) {
    EXPECT_NE(std::string(f.what()).find("s_round_mode 0x3"), std::string::npos) << f.what();
  }
  try {
    run({sopk(17, 4, 0xf802)}, GetParam(), false); // hwreg(STATUS)
    ADD_FAILURE() << "s_getreg of STATUS did not fault";
  } catch (const ShaderFault& f) {
    EXPECT_NE(std::string(f.what()).find("s_getreg_b32"), std::string::npos) << f.what();
  }
}

// s_call_b64 s[30:31], 2 jumps over two instructions and leaves the return address; s_setpc_b64
// returns there.
TEST_P(ScalarExtra, CallAndReturn) {
  // 0: s_call_b64 s[30:31], 2   4: s_mov_b32 s4, 7   8: s_endpgm
  // 12: s_mov_b32 s5, 9  16: s_setpc_b64 s[30:31]
  auto r =
      run({sopk(20, 30, 2), sop1(0, 4, 128 + 7), kEndpgm, sop1(0, 5, 128 + 9), sop1(72, 0, 30)},
          GetParam(), false);
  EXPECT_EQ(s64(r->w, 30), kCode + 4);
  EXPECT_EQ(r->w.sgpr[4], 7u);
  EXPECT_EQ(r->w.sgpr[5], 9u);
}

// The hints run as nothing: s_nop, s_setkill, s_setprio, s_incperflevel/decperflevel,
// s_ttracedata_imm, s_wait_event, s_version, s_sethalt 0; s_sleep ends the wave's turn.
TEST_P(ScalarExtra, HintsAndSleep) {
  std::vector<uint32_t> hints = {sopp(0, 3),  sopp(1, 0),  sopp(53, 2),   sopp(56, 1), sopp(57, 1),
                                 sopp(59, 0), sopp(11, 0), sopk(1, 0, 6), sopp(2, 0)};
  if (GetParam() == Gfx::v11) {
    hints.push_back(sopp(39, 5));           // s_cbranch_cdbgsys: no debugger, not taken
    hints.push_back(sopk(25, kNullReg, 0)); // s_waitcnt_vmcnt null, 0x0
  }
  hints.push_back(sopp(10, 0)); // s_wait_idle
  hints.push_back(sopp(52, 0)); // s_wakeup
  hints.push_back(sopp(60, 0)); // s_icache_inv
  hints.push_back(sop1(0, 4, 128 + 5));
  auto r = run(hints, GetParam(), false);
  EXPECT_TRUE(r->w.done);
  EXPECT_EQ(r->w.sgpr[4], 5u);
  EXPECT_EQ(r->turns, 1u);
  r = run({sopp(3, 1), sop1(0, 4, 128 + 1), sopp(3, 1), sop1(0, 5, 128 + 2)}, GetParam(), true);
  EXPECT_TRUE(r->w.done);
  EXPECT_EQ(r->turns, 3u); // each s_sleep ended a turn
  EXPECT_EQ(r->w.sgpr[5], 2u);
  if (GetParam() == Gfx::v12) { // s_sleep_var s4 ends the turn as s_sleep does
    r = run({sop1(88, 0, 4), sop1(0, 5, 128 + 3)}, GetParam(), false);
    EXPECT_EQ(r->turns, 2u);
    EXPECT_EQ(r->w.sgpr[5], 3u);
  }
  try {
    run({sopp(2, 1)}, GetParam(), false);
    ADD_FAILURE() << "s_sethalt 1 did not fault";
  } catch (const ShaderFault& f) {
    EXPECT_NE(std::string(f.what()).find("s_sethalt 1"), std::string::npos) << f.what();
  }
}

// s_sendmsg_rtn_b64 s[4:5], sendmsg(MSG_RTN_GET_REALTIME) counts up; other messages fault.
TEST_P(ScalarExtra, RealTimeMessage) {
  auto r = run({sop1(77, 4, 0x83), sopp(0, 10), sop1(77, 6, 0x83)}, GetParam(), false);
  EXPECT_GT(s64(r->w, 4), 0u);
  EXPECT_GE(s64(r->w, 6), s64(r->w, 4));
  EXPECT_THROW(run({sop1(76, 4, 0x80)}, GetParam(), false), ShaderFault);
}

// s_buffer_load_b32/b64/b128 through a buffer resource: base, NUM_RECORDS bytes (times STRIDE when
// it is not 0); dwords past the range read 0.
TEST_P(ScalarExtra, BufferLoadsClampToTheResource) {
  const Gfx gfx = GetParam();
  auto smem = [&](uint32_t op11, uint32_t op12, uint32_t sdata, uint32_t sbase, uint32_t soff,
                  uint32_t off) -> std::vector<uint32_t> {
    if (gfx == Gfx::v11)
      return {0xF4000000u | op11 << 18 | sdata << 6 | sbase / 2, soff << 25 | (off & 0x1fffff)};
    return {0xF4000000u | op12 << 13 | sdata << 6 | sbase / 2, soff << 25 | (off & 0xffffff)};
  };
  std::mt19937 rng(17);
  for (int iter = 0; iter < 100; ++iter) {
    const uint32_t records = rng() % 64, stride = iter % 3 == 0 ? rng() % 8 : 0;
    const uint64_t range = stride ? uint64_t(records) * stride : records;
    const uint32_t off = (rng() % 80) & ~3u;
    const int32_t soff = int32_t(rng() % 8) * 4;
    std::vector<uint32_t> prog;
    for (auto [o11, o12, d] : {std::tuple{8u, 16u, 10u}, {9u, 17u, 12u}, {10u, 18u, 16u}}) {
      const auto w = smem(o11, o12, d, 4, 20, off);
      prog.insert(prog.end(), w.begin(), w.end());
    }
    auto r = run(
        prog, gfx, iter % 2 == 1,
        [&](Wave& w) {
          w.sgpr[4] = uint32_t(kData);
          w.sgpr[5] = stride << 16;
          w.sgpr[6] = records;
          w.sgpr[7] = 0;
          w.sgpr[20] = uint32_t(soff);
        },
        [](FlatMemory& m) {
          for (uint32_t i = 0; i < 64; ++i) m.put(kData + 4 * i, 0xa0000000u + i);
          for (uint32_t i = 1; i <= 8; ++i) m.put(kData - 4 * i, 0xdead0000u + i);
        });
    auto expect = [&](unsigned dword) -> uint32_t {
      const int64_t at = int64_t(off) + soff + 4 * int64_t(dword);
      return at >= 0 && uint64_t(at) + 4 <= range ? 0xa0000000u + uint32_t(at / 4) : 0u;
    };
    EXPECT_EQ(r->w.sgpr[10], expect(0)) << "b32 records " << records << " stride " << stride
                                        << " offset " << off << " soffset " << soff;
    for (unsigned i = 0; i < 2; ++i) EXPECT_EQ(r->w.sgpr[12 + i], expect(i)) << "b64 dword " << i;
    for (unsigned i = 0; i < 4; ++i) EXPECT_EQ(r->w.sgpr[16 + i], expect(i)) << "b128 dword " << i;
  }
}

// The cache controls and probes change nothing: s_dcache_inv, s_atc_probe (and gfx12's
// s_prefetch_data), then a load still reads memory.
TEST_P(ScalarExtra, CacheControlsAreNoOps) {
  const Gfx gfx = GetParam();
  std::vector<uint32_t> prog;
  if (gfx == Gfx::v11)
    prog = {0xF4000000u | 33u << 18,
            0,
            0xF4000000u | 34u << 18 | 4u << 6 | 2,
            124u << 25,
            0xF4000000u | 0u << 18 | 10u << 6 | 2,
            124u << 25};
  else
    prog = {0xF4000000u | 33u << 13,
            0,
            0xF4000000u | 38u << 13 | 2,
            124u << 25 | 0x40,
            0xF4000000u | 0u << 13 | 10u << 6 | 2,
            124u << 25};
  auto r = run(
      prog, gfx, false,
      [](Wave& w) {
        w.sgpr[4] = uint32_t(kData);
        w.sgpr[5] = 0;
      },
      [](FlatMemory& m) { m.put(kData, 0x12345678u); });
  EXPECT_EQ(r->w.sgpr[10], 0x12345678u);
}

// gfx12: the byte and short buffer loads sign- or zero-extend (s_buffer_load_i8/u8/i16/u16), and
// the NV bit (20) and bit 19 of the SMEM word leave the operation as it is.
TEST(ScalarExtraGfx12, NarrowBufferLoadsAndNv) {
  std::vector<uint32_t> prog;
  const uint32_t ops[] = {24, 25, 26, 27};
  for (unsigned i = 0; i < 4; ++i) {
    prog.push_back(0xF4000000u | ops[i] << 13 | (10 + i) << 6 | 2);
    prog.push_back(124u << 25 | 6);
  }
  prog.push_back(0xF4000000u | 1u << 20 | 1u << 19 | 0u << 13 | 20u << 6 | 2); // s_load_b32 .. nv
  prog.push_back(124u << 25 | 4);
  auto r = run(
      prog, Gfx::v12, false,
      [](Wave& w) {
        w.sgpr[4] = uint32_t(kData);
        w.sgpr[5] = 0;
        w.sgpr[6] = 8;
        w.sgpr[7] = 0;
      },
      [](FlatMemory& m) {
        m.put(kData, 0x11223344u);
        m.put(kData + 4, 0x8899aabbu);
      });
  // The byte and short at offset 6: 0x99 and 0x8899.
  EXPECT_EQ(r->w.sgpr[10], 0xffffff99u);
  EXPECT_EQ(r->w.sgpr[11], 0x99u);
  EXPECT_EQ(r->w.sgpr[12], 0xffff8899u);
  EXPECT_EQ(r->w.sgpr[13], 0x8899u);
  EXPECT_EQ(r->w.sgpr[20], 0x8899aabbu);
}

// gfx12's scalar f16 operations read an inline float constant as its f16 value: s_add_f16 s4,
// 0.5, s10 (0xa4840af0) and s_cmp_lt_f16 s10, 1.0 (0xbf51f20a; llvm-mc-22 prints 0x3c00).
TEST(ScalarExtraGfx12, HalfOperationsTakeInlineConstantsAsHalves) {
  auto r = run({sop2(73, 4, 240, 10), 0xBF000000u | 81u << 16 | 242u << 8 | 10u}, Gfx::v12, false,
               [](Wave& w) { w.sgpr[10] = 0x3e00; }); // 1.5
  EXPECT_EQ(r->w.sgpr[4], 0x4000u);                   // 0.5 + 1.5 = 2.0
  EXPECT_FALSE(r->w.scc);                             // 1.5 < 1.0 is false
}

INSTANTIATE_TEST_SUITE_P(Scalar, ScalarExtra, testing::Values(Gfx::v11, Gfx::v12),
                         [](const auto& info) {
                           return info.param == Gfx::v11 ? "gfx11" : "gfx12";
                         });

} // namespace
