// Decoded programs outlive their dispatch, as lines in the instruction cache do: reused until
// the cache is invalidated (ACQUIRE_MEM GLI_INV), even when the code under them changed. One
// program per code object serves every worker thread.
#include "sim/shader/dispatch.h"
#include "sim/shader/executor.h"
#include "sim/shader/worker_pool.h"
#include "tests/sim/shader_runner.h"

#include <gtest/gtest.h>

#include <cstring>
#include <thread>
#include <vector>

using namespace sim::shader;

namespace {

// Two pages of "VRAM" at VA 0x10000; the second can be unmapped.
struct FakeMemory : MemoryPort {
  std::vector<uint8_t> bytes = std::vector<uint8_t>(8192, 0);
  bool second_page_mapped = true;
  uint8_t* translate(uint64_t va, size_t len, bool write, bool execute) override {
    if (va < 0x10000 || va + len > 0x10000 + bytes.size() || (!second_page_mapped && va >= 0x11000))
      throw MemoryFault(va, write, "unmapped");
    return bytes.data() + (va - 0x10000);
  }
  void put(uint64_t va, uint32_t word) { std::memcpy(&bytes[va - 0x10000], &word, 4); }
};

constexpr uint32_t kSEndpgm = 0xBFB00000; // s_endpgm (llvm-mc-22 -mcpu=gfx1100)
constexpr uint32_t kSNop = 0xBF800000;    // s_nop 0

} // namespace

TEST(ProgramCache, ReusesAProgramWhileItsCodeIsUnchanged) {
  FakeMemory mem;
  mem.put(0x10000, kSNop);
  mem.put(0x10004, kSEndpgm);
  ProgramCache cache;
  Program& first = cache.get(0x10000, Gfx::v11, mem);
  EXPECT_EQ(first.at(0x10000).op, Op::s_nop);
  EXPECT_EQ(first.at(0x10004).op, Op::s_endpgm);
  // The next dispatch of the same entry point gets the same decoded program.
  Program& second = cache.get(0x10000, Gfx::v11, mem);
  EXPECT_EQ(&second, &first);
  EXPECT_EQ(cache.reused(), 1u);
  // New code at the same address (a program freed and another loaded there): without an
  // invalidation the cached program still runs, and the reuse is counted as stale.
  mem.put(0x10000, kSEndpgm);
  Program& stale = cache.get(0x10000, Gfx::v11, mem);
  EXPECT_EQ(&stale, &first);
  EXPECT_EQ(stale.at(0x10000).op, Op::s_nop);
  EXPECT_EQ(cache.reused(), 2u);
  EXPECT_EQ(cache.stale(), 1u);
  // After the invalidation the new code is decoded afresh.
  cache.invalidate();
  Program& third = cache.get(0x10000, Gfx::v11, mem);
  EXPECT_EQ(third.at(0x10000).op, Op::s_endpgm);
  EXPECT_EQ(cache.reused(), 2u);
  // Later dispatches share it, whichever workers run them.
  EXPECT_EQ(&cache.get(0x10000, Gfx::v11, mem), &third);
  EXPECT_EQ(cache.reused(), 3u);
  EXPECT_EQ(cache.stale(), 1u);
}

// Code that did not change is reused without counting as stale; an invalidation drops every
// program.
TEST(ProgramCache, InvalidationDropsEveryProgram) {
  FakeMemory mem;
  mem.put(0x10000, kSEndpgm);
  mem.put(0x10004, kSEndpgm);
  ProgramCache cache;
  Program& a = cache.get(0x10000, Gfx::v11, mem);
  Program& b = cache.get(0x10004, Gfx::v11, mem);
  EXPECT_NE(&a, &b);
  cache.get(0x10004, Gfx::v11, mem);
  EXPECT_EQ(cache.reused(), 1u);
  cache.invalidate();
  cache.get(0x10000, Gfx::v11, mem);
  cache.get(0x10004, Gfx::v11, mem);
  EXPECT_EQ(cache.reused(), 1u);
  EXPECT_EQ(cache.stale(), 0u);
}

// A dispatch asks the cache once, not once per worker thread: two dispatches of many
// work-groups (spread over the pool's threads) reuse the program once.
TEST(ProgramCache, ADispatchSharesOneProgramAmongItsWorkers) {
  FakeMemory mem;
  mem.put(0x10000, kSNop);
  mem.put(0x10004, kSEndpgm);
  ProgramCache cache;
  WorkerPool pool;
  LaunchState launch = sim::test::one_group(0x10000, 0);
  launch.grid_groups[0] = 64;
  for (int dispatch = 0; dispatch < 2; ++dispatch)
    EXPECT_TRUE(run_dispatch(launch, mem, pool, nullptr, &cache).ok);
  EXPECT_EQ(cache.reused(), 1u);
}

// Threads decoding one program at once each see every instruction decoded once: the same
// decoded instruction at each address, whichever thread decoded it.
TEST(Program, ThreadsShareOneDecodeOfEachInstruction) {
  FakeMemory mem;
  constexpr unsigned kWords = 2048; // both pages, so that the index grows while threads read
  for (unsigned i = 0; i + 1 < kWords; ++i) mem.put(0x10000 + 4 * i, kSNop);
  mem.put(0x10000 + 4 * (kWords - 1), kSEndpgm);
  Program program(mem, 0x10000);
  constexpr unsigned kThreads = 4;
  std::vector<std::vector<const Inst*>> seen(kThreads, std::vector<const Inst*>(kWords));
  std::vector<std::thread> threads;
  for (unsigned t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      for (unsigned k = 0; k < kWords; ++k) {
        const unsigned i = (t % 2 ? kWords - 1 - k : k); // half of them from the end
        seen[t][i] = &program.at(0x10000 + 4 * i, mem);
      }
    });
  for (auto& th : threads) th.join();
  for (unsigned i = 0; i < kWords; ++i) {
    EXPECT_EQ(seen[0][i]->op, i + 1 < kWords ? Op::s_nop : Op::s_endpgm) << i;
    for (unsigned t = 1; t < kThreads; ++t) EXPECT_EQ(seen[t][i], seen[0][i]) << i;
  }
}

TEST(ProgramCache, AProgramWhosePagesWentAwayIsNotReused) {
  FakeMemory mem;
  // An instruction near the end of the first page: its decode reads into the second page.
  mem.put(0x10ffc, kSEndpgm);
  Program p(mem, 0x10ffc);
  EXPECT_EQ(p.at(0x10ffc).op, Op::s_endpgm);
  EXPECT_TRUE(p.revalidate(mem));
  mem.second_page_mapped = false;
  EXPECT_FALSE(p.revalidate(mem));
  mem.second_page_mapped = true;
  EXPECT_TRUE(p.revalidate(mem));
  // Bytes of its pages that no decode read do not count (only those are compared, which keeps
  // the check per dispatch cheap); a byte a decode read does.
  mem.bytes[4096 + 100] ^= 1;
  EXPECT_TRUE(p.revalidate(mem));
  mem.bytes[4096 + 4] ^= 1; // the decode read three dwords: into the second page's second
  EXPECT_FALSE(p.revalidate(mem));
}
