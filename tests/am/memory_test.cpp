// Memory: system memory reachable only while mapped (and bus mastering is on), and peer
// mappings between two cards in one VA space.
#include "device_fixture.h"

#include "am/va_space.h"

#include <vector>

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

// A transfer's host memory (unaligned, inside a larger array) is mapped for DMA only for the
// transfer: the card reads it there, writes it only when the mapping says so (a read-only
// mapping turns a write into a page fault that leaves the pages alone), and once unmapped the
// IOMMU and the page tables no longer reach it.
TEST_P(AmDevice, TransferMemoryIsMappedForItsDurationOnly) {
  auto gpu = card();
  am::Device dev(gpu);
  const size_t before = gpu->iommu().mapping_count();
  std::vector<uint8_t> host(3 * 4096, 0x11);
  uint8_t* at = host.data() + 4096 + 100; // 200 bytes inside the middle page
  am::Allocation vram = dev.alloc_vram(4096);
  std::memset(vram.cpu, 0x22, 4096);
  am::Allocation w = dev.map_transfer(at, 200, true);
  EXPECT_EQ(gpu->iommu().mapping_count(), before + 1);
  EXPECT_EQ(w.size % 4096, 0u);
  const uint64_t host_va = w.va + uint64_t(at - w.cpu);
  am::SdmaBuilder to_host;
  to_host.copy_linear(host_va, vram.va, 200);
  dev.wait(am::Engine::Sdma, dev.submit_sdma(to_host));
  EXPECT_EQ(host[4096 + 99], 0x11);
  EXPECT_EQ(host[4096 + 100], 0x22);
  EXPECT_EQ(host[4096 + 299], 0x22);
  EXPECT_EQ(host[4096 + 300], 0x11);
  dev.unmap_transfer(w);
  EXPECT_EQ(gpu->iommu().mapping_count(), before);
  EXPECT_THROW(dev.wait(am::Engine::Sdma, dev.submit_sdma(to_host)), am::DeviceError);

  std::fill(host.begin(), host.end(), uint8_t(0x33));
  am::Allocation r = dev.map_transfer(at, 200, false);
  am::SdmaBuilder to_device, into_read_only;
  const uint64_t read_va = r.va + uint64_t(at - r.cpu);
  to_device.copy_linear(vram.va, read_va, 200);
  dev.wait(am::Engine::Sdma, dev.submit_sdma(to_device), am_test::kAfterResetLimit);
  EXPECT_EQ(vram.cpu[0], 0x33);
  EXPECT_EQ(vram.cpu[200], 0x22);
  std::memset(vram.cpu, 0x44, 4096);
  into_read_only.copy_linear(read_va, vram.va, 200);
  try {
    dev.wait(am::Engine::Sdma, dev.submit_sdma(into_read_only));
    ADD_FAILURE() << "a copy into a read-only transfer mapping completed";
  } catch (const am::DeviceError& e) {
    EXPECT_NE(std::string(e.what()).find("page fault (write)"), std::string::npos) << e.what();
  }
  EXPECT_EQ(host[4096 + 100], 0x33);
  dev.unmap_transfer(r);
  dev.free(vram);
}

// Shared virtual memory is pinned and mapped at its own address already: a transfer from it
// is refused (the caller stages), so its pinning is not undone by the transfer's.
TEST_P(AmDevice, TransferMappingRefusesSharedMemoryWindows) {
  am::Device dev(card());
  const auto* in_window = reinterpret_cast<const void*>(am::VaSpace::kHostWindows[0].base + 4096);
  EXPECT_THROW(dev.map_transfer(in_window, 4096, false), am::DeviceError);
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
