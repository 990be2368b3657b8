#include "engine.h"

#include <pthread.h>
#include <sched.h>

#include <chrono>
#include <cstdio>
#include <thread>

namespace sim {

Engine::~Engine() { stop(); }

void Engine::start() {
  if (thread_.joinable()) return;
  thread_ = std::thread([this] { loop(); });
  pthread_setname_np(thread_.native_handle(), thread_name_);
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
  ringer_cpu_.store(sched_getcpu(), std::memory_order_relaxed);
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
  // On the ringer's CPU, pausing only delays the thread that will ring: yield at once.
  const unsigned pauses = sched_getcpu() == ringer_cpu_.load(std::memory_order_relaxed) ? 1 : 64;
  for (unsigned spin = 1;; ++spin) {
    if (pending_.load(std::memory_order_acquire) || stopping_.load(std::memory_order_acquire))
      return;
    if (spin < pauses) {
#if defined(__x86_64__) || defined(__i386__)
      __builtin_ia32_pause();
#endif
    } else {
      std::this_thread::yield(); // the thread that will ring may need this core
    }
    if (spin % 16 == 0 && std::chrono::steady_clock::now() > until) return;
  }
}

// An engine that keeps finding itself on the CPU of the thread that rings it moves to another
// CPU the process may use. Sharing one, the two hand the core back and forth at every
// submission and completion (two context switches, 3-4 us each in this paravirtualised guest),
// and a kernel + clFinish round trip took 8-10 us instead of 2. The engine's mask then stays
// without that CPU: with it back, each futex wake-up of a sleeping engine could place it
// beside its waker again (wake-affine), which kept the slow mode for part of most runs.
void Engine::keep_off_ringer_cpu() {
  const int mine = sched_getcpu();
  if (mine < 0 || mine != ringer_cpu_.load(std::memory_order_relaxed)) {
    shared_takes_ = 0;
    return;
  }
  constexpr unsigned kSharedTakesBeforeMoving = 8;
  constexpr auto kMinTimeBetweenMoves = std::chrono::milliseconds(20);
  if (++shared_takes_ < kSharedTakesBeforeMoving) return;
  shared_takes_ = 0;
  const auto now = std::chrono::steady_clock::now();
  if (now - last_move_ < kMinTimeBetweenMoves) return;
  last_move_ = now;
  cpu_set_t mask;
  if (pthread_getaffinity_np(pthread_self(), sizeof mask, &mask) != 0) return;
  // The CPU left out by the last move comes back: the ringer has moved off it.
  if (excluded_cpu_ >= 0) CPU_SET(excluded_cpu_, &mask);
  if (CPU_COUNT(&mask) < 2 || !CPU_ISSET(mine, &mask)) return;
  CPU_CLR(mine, &mask);
  if (pthread_setaffinity_np(pthread_self(), sizeof mask, &mask) != 0) return;
  excluded_cpu_ = mine;
  moves_.fetch_add(1, std::memory_order_relaxed);
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
    keep_off_ringer_cpu();
    if (!halted_) process(wptr);
  }
}

} // namespace sim
