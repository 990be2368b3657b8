#include "memory_port.h"

#include <algorithm>
#include <atomic>
#include <cstring>

namespace sim::shader {

// Splits an access at 4 KiB page boundaries so that each piece is translated on its own.
void MemoryPort::read(uint64_t va, void* dst, size_t len) {
  auto* out = static_cast<uint8_t*>(dst);
  while (len) {
    size_t chunk = std::min<size_t>(len, 4096 - (va & 4095));
    std::memcpy(out, translate(va, chunk, false), chunk);
    va += chunk, out += chunk, len -= chunk;
  }
}

void MemoryPort::write(uint64_t va, const void* src, size_t len) {
  auto* in = static_cast<const uint8_t*>(src);
  while (len) {
    size_t chunk = std::min<size_t>(len, 4096 - (va & 4095));
    std::memcpy(translate(va, chunk, true), in, chunk);
    va += chunk, in += chunk, len -= chunk;
  }
}

void MemoryPort::store32(uint64_t va, uint32_t value) {
  if (va & 3) throw MemoryFault(va, true, "misaligned 32-bit write");
  std::atomic_ref<uint32_t>(*reinterpret_cast<uint32_t*>(translate(va, 4, true)))
      .store(value, std::memory_order_release);
}

void MemoryPort::store64(uint64_t va, uint64_t value) {
  if (va & 7) throw MemoryFault(va, true, "misaligned 64-bit write");
  std::atomic_ref<uint64_t>(*reinterpret_cast<uint64_t*>(translate(va, 8, true)))
      .store(value, std::memory_order_release);
}

} // namespace sim::shader
