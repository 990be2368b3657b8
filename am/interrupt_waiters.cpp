#include "interrupt_waiters.h"

namespace am {

void InterruptWaiters::sleep(uint64_t seen, std::chrono::microseconds timeout) {
  std::unique_lock lock(mutex_);
  if (epoch_.load(std::memory_order_relaxed) != seen) return;
  if (listening_) {
    // Back once the listener has an interrupt, or has stopped listening (then the caller looks
    // at its signal again and one waiter listens next).
    ++sleepers_;
    cv_.wait_for(lock, timeout,
                 [&] { return epoch_.load(std::memory_order_relaxed) != seen || !listening_; });
    --sleepers_;
    return;
  }
  // The listener: an interrupt raised since the last wait on the function, whoever made it,
  // is still counted there, so none raised after `seen` was read is lost.
  listening_ = true;
  lock.unlock();
  const bool got = pci_.wait_interrupt(timeout);
  lock.lock();
  listening_ = false;
  if (got) epoch_.fetch_add(1, std::memory_order_acq_rel);
  if (sleepers_) cv_.notify_all();
}

} // namespace am
