// The emulated card's BAR0 and VRAM as a card without resizable BAR has them: the CPU reaches
// only the first 256 MiB (a pointer past them faults), RCC_CONFIG_MEMSIZE reports all of VRAM,
// and the MM_INDEX/MM_DATA window reaches any VRAM dword.
#include "am/hw/nbio_regs.h"
#include "sim/gpu.h"

#include <gtest/gtest.h>

#include <cstring>

namespace {

using namespace am::hw;

sim::Gpu& default_card() {
  static sim::Gpu gpu(sim::GpuConfig{});
  return gpu;
}

TEST(SimVram, BarIs256MiBAndMemsizeReportsAllOfVram) {
  sim::Gpu& gpu = default_card();
  EXPECT_EQ(gpu.bar0_size(), 256ull << 20);
  EXPECT_EQ(gpu.vram_bytes(), 4ull << 30);
  EXPECT_EQ(gpu.reg_read32(kRccConfigMemsize), 4096u); // MiB
  // The BAR's bytes are VRAM's first bytes, as the chip sees them.
  gpu.vram()[0x1234] = 0xa5;
  EXPECT_EQ(gpu.chip_vram()[0x1234], 0xa5);
  gpu.chip_vram()[(256ull << 20) - 1] = 0x3c;
  EXPECT_EQ(gpu.vram()[(256ull << 20) - 1], 0x3c);
}

TEST(SimVram, ResizableBarCoversAllOfVram) {
  sim::GpuConfig config;
  config.bar0_bytes = sim::GpuConfig::kResizableBar;
  config.vram_bytes = 1ull << 30;
  sim::Gpu gpu(config);
  EXPECT_EQ(gpu.bar0_size(), 1ull << 30);
  EXPECT_EQ(gpu.reg_read32(kRccConfigMemsize), 1024u);
  gpu.vram()[(1ull << 30) - 1] = 0x77;
  EXPECT_EQ(gpu.chip_vram()[(1ull << 30) - 1], 0x77);
}

// amdgpu_device_mm_access's sequence: MM_INDEX_HI, MM_INDEX with bit 31, then MM_DATA.
TEST(SimVram, MmIndexWindowReachesVramBeyondTheBar) {
  sim::Gpu& gpu = default_card();
  const uint64_t at = (3ull << 30) + 0x40;
  const uint32_t planted = 0xc0ffee11;
  std::memcpy(gpu.chip_vram() + at, &planted, 4);
  gpu.reg_write32(kMmIndexHi, uint32_t(at >> 31));
  gpu.reg_write32(kMmIndex, uint32_t(at & 0x7fffffff) | kMmIndexVram);
  EXPECT_EQ(gpu.reg_read32(kMmData), planted);
  gpu.reg_write32(kMmData, 0x12345678);
  uint32_t stored;
  std::memcpy(&stored, gpu.chip_vram() + at, 4);
  EXPECT_EQ(stored, 0x12345678u);
  // Without bit 31, MM_INDEX names a register (byte address).
  gpu.reg_write32(kMmIndex, kRccConfigMemsize * 4);
  EXPECT_EQ(gpu.reg_read32(kMmData), 4096u);
}

// Nothing past the BAR has a CPU address: a pointer there faults instead of reaching VRAM.
TEST(SimVramDeathTest, CpuPointerPastTheBarFaults) {
  if (sim::kBarWindowIsTheChipView) GTEST_SKIP() << "a ThreadSanitizer build maps VRAM once";
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(
      {
        sim::Gpu gpu(sim::GpuConfig{});
        volatile uint8_t* past = gpu.vram() + gpu.bar0_size();
        past[0] = 1;
      },
      "");
}

} // namespace
