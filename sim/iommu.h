// The emulated IOMMU: the device reaches host memory only through ranges the driver mapped
// with am::Pci::dma_map. Anything else is a fault and touches no host memory — the protection
// vfio-pci gives on real hardware.
#pragma once
#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>

namespace sim {

class Iommu {
public:
  uint64_t map(void* host, uint64_t size);
  void unmap(uint64_t bus, uint64_t size);
  // The mapping of exactly [host, host + size), undone.
  void unmap_host(void* host, uint64_t size);
  // Host pointer for [bus, bus+len) if that whole range lies in one mapping, else nullptr.
  uint8_t* translate(uint64_t bus, uint64_t len) const;
  size_t mapping_count() const;
  // Bumped by every unmap: a cache of translations (the GMC's TLB keeps host pointers) taken
  // before it may name memory the device can no longer reach. A new mapping takes bus addresses
  // never used before, so it leaves every earlier translation true.
  uint64_t generation() const { return generation_.load(std::memory_order_acquire); }
  // The device's PCI command register BUS_MASTER_ENABLE: without it the device issues no
  // upstream transaction (DMA to system memory, MSI), whatever is mapped.
  void set_bus_master(bool on) { bus_master_.store(on, std::memory_order_release); }
  bool bus_master() const { return bus_master_.load(std::memory_order_acquire); }

private:
  struct Range {
    uint8_t* host;
    uint64_t size;
  };
  mutable std::mutex mutex_;
  std::map<uint64_t, Range> ranges_; // by bus start
  // Bus addresses handed out by the emulated root complex; never reused within a process so
  // a stale address faults instead of reaching a newer mapping.
  uint64_t next_bus_ = 1ull << 40;
  std::atomic<bool> bus_master_{false};
  std::atomic<uint64_t> generation_{0};
};

} // namespace sim
