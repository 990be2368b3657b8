#include "vram_allocator.h"

#include <stdexcept>

namespace am {

VramAllocator::VramAllocator(uint64_t base, uint64_t size) {
  if (size) free_[base] = size;
  free_bytes_ = size;
}

std::optional<uint64_t> VramAllocator::allocate(uint64_t size, uint64_t align) {
  if (!size || !align || (align & (align - 1))) return std::nullopt;
  std::lock_guard lock(mutex_);
  auto best = free_.end();
  uint64_t best_waste = UINT64_MAX;
  for (auto it = free_.begin(); it != free_.end(); ++it) {
    uint64_t start = (it->first + align - 1) & ~(align - 1);
    uint64_t pad = start - it->first;
    if (pad > it->second || it->second - pad < size) continue;
    uint64_t waste = it->second - size;
    if (waste < best_waste) best = it, best_waste = waste;
  }
  if (best == free_.end()) return std::nullopt;
  const uint64_t block = best->first, block_size = best->second;
  const uint64_t start = (block + align - 1) & ~(align - 1);
  free_.erase(best);
  if (start > block) free_[block] = start - block;
  if (start + size < block + block_size) free_[start + size] = block + block_size - start - size;
  free_bytes_ -= size;
  return start;
}

void VramAllocator::free(uint64_t offset, uint64_t size) {
  std::lock_guard lock(mutex_);
  auto next = free_.lower_bound(offset);
  if (next != free_.end() && next->first < offset + size)
    throw std::logic_error("VramAllocator: double free or overlap");
  auto it = free_.emplace(offset, size).first;
  free_bytes_ += size;
  if (next != free_.end() && offset + size == next->first) {
    it->second += next->second;
    free_.erase(next);
  }
  if (it != free_.begin()) {
    auto prev = std::prev(it);
    if (prev->first + prev->second > offset) throw std::logic_error("VramAllocator: overlap");
    if (prev->first + prev->second == offset) {
      prev->second += it->second;
      free_.erase(it);
    }
  }
}

uint64_t VramAllocator::free_bytes() const {
  std::lock_guard lock(mutex_);
  return free_bytes_;
}

uint64_t VramAllocator::largest_free() const {
  std::lock_guard lock(mutex_);
  uint64_t m = 0;
  for (auto& [o, s] : free_) m = s > m ? s : m;
  return m;
}

} // namespace am
