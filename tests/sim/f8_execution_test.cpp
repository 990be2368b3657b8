// gfx12's 8-bit float instructions against references written from the RDNA4 ISA manual (7.5
// "8-bit Math", 7.6.2, and the V_CVT_*FP8*/*BF8* and V_DOT4_F32_*8_*8 pseudocode), wave32 and
// wave64: every byte value through the conversions to f32, and random f32s (with NaN, infinities,
// signed zeros, denormals, the largest values and the rounding midpoints) through the
// conversions to 8 bits. The reference rounds by searching the 8-bit values for the nearest
// (ties to an even mantissa), not by the emulator's formula. Encodings as llvm-mc-22
// -mcpu=gfx1201 -show-encoding gives them ("v_cvt_pk_fp8_f32 v1, v2, v3": 0xd7690001 0x00020702).
#include "tests/sim/flat_memory.h"
#include "tests/sim/shader_runner.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <random>
#include <vector>

using namespace sim::shader;

namespace {

constexpr uint64_t kCode = 0x10000;
using FlatMemory = sim::test::FlatMemory<0x10000, 0x1000>;
constexpr uint32_t V(uint32_t n) {
  return 256 + n;
}

// The manual's table: FP8 = sign, 4 exponent bits (bias 7), 3 mantissa bits, 0x7f/0xff NaN, no
// infinity; BF8 = sign, 5 exponent bits (bias 15), 2 mantissa bits, exponent 31 infinity or NaN.
struct Format {
  int exp_bits, mant_bits, bias;
  bool bf8;
};
constexpr Format kFp8{4, 3, 7, false}, kBf8{5, 2, 15, true};

double ref_value(uint8_t code, const Format& f) {
  const int e = (code >> f.mant_bits) & ((1 << f.exp_bits) - 1),
            m = code & ((1 << f.mant_bits) - 1);
  const double sign = code & 0x80 ? -1.0 : 1.0;
  if (f.bf8 && e == 31) return m ? NAN : sign * INFINITY;
  if (!f.bf8 && (code & 0x7f) == 0x7f) return NAN;
  const double frac = double(m) / (1 << f.mant_bits);
  return sign * (e ? std::pow(2.0, e - f.bias) * (1 + frac) : std::pow(2.0, 1 - f.bias) * frac);
}
bool is_nan8(uint8_t code, const Format& f) {
  return std::isnan(ref_value(code, f));
}

// f32 -> 8 bits: the nearest finite value (ties to an even mantissa) or, truncating, the largest
// not above; past the largest value (the next step up, were there one) it overflows to NaN
// (FP8) or infinity (BF8), or to the largest value when `clamp`.
uint8_t ref_to_f8(float x, const Format& f, bool truncate, bool clamp) {
  const uint8_t sign = std::signbit(x) ? 0x80 : 0;
  const uint8_t largest = f.bf8 ? 0x7b : 0x7e;
  const uint8_t overflow = clamp ? uint8_t(sign | largest) : uint8_t(sign | (f.bf8 ? 0x7c : 0x7f));
  if (std::isnan(x)) return 0x7f | sign; // any NaN: the caller compares NaN-ness
  const double a = std::fabs(double(x));
  const double max = ref_value(largest, f);
  const double step = max - ref_value(uint8_t(largest - 1), f);
  if (std::isinf(a) || a > 2 * max) return overflow; // (where distances would round alike)
  // Candidates 0..largest and the overflow step (whose mantissa parity is largest + 1's).
  int best = -1;
  double best_d = 0;
  for (int c = 0; c <= largest + 1; ++c) {
    const double v = c <= largest ? ref_value(uint8_t(c), f) : max + step;
    if (truncate) {
      if (v <= a) best = c;
      continue;
    }
    const double d = std::fabs(v - a);
    if (best < 0 || d < best_d || (d == best_d && (c & 1) == 0)) best = c, best_d = d;
  }
  return best > largest ? overflow : uint8_t(sign | best);
}

struct Kernel {
  std::vector<uint32_t> code;
  bool wave64 = false;
  uint32_t mode_upper = 0;
};

// Runs `code` with VGPRs set by `init`; returns the wave.
template <class Init> Wave run(Kernel r, unsigned vgprs, Init&& init) {
  FlatMemory mem;
  r.code.push_back(sim::test::kEndpgm);
  sim::test::put_words(mem, kCode, r.code);
  sim::test::WaveRunner runner(mem, kCode, Gfx::v12);
  Wave w;
  sim::test::start_wave(w, r.wave64, vgprs, kCode);
  w.mode_upper = r.mode_upper;
  for (unsigned lane = 0; lane < w.lanes(); ++lane) {
    w.select_half(lane / 32);
    init(w, lane % 32, lane);
  }
  w.select_half(0);
  runner.run(w);
  EXPECT_TRUE(w.done);
  return w;
}
void expect_f32(uint32_t got, double want, const char* what, unsigned code) {
  if (std::isnan(want))
    EXPECT_TRUE(std::isnan(std::bit_cast<float>(got))) << what << " code 0x" << std::hex << code;
  else
    EXPECT_EQ(got, std::bit_cast<uint32_t>(float(want))) << what << " code 0x" << std::hex << code;
}
void expect_f8(uint8_t got, uint8_t want, const Format& f, const char* what, float x) {
  if (is_nan8(want, f))
    EXPECT_TRUE(is_nan8(got, f)) << what << " of " << x << std::hex << " gave 0x" << int(got);
  else
    EXPECT_EQ(int(got), int(want))
        << what << " of " << x << " (0x" << std::hex << std::bit_cast<uint32_t>(x) << ")";
}

std::vector<uint32_t> vop1(uint32_t op, uint32_t vdst, uint32_t src) {
  return {0x7E000000u | vdst << 17 | op << 9 | src};
}
std::vector<uint32_t> vop3(uint32_t op, uint32_t vdst, uint32_t s0, uint32_t s1, uint32_t opsel = 0,
                           uint32_t abs = 0, uint32_t neg = 0) {
  return {0xD4000000u | op << 16 | opsel << 11 | abs << 8 | vdst, neg << 29 | s1 << 9 | s0};
}
void append(std::vector<uint32_t>& code, const std::vector<uint32_t>& w) {
  code.insert(code.end(), w.begin(), w.end());
}

TEST(F8Execution, ConvertsEveryByteToF32) {
  for (bool bf8 : {false, true})
    for (bool wave64 : {false, true}) {
      const Format& f = bf8 ? kBf8 : kFp8;
      Kernel r;
      r.wave64 = wave64;
      // v_cvt_f32_*8_e32 v1, v0 (byte 0); _e64 byte_sel 1, 2, 3 (OPSEL 2, 1, 3) into v2..v4;
      // v_cvt_pk_f32_*8_e32 v[5:6], v0 (low half) and _e64 op_sel:[1,0] v[7:8] (high half).
      append(r.code, vop1(bf8 ? 109 : 108, 1, V(0)));
      append(r.code, vop3(384 + (bf8 ? 109 : 108), 2, V(0), 0, 2));
      append(r.code, vop3(384 + (bf8 ? 109 : 108), 3, V(0), 0, 1));
      append(r.code, vop3(384 + (bf8 ? 109 : 108), 4, V(0), 0, 3));
      append(r.code, vop1(bf8 ? 111 : 110, 5, V(0)));
      append(r.code, vop3(384 + (bf8 ? 111 : 110), 7, V(0), 0, 1));
      for (unsigned base = 0; base < 256; base += wave64 ? 64 : 32) {
        auto word = [&](unsigned lane) {
          const uint32_t c = (base + lane) & 0xff;
          return c | ((c + 85) & 0xff) << 8 | ((c + 170) & 0xff) << 16 | ((c + 37) & 0xff) << 24;
        };
        Wave w = run(r, 10, [&](Wave& w, unsigned l, unsigned lane) { w.v(0, l) = word(lane); });
        for (unsigned lane = 0; lane < w.lanes(); ++lane) {
          const uint32_t x = word(lane);
          for (unsigned b = 0; b < 4; ++b)
            expect_f32(sim::test::lane_vgpr(w, 1 + b, lane), ref_value(uint8_t(x >> (8 * b)), f),
                       "cvt_f32", (x >> (8 * b)) & 0xff);
          expect_f32(sim::test::lane_vgpr(w, 5, lane), ref_value(uint8_t(x), f), "pk lo", x & 0xff);
          expect_f32(sim::test::lane_vgpr(w, 6, lane), ref_value(uint8_t(x >> 8), f), "pk lo",
                     (x >> 8) & 0xff);
          expect_f32(sim::test::lane_vgpr(w, 7, lane), ref_value(uint8_t(x >> 16), f), "pk hi",
                     (x >> 16) & 0xff);
          expect_f32(sim::test::lane_vgpr(w, 8, lane), ref_value(uint8_t(x >> 24), f), "pk hi",
                     (x >> 24) & 0xff);
        }
      }
    }
}

// f32 inputs at the edges: NaN, infinities, zeros, f32 denormals, the 8-bit formats' largest
// values, rounding midpoints and denormals, then random values of all magnitudes.
float edge_f32(std::mt19937& rng, const Format& f) {
  const float max = float(ref_value(f.bf8 ? 0x7b : 0x7e, f));
  const float tiny = float(ref_value(1, f)); // the smallest denormal
  const float picks[] = {NAN,         INFINITY,   -INFINITY, 0.0f,        -0.0f,
                         1e-40f,      -1e-40f,    max,       -max,        max * 1.03f,
                         max * 1.1f,  max * 1.2f, tiny,      tiny * 0.5f, tiny * 1.5f,
                         tiny * 2.5f, 1.0f,       1.0625f,   1.1875f,     3.0f};
  switch (rng() % 3) {
  case 0:
    return picks[rng() % std::size(picks)] * (rng() & 1 ? 1.0f : -1.0f);
  case 1:
    return std::ldexp(float(rng() % 4096) / 1024.0f, int(rng() % 40) - 24);
  default:
    return std::bit_cast<float>(uint32_t(rng()));
  }
}

TEST(F8Execution, PacksF32PairsRoundingToNearestEven) {
  for (bool bf8 : {false, true})
    for (bool wave64 : {false, true})
      for (uint32_t ovfl : {0u, 1u}) {
        const Format& f = bf8 ? kBf8 : kFp8;
        std::mt19937 rng(7 + bf8 + 2 * wave64 + 4 * ovfl);
        Kernel r;
        r.wave64 = wave64;
        r.mode_upper = ovfl << 23; // MODE.FP16_OVFL
        const uint32_t op = bf8 ? 0x36a : 0x369;
        // v_cvt_pk_*8_f32 v2, v0, v1 (low half) ; ... v2, -|v0|, v1 op_sel:[0,0,1] (high half)
        append(r.code, vop3(op, 2, V(0), V(1)));
        append(r.code, vop3(op, 2, V(0), V(1), 8, 1, 1));
        for (unsigned round = 0; round < 8; ++round) {
          std::vector<float> a(64), b(64);
          Wave w = run(r, 4, [&](Wave& w, unsigned l, unsigned lane) {
            a[lane] = edge_f32(rng, f);
            b[lane] = edge_f32(rng, f);
            w.v(0, l) = std::bit_cast<uint32_t>(a[lane]);
            w.v(1, l) = std::bit_cast<uint32_t>(b[lane]);
            w.v(2, l) = 0x5a5a5a5au;
          });
          for (unsigned lane = 0; lane < w.lanes(); ++lane) {
            const uint32_t d = sim::test::lane_vgpr(w, 2, lane);
            // f32 denormal inputs keep their sign and round like any value (no flushing here).
            const float na = -std::fabs(a[lane]);
            expect_f8(uint8_t(d), ref_to_f8(a[lane], f, false, ovfl), f, "lo S0", a[lane]);
            expect_f8(uint8_t(d >> 8), ref_to_f8(b[lane], f, false, ovfl), f, "lo S1", b[lane]);
            expect_f8(uint8_t(d >> 16), ref_to_f8(na, f, false, ovfl), f, "hi -|S0|", na);
            expect_f8(uint8_t(d >> 24), ref_to_f8(b[lane], f, false, ovfl), f, "hi S1", b[lane]);
          }
        }
      }
}

// V_CVT_SR_*8_F32: S1[31:12] (FP8) or S1[31:11] (BF8) added to S0's mantissa, wrapping within
// it, then the value truncated into the byte byte_sel names; the other bytes are kept.
TEST(F8Execution, StochasticConversionsAddTheSeedAndTruncate) {
  for (bool bf8 : {false, true})
    for (bool wave64 : {false, true}) {
      const Format& f = bf8 ? kBf8 : kFp8;
      std::mt19937 rng(50 + bf8 + 2 * wave64);
      Kernel r;
      r.wave64 = wave64;
      const uint32_t op = bf8 ? 0x36c : 0x36b;
      append(r.code, vop3(op, 2, V(0), V(1), 4));     // byte_sel:1
      append(r.code, vop3(op, 3, V(0), V(1), 12, 1)); // byte_sel:3, |S0|
      for (unsigned round = 0; round < 8; ++round) {
        std::vector<float> a(64);
        std::vector<uint32_t> seed(64);
        Wave w = run(r, 4, [&](Wave& w, unsigned l, unsigned lane) {
          a[lane] = edge_f32(rng, f);
          seed[lane] = rng() % 4 ? uint32_t(rng()) : rng() % 2 ? 0u : ~0u;
          w.v(0, l) = std::bit_cast<uint32_t>(a[lane]);
          w.v(1, l) = seed[lane];
          w.v(2, l) = w.v(3, l) = 0x5a5a5a5au;
        });
        for (unsigned lane = 0; lane < w.lanes(); ++lane) {
          auto sr = [&](float x) {
            const uint32_t u = std::bit_cast<uint32_t>(x);
            const uint32_t add = seed[lane] >> (bf8 ? 11 : 12);
            return std::bit_cast<float>((u & 0xff800000u) | ((u + add) & 0x7fffffu));
          };
          const float t1 = sr(a[lane]), t3 = sr(std::fabs(a[lane]));
          const uint32_t d2 = sim::test::lane_vgpr(w, 2, lane),
                         d3 = sim::test::lane_vgpr(w, 3, lane);
          EXPECT_EQ(d2 & 0xffff00ffu, 0x5a5a005au) << "kept bytes";
          EXPECT_EQ(d3 & 0x00ffffffu, 0x005a5a5au) << "kept bytes";
          expect_f8(uint8_t(d2 >> 8), ref_to_f8(t1, f, true, false), f, "sr", a[lane]);
          expect_f8(uint8_t(d3 >> 24), ref_to_f8(t3, f, true, false), f, "sr |x|", a[lane]);
        }
      }
    }
}

// V_DOT4_F32_{FP8,BF8}_{FP8,BF8}: tmp = S2, then tmp += a[k] * b[k] for k = 0..3 in f32.
TEST(F8Execution, DotProductsOfFourPairs) {
  for (uint32_t op = 36; op <= 39; ++op)
    for (bool wave64 : {false, true}) {
      const bool a_bf8 = op == 37 || op == 39, b_bf8 = op == 36 || op == 39;
      std::mt19937 rng(op + 10 * wave64);
      Kernel r;
      r.wave64 = wave64;
      // v_dot4_f32_* v3, v0, v1, v2 ; ... v4, v0, v1, -|v2| (neg_lo:[0,0,1] neg_hi:[0,0,1])
      append(r.code,
             {0xCC000000u | op << 16 | 1u << 14 | 3u, 3u << 27 | V(2) << 18 | V(1) << 9 | V(0)});
      append(r.code, {0xCC000000u | op << 16 | 1u << 14 | 4u << 8 | 4u,
                      4u << 29 | 3u << 27 | V(2) << 18 | V(1) << 9 | V(0)});
      for (unsigned round = 0; round < 4; ++round) {
        std::vector<uint32_t> a(64), b(64);
        std::vector<float> c(64);
        Wave w = run(r, 6, [&](Wave& w, unsigned l, unsigned lane) {
          a[lane] = uint32_t(rng());
          b[lane] = uint32_t(rng());
          c[lane] = rng() % 4 ? float(int(rng() % 2000) - 1000) / 8 : edge_f32(rng, kFp8);
          w.v(0, l) = a[lane];
          w.v(1, l) = b[lane];
          w.v(2, l) = std::bit_cast<uint32_t>(c[lane]);
        });
        for (unsigned lane = 0; lane < w.lanes(); ++lane)
          for (bool mods : {false, true}) {
            float acc = mods ? -std::fabs(c[lane]) : c[lane];
            for (unsigned k = 0; k < 4; ++k)
              acc += float(ref_value(uint8_t(a[lane] >> (8 * k)), a_bf8 ? kBf8 : kFp8) *
                           ref_value(uint8_t(b[lane] >> (8 * k)), b_bf8 ? kBf8 : kFp8));
            const float got = std::bit_cast<float>(sim::test::lane_vgpr(w, mods ? 4 : 3, lane));
            if (std::isnan(acc))
              EXPECT_TRUE(std::isnan(got)) << "op " << op;
            else
              EXPECT_EQ(std::bit_cast<uint32_t>(got), std::bit_cast<uint32_t>(acc))
                  << "op " << op << " lane " << lane << std::hex << " a 0x" << a[lane] << " b 0x"
                  << b[lane];
          }
      }
    }
}

} // namespace
