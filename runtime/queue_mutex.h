// amcl::rt::QueueMutex — the mutex guarding a queue's command lists (runtime/scheduler.cpp).
// Threads feeding one queue hold it for a few hundred nanoseconds at a time: an adaptive glibc
// mutex spins that long before it sleeps, where std::mutex went to the kernel (a futex wait,
// then a futex wake by the holder) on nearly every collision.
#pragma once
#include <pthread.h>

namespace amcl::rt {

class QueueMutex {
public:
  QueueMutex() {
    pthread_mutexattr_t attr;
    pthread_mutexattr_init(&attr);
#ifdef PTHREAD_ADAPTIVE_MUTEX_INITIALIZER_NP
    pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_ADAPTIVE_NP);
#endif
    pthread_mutex_init(&m_, &attr);
    pthread_mutexattr_destroy(&attr);
  }
  ~QueueMutex() { pthread_mutex_destroy(&m_); }
  QueueMutex(const QueueMutex&) = delete;
  QueueMutex& operator=(const QueueMutex&) = delete;
  void lock() { pthread_mutex_lock(&m_); }
  bool try_lock() { return pthread_mutex_trylock(&m_) == 0; }
  void unlock() { pthread_mutex_unlock(&m_); }

private:
  pthread_mutex_t m_;
};

} // namespace amcl::rt
