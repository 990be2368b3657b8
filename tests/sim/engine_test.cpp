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
  std::atomic<int> last_cpu{-1};

protected:
  void process(uint64_t wptr) override {
    last_cpu.store(sched_getcpu());
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
  // Both threads on `first`: the engine there by its own mask, which then widens again (a
  // thread stays where it runs when its mask grows), the ringer pinned for the whole test.
  cpu_set_t pin = one_cpu(first);
  ASSERT_EQ(pthread_setaffinity_np(engine.host_thread(), sizeof pin, &pin), 0);
  ASSERT_EQ(pthread_setaffinity_np(pthread_self(), sizeof pin, &pin), 0);
  ASSERT_EQ(pthread_setaffinity_np(engine.host_thread(), sizeof allowed, &allowed), 0);
  for (uint64_t wptr = 1; wptr <= 64 && engine.cpu_moves() == 0; ++wptr) {
    engine.ring(wptr);
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (engine.done.load(std::memory_order_acquire) < wptr) {
      ASSERT_LT(std::chrono::steady_clock::now(), until) << "doorbell " << wptr << " not taken";
      std::this_thread::yield();
    }
  }
  EXPECT_EQ(engine.cpu_moves(), 1u);
  // The next doorbell is taken elsewhere, and the engine's mask is the process's again.
  engine.ring(1000);
  while (engine.done.load(std::memory_order_acquire) < 1000) std::this_thread::yield();
  EXPECT_NE(engine.last_cpu.load(), first);
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
