// gfx12's transposing matrix loads, GLOBAL_LOAD_TR_B128 (16-bit elements) and GLOBAL_LOAD_TR_B64
// (8-bit), in wave32 and wave64, against the RDNA4 ISA manual (11.6 "WMMA Matrix Load Ops with
// Transpose"): lanes 0-31 each read 8 consecutive rows of one K of a column-major 16x16 matrix
// ("lane 0 loads ... K=0, M=0..7"), and the wave receives the matrix in the WMMA operand layout,
// written out here as AMD's Matrix Instruction Calculator gives it (RDNA4 A-matrix: wave32 16-bit
// lane l, element e: M = l % 16, K = 8 (e / 4) + 4 (l / 16) + e % 4; 8-bit byte b: K = 8 (l / 16)
// + b; wave64 16-bit element e: K = 8 (l / 32) + 4 (l / 16 % 2) + e; 8-bit: K = 8 (l / 16 % 2) +
// 4 (l / 32) + b). Random matrices and addresses; lanes 32-63's addresses are ignored, EXEC = 0 is
// a no-op and any other partial EXEC (undefined in the manual) faults.
#include "tests/sim/flat_memory.h"
#include "tests/sim/shader_runner.h"

#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

using namespace sim::shader;

namespace {

constexpr uint64_t kCode = 0x10000, kData = 0x14000;
using FlatMemory = sim::test::FlatMemory<0x10000, 0x10000>;

// llvm-mc-22 -mcpu=gfx1201 -show-encoding (wave64: the same words, v[4:5] / v4).
constexpr uint32_t kTrB128[] = {0xEE15C07C, 0x00000004,
                                0x00000000}; // global_load_tr_b128 v[4:7], v[0:1], off
constexpr uint32_t kTrB64[] = {0xEE16007C, 0x00000004,
                               0x00000000}; // global_load_tr_b64 v[4:5], v[0:1], off
constexpr uint32_t kTrB128Saddr[] = {
    0xEE15C002, 0x00000004, 0xFFFFF000}; // global_load_tr_b128 v[4:7], v0, s[2:3] offset:-16

struct Case {
  bool wave64;
  bool b128;
  std::string name() const {
    return std::string(b128 ? "b128" : "b64") + (wave64 ? "_wave64" : "_wave32");
  }
};

// Element `index` (16- or 8-bit) of the loaded VGPRs v4.. of `lane`.
uint32_t element(Wave& w, unsigned bits, unsigned lane, unsigned index) {
  const uint32_t word = sim::test::lane_vgpr(w, 4 + index * bits / 32, lane);
  return (word >> (index * bits % 32)) & ((1u << bits) - 1);
}

// Where the calculator puts A[m][k] of the 16x16 operand: {lane, element index}.
std::pair<unsigned, unsigned> wmma_place(bool wave64, unsigned bits, unsigned m, unsigned k) {
  if (!wave64)
    return bits == 16 ? std::pair{16 * (k / 4 % 2) + m, 4 * (k / 8) + k % 4}
                      : std::pair{16 * (k / 8) + m, k % 8};
  return bits == 16 ? std::pair{32 * (k / 8) + 16 * (k / 4 % 2) + m, k % 4}
                    : std::pair{32 * (k / 4 % 2) + 16 * (k / 8) + m, k % 4};
}

// Runs `code` on one wave; lane l's v[0:1] is addr[l] (lanes 32-63: `other`), `exec` its EXEC,
// the destination VGPRs start as 0x5a5a5a5a.
Wave run(FlatMemory& mem, std::span<const uint32_t> code, bool wave64,
         const std::vector<uint64_t>& addr, uint64_t other, uint64_t exec, uint64_t sbase = 0) {
  sim::test::put_words(mem, sim::test::put_words(mem, kCode, code),
                       std::span<const uint32_t>(&sim::test::kEndpgm, 1));
  sim::test::WaveRunner runner(mem, kCode, Gfx::v12);
  Wave w;
  sim::test::start_wave(w, wave64, 8, kCode);
  for (unsigned lane = 0; lane < w.lanes(); ++lane) {
    const uint64_t a = lane < 32 ? addr[lane] : other;
    w.whole_wave_v(0, lane) = uint32_t(a);
    w.whole_wave_v(1, lane) = uint32_t(a >> 32);
    for (unsigned r = 4; r < 8; ++r) w.whole_wave_v(r, lane) = 0x5a5a5a5a;
  }
  w.sgpr[src::kExecLo] = uint32_t(exec);
  w.sgpr[src::kExecHi] = wave64 ? uint32_t(exec >> 32) : 0;
  w.sgpr[2] = uint32_t(sbase);
  w.sgpr[3] = uint32_t(sbase >> 32);
  runner.run(w);
  return w;
}

class TransposedLoad : public testing::TestWithParam<Case> {};

TEST_P(TransposedLoad, AColumnMajorMatrixArrivesInTheWmmaLayout) {
  const Case c = GetParam();
  const unsigned bits = c.b128 ? 16 : 8, esize = bits / 8;
  std::mt19937 rng(c.wave64 * 2 + c.b128);
  for (int round = 0; round < 20; ++round) {
    FlatMemory mem;
    // A[m][k] column-major (address (16 k + m) * size), values random, edge ones salted in.
    uint32_t a[16][16];
    for (unsigned m = 0; m < 16; ++m)
      for (unsigned k = 0; k < 16; ++k) {
        uint32_t v = rng() & ((1u << bits) - 1);
        if (rng() % 8 == 0) v = (rng() % 2) ? (1u << bits) - 1 : 1u << (bits - 1);
        a[m][k] = v;
        std::memcpy(&mem.bytes[kData - 0x10000 + (16 * k + m) * esize], &v, esize);
      }
    // Lane 8g + j reads rows 8 (g % 2) .. + 7 of the K its elements j hold in the WMMA layout
    // (lane 0: K = 0, M = 0..7, as the manual says).
    std::vector<uint64_t> addr(32);
    for (unsigned lane = 0; lane < 32; ++lane) {
      const unsigned g = lane / 8, j = lane % 8;
      const unsigned k = bits == 16 ? 8 * (j / 4) + 4 * (g / 2) + j % 4 : 8 * (g / 2) + j;
      addr[lane] = kData + (16 * k + 8 * (g % 2)) * esize;
    }
    EXPECT_EQ(addr[0], kData);
    // Lanes 32-63's addresses are not used: unmapped, they would fault.
    Wave w = run(mem, c.b128 ? kTrB128 : kTrB64, c.wave64, addr, 0x8, ~uint64_t(0));
    ASSERT_TRUE(w.done);
    for (unsigned m = 0; m < 16; ++m)
      for (unsigned k = 0; k < 16; ++k) {
        const auto [lane, index] = wmma_place(c.wave64, bits, m, k);
        ASSERT_EQ(element(w, bits, lane, index), a[m][k]) << "A[" << m << "][" << k << "]";
      }
    // Nothing beyond the operand: wave64 writes half the VGPRs wave32 does.
    const unsigned regs = (c.b128 ? 4 : 2) / (c.wave64 ? 2 : 1);
    for (unsigned lane = 0; lane < w.lanes(); ++lane)
      for (unsigned r = 4 + regs; r < 8; ++r)
        ASSERT_EQ(sim::test::lane_vgpr(w, r, lane), 0x5a5a5a5au) << "v" << r;
  }
}

// The rule as lanes see it (wave32): the 8x8 transpose within each group of 8 lanes.
TEST(TransposedLoadWave32, AnyAddressesTransposeEightByEight) {
  for (const bool b128 : {true, false}) {
    const Case c{false, b128};
    SCOPED_TRACE(c.name());
    const unsigned bits = c.b128 ? 16 : 8, esize = bits / 8;
    std::mt19937 rng(11 + c.b128);
    FlatMemory mem;
    for (unsigned i = 0; i < 0x4000; ++i) mem.bytes[kData - 0x10000 + i] = uint8_t(rng());
    std::vector<uint64_t> addr(32);
    for (auto& x : addr) x = kData + 4 * (rng() % 0x800); // dword-aligned, anywhere
    Wave w = run(mem, c.b128 ? kTrB128 : kTrB64, false, addr, 0, 0xffffffffu);
    ASSERT_TRUE(w.done);
    // Lane 8g + i's element j is element i of what lane 8g + j read.
    for (unsigned lane = 0; lane < 32; ++lane)
      for (unsigned j = 0; j < 8; ++j) {
        uint32_t want = 0;
        std::memcpy(&want, &mem.bytes[addr[8 * (lane / 8) + j] - 0x10000 + (lane % 8) * esize],
                    esize);
        ASSERT_EQ(element(w, bits, lane, j), want) << "lane " << lane << " element " << j;
      }
  }
}

TEST_P(TransposedLoad, ExecZeroIsANopAndAPartialExecFaults) {
  const Case c = GetParam();
  FlatMemory mem;
  const std::vector<uint64_t> addr(32, kData);
  Wave w = run(mem, c.b128 ? kTrB128 : kTrB64, c.wave64, addr, kData, 0);
  ASSERT_TRUE(w.done);
  for (unsigned lane = 0; lane < w.lanes(); ++lane)
    ASSERT_EQ(sim::test::lane_vgpr(w, 4, lane), 0x5a5a5a5au);
  EXPECT_THROW((void)run(mem, c.b128 ? kTrB128 : kTrB64, c.wave64, addr, kData, 0xfffffffeu),
               ShaderFault);
}

TEST(TransposedLoadSaddr, ScalarBaseVectorOffsetAndImmediate) {
  FlatMemory mem;
  for (unsigned i = 0; i < 512; ++i) mem.bytes[kData - 0x10000 + i] = uint8_t(i * 7 + 3);
  std::vector<uint64_t> off(32); // v0: a 32-bit offset from s[2:3]; the immediate is -16
  for (unsigned lane = 0; lane < 32; ++lane) off[lane] = 16 * lane + 16;
  Wave w = run(mem, kTrB128Saddr, false, off, 0, 0xffffffffu, kData);
  ASSERT_TRUE(w.done);
  for (unsigned lane = 0; lane < 32; ++lane)
    for (unsigned j = 0; j < 8; ++j) {
      uint16_t want;
      std::memcpy(&want, &mem.bytes[kData - 0x10000 + 16 * (8 * (lane / 8) + j) + 2 * (lane % 8)],
                  2);
      ASSERT_EQ(element(w, 16, lane, j), want) << "lane " << lane << " element " << j;
    }
}

INSTANTIATE_TEST_SUITE_P(Forms, TransposedLoad,
                         testing::Values(Case{false, true}, Case{true, true}, Case{false, false},
                                         Case{true, false}),
                         [](const auto& info) { return info.param.name(); });

} // namespace
