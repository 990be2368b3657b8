// Host threads that stand in for the shader array's compute units. They live as long as the
// engine that owns them: spawning threads per dispatch cost tens of microseconds on every
// small launch and churned through thousands of short-lived threads in a long run.
#pragma once
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace sim::shader {

class WorkerPool {
public:
  WorkerPool() = default;
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;
  ~WorkerPool();

  // Runs job(i) for every i in [0, n): i = 0 on the calling thread, the others on pool threads
  // (started on first need). Returns when every part has finished; rethrows the first
  // exception a part let escape. One run at a time.
  void run(unsigned n, const std::function<void(unsigned)>& job);

  // Threads started so far (not counting callers).
  unsigned threads() const;

private:
  void loop(unsigned index);

  mutable std::mutex mutex_;
  std::condition_variable start_cv_, done_cv_;
  const std::function<void(unsigned)>* job_ = nullptr;
  unsigned parts_ = 0;       // parts of the current run, including the caller's
  unsigned outstanding_ = 0; // pool threads still working on the current run
  uint64_t generation_ = 0;  // bumped per run so that each thread joins each run once
  bool stopping_ = false;
  std::exception_ptr error_;
  std::vector<std::thread> threads_;
};

} // namespace sim::shader
