#include "worker_pool.h"

#include <pthread.h>

#include <string>

namespace sim::shader {

WorkerPool::~WorkerPool() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  start_cv_.notify_all();
  for (auto& t : threads_) t.join();
}

unsigned WorkerPool::threads() const {
  std::lock_guard lock(mutex_);
  return unsigned(threads_.size());
}

void WorkerPool::run(unsigned n, const std::function<void(unsigned)>& job) {
  if (n == 0) return;
  if (n == 1) {
    // One part (a dispatch of one work-group, say): the caller runs it; waking the pool's
    // threads only to have them sit it out would cost a futex wake-up each.
    job(0);
    return;
  }
  {
    std::lock_guard lock(mutex_);
    // Thread i + 1 runs part i + 1; threads beyond n - 1 sit this run out.
    while (threads_.size() < n - 1) {
      const unsigned index = unsigned(threads_.size()) + 1;
      threads_.emplace_back([this, index] { loop(index); });
      // Named for top -H and perf: "amcl wave 3" runs part 3 of a dispatch's work-groups.
      pthread_setname_np(threads_.back().native_handle(),
                         ("amcl wave " + std::to_string(index)).c_str());
    }
    job_ = &job;
    parts_ = n;
    outstanding_ = n - 1;
    error_ = nullptr;
    ++generation_;
  }
  start_cv_.notify_all();
  std::exception_ptr mine;
  try {
    job(0);
  } catch (...) {
    mine = std::current_exception();
  }
  std::unique_lock lock(mutex_);
  done_cv_.wait(lock, [&] { return outstanding_ == 0; });
  job_ = nullptr;
  if (mine) std::rethrow_exception(mine);
  if (error_) std::rethrow_exception(error_);
}

void WorkerPool::loop(unsigned index) {
  uint64_t seen = 0;
  std::unique_lock lock(mutex_);
  for (;;) {
    start_cv_.wait(lock, [&] { return stopping_ || generation_ != seen; });
    if (stopping_) return;
    seen = generation_;
    if (index >= parts_) continue;
    const auto* job = job_;
    lock.unlock();
    std::exception_ptr failure;
    try {
      (*job)(index);
    } catch (...) {
      failure = std::current_exception();
    }
    lock.lock();
    if (failure && !error_) error_ = failure;
    if (--outstanding_ == 0) done_cv_.notify_all();
  }
}

} // namespace sim::shader
