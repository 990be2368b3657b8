// The driver's page of 64-bit slots shared with the engines: the timeline signals RELEASE_MEM
// and SDMA FENCE write, the read pointers the queues write back, the write pointers they may
// poll, the IH's write-pointer write-back and a GPU clock sample.
#pragma once
#include "memory.h"

#include <atomic>
#include <cstdint>
#include <cstring>

namespace am {

class SignalPage {
public:
  enum Slot : unsigned {
    kComputeSignal = 0,
    kSdmaSignal = 1,
    kComputeRptr = 2,
    kSdmaRptr = 3,
    kComputeWptrPoll = 4,
    kIhWptr = 5,
    kClockSample = 6,
    kSdmaWptrPoll = 7
  };

  void init(const Allocation& page) {
    mem_ = page;
    std::memset(page.cpu, 0, page.size);
  }
  const Allocation& memory() const { return mem_; }
  static uint64_t offset(Slot s) { return 8 * uint64_t(s); }
  uint64_t va(Slot s) const { return mem_.va + offset(s); }
  // The GPU writes slots while the CPU polls them.
  uint64_t load(Slot s) const {
    return std::atomic_ref<uint64_t>(reinterpret_cast<uint64_t*>(mem_.cpu)[s])
        .load(std::memory_order_acquire);
  }
  void store(Slot s, uint64_t value) {
    std::atomic_ref<uint64_t>(reinterpret_cast<uint64_t*>(mem_.cpu)[s])
        .store(value, std::memory_order_release);
  }

private:
  Allocation mem_;
};

} // namespace am
