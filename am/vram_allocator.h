// Allocator of device-physical VRAM ranges: best fit over a free list with coalescing, so
// fragmentation stays bounded; exhaustion is an error the caller sees, never a crash.
#pragma once
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>

namespace am {

class VramAllocator {
public:
  VramAllocator(uint64_t base, uint64_t size);
  // Returns the offset of `size` bytes aligned to `align` (a power of two), or nothing.
  std::optional<uint64_t> allocate(uint64_t size, uint64_t align);
  void free(uint64_t offset, uint64_t size);
  uint64_t free_bytes() const;
  uint64_t largest_free() const;

private:
  mutable std::mutex mutex_;
  std::map<uint64_t, uint64_t> free_; // offset -> size
  uint64_t free_bytes_ = 0;
};

} // namespace am
