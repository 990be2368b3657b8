// The command processors' host-thread machinery (sim/engine.h): an engine that keeps taking
// doorbells on the CPU of the thread that rings them moves to another CPU the process may use,
// and leaves the process's CPUs as they were.
#include "sim/engine.h"

#include <gtest/gtest.h>

#include <pthread.h>
#include <sched.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

namespace {

class CountingEngine : public sim::Engine {
public:
  CountingEngine() : Engine("test engine") {}
  ~CountingEngine() override { stop(); }
  using Engine::cpu_moves;
  using Engine::host_thread;
  std::atomic<uint64_t> done{0};

protected:
  void process(uint64_t wptr) override {
    done.store(wptr, std::memory_order_release);
  }
};

cpu_set_t one_cpu(int cpu) {
  cpu_set_t s;
  CPU_ZERO(&s);
  CPU_SET(cpu, &s);
  return s;
}

// Restores the calling thread's CPUs when the test ends, pass or fail.
struct KeepAffinity {
  cpu_set_t saved;
  KeepAffinity() { pthread_getaffinity_np(pthread_self(), sizeof saved, &saved); }
  ~KeepAffinity() { pthread_setaffinity_np(pthread_self(), sizeof saved, &saved); }
};

TEST(Engine, MovesOffTheCpuOfTheThreadThatRingsIt) {
  KeepAffinity keep;
  cpu_set_t allowed = keep.saved;
  if (CPU_COUNT(&allowed) < 2) GTEST_SKIP() << "needs two CPUs";
  int first = 0;
  while (!CPU_ISSET(first, &allowed)) ++first;
  CountingEngine engine;
  engine.start();
  cpu_set_t pin = one_cpu(first);
  ASSERT_EQ(pthread_setaffinity_np(pthread_self(), sizeof pin, &pin), 0);
  // Each attempt puts the engine on the ringer's CPU (by its own mask, which then widens again:
  // a thread stays where it runs when its mask grows) and rings until it moves. On a loaded
  // machine the scheduler may part the two itself before the engine has seen enough doorbells
  // there; that attempt proves nothing, and the next one places them together again.
  uint64_t wptr = 0;
  for (int attempt = 0; attempt < 50 && engine.cpu_moves() == 0; ++attempt) {
    ASSERT_EQ(pthread_setaffinity_np(engine.host_thread(), sizeof pin, &pin), 0);
    ASSERT_EQ(pthread_setaffinity_np(engine.host_thread(), sizeof allowed, &allowed), 0);
    for (int i = 0; i < 32 && engine.cpu_moves() == 0; ++i) {
      engine.ring(++wptr);
      const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
      while (engine.done.load(std::memory_order_acquire) < wptr) {
        ASSERT_LT(std::chrono::steady_clock::now(), until) << "doorbell " << wptr << " not taken";
        std::this_thread::yield();
      }
    }
  }
  EXPECT_GE(engine.cpu_moves(), 1u);
  // The move leaves the engine's mask as it was: the process's CPUs.
  cpu_set_t now;
  ASSERT_EQ(pthread_getaffinity_np(engine.host_thread(), sizeof now, &now), 0);
  EXPECT_TRUE(CPU_EQUAL(&now, &allowed));
}

TEST(Engine, StaysWhenTheProcessHasOneCpu) {
  KeepAffinity keep;
  cpu_set_t pin = one_cpu(sched_getcpu());
  ASSERT_EQ(pthread_setaffinity_np(pthread_self(), sizeof pin, &pin), 0);
  CountingEngine engine; // its thread inherits the one CPU
  engine.start();
  for (uint64_t wptr = 1; wptr <= 32; ++wptr) {
    engine.ring(wptr);
    while (engine.done.load(std::memory_order_acquire) < wptr) std::this_thread::yield();
  }
  EXPECT_EQ(engine.cpu_moves(), 0u);
}

} // namespace
