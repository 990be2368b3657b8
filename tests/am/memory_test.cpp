// Memory: system memory reachable only while mapped (and bus mastering is on), and peer
// mappings between two cards in one VA space.
#include "device_fixture.h"

using namespace am_test;

// The boot sets bus mastering (after any reset, which clears it); without it the card reaches
// no system memory, mapped or not, and the copy faults.
TEST_P(AmDevice, SystemMemoryDmaNeedsBusMastering) {
  auto gpu = card();
  am::Device dev(gpu);
  EXPECT_EQ(gpu->config_read32(am::kPciCommand) & 6u, 6u);
  am::Allocation host = dev.alloc_system(4096);
  std::memset(host.cpu, 0, 4096);
  gpu->write_pci_command(am::kPciCommandMemory);
  expect_sdma_fill_fails_until(dev, host, 0x77, [&] {
    EXPECT_EQ(reinterpret_cast<uint32_t*>(host.cpu)[0], 0u);
    gpu->write_pci_command(am::kPciCommandMemory | am::kPciCommandBusMaster);
  });
}

TEST_P(AmDevice, SystemMemoryIsMappedInTheIommuOnlyWhileAllocated) {
  auto gpu = card();
  am::Device dev(gpu);
  size_t before = gpu->iommu().mapping_count();
  am::Allocation host = dev.alloc_system(4096);
  EXPECT_EQ(gpu->iommu().mapping_count(), before + 1);
  dev.free(host);
  EXPECT_EQ(gpu->iommu().mapping_count(), before);
}

// Two cards in one process, of different generations: one VA space, so a peer mapping puts the
// other card's buffer at the same address, and one SDMA copy moves data between the two
// cards' VRAM. Unmapped, the same copy is a page fault.
TEST(AmPeers, SdmaCopiesBetweenTwoCards) {
  am::Device a(sim::open_emulated_gpu("gfx1100", 50));
  am::Device b(sim::open_emulated_gpu("gfx1201", 51));
  am::Allocation src = a.alloc_vram(1 << 16), dst = b.alloc_vram(1 << 16);
  ASSERT_NE(src.va, dst.va);
  for (uint32_t i = 0; i < (1 << 14); ++i)
    reinterpret_cast<uint32_t*>(src.cpu)[i] = 0xabc00000u + i;
  std::memset(dst.cpu, 0, 1 << 16);
  a.map_peer(dst);
  am::SdmaBuilder copy;
  copy.copy_linear(dst.va, src.va, 1 << 16);
  a.wait(am::Engine::Sdma, a.submit_sdma(copy));
  EXPECT_EQ(std::memcmp(dst.cpu, src.cpu, 1 << 16), 0);
  a.unmap_peer(dst);
  try {
    a.wait(am::Engine::Sdma, a.submit_sdma(copy));
    ADD_FAILURE() << "a copy to an unmapped peer buffer completed";
  } catch (const am::DeviceError& e) {
    EXPECT_NE(std::string(e.what()).find("page fault (write)"), std::string::npos) << e.what();
  }
  a.free(src);
  b.free(dst);
}
