// Floating-point corner cases of the vector ALU that OpenCL builtins depend on, each run as a
// hand-assembled program on the flat fake memory with the exact operands a builtin met.
//
// Double division: LLVM lowers every f64 fdiv to one sequence (SITargetLowering::LowerFDIV64;
// llvm/test/CodeGen/AMDGPU/fdiv.f64.ll): v_div_scale of the denominator and of the numerator,
// v_rcp_f64 refined by two Newton-Raphson steps, v_div_fmas post-scaling under VCC and
// v_div_fixup for the special cases. OpenCL requires it to be correctly rounded, so on every
// pair of operands it must give exactly the host's quotient.
#include "tests/sim/flat_memory.h"
#include "tests/sim/shader_runner.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

using namespace sim::shader;

namespace {

constexpr uint64_t kCode = 0x10000, kArgs = 0x12000, kBuf = 0x13000;
using FlatMemory = sim::test::FlatMemory<0x10000, 0x10000>;

// Lane i divides the doubles at kBuf + 16 * i by the ones at kBuf + 16 * i + 8 and stores the
// quotient, the scaled denominator and VCC of the numerator's v_div_scale at kBuf + 2048 + 32 * i.
// llvm-mc-22 -mcpu=gfx1100 -show-encoding of the text beside each line.
constexpr uint32_t kDivideF64[] = {
    0xF4040080, 0xF8000000, // s_load_b64 s[2:3], s[0:1], 0x0
    0xBF89FC07,             // s_waitcnt lgkmcnt(0)
    0x30020084,             // v_lshlrev_b32_e32 v1, 4, v0
    0xDC5E0000, 0x02020001, // global_load_b128 v[2:5], v1, s[2:3]
    0xBF8903F7,             // s_waitcnt vmcnt(0)
    0xD6FD7C06, 0x040A0904, // v_div_scale_f64 v[6:7], null, v[4:5], v[4:5], v[2:3]
    0xD6FD6A08, 0x040A0902, // v_div_scale_f64 v[8:9], vcc_lo, v[2:3], v[4:5], v[2:3]
    0x7E145F06,             // v_rcp_f64_e32 v[10:11], v[6:7]
    0xD614000C, 0x23CA1506, // v_fma_f64 v[12:13], -v[6:7], v[10:11], 1.0
    0xD614000A, 0x042A190A, // v_fma_f64 v[10:11], v[10:11], v[12:13], v[10:11]
    0xD614000C, 0x23CA1506, // v_fma_f64 v[12:13], -v[6:7], v[10:11], 1.0
    0xD614000A, 0x042A190A, // v_fma_f64 v[10:11], v[10:11], v[12:13], v[10:11]
    0xD728000C, 0x00021508, // v_mul_f64 v[12:13], v[8:9], v[10:11]
    0xD614000E, 0x24221906, // v_fma_f64 v[14:15], -v[6:7], v[12:13], v[8:9]
    0xD638000E, 0x0432150E, // v_div_fmas_f64 v[14:15], v[14:15], v[10:11], v[12:13]
    0xD628000E, 0x040A090E, // v_div_fixup_f64 v[14:15], v[14:15], v[4:5], v[2:3]
    0xD5010010, 0x01A90280, // v_cndmask_b32_e64 v16, 0, 1, vcc_lo
    0x30020085,             // v_lshlrev_b32_e32 v1, 5, v0
    0xDC6E0800, 0x00020E01, // global_store_b64 v1, v[14:15], s[2:3] offset:2048
    0xDC6E0808, 0x00020601, // global_store_b64 v1, v[6:7], s[2:3] offset:2056
    0xDC6A0810, 0x00021001, // global_store_b32 v1, v16, s[2:3] offset:2064
    0xBFB00000,             // s_endpgm
};

// Runs `program` over `lanes` work-items, the argument block pointing at kBuf.
void run(FlatMemory& mem, std::span<const uint32_t> program, unsigned lanes, Gfx gfx = Gfx::v11) {
  sim::test::put_words(mem, kCode, program);
  mem.put<uint64_t>(kArgs, kBuf);
  LaunchState L = sim::test::one_group(kCode, kArgs, lanes, true, gfx);
  L.rsrc1 = 2 | 3u << 16 | 3u << 18; // 24 VGPRs; f32 and f64 denormals kept, as amcl runs
  const DispatchResult r = sim::test::dispatch(L, mem);
  EXPECT_TRUE(r.ok) << r.fault;
}

struct Division {
  double quotient, scaled_denominator;
  bool vcc;
};

std::vector<Division> divide(const std::vector<std::pair<double, double>>& pairs) {
  FlatMemory mem;
  for (size_t i = 0; i < pairs.size(); ++i) {
    mem.put(kBuf + 16 * i, pairs[i].first);
    mem.put(kBuf + 16 * i + 8, pairs[i].second);
  }
  run(mem, kDivideF64, unsigned(pairs.size()));
  std::vector<Division> out;
  for (size_t i = 0; i < pairs.size(); ++i)
    out.push_back({mem.get<double>(kBuf + 2048 + 32 * i), mem.get<double>(kBuf + 2056 + 32 * i),
                   mem.get<uint32_t>(kBuf + 2064 + 32 * i) != 0});
  return out;
}

// Lane i compares the u64 at kBuf + 8 * i with the inline constant 0.5 and stores the result at
// kBuf + 1024 + 16 * i, and s_mov_b64's 0.5 at kBuf + 1032 + 16 * i.
// llvm-mc-22 -mcpu=gfx1100 -show-encoding of the text beside each line.
constexpr uint32_t kInline64[] = {
    0xF4040080, 0xF8000000, // s_load_b64 s[2:3], s[0:1], 0x0
    0xBF89FC07,             // s_waitcnt lgkmcnt(0)
    0x30020083,             // v_lshlrev_b32_e32 v1, 3, v0
    0xDC560000, 0x02020001, // global_load_b64 v[2:3], v1, s[2:3]
    0xBF8903F7,             // s_waitcnt vmcnt(0)
    0xD45C0004, 0x000204F0, // v_cmp_gt_u64_e64 s4, 0.5, v[2:3]
    0xD5010004, 0x00110280, // v_cndmask_b32_e64 v4, 0, 1, s4
    0xBE8601F0,             // s_mov_b64 s[6:7], 0.5
    0x7E0A0206,             // v_mov_b32_e32 v5, s6
    0x7E0C0207,             // v_mov_b32_e32 v6, s7
    0x30020084,             // v_lshlrev_b32_e32 v1, 4, v0
    0xDC6A0400, 0x00020401, // global_store_b32 v1, v4, s[2:3] offset:1024
    0xDC6E0408, 0x00020501, // global_store_b64 v1, v[5:6], s[2:3] offset:1032
    0xBFB00000,             // s_endpgm
};

// max and min of +0 and -0, in both operand orders, on f64 and f32; stored at kBuf.
constexpr uint32_t kSignedZeros[] = {
    // llvm-mc-22 -mcpu=gfx1100 -show-encoding of the text beside each line.
    0xF4040080, 0xF8000000, // s_load_b64 s[2:3], s[0:1], 0x0
    0x7E040280,             // v_mov_b32_e32 v2, 0
    0x7E067081,             // v_bfrev_b32_e32 v3, 1
    0xD72A0004, 0x00020480, // v_max_f64 v[4:5], 0, v[2:3]
    0xD72A0006, 0x00010102, // v_max_f64 v[6:7], v[2:3], 0
    0xD7290008, 0x00020480, // v_min_f64 v[8:9], 0, v[2:3]
    0xD729000A, 0x00010102, // v_min_f64 v[10:11], v[2:3], 0
    0x7E187081,             // v_bfrev_b32_e32 v12, 1
    0x201A1880,             // v_max_f32_e32 v13, 0, v12
    0x1E1C1880,             // v_min_f32_e32 v14, 0, v12
    0x7E020280,             // v_mov_b32_e32 v1, 0
    0xBF89FC07,             // s_waitcnt lgkmcnt(0)
    0xDC760000, 0x00020401, // global_store_b128 v1, v[4:7], s[2:3]
    0xDC760010, 0x00020801, // global_store_b128 v1, v[8:11], s[2:3] offset:16
    0xDC6E0020, 0x00020D01, // global_store_b64 v1, v[13:14], s[2:3] offset:32
    0xBFB00000,             // s_endpgm
};
constexpr uint32_t kSignedZerosGfx12[] = {
    // llvm-mc-22 -mcpu=gfx1201 -show-encoding of the text beside each line.
    0xF4002080, 0xF8000000,             // s_load_b64 s[2:3], s[0:1], 0x0
    0x7E040280,                         // v_mov_b32_e32 v2, 0
    0x7E067081,                         // v_bfrev_b32_e32 v3, 1
    0x1C080480,                         // v_max_num_f64_e32 v[4:5], 0, v[2:3]
    0x1A0C0480,                         // v_min_num_f64_e32 v[6:7], 0, v[2:3]
    0x7E020280,                         // v_mov_b32_e32 v1, 0
    0xBFC70000,                         // s_wait_kmcnt 0x0
    0xEE074002, 0x02000000, 0x00000001, // global_store_b128 v1, v[4:7], s[2:3]
    0xBFB00000,                         // s_endpgm
};

// v_div_fmas_f64 with VCC clear: fma(0x1p-53, 1 + 0x1p-27, 1.0), stored at kBuf.
// llvm-mc-22 -mcpu=gfx1100 -show-encoding of the text beside each line.
constexpr uint32_t kDivFmasNoScale[] = {
    0xF4040080, 0xF8000000, // s_load_b64 s[2:3], s[0:1], 0x0
    0xBEEA0080,             // s_mov_b32 vcc_lo, 0
    0x7E040280,             // v_mov_b32_e32 v2, 0
    0x7E0602FF, 0x3CA00000, // v_mov_b32_e32 v3, 0x3ca00000
    0x7E0802FF, 0x02000000, // v_mov_b32_e32 v4, 0x2000000
    0x7E0A02FF, 0x3FF00000, // v_mov_b32_e32 v5, 0x3ff00000
    0x7E0C0280,             // v_mov_b32_e32 v6, 0
    0x7E0E02FF, 0x3FF00000, // v_mov_b32_e32 v7, 0x3ff00000
    0xD6380008, 0x041A0902, // v_div_fmas_f64 v[8:9], v[2:3], v[4:5], v[6:7]
    0x7E020280,             // v_mov_b32_e32 v1, 0
    0xBF89FC07,             // s_waitcnt lgkmcnt(0)
    0xDC6E0000, 0x00020801, // global_store_b64 v1, v[8:9], s[2:3]
    0xBFB00000,             // s_endpgm
};

// Lane i reads four floats a, b, c, x at kBuf + 16 * i and stores fma(a, b, c), trunc(x),
// b * a and c + b at kBuf + 1024 + 16 * i.
// llvm-mc-22 -mcpu=gfx1100 -show-encoding of the text beside each line.
constexpr uint32_t kNanSources[] = {
    0xF4040080, 0xF8000000, // s_load_b64 s[2:3], s[0:1], 0x0
    0xBF89FC07,             // s_waitcnt lgkmcnt(0)
    0x30020084,             // v_lshlrev_b32_e32 v1, 4, v0
    0xDC5E0000, 0x02020001, // global_load_b128 v[2:5], v1, s[2:3]
    0xBF8903F7,             // s_waitcnt vmcnt(0)
    0xD6130006, 0x04120702, // v_fma_f32 v6, v2, v3, v4
    0x7E0E4305,             // v_trunc_f32_e32 v7, v5
    0x10100503,             // v_mul_f32_e32 v8, v3, v2
    0x06120704,             // v_add_f32_e32 v9, v4, v3
    0xDC760400, 0x00020601, // global_store_b128 v1, v[6:9], s[2:3] offset:1024
    0xBFB00000,             // s_endpgm
};

} // namespace

