// The command processors' host-thread machinery (sim/engine.h): an engine that keeps taking
// doorbells on the CPU of the thread that rings them moves to another CPU the process may use,
// and keeps that CPU out of its mask until the ringer moves onto the engine's new CPU.
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
  CountingEngine() : Engine("test engine", "amcl test") {}
  ~CountingEngine() override { stop(); }
  using Engine::cpu_moves;
  using Engine::host_thread;
  std::atomic<uint64_t> done{0};

protected:
  void process(uint64_t wptr) override {
    last_cpu.store(sched_getcpu(), std::memory_order_relaxed);
    done.store(wptr, std::memory_order_release);
  }

public:
  std::atomic<int> last_cpu{-1};
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

// Rings once and waits (at most 10 s) for the engine to take it.
void ring_and_wait(CountingEngine& engine, uint64_t& wptr) {
  engine.ring(++wptr);
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (engine.done.load(std::memory_order_acquire) < wptr) {
    ASSERT_LT(std::chrono::steady_clock::now(), until) << "doorbell " << wptr << " not taken";
    std::this_thread::yield();
  }
}

// Puts the engine on `cpu`, the calling thread's only CPU (by the engine's own mask, which then
// widens to `wide`: a thread stays where it runs when its mask grows), and rings until the
// engine has moved once more than `moves_before`. On a loaded machine the scheduler may part
// the two itself before the engine has seen enough doorbells there; that attempt proves
// nothing, and the next one places them together again.
void ring_until_moved(CountingEngine& engine, uint64_t& wptr, int cpu, const cpu_set_t& wide,
                      unsigned moves_before) {
  cpu_set_t pin = one_cpu(cpu);
  ASSERT_EQ(pthread_setaffinity_np(pthread_self(), sizeof pin, &pin), 0);
  for (int attempt = 0; attempt < 50 && engine.cpu_moves() == moves_before; ++attempt) {
    ASSERT_EQ(pthread_setaffinity_np(engine.host_thread(), sizeof pin, &pin), 0);
    ASSERT_EQ(pthread_setaffinity_np(engine.host_thread(), sizeof wide, &wide), 0);
    for (int i = 0; i < 32 && engine.cpu_moves() == moves_before; ++i)
      ASSERT_NO_FATAL_FAILURE(ring_and_wait(engine, wptr));
  }
  ASSERT_EQ(engine.cpu_moves(), moves_before + 1);
}

std::vector<int> cpus_of(const cpu_set_t& s) {
  std::vector<int> cpus;
  for (int c = 0; c < CPU_SETSIZE; ++c)
    if (CPU_ISSET(c, &s)) cpus.push_back(c);
  return cpus;
}

cpu_set_t without(cpu_set_t s, int cpu) {
  CPU_CLR(cpu, &s);
  return s;
}

bool engine_mask_is(CountingEngine& engine, const cpu_set_t& expected) {
  cpu_set_t now;
  return pthread_getaffinity_np(engine.host_thread(), sizeof now, &now) == 0 &&
         CPU_EQUAL(&now, &expected);
}

// A started engine, the process's CPUs (two at least, else the test is skipped) and the calling
// thread's mask restored at the end.
class EngineMoves : public ::testing::Test {
protected:
  void SetUp() override {
    if (cpus.size() < 2) GTEST_SKIP() << "needs two CPUs";
    engine.start();
  }
  KeepAffinity keep;
  const cpu_set_t allowed = keep.saved;
  const std::vector<int> cpus = cpus_of(allowed);
  CountingEngine engine;
  uint64_t wptr = 0;
};

TEST_F(EngineMoves, OffTheCpuOfTheThreadThatRingsIt) {
  ASSERT_NO_FATAL_FAILURE(ring_until_moved(engine, wptr, cpus[0], allowed, 0));
  // The move takes the ringer's CPU out of the engine's mask, and only that one.
  EXPECT_TRUE(engine_mask_is(engine, without(allowed, cpus[0])));
  // Woken from its sleep by the ringer, as a futex wake-up that may place a thread beside its
  // waker, the engine still runs elsewhere.
  for (int i = 0; i < 50; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1)); // past the engine's polling
    ASSERT_NO_FATAL_FAILURE(ring_and_wait(engine, wptr));
    ASSERT_NE(engine.last_cpu.load(std::memory_order_relaxed), cpus[0]) << "doorbell " << wptr;
  }
}

TEST_F(EngineMoves, TheCpuLeftOutComesBackWhenTheRingerMovesOntoTheEngine) {
  ASSERT_NO_FATAL_FAILURE(ring_until_moved(engine, wptr, cpus[0], allowed, 0));
  std::this_thread::sleep_for(std::chrono::milliseconds(25)); // past the time between moves
  // The ringer follows the engine to the second CPU, inside the mask the engine now has.
  ASSERT_NO_FATAL_FAILURE(ring_until_moved(engine, wptr, cpus[1], without(allowed, cpus[0]), 1));
  EXPECT_TRUE(engine_mask_is(engine, without(allowed, cpus[1])));
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

// top -H, perf and gdb show which thread is the engine.
TEST(Engine, HostThreadCarriesItsName) {
  CountingEngine engine;
  engine.start();
  char name[16] = {};
  ASSERT_EQ(pthread_getname_np(engine.host_thread(), name, sizeof name), 0);
  EXPECT_STREQ(name, "amcl test");
}

} // namespace
