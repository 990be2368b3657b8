// Several threads sleeping on one card's interrupts. The PCI function has one interrupt
// counter (the emulator's, vfio's eventfd) that a wait consumes, so of two threads waiting
// on it one could take the interrupt meant for both and leave the other asleep until its
// timeout. Here one waiter listens on the function and the others on a condition variable,
// and each sees every interrupt raised after it read epoch().
#pragma once
#include "pci.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>

namespace am {

class InterruptWaiters {
public:
  explicit InterruptWaiters(Pci& pci) : pci_(pci) {}
  // Read before looking at what the interrupt would change (a signal), then passed to sleep().
  uint64_t epoch() const { return epoch_.load(std::memory_order_acquire); }
  // Blocks until an interrupt comes after `seen` was read, or `timeout` passes.
  void sleep(uint64_t seen, std::chrono::microseconds timeout);

private:
  Pci& pci_;
  std::mutex mutex_;
  std::condition_variable cv_;
  std::atomic<uint64_t> epoch_ = 0; // interrupts the listeners have taken
  bool listening_ = false;          // a thread waits on the PCI function
  unsigned sleepers_ = 0;           // threads waiting on cv_
};

// Polls `done` for up to `limit` before a waiter sleeps: a wait that ends within a few
// microseconds then costs no sleep and wake-up (a futex call and a context switch each, several
// microseconds on a paravirtualised machine). After the first few polls it yields between
// them, so that on a machine with more busy threads than cores the thread it waits for (the
// emulated engine, another process) gets the core. True when `done` became true.
template <class Done> bool spin_until(Done&& done, std::chrono::microseconds limit) {
  const auto until = std::chrono::steady_clock::now() + limit;
  for (unsigned spin = 1;; ++spin) {
    if (done()) return true;
    if (spin < 64) {
#if defined(__x86_64__) || defined(__i386__)
      __builtin_ia32_pause();
#endif
    } else {
      std::this_thread::yield();
    }
    // A clock read costs tens of ns on a paravirtualised machine: look at it now and then.
    if (spin % 16 == 0 && std::chrono::steady_clock::now() > until) return done();
  }
}

} // namespace am
