#include "engine.h"

#include <chrono>
#include <cstdio>
#include <thread>

namespace sim {

Engine::~Engine() { stop(); }

void Engine::start() {
  if (!thread_.joinable()) thread_ = std::thread([this] { loop(); });
}

void Engine::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void Engine::ring(uint64_t wptr) {
  bool wake;
  {
    std::lock_guard lock(mutex_);
    wptr_ = wptr;
    pending_ = true;
    wake = sleeping_;
  }
  if (wake) cv_.notify_all();
}

void Engine::forget_doorbell() {
  std::lock_guard lock(mutex_);
  pending_ = false;
  wptr_ = 0;
  epoch_.fetch_add(1, std::memory_order_acq_rel);
}

void Engine::halt(const std::string& why) {
  halted_ = true;
  std::fprintf(stderr, "amcl sim: %s halted: %s\n", name_.c_str(), why.c_str());
}

// How long an engine that has caught up polls for the next doorbell before it sleeps. A
// driver that submits again within this (a kernel and clFinish in a loop, a batch after a
// batch) hands the engine its work without a futex wake-up, which costs 5-10 us more when the
// two threads are on different CPUs of a paravirtualised machine.
constexpr std::chrono::microseconds kPollBeforeSleep{30};

void Engine::poll_for_doorbell() {
  const auto until = std::chrono::steady_clock::now() + kPollBeforeSleep;
  for (unsigned spin = 1;; ++spin) {
    if (pending_.load(std::memory_order_acquire) || stopping_.load(std::memory_order_acquire))
      return;
    if (spin < 64) {
#if defined(__x86_64__) || defined(__i386__)
      __builtin_ia32_pause();
#endif
    } else {
      std::this_thread::yield(); // the thread that will ring may need this core
    }
    if (spin % 16 == 0 && std::chrono::steady_clock::now() > until) return;
  }
}

void Engine::loop() {
  for (;;) {
    uint64_t wptr;
    poll_for_doorbell();
    {
      std::unique_lock lock(mutex_);
      sleeping_ = true;
      cv_.wait(lock, [&] { return pending_ || stopping_; });
      sleeping_ = false;
      if (stopping_) return;
      pending_ = false;
      wptr = wptr_;
      taken_epoch_ = epoch_.load(std::memory_order_acquire);
    }
    if (!halted_) process(wptr);
  }
}

} // namespace sim
