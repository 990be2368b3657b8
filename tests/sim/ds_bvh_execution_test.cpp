// The ray-tracing stack of the LDS: gfx11's ds_bvh_stack_rtn_b32 and gfx12's
// ds_bvh_stack_push4_pop1/push8_pop1_rtn_b32 and push8_pop2_rtn_b64, wave32 and wave64, against
// the manuals' pseudocode (RDNA3 ISA manual DS_BVH_STACK_RTN_B32, RDNA4 ISA manual 12.5.3) with
// the address encoding and stack conventions ds_bvh.cpp documents. Words as llvm-mc-22
// -show-encoding gives them: "ds_bvh_stack_rtn_b32 v10, v0, v1, v[2:5]" is 0xdab40000 0x0a020100
// (-mcpu=gfx1100), "ds_bvh_stack_push8_pop2_rtn_b64 v[10:11], v0, v1, v[2:9] offset:3" is
// 0xdb880003 0x0a020100 (-mcpu=gfx1201).
#include "tests/sim/flat_memory.h"
#include "tests/sim/shader_runner.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

using namespace sim::shader;

namespace {

constexpr uint64_t kCode = 0x10000;
constexpr uint32_t kInvalid = 0xffffffffu;
constexpr uint32_t kLdsBytes = 64 * 1024;
using FlatMemory = sim::test::FlatMemory<0x10000, 0x1000>;

enum : uint32_t { kRtn = 173, kPush4 = 224, kPush8Pop1 = 225, kPush8Pop2 = 226 };

// DS: OFFSET0 [7:0], OFFSET1 [15:8], OP [25:18]; ADDR, DATA0, DATA1, VDST a byte each.
void put_ds(std::vector<uint32_t>& code, uint32_t op, uint32_t offset, uint32_t vdst,
            uint32_t data1, uint32_t data0, uint32_t addr) {
  code.push_back(0xD8000000u | op << 18 | offset);
  code.push_back(vdst << 24 | data1 << 16 | data0 << 8 | addr);
}

// The reference: one lane's stack as the pseudocode reads, with ds_bvh.cpp's DECODE_ADDR /
// ENCODE_ADDR. `lds` is the work-group's LDS in dwords.
struct RefStack {
  Gfx gfx;
  uint32_t size; // entries
  uint32_t addr;
  std::vector<uint32_t>* lds;
  uint32_t base = 0;  // DECODE_ADDR's stack_base, once per instruction
  uint32_t index = 0; // gfx11: DECODE_ADDR's stack_index

  uint32_t& entry(uint32_t k) { return (*lds)[base + (k % size) * 32]; }
  uint32_t valid() const { return addr & 31; }
  uint32_t ring() const { return (addr >> 10) & 31; }
  void set_ring(uint32_t r, uint32_t v) { addr = (addr & ~0x7c1fu) | r << 10 | v; }