// Several NaN sources: the result is the first of them in operand order, quieted (amcl's rule:
// the manuals do not say, and the host's own choice followed the operand order its compiler
// picked, so the fast and general paths disagreed). Rounding quiets a signalling NaN. Both paths.
TEST(FloatSemantics, SeveralNanSourcesGiveTheFirstQuieted) {
  const uint32_t snan_b = 0x7f800001, qnan_c = 0x7fc00002, snan_x = 0xff800005;
  const uint32_t qnan_a = 0xffc00003, qnan_b = 0x7fc00004, one = 0x3f800000, half = 0x3fc00000;
  const uint32_t in[2][4] = {{one, snan_b, qnan_c, snan_x}, {qnan_a, qnan_b, one, half}};
  const uint32_t want[2][4] = {{0x7fc00001, 0xffc00005, 0x7fc00001, 0x7fc00002},
                               {qnan_a, one, qnan_b, qnan_b}};
  for (bool fast : {true, false}) {
    FlatMemory mem;
    for (unsigned lane = 0; lane < 2; ++lane)
      for (unsigned i = 0; i < 4; ++i) mem.put(kBuf + 16 * lane + 4 * i, in[lane][i]);
    Executor::fast_paths = fast;
    run(mem, kNanSources, 2);
    Executor::fast_paths = true;
    for (unsigned lane = 0; lane < 2; ++lane)
      for (unsigned i = 0; i < 4; ++i)
        EXPECT_EQ(mem.get<uint32_t>(kBuf + 1024 + 16 * lane + 4 * i), want[lane][i])
            << "lane " << lane << " result " << i << (fast ? " fast" : " general");
  }
}

