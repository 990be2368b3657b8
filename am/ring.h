// A ring buffer the CPU writes and a GPU engine consumes: a power-of-two number of dwords in
// GPU memory and a monotonically increasing write pointer; the caller says how far the engine
// has read (from its read-pointer write-back).
#pragma once
#include "memory.h"
#include "write_barrier.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <span>
#include <stdexcept>

namespace am {

// The compute and SDMA queues' rings: 64K dwords each.
inline constexpr uint64_t kQueueRingBytes = 256 * 1024;

class Ring {
public:
  void init(const Allocation& mem) {
    mem_ = mem;
    dwords_ = uint32_t(mem.size / 4);
  }
  uint32_t dwords() const { return dwords_; }
  uint64_t va() const { return mem_.va; }
  uint64_t wptr() const { return wptr_; }
  // After a queue reset the engine starts again from the ring's beginning.
  void reset() {
    wptr_ = 0;
    std::memset(mem_.cpu, 0, mem_.size);
  }

  // Copies `words` into the ring; `read_dwords` reports how far the engine has read so a
  // full ring waits instead of overwriting unread packets. Returns false if it cannot fit.
  template <class ReadPtr> bool write(std::span<const uint32_t> words, ReadPtr read_dwords) {
    if (words.size() >= dwords_) throw std::length_error("command larger than the ring");
    if (words.empty()) return true;
    if (wptr_ + words.size() - read_dwords() >= dwords_) return false;
    // Up to the ring's end, then from its beginning: two copies, not a masked store per dword
    // (500 host instructions a dispatch's packets).
    auto* ring = reinterpret_cast<uint32_t*>(mem_.cpu);
    const size_t at = wptr_ & (dwords_ - 1), first = std::min<size_t>(words.size(), dwords_ - at);
    std::memcpy(ring + at, words.data(), first * 4);
    std::memcpy(ring, words.data() + first, (words.size() - first) * 4);
    device_write_barrier(); // the packets are in memory before the doorbell announces them
    wptr_ += words.size();
    return true;
  }

private:
  Allocation mem_;
  uint32_t dwords_ = 0;
  uint64_t wptr_ = 0;
};

} // namespace am
