#include "engine.h"

#include <cstdio>

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
  {
    std::lock_guard lock(mutex_);
    wptr_ = wptr;
    pending_ = true;
  }
  cv_.notify_all();
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

void Engine::loop() {
  for (;;) {
    uint64_t wptr;
    {
      std::unique_lock lock(mutex_);
      cv_.wait(lock, [&] { return pending_ || stopping_; });
      if (stopping_) return;
      pending_ = false;
      wptr = wptr_;
      taken_epoch_ = epoch_.load(std::memory_order_acquire);
    }
    if (!halted_) process(wptr);
  }
}

} // namespace sim
