// Encodes SDMA 6.0 packets (layouts in hw/sdma_v6.h).
#pragma once
#include "hw/sdma_v6.h"

#include <cstdint>
#include <vector>

namespace am {

class SdmaBuilder {
public:
  std::vector<uint32_t>& words() { return words_; }
  const std::vector<uint32_t>& words() const { return words_; }
  void clear() { words_.clear(); }

  // Linear copy of any size: split into packets of at most 1 GiB (the COUNT field's limit).
  void copy_linear(uint64_t dst, uint64_t src, uint64_t bytes);
  // Fill dword-aligned memory with a 32-bit pattern.
  void const_fill(uint64_t dst, uint32_t pattern, uint64_t bytes);
  void fence(uint64_t address, uint32_t value);
  void trap(uint32_t context = 0);
  void timestamp(uint64_t address);
  void nop(uint32_t payload_dwords = 0);

private:
  void emit(uint32_t w) { words_.push_back(w); }
  std::vector<uint32_t> words_;
};

} // namespace am
