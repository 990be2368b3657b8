// Host <-> device transfers of 1 MiB and more are one SDMA copy of the application's own pages
// (runtime/staging.cpp copy_direct): they must not touch the staging buffer, and the bytes
// must land, at misaligned host addresses and across the emulated SDMA's parallel copy
// (sim/sdma_engine.cpp: 2 MiB and more). Smaller ones stage. Boxes of rows (a padded image's,
// runtime/box_copy.h) move as sub-window copies where the packet allows, else a row a packet,
// and from 1 MiB straight between the device and the application's pages.
#include "runtime/box_copy.h"
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

// Copies `region` (bytes, rows, slices) between two surfaces of one VRAM allocation and checks
// every byte of the destination: the box's rows from the source, the rest untouched. Returns
// the packets copy_box used.
size_t check_box(am::Device& dev, am::Allocation& vram, size_t src_at, size_t src_row,
                 size_t src_slice, size_t dst_at, size_t dst_row, size_t dst_slice,
                 const size_t* region) {
  const size_t src_end =
      src_at + (region[2] - 1) * src_slice + (region[1] - 1) * src_row + region[0];
  const size_t dst_end =
      dst_at + (region[2] - 1) * dst_slice + (region[1] - 1) * dst_row + region[0];
  const std::vector<uint8_t> src = pattern(src_end, uint32_t(region[0] + region[1]));
  std::memcpy(vram.cpu, src.data(), src_end);
  const size_t dst_base = (src_end + 64 + 255) / 256 * 256;
  std::memset(vram.cpu + dst_base, 0xee, dst_end);
  am::SdmaBuilder b(dev.sdma_major());
  const size_t packets = amcl::rt::copy_box(b, {vram.va + dst_base + dst_at, dst_row, dst_slice},
                                            {vram.va + src_at, src_row, src_slice}, region);
  amcl::rt::run_sdma(dev, b);
  std::vector<uint8_t> want(dst_end, 0xee);
  for (size_t z = 0; z < region[2]; ++z)
    for (size_t y = 0; y < region[1]; ++y)
      std::memcpy(&want[dst_at + z * dst_slice + y * dst_row],
                  &src[src_at + z * src_slice + y * src_row], region[0]);
  for (size_t i = 0; i < dst_end; ++i)
    if (vram.cpu[dst_base + i] != want[i]) {
      ADD_FAILURE() << "byte " << i << " of the destination: " << int(vram.cpu[dst_base + i])
                    << ", want " << int(want[i]);
      break;
    }
  return packets;
}

TEST_P(DirectTransfers, BoxesMoveAsSubWindowsWhereThePacketAllowsElseRowByRow) {
  am::Device dev(
      sim::open_emulated_gpu(GetParam(), std::string(GetParam()) == "gfx1100" ? 63 : 64));
  am::Allocation vram = dev.alloc_vram(8 << 20);
  // A padded 3D image's rows to packed rows: 16-byte elements, a slice a packet (a packed slice
  // of 3,843 elements is no multiple of 4), then all slices in one packet.
  const size_t image3d[3] = {1008, 61, 37};
  EXPECT_EQ(check_box(dev, vram, 256 + 16, 1280, 1280 * 67, 0, 1008, 1008 * 61, image3d), 37u);
  EXPECT_EQ(check_box(dev, vram, 256 + 16, 1280, 1280 * 67, 0, 1024, 1024 * 64, image3d), 1u);
  // Odd rows at an odd address: a row a packet.
  const size_t odd[3] = {333, 7, 3};
  EXPECT_EQ(check_box(dev, vram, 5, 512, 512 * 9, 3, 333, 333 * 7, odd), 21u);
  // One-byte elements (rows of 999 bytes, pitches of whole dwords).
  const size_t bytes[3] = {999, 45, 1};
  EXPECT_EQ(check_box(dev, vram, 12, 1024, 0, 0, 1000, 0, bytes), 1u);
  // More rows than the packet's 2^14: pieces of rows.
  const size_t tall[3] = {8, 20000, 1};
  EXPECT_EQ(check_box(dev, vram, 0, 16, 0, 4, 12, 0, tall), 2u);
  // A row longer than the packet's 2^14 elements of 16 bytes: a row a packet.
  const size_t wide[3] = {(size_t{1} << 18) + 16, 3, 1};
  EXPECT_EQ(check_box(dev, vram, 0, (size_t{1} << 18) + 256, 0, 0, (size_t{1} << 18) + 16, 0, wide),
            3u);
  // A slice pitch of 49 elements: a slice a packet; of an odd number of bytes: a row a packet.
  const size_t slices[3] = {64, 3, 4};
  EXPECT_EQ(check_box(dev, vram, 0, 64, 64 * 3 + 4, 0, 64, 64 * 3, slices), 4u);
  EXPECT_EQ(check_box(dev, vram, 0, 64, 64 * 3 + 1, 0, 64, 64 * 3, slices), 12u);
  dev.free(vram);
}

