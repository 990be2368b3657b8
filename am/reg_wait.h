// Polling a device register until it holds a value, with a deadline: how the driver waits for
// the PSP and SMU, which answer through mailbox registers.
#pragma once
#include "pci.h"

#include <chrono>
#include <cstdint>
#include <thread>

namespace am {

// True once (reg & mask) == value; false when `timeout` passed first.
inline bool wait_reg(Pci& pci, uint32_t index, uint32_t mask, uint32_t value,
                     std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (unsigned spin = 0;; ++spin) {
    if ((pci.reg_read32(index) & mask) == value) return true;
    if (std::chrono::steady_clock::now() > deadline) return false;
    if (spin > 64) std::this_thread::sleep_for(std::chrono::microseconds(100));
  }
}

} // namespace am
