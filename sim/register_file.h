// BAR5 of the emulated GPU: a dword-addressed register space. Plain registers just hold their
// value; the device model hooks the registers whose writes have side effects. Each register
// is individually atomic, as a hardware register is, because the engines read configuration
// (VM context, IH ring) while the driver writes other registers.
// Registers past the BAR (NBIO 4.3.0's doorbell routing, reached through the PCIe index/data
// pair) live in a sparse overflow map: few, and rarely touched.
#pragma once
#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>

namespace sim {

class RegisterFile {
public:
  static constexpr uint32_t kDwords = 1u << 18; // 1 MiB BAR5

  RegisterFile() : values_(new std::atomic<uint32_t>[kDwords]) {
    for (uint32_t i = 0; i < kDwords; ++i) values_[i].store(0, std::memory_order_relaxed);
  }
  uint32_t read(uint32_t index) const {
    if (index < kDwords) return values_[index].load(std::memory_order_acquire);
    std::lock_guard lock(beyond_mutex_);
    auto it = beyond_.find(index);
    return it == beyond_.end() ? 0 : it->second;
  }
  void store(uint32_t index, uint32_t value) {
    if (index < kDwords) {
      values_[index].store(value, std::memory_order_release);
      return;
    }
    std::lock_guard lock(beyond_mutex_);
    beyond_[index] = value;
  }
  // Every register back to 0 (a mode1 reset).
  void clear() {
    for (uint32_t i = 0; i < kDwords; ++i) values_[i].store(0, std::memory_order_relaxed);
    std::lock_guard lock(beyond_mutex_);
    beyond_.clear();
  }
  uint64_t read64(uint32_t lo_index, uint32_t hi_index) const {
    return uint64_t(read(lo_index)) | (uint64_t(read(hi_index)) << 32);
  }

private:
  std::unique_ptr<std::atomic<uint32_t>[]> values_;
  mutable std::mutex beyond_mutex_;
  std::map<uint32_t, uint32_t> beyond_;
};

} // namespace sim
