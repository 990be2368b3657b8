// BAR5 of the emulated GPU: a dword-addressed register space. Plain registers just hold their
// value; the device model hooks the registers whose writes have side effects.
#pragma once
#include <cstdint>
#include <functional>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace sim {

class RegisterFile {
public:
  static constexpr uint32_t kDwords = 1u << 18; // 1 MiB BAR5

  RegisterFile() : values_(kDwords, 0) {}
  uint32_t read(uint32_t index) const { return index < kDwords ? values_[index] : 0xffffffffu; }
  void store(uint32_t index, uint32_t value) {
    if (index < kDwords) values_[index] = value;
  }
  uint64_t read64(uint32_t lo_index, uint32_t hi_index) const {
    return uint64_t(read(lo_index)) | (uint64_t(read(hi_index)) << 32);
  }

private:
  std::vector<uint32_t> values_;
};

} // namespace sim
