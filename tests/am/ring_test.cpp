// am::Ring, the compute and SDMA queues' ring buffer: packets land at the write pointer modulo
// the ring's size, split across its end, and a packet that would overwrite what the engine has
// not read waits (write returns false).
#include "am/ring.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

TEST(Ring, PacketsWrapAcrossTheEndAndWaitForTheReader) {
  std::vector<uint32_t> memory(16, 0);
  am::Allocation mem;
  mem.va = 0x1000;
  mem.size = memory.size() * 4;
  mem.cpu = reinterpret_cast<uint8_t*>(memory.data());
  am::Ring ring;
  ring.init(mem);
  uint64_t read = 0;
  auto reader = [&] { return read; };
  const std::vector<uint32_t> a{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
  ASSERT_TRUE(ring.write(a, reader));
  EXPECT_EQ(ring.wptr(), 12u);
  const std::vector<uint32_t> b{21, 22, 23, 24, 25, 26};
  EXPECT_FALSE(ring.write(b, reader)) << "overwrote dwords the engine had not read";
  read = 10;
  ASSERT_TRUE(ring.write(b, reader)); // dwords 12..15, then 0..1
  EXPECT_EQ(ring.wptr(), 18u);
  const std::vector<uint32_t> want{25, 26, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 21, 22, 23, 24};
  EXPECT_EQ(memory, want);
  read = 18;
  const std::vector<uint32_t> c{31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45};
  ASSERT_TRUE(ring.write(c, reader)); // 15 of 16: a full ring would look empty
  EXPECT_EQ(memory[2], 31u);
  EXPECT_EQ(memory[15], 44u);
  EXPECT_EQ(memory[0], 45u);
  EXPECT_EQ(memory[1], 26u) << "the dword before the read pointer stays";
}
