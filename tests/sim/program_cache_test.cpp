// Decoded programs outlive their dispatch, as lines in the instruction cache do: reused until
// the cache is invalidated (ACQUIRE_MEM GLI_INV), even when the code under them changed.
#include "sim/shader/dispatch.h"
#include "sim/shader/executor.h"

#include <gtest/gtest.h>

#include <cstring>
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
  cache.prepare(2);
  Program& first = cache.get(0, 0x10000, Gfx::v11, mem);
  EXPECT_EQ(first.at(0x10000).op, Op::s_nop);
  EXPECT_EQ(first.at(0x10004).op, Op::s_endpgm);
  // The next dispatch of the same entry point gets the same decoded program.
  Program& second = cache.get(0, 0x10000, Gfx::v11, mem);
  EXPECT_EQ(&second, &first);
  EXPECT_EQ(cache.reused(), 1u);
  // New code at the same address (a program freed and another loaded there): without an
  // invalidation the cached program still runs, and the reuse is counted as stale.
  mem.put(0x10000, kSEndpgm);
  Program& stale = cache.get(0, 0x10000, Gfx::v11, mem);
  EXPECT_EQ(&stale, &first);
  EXPECT_EQ(stale.at(0x10000).op, Op::s_nop);
  EXPECT_EQ(cache.reused(), 2u);
  EXPECT_EQ(cache.stale(), 1u);
  // After the invalidation the new code is decoded afresh.
  cache.invalidate();
  Program& third = cache.get(0, 0x10000, Gfx::v11, mem);
  EXPECT_EQ(third.at(0x10000).op, Op::s_endpgm);
  EXPECT_EQ(cache.reused(), 2u);
  // Other workers keep their own programs.
  cache.get(1, 0x10000, Gfx::v11, mem);
  EXPECT_EQ(cache.reused(), 2u);
  EXPECT_EQ(cache.stale(), 1u);
}

// Code that did not change is reused without counting as stale, across invalidations of other
// workers' programs too; an invalidation drops every worker's.
TEST(ProgramCache, InvalidationDropsEveryWorkersPrograms) {
  FakeMemory mem;
  mem.put(0x10000, kSEndpgm);
  ProgramCache cache;
  cache.prepare(2);
  cache.get(0, 0x10000, Gfx::v11, mem);
  cache.get(1, 0x10000, Gfx::v11, mem);
  cache.get(1, 0x10000, Gfx::v11, mem);
  EXPECT_EQ(cache.reused(), 1u);
  cache.invalidate();
  cache.get(0, 0x10000, Gfx::v11, mem);
  cache.get(1, 0x10000, Gfx::v11, mem);
  EXPECT_EQ(cache.reused(), 1u);
  EXPECT_EQ(cache.stale(), 0u);
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
  mem.bytes[4096 + 100] ^= 1; // any byte of a page it decoded from counts
  EXPECT_FALSE(p.revalidate(mem));
}
