// InterruptWaiters: every thread sleeping on a card's interrupts sees each interrupt raised
// after it looked, although the PCI function's counter lets only one wait take it.
#include "am/interrupt_waiters.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

namespace {

// A function with one interrupt counter that a wait consumes, as the emulator's and vfio's
// eventfd are; only wait_interrupt is used.
class CountingPci : public am::Pci {
public:
  void raise() {
    {
      std::lock_guard lock(mutex_);
      ++raised_;
    }
    cv_.notify_all();
  }
  bool wait_interrupt(std::chrono::microseconds timeout) override {
    std::unique_lock lock(mutex_);
    const bool got = cv_.wait_for(lock, timeout, [&] { return raised_ != taken_; });
    taken_ = raised_;
    ++waits_;
    return got;
  }
  unsigned waits() {
    std::lock_guard lock(mutex_);
    return waits_;
  }
  uint32_t config_read32(uint32_t) override { return 0; }
  void enable_bus_master() override {}
  void config_write32(uint32_t, uint32_t) override {}
  uint32_t reg_read32(uint32_t) override { return 0; }
  void reg_write32(uint32_t, uint32_t) override {}
  uint64_t reg_bytes() const override { return 0; }
  void doorbell_write64(uint32_t, uint64_t) override {}
  uint8_t* vram() override { return nullptr; }
  uint64_t bar0_size() const override { return 0; }
  std::vector<uint64_t> dma_map(void*, uint64_t) override { return {}; }
  void dma_unmap(void*, uint64_t) override {}
  std::string address() const override { return "test"; }
  bool emulated() const override { return true; }

private:
  std::mutex mutex_;
  std::condition_variable cv_;
  uint64_t raised_ = 0, taken_ = 0;
  unsigned waits_ = 0;
};

// Far longer than any test here takes: a sleeper that missed the interrupt would still be
// asleep when the test checks.
constexpr std::chrono::seconds kLong{60};

TEST(InterruptWaiters, EverySleeperSeesOneInterrupt) {
  CountingPci pci;
  am::InterruptWaiters waiters(pci);
  const uint64_t seen = waiters.epoch();
  std::atomic<int> woken = 0;
  std::vector<std::thread> threads;
  for (int i = 0; i < 4; ++i)
    threads.emplace_back([&] {
      waiters.sleep(seen, std::chrono::duration_cast<std::chrono::microseconds>(kLong));
      ++woken;
    });
  // Let them all go to sleep (one listens on the function, three on the condition variable);
  // raising earlier is fine too: the interrupt stays counted on the function.
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  pci.raise();
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (woken < 4 && std::chrono::steady_clock::now() < until)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  EXPECT_EQ(woken, 4) << "a sleeper missed the interrupt another one took";
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(waiters.epoch(), seen + 1);
}

TEST(InterruptWaiters, AnInterruptBeforeTheSleepIsNotLost) {
  CountingPci pci;
  am::InterruptWaiters waiters(pci);
  // The waiter looked at its signal (epoch read), then the interrupt came, then it sleeps.
  const uint64_t seen = waiters.epoch();
  pci.raise();
  const auto t0 = std::chrono::steady_clock::now();
  waiters.sleep(seen, std::chrono::duration_cast<std::chrono::microseconds>(kLong));
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(20));
  // Later sleepers with a stale epoch return at once, without waiting on the function.
  const unsigned waits = pci.waits();
  waiters.sleep(seen, std::chrono::duration_cast<std::chrono::microseconds>(kLong));
  EXPECT_EQ(pci.waits(), waits);
}

TEST(InterruptWaiters, ASleepEndsAtItsTimeout) {
  CountingPci pci;
  am::InterruptWaiters waiters(pci);
  const uint64_t seen = waiters.epoch();
  waiters.sleep(seen, std::chrono::microseconds(1000));
  EXPECT_EQ(waiters.epoch(), seen); // no interrupt came
}

} // namespace
