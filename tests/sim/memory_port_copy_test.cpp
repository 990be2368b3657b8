// The DMA copy of MemoryPort between two guest ranges at every pair of alignments: the bytes
// land where a byte-by-byte copy would put them, across page boundaries, and nothing beside the
// destination changes.
#include "flat_memory.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
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

// A source that ends inside a host allocation mapped for DMA (runtime/staging.cpp's direct
// transfers map the application's own pages): the copy reads only the bytes it copies. The
// misaligned path read the aligned words covering the source, up to 7 bytes past its end, which
// AddressSanitizer reported as a heap overflow in CI (ApiObjects.LargeTransfersRoundTrip, a
// 9,437,307-byte vector); this test fails the same way under ASan and under valgrind
// --partial-loads-ok=no.
struct TwoAllocations : sim::shader::MemoryPort {
  static constexpr uint64_t kSrc = 0x100000, kDst = 0x200000;
  std::unique_ptr<uint8_t[]> src, dst;
  size_t src_size, dst_size;
  TwoAllocations(size_t s, size_t d)
      : src(new uint8_t[s]), dst(new uint8_t[d]), src_size(s), dst_size(d) {}
  uint8_t* translate(uint64_t va, size_t len, bool write, bool) override {
    if (va >= kSrc && va - kSrc <= src_size && len <= src_size - (va - kSrc))
      return src.get() + (va - kSrc);
    if (va >= kDst && va - kDst <= dst_size && len <= dst_size - (va - kDst))
      return dst.get() + (va - kDst);
    throw sim::shader::MemoryFault(va, write, "unmapped");
  }
};

TEST(MemoryPortCopy, ReadsNothingPastTheSourcesEnd) {
  for (size_t size : {4099u, 9001u, 21u}) {
    TwoAllocations mem(size, size + 16);
    for (size_t i = 0; i < size; ++i) mem.src[i] = uint8_t(i * 13 + 1);
    std::fill_n(mem.dst.get(), size + 16, uint8_t(0));
    mem.copy(TwoAllocations::kDst + 5, TwoAllocations::kSrc + 3, size - 3);
    for (size_t i = 0; i + 3 < size; ++i) ASSERT_EQ(mem.dst[5 + i], mem.src[3 + i]) << i;
  }
}

} // namespace
