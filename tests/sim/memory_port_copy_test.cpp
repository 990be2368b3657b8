// The DMA copy of MemoryPort between two guest ranges at every pair of alignments: the bytes
// land where a byte-by-byte copy would put them, across page boundaries, and nothing beside the
// destination changes.
#include "flat_memory.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace {

constexpr uint64_t kBase = 0x10000;
using Memory = sim::test::FlatMemory<kBase, 8 * 4096>;

void expect_copy(size_t src_off, size_t dst_off, size_t len) {
  Memory mem;
  for (size_t i = 0; i < mem.bytes.size(); ++i) mem.bytes[i] = uint8_t(i * 7 + (i >> 8));
  const std::vector<uint8_t> before = mem.bytes;
  mem.copy(kBase + dst_off, kBase + src_off, len);
  for (size_t i = 0; i < mem.bytes.size(); ++i) {
    const bool in_dst = i >= dst_off && i < dst_off + len;
    const uint8_t want = in_dst ? before[src_off + (i - dst_off)] : before[i];
    ASSERT_EQ(mem.bytes[i], want) << "byte " << i << " of a copy of " << len << " bytes from +"
                                  << src_off << " to +" << dst_off;
  }
}

TEST(MemoryPortCopy, EveryPairOfAlignmentsMovesTheSameBytes) {
  for (size_t s = 0; s < 16; ++s)
    for (size_t d = 0; d < 16; ++d)
      for (size_t len : {1u, 7u, 15u, 16u, 17u, 63u, 493u}) expect_copy(s, 8192 + d, len);
}

TEST(MemoryPortCopy, MisalignedCopiesCrossPagesAndBounceBuffers) {
  // Longer than the 4 KiB pieces a misaligned copy is moved in, starting just before a page
  // end on each side.
  for (size_t len : {4095u, 4097u, 9000u}) {
    expect_copy(4093, 16384 - 6, len);
    expect_copy(3, 12288 + 5, len);
  }
}

} // namespace
