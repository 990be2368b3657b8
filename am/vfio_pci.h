// A PCI function driven through vfio-pci (Documentation/driver-api/vfio.rst, <linux/vfio.h>):
// a container with the type-1 IOMMU, the card's IOMMU group attached, the device fd; BARs 0, 2
// and 5 mapped from it, config space read and written through it (bus mastering switched on);
// every page the card may reach mapped with VFIO_IOMMU_MAP_DMA at iova = its physical address,
// so a wild DMA faults in the IOMMU; MSI delivered to an eventfd. vfio's no-IOMMU mode
// (/dev/vfio/noiommu-N) is the same without the DMA mappings, and warned about.
#pragma once
#include "pci.h"
#include "vfio_system.h"

#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace am {

class VfioPci final : public Pci {
public:
  // `group`: the card's IOMMU group number. Throws std::runtime_error saying what is missing
  // (the vfio module, permissions, a group that is not viable) and what to do.
  VfioPci(VfioSystem& sys, const std::string& address, const std::string& group, bool noiommu);
  ~VfioPci() override;
  VfioPci(const VfioPci&) = delete;
  VfioPci& operator=(const VfioPci&) = delete;

  uint32_t config_read32(uint32_t offset) override;
  void enable_bus_master() override;
  void config_write32(uint32_t offset, uint32_t value) override;
  void after_config_restore() override;
  uint32_t reg_read32(uint32_t index) override;
  void reg_write32(uint32_t index, uint32_t value) override;
  void doorbell_write64(uint32_t index, uint64_t value) override;
  uint8_t* vram() override { return bar0_.base; }
  uint64_t vram_size() const override { return bar0_.size; }
  uint64_t reg_bytes() const override { return bar5_.size; }
  std::vector<uint64_t> dma_map(void* host, uint64_t size) override;
  void dma_unmap(void* host, uint64_t size) override;
  bool wait_interrupt(std::chrono::microseconds timeout) override;
  std::string address() const override { return address_; }
  bool emulated() const override { return false; }

  bool interrupts() const { return irq_fd_ >= 0; }

private:
  struct Region {
    uint8_t* base = nullptr;
    uint64_t size = 0;
    uint64_t offset = 0; // in the device fd
  };
  Region region(unsigned index, bool map);
  void disable_msi();
  void setup_msi();
  void release();

  VfioSystem& sys_;
  std::string address_;
  bool noiommu_;
  int container_ = -1, group_ = -1, device_ = -1, irq_fd_ = -1;
  Region bar0_, bar2_, bar5_, config_;
  std::mutex dma_mutex_;
  struct DmaMapping {
    std::vector<std::pair<uint64_t, uint64_t>> runs; // (iova, size)
    bool pinned;                                     // false: another card's VRAM aperture
  };
  std::map<void*, DmaMapping> dma_; // by host address
};

} // namespace am
