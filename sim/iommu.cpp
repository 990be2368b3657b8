#include "iommu.h"

#include <stdexcept>

namespace sim {

uint64_t Iommu::map(void* host, uint64_t size) {
  if (!host || !size || (reinterpret_cast<uintptr_t>(host) & 4095) || (size & 4095))
    throw std::runtime_error("sim iommu: dma_map needs page-aligned host memory");
  std::lock_guard lock(mutex_);
  uint64_t bus = next_bus_;
  next_bus_ += size + 4096; // a guard page between mappings
  ranges_[bus] = {static_cast<uint8_t*>(host), size};
  return bus;
}

void Iommu::unmap(uint64_t bus, uint64_t size) {
  std::lock_guard lock(mutex_);
  auto it = ranges_.find(bus);
  if (it == ranges_.end() || it->second.size != size)
    throw std::runtime_error("sim iommu: dma_unmap of a range that was not mapped");
  ranges_.erase(it);
  generation_.fetch_add(1, std::memory_order_acq_rel);
}

void Iommu::unmap_host(void* host, uint64_t size) {
  std::lock_guard lock(mutex_);
  for (auto it = ranges_.begin(); it != ranges_.end(); ++it)
    if (it->second.host == host && it->second.size == size) {
      ranges_.erase(it);
      generation_.fetch_add(1, std::memory_order_acq_rel);
      return;
    }
  throw std::runtime_error("sim iommu: dma_unmap of a range that was not mapped");
}

uint8_t* Iommu::translate(uint64_t bus, uint64_t len) const {
  std::lock_guard lock(mutex_);
  auto it = ranges_.upper_bound(bus);
  if (it == ranges_.begin()) return nullptr;
  --it;
  uint64_t off = bus - it->first;
  if (off + len > it->second.size) return nullptr;
  return it->second.host + off;
}

size_t Iommu::mapping_count() const {
  std::lock_guard lock(mutex_);
  return ranges_.size();
}

} // namespace sim
