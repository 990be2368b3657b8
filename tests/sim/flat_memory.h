// A flat fake memory for tests of models that read and write GPU addresses: [Base, Base + Size)
// is backed by host bytes, anything else faults as an unmapped address would.
#pragma once
#include "sim/shader/memory_port.h"

#include <cstdint>
#include <cstring>
#include <vector>

namespace sim::test {

template <uint64_t Base, uint64_t Size> struct FlatMemory : shader::MemoryPort {
  std::vector<uint8_t> bytes = std::vector<uint8_t>(Size, 0);
  uint8_t* translate(uint64_t va, size_t len, bool write, bool) override {
    // Written so that an address near 2^64 (a negative offset from 0) cannot wrap into range.
    if (va < Base || len > bytes.size() || va - Base > bytes.size() - len)
      throw shader::MemoryFault(va, write, "unmapped");
    return bytes.data() + (va - Base);
  }
  template <class T> void put(uint64_t va, T v) { std::memcpy(&bytes[va - Base], &v, sizeof v); }
  template <class T> T get(uint64_t va) const {
    T v;
    std::memcpy(&v, &bytes[va - Base], sizeof v);
    return v;
  }
};

} // namespace sim::test