// V_DIV_FMAS_F64 without VCC is one fused multiply-add, rounded once: 1 + 2^-53 + 2^-80 is
// above the midpoint of 1 and 1 + 2^-52. A 64-bit-mantissa intermediate drops the 2^-80 and
// then rounds the tie to even, 1.
TEST(FloatSemantics, DivFmasWithoutScalingRoundsOnce) {
  FlatMemory mem;
  run(mem, kDivFmasNoScale, 1);
  EXPECT_EQ(mem.get<double>(kBuf), 1.0 + 0x1p-52);
}

// IEEE-mode max and min (RDNA3 V_MAX_F64's GT_NEG_ZERO: "+0 > -0 is TRUE"; RDNA4's
// maximumNumber) order -0 below +0 whichever operand holds which. libclc's fdim is
// max(x - y, +0): on gfx1201 fdim(-0, +0) came back -0 through v_max_num_f64 0, -0.
TEST(FloatSemantics, MaxAndMinOrderNegativeZeroBelowPositiveZero) {
  const uint64_t pos = 0, neg = uint64_t(1) << 63;
  {
    FlatMemory mem;
    run(mem, kSignedZeros, 1);
    EXPECT_EQ(mem.get<uint64_t>(kBuf), pos);      // max(+0, -0)
    EXPECT_EQ(mem.get<uint64_t>(kBuf + 8), pos);  // max(-0, +0)
    EXPECT_EQ(mem.get<uint64_t>(kBuf + 16), neg); // min(+0, -0)
    EXPECT_EQ(mem.get<uint64_t>(kBuf + 24), neg); // min(-0, +0)
    EXPECT_EQ(mem.get<uint32_t>(kBuf + 32), 0u);  // f32 max(+0, -0)
    EXPECT_EQ(mem.get<uint32_t>(kBuf + 36), 0x80000000u);
  }
  FlatMemory mem;
  run(mem, kSignedZerosGfx12, 1, Gfx::v12);
  EXPECT_EQ(mem.get<uint64_t>(kBuf), pos);
  EXPECT_EQ(mem.get<uint64_t>(kBuf + 8), neg);
}

