// A PCI function driven through its sysfs files (Documentation/ABI/testing/sysfs-bus-pci:
// "config", "resourceN" mmap-able BARs): BAR0 the VRAM aperture, BAR2 the doorbells, BAR5 the
// registers. Without vfio there is no IOMMU between the card and memory, so DMA addresses are
// physical addresses of pinned pages (am/pagemap.h) and a wild device write reaches any memory:
// this is the VFIO=0 no-IOMMU fallback, and it says so once. Interrupts are not delivered here;
// waits poll.
#pragma once
#include "bar_mapped_pci.h"

#include <filesystem>
#include <string>

namespace am {

class SysfsPciDevice final : public BarMappedPci {
public:
  // Opens <root>/bus/pci/devices/<address>; throws std::runtime_error naming the file that
  // cannot be opened or mapped (and what to do about it).
  SysfsPciDevice(const std::filesystem::path& root, const std::string& address);
  ~SysfsPciDevice() override;

  uint32_t config_read32(uint32_t offset) override;
  void enable_bus_master() override;
  void config_write32(uint32_t offset, uint32_t value) override;
  std::vector<uint64_t> dma_map(void* host, uint64_t size) override;
  void dma_unmap(void* host, uint64_t size) override;
  // No interrupt delivery without vfio: waits poll.
  bool wait_interrupt(std::chrono::microseconds timeout) override { return poll_interrupt(timeout); }

private:
  Bar map_bar(const std::filesystem::path& dir, int index);

  int config_fd_ = -1;
  std::filesystem::path config_path_;
  bool config_writable_ = false;
};

} // namespace am
