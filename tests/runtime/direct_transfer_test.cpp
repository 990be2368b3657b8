// Host <-> device transfers of 1 MiB and more are one SDMA copy of the application's own pages
// (runtime/staging.cpp copy_direct): they must not touch the staging buffer, and the bytes
// must land, at misaligned host addresses and across the emulated SDMA's parallel copy
// (sim/sdma_engine.cpp: 2 MiB and more). Smaller ones stage.
#include "runtime/staging.h"
#include "sim/gpu.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace {

std::vector<uint8_t> pattern(size_t n, uint32_t seed) {
  std::vector<uint8_t> v(n);
  uint32_t x = seed;
  for (uint8_t& b : v) b = uint8_t((x = x * 1664525u + 1013904223u) >> 24);
  return v;
}

class DirectTransfers : public testing::TestWithParam<const char*> {};

TEST_P(DirectTransfers, LargeTransfersDmaTheApplicationsPagesWithoutStaging) {
  // Cards of their own (an index keeps the model it was first opened with).
  am::Device dev(
      sim::open_emulated_gpu(GetParam(), std::string(GetParam()) == "gfx1100" ? 61 : 62));
  constexpr size_t kSize = (5 << 20) + 4093; // several 2 MiB page-table runs, a ragged end
  am::Allocation buf = dev.alloc_vram(6 << 20);
  am::Allocation staging; // allocated by the first transfer that stages
  const std::vector<uint8_t> src = pattern(kSize + 16, 7);
  const uint64_t before = amcl::rt::direct_transfers();
  amcl::rt::copy_to_device(dev, staging, buf.va + 8, src.data() + 3, kSize);
  EXPECT_EQ(amcl::rt::direct_transfers(), before + 1);
  EXPECT_FALSE(staging) << "a large host->device transfer went through the staging buffer";
  ASSERT_EQ(std::memcmp(buf.cpu + 8, src.data() + 3, kSize), 0);

  std::vector<uint8_t> dst(kSize + 16, 0xee);
  amcl::rt::copy_from_device(dev, staging, dst.data() + 5, buf.va + 8, kSize);
  EXPECT_EQ(amcl::rt::direct_transfers(), before + 2);
  EXPECT_FALSE(staging) << "a large device->host transfer went through the staging buffer";
  ASSERT_EQ(std::memcmp(dst.data() + 5, src.data() + 3, kSize), 0);
  for (size_t i : {size_t{0}, size_t{4}, kSize + 5, kSize + 15})
    EXPECT_EQ(dst[i], 0xee) << "byte " << i << " outside the transfer changed";

  // Below 1 MiB, the pages are not worth mapping: the transfer stages.
  const std::vector<uint8_t> small = pattern(64 << 10, 9);
  amcl::rt::copy_to_device(dev, staging, buf.va, small.data(), small.size());
  EXPECT_EQ(amcl::rt::direct_transfers(), before + 2);
  EXPECT_TRUE(staging);
  EXPECT_EQ(std::memcmp(buf.cpu, small.data(), small.size()), 0);
  if (staging) dev.free(staging);
  dev.free(buf);
}

INSTANTIATE_TEST_SUITE_P(Cards, DirectTransfers, testing::Values("gfx1100", "gfx1201"));

} // namespace
