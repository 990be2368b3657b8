// The DMA copy of MemoryPort between two guest ranges at every pair of alignments: the bytes
// land where a byte-by-byte copy would put them, across page boundaries, and nothing beside the
// destination changes.
#include "flat_memory.h"
#include "sim/shader/worker_pool.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
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

// Overlapping ranges (stop 34: separate ranges move by memcpy, overlapping ones keep the word
// loops): a destination below the source gets the source as it was (memmove's result), and
// one above it by a multiple of 8 bytes (in 8-byte words) repeats the source's first bytes as a
// forward byte copy does (a memmove would not).
TEST(MemoryPortCopy, OverlappingCopiesKeepTheirForwardOrder) {
  for (size_t len : {64u, 65u, 1000u, 4096u, 9000u}) {
    for (size_t distance : {1u, 3u, 8u, 64u, 4100u}) {
      Memory mem;
      for (size_t i = 0; i < mem.bytes.size(); ++i) mem.bytes[i] = uint8_t(i * 7 + (i >> 8));
      std::vector<uint8_t> want = mem.bytes;
      const size_t src = 4096 + 4100 + 5;
      std::memmove(&want[src - distance], &want[src], len);
      mem.copy(kBase + src - distance, kBase + src, len);
      ASSERT_EQ(mem.bytes, want) << "down by " << distance << ", " << len << " bytes";
    }
    for (size_t distance : {8u, 64u, 4096u}) {
      if (len % 8) continue; // odd lengths move through a bounce buffer, 4 KiB at a time
      Memory mem;
      for (size_t i = 0; i < mem.bytes.size(); ++i) mem.bytes[i] = uint8_t(i * 7 + (i >> 8));
      std::vector<uint8_t> want = mem.bytes;
      const size_t src = 4096 + 8;
      for (size_t i = 0; i < len; ++i) want[src + distance + i] = want[src + i];
      mem.copy(kBase + src + distance, kBase + src, len);
      ASSERT_EQ(mem.bytes, want) << "up by " << distance << ", " << len << " bytes";
    }
  }
}

