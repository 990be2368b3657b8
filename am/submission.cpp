// Device's submissions, timelines, waits and queue resets: packets go on a queue's ring with a
// fence that advances the engine's 64-bit timeline signal; a wait services the IH ring until
// the signal passes its value, and resets a queue that stopped or hung.
#include "device.h"

#include "debug_log.h"
#include "packet_names.h"
#include "trace_pci.h"

#include <algorithm>
#include <optional>
#include <string>

namespace am {

static_assert(Device::kMaxSubmissionDwords * 4 * 4 <= kQueueRingBytes,
              "a quarter of a ring at most");

uint64_t Device::completed(Engine e) const {
  return signals_.load(e == Engine::Compute ? SignalPage::kComputeSignal : SignalPage::kSdmaSignal);
}

template <class Write, class Abandon>
uint64_t Device::submit(Engine e, Write&& write, Abandon&& abandon) {
  Timeline& t = timeline(e);
  std::lock_guard lock(t.mutex);
  try {
    return submit_locked(e, t, write);
  } catch (...) {
    abandon();
    throw;
  }
}

template <class Write> uint64_t Device::submit_locked(Engine e, Timeline& t, Write& write) {
  // The value is handed out only once its packets are on the ring: a submission that fails
  // (too large for the ring, a hung queue) must not leave a value nothing will ever signal.
  const uint64_t value = t.issued + 1;
  // Ring full: wait for the engine to consume. Hung, as for Device::wait, once its timeline has
  // not moved for the hang limit (a long run of work ahead is no hang).
  // The clock is read only once the ring is found full: a read per submission was 8 % of an
  // application thread enqueueing empty kernels on a paravirtualised machine.
  std::chrono::steady_clock::time_point progress_at{};
  uint64_t reached = completed(e);
  for (uint64_t seen = interrupts_.epoch(); !write(value); seen = interrupts_.epoch()) {
    if (progress_at == std::chrono::steady_clock::time_point{})
      progress_at = std::chrono::steady_clock::now();
    interrupts_.sleep(seen, std::chrono::microseconds(200));
    const auto now = std::chrono::steady_clock::now();
    if (const uint64_t c = completed(e); c != reached) {
      reached = c;
      progress_at = now;
    } else if (now - progress_at > hang_timeout_) {
      throw DeviceError(std::string(e == Engine::Compute ? "compute" : "SDMA") +
                        " ring stays full: the queue is hung");
    }
  }
  t.issued = value;
  return value;
}

uint64_t Device::submit_compute(const Pm4Builder& packets, bool more_follow,
                                const Pm4Builder* state) {
  // Built once, under the timeline's lock (held across a full ring's retries): the
  // invalidation is on the ring before any dispatch submitted after note_code_written()
  // returned, and the state left out is what the ring holds then.
  std::optional<bool> invalidate_code;
  bool built = false;
  auto write = [&](uint64_t value) {
    // Built in the device's one stream (the timeline's lock is held): a builder per part and
    // their concatenation cost three allocations per dispatch.
    Pm4Builder& stream = compute_stream_;
    if (!built) {
      invalidate_code = code_written_.exchange(false, std::memory_order_acq_rel);
      stream.clear();
      if (*invalidate_code) stream.acquire_mem_all();
      append_compute_state(stream, state);
      stream.append(packets.words());
      // Packets that may write the state's registers: the ring's values are unknown after them.
      if (packets.sh_first() < ring_state_end_ && ring_state_first_ < packets.sh_end())
        ring_state_known_ = false;
      stream.release_mem_signal(signals_.va(SignalPage::kComputeSignal), value, !more_follow);
      built = true;
      if (debug_on(kDebugPackets))
        debug_print(pci_->address(), "compute submission %llu: %s (%zu dwords)",
                    static_cast<unsigned long long>(value),
                    pm4_packet_names(stream.words()).c_str(), stream.words().size());
    }
    const std::span<const uint32_t> all = stream.words();
    if (!more_follow) {
      compute_owed_.store(false, std::memory_order_relaxed);
      return gfx_.submit(all);
    }
    if (!gfx_.submit_deferred(all)) return false;
    compute_owed_.store(true, std::memory_order_release);
    return true;
  };
  return submit(Engine::Compute, write, [&] {
    // It never reached the ring (hung, or too large): neither did its invalidation, nor the
    // state the ring was counted to hold, which no later submission may rely on.
    if (invalidate_code.value_or(false)) note_code_written();
    ring_state_known_ = false;
  });
}

// The state packets go on the ring unless the ring ran the same ones last (a dispatch of the
// kernel before: the same code, resources and work-group shape), which leaves those registers
// holding exactly what they would write. The compute timeline's lock is held.
void Device::append_compute_state(Pm4Builder& stream, const Pm4Builder* state) {
  if (!state || state->words().empty()) return;
  const std::span<const uint32_t> words = state->words();
  if (ring_state_known_ &&
      std::equal(words.begin(), words.end(), ring_state_.begin(), ring_state_.end()))
    return;
  stream.append(words);
  ring_state_.assign(words.begin(), words.end());
  ring_state_first_ = state->sh_first();
  ring_state_end_ = state->sh_end();
  ring_state_known_ = true;
}

void Device::ring_compute() {
  if (!compute_owed_.load(std::memory_order_acquire)) return;
  Timeline& t = timeline(Engine::Compute);
  std::lock_guard lock(t.mutex);
  if (!compute_owed_.exchange(false, std::memory_order_relaxed)) return;
  // The packets left waiting went without an end-of-pipe interrupt: one fence for them all
  // (the newest value again, now with INT_SEL), so that a waiter asleep on one of them wakes
  // when the run ends rather than at its sleep's timeout. A full ring gets the doorbell alone.
  Pm4Builder& tail = compute_stream_;
  tail.clear();
  tail.release_mem_signal(signals_.va(SignalPage::kComputeSignal), t.issued, true);
  if (!gfx_.submit(tail.words())) gfx_.ring();
}

uint64_t Device::submit_sdma(const SdmaBuilder& packets) {
  const std::vector<uint32_t>& words = packets.words();
  const std::vector<size_t>& starts = packets.packet_starts();
  size_t begin = 0;
  uint64_t last = 0;
  do {
    size_t end = words.size();
    if (end - begin > kMaxSubmissionDwords) {
      // The last packet that starts within reach ends this piece.
      auto next = std::upper_bound(starts.begin(), starts.end(), begin + kMaxSubmissionDwords);
      if (next != starts.begin() && *std::prev(next) > begin) end = *std::prev(next);
    }
    std::string names;
    std::vector<size_t> piece_starts; // for AM_TRACE, relative to the piece
    if (debug_on(kDebugPackets) || trace_detail::open_traces.load(std::memory_order_relaxed)) {
      // the builder's packets that start in this piece
      const auto first = std::lower_bound(starts.begin(), starts.end(), begin);
      const auto past = std::lower_bound(first, starts.end(), end);
      if (debug_on(kDebugPackets)) names = sdma_packet_names(words, std::span(first, past));
      for (auto at = first; at != past; ++at) piece_starts.push_back(*at - begin);
    }
    last = submit_sdma_words(std::span(words).subspan(begin, end - begin), names,
                             std::move(piece_starts));
    begin = end;
  } while (begin < words.size());
  return last;
}

uint64_t Device::submit_sdma_words(std::span<const uint32_t> packets, const std::string& names,
                                   std::vector<size_t> starts) {
  bool told = false; // a full ring retries; the stream is told once
  return submit(Engine::Sdma, [&](uint64_t value) {
    SdmaBuilder tail;
    const uint64_t sig = signals_.va(SignalPage::kSdmaSignal);
    tail.fence(sig + 4, uint32_t(value >> 32), hw::sdma::MTYPE_UC);
    tail.fence(sig, uint32_t(value), hw::sdma::MTYPE_UC);
    tail.trap();
    std::vector<uint32_t> all(packets.begin(), packets.end());
    all.insert(all.end(), tail.words().begin(), tail.words().end());
    if (!told && debug_on(kDebugPackets))
      debug_print(pci_->address(), "SDMA submission %llu: %s, then %s (%zu dwords)",
                  static_cast<unsigned long long>(value), names.c_str(),
                  sdma_packet_names(tail.words(), tail.packet_starts()).c_str(), all.size());
    told = true;
    std::vector<size_t> all_starts = starts; // with the tail's, when tracing
    if (!starts.empty())
      for (size_t at : tail.packet_starts()) all_starts.push_back(packets.size() + at);
    return sdma_.submit(all, all_starts);
  });
}

uint64_t Device::submitted(Engine e) {
  Timeline& t = timeline(e);
  std::lock_guard lock(t.mutex);
  return t.issued;
}

void Device::reset_queue(Engine e) {
  Timeline& t = timeline(e);
  std::lock_guard lock(t.mutex);
  if (e == Engine::Compute) {
    compute_owed_.store(false, std::memory_order_relaxed); // the ring starts empty again
    ring_state_known_ = false; // a restarted queue's registers are not what the ring left
    gfx_.stop_queue();
  } else {
    sdma_.stop_queue();
  }
  ih_.discard_faults(); // whatever the killed work reported belongs to it, not to later work
  if (e == Engine::Compute)
    gfx_.restart_queue();
  else
    sdma_.restart_queue();
  // Work submitted before the reset is gone: complete its timeline so no waiter blocks on it,
  // and remember which values never ran so their waiters learn it.
  const uint64_t done = completed(e);
  if (t.issued > done) t.lost.push_back({done + 1, t.issued});
  signals_.store(e == Engine::Compute ? SignalPage::kComputeSignal : SignalPage::kSdmaSignal,
                 t.issued);
  ++resets_;
  trace_flush(*pci_); // a hang's or bad packet's trace is on disk before the error goes up
}

// How long a waiter polls the signal before it sleeps on interrupts: about what a short
// dispatch or copy takes on the emulated card, far less than a sleep and wake-up costs on a
// busy paravirtualised machine.
constexpr std::chrono::microseconds kSpinBeforeSleep{20};

bool Device::await(Engine e, uint64_t value, std::chrono::microseconds limit, bool spin) {
  if (e == Engine::Compute) ring_compute(); // nobody waits for packets the engine was not given
  if (spin && spin_until([&] { return completed(e) >= value; }, std::min(limit, kSpinBeforeSleep)))
    return true;
  const auto until = std::chrono::steady_clock::now() + limit;
  for (;;) {
    const uint64_t seen = interrupts_.epoch();
    ih_.service();
    if (completed(e) >= value) return true;
    const auto now = std::chrono::steady_clock::now();
    if (now >= until) return false;
    const auto left = std::chrono::duration_cast<std::chrono::microseconds>(until - now);
    interrupts_.sleep(seen, std::min(left, std::chrono::microseconds(500)));
  }
}

bool Device::lost_between(Engine e, uint64_t first, uint64_t last) {
  Timeline& t = timeline(e);
  std::lock_guard lock(t.mutex);
  return std::any_of(t.lost.begin(), t.lost.end(),
                     [&](const auto& range) { return range.first <= last && first <= range.second; });
}

void Device::wait(Engine e, uint64_t value, std::chrono::milliseconds hang_timeout) {
  WaitProgress progress;
  wait_or_leave(e, value, hang_timeout, progress, [] { return false; });
}

bool Device::wait_or_leave(Engine e, uint64_t value, std::chrono::milliseconds hang_timeout,
                           WaitProgress& progress, const std::function<bool()>& leave) {
  const char* name = e == Engine::Compute ? "compute queue" : "SDMA queue";
  if (e == Engine::Compute) ring_compute(); // nobody waits for packets the engine was not given
  // A queue is hung when its timeline stops moving, not when the awaited value is far away:
  // a wait behind a long run of work that keeps finishing is no hang.
  if (progress.at == std::chrono::steady_clock::time_point{}) {
    progress.at = std::chrono::steady_clock::now();
    progress.reached = completed(e);
  }
  auto& progress_at = progress.at;
  uint64_t& reached = progress.reached;
  spin_until([&] { return completed(e) >= value; }, kSpinBeforeSleep);
  for (;;) {
    const uint64_t seen = interrupts_.epoch();
    ih_.service();
    const uint64_t now_reached = completed(e);
    if (now_reached >= value) break;
    if (stopped(e)) {
      reset_queue(e);
      throw DeviceError(std::string(name) +
                        " stopped on a packet it cannot execute; the queue has been reset");
    }
    const auto now = std::chrono::steady_clock::now();
    if (now_reached != reached) {
      reached = now_reached;
      progress_at = now;
    } else if (now - progress_at > hang_timeout) {
      reset_queue(e);
      throw DeviceError(std::string(name) + " made no progress towards signal value " +
                        std::to_string(value) + " for " + std::to_string(hang_timeout.count()) +
                        " ms: the queue was hung and has been reset");
    }
    if (leave()) return false;
    interrupts_.sleep(seen, std::chrono::microseconds(500));
  }
  ih_.service();
  {
    Timeline& t = timeline(e);
    std::lock_guard lock(t.mutex);
    for (const auto& [first, last] : t.lost)
      if (value >= first && value <= last)
        throw DeviceError(std::string(name) +
                          " was reset (after a hang or a packet it could not execute) "
                          "before this work ran");
  }
  judge_faults(e, value);
  return true;
}

// A wait that finds `value` finished has every fault of the work up to it on the IH ring
// (the emulated card, like the ring's order on a real one, posts a fault before the signal of
// the dispatch that raised it). Whoever takes them marks everything in flight past the last
// clean value on both engines; taking them and judging a value under one mutex keeps a clean
// wait for a later value from overtaking the range it lies in.
void Device::judge_faults(Engine e, uint64_t value) {
  std::lock_guard lock(fault_mutex_);
  const std::vector<DeviceFault> faults = ih_.take_faults();
  if (!faults.empty()) {
    std::string msg = faults.front().message;
    if (faults.size() > 1) msg += " (and " + std::to_string(faults.size() - 1) + " more)";
    for (Engine k : {Engine::Compute, Engine::Sdma}) {
      Timeline& t = timeline(k);
      const uint64_t issued = submitted(k);
      if (issued <= t.clean) continue;
      t.faulted.push_back({t.clean + 1, issued, msg, faults.front().wave});
      // An unbounded list would cost every wait. The oldest two ranges become one rather than
      // the oldest going: a value in it may not have been waited for yet, and must still fail
      // (so may the clean values between the two, if waited for again: over-broad, never silent).
      if (t.faulted.size() > 64) {
        t.faulted[1].first = std::min(t.faulted[1].first, t.faulted[0].first);
        t.faulted.pop_front();
      }
    }
  }
  Timeline& t = timeline(e);
  for (const Timeline::Faulted& f : t.faulted)
    if (value >= f.first && value <= f.last) throw DeviceError(f.message, f.wave);
  t.clean = std::max(t.clean, value);
}

} // namespace am
