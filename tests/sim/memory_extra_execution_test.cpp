// The less common LDS and FLAT-family instructions, wave32 and wave64, against references
// written from the RDNA3/RDNA4 ISA manuals: ds_append/ds_consume (the counter at M0[15:0] +
// offset moves by the active lanes' count, each active lane gets the value before), the _addtid_
// loads and stores (address M0[15:0] or SADDR, + offset + lane id * 4), gfx12's
// ds_bpermute_fi_b32 (reads inactive lanes too), the packed f16/bf16 atomic adds, and the
// block moves (M0 picks VGPRs; skipped VGPRs skip their dword). Encodings follow
// llvm-mc-22 -show-encoding (e.g. "ds_append v4 offset:16": 0xd8f80010 0x04000000).
#include "tests/sim/flat_memory.h"
#include "tests/sim/shader_runner.h"

#include "sim/shader/float_ops.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <random>
#include <vector>

using namespace sim::shader;

namespace {

constexpr uint64_t kCode = 0x10000, kData = 0x14000;
using FlatMemory = sim::test::FlatMemory<0x10000, 0x10000>;
constexpr uint32_t kSentinel = 0xdeadbeefu;
constexpr uint32_t kSetExecAll[] = {0xBEFE00C1u, 0xBEFF00C1u}; // s_mov_b32 exec_lo/exec_hi, -1

std::vector<uint32_t> ds(uint32_t op, uint32_t offset, uint32_t vdst, uint32_t data,
                         uint32_t addr) {
  return {0xD8000000u | op << 18 | offset, vdst << 24 | data << 8 | addr};
}
// GLOBAL (segment 2) with SADDR: gfx11 is 64 bits, gfx12 96 bits (RDNA3/RDNA4 ISA manuals,
// "FLAT"/"VFLAT" microcode formats).
std::vector<uint32_t> global(Gfx gfx, uint32_t op, uint32_t vdst, uint32_t addr, uint32_t data,
                             uint32_t saddr, uint32_t offset, uint32_t th = 0) {
  if (gfx == Gfx::v11)
    return {0xDC000000u | op << 18 | 2u << 16 | (th & 1) << 14 | (offset & 0x1fff),
            vdst << 24 | saddr << 16 | data << 8 | addr};
  return {0xEC000000u | 2u << 24 | op << 14 | saddr, data << 23 | th << 20 | vdst,
          offset << 8 | addr};
}

struct Program {
  std::vector<uint32_t> words;
  Program& operator<<(const std::vector<uint32_t>& w) {
    words.insert(words.end(), w.begin(), w.end());
    return *this;
  }
  Program& operator<<(uint32_t w) {
    words.push_back(w);
    return *this;
  }
};

// Runs `code` on one wave whose VGPRs `init` sets; `exec` is the wave's EXEC.
template <class Init>
Wave run(FlatMemory& mem, Program code, Gfx gfx, bool wave64, uint64_t exec, uint32_t m0,
         unsigned vgprs, Init&& init, uint32_t lds = 4096) {
  code << sim::test::kEndpgm;
  sim::test::put_words(mem, kCode, code.words);
  sim::test::WaveRunner runner(mem, kCode, gfx, lds);
  Wave w;
  sim::test::start_wave(w, wave64, vgprs, kCode);
  for (unsigned lane = 0; lane < w.lanes(); ++lane) {
    w.select_half(lane / 32);
    init(w, lane);
  }
  w.select_half(0);
  w.sgpr[src::kExecLo] = uint32_t(exec);
  w.sgpr[src::kExecHi] = wave64 ? uint32_t(exec >> 32) : 0;
  w.sgpr[src::kM0] = m0;
  runner.run(w);
  EXPECT_TRUE(w.done);
  return w;
}
uint64_t random_exec(std::mt19937& rng, bool wave64, unsigned round) {
  if (round == 0) return wave64 ? ~0ull : 0xffffffffull;
  const uint64_t m = uint64_t(rng()) | uint64_t(rng()) << 32;
  return (wave64 ? m : uint32_t(m)) | 1; // lane 0 active: the stores below need one lane
}

TEST(MemoryExtraExecution, DsAppendAndConsumeCountActiveLanesOncePerWave) {
  for (Gfx gfx : {Gfx::v11, Gfx::v12})
    for (bool wave64 : {false, true})
      for (unsigned round = 0; round < 6; ++round) {
        std::mt19937 rng(round + 10 * wave64);
        const uint64_t exec = random_exec(rng, wave64, round);
        const uint32_t count = uint32_t(std::popcount(exec));
        const uint32_t init = round == 1 ? 0xfffffff0u : round == 2 ? 0u : uint32_t(rng());
        // The counter at 0x60: M0's high half is not part of the address.
        Program p;
        p << ds(13, 0, 0, 1, 0)    // ds_store_b32 v0, v1
          << ds(62, 0x20, 2, 0, 0) // ds_append v2 offset:32
          << ds(62, 0x20, 3, 0, 0) // ds_append v3 offset:32
          << ds(61, 0x20, 4, 0, 0) // ds_consume v4 offset:32
          << ds(54, 0, 5, 0, 0);   // ds_load_b32 v5, v0
        FlatMemory mem;
        Wave w = run(mem, p, gfx, wave64, exec, 0xabcd0040u, 8, [&](Wave& w, unsigned lane) {
          w.v(0, lane % 32) = 0x60;
          w.v(1, lane % 32) = init;
          for (unsigned r = 2; r < 6; ++r) w.v(r, lane % 32) = kSentinel;
        });
        for (unsigned lane = 0; lane < w.lanes(); ++lane) {
          const bool on = (exec >> lane) & 1;
          EXPECT_EQ(sim::test::lane_vgpr(w, 2, lane), on ? init : kSentinel) << lane;
          EXPECT_EQ(sim::test::lane_vgpr(w, 3, lane), on ? init + count : kSentinel) << lane;
          EXPECT_EQ(sim::test::lane_vgpr(w, 4, lane), on ? init + 2 * count : kSentinel) << lane;
          EXPECT_EQ(sim::test::lane_vgpr(w, 5, lane), on ? init + count : kSentinel) << lane;
        }
      }
}

TEST(MemoryExtraExecution, DsAddtidLoadsAndStoresByLaneId) {
  for (Gfx gfx : {Gfx::v11, Gfx::v12})
    for (bool wave64 : {false, true})
      for (unsigned round = 0; round < 4; ++round) {
        std::mt19937 rng(round + 100);
        const uint64_t exec = random_exec(rng, wave64, round);
        const uint32_t m0 = 0xffff0000u | (4 * (rng() % 64)), offset = 4 * (rng() % 256);
        Program p;
        p << ds(176, offset, 0, 1, 0) // ds_store_addtid_b32 v1 offset:...
          << ds(177, offset, 2, 0, 0) // ds_load_addtid_b32 v2 offset:...
          << kSetExecAll[0] << kSetExecAll[1]
          << ds(54, 0, 3, 0, 0); // ds_load_b32 v3, v0 (every lane)
        FlatMemory mem;
        std::vector<uint32_t> data(64);
        Wave w = run(mem, p, gfx, wave64, exec, m0, 8, [&](Wave& w, unsigned lane) {
          data[lane] = uint32_t(rng());
          w.v(0, lane % 32) = (m0 & 0xffff) + offset + 4 * lane;
          w.v(1, lane % 32) = data[lane];
          w.v(2, lane % 32) = kSentinel;
        });
        for (unsigned lane = 0; lane < w.lanes(); ++lane) {
          const bool on = (exec >> lane) & 1;
          EXPECT_EQ(sim::test::lane_vgpr(w, 2, lane), on ? data[lane] : kSentinel) << lane;
          EXPECT_EQ(sim::test::lane_vgpr(w, 3, lane), on ? data[lane] : 0u) << lane;
        }
      }
}

// DS_BPERMUTE_FI_B32: VDST[l] = DATA0[(ADDR[l] + offset) / 4 % lanes] whether or not that lane
// is active; only active lanes are written.
TEST(MemoryExtraExecution, DsBpermuteFiReadsInactiveLanes) {
  for (bool wave64 : {false, true})
    for (unsigned round = 0; round < 4; ++round) {
      std::mt19937 rng(round + 200);
      const uint64_t exec = random_exec(rng, wave64, round);
      Program p;
      p << ds(205, 8, 2, 1, 0)  // ds_bpermute_fi_b32 v2, v0, v1 offset:8
        << ds(179, 8, 3, 1, 0); // ds_bpermute_b32 v3, v0, v1 offset:8
      FlatMemory mem;
      std::vector<uint32_t> addr(64), data(64);
      Wave w = run(mem, p, Gfx::v12, wave64, exec, 0, 8, [&](Wave& w, unsigned lane) {
        addr[lane] = uint32_t(rng());
        data[lane] = uint32_t(rng());
        w.v(0, lane % 32) = addr[lane];
        w.v(1, lane % 32) = data[lane];
        w.v(2, lane % 32) = w.v(3, lane % 32) = kSentinel;
      });
      const unsigned n = w.lanes();
      for (unsigned lane = 0; lane < n; ++lane) {
        const bool on = (exec >> lane) & 1;
        const unsigned src = ((addr[lane] + 8) / 4) % n;
        EXPECT_EQ(sim::test::lane_vgpr(w, 2, lane), on ? data[src] : kSentinel) << lane;
        EXPECT_EQ(sim::test::lane_vgpr(w, 3, lane),
                  on ? ((exec >> src) & 1 ? data[src] : 0u) : kSentinel)
            << lane;
      }
    }
}

// One half of a packed add, from the manual's "dst.f16 = src.f16 + tmp.f16": the sum rounded
// once to nearest even (_Float16 of an exact double sum; bf16 from the float sum, exact where
// rounding can matter, by the round-half-even rule on its bits).
uint16_t add_half(uint16_t a, uint16_t b, bool bf16) {
  if (!bf16)
    return std::bit_cast<uint16_t>(
        _Float16(double(std::bit_cast<_Float16>(a)) + double(std::bit_cast<_Float16>(b))));
  const float s = std::bit_cast<float>(uint32_t(a) << 16) + std::bit_cast<float>(uint32_t(b) << 16);
  const uint32_t u = std::bit_cast<uint32_t>(s);
  if (std::isnan(s)) return uint16_t(u >> 16 | 0x40);
  const uint32_t keep = u >> 16, rest = u & 0xffff;
  return uint16_t(keep + (rest > 0x8000 || (rest == 0x8000 && (keep & 1))));
}
bool same_half(uint16_t x, uint16_t y, bool bf16) {
  const uint16_t exp = bf16 ? 0x7f80 : 0x7c00, man = bf16 ? 0x7f : 0x3ff;
  auto nan = [&](uint16_t v) { return (v & exp) == exp && (v & man); };
  return nan(x) ? nan(y) : x == y;
}
uint16_t edge_half(std::mt19937& rng, bool bf16) {
  const uint16_t f16[] = {0x0000, 0x8000, 0x0001, 0x8001, 0x03ff, 0x0400, 0x3c00,
                          0xbc00, 0x7bff, 0xfbff, 0x7c00, 0xfc00, 0x7e00, 0x3555};
  const uint16_t bf[] = {0x0000, 0x8000, 0x0001, 0x8001, 0x007f, 0x0080, 0x3f80,
                         0xbf80, 0x7f7f, 0xff7f, 0x7f80, 0xff80, 0x7fc0, 0x3eab};
  return rng() % 3 ? uint16_t(rng()) : (bf16 ? bf : f16)[rng() % 14];
}
uint32_t packed_sum(uint32_t a, uint32_t b, bool bf16) {
  return add_half(uint16_t(a), uint16_t(b), bf16) |
         uint32_t(add_half(uint16_t(a >> 16), uint16_t(b >> 16), bf16)) << 16;
}
void expect_packed(uint32_t got, uint32_t want, bool bf16, const char* what) {
  EXPECT_TRUE(same_half(uint16_t(got), uint16_t(want), bf16) &&
              same_half(uint16_t(got >> 16), uint16_t(want >> 16), bf16))
      << what << std::hex << " got 0x" << got << " want 0x" << want;
}

TEST(MemoryExtraExecution, DsPackedHalfAndBf16Adds) {
  for (bool bf16 : {false, true})
    for (bool wave64 : {false, true}) {
      std::mt19937 rng(300 + bf16 + 2 * wave64);
      // ds_store_b32 v0, v1; ds_pk_add_rtn_*16 v3, v0, v2; ds_pk_add_*16 v0, v2 offset:0;
      // ds_load_b32 v4, v0: old + data + data.
      Program p;
      p << ds(13, 0, 0, 1, 0) << ds(bf16 ? 171 : 170, 0, 3, 2, 0)
        << ds(bf16 ? 155 : 154, 0, 0, 2, 0) << ds(54, 0, 4, 0, 0);
      FlatMemory mem;
      std::vector<uint32_t> old(64), data(64);
      Wave w = run(mem, p, Gfx::v12, wave64, wave64 ? ~0ull : 0xffffffffull, 0, 8,
                   [&](Wave& w, unsigned lane) {
                     old[lane] = edge_half(rng, bf16) | uint32_t(edge_half(rng, bf16)) << 16;
                     data[lane] = edge_half(rng, bf16) | uint32_t(edge_half(rng, bf16)) << 16;
                     w.v(0, lane % 32) = 4 * lane;
                     w.v(1, lane % 32) = old[lane];
                     w.v(2, lane % 32) = data[lane];
                   });
      for (unsigned lane = 0; lane < w.lanes(); ++lane) {
        EXPECT_EQ(sim::test::lane_vgpr(w, 3, lane), old[lane]) << lane;
        const uint32_t once = packed_sum(old[lane], data[lane], bf16);
        expect_packed(sim::test::lane_vgpr(w, 4, lane), packed_sum(once, data[lane], bf16), bf16,
                      "ds");
      }
    }
}

// global_atomic_pk_add_f16/bf16 with TH_ATOMIC_RETURN, and flat_atomic_pk_add_* without.
TEST(MemoryExtraExecution, GlobalAndFlatPackedAdds) {
  for (bool bf16 : {false, true}) {
    std::mt19937 rng(400 + bf16);
    const uint32_t op = bf16 ? 90 : 89;
    Program p;
    p << global(Gfx::v12, op, 3, 0, 2, 0x7c, 0, 1) // global_atomic_pk_add_* v3, v[0:1], v2, off
      << std::vector<uint32_t>{0xEC000000u | op << 14 | 0x7cu, 2u << 23,
                               0u}; // flat_..., v[0:1], v2
    FlatMemory mem;
    std::vector<uint32_t> old(32), data(32);
    for (unsigned lane = 0; lane < 32; ++lane) {
      old[lane] = edge_half(rng, bf16) | uint32_t(edge_half(rng, bf16)) << 16;
      data[lane] = edge_half(rng, bf16) | uint32_t(edge_half(rng, bf16)) << 16;
      mem.put<uint32_t>(kData + 4 * lane, old[lane]);
    }
    Wave w = run(mem, p, Gfx::v12, false, 0xffffffffull, 0, 8, [&](Wave& w, unsigned lane) {
      w.v(0, lane) = uint32_t(kData + 4 * lane);
      w.v(1, lane) = 0;
      w.v(2, lane) = data[lane];
    });
    for (unsigned lane = 0; lane < 32; ++lane) {
      EXPECT_EQ(w.v(3, lane), old[lane]) << lane;
      const uint32_t once = packed_sum(old[lane], data[lane], bf16);
      expect_packed(mem.get<uint32_t>(kData + 4 * lane), packed_sum(once, data[lane], bf16), bf16,
                    "global+flat");
    }
  }
}

// global_store_addtid_b32 v1, s[2:3] offset:O and global_load_addtid_b32 v2, s[2:3] offset:O:
// the dword at s[2:3] + O + 4 * lane id.
TEST(MemoryExtraExecution, GlobalAddtidLoadsAndStoresByLaneId) {
  for (Gfx gfx : {Gfx::v11, Gfx::v12})
    for (bool wave64 : {false, true})
      for (unsigned round = 0; round < 3; ++round) {
        std::mt19937 rng(500 + round);
        const uint64_t exec = random_exec(rng, wave64, round);
        const uint32_t offset = 4 * (rng() % 64);
        Program p;
        p << global(gfx, 41, 0, 0, 1, 2, offset) << global(gfx, 40, 2, 0, 0, 2, offset);
        FlatMemory mem;
        for (unsigned i = 0; i < 64 + 64; ++i) mem.put<uint32_t>(kData + 4 * i, kSentinel);
        std::vector<uint32_t> data(64);
        auto init = [&](Wave& w, unsigned lane) {
          data[lane] = uint32_t(rng());
          w.v(1, lane % 32) = data[lane];
          w.v(2, lane % 32) = 0x55555555u;
        };
        // s[2:3] = kData: set through the SGPR file before the run.
        p.words.insert(p.words.begin(), {0xBE820000u | 0xFFu, uint32_t(kData), 0xBE830080u});
        Wave w = run(mem, p, gfx, wave64, exec, 0, 8, init);
        for (unsigned lane = 0; lane < w.lanes(); ++lane) {
          const bool on = (exec >> lane) & 1;
          EXPECT_EQ(mem.get<uint32_t>(kData + offset + 4 * lane), on ? data[lane] : kSentinel)
              << lane;
          EXPECT_EQ(sim::test::lane_vgpr(w, 2, lane), on ? data[lane] : 0x55555555u) << lane;
        }
      }
}

// global_load_block v[4:35], v[0:1], off / global_store_block v[2:3], v[4:35], off (and the
// scratch forms, v0 and v2 offsets): VGPR n <-> the dword at address + 4n when M0 bit n is set.
TEST(MemoryExtraExecution, BlockMovesFollowM0) {
  for (bool scratch : {false, true})
    for (bool wave64 : {false, true})
      for (unsigned round = 0; round < 3; ++round) {
        std::mt19937 rng(600 + round + 4 * scratch);
        const uint32_t m0 = round == 0 ? ~0u : round == 1 ? 0u : uint32_t(rng());
        const uint32_t seg = scratch ? 1 : 2;
        auto block = [&](uint32_t op, uint32_t vdst, uint32_t data, uint32_t addr) {
          // VADDR (scratch: SVE set, a 32-bit offset; global: a 64-bit address); no SADDR.
          return std::vector<uint32_t>{0xEC000000u | seg << 24 | op << 14 | 0x7cu,
                                       data << 23 | (scratch ? 1u : 0u) << 17 | vdst, addr};
        };
        Program p;
        p << std::vector<uint32_t>{0xEC000000u | 2u << 24 | 79u << 14 | 0x7cu, 0u, 0u} // wbinv
          << block(83, 4, 0, 0) << block(84, 0, 4, 2);
        FlatMemory mem;
        const unsigned lanes = wave64 ? 64 : 32;
        // Global: each lane's 32 dwords at kData + 128 * lane, out at kOut + 128 * lane;
        // scratch: the lane's private dwords 0..31, out at 64..95.
        const uint64_t kOut = kData + 0x2000;
        std::vector<uint32_t> src(64 * 32);
        for (unsigned lane = 0; lane < lanes; ++lane)
          for (unsigned n = 0; n < 32; ++n) {
            src[lane * 32 + n] = uint32_t(rng());
            const uint64_t at =
                scratch ? kData + (n * lanes + lane) * 4 : kData + 128 * lane + 4 * n;
            mem.put<uint32_t>(at, src[lane * 32 + n]);
            const uint64_t out =
                scratch ? kData + ((64 + n) * lanes + lane) * 4 : kOut + 128 * lane + 4 * n;
            mem.put<uint32_t>(out, kSentinel);
          }
        p << sim::test::kEndpgm;
        sim::test::put_words(mem, kCode, p.words);
        sim::test::WaveRunner runner(mem, kCode, Gfx::v12, 0);
        Wave w;
        sim::test::start_wave(w, wave64, 40, kCode);
        if (scratch) w.scratch_base = kData, w.scratch_bytes = 512 * lanes;
        for (unsigned lane = 0; lane < lanes; ++lane) {
          w.select_half(lane / 32);
          w.v(0, lane % 32) = scratch ? 0u : uint32_t(kData + 128 * lane);
          w.v(1, lane % 32) = w.v(3, lane % 32) = 0;
          w.v(2, lane % 32) = scratch ? 256u : uint32_t(kOut + 128 * lane);
          for (unsigned n = 0; n < 32; ++n) w.v(4 + n, lane % 32) = kSentinel;
        }
        w.select_half(0);
        w.sgpr[src::kM0] = m0;
        runner.run(w);
        ASSERT_TRUE(w.done);
        for (unsigned lane = 0; lane < lanes; ++lane)
          for (unsigned n = 0; n < 32; ++n) {
            const bool on = (m0 >> n) & 1;
            EXPECT_EQ(sim::test::lane_vgpr(w, 4 + n, lane), on ? src[lane * 32 + n] : kSentinel)
                << lane << " " << n;
            const uint64_t out =
                scratch ? kData + ((64 + n) * lanes + lane) * 4 : kOut + 128 * lane + 4 * n;
            EXPECT_EQ(mem.get<uint32_t>(out), on ? src[lane * 32 + n] : kSentinel)
                << lane << " " << n;
          }
      }
}

// A block load past the wave's VGPRs loads what fits and faults on nothing (RDNA4 ISA manual,
// 11.5.1); a store reads VGPR 0 for the missing ones.
TEST(MemoryExtraExecution, BlockMovesBeyondTheVgprsAreDropped) {
  FlatMemory mem;
  for (unsigned n = 0; n < 32; ++n) mem.put<uint32_t>(kData + 4 * n, 100 + n);
  Program p;
  p << std::vector<uint32_t>{0xEC000000u | 2u << 24 | 83u << 14 | 0x7cu, 4u, 0u}
    << std::vector<uint32_t>{0xEC000000u | 2u << 24 | 84u << 14 | 0x7cu, 4u << 23, 256u << 8};
  Wave w = run(mem, p, Gfx::v12, false, 1, ~0u, 12, [&](Wave& w, unsigned lane) {
    w.v(0, lane) = uint32_t(kData);
    w.v(1, lane) = 0;
  });
  for (unsigned n = 0; n < 8; ++n) EXPECT_EQ(w.v(4 + n, 0), 100 + n);
  for (unsigned n = 0; n < 32; ++n)
    EXPECT_EQ(mem.get<uint32_t>(kData + 256 + 4 * n), n < 8 ? 100 + n : uint32_t(kData)) << n;
}

} // namespace
