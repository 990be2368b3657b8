// Gathers in work-groups of several waves, through run_dispatch as the MEC starts them: each
// wave's global load whose lanes span pages gives the wave's turn away once its lines are
// requested (Executor::set_gather_yield), and runs when the turn comes back. Every lane must
// still load what its address holds, in wave32 and wave64, and a lane that faults must stop
// the dispatch at the same lane, with the same lanes' stores made before, as without it.
#include "tests/sim/flat_memory.h"
#include "tests/sim/shader_runner.h"

#include <gtest/gtest.h>

using namespace sim::shader;

namespace {

constexpr uint64_t kCode = 0x10000, kArgs = 0x12000, kOut = 0x13000;
constexpr unsigned kLanes = 128;                        // four wave32 waves, two wave64 ones
using Memory = sim::test::FlatMemory<0x10000, 0x20000>; // ends at 0x30000

// llvm-mc-22 -mcpu=gfx1100 -show-encoding of the text beside each line: out[x] = the dword at
// byte (x * 1033) & 0xfffc of a (about four lanes to a page: every wave spans pages).
constexpr uint32_t kProgram[] = {
    0xF4040080, 0xF8000000, // s_load_b64 s[2:3], s[0:1], 0x0
    0xF4040100, 0xF8000008, // s_load_b64 s[4:5], s[0:1], 0x8
    0xBF89FC07,             // s_waitcnt lgkmcnt(0)
    0x360200FF, 0x000003FF, // v_and_b32_e32 v1, 0x3ff, v0
    0x160402FF, 0x00000409, // v_mul_u32_u24_e32 v2, 0x409, v1
    0x360404FF, 0x0000FFFC, // v_and_b32_e32 v2, 0xfffc, v2
    0xDC520000, 0x03020002, // global_load_b32 v3, v2, s[2:3]
    0xBF8903F7,             // s_waitcnt vmcnt(0)
    0x30080282,             // v_lshlrev_b32_e32 v4, 2, v1
    0xDC6A0000, 0x00040304, // global_store_b32 v4, v3, s[4:5]
    0xBFB00000,             // s_endpgm
};

uint64_t offset_of(unsigned x) {
  return (x * 1033u) & 0xfffcu;
}

// `alignment`: SH_MEM_CONFIG.ALIGNMENT_MODE (the launch's default is UNALIGNED).
DispatchResult run(Memory& mem, uint64_t a, bool wave32, uint32_t alignment = 3) {
  sim::test::put_words(mem, kCode, kProgram);
  mem.put<uint64_t>(kArgs, a);
  mem.put<uint64_t>(kArgs + 8, kOut);
  for (uint64_t at = a & ~uint64_t(3); at + 4 <= 0x30000; at += 4)
    mem.put<uint32_t>(at, uint32_t(at * 7 + 1));
  for (unsigned x = 0; x < kLanes; ++x) mem.put<uint32_t>(kOut + 4 * x, 0xdeadbeef);
  auto launch = sim::test::one_group(kCode, kArgs, kLanes, wave32);
  launch.alignment_mode = alignment;
  return sim::test::dispatch(launch, mem);
}

} // namespace

TEST(GatherExecution, EveryLaneLoadsWhatItsAddressHolds) {
  for (const bool wave32 : {true, false}) {
    Memory mem;
    const uint64_t a = 0x20000;
    const DispatchResult r = run(mem, a, wave32);
    ASSERT_TRUE(r.ok) << r.fault;
    // Eleven instructions a wave: a gather whose turn was given away is counted once, when run.
    EXPECT_EQ(r.instructions, 11u * (wave32 ? 4 : 2));
    for (unsigned x = 0; x < kLanes; ++x)
      ASSERT_EQ(mem.get<uint32_t>(kOut + 4 * x), uint32_t((a + offset_of(x)) * 7 + 1))
          << "work-item " << x << (wave32 ? " wave32" : " wave64");
  }
}

TEST(GatherExecution, AFaultingLaneStopsTheDispatchWhereItWould) {
  // a + 0x8000 is the end of memory: work-item 32 (the second wave32 wave's first lane) is the
  // first whose address lies past it.
  Memory mem;
  const uint64_t a = 0x28000;
  ASSERT_LT(offset_of(31), 0x8000u);
  ASSERT_GE(offset_of(32), 0x8000u);
  const DispatchResult r = run(mem, a, true);
  ASSERT_FALSE(r.ok);
  EXPECT_TRUE(r.memory_fault);
  EXPECT_EQ(r.fault_address, (a + offset_of(32)) & ~uint64_t(4095)); // the page, as the GMC's
  for (unsigned x = 0; x < kLanes; ++x) {
    const uint32_t want = x < 32 ? uint32_t((a + offset_of(x)) * 7 + 1) : 0xdeadbeefu;
    ASSERT_EQ(mem.get<uint32_t>(kOut + 4 * x), want) << "work-item " << x;
  }
}

TEST(GatherExecution, MisalignedLanesFollowTheAlignmentMode) {
  // a 2 bytes past a dword: every lane is misaligned, so the gather's prefetched hosts must not
  // be taken as they are. DWORD rounds each address down (ISA manuals, "Alignment"), STRICT
  // faults at the first lane, UNALIGNED reads the 4 bytes asked for.
  const uint64_t a = 0x20002;
  auto word = [](uint64_t at) { return uint32_t(at * 7 + 1); }; // what run() stores at `at`
  for (const bool wave32 : {true, false}) {
    const char* name = wave32 ? " wave32" : " wave64";
    {
      Memory mem;
      const DispatchResult r = run(mem, a, wave32, 0); // DWORD
      ASSERT_TRUE(r.ok) << r.fault;
      for (unsigned x = 0; x < kLanes; ++x)
        ASSERT_EQ(mem.get<uint32_t>(kOut + 4 * x), word((a + offset_of(x)) & ~uint64_t(3)))
            << "work-item " << x << name;
    }
    {
      Memory mem;
      const DispatchResult r = run(mem, a, wave32, 1); // DWORD_STRICT
      ASSERT_FALSE(r.ok) << name;
      EXPECT_NE(r.fault.find("misaligned"), std::string::npos) << r.fault;
      for (unsigned x = 0; x < kLanes; ++x)
        ASSERT_EQ(mem.get<uint32_t>(kOut + 4 * x), 0xdeadbeefu) << "work-item " << x << name;
    }
    {
      Memory mem;
      const DispatchResult r = run(mem, a, wave32); // UNALIGNED
      ASSERT_TRUE(r.ok) << r.fault;
      for (unsigned x = 0; x < kLanes; ++x) {
        const uint64_t at = (a + offset_of(x)) & ~uint64_t(3);
        const uint32_t want = word(at) >> 16 | word(at + 4) << 16;
        ASSERT_EQ(mem.get<uint32_t>(kOut + 4 * x), want) << "work-item " << x << name;
      }
    }
  }
}
