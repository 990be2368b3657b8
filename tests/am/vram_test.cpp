// VRAM larger than BAR0 (issue 28 item 1): the driver takes VRAM's size from
// RCC_CONFIG_MEMSIZE, finds the discovery binary beyond the BAR through the MM_INDEX window,
// hands out CPU-visible VRAM inside the BAR and GPU-only VRAM beyond it, on the emulated card's
// default 256 MiB BAR0 and on its resizable-BAR variant.
#include "device_fixture.h"

#include "am/vram_access.h"

#include <cstring>
#include <vector>

namespace {

// Cards of their own with an explicit BAR0, so that AMCL_SIM_REBAR=1 (which a whole-suite run
// on resizable-BAR cards sets) does not change what these tests check.
std::shared_ptr<sim::Gpu> card_with_bar(const char* gfx, unsigned index, uint64_t bar0_bytes) {
  sim::GpuConfig config;
  config.model = sim::find_card_model(gfx);
  config.bar0_bytes = bar0_bytes;
  config.index = index;
  return std::make_shared<sim::Gpu>(config);
}

std::shared_ptr<sim::Gpu> resizable_bar_card(const char* gfx, unsigned index) {
  return card_with_bar(gfx, index, sim::GpuConfig::kResizableBar);
}

class Vram : public testing::TestWithParam<const char*> {
protected:
  // The default card: a BAR0 of 256 MiB.
  std::shared_ptr<sim::Gpu> card(unsigned slot = 0) {
    return card_with_bar(GetParam(), 260 + slot, sim::GpuConfig::kDefaultBar0);
  }
};

INSTANTIATE_TEST_SUITE_P(Cards, Vram, testing::Values("gfx1100", "gfx1201"),
                         [](const auto& info) { return std::string(info.param); });

// A card without resizable BAR: 4 GiB of VRAM, 256 MiB of it through BAR0. The old driver took
// VRAM's size from BAR0 and would have seen 256 MiB and looked for discovery at its end.
TEST_P(Vram, SizeComesFromTheCardNotFromTheBar) {
  auto gpu = card();
  EXPECT_EQ(gpu->bar0_size(), 256ull << 20);
  EXPECT_EQ(am::read_vram_size(*gpu), 4ull << 30);
  am::Device dev(gpu);
  EXPECT_EQ(dev.info().vram_size, 4ull << 30);
  EXPECT_EQ(dev.info().visible_vram_size, 256ull << 20);
  EXPECT_GT(dev.vram_free(), 3ull << 30);
  EXPECT_LT(dev.visible_vram_free(), 256ull << 20);
}

TEST_P(Vram, ResizableBarMakesAllOfVramVisible) {
  auto gpu = resizable_bar_card(GetParam(), 290);
  EXPECT_EQ(gpu->bar0_size(), 4ull << 30);
  am::Device dev(gpu);
  EXPECT_EQ(dev.info().vram_size, 4ull << 30);
  EXPECT_EQ(dev.info().visible_vram_size, 4ull << 30);
  // No VRAM beyond the BAR: GPU-only allocations come from visible VRAM and have CPU pointers.
  am::Allocation a = dev.alloc_vram_gpu(64ull << 20);
  EXPECT_NE(a.cpu, nullptr);
  dev.free(a);
}

// amdgpu_device_vram_access: the BAR's part through the mapping, the rest through MM_INDEX /
// MM_INDEX_HI / MM_DATA, unaligned ends included.
TEST_P(Vram, ReadsAcrossTheBarThroughTheWindow) {
  auto gpu = card(1);
  const uint64_t bar = gpu->bar0_size();
  std::vector<uint8_t> planted(8192);
  for (size_t i = 0; i < planted.size(); ++i) planted[i] = uint8_t(i * 7 + 1);
  std::memcpy(gpu->chip_vram() + bar - 4096, planted.data(), planted.size());
  std::vector<uint8_t> got(8192 - 3);
  am::read_vram(*gpu, bar - 4096 + 1, got);
  EXPECT_TRUE(std::equal(got.begin(), got.end(), planted.begin() + 1));
  // Past 2 GiB the window's high part (MM_INDEX_HI) names the address.
  const uint64_t far = (3ull << 30) + 6;
  std::memcpy(gpu->chip_vram() + far, "window", 6);
  std::vector<uint8_t> word(6);
  am::read_vram(*gpu, far, word);
  EXPECT_EQ(std::string(word.begin(), word.end()), "window");
}

TEST_P(Vram, GpuOnlyMemoryLiesBeyondTheBarWithoutACpuPointer) {
  auto gpu = card(2);
  am::Device dev(gpu);
  const uint64_t bar = gpu->bar0_size();
  am::Allocation visible = dev.alloc_vram(1 << 20);
  EXPECT_NE(visible.cpu, nullptr);
  EXPECT_LE(visible.phys + visible.size, bar);
  am::Allocation gpu_only = dev.alloc_vram_gpu(300ull << 20); // larger than the whole BAR
  EXPECT_EQ(gpu_only.cpu, nullptr);
  EXPECT_GE(gpu_only.phys, bar);
  // The engines reach it: SDMA fills its last page and copies that into visible VRAM.
  am::SdmaBuilder b;
  b.const_fill(gpu_only.va + gpu_only.size - 4096, 0x5eed, 64);
  b.copy_linear(visible.va, gpu_only.va + gpu_only.size - 4096, 64);
  dev.wait(am::Engine::Sdma, dev.submit_sdma(b));
  EXPECT_EQ(reinterpret_cast<uint32_t*>(visible.cpu)[15], 0x5eedu);
  uint32_t chip;
  std::memcpy(&chip, gpu->chip_vram() + gpu_only.phys + gpu_only.size - 4096, 4);
  EXPECT_EQ(chip, 0x5eedu);
  dev.free(gpu_only);
  dev.free(visible);
}

// Visible VRAM has no fallback: once the BAR is full, alloc_vram fails with a DeviceError
// naming it, while GPU-only memory is still handed out beyond the BAR; the reverse falls back.
TEST_P(Vram, VisibleExhaustionFailsAndGpuOnlyFallsBack) {
  auto gpu = card(3);
  am::Device dev(gpu);
  std::vector<am::Allocation> all;
  try {
    for (;;) all.push_back(dev.alloc_vram(8ull << 20));
  } catch (const am::DeviceError& e) {
    EXPECT_NE(std::string(e.what()).find("CPU-visible"), std::string::npos) << e.what();
  }
  EXPECT_GT(all.size(), 10u);
  am::Allocation beyond = dev.alloc_vram_gpu(8ull << 20);
  EXPECT_EQ(beyond.cpu, nullptr);
  all.push_back(beyond);
  for (const am::Allocation& a : all) dev.free(a);
  // Beyond the BAR full: GPU-only allocations come from inside it.
  std::vector<am::Allocation> gpu_only;
  try {
    for (;;) {
      gpu_only.push_back(dev.alloc_vram_gpu(64ull << 20));
      if (gpu_only.back().cpu) break;
    }
  } catch (const am::DeviceError& e) {
    ADD_FAILURE() << e.what();
  }
  ASSERT_FALSE(gpu_only.empty());
  EXPECT_NE(gpu_only.back().cpu, nullptr);
  EXPECT_GT(gpu_only.size(), 50u);
  for (const am::Allocation& a : gpu_only) dev.free(a);
}

// Peers reach another card's VRAM only through its BAR: a GPU-only allocation beyond it is
// refused by name, never mapped through a pointer past the BAR.
TEST(VramPeers, BeyondTheBarCannotBeMappedIntoAPeer) {
  am::Device a(card_with_bar("gfx1100", 280, sim::GpuConfig::kDefaultBar0));
  am::Device b(card_with_bar("gfx1201", 281, sim::GpuConfig::kDefaultBar0));
  am::Allocation beyond = a.alloc_vram_gpu(4ull << 20);
  ASSERT_EQ(beyond.cpu, nullptr);
  try {
    b.map_peer(beyond);
    ADD_FAILURE() << "mapped VRAM beyond the owner's BAR";
  } catch (const am::DeviceError& e) {
    EXPECT_NE(std::string(e.what()).find("BAR0"), std::string::npos) << e.what();
  }
  a.free(beyond);
}

} // namespace
