// BAR5 of the emulated GPU: a dword-addressed register space. Plain registers just hold their
// value; the device model hooks the registers whose writes have side effects. Each register
// is individually atomic, as a hardware register is, because the engines read configuration
// (VM context, IH ring) while the driver writes other registers.
#pragma once
#include <atomic>
#include <cstdint>
#include <memory>

namespace sim {

class RegisterFile {
public:
  static constexpr uint32_t kDwords = 1u << 18; // 1 MiB BAR5

  RegisterFile() : values_(new std::atomic<uint32_t>[kDwords]) {
    for (uint32_t i = 0; i < kDwords; ++i) values_[i].store(0, std::memory_order_relaxed);
  }
  uint32_t read(uint32_t index) const {
    return index < kDwords ? values_[index].load(std::memory_order_acquire) : 0xffffffffu;
  }
  void store(uint32_t index, uint32_t value) {
    if (index < kDwords) values_[index].store(value, std::memory_order_release);
  }
  // Every register back to 0 (a mode1 reset).
  void clear() {
    for (uint32_t i = 0; i < kDwords; ++i) values_[i].store(0, std::memory_order_relaxed);
  }
  uint64_t read64(uint32_t lo_index, uint32_t hi_index) const {
    return uint64_t(read(lo_index)) | (uint64_t(read(hi_index)) << 32);
  }

private:
  std::unique_ptr<std::atomic<uint32_t>[]> values_;
};

} // namespace sim
