#include "bar_mapped_pci.h"

#include <algorithm>
#include <atomic>
#include <thread>

namespace am {

uint32_t BarMappedPci::reg_read32(uint32_t index) {
  if (uint64_t(index) * 4 + 4 > bar5_.size) return 0xffffffffu;
  return *reinterpret_cast<volatile uint32_t*>(bar5_.base + uint64_t(index) * 4);
}

void BarMappedPci::reg_write32(uint32_t index, uint32_t value) {
  if (uint64_t(index) * 4 + 4 > bar5_.size) return;
  *reinterpret_cast<volatile uint32_t*>(bar5_.base + uint64_t(index) * 4) = value;
}

void BarMappedPci::doorbell_write64(uint32_t index, uint64_t value) {
  if (uint64_t(index) * 4 + 8 > bar2_.size) return;
  std::atomic_thread_fence(std::memory_order_release); // ring contents before the doorbell
  *reinterpret_cast<volatile uint64_t*>(bar2_.base + uint64_t(index) * 4) = value;
}

bool BarMappedPci::poll_interrupt(std::chrono::microseconds timeout) {
  std::this_thread::sleep_for(std::min(timeout, std::chrono::microseconds(100)));
  return false;
}

} // namespace am