  void push(uint32_t d) {
    if (gfx == Gfx::v11) {
      entry(index++) = d;
      ++addr; // ENCODE_ADDR(base, index) is base << 18 plus the index
    } else {
      entry(ring()) = d;
      if (valid() == size) addr |= 1u << 30;
      set_ring((ring() + 1) % size, valid() == size ? size : valid() + 1);
    }
  }
  uint32_t pop() {
    if (gfx == Gfx::v11) {
      --addr;
      if (index == 0) return kInvalid;
      const uint32_t v = entry(--index);
      entry(index) = kInvalid;
      return v;
    }
    if (valid() == 0) return kInvalid;
    const uint32_t r = (ring() + size - 1) % size;
    set_ring(r, valid() - 1);
    const uint32_t v = entry(r);
    entry(r) = kInvalid;
    return v;
  }
  // One instruction: returns the first (and in `second` the second) returned dword.
  uint32_t step(unsigned pushes, bool pop2, uint32_t last, const uint32_t* data, uint32_t* second) {
    base = gfx == Gfx::v11 ? addr >> 18 : (addr >> 15) & 0x3fff;
    index = addr & 0x3ffff;
    auto ok = [&](uint32_t d) { return d != kInvalid && !(last != kInvalid && d == last); };
    for (unsigned i = 0; i < pushes; ++i) {
      if (ok(data[i]))
        push(data[i]);
      else if (data[i] == last)
        break;
    }
    const uint32_t first = ok(data[pushes]) ? data[pushes] : pop();
    *second = kInvalid;
    if (pop2 && valid() != 0 && ok(entry(ring() + size - 1))) *second = pop();
    return first;
  }
};

struct Variant {
  Gfx gfx;
  uint32_t op;
  uint32_t offset; // gfx11: OFFSET1[5:4] picks 8 << n entries; gfx12: OFFSET0[4:0] entries
  uint32_t size;
  const char* name;
};
const Variant kVariants[] = {
    {Gfx::v11, kRtn, 0, 8, "gfx11 rtn, 8 entries"},
    {Gfx::v11, kRtn, 1u << 12, 16, "gfx11 rtn, 16 entries"},
    {Gfx::v12, kPush4, 8, 8, "gfx12 push4_pop1, 8 entries"},
    {Gfx::v12, kPush8Pop1, 5, 5, "gfx12 push8_pop1, 5 entries"},
    {Gfx::v12, kPush8Pop2, 0, 31, "gfx12 push8_pop2, OFFSET0 0: 31 entries"},
    {Gfx::v12, kPush8Pop2, 6, 6, "gfx12 push8_pop2, 6 entries"},
};

// Ten instructions in a row on every lane with random child pointers (some invalid, some the last
// visited node): the returned dwords, the final ADDR and the LDS agree with the reference.
TEST(DsBvhExecution, RandomTraversalsMatchThePseudocode) {
  constexpr unsigned kSteps = 10;
  for (const Variant& v : kVariants)
    for (bool wave64 : {false, true}) {
      SCOPED_TRACE(std::string(v.name) + (wave64 ? " wave64" : " wave32"));
      const bool gfx11 = v.gfx == Gfx::v11;
      const unsigned pushes = v.op == kRtn || v.op == kPush4 ? 3 : 7;
      const bool pop2 = v.op == kPush8Pop2;
      std::vector<uint32_t> code;
      // Step s: ADDR v0, DATA0 v[2+s], DATA1 v[16+8s...], VDST v[100+2s...].
      for (unsigned s = 0; s < kSteps; ++s)
        put_ds(code, v.op, v.offset, 100 + 2 * s, 16 + 8 * s, 2 + s, 0);
      code.push_back(sim::test::kEndpgm);
      FlatMemory mem;
      sim::test::put_words(mem, kCode, code);
      sim::test::WaveRunner runner(mem, kCode, v.gfx, kLdsBytes);
      Wave w;
      sim::test::start_wave(w, wave64, 128, kCode);
      std::mt19937 rng(v.op * 7 + v.size + wave64);
      std::vector<uint32_t> lds(kLdsBytes / 4, 0);
      std::vector<uint32_t> want(w.lanes() * 2 * kSteps);
      std::vector<uint32_t> want_addr(w.lanes());
      std::vector<RefStack> refs;
      std::vector<uint32_t> lasts(w.lanes() * kSteps), datas(w.lanes() * kSteps * 8);
      for (unsigned lane = 0; lane < w.lanes(); ++lane) {
        w.select_half(lane / 32);
        // Mesa's layout: lanes interleave, each 32-lane group after the previous one's stacks.
        const uint32_t base = lane % 32 + (lane / 32) * v.size * 32 + 7;
        refs.push_back(RefStack{v.gfx, v.size, gfx11 ? base << 18 : base << 15, &lds});
        w.v(0, lane % 32) = refs.back().addr;
        for (unsigned s = 0; s < kSteps; ++s) {
          const uint32_t last = rng() % 4 == 0 ? kInvalid : 100 + rng() % 8;
          uint32_t* data = &datas[(lane * kSteps + s) * 8];
          for (unsigned i = 0; i < 8; ++i) {
            const unsigned pick = rng() % 8;
            data[i] = pick == 0 ? kInvalid : pick == 1 ? last : 100 + rng() % 50;
          }
          lasts[lane * kSteps + s] = last;
          w.v(2 + s, lane % 32) = last;
          for (unsigned i = 0; i < 8; ++i) w.v(16 + 8 * s + i, lane % 32) = data[i];
        }
      }
      // Instruction by instruction, lane by lane as the wave runs them: a stack popped past its
      // bottom borrows from its base and reaches its neighbour's entries.
      for (unsigned s = 0; s < kSteps; ++s)
        for (unsigned lane = 0; lane < w.lanes(); ++lane) {
          uint32_t second;
          want[(lane * kSteps + s) * 2] = refs[lane].step(pushes, pop2, lasts[lane * kSteps + s],
                                                          &datas[(lane * kSteps + s) * 8], &second);
          want[(lane * kSteps + s) * 2 + 1] = second;
          want_addr[lane] = refs[lane].addr;
        }
      w.select_half(0);
      runner.run(w);
      ASSERT_TRUE(w.done);
      for (unsigned lane = 0; lane < w.lanes(); ++lane) {
        w.select_half(lane / 32);
        for (unsigned s = 0; s < kSteps; ++s) {
          EXPECT_EQ(w.v(100 + 2 * s, lane % 32), want[(lane * kSteps + s) * 2])
              << "lane " << lane << " step " << s;
          if (pop2)
            EXPECT_EQ(w.v(101 + 2 * s, lane % 32), want[(lane * kSteps + s) * 2 + 1])
                << "second pop, lane " << lane << " step " << s;
        }
        EXPECT_EQ(w.v(0, lane % 32), want_addr[lane]) << "ADDR, lane " << lane;
      }
      w.select_half(0);
      std::vector<uint32_t> got(kLdsBytes / 4);
      runner.executor.read_lds(0, got.data(), kLdsBytes);
      EXPECT_EQ(got, lds);
    }
}

// Worked by hand from the RDNA3 pseudocode, gfx11, 8 entries, one lane at dword base 3:
// push 11, 12, 13 and return 14; pop 13; push 21 but stop at the last visited node 22 and pop
// 21; pop 12. Popped entries read back as INVALID_NODE.
TEST(DsBvhExecution, Gfx11WorkedExample) {
  std::vector<uint32_t> code;
  for (unsigned s = 0; s < 4; ++s) put_ds(code, kRtn, 0, 100 + s, 16 + 4 * s, 2 + s, 0);
  code.push_back(sim::test::kEndpgm);
  FlatMemory mem;
  sim::test::put_words(mem, kCode, code);
  sim::test::WaveRunner runner(mem, kCode, Gfx::v11, kLdsBytes);
  Wave w;
  sim::test::start_wave(w, false, 128, kCode);
  w.sgpr[src::kExecLo] = 1;
  const uint32_t data[4][4] = {{11, 12, 13, 14},
                               {kInvalid, kInvalid, kInvalid, kInvalid},
                               {21, 22, 23, kInvalid},
                               {kInvalid, kInvalid, kInvalid, kInvalid}};
  const uint32_t last[4] = {kInvalid, kInvalid, 22, kInvalid};
  w.v(0, 0) = 3u << 18;
  for (unsigned s = 0; s < 4; ++s) {
    w.v(2 + s, 0) = last[s];
    for (unsigned i = 0; i < 4; ++i) w.v(16 + 4 * s + i, 0) = data[s][i];
  }
  runner.run(w);
  ASSERT_TRUE(w.done);
  EXPECT_EQ(w.v(100, 0), 14u); // DATA1[3] valid: returned, nothing popped
  EXPECT_EQ(w.v(101, 0), 13u); // all invalid: pop
  EXPECT_EQ(w.v(102, 0), 21u); // 21 pushed, 22 == last node stops the pushes, then pop 21
  EXPECT_EQ(w.v(103, 0), 12u);
  EXPECT_EQ(w.v(0, 0), (3u << 18) + 1); // 11 remains
  uint32_t entry[3];
  for (unsigned k = 0; k < 3; ++k) runner.executor.read_lds(4 * (3 + 32 * k), &entry[k], 4);
  EXPECT_EQ(entry[0], 11u);
  EXPECT_EQ(entry[1], kInvalid); // popped entries are cleared
  EXPECT_EQ(entry[2], kInvalid);
}

// gfx12: eight pushes into a 4-entry ring lose the oldest four and set has_overflowed (bit 30);
// pop2 returns the two newest; the valid count and ring position follow.
TEST(DsBvhExecution, Gfx12OverflowAndDoublePop) {
  std::vector<uint32_t> code;
  put_ds(code, kPush8Pop2, 4, 100, 16, 2, 0);
  code.push_back(sim::test::kEndpgm);
  FlatMemory mem;
  sim::test::put_words(mem, kCode, code);
  sim::test::WaveRunner runner(mem, kCode, Gfx::v12, kLdsBytes);
  Wave w;
  sim::test::start_wave(w, false, 128, kCode);
  w.sgpr[src::kExecLo] = 1;
  w.v(0, 0) = 5u << 15;
  w.v(2, 0) = kInvalid;
  for (unsigned i = 0; i < 7; ++i) w.v(16 + i, 0) = 1 + i; // pushes 1..7
  w.v(23, 0) = kInvalid;                                   // then pop
  runner.run(w);
  ASSERT_TRUE(w.done);
  EXPECT_EQ(w.v(100, 0), 7u);
  EXPECT_EQ(w.v(101, 0), 6u);
  // 7 pushes: ring at 7 % 4 = 3, 4 valid, overflowed; two pops: ring 1, 2 valid.
  EXPECT_EQ(w.v(0, 0), 5u << 15 | 1u << 30 | 1u << 10 | 2u);
}

} // namespace
