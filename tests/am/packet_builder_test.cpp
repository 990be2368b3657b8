// PM4 and SDMA encodings against literal words from the public packet definitions
// (Linux nvd.h PACKET3 macro, sdma_v6_0_0_pkt_open.h layouts).
#include "am/pm4_builder.h"
#include "am/sdma_builder.h"

#include <gtest/gtest.h>

#include <vector>

using namespace am;

TEST(Pm4Builder, SetShRegHeaderAndOffset) {
  Pm4Builder b;
  b.set_sh_regs(hw::sh::regCOMPUTE_PGM_LO, {0x11, 0x22});
  // PACKET3(SET_SH_REG=0x76, count=2) with the compute shader-type bit.
  ASSERT_EQ(b.words().size(), 4u);
  EXPECT_EQ(b.words()[0], 0xC0027602u);
  EXPECT_EQ(b.words()[1], 0x20Cu); // COMPUTE_PGM_LO 0x2E0C - SH base 0x2C00
  EXPECT_EQ(b.words()[2], 0x11u);
}

TEST(Pm4Builder, DispatchDirectAndReleaseMem) {
  Pm4Builder b;
  b.dispatch_direct(4, 2, 1, 0x8005);
  EXPECT_EQ(b.words()[0], 0xC0031502u); // PACKET3(DISPATCH_DIRECT=0x15, 4 dwords)
  EXPECT_EQ(b.words()[4], 0x8005u);
  b.clear();
  b.release_mem_signal(0x123456789000ull, 7, true);
  ASSERT_EQ(b.words().size(), 8u);
  EXPECT_EQ(b.words()[0], 0xC0064902u); // PACKET3(RELEASE_MEM=0x49, 7 dwords)
  EXPECT_EQ(b.words()[1] & 0x3f, 0x14u); // CACHE_FLUSH_AND_INV_TS_EVENT
  EXPECT_EQ((b.words()[1] >> 8) & 0xf, 5u); // end-of-pipe event index
  EXPECT_EQ(b.words()[2] >> 29, 2u);        // DATA_SEL: 64-bit data
  EXPECT_EQ((b.words()[2] >> 24) & 7, 2u);  // INT_SEL: after write confirm
  EXPECT_EQ(b.words()[3], 0x56789000u);
  EXPECT_EQ(b.words()[4], 0x1234u);
  EXPECT_EQ(b.words()[5], 7u);
}

TEST(Pm4Builder, RejectsRegistersOutsideShWindow) {
  Pm4Builder b;
  EXPECT_THROW(b.set_sh_regs(0x1000, {1}), std::invalid_argument);
}

// A builder keeps a dispatch's packets inline and moves longer streams to the heap: every
// packet keeps its words across the move, and clear() starts over.
TEST(Pm4Builder, LongStreamsKeepEveryWord) {
  Pm4Builder b;
  for (uint32_t i = 0; i < 200; ++i) {
    b.set_sh_regs(hw::sh::regCOMPUTE_USER_DATA_0, {i, ~i});
    b.cs_partial_flush();
  }
  ASSERT_EQ(b.words().size(), 200u * 6);
  for (uint32_t i = 0; i < 200; ++i) {
    EXPECT_EQ(b.words()[6 * i], 0xC0027602u);
    EXPECT_EQ(b.words()[6 * i + 2], i);
    EXPECT_EQ(b.words()[6 * i + 3], ~i);
    EXPECT_EQ(b.words()[6 * i + 4] >> 8, 0xC0004602u >> 8); // EVENT_WRITE, one dword
  }
  b.clear();
  b.nop(3);
  ASSERT_EQ(b.words().size(), 4u);
  EXPECT_EQ(b.words()[3], 0u);
  Pm4Builder c;
  c.append(b.words());
  c.raw(0x80000000u); // a type-2 filler, as it is
  EXPECT_EQ(std::vector<uint32_t>(c.words().begin(), c.words().end()),
            (std::vector<uint32_t>{b.words()[0], 0, 0, 0, 0x80000000u}));
}

TEST(SdmaBuilder, CopyLinearLayout) {
  SdmaBuilder b;
  b.copy_linear(0x2000'0000'1000ull, 0x3000'0000'2000ull, 4096);
  ASSERT_EQ(b.words().size(), 7u);
  EXPECT_EQ(b.words()[0], 0x00000001u); // OP_COPY, SUBOP_COPY_LINEAR
  EXPECT_EQ(b.words()[1], 4095u);       // byte count - 1
  EXPECT_EQ(b.words()[3], 0x00002000u); // src lo
  EXPECT_EQ(b.words()[4], 0x3000u);     // src hi
  EXPECT_EQ(b.words()[5], 0x00001000u); // dst lo
  EXPECT_EQ(b.words()[6], 0x2000u);     // dst hi
}

TEST(SdmaBuilder, LargeCopiesSplitAtOneGiB) {
  SdmaBuilder b;
  b.copy_linear(0, 0, (1ull << 30) + 8);
  ASSERT_EQ(b.words().size(), 14u);
  EXPECT_EQ(b.words()[1], (1u << 30) - 1);
  EXPECT_EQ(b.words()[8], 7u);
}

TEST(SdmaBuilder, FenceAndTrap) {
  SdmaBuilder b;
  b.fence(0x1000, 42);
  b.trap(3);
  EXPECT_EQ(b.words(), (std::vector<uint32_t>{5, 0x1000, 0, 42, 6, 3}));
}
