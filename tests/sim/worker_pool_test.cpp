#include "sim/shader/worker_pool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <set>
#include <stdexcept>
#include <thread>

namespace {

using sim::shader::WorkerPool;

TEST(WorkerPool, EveryPartRunsOnceAndRunWaitsForAll) {
  WorkerPool pool;
  std::atomic<unsigned> mask = 0;
  std::atomic<unsigned> finished = 0;
  pool.run(4, [&](unsigned i) {
    mask |= 1u << i;
    std::this_thread::sleep_for(std::chrono::milliseconds(i * 5));
    ++finished;
  });
  EXPECT_EQ(mask.load(), 0xfu);
  EXPECT_EQ(finished.load(), 4u);
}

TEST(WorkerPool, PartZeroRunsOnTheCaller) {
  WorkerPool pool;
  std::thread::id zero;
  pool.run(3, [&](unsigned i) {
    if (i == 0) zero = std::this_thread::get_id();
  });
  EXPECT_EQ(zero, std::this_thread::get_id());
}

TEST(WorkerPool, ThreadsAreKeptAcrossRuns) {
  WorkerPool pool;
  std::mutex m;
  std::set<std::thread::id> ids;
  for (int run = 0; run < 200; ++run)
    pool.run(3, [&](unsigned) {
      std::lock_guard lock(m);
      ids.insert(std::this_thread::get_id());
    });
  EXPECT_EQ(pool.threads(), 2u);
  EXPECT_EQ(ids.size(), 3u); // the caller and two pool threads, never a new one
}

TEST(WorkerPool, SmallerRunsLeaveSpareThreadsIdle) {
  WorkerPool pool;
  pool.run(4, [](unsigned) {});
  std::atomic<unsigned> mask = 0;
  pool.run(2, [&](unsigned i) { mask |= 1u << i; });
  EXPECT_EQ(mask.load(), 0x3u);
  EXPECT_EQ(pool.threads(), 3u);
}

TEST(WorkerPool, ExceptionsReachTheCallerAndThePoolStaysUsable) {
  WorkerPool pool;
  EXPECT_THROW(pool.run(3,
                        [](unsigned i) {
                          if (i == 2) throw std::runtime_error("part 2");
                        }),
               std::runtime_error);
  EXPECT_THROW(pool.run(3,
                        [](unsigned i) {
                          if (i == 0) throw std::logic_error("part 0");
                        }),
               std::logic_error);
  std::atomic<unsigned> count = 0;
  pool.run(3, [&](unsigned) { ++count; });
  EXPECT_EQ(count.load(), 3u);
}

} // namespace