// MemoryPort::read and write (host bytes to and from guest memory) of odd lengths from odd
// offsets, across page ends: the bytes of the range and nothing beside them.
TEST(MemoryPortCopy, ReadsAndWritesOddLengthsAcrossPageEnds) {
  for (size_t off : {0u, 1u, 4093u, 8190u})
    for (size_t len : {1u, 3u, 63u, 64u, 65u, 4095u, 4097u, 9001u}) {
      Memory mem;
      for (size_t i = 0; i < mem.bytes.size(); ++i) mem.bytes[i] = uint8_t(i * 7 + (i >> 8));
      std::vector<uint8_t> want = mem.bytes, host(len + 2, 0xcc), got(len + 2, 0xcc);
      for (size_t i = 0; i < len; ++i) host[1 + i] = uint8_t(i * 5 + 3);
      mem.read(kBase + off, got.data() + 1, len);
      EXPECT_EQ(got[0], 0xcc);
      EXPECT_EQ(got[len + 1], 0xcc);
      ASSERT_EQ(std::memcmp(got.data() + 1, &want[off], len), 0) << off << " " << len;
      mem.write(kBase + off, host.data() + 1, len);
      std::memcpy(&want[off], host.data() + 1, len);
      ASSERT_EQ(mem.bytes, want) << "write of " << len << " bytes at +" << off;
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

// The emulated SDMA's long copies (MemoryPort::copy_parallel): translated a run at a time
// (here runs end where a page of the source is unreadable) and moved by several threads, they
// leave memory exactly as copy() does, including when a page in the middle faults: the bytes
// before that page moved, none after, and the fault reaches the caller.
struct Holed : sim::shader::MemoryPort {
  static constexpr uint64_t kSrc = 0x1000000, kDst = 0x4000000, kBytes = 6 << 20;
  std::vector<uint8_t> src = std::vector<uint8_t>(kBytes), dst = std::vector<uint8_t>(kBytes);
  uint64_t hole = ~uint64_t{0}; // a source page that faults
  uint8_t* translate(uint64_t va, size_t len, bool write, bool) override {
    if (va >= kSrc && va - kSrc + len <= kBytes && !write && (va >> 12) != (hole >> 12))
      return src.data() + (va - kSrc);
    if (va >= kDst && va - kDst + len <= kBytes) return dst.data() + (va - kDst);
    throw sim::shader::MemoryFault(va, write, "unmapped");
  }
  // Runs as long as the range is mapped (the GMC's end at page tables and holes).
  uint8_t* translate_run(uint64_t va, size_t len, bool write, size_t& run) override {
    uint8_t* p = translate(va, 1, write, false);
    const uint64_t end =
        va < kDst ? (hole > va ? std::min<uint64_t>(hole & ~uint64_t{4095}, kSrc + kBytes)
                               : kSrc + kBytes)
                  : kDst + kBytes;
    run = std::min<uint64_t>(len, std::max<uint64_t>(end - va, 4096 - (va & 4095)));
    return p;
  }
};

TEST(MemoryPortCopy, ParallelCopiesMoveWhatCopyMovesAndStopAtAFault) {
  sim::shader::WorkerPool pool;
  for (const uint64_t hole : {~uint64_t{0}, uint64_t{Holed::kSrc + (3 << 20) + 5 * 4096}}) {
    for (const size_t off : {size_t{0}, size_t{3}}) {
      Holed a, b;
      for (size_t i = 0; i < Holed::kBytes; ++i) a.src[i] = b.src[i] = uint8_t(i * 31 + (i >> 12));
      a.hole = b.hole = hole;
      const size_t len = Holed::kBytes - 4096 - off;
      bool a_faulted = false, b_faulted = false;
      try {
        a.copy(Holed::kDst + 4096 - off, Holed::kSrc + off, len);
      } catch (const sim::shader::MemoryFault&) {
        a_faulted = true;
      }
      try {
        b.copy_parallel(Holed::kDst + 4096 - off, Holed::kSrc + off, len, pool, 3);
      } catch (const sim::shader::MemoryFault& f) {
        b_faulted = true;
        EXPECT_EQ(f.address >> 12, hole >> 12);
      }
      EXPECT_EQ(a_faulted, hole != ~uint64_t{0});
      EXPECT_EQ(b_faulted, a_faulted);
      ASSERT_EQ(a.dst, b.dst) << "hole " << hole << " offset " << off;
      if (hole == ~uint64_t{0})
        EXPECT_EQ(std::memcmp(b.dst.data() + 4096 - off, b.src.data() + off, len), 0);
      else
        EXPECT_EQ(b.dst[hole - Holed::kSrc - off + 4096 - off], 0) << "a byte past the fault";
    }
  }
}

// The emulated SDMA's CONST_FILL (MemoryPort::fill32), translated a run at a time: every dword
// of the range and nothing beside it, from either alignment of the host words; a page that
// faults stops the fill there, the pages before it filled and none after, as dword by dword.
struct WriteHoled : sim::shader::MemoryPort {
  static constexpr uint64_t kBase = 0x2000000, kBytes = 16 * 4096;
  std::vector<uint8_t> bytes = std::vector<uint8_t>(kBytes, 0xee);
  uint64_t hole = ~uint64_t{0}; // a page that faults on writes
  uint8_t* translate(uint64_t va, size_t len, bool write, bool) override {
    if (va >= kBase && va - kBase + len <= kBytes && !(write && (va >> 12) == (hole >> 12)))
      return bytes.data() + (va - kBase);
    throw sim::shader::MemoryFault(va, write, "unmapped");
  }
  uint8_t* translate_run(uint64_t va, size_t len, bool write, size_t& run) override {
    uint8_t* p = translate(va, 1, write, false);
    const uint64_t end =
        hole > va ? std::min<uint64_t>(hole & ~uint64_t{4095}, kBase + kBytes) : kBase + kBytes;
    run = std::min<uint64_t>(len, std::max<uint64_t>(end - va, 4096 - (va & 4095)));
    return p;
  }
};

TEST(MemoryPortFill, FillsEveryDwordOfTheRangeAndStopsAtAFault) {
  for (const uint64_t hole : {~uint64_t{0}, uint64_t{WriteHoled::kBase + 9 * 4096 + 12}}) {
    for (const size_t off : {size_t{0}, size_t{4}, size_t{4092}}) {
      WriteHoled mem;
      mem.hole = hole;
      const size_t len = 12 * 4096 + 8;
      bool faulted = false;
      try {
        mem.fill32(WriteHoled::kBase + off, 0x600df00d, len);
      } catch (const sim::shader::MemoryFault& f) {
        faulted = true;
        EXPECT_EQ(f.address >> 12, hole >> 12);
      }
      EXPECT_EQ(faulted, hole != ~uint64_t{0});
      const size_t filled_end = faulted ? (hole - WriteHoled::kBase) & ~size_t{4095} : off + len;
      for (size_t i = 0; i < WriteHoled::kBytes; i += 4) {
        uint32_t v;
        std::memcpy(&v, &mem.bytes[i], 4);
        const bool filled = i >= off && i < filled_end;
        ASSERT_EQ(v, filled ? 0x600df00du : 0xeeeeeeeeu) << "byte " << i << " offset " << off;
      }
    }
  }
}

// Fills of every dword length around fill32's 256-byte pattern block, from each dword offset
// of a 16-byte line and ending at or across a page end.
TEST(MemoryPortFill, FillsOddDwordLengthsAndNothingBeside) {
  for (size_t off : {0u, 4u, 8u, 12u, 4096u - 520u})
    for (size_t len : {4u, 252u, 256u, 260u, 508u, 512u, 516u, 1020u, 4100u}) {
      Memory mem;
      std::fill(mem.bytes.begin(), mem.bytes.end(), uint8_t(0xee));
      mem.fill32(kBase + 4096 + off, 0x600df00d, len);
      for (size_t i = 0; i < mem.bytes.size(); i += 4) {
        const bool filled = i >= 4096 + off && i < 4096 + off + len;
        ASSERT_EQ(mem.get<uint32_t>(kBase + i), filled ? 0x600df00du : 0xeeeeeeeeu)
            << "byte " << i << ": " << len << " bytes at +" << off;
      }
    }
}

} // namespace