// A float inline constant feeding a 64-bit integer operand is the double: libclc's scalar double
// acos and acospi test |x| < 0.5 as v_cmp_gt_u64 0.5, |x| bits, and took the |x| >= 0.5 branch
// for acos(-0.001) (1.65e6 ulp off) and acospi(0.5) (NaN) while 0.5 read as 0x3f000000.
TEST(FloatSemantics, FloatInlineConstantsOfSixtyFourBitIntegerOperandsAreDoubles) {
  const uint64_t values[] = {std::bit_cast<uint64_t>(0.001), std::bit_cast<uint64_t>(0.5),
                             std::bit_cast<uint64_t>(0.49999999999999994), 0x3f000000,
                             std::bit_cast<uint64_t>(0.75)};
  FlatMemory mem;
  for (size_t i = 0; i < std::size(values); ++i) mem.put(kBuf + 8 * i, values[i]);
  run(mem, kInline64, unsigned(std::size(values)));
  for (size_t i = 0; i < std::size(values); ++i) {
    EXPECT_EQ(mem.get<uint32_t>(kBuf + 1024 + 16 * i), values[i] < 0x3fe0000000000000u ? 1u : 0u)
        << std::hex << values[i];
    EXPECT_EQ(mem.get<uint64_t>(kBuf + 1032 + 16 * i), 0x3fe0000000000000u);
  }
}

// Quotients below the normals of a denominator near DBL_MAX (1 / DBL_MAX; double atan2 divides
// the smaller magnitude by the larger and faulted on atan2(DBL_MAX, 1)), and quotients that
// underflow entirely, through a numerator v_div_scale counts as tiny.
TEST(FloatSemantics, DoubleDivisionIsCorrectlyRoundedAtTheEdgesOfTheRange) {
  const double max = std::numeric_limits<double>::max();
  const std::vector<std::pair<double, double>> pairs = {
      {1.0, max},
      {1.0, 1e308},
      {-1.0, std::ldexp(1.5, 1023)},
      {3.0, std::ldexp(1.0, 1023)},
      {std::ldexp(1.0, -1000), std::ldexp(1.0, 1000)},
      {-std::ldexp(1.0, -1000), std::ldexp(1.0, 1000)},
      {std::ldexp(1.0, -1000), std::ldexp(1.0, 60)},
      {5.0, 3.0},
      {std::numeric_limits<double>::denorm_min(), 0.75},
      {max, std::ldexp(1.0, -60)},
  };
  const std::vector<Division> got = divide(pairs);
  for (size_t i = 0; i < pairs.size(); ++i) {
    const double want = pairs[i].first / pairs[i].second;
    EXPECT_EQ(std::bit_cast<uint64_t>(got[i].quotient), std::bit_cast<uint64_t>(want))
        << pairs[i].first << " / " << pairs[i].second << ": " << got[i].quotient << ", not "
        << want;
  }
  // Both 1/DBL_MAX and the quotient are subnormal: the denominator goes down by 2^128 (not up,
  // to infinity, as the manual's text has it) and VCC asks V_DIV_FMAS to scale back down.
  EXPECT_EQ(got[0].scaled_denominator, std::ldexp(max, -128));
  EXPECT_TRUE(got[0].vcc);
}
