// VOPD pairs with the dot products v_dual_dot2acc_f32_f16 and v_dual_dot2acc_f32_bf16 (VOPD
// OPX/OPY 12 and 13), on gfx11 and gfx12, wave32 and wave64: randomised f16/bf16 halves against
// D += S0.lo * S1.lo + S0.hi * S1.hi from the RDNA3 ISA manual. The words follow the VOPD layout
// llvm-mc-22 -show-encoding gives for "v_dual_dot2acc_f32_f16 v0, v1, v2 :: v_dual_dot2acc_f32_bf16
// v3, v4, v5" (0xc8340501 0x00020504).
#include "tests/sim/flat_memory.h"
#include "tests/sim/shader_runner.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <random>

using namespace sim::shader;

namespace {

constexpr uint64_t kCode = 0x10000;
using FlatMemory = sim::test::FlatMemory<0x10000, 0x1000>;

// A half's value: f16 (1 sign, 5 exponent, 10 mantissa bits) or bf16 (the high half of an f32).
double f16(uint16_t h) {
  const int e = (h >> 10) & 0x1f, m = h & 0x3ff;
  const double mag = e == 0 ? std::ldexp(m, -24) : std::ldexp(1024 + m, e - 25);
  return h >> 15 ? -mag : mag;
}
double bf16(uint16_t h) {
  return std::bit_cast<float>(uint32_t(h) << 16);
}

// Finite halves, a third of them zero or tiny, the rest of moderate size.
uint16_t pick_half(std::mt19937& rng, bool bf) {
  const uint32_t r = rng();
  const uint16_t sign = uint16_t(r & 0x8000);
  if (r % 5 == 0) return sign | uint16_t((r >> 4) & (bf ? 0x7f : 0x3ff)); // zero or denormal
  if (bf) return sign | uint16_t((0x30 + (r >> 8) % 0x20) << 7 | ((r >> 16) & 0x7f));
  return sign | uint16_t((6 + (r >> 8) % 18) << 10 | ((r >> 16) & 0x3ff));
}

TEST(VopdExecution, Dot2AccPairs) {
  for (Gfx gfx : {Gfx::v11, Gfx::v12})
    for (bool wave64 : {false, true}) {
      std::mt19937 rng(5);
      FlatMemory mem;
      mem.put<uint32_t>(kCode, 0xC8000000u | 12u << 22 | 13u << 17 | 2u << 9 | 257u);
      mem.put<uint32_t>(kCode + 4, 0u << 24 | 1u << 17 | 5u << 9 | 260u);
      mem.put<uint32_t>(kCode + 8, sim::test::kEndpgm);
      sim::test::WaveRunner runner(mem, kCode, gfx);
      Wave w;
      sim::test::start_wave(w, wave64, 8, kCode);
      uint32_t in[64][6];
      for (unsigned lane = 0; lane < w.lanes(); ++lane) {
        w.select_half(lane / 32);
        for (unsigned reg = 0; reg < 6; ++reg) {
          const bool bf = reg >= 3;
          in[lane][reg] = reg % 3 == 0
                              ? std::bit_cast<uint32_t>(float(int(rng() % 2001) - 1000) / 64)
                              : pick_half(rng, bf) | uint32_t(pick_half(rng, bf)) << 16;
          w.v(reg, lane % 32) = in[lane][reg];
        }
      }
      w.select_half(0);
      runner.run(w);
      ASSERT_TRUE(w.done);
      for (unsigned lane = 0; lane < w.lanes(); ++lane) {
        const uint32_t* v = in[lane];
        const double x = double(std::bit_cast<float>(v[0])) +
                         f16(uint16_t(v[1])) * f16(uint16_t(v[2])) +
                         f16(uint16_t(v[1] >> 16)) * f16(uint16_t(v[2] >> 16));
        const double y = double(std::bit_cast<float>(v[3])) +
                         bf16(uint16_t(v[4])) * bf16(uint16_t(v[5])) +
                         bf16(uint16_t(v[4] >> 16)) * bf16(uint16_t(v[5] >> 16));
        w.select_half(lane / 32);
        EXPECT_EQ(std::bit_cast<float>(w.v(0, lane % 32)), float(x))
            << (gfx == Gfx::v11 ? "gfx11" : "gfx12") << (wave64 ? " wave64" : " wave32") << " lane "
            << lane;
        EXPECT_EQ(std::bit_cast<float>(w.v(3, lane % 32)), float(y)) << "bf16 lane " << lane;
        w.select_half(0);
      }
    }
}

} // namespace
