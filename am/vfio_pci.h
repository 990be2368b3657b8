// A PCI function driven through vfio-pci (Documentation/driver-api/vfio.rst, <linux/vfio.h>):
// a container with the type-1 IOMMU, the card's IOMMU group attached, the device fd; BARs 0, 2
// and 5 mapped from it, config space read and written through it (bus mastering switched on);
// every page the card may reach mapped with VFIO_IOMMU_MAP_DMA at iova = its physical address,
// so a wild DMA faults in the IOMMU, after checking that iova lies in the ranges the IOMMU
// allows (VFIO_IOMMU_GET_INFO); MSI delivered to an eventfd. vfio's no-IOMMU mode
// (/dev/vfio/noiommu-N) is the same without the DMA mappings, and warned about.
#pragma once
#include "bar_mapped_pci.h"
#include "vfio_system.h"

#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace am {

class VfioPci final : public BarMappedPci {
public:
  // `group`: the card's IOMMU group number. Throws std::runtime_error saying what is missing
  // (the vfio module, permissions, a group that is not viable) and what to do.
  VfioPci(VfioSystem& sys, const std::string& address, const std::string& group, bool noiommu);
  ~VfioPci() override;

  uint32_t config_read32(uint32_t offset) override;
  void enable_bus_master() override;
  void config_write32(uint32_t offset, uint32_t value) override;
  void after_config_restore() override;
  std::vector<uint64_t> dma_map(void* host, uint64_t size) override;
  void dma_unmap(void* host, uint64_t size) override;
  bool wait_interrupt(std::chrono::microseconds timeout) override;

  bool interrupts() const { return irq_fd_ >= 0; }

private:
  using DmaRuns = std::vector<std::pair<uint64_t, uint64_t>>; // (iova, size)
  // A region of the device fd (VFIO_DEVICE_GET_REGION_INFO).
  struct Region {
    uint64_t offset = 0, size = 0;
    bool mappable = false;
  };
  Region region(unsigned index);
  Bar map_bar(unsigned index);
  void unmap_dma(const DmaRuns& runs);
  void disable_msi();
  void setup_msi();
  void release();
  void read_iova_ranges();
  void warn_unless_idle_d3_disabled();
  // Throws when [iova, iova + size) is not inside one of the IOMMU's allowed IOVA ranges.
  void check_iova(uint64_t iova, uint64_t size) const;

  VfioSystem& sys_;
  bool noiommu_;
  int container_ = -1, group_ = -1, device_ = -1, irq_fd_ = -1;
  uint64_t config_offset_ = 0; // config space, in the device fd
  std::mutex dma_mutex_;
  struct DmaMapping {
    DmaRuns runs;
    bool pinned; // false: another card's VRAM aperture
  };
  std::map<void*, DmaMapping> dma_; // by host address
  // The IOVA ranges the IOMMU lets the container map (VFIO_IOMMU_GET_INFO's IOVA range
  // capability), [start, end] inclusive; empty when the kernel did not say.
  std::vector<std::pair<uint64_t, uint64_t>> iova_ranges_;
};

} // namespace am