TEST_P(DirectTransfers, PaddedBoxesDmaTheApplicationsPagesWithoutStaging) {
  am::Device dev(
      sim::open_emulated_gpu(GetParam(), std::string(GetParam()) == "gfx1100" ? 65 : 66));
  // A 3D image's padded rows (pitch 4,096 for rows of 4,004 bytes) and a packed host copy.
  const size_t region[3] = {4004, 30, 11}, pitch = 4096, slice = pitch * 32;
  am::Allocation vram = dev.alloc_vram(slice * region[2]);
  const size_t packed = region[0] * region[1] * region[2];
  const std::vector<uint8_t> src = pattern(packed + 8, 11);
  std::memset(vram.cpu, 0xee, slice * region[2]);
  const uint64_t before = amcl::rt::direct_transfers();
  std::vector<uint8_t> host(src);
  ASSERT_TRUE(amcl::rt::copy_box_direct(dev, {vram.va + pitch + 4, pitch, slice}, host.data() + 3,
                                        region[0], region[0] * region[1], packed, region, true));
  EXPECT_EQ(amcl::rt::direct_transfers(), before + 1);
  for (size_t z = 0; z < region[2]; ++z)
    for (size_t y = 0; y < region[1]; ++y)
      ASSERT_EQ(std::memcmp(vram.cpu + z * slice + (y + 1) * pitch + 4,
                            &src[3 + (z * region[1] + y) * region[0]], region[0]),
                0)
          << y << "," << z;
  EXPECT_EQ(vram.cpu[0], 0xee);
  EXPECT_EQ(vram.cpu[pitch + 4 + region[0]], 0xee) << "the padding after a row changed";
  // And back into host rows padded by 100 bytes.
  const size_t host_row = region[0] + 100, host_slice = host_row * region[1];
  std::vector<uint8_t> back(host_slice * region[2], 0x11);
  ASSERT_TRUE(amcl::rt::copy_box_direct(dev, {vram.va + pitch + 4, pitch, slice}, back.data(),
                                        host_row, host_slice, back.size() - 100, region, false));
  EXPECT_EQ(amcl::rt::direct_transfers(), before + 2);
  for (size_t z = 0; z < region[2]; ++z)
    for (size_t y = 0; y < region[1]; ++y) {
      ASSERT_EQ(std::memcmp(&back[z * host_slice + y * host_row],
                            &src[3 + (z * region[1] + y) * region[0]], region[0]),
                0)
          << y << "," << z;
      ASSERT_EQ(back[z * host_slice + y * host_row + region[0]], 0x11);
    }
  // Below 1 MiB, or rows spread over more than twice their bytes: the caller stages.
  const size_t small[3] = {4004, 2, 1};
  EXPECT_FALSE(amcl::rt::copy_box_direct(dev, {vram.va, pitch, slice}, back.data(), host_row,
                                         host_slice, host_row + region[0], small, true));
  std::vector<uint8_t> sparse(3 * packed);
  EXPECT_FALSE(amcl::rt::copy_box_direct(dev, {vram.va, pitch, slice}, sparse.data(), 3 * region[0],
                                         3 * region[0] * region[1], sparse.size(), region, true));
  EXPECT_EQ(amcl::rt::direct_transfers(), before + 2);
  dev.free(vram);
}

INSTANTIATE_TEST_SUITE_P(Cards, DirectTransfers, testing::Values("gfx1100", "gfx1201"));

} // namespace
