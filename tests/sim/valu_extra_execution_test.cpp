// The less common vector ALU operations (sim/shader/valu_extra.cpp and the VOP3P dot products),
// one instruction at a time on a wave32 and a wave64: randomised operands, including denormals,
// NaNs, infinities, signed zeros and integer edge values, against references written here from
// the RDNA3/RDNA4 ISA manuals' pseudocode. Encodings are built from the VOP1/VOP3/VOP3P field
// layouts (llvm-mc-22 -show-encoding gives the same words for the instructions named beside
// each test).
#include "tests/sim/flat_memory.h"
#include "tests/sim/shader_runner.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <random>
#include <utility>
#include <vector>

using namespace sim::shader;

namespace {

constexpr uint64_t kCode = 0x10000;
using FlatMemory = sim::test::FlatMemory<0x10000, 0x1000>;

uint32_t fbits(float f) {
  return std::bit_cast<uint32_t>(f);
}
float fval(uint32_t u) {
  return std::bit_cast<float>(u);
}

// VOP3: vdst [7:0], abs [10:8], op_sel [14:11], clamp [15], opcode [25:16]; src0..2, omod
// [28:27], neg [31:29].
struct Vop3 {
  uint32_t op, vdst, src[3];
  uint32_t abs = 0, neg = 0, opsel = 0, clamp = 0, omod = 0;
  std::vector<uint32_t> words() const {
    return {0xD4000000u | op << 16 | clamp << 15 | opsel << 11 | abs << 8 | vdst,
            neg << 29 | omod << 27 | src[2] << 18 | src[1] << 9 | src[0]};
  }
};
constexpr uint32_t V(uint32_t n) {
  return 256 + n;
}

// One instruction on one wave: VGPRs v0..v15 set per lane by `init`, then read back.
struct WaveRun {
  Wave w;
  uint32_t v(unsigned reg, unsigned lane) {
    w.select_half(lane / 32);
    const uint32_t r = w.v(reg, lane % 32);
    w.select_half(0);
    return r;
  }
};
WaveRun run(const std::vector<uint32_t>& words, Gfx gfx, bool wave64,
            const std::function<uint32_t(unsigned reg, unsigned lane)>& init,
            const std::function<void(Wave&)>& scalars = {}) {
  FlatMemory mem;
  mem.put(sim::test::put_words(mem, kCode, words), sim::test::kEndpgm);
  sim::test::WaveRunner runner(mem, kCode, gfx);
  WaveRun r;
  sim::test::start_wave(r.w, wave64, 16, kCode);
  for (unsigned lane = 0; lane < r.w.lanes(); ++lane)
    for (unsigned reg = 0; reg < 16; ++reg) {
      r.w.select_half(lane / 32);
      r.w.v(reg, lane % 32) = init(reg, lane);
    }
  r.w.select_half(0);
  if (scalars) scalars(r.w);
  runner.run(r.w);
  return r;
}

// Operand values: random bits mixed with the float and integer edge cases.
uint32_t pick(std::mt19937& rng) {
  static const uint32_t kEdges[] = {0x00000000u, 0x80000000u, 0x7f800000u, 0xff800000u,
                                    0x7fc00000u, 0x7fa00000u, 0x00000001u, 0x807fffffu,
                                    0x3f800000u, 0xbf800000u, 0x7f7fffffu, 0xff7fffffu,
                                    0xffffffffu, 0x7fffffffu, 0x00ff00ffu, 0x80808080u};
  const uint32_t r = rng();
  if (r % 4 == 0) return kEdges[(r >> 8) % std::size(kEdges)];
  if (r % 4 == 1)
    return fbits(std::ldexp(float(int32_t(rng()) % 1000) / 7.0f, int(rng() % 20) - 10));
  return rng();
}

// Both words compare as floats where both are NaN (the ISA does not pin a NaN's payload).
bool same(uint32_t a, uint32_t b) {
  return a == b || (std::isnan(fval(a)) && std::isnan(fval(b)));
}

// Runs `inst` on random v1..v3 (v4/v5 for 64-bit sources) on wave32 and wave64 and compares
// v0 (and v1 for 64-bit results) with `ref(lane inputs)`.
void check(const char* name, const std::vector<uint32_t>& words, Gfx gfx,
           const std::function<uint32_t(const uint32_t* in)>& ref, uint32_t seed = 1) {
  for (bool wave64 : {false, true}) {
    std::mt19937 rng(seed);
    std::vector<uint32_t> vals(64 * 16);
    for (uint32_t& x : vals) x = pick(rng);
    WaveRun r =
        run(words, gfx, wave64, [&](unsigned reg, unsigned lane) { return vals[lane * 16 + reg]; });
    for (unsigned lane = 0; lane < r.w.lanes(); ++lane) {
      const uint32_t expect = ref(&vals[lane * 16]);
      EXPECT_TRUE(same(r.v(0, lane), expect))
          << name << (wave64 ? " wave64" : " wave32") << " lane " << lane << ": got 0x" << std::hex
          << r.v(0, lane) << ", expected 0x" << expect << " (v1 0x" << vals[lane * 16 + 1]
          << ", v2 0x" << vals[lane * 16 + 2] << ", v3 0x" << vals[lane * 16 + 3] << ")";
    }
  }
}

// ---- references from the manuals' pseudocode

float omod_clamp(double r, uint32_t omod, bool clamp) {
  if (omod == 1)
    r *= 2;
  else if (omod == 2)
    r *= 4;
  else if (omod == 3)
    r /= 2;
  if (clamp) r = r < 0 ? 0 : r > 1 ? 1 : r;
  return float(r);
}
unsigned absdiff(unsigned a, unsigned b) {
  return a > b ? a - b : b - a;
}
uint32_t byte(uint32_t v, int i) {
  return (v >> (8 * i)) & 0xff;
}

TEST(ValuExtra, CubeMapCoordinates) {
  // V_CUBEID/SC/TC/MA_F32: the face of the largest magnitude (z before y before x on ties).
  auto face = [](float x, float y, float z) {
    const float ax = std::fabs(x), ay = std::fabs(y), az = std::fabs(z);
    return az >= ax && az >= ay ? 2 : ay >= ax ? 1 : 0;
  };
  const uint32_t src[3] = {V(1), V(2), V(3)};
  check("v_cubeid_f32", Vop3{0x20c, 0, {src[0], src[1], src[2]}}.words(), Gfx::v11,
        [&](const uint32_t* in) {
          const float x = fval(in[1]), y = fval(in[2]), z = fval(in[3]);
          const int f = face(x, y, z);
          const float id = f == 2 ? (z < 0 ? 5 : 4) : f == 1 ? (y < 0 ? 3 : 2) : (x < 0 ? 1 : 0);
          return fbits(id);
        });
  check("v_cubesc_f32", Vop3{0x20d, 0, {src[0], src[1], src[2]}}.words(), Gfx::v11,
        [&](const uint32_t* in) {
          const float x = fval(in[1]), y = fval(in[2]), z = fval(in[3]);
          const int f = face(x, y, z);
          return fbits(f == 2 ? (z < 0 ? -x : x) : f == 1 ? x : (x < 0 ? z : -z));
        });
  check("v_cubetc_f32", Vop3{0x20e, 0, {src[0], src[1], src[2]}}.words(), Gfx::v11,
        [&](const uint32_t* in) {
          const float x = fval(in[1]), y = fval(in[2]), z = fval(in[3]);
          return fbits(face(x, y, z) == 1 ? (y < 0 ? -z : z) : -y);
        });
  // With modifiers: v_cubema_f32 v0, -v1, |v2|, v3 mul:2 (neg on src0, abs on src1, omod 1).
  Vop3 ma{0x20f, 0, {src[0], src[1], src[2]}};
  ma.neg = 1;
  ma.abs = 2;
  ma.omod = 1;
  check("v_cubema_f32 mods", ma.words(), Gfx::v12, [&](const uint32_t* in) {
    const float x = -fval(in[1]), y = std::fabs(fval(in[2])), z = fval(in[3]);
    const int f = face(x, y, z);
    return fbits(omod_clamp(2.0 * (f == 2 ? z : f == 1 ? y : x), 1, false));
  });
}

TEST(ValuExtra, LegacyMultiplies) {
  // V_FMA_DX9_ZERO_F32: a zero factor yields S2 (even against Inf/NaN); with |S0| and clamp.
  Vop3 fma{0x209, 0, {V(1), V(2), V(3)}};
  fma.abs = 1;
  fma.clamp = 1;
  check("v_fma_dx9_zero_f32 |a| clamp", fma.words(), Gfx::v11, [](const uint32_t* in) {
    const float a = std::fabs(fval(in[1])), b = fval(in[2]), c = fval(in[3]);
    return fbits(omod_clamp(a == 0 || b == 0 ? c : std::fma(a, b, c), 0, true));
  });
  // V_MULLIT_F32: -FLT_MAX unless S1 is usable and S2 > 0.
  check("v_mullit_f32", Vop3{0x218, 0, {V(1), V(2), V(3)}}.words(), Gfx::v11,
        [](const uint32_t* in) {
          const float a = fval(in[1]), b = fval(in[2]), c = fval(in[3]);
          const float m = std::numeric_limits<float>::max();
          if (b == -m || (std::isinf(b) && b < 0) || std::isnan(b) || !(c > 0)) return fbits(-m);
          return fbits(a * b);
        });
  // V_MUL_HI_I32_I24 / V_MUL_HI_U32_U24 (VOP3 forms of VOP2 10 and 12).
  check("v_mul_hi_i32_i24", Vop3{256 + 10, 0, {V(1), V(2), 0}}.words(), Gfx::v11,
        [](const uint32_t* in) {
          const int64_t a = int32_t(in[1] << 8) >> 8, b = int32_t(in[2] << 8) >> 8;
          return uint32_t(uint64_t(a * b) >> 32);
        });
  check("v_mul_hi_u32_u24", Vop3{256 + 12, 0, {V(1), V(2), 0}}.words(), Gfx::v12,
        [](const uint32_t* in) {
          return uint32_t((uint64_t(in[1] & 0xffffff) * (in[2] & 0xffffff)) >> 32);
        });
}

TEST(ValuExtra, ByteOperations) {
  check("v_sad_u8", Vop3{0x222, 0, {V(1), V(2), V(3)}}.words(), Gfx::v11, [](const uint32_t* in) {
    uint32_t s = in[3];
    for (int i = 0; i < 4; ++i) s += absdiff(byte(in[1], i), byte(in[2], i));
    return s;
  });
  check("v_sad_hi_u8", Vop3{0x223, 0, {V(1), V(2), V(3)}}.words(), Gfx::v11,
        [](const uint32_t* in) {
          uint32_t s = 0;
          for (int i = 0; i < 4; ++i) s += absdiff(byte(in[1], i), byte(in[2], i));
          return (s << 16) + in[3];
        });
  check("v_msad_u8", Vop3{0x239, 0, {V(1), V(2), V(3)}}.words(), Gfx::v12, [](const uint32_t* in) {
    uint32_t s = in[3];
    for (int i = 0; i < 4; ++i)
      if (byte(in[2], i)) s += absdiff(byte(in[1], i), byte(in[2], i));
    return s;
  });
  check("v_sad_u16", Vop3{0x224, 0, {V(1), V(2), V(3)}}.words(), Gfx::v11, [](const uint32_t* in) {
    return in[3] + absdiff(in[1] & 0xffff, in[2] & 0xffff) + absdiff(in[1] >> 16, in[2] >> 16);
  });
  check("v_sad_u32", Vop3{0x225, 0, {V(1), V(2), V(3)}}.words(), Gfx::v11,
        [](const uint32_t* in) { return in[3] + absdiff(in[1], in[2]); });
  check("v_lerp_u8", Vop3{0x215, 0, {V(1), V(2), V(3)}}.words(), Gfx::v11, [](const uint32_t* in) {
    uint32_t r = 0;
    for (int i = 0; i < 4; ++i)
      r |= ((byte(in[1], i) + byte(in[2], i) + (byte(in[3], i) & 1)) / 2) << (8 * i);
    return r;
  });
  check("v_bfm_b32", Vop3{0x31d, 0, {V(1), V(2), 0}}.words(), Gfx::v11, [](const uint32_t* in) {
    const uint32_t width = in[1] & 31, offset = in[2] & 31;
    return uint32_t(((uint64_t(1) << width) - 1) << offset);
  });
  // V_QSAD_PK_U16_U8 v[0:1], v[4:5], v2, v[6:7]: the low result half of the four windows.
  check("v_qsad_pk_u16_u8", Vop3{0x23a, 0, {V(4), V(2), V(6)}}.words(), Gfx::v11,
        [](const uint32_t* in) {
          const uint64_t x = in[4] | uint64_t(in[5]) << 32;
          uint32_t lo = 0;
          for (int k = 0; k < 2; ++k) {
            uint32_t s = (k ? in[6] >> 16 : in[6]) & 0xffff;
            for (int i = 0; i < 4; ++i)
              s += absdiff(uint32_t(x >> (8 * (k + i))) & 0xff, byte(in[2], i));
            lo |= (s & 0xffff) << (16 * k);
          }
          return lo;
        });
}

TEST(ValuExtra, PackingConversions) {
  auto trunc_sat = [](float f, double lo, double hi) -> int64_t {
    if (std::isnan(f)) return 0;
    return int64_t(std::trunc(std::fmin(std::fmax(double(f), lo), hi)));
  };
  check("v_cvt_pk_i16_f32", Vop3{0x306, 0, {V(1), V(2), 0}}.words(), Gfx::v11,
        [&](const uint32_t* in) {
          return uint32_t(uint16_t(trunc_sat(fval(in[1]), -32768, 32767))) |
                 uint32_t(uint16_t(trunc_sat(fval(in[2]), -32768, 32767))) << 16;
        });
  check("v_cvt_pk_u16_f32", Vop3{0x307, 0, {V(1), V(2), 0}}.words(), Gfx::v12,
        [&](const uint32_t* in) {
          return uint32_t(trunc_sat(fval(in[1]), 0, 65535)) |
                 uint32_t(trunc_sat(fval(in[2]), 0, 65535)) << 16;
        });
  auto snorm = [](float f) -> uint32_t {
    if (std::isnan(f)) return 0;
    return uint16_t(int16_t(std::nearbyint(double(std::fmin(std::fmax(f, -1.0f), 1.0f)) * 32767)));
  };
  check("v_cvt_pk_norm_i16_f32", Vop3{0x321, 0, {V(1), V(2), 0}}.words(), Gfx::v11,
        [&](const uint32_t* in) { return snorm(fval(in[1])) | snorm(fval(in[2])) << 16; });
  check("v_cvt_pk_u8_f32", Vop3{0x226, 0, {V(1), V(2), V(3)}}.words(), Gfx::v11,
        [](const uint32_t* in) {
          const float f = fval(in[1]);
          const uint32_t b =
              std::isnan(f) ? 0 : uint32_t(std::nearbyint(std::fmin(std::fmax(f, 0.0f), 255.0f)));
          const unsigned sh = 8 * (in[2] & 3);
          return (in[3] & ~(0xffu << sh)) | b << sh;
        });
  // VOP1 (as VOP3 384 + op): v_cvt_floor_i32_f32, v_cvt_nearest_i32_f32, v_cvt_off_f32_i4.
  auto to_i32 = [](double d) -> uint32_t {
    if (std::isnan(d)) return 0;
    if (d >= 2147483647.0) return 0x7fffffff;
    if (d <= -2147483648.0) return 0x80000000u;
    return uint32_t(int32_t(d));
  };
  check("v_cvt_floor_i32_f32", Vop3{384 + 13, 0, {V(1), 0, 0}}.words(), Gfx::v11,
        [&](const uint32_t* in) { return to_i32(std::floor(double(fval(in[1])))); });
  check("v_cvt_nearest_i32_f32", Vop3{384 + 12, 0, {V(1), 0, 0}}.words(), Gfx::v11,
        [&](const uint32_t* in) { return to_i32(std::floor(double(fval(in[1])) + 0.5)); });
  check("v_cvt_off_f32_i4", Vop3{384 + 14, 0, {V(1), 0, 0}}.words(), Gfx::v12,
        [](const uint32_t* in) {
          static const float kTable[16] = {0,      0.0625f,  0.125f,  0.1875f,  0.25f,   0.3125f,
                                           0.375f, 0.4375f,  -0.5f,   -0.4375f, -0.375f, -0.3125f,
                                           -0.25f, -0.1875f, -0.125f, -0.0625f};
          return fbits(kTable[in[1] & 15]);
        });
  // v_sat_pk_u8_i16: two signed halves saturated to bytes in the low half; the high half kept.
  check("v_sat_pk_u8_i16", {0x7E00C501u}, Gfx::v11, [](const uint32_t* in) {
    auto sat = [](uint32_t h) { return uint32_t(std::min(std::max(int(int16_t(h)), 0), 255)); };
    return (in[0] & 0xffff0000u) | sat(in[1] & 0xffff) | sat(in[1] >> 16) << 8;
  });
}

TEST(ValuExtra, Double) {
  auto lo = [](double d) { return uint32_t(std::bit_cast<uint64_t>(d)); };
  auto hi = [](double d) { return uint32_t(std::bit_cast<uint64_t>(d) >> 32); };
  auto dv = [](const uint32_t* in, int r) {
    return std::bit_cast<double>(in[r] | uint64_t(in[r + 1]) << 32);
  };
  // VOP1 v_sqrt_f64 v[0:1], v[4:5] and friends: compare both result dwords through two checks.
  for (int part = 0; part < 2; ++part) {
    auto pick_part = [&](double d) { return part ? hi(d) : lo(d); };
    const std::vector<uint32_t> sqrt = {0x7E006904u}, fract = {0x7E007D04u}, mant = {0x7E007B04u};
    auto check_part = [&](const char* name, const std::vector<uint32_t>& words, auto f) {
      for (bool wave64 : {false, true}) {
        std::mt19937 rng(7);
        std::vector<uint32_t> vals(64 * 16);
        for (uint32_t& x : vals) x = pick(rng);
        WaveRun r = run(words, Gfx::v11, wave64,
                        [&](unsigned reg, unsigned lane) { return vals[lane * 16 + reg]; });
        for (unsigned lane = 0; lane < r.w.lanes(); ++lane) {
          const double expect = f(dv(&vals[lane * 16], 4));
          const uint32_t got = r.v(part, lane);
          EXPECT_TRUE(got == pick_part(expect) || std::isnan(expect))
              << name << " lane " << lane << " part " << part;
        }
      }
    };
    check_part("v_sqrt_f64", sqrt, [](double x) { return std::sqrt(x); });
    check_part("v_fract_f64", fract, [](double x) {
      if (!std::isfinite(x)) return std::numeric_limits<double>::quiet_NaN();
      return std::fmin(x - std::floor(x), 0x1.fffffffffffffp-1);
    });
    check_part("v_frexp_mant_f64", mant, [](double x) {
      int e;
      return std::isfinite(x) ? std::frexp(x, &e) : x;
    });
  }
  // V_TRIG_PREOP_F64: segment 0 of 2/pi is its first 53 bits, 0x3fe45f306dc9c882 (2/pi =
  // 0.63661977236758134308, truncated); the segments add up to 2/pi far beyond double precision.
  WaveRun r = run(Vop3{0x32f, 0, {V(4), V(6), 0}}.words(), Gfx::v11, false,
                  [](unsigned reg, unsigned lane) {
                    if (reg == 4) return 0u;          // x = 1.0: low dword
                    if (reg == 5) return 0x3ff00000u; // high dword
                    return reg == 6 ? lane % 3 : 0u;  // segment
                  });
  EXPECT_EQ(r.v(0, 0) | uint64_t(r.v(1, 0)) << 32, 0x3fe45f306dc9c882ull);
  long double sum = 0;
  for (unsigned lane = 0; lane < 3; ++lane)
    sum += std::bit_cast<double>(r.v(0, lane) | uint64_t(r.v(1, lane)) << 32);
  EXPECT_NEAR(double(sum - 0.636619772367581343075535053490057448L), 0.0, 1e-18);
}

TEST(ValuExtra, RelativeMovesAndSwaps) {
  // v_movrels_b32 v0, v2 with M0 = 3 reads v5; v_movreld_b32 v1, v2 with M0 = 3 writes v4.
  auto init = [](unsigned reg, unsigned lane) { return reg * 1000 + lane; };
  WaveRun a = run({0x7E008702u}, Gfx::v11, true, init, [](Wave& w) { w.sgpr[src::kM0] = 3; });
  WaveRun b = run({0x7E028502u}, Gfx::v11, false, init, [](Wave& w) { w.sgpr[src::kM0] = 3; });
  // v_swap_b32 v1, v2.
  WaveRun c = run({0x7E02CB02u}, Gfx::v12, true, init);
  for (unsigned lane = 0; lane < 32; ++lane) {
    EXPECT_EQ(a.v(0, lane), 5000 + lane);
    EXPECT_EQ(a.v(0, lane + 32), 5000 + lane + 32);
    EXPECT_EQ(b.v(4, lane), 2000 + lane);
    EXPECT_EQ(b.v(1, lane), 1000 + lane);
    EXPECT_EQ(c.v(1, lane + 32), 2000 + lane + 32);
    EXPECT_EQ(c.v(2, lane + 32), 1000 + lane + 32);
  }
  // Past the allocation is a fault, not a silent access.
  EXPECT_THROW(run({0x7E008702u}, Gfx::v11, false, init, [](Wave& w) { w.sgpr[src::kM0] = 100; }),
               ShaderFault);
}

// VOP3P: vdst, neg_hi [10:8], op_sel [13:11], op_sel_hi[2] [14], clamp [15], opcode [22:16];
// src0..2, op_sel_hi[1:0] [28:27], neg [31:29].
std::vector<uint32_t> vop3p(uint32_t op, uint32_t neg, uint32_t clamp) {
  return {0xCC000000u | op << 16 | clamp << 15 | 1u << 14,
          neg << 29 | 3u << 27 | V(3) << 18 | V(2) << 9 | V(1)};
}

TEST(ValuExtra, IntegerDotProducts) {
  for (uint32_t neg = 0; neg < 4; ++neg)
    for (uint32_t clamp = 0; clamp < 2; ++clamp) {
      // v_dot4_i32_iu8 v0, v1, v2, v3 neg_lo:[a,b,0]: neg_lo says which sources are signed.
      check("v_dot4_i32_iu8", vop3p(0x16, neg, clamp), Gfx::v11, [&](const uint32_t* in) {
        int64_t s = int32_t(in[3]);
        for (int i = 0; i < 4; ++i) {
          const int64_t a = neg & 1 ? int8_t(byte(in[1], i)) : int64_t(byte(in[1], i));
          const int64_t b = neg & 2 ? int8_t(byte(in[2], i)) : int64_t(byte(in[2], i));
          s += a * b;
        }
        if (clamp) s = std::min<int64_t>(std::max<int64_t>(s, INT32_MIN), INT32_MAX);
        return uint32_t(s);
      });
      check("v_dot8_i32_iu4", vop3p(0x18, neg, clamp), Gfx::v12, [&](const uint32_t* in) {
        int64_t s = int32_t(in[3]);
        for (int i = 0; i < 8; ++i) {
          auto nib = [&](uint32_t v, bool sign) -> int64_t {
            const int n = int((v >> (4 * i)) & 15);
            return sign && n >= 8 ? n - 16 : n;
          };
          s += nib(in[1], neg & 1) * nib(in[2], neg & 2);
        }
        if (clamp) s = std::min<int64_t>(std::max<int64_t>(s, INT32_MIN), INT32_MAX);
        return uint32_t(s);
      });
    }
  check("v_dot4_u32_u8 clamp", vop3p(0x17, 0, 1), Gfx::v11, [](const uint32_t* in) {
    uint64_t s = in[3];
    for (int i = 0; i < 4; ++i) s += uint64_t(byte(in[1], i)) * byte(in[2], i);
    return uint32_t(std::min<uint64_t>(s, 0xffffffffu));
  });
}

// IEEE 754-2019 minimum/maximum (RDNA4 V_MINIMUM_F32 ...): NaN in, NaN out; -0 < +0.
float minimum(float a, float b) {
  if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<float>::quiet_NaN();
  if (a == 0 && b == 0) return std::signbit(a) ? a : b;
  return a < b ? a : b;
}
float maximum(float a, float b) {
  if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<float>::quiet_NaN();
  if (a == 0 && b == 0) return std::signbit(a) ? b : a;
  return a > b ? a : b;
}

TEST(ValuExtra, Gfx12MinimumMaximum) {
  check("v_minimum_f32", Vop3{0x365, 0, {V(1), V(2), 0}}.words(), Gfx::v12,
        [](const uint32_t* in) { return fbits(minimum(fval(in[1]), fval(in[2]))); });
  Vop3 mx{0x366, 0, {V(1), V(2), 0}};
  mx.neg = 2;
  mx.clamp = 1;
  check("v_maximum_f32 -b clamp", mx.words(), Gfx::v12, [](const uint32_t* in) {
    return fbits(omod_clamp(maximum(fval(in[1]), -fval(in[2])), 0, true));
  });
  check("v_minimummaximum_f32", Vop3{0x26c, 0, {V(1), V(2), V(3)}}.words(), Gfx::v12,
        [](const uint32_t* in) {
          return fbits(maximum(minimum(fval(in[1]), fval(in[2])), fval(in[3])));
        });
  check("v_maximum3_f32", Vop3{0x22e, 0, {V(1), V(2), V(3)}}.words(), Gfx::v12,
        [](const uint32_t* in) {
          return fbits(maximum(maximum(fval(in[1]), fval(in[2])), fval(in[3])));
        });
  // v_minimum_f16 v0, v1, v2 op_sel:[1,0,1]: the high half of v1 against v2's low, into v0.h.
  Vop3 h{0x367, 0, {V(1), V(2), 0}};
  h.opsel = 1 | 8;
  check("v_minimum_f16 op_sel", h.words(), Gfx::v12, [](const uint32_t* in) {
    auto f = [](uint32_t b) { return float(std::bit_cast<_Float16>(uint16_t(b))); };
    const float r = minimum(f(in[1] >> 16), f(in[2]));
    uint16_t hb = std::bit_cast<uint16_t>(_Float16(r));
    if (std::isnan(r)) hb = 0x7e00;
    return (in[0] & 0xffffu) | uint32_t(hb) << 16;
  });
}

TEST(ValuExtra, Gfx12ScalarTranscendentalsAndLaneGathers) {
  // v_s_sqrt_f32 s5, s4 (VOP3 0x288 with an SGPR destination) runs once per wave.
  for (bool wave64 : {false, true}) {
    WaveRun r = run(
        Vop3{0x288, 5, {4, 0, 0}}.words(), Gfx::v12, wave64, [](unsigned, unsigned) { return 0u; },
        [](Wave& w) { w.sgpr[4] = fbits(2.25f); });
    EXPECT_EQ(r.w.sgpr[5], fbits(1.5f));
    // v_s_rcp_f16 s4, s4: the result replaces the source, computed once even on wave64.
    WaveRun h = run(
        Vop3{0x285, 4, {4, 0, 0}}.words(), Gfx::v12, wave64, [](unsigned, unsigned) { return 0u; },
        [](Wave& w) { w.sgpr[4] = 0x4000; }); // 2.0
    EXPECT_EQ(h.w.sgpr[4], 0x3800u);          // 0.5
  }
  // v_permlane16_var_b32 v0, v1, v2: lane l of each row of 16 reads v1 of lane v2[l] & 15.
  std::mt19937 rng(3);
  std::vector<uint32_t> sel(32);
  for (uint32_t& s : sel) s = rng();
  for (uint32_t op : {0x30fu, 0x310u}) {
    WaveRun r = run(Vop3{op, 0, {V(1), V(2), 0}}.words(), Gfx::v12, false,
                    [&](unsigned reg, unsigned lane) {
                      return reg == 2 ? sel[lane] : reg == 1 ? 100 + lane : 7u;
                    });
    for (unsigned lane = 0; lane < 32; ++lane) {
      const unsigned row = (lane / 16) ^ (op == 0x310 ? 1 : 0);
      EXPECT_EQ(r.v(0, lane), 100 + row * 16 + (sel[lane] & 15))
          << std::hex << op << " lane " << lane;
    }
  }
}

TEST(ValuExtra, UnknownOperationsFaultByName) {
  // VOP3 opcode 0x2f0 is no operation on gfx11: the fault names the encoding.
  FlatMemory mem;
  mem.put(kCode, 0xD6F00000u);
  mem.put(kCode + 4, 0u);
  Program prog(mem, kCode, Gfx::v11);
  try {
    prog.at(kCode);
    FAIL() << "decoded";
  } catch (const ShaderFault& f) {
    EXPECT_NE(std::string(f.what()).find("unimplemented VOP3 opcode"), std::string::npos)
        << f.what();
  }
}

} // namespace
