// Common machinery of the emulated command processors (MEC, SDMA): each runs on its own host
// thread, woken by doorbell writes, and processes its ring from rptr to the doorbell's wptr.
#pragma once
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <pthread.h>
#include <string>
#include <thread>

namespace sim {

class Engine {
public:
  // `thread_name` names the host thread (at most 15 characters) for top, perf and gdb.
  Engine(std::string name, const char* thread_name)
      : name_(std::move(name)), thread_name_(thread_name) {}
  virtual ~Engine();
  void start();
  void stop();
  // A doorbell write: the new write pointer.
  void ring(uint64_t wptr);
  bool halted() const { return halted_; }
  const std::string& name() const { return name_; }

protected:
  // Processes packets from rptr up to wptr; returns when caught up or halted.
  virtual void process(uint64_t wptr) = 0;
  // Stops the engine after a fault, loudly, as a hung queue would.
  void halt(const std::string& why);
  // A queue reset brings a halted engine back.
  void clear_halt() { halted_ = false; }
  // The queue is (re)programmed from rptr 0: a doorbell value written for the old ring must
  // not replay the old packets. Drops a pending doorbell and marks one already taken as stale.
  void forget_doorbell();
  // The engine's host thread (tests place it on a CPU).
  pthread_t host_thread() { return thread_.native_handle(); }
  // How often keep_off_ringer_cpu() has moved the engine's thread.
  unsigned cpu_moves() const { return moves_.load(std::memory_order_relaxed); }
  // In process(): the wptr being processed predates the last forget_doorbell().
  bool stale_doorbell() const { return taken_epoch_ != epoch_.load(std::memory_order_acquire); }

private:
  void loop();
  void poll_for_doorbell();
  void keep_off_ringer_cpu();
  std::string name_;
  const char* thread_name_;
  std::thread thread_;
  std::mutex mutex_;
  std::condition_variable cv_;
  uint64_t wptr_ = 0;
  // Written under mutex_; atomic so that the engine can poll them before it sleeps.
  std::atomic<bool> pending_ = false;
  std::atomic<bool> stopping_ = false;
  bool sleeping_ = false; // on cv_ (under mutex_): a doorbell must wake it
  std::atomic<uint64_t> epoch_ = 0; // bumped by forget_doorbell()
  uint64_t taken_epoch_ = 0;         // epoch_ when the engine thread took its wptr
  std::atomic<bool> halted_ = false;
  std::atomic<int> ringer_cpu_ = -1; // the CPU of the last doorbell write
  unsigned shared_takes_ = 0;        // doorbells in a row taken on the ringer's CPU
  std::chrono::steady_clock::time_point last_move_{};
  int excluded_cpu_ = -1;            // the CPU the last move took out of the thread's mask
  std::atomic<unsigned> moves_ = 0;
};

} // namespace sim
