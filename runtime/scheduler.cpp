#include "scheduler.h"

#include "device_fault.h"
#include "dispatch.h"

#include <pthread.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <new>
#include <set>
#include <string>
#include <thread>

namespace amcl::rt {
namespace {

// The global lock guards the set of active queues, event statuses and callbacks, and the
// submission thread's state; each queue's `sched` mutex guards its command lists, and is taken
// after the global one, never before it. An in-order dispatch without a wait list or an event
// takes only its queue's mutex while the queue is active (enqueue_plain). Device work runs
// without either. The scheduling state is never destroyed: the submission thread may still be
// running commands while the process exits.
std::mutex& lock() {
  static auto* m = new std::mutex;
  return *m;
}
std::condition_variable& changed() {
  static auto* cv = new std::condition_variable;
  return *cv;
}
// Queues that have commands not yet run, each with a reference held for as long as it is in
// the set: the last command of a queue the application has released may finish (and release
// the last event naming the queue) while a pump is still looking at the queue.
std::set<cl_command_queue>& active_queues() {
  static auto* s = new std::set<cl_command_queue>;
  return *s;
}

// The submission thread runs what non-blocking enqueues leave behind, so that an enqueue
// returns as soon as its command is recorded. Threads that block (clFinish, clWaitForEvents,
// blocking transfers) pump too, which saves them a hand-off.
struct Submitter {
  bool started = false;
  // Asleep on `wake` until kicked. Atomic: enqueue_plain reads it without the global lock.
  std::atomic<bool> idle = false;
  bool lingering = false; // asleep on `wake` for at most kLinger: it looks again by itself
  // Something may have become runnable since it last looked. Written under the global lock;
  // atomic because the thread's waits on the device look at it without the lock (retire_oldest).
  std::atomic<bool> kicked = false;
  std::condition_variable wake;
};
// After the pump found nothing more to do, the submission thread sleeps kLinger at a time, up
// to kLingerRounds times since it was last kicked, before it sleeps until kicked: an application
// that keeps dispatching then needs no wake-up per dispatch only to have it retired (see
// watch_locked), and an idle one costs it a few wake-ups once. Each look that finds nothing
// for it to do (the application's own waits retired everything) doubles the sleep, up to
// kLingerMax: in a kernel + clFinish loop it woke every 250 us, took the global lock and
// preempted the application or the emulated MEC (p99 of the round trip 16-29 us, 4-5 with it
// asleep).
inline constexpr std::chrono::microseconds kLinger{250};
inline constexpr std::chrono::microseconds kLingerMax{1000};
inline constexpr int kLingerRounds = 8;
// The submission thread: it leaves waits for the device to the core's other threads.
thread_local bool on_submission_thread = false;
Submitter& submitter() {
  static auto* s = new Submitter;
  return *s;
}
// Counts what enqueue_plain changed without the global lock. The submission thread reads it
// before a pump and again after it has said it sleeps (`idle`); enqueue_plain bumps it, then
// reads `idle`: both sequentially consistent, so one of the two sees the other.
std::atomic<uint64_t> plain_changes{0};
// Counts the enqueue_plain calls that retired or submitted dispatches: what a waiter looks
// again for (pump_until). Bumped before the waiters count is read, both sequentially
// consistent, as plain_changes is for the submission thread.
std::atomic<uint64_t> plain_progress{0};
// Threads waiting on `changed` (clFinish, clWaitForEvents, blocking enqueues): enqueue_plain
// wakes them (under the global lock) only when there are some.
std::atomic<int> waiters{0};
struct Waiting {
  Waiting() { waiters.fetch_add(1); }
  ~Waiting() { waiters.fetch_sub(1); }
};

// What a pump did: retired or started something; left dispatches on the device to the threads
// waiting in pump_until (the submission thread's leave_fresh), so its looks must go on.
struct Pumped {
  bool did = false;
  bool left = false;
};
Pumped pump(std::unique_lock<std::mutex>& held);

// Pumps until `done` (global lock held), sleeping on `changed` in between. enqueue_plain works
// without the global lock, and its notify may come while this thread is in pump with the lock
// dropped (around device work or callbacks): plain progress seen after the pump, where none was
// before it, means look again rather than sleep until the submission thread's next poll.
template <class Done> void pump_until(std::unique_lock<std::mutex>& held, Done done) {
  Waiting waiting;
  for (;;) {
    const uint64_t seen = plain_progress.load();
    pump(held);
    if (done()) return;
    if (plain_progress.load() == seen) changed().wait(held);
  }
}

// Tells the submission thread to look again (scheduler lock held). Waking a sleeping thread
// is a system call, so it is only made when the thread is asleep.
void kick_locked() {
  Submitter& s = submitter();
  s.kicked = true;
  if (!s.started) {
    s.started = true;
    std::thread([] {
      on_submission_thread = true;
      pthread_setname_np(pthread_self(), "amcl submit"); // for top -H, perf and gdb
      std::unique_lock held(lock());
      Submitter& self = submitter();
      int rounds = 0;
      std::chrono::microseconds linger = kLinger;
      for (;;) {
        self.kicked = false;
        const uint64_t seen = plain_changes.load();
        const Pumped pumped = pump(held);
        linger = pumped.did ? kLinger : std::min(linger * 2, kLingerMax);
        if (self.kicked) {
          rounds = 0;
          continue;
        }
        if (rounds < kLingerRounds || pumped.left) {
          if (!pumped.left) ++rounds;
          self.lingering = true;
          self.wake.wait_for(held, linger, [&] { return self.kicked.load(); });
          self.lingering = false;
          if (self.kicked) rounds = 0;
          continue;
        }
        rounds = 0;
        self.idle.store(true);
        if (plain_changes.load() != seen) { // an enqueue_plain this pump may not have seen
          self.idle.store(false);
          continue;
        }
        self.wake.wait(held, [&] { return self.kicked.load(); });
        self.idle.store(false);
      }
    }).detach();
  } else if (s.idle || s.lingering) {
    s.wake.notify_one();
  }
}

// A dispatch this thread put on the device needs someone to retire it should nobody wait for
// it: the submission thread, woken only when it sleeps until kicked (lingering, it looks again
// within kLinger by itself, and waking it per dispatch would cost a futex call each).
void watch_locked() {
  Submitter& s = submitter();
  if (s.lingering) {
    s.kicked = true;
    return;
  }
  kick_locked();
}

struct Callback {
  void(CL_CALLBACK* fn)(cl_event, cl_int, void*);
  cl_int on;
  void* data;
};

// Events whose status changed, and the callbacks now due (run after the lock is dropped).
struct Due {
  std::vector<std::pair<Callback, cl_event>> calls;
  std::vector<cl_int> statuses;
};

void collect_callbacks(cl_event e, cl_int status, Due& due) {
  // A callback registered for state S runs once the event reaches S or beyond; an error
  // status counts as reaching CL_COMPLETE.
  auto& cbs = e->callbacks;
  for (auto it = cbs.begin(); it != cbs.end();) {
    if (status <= it->on) {
      due.calls.push_back({Callback{it->fn, it->on, it->data}, e});
      due.statuses.push_back(status);
      retain(e); // keep the event alive until the callback has run
      it = cbs.erase(it);
    } else {
      ++it;
    }
  }
}

void run_due(Due& due) {
  for (size_t i = 0; i < due.calls.size(); ++i) {
    auto& [cb, e] = due.calls[i];
    cb.fn(e, due.statuses[i], cb.data);
    release(e);
  }
  due.calls.clear();
  due.statuses.clear();
}

void set_locked(cl_event e, cl_int status, Due& due) {
  if (!e) { // a command without an event (enqueue_dispatch): clFinish may wait for it
    if (status <= CL_COMPLETE) changed().notify_all();
    return;
  }
  if (e->status <= CL_COMPLETE) return; // already final
  if (e->timed) {
    const uint64_t now = host_time_ns();
    if (status <= CL_SUBMITTED && !e->submit) e->submit = now;
    if (status <= CL_RUNNING && !e->start) e->start = now;
    if (status <= CL_COMPLETE && !e->end) e->end = now; // a profiled dispatch brings its own
  }
  e->status = status; // after the times: clGetEventProfilingInfo reads them once it sees this
  collect_callbacks(e, status, due);
  // Waiters (clFinish, clWaitForEvents, blocking calls) only act on final states; waking them
  // for SUBMITTED/RUNNING costs a futex wake-up each (expensive on paravirtualised machines).
  if (status <= CL_COMPLETE) changed().notify_all();
}

inline constexpr size_t kNone = ~size_t(0);

// The position in `q->pending` of the first command that may run now, or kNone; a command whose
// waits failed is failed here without running. In order, only the oldest command may start,
// and host-side work only after every dispatch before it has finished (another dispatch may
// follow them on the ring while slots last). Out of order, any command whose waits are done
// may start, except past a barrier; a marker or barrier without a wait list starts once it is
// the oldest command and nothing else of the queue is running or on the device. Both locks held.
size_t next_runnable(cl_command_queue q, Due& due) {
  // Out of order, a ready dispatch the kernel-argument ring has no room for holds back the
  // dispatches behind it: smaller ones passing it could keep it waiting for as long as they
  // come. Host work may still pass.
  bool ring_waits = false;
  for (size_t i = 0; i < q->pending.size();) {
    auto& c = q->pending[i];
    bool ready = true, failed = false;
    for (cl_event w : c.waits) {
      if (w->status < 0)
        failed = true;
      else if (w->status != CL_COMPLETE)
        ready = false;
    }
    if (failed) {
      set_locked(c.event, CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, due);
      for (cl_event w : c.waits) release(w);
      if (c.event) release(c.event);
      q->pending.erase(i);
      continue;
    }
    if (q->running) return kNone;
    const bool slot_free = c.dispatch && kernarg_room(q, 0, 0, c.launch.ring_bytes);
    if (!c.out_of_order) {
      if (!ready || (c.dispatch ? !slot_free : !q->in_flight.empty())) return kNone;
      return i;
    }
    bool may_start = ready && (!c.dispatch || (slot_free && !ring_waits));
    if (ready && c.dispatch && !slot_free) ring_waits = true;
    if (c.drain) may_start = may_start && i == 0 && q->in_flight.empty();
    if (may_start) return i;
    if (c.barrier) return kNone; // nothing passes a barrier
    ++i;
  }
  return kNone;
}

// Takes the command at `i` out of the queue's pending list.
_cl_command_queue::Command take(cl_command_queue q, size_t i) {
  return q->pending.take(i);
}

// Why a command failed on the device, printed; the context's callback hears it from
// tell_context, which runs with no lock held: the callback may enqueue. The queue is still
// its caller's to submit or retire, so a callback that waits for this queue's commands waits
// forever (blocking calls are undefined in event callbacks, OpenCL 3.0 clSetEventCallback).
std::string failure_message(cl_command_queue q, const am::DeviceError& e) {
  const std::string& gfx = q->device->am->info().gfx;
  std::string msg = "amcl: command failed on " + gfx + ": " + describe_failure(e, gfx);
  std::fprintf(stderr, "%s\n", msg.c_str());
  return msg;
}
void tell_context(cl_command_queue q, const std::string& msg) {
  if (q->context->notify) q->context->notify(msg.c_str(), nullptr, 0, q->context->notify_data);
}
// A device failure becomes the command's status; the context's callback hears why.
cl_int report_failure(cl_command_queue q, const am::DeviceError& e) {
  tell_context(q, failure_message(q, e));
  return CL_OUT_OF_RESOURCES;
}
// A failure other than the device's (out of host memory, a system error) fails the command
// alone: it must not escape the scheduler and leave the queue marked as running.
cl_int host_failure_status(const std::exception& e) {
  return dynamic_cast<const std::bad_alloc*>(&e) ? CL_OUT_OF_HOST_MEMORY : CL_OUT_OF_RESOURCES;
}

// Completes a command that has left the queue (lock held): its status, then its references.
void finish_locked(_cl_command_queue::Command& cmd, cl_int status, Due& due) {
  set_locked(cmd.event, status, due);
  for (cl_event w : cmd.waits) release(w);
  if (cmd.event) release(cmd.event);
}

// Submits a dispatch (the queue's device mutex held); a failure becomes its status, and a
// device failure's message goes to `told` for the context's callback, after the mutex.
cl_int submit_dispatch(cl_command_queue q, _cl_command_queue::Command& cmd,
                       _cl_command_queue::Submitted& at, bool more_follow,
                       std::vector<std::string>& told) {
  try {
    at = submit_launch(q, cmd.launch, more_follow);
    return CL_COMPLETE;
  } catch (const am::DeviceError& e) {
    told.push_back(failure_message(q, e));
    return CL_OUT_OF_RESOURCES;
  } catch (const ClError& e) {
    return e.code < 0 ? e.code : CL_OUT_OF_RESOURCES;
  } catch (const std::exception& e) {
    return host_failure_status(e);
  }
}

// Dispatches an application thread leaves on the ring before it rings the doorbell: the
// emulated MEC is woken (a futex call when it sleeps) once per this many, and so is whoever
// waits for them (one end-of-pipe interrupt). Any wait, clFlush and the submission thread
// ring for fewer (Device::ring_compute, Device::await).
inline constexpr size_t kDoorbellBatch = 16;

// The batch arrays of a thread's start_dispatches, kept across calls: allocating them cost two
// mallocs and two frees per enqueued dispatch. A nested call (an event callback run meanwhile
// enqueues) finds them taken and uses arrays of its own.
struct Batch {
  std::vector<_cl_command_queue::Command> commands;
  std::vector<std::pair<cl_int, _cl_command_queue::Submitted>> results;
};
thread_local Batch kept_batch;
struct BorrowedBatch {
  Batch* home = &kept_batch; // one thread-local lookup (a call in a shared library), not two
  Batch b = std::move(*home);
  ~BorrowedBatch() {
    b.commands.clear();
    *home = std::move(b);
  }
};

using Lock = std::unique_lock<std::mutex>;
using QueueLock = std::unique_lock<QueueMutex>;

// Puts `batch` on the ring under the queue's device mutex (neither scheduler lock held); each
// result says whether its submission went through. `defer`: the doorbell waits until
// kDoorbellBatch dispatches are on the ring.
void submit_batch(cl_command_queue q, std::vector<_cl_command_queue::Command>& batch,
                  std::vector<std::pair<cl_int, _cl_command_queue::Submitted>>& results,
                  bool defer) {
  results.assign(batch.size(), {});
  std::vector<std::string> told;
  {
    std::lock_guard device_lock(q->mutex);
    // One doorbell and one end-of-pipe interrupt for the lot: the MEC is woken once, and so
    // is whoever waits for the batch (the submission thread, to retire it).
    const size_t unrung = q->unrung.load(std::memory_order_relaxed);
    const bool ring = !defer || unrung + batch.size() >= kDoorbellBatch;
    for (size_t i = 0; i < batch.size(); ++i)
      results[i].first =
          submit_dispatch(q, batch[i], results[i].second, !ring || i + 1 < batch.size(), told);
    if (ring) {
      q->device->am->ring_compute(); // the last one's submission failed: the others still go
      q->unrung.store(0, std::memory_order_relaxed);
    } else {
      q->unrung.store(unrung + batch.size(), std::memory_order_relaxed);
    }
  }
  for (size_t i = 0; i < batch.size(); ++i)
    if (results[i].first != CL_COMPLETE) batch[i].launch.reset(); // references outside the locks
  for (const std::string& msg : told) tell_context(q, msg);
}

// Takes every dispatch at the head of `q` that may start now (while kernel-argument slots last)
// and submits them in one go: one pass through the locks for the lot. Drops both locks
// meanwhile. Goes on with what other threads enqueued meanwhile (they leave it to this one:
// `running`). `defer`: the doorbell waits until kDoorbellBatch dispatches are on the ring.
void start_dispatches(cl_command_queue q, Lock& held, QueueLock& qs, Due& due, bool defer = false) {
  BorrowedBatch borrowed;
  std::vector<_cl_command_queue::Command>& batch = borrowed.b.commands;
  std::vector<std::pair<cl_int, _cl_command_queue::Submitted>>& results = borrowed.b.results;
  for (;;) {
    uint64_t batch_bytes = 0;
    for (size_t i; (i = next_runnable(q, due)) != kNone && q->pending[i].dispatch &&
                   kernarg_room(q, batch.size(), batch_bytes, q->pending[i].launch.ring_bytes);) {
      batch_bytes += q->pending[i].launch.ring_bytes;
      // Moved straight from the queue's slot (take() moved it once more).
      batch.push_back(std::move(q->pending[i]));
      q->pending.erase(i);
      set_locked(batch.back().event, CL_RUNNING, due);
    }
    if (batch.empty()) return;
    q->running = true;
    const bool device_idle = q->in_flight.empty(); // see start_plain
    qs.unlock();
    held.unlock();
    run_due(due);
    submit_batch(q, batch, results, defer && !device_idle);
    held.lock();
    qs.lock();
    q->running = false;
    for (size_t i = 0; i < batch.size(); ++i) {
      if (results[i].first == CL_COMPLETE) {
        _cl_command_queue::InFlight& slot = q->in_flight.append(); // in place: one move
        slot.cmd = std::move(batch[i]);
        slot.at = results[i].second;
      } else
        finish_locked(batch[i], results[i].first, due);
    }
    batch.clear();
  }
}

// Takes the first runnable command of `q` and runs it (host work, or dispatches submitted
// without waiting). Drops both locks meanwhile. Returns whether it did anything.
bool start_next(cl_command_queue q, Lock& held, QueueLock& qs, Due& due) {
  const size_t i = next_runnable(q, due);
  if (i == kNone) return false;
  if (q->pending[i].dispatch) {
    start_dispatches(q, held, qs, due);
    return true;
  }
  _cl_command_queue::Command cmd = take(q, i);
  q->running = true;
  set_locked(cmd.event, CL_RUNNING, due);
  qs.unlock();
  held.unlock();
  run_due(due);
  cl_int status = CL_COMPLETE;
  try {
    std::lock_guard device_lock(q->mutex);
    if (cmd.work) cmd.work();
  } catch (const am::DeviceError& e) {
    status = report_failure(q, e);
  } catch (const ClError& e) {
    status = e.code < 0 ? e.code : CL_OUT_OF_RESOURCES;
  } catch (const std::exception& e) {
    status = host_failure_status(e);
  }
  cmd.work = nullptr; // drop captured references before the events go
  held.lock();
  qs.lock();
  q->running = false;
  finish_locked(cmd, status, due);
  return true;
}

inline constexpr std::chrono::microseconds kUnclaimedWait{2000};

// Drops the references of retired launches, outside the locks. A launch's last reference can
// run a memory object's destructor callback, which may enqueue and so retire on this thread
// again: the nested call must find the thread's array empty, not half-destroyed.
void release_launches(std::vector<Launch>& launches) {
  std::vector<Launch> dropping = std::move(launches);
  dropping.clear();
  if (dropping.capacity() > launches.capacity()) launches = std::move(dropping); // reuse
}

// How many dispatches at the front of `q` the device has finished, from one (the oldest, known
// finished) up: one wait for the newest of them (it reports faults and hangs) and one trip
// through the locks, instead of one each. Work a reset threw away fails each on its own.
size_t finished_run(cl_command_queue q, am::Device& dev, bool plain_only) {
  const uint64_t reached = dev.completed(am::Engine::Compute);
  auto plain = [&](size_t i) {
    return !plain_only || (!q->in_flight[i].cmd.event && q->in_flight[i].cmd.waits.empty());
  };
  size_t count = 1;
  while (count < q->in_flight.size() && count < kDispatchesInFlight &&
         q->in_flight[count].at.done <= reached && plain(count))
    ++count;
  if (count > 1 && dev.lost_between(am::Engine::Compute, q->in_flight[0].at.done,
                                    q->in_flight[count - 1].at.done))
    count = 1;
  return count;
}

// Retires the oldest dispatch of `q` (and every one after it the device has also finished)
// once the device has finished it; with `block`, waits for that. Drops both locks meanwhile.
// Returns whether it retired some (or, having waited, that the caller should look again).
// `leave_fresh` (the submission thread while another thread waits in pump_until): that thread
// retires what the device finishes; this one takes only what was already finished at its
// previous look (q->swept), and rather than wait it only rings. Racing the waiter for a
// dispatch that has just ended cost the waiter a sleep on `changed` and a wake-up. A dispatch
// it finds unfinished at two looks is not the waiter's round trip (that one ends within
// microseconds, or the waiter may wait for something else): it waits for that one as usual,
// and so judges its hang.
// `left_wait` (the submission thread): set when it left its wait for the run (kicked, or
// after kUnclaimedWait) and put the run back.
bool retire_oldest(cl_command_queue q, Lock& held, QueueLock& qs, Due& due, bool block,
                   bool leave_fresh = false, bool* left_wait = nullptr) {
  if (q->in_flight.empty() || q->retiring) return false;
  am::Device& dev = *q->device->am;
  const uint64_t done = q->in_flight.front().at.done;
  if (leave_fresh && done > q->swept && !(block && q->passed_over == done)) {
    if (block) {
      dev.await(am::Engine::Compute, done, std::chrono::microseconds(0), false);
      q->passed_over = done;
    }
    return false;
  }
  if (dev.completed(am::Engine::Compute) < done) {
    if (!block) return false;
    // Most dispatches end within microseconds: wait for the end without taking the dispatch,
    // so that every thread waiting for it (clFinish, the submission thread) sees it at once
    // and whichever comes first retires it, instead of one waiting for the other to wake up.
    // Past kUnclaimedWait the dispatch is taken and waited for with fault and hang handling.
    // A caller waiting for the last dispatch (a round trip) polls before it sleeps: it ends
    // within microseconds. Behind others, polling would take the core the device's threads
    // need for them.
    const bool spin = !on_submission_thread && q->in_flight.size() == 1 && q->pending.empty();
    qs.unlock();
    held.unlock();
    run_due(due);
    const bool ended = dev.await(am::Engine::Compute, done, kUnclaimedWait, spin);
    held.lock();
    qs.lock();
    if (ended || q->in_flight.empty() || q->retiring || q->in_flight.front().at.done != done)
      return true; // look again
  }
  // A fault the wait for the run's last dispatch reports fails the whole run: the device judges
  // a timeline value, not each dispatch before it. Dispatches after the run get their own
  // verdicts from their own waits (am::Device marks what was on the card with a fault).
  const size_t count = finished_run(q, dev, false);
  const uint64_t last = q->in_flight[count - 1].at.done;
  q->retiring = true; // the front `count` entries are this thread's until they are popped
  // The launches' references go outside the locks; the array is the thread's, kept across calls.
  thread_local std::vector<Launch> launches;
  for (size_t i = 0; i < count; ++i) launches.push_back(std::move(q->in_flight[i].cmd.launch));
  // The submission thread leaves a long wait when kicked, and after kUnclaimedWait: blocked on
  // one queue's dispatch, it left other queues' commands (a callback's dispatch on another
  // card, host work) waiting with it. Its hang judgement for the value carries over to its
  // next wait for it (`left_wait`).
  if (on_submission_thread && q->left_wait_for != last) {
    q->left_wait = {};
    q->left_wait_for = last;
  }
  qs.unlock();
  held.unlock();
  run_due(due);
  cl_int status = CL_COMPLETE;
  bool left = false;
  try {
    if (on_submission_thread)
      left = !dev.wait_or_leave(am::Engine::Compute, last, dev.hang_timeout(), q->left_wait,
                                [until = std::chrono::steady_clock::now() + kUnclaimedWait] {
                                  return submitter().kicked.load() ||
                                         std::chrono::steady_clock::now() > until;
                                });
    else
      dev.wait(am::Engine::Compute, last); // reports faults and hangs
  } catch (const am::DeviceError& e) {
    status = report_failure(q, e);
  } catch (const std::exception& e) {
    status = host_failure_status(e);
  }
  if (left) { // the run goes back as it was; this pump looks at every queue again
    held.lock();
    qs.lock();
    for (size_t i = 0; i < count; ++i) q->in_flight[i].cmd.launch = std::move(launches[i]);
    launches.clear();
    q->retiring = false;
    submitter().kicked = false;
    if (left_wait) *left_wait = true;
    return true;
  }
  release_launches(launches);
  held.lock();
  qs.lock();
  q->retiring = false;
  for (size_t i = 0; i < count; ++i) {
    const _cl_command_queue::Submitted at = q->in_flight.front().at;
    const cl_int own = i == 0 || status == CL_COMPLETE ? status : CL_OUT_OF_RESOURCES;
    // Completed in its slot, then the slot is emptied (a move out cost one more).
    _cl_command_queue::Command& cmd = q->in_flight.front().cmd;
    if (own == CL_COMPLETE && at.times && cmd.event) {
      // When the GPU ran it, not when the host handed it over or noticed the end: dispatches
      // queue behind each other on the ring. Kept within SUBMIT ≤ START ≤ END. The CP wrote
      // the timestamps before the completion signal.
      const uint64_t gpu_start =
          dev.host_ns_from_gpu_ticks(std::atomic_ref(*const_cast<uint64_t*>(at.times)).load());
      const uint64_t gpu_end =
          dev.host_ns_from_gpu_ticks(std::atomic_ref(*const_cast<uint64_t*>(at.times + 1)).load());
      cl_event e = cmd.event;
      e->start = std::max(e->submit, gpu_start);
      e->end = std::max(e->start, gpu_end);
    }
    finish_locked(cmd, own, due);
    q->in_flight.pop_front();
  }
  return true;
}

// Runs every command of every queue that can run, until none can, then waits for dispatches
// still on the device. Called with the global lock held; takes each queue's around its work,
// and drops both around device work.
Pumped pump(Lock& held) {
  static thread_local bool pumping = false;
  if (pumping) return {}; // the outer pump will see what changed
  pumping = true;
  Pumped pumped;
  Due due;
  // The queues this pass looks at, each with a reference of the pass's own: another thread's
  // pump may take a queue out of the active set (and drop the set's reference) meanwhile.
  std::vector<cl_command_queue> queues;
  auto drop = [&] {
    for (cl_command_queue q : queues) release(q);
    queues.clear();
  };
  bool leave_fresh = false;
  for (;;) {
    bool progress = false;
    leave_fresh = on_submission_thread && waiters.load() > 0; // waiters come and go
    drop();
    queues.assign(active_queues().begin(), active_queues().end());
    for (cl_command_queue q : queues) retain(q);
    for (cl_command_queue q : queues) {
      QueueLock qs(q->sched);
      while (retire_oldest(q, held, qs, due, false, leave_fresh)) progress = true;
      while (start_next(q, held, qs, due)) progress = true;
      const bool leave =
          q->pending.empty() && q->in_flight.empty() && !q->running && active_queues().erase(q);
      if (leave) q->in_active = false;
      qs.unlock();
      if (leave) release(q); // the pass still holds its own reference
    }
    pumped.did = pumped.did || progress;
    if (progress) continue;
    // Nothing can start: wait for the oldest dispatch of a queue that has some on the device.
    // A wait the submission thread left ends that queue's turn: the next queue's comes, so
    // that one long dispatch does not keep the others' waiting (then every queue again).
    bool left_any = false;
    for (cl_command_queue q : queues) {
      if (!active_queues().count(q)) continue;
      QueueLock qs(q->sched);
      bool left = false;
      if (retire_oldest(q, held, qs, due, true, leave_fresh, &left)) {
        if (left) {
          left_any = true;
          continue;
        }
        progress = true;
        break;
      }
    }
    progress = progress || left_any;
    if (!progress) break;
  }
  if (on_submission_thread) // what the device had finished by this look (leave_fresh)
    for (cl_command_queue q : queues) {
      QueueLock qs(q->sched);
      q->swept = q->device->am->completed(am::Engine::Compute);
      pumped.left = pumped.left || (leave_fresh && !q->in_flight.empty());
    }
  drop();
  held.unlock();
  run_due(due);
  held.lock();
  pumping = false;
  return pumped;
}

// The fast path's half of retire_oldest, with only the queue's mutex held: retires the
// dispatches at the front that the device has finished and that carry neither an event nor a
// wait list (nothing under the global lock changes). Returns whether it retired some.
bool retire_plain(cl_command_queue q, QueueLock& qs) {
  if (q->in_flight.empty() || q->retiring) return false;
  _cl_command_queue::Command& oldest = q->in_flight.front().cmd;
  if (oldest.event || !oldest.waits.empty()) return false;
  am::Device& dev = *q->device->am;
  if (dev.completed(am::Engine::Compute) < q->in_flight.front().at.done) return false;
  const size_t count = finished_run(q, dev, true);
  const uint64_t last = q->in_flight[count - 1].at.done;
  q->retiring = true;
  thread_local std::vector<Launch> launches;
  for (size_t i = 0; i < count; ++i) launches.push_back(std::move(q->in_flight[i].cmd.launch));
  qs.unlock();
  try {
    dev.wait(am::Engine::Compute, last); // finished: this only reports faults and hangs
  } catch (const am::DeviceError& e) {
    report_failure(q, e);
  } catch (const std::exception&) {
    // Nobody hears these dispatches' status; later ones have their own waits.
  }
  release_launches(launches);
  qs.lock();
  q->retiring = false;
  for (size_t i = 0; i < count; ++i) q->in_flight.pop_front(); // nobody hears their status
  return true;
}

// The fast path's start_dispatches, with only the queue's mutex held: submits the dispatches at
// the head of an in-order queue while they carry neither an event nor a wait list and slots
// last (nothing under the global lock changes). Goes on with what others enqueued meanwhile.
// Returns whether it submitted any. `first` (with nothing pending before it) goes into the
// batch straight, or into pending when its slot is not free: a move and an erase less per
// dispatch than passing it through pending.
bool start_plain(cl_command_queue q, QueueLock& qs, _cl_command_queue::Command* first = nullptr) {
  BorrowedBatch borrowed;
  std::vector<_cl_command_queue::Command>& batch = borrowed.b.commands;
  std::vector<std::pair<cl_int, _cl_command_queue::Submitted>>& results = borrowed.b.results;
  uint64_t batch_bytes = 0; // the kernel-argument ring bytes of what `batch` holds
  if (first) {
    if (kernarg_room(q, 0, 0, first->launch.ring_bytes)) {
      batch_bytes = first->launch.ring_bytes;
      batch.push_back(std::move(*first));
    } else {
      q->pending.push_back(std::move(*first));
    }
  }
  for (bool submitted = false;; submitted = true) {
    if (q->running) return submitted;
    while (!q->pending.empty()) {
      _cl_command_queue::Command& c = q->pending.front();
      if (!c.dispatch || c.event || !c.waits.empty() || c.out_of_order ||
          !kernarg_room(q, batch.size(), batch_bytes, c.launch.ring_bytes))
        break;
      batch_bytes += c.launch.ring_bytes;
      batch.push_back(std::move(c));
      q->pending.erase(0);
    }
    if (batch.empty()) return submitted;
    q->running = true;
    // The first dispatch after the queue's last has ended is rung at once: the engine would
    // sit idle until the batch filled, a wait or the submission thread's next look (up to
    // kLingerMax), and in a kernel + clFinish loop the doorbell moves ahead of clFinish.
    const bool device_idle = q->in_flight.empty();
    qs.unlock();
    submit_batch(q, batch, results, !device_idle);
    qs.lock();
    q->running = false;
    for (size_t i = 0; i < batch.size(); ++i) {
      if (results[i].first != CL_COMPLETE) continue; // no event, no waits: nothing to complete
      _cl_command_queue::InFlight& slot = q->in_flight.append();
      slot.cmd = std::move(batch[i]);
      slot.at = results[i].second;
    }
    batch.clear();
    batch_bytes = 0;
  }
}

} // namespace

namespace {

// An in-order dispatch without a wait list or an event, on a queue that is already active,
// with only the queue's mutex: it touches no event and leaves the active set as it is, so the
// global lock (contended by every enqueuing thread, pumps and the submission thread) is taken
// only when someone must be told: the submission thread sleeping until kicked, a thread
// waiting on `changed`, or work this path cannot start. Returns false (and leaves `cmd`) when
// the queue is idle: the idle→active transition takes the global lock (enqueue_command).
bool enqueue_plain(cl_command_queue q, _cl_command_queue::Command& cmd) {
  QueueLock qs(q->sched);
  if (!q->in_active) return false;
  // Behind pending commands, this one cannot start before them, and whatever lets them start
  // makes a pump look at the queue again (see enqueue_command). A thread `running` for the
  // queue takes it before it lets go.
  const bool behind = !q->pending.empty();
  bool kick = false, progress = false;
  if (!behind && !q->running) {
    if (!kernarg_room(q, 0, 0, cmd.launch.ring_bytes)) progress = retire_plain(q, qs);
    progress = start_plain(q, qs, &cmd) || progress;
    kick = !q->pending.empty() && !q->running; // slots full, or not a plain dispatch
  } else {
    q->pending.push_back(std::move(cmd));
  }
  qs.unlock();
  plain_changes.fetch_add(1);
  if (progress) plain_progress.fetch_add(1);
  // Waiters hear of progress only: a command merely appended behind others, or to a batch
  // another thread is submitting, changes nothing they wait for, and whoever moves the queue
  // on tells them then. Telling them costs the global lock and a futex call per enqueue.
  const bool tell = progress && waiters.load() > 0;
  if (kick || tell || submitter().idle.load()) {
    Lock held(lock());
    if (tell) changed().notify_all(); // they look again at what changed
    if (kick)
      kick_locked();
    else
      watch_locked(); // the dispatches on the ring need someone to retire them
  }
  return true;
}

// `want_event` false (a dispatch whose event nobody asked for): the command has no event, and
// null is returned.
cl_event enqueue_command(cl_command_queue q, cl_command_type type, const cl_event* waits,
                         cl_uint nwait, _cl_command_queue::Command&& cmd, bool blocking,
                         bool want_event = true) {
  const bool out_of_order = q->properties & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE;
  if (!want_event && nwait == 0 && !blocking && cmd.dispatch && !out_of_order &&
      enqueue_plain(q, cmd))
    return nullptr;
  _cl_event* e = nullptr;
  if (want_event) {
    e = new _cl_event();
    e->context = q->context;
    e->queue = q;
    retain(q);
    e->type = type;
    e->status = CL_QUEUED;
    e->timed = q->properties & CL_QUEUE_PROFILING_ENABLE;
    if (e->timed) e->queued = host_time_ns();
    cmd.event = e;
    retain(e); // the command's reference; the caller keeps the one from creation
  }
  cmd.out_of_order = q->properties & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE;
  cmd.drain = (type == CL_COMMAND_MARKER || type == CL_COMMAND_BARRIER) && nwait == 0;
  cmd.barrier = type == CL_COMMAND_BARRIER;
  cmd.waits.reserve(nwait);
  for (cl_uint i = 0; i < nwait; ++i) {
    retain(waits[i]);
    cmd.waits.push_back(waits[i]);
  }
  {
    Lock held(lock());
    QueueLock qs(q->sched);
    if (e) {
      e->status = CL_SUBMITTED;
      e->submit = e->queued; // recorded and handed to the scheduler in one step: one clock read
    }
    // A command with nothing to do (a marker, a barrier, an empty NDRange) on a queue with
    // nothing before it, whose waits have all completed, completes here: handing it to the
    // submission thread would cost a wake-up (a futex call, microseconds on a paravirtualised
    // machine) to do nothing.
    const bool idle = q->pending.empty() && !q->running && q->in_flight.empty();
    if (idle && !cmd.work && !cmd.dispatch && !blocking &&
        std::all_of(cmd.waits.begin(), cmd.waits.end(),
                    [](cl_event w) { return w->status == CL_COMPLETE; })) {
      Due due;
      finish_locked(cmd, CL_COMPLETE, due);
      qs.unlock();
      held.unlock();
      run_due(due);
      return e;
    }
    // Behind other pending commands of an in-order queue, this one cannot start before them,
    // and whatever lets them start (their waits completing, the device retiring a dispatch, the
    // command before finishing) makes a pump look at the queue again: no wake-up is needed.
    // Waking the submission thread for nothing costs a futex call, and its pump then contends
    // for this lock with the application's next enqueue.
    const bool behind =
        !q->pending.empty() && !(q->properties & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
    const bool dispatch = cmd.dispatch;
    q->pending.push_back(std::move(cmd));
    if (!q->in_active) { // idle→active: the queue's mutex alone suffices from here on
      q->in_active = true;
      active_queues().insert(q);
      retain(q);
    }
    if (dispatch && !blocking && !behind && q->running) {
      // Another thread is submitting this queue's dispatches: it takes this one too before it
      // lets go (start_dispatches), so nobody needs waking.
      return e;
    }
    if (dispatch && !blocking && !behind) {
      // A dispatch is put on the ring by the enqueuing thread while the queue has slots for it:
      // handing it to the submission thread cost a wake-up and a thread hop per batch, and the
      // scheduler's lock passed between the two threads on every dispatch. Its doorbell waits
      // for kDoorbellBatch of them (or a wait, or clFlush). The submission thread is still
      // told, to retire them should nobody wait for them.
      Due due;
      // Slots the device has finished with are retired here rather than waited for.
      if (!kernarg_room(q, 0, 0, q->pending.back().launch.ring_bytes))
        retire_oldest(q, held, qs, due, false);
      // Host work that became runnable meanwhile (out of order) stays the submission thread's.
      if (const size_t i = next_runnable(q, due); i != kNone && q->pending[i].dispatch)
        start_dispatches(q, held, qs, due, true);
      if (q->pending.empty())
        watch_locked();
      else
        kick_locked(); // slots full, or out-of-order host work: the submission thread goes on
      qs.unlock();
      held.unlock();
      run_due(due);
      return e;
    }
    qs.unlock(); // pump takes it
    if (blocking)
      pump_until(held, [&] { return e->status <= CL_COMPLETE; });
    else if (!behind) {
      kick_locked();
    }
  }
  if (blocking && e->status != CL_COMPLETE) {
    // A blocking call whose command (or a command it waited for) failed.
    release(e);
    throw ClError{CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, ""};
  }
  return e;
}

} // namespace

cl_event enqueue(cl_command_queue q, cl_command_type type, const cl_event* waits, cl_uint nwait,
                 std::function<void()> work, bool blocking) {
  _cl_command_queue::Command cmd;
  cmd.work = std::move(work);
  return enqueue_command(q, type, waits, nwait, std::move(cmd), blocking);
}

cl_event enqueue_dispatch(cl_command_queue q, cl_command_type type, const cl_event* waits,
                          cl_uint nwait, Launch&& launch, bool want_event) {
  _cl_command_queue::Command cmd;
  cmd.dispatch = true;
  cmd.launch = std::move(launch);
  return enqueue_command(q, type, waits, nwait, std::move(cmd), false, want_event);
}

void flush(cl_command_queue q) {
  {
    std::lock_guard held(lock());
    std::lock_guard qs(q->sched);
    if (!q->pending.empty()) kick_locked();
  }
  // Dispatches waiting on the ring for their batch's doorbell get it now. With none, neither
  // the queue's mutex nor the doorbell: an application that flushes after every enqueue paid
  // both for nothing. (A batch another thread is submitting meanwhile was not enqueued before
  // this flush; the submission thread rings it.)
  if (q->unrung.load(std::memory_order_relaxed) == 0) return;
  std::lock_guard device_lock(q->mutex);
  q->device->am->ring_compute();
  q->unrung.store(0, std::memory_order_relaxed);
}

void finish(cl_command_queue q) {
  std::unique_lock held(lock());
  pump_until(held, [&] {
    std::lock_guard qs(q->sched);
    return q->pending.empty() && !q->running && q->in_flight.empty();
  });
}

cl_int wait_for(const cl_event* events, cl_uint n) {
  std::unique_lock held(lock());
  pump_until(held, [&] {
    for (cl_uint i = 0; i < n; ++i)
      if (events[i]->status > CL_COMPLETE) return false;
    return true;
  });
  for (cl_uint i = 0; i < n; ++i)
    if (events[i]->status < 0) return CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
  return CL_SUCCESS;
}

cl_event create_user_event(cl_context context) {
  auto* e = new _cl_event();
  e->context = context;
  retain(context);
  e->owns_context = true;
  e->type = CL_COMMAND_USER;
  e->status = CL_SUBMITTED;
  return e;
}

void set_status(cl_event e, cl_int status) {
  std::unique_lock held(lock());
  Due due;
  set_locked(e, status, due);
  if (!active_queues().empty()) kick_locked(); // commands waiting for `e` may run now
  held.unlock();
  run_due(due);
}

void add_callback(cl_event e, cl_int on, void(CL_CALLBACK* fn)(cl_event, cl_int, void*),
                  void* data) {
  std::unique_lock held(lock());
  e->callbacks.push_back({fn, on, data});
  Due due;
  collect_callbacks(e, e->status, due);
  held.unlock();
  run_due(due);
}

} // namespace amcl::rt
