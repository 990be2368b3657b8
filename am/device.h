// am::Device — the user-space driver for one RDNA3 or RDNA4 card (emulated or real) reached through
// am::Pci: boot, VMID 0 page tables, VRAM/system memory, the MEC compute queue (pipe 0
// queue 0, MES bypassed) and SDMA engine 0 queue 0, with 64-bit timeline signals. It owns the
// IP blocks (nbio, gmc, ih, psp, smu, gfx, sdma) and calls them in the hardware's order.
#pragma once
#include "device_error.h"
#include "gfx.h"
#include "gmc.h"
#include "ih.h"
#include "interrupt_waiters.h"
#include "ip_discovery.h"
#include "memory.h"
#include "memory_manager.h"
#include "nbio.h"
#include "pci.h"
#include "pm4_builder.h"
#include "psp.h"
#include "sdma.h"
#include "sdma_builder.h"
#include "signal_page.h"
#include "smu.h"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace am {

struct DeviceInfo {
  std::string gfx;        // "gfx1100"
  std::string name;       // marketing name
  uint16_t vendor_id = 0, device_id = 0;
  uint8_t revision = 0;
  uint64_t vram_size = 0;         // RCC_CONFIG_MEMSIZE: all of the card's VRAM
  uint64_t visible_vram_size = 0; // the part BAR0 reaches (CPU-visible)
  unsigned compute_units = 0;
  unsigned max_clock_mhz = 0;
  unsigned shader_engines = 1; // COMPUTE_TMPRING_SIZE.WAVES counts one engine's scratch slots
  unsigned vram_bus_bits = 0;  // the memory interface's width (hw::PciPart)
  std::string pci_address;
  bool emulated = false;
};

enum class Engine { Compute, Sdma };

// How a boot found the card (DESIGN.md's three boot states).
enum class BootState {
  Fresh,        // nothing ran on it: full boot (PSP, firmware, SMU, then GFX and SDMA)
  ResetThenFull, // its firmware ran without AM's marker (amdgpu had it) or AM_RESET=1 asked:
                 // mode1 reset, then a full boot
  FastReinit,   // AM booted it earlier (SCRATCH_REG7): only GFX and SDMA are re-initialised
};
const char* to_string(BootState s);

class Device {
public:
  // At AM_DEBUG=4 the card is reached through a RegisterLogPci (every register access printed),
  // with AM_TRACE=<file> through a TracePci (everything the driver did, recorded).
  explicit Device(std::shared_ptr<Pci> pci);
  ~Device();
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

  const DeviceInfo& info() const { return info_; }
  // What the card's IP discovery binary lists (blocks, versions, register bases).
  const IpDiscovery& ip_discovery() const { return discovery_; }
  bool booted_fast() const { return boot_state_ == BootState::FastReinit; }
  BootState boot_state() const { return boot_state_; }
  // Where the firmware came from ("synthetic" for an emulated card), and the SMU firmware's
  // version; empty / 0 after a fast re-init, which loads none.
  const std::string& firmware_source() const { return firmware_source_; }
  uint32_t smu_version() const { return smu_.version(); }

  // Memory. Sizes are rounded up to whole pages; failures throw DeviceError.
  // alloc_vram: CPU-visible VRAM (inside BAR0, `cpu` set), for what the CPU writes or reads.
  // alloc_vram_gpu: VRAM the CPU never touches (reach it by SDMA): beyond BAR0 while there is
  // room, else inside; `cpu` is nullptr beyond.
  Allocation alloc_vram(uint64_t size, uint64_t align = 4096, bool executable = false);
  Allocation alloc_vram_gpu(uint64_t size, uint64_t align = 4096);
  Allocation alloc_system(uint64_t size);
  void free(const Allocation& a);
  // Peer-to-peer: maps another card's VRAM allocation into this card's page tables at the same
  // GPU address (one VA space for all cards), through that card's BAR0 as this card's IOMMU
  // sees it, so this card's engines read and write it directly. Undo with unmap_peer before the
  // owner frees it; the device unmaps what is left when it goes away.
  void map_peer(const Allocation& remote);
  void unmap_peer(const Allocation& remote);
  // Shared virtual memory: page-aligned host memory the caller owns, mapped at GPU address ==
  // host address (inside VaSpace::kHostWindows), snooped through the IOMMU. Undo with
  // unmap_host before the memory is released; the device unmaps what is left when it goes.
  void map_host(void* host, uint64_t size);
  void unmap_host(void* host, uint64_t size);
  // One transfer's application memory mapped for the DMA engines (MemoryManager::map_transfer).
  Allocation map_transfer(const void* host, uint64_t size, bool device_writes);
  void unmap_transfer(const Allocation& a);
  uint64_t vram_free() const { return memory_.vram_free(); }
  uint64_t visible_vram_free() const { return memory_.visible_vram_free(); }
  uint64_t vram_largest_free() const { return memory_.vram_largest_free(); }
  // Allocations (VRAM and system memory) not yet freed, and their bytes: what a test checks
  // returns to where it was once everything using the device is released.
  uint64_t live_allocations() const { return memory_.live_allocations(); }
  uint64_t live_bytes() const { return memory_.live_bytes(); }

  // Submits packets to an engine and returns the timeline value that marks their completion.
  // An SDMA stream longer than kMaxSubmissionDwords goes as several submissions, split between
  // packets (a rectangular copy of many rows is one packet per row).
  // `more_follow`: the caller submits more at once and ends the run with a submission without
  // it (or ring_compute): these packets wait on the ring for the run's one doorbell, and their
  // end raises no interrupt (the run's last does; a waiter looks at the signal at least every
  // 500 µs anyway). A real driver masks the end-of-pipe interrupts nobody sleeps on, too.
  // `state`: SET_SH_REG packets a dispatch in `packets` needs, left off the ring when the ring
  // already set those registers to those values (the previous dispatch's state, as radv and
  // PAL track what they emitted). One queue runs on the pipe and nothing preempts it, so the
  // registers keep their values between submissions; a queue reset forgets them.
  uint64_t submit_compute(const Pm4Builder& packets, bool more_follow = false,
                          const Pm4Builder* state = nullptr);
  // Hands the compute engine what submissions with `more_follow` left on the ring, if any,
  // behind one interrupting fence for the lot.
  void ring_compute();
  uint64_t submit_sdma(const SdmaBuilder& packets);
  // Instructions were written to memory a dispatch may run (a program loaded, or reloaded at
  // an address that held other code): the next compute submission starts with an ACQUIRE_MEM
  // that invalidates the instruction cache (GLI_INV), which otherwise keeps running the lines
  // it holds for that address. Call after the write, before the dispatch is submitted.
  void note_code_written() { code_written_.store(true, std::memory_order_release); }
  static constexpr size_t kMaxSubmissionDwords = 16 * 1024; // a quarter of a ring
  // The address of an engine's timeline signal (for GPU-side waits) and its current value.
  uint64_t completed(Engine e) const;
  // The last timeline value handed out for the engine: once completed() reaches it, everything
  // submitted so far has finished (memory an earlier submission used may then be freed).
  uint64_t submitted(Engine e);
  // Blocks until the engine's timeline reaches `value`. Throws DeviceError when the work
  // faulted (VM fault or shader exception reported through the IH ring) or the queue hung; a
  // hung queue is reset first, so the next submission works.
  void wait(Engine e, uint64_t value) { wait(e, value, hang_timeout_); }
  // How long a queue may make no progress before wait() calls it hung: AMCL_HANG_TIMEOUT_MS,
  // else 60 s on a real card and 10 minutes on an emulated one.
  std::chrono::milliseconds hang_timeout() const { return hang_timeout_; }
  // The same with its own hang limit: work known to be short, checked right after a queue
  // reset on a busy machine, gets more than the short limit a test set for the hang itself.
  void wait(Engine e, uint64_t value, std::chrono::milliseconds hang_timeout);
  // Where a wait left its hang judgement: the value the timeline had reached and when it last
  // moved. A caller that leaves a wait and comes back for the same value passes the same one,
  // so that leaving does not restart the hang limit.
  struct WaitProgress {
    uint64_t reached = 0;
    std::chrono::steady_clock::time_point at{};
  };
  // wait() that the caller may leave: returns false, having judged nothing, once `leave()` is
  // true (looked at between sleeps, at least every 500 us); true when the value was reached.
  bool wait_or_leave(Engine e, uint64_t value, std::chrono::milliseconds hang_timeout,
                     WaitProgress& progress, const std::function<bool()>& leave);
  // Waits up to `limit` for the engine's timeline to reach `value`, without taking the faults
  // or judging a hang (wait() does): several threads may await the same value at once, and
  // each sees it reached at once. `spin`: poll the signal briefly before sleeping (for a
  // thread whose caller waits; a background thread leaves the core to the others). True when
  // the value was reached.
  bool await(Engine e, uint64_t value, std::chrono::microseconds limit, bool spin);
  // Whether a queue reset threw away work with a timeline value in [first, last]: what one
  // wait() for `last` cannot tell of the values before it.
  bool lost_between(Engine e, uint64_t first, uint64_t last);
  uint64_t queue_resets() const { return resets_; }
  uint64_t gpu_clock_hz() const { return 100'000'000; }
  // A GPU timestamp (RELEASE_MEM / COPY_DATA, gpu_clock_hz ticks) as host steady_clock
  // nanoseconds, through an offset measured when the device came up.
  uint64_t host_ns_from_gpu_ticks(uint64_t ticks) const;
  // The SDMA engine's major version (6 on gfx11 parts, 7 on gfx12 parts): SdmaBuilder's encoding.
  unsigned sdma_major() const { return sdma_.major(); }

  Pci& pci() { return *pci_; }

private:
  // What a queue's timeline has handed out, and what a reset threw away.
  struct Timeline {
    uint64_t issued = 0; // timeline values handed out
    // Timeline values of work a queue reset threw away (first, last): their waiters get an
    // error, though the reset completed the timeline so that nobody blocks on them.
    std::vector<std::pair<uint64_t, uint64_t>> lost;
    std::mutex mutex;
    // Under fault_mutex_. `clean`: the newest value a wait found finished with no fault taken
    // (every value up to it either ran cleanly or lies in a range below). `faulted`: the values
    // in flight when a wait took a fault off the IH ring, past `clean` then: the interrupt does
    // not say which dispatch faulted, and the card has one queue under every OpenCL queue, so
    // each of them fails when waited for, whichever queue's wait took the fault.
    uint64_t clean = 0;
    struct Faulted {
      uint64_t first, last;
      std::string message;
      std::optional<WaveFault> wave;
    };
    std::deque<Faulted> faulted;
  };
  // Takes the faults on the IH ring, marks what was in flight, and throws if `value` of `e`
  // is among the values a fault left unaccounted for.
  void judge_faults(Engine e, uint64_t value);
  std::mutex fault_mutex_;
  // device.cpp: discovery and the boot sequence.
  void boot();
  // Runs one boot phase; `step` returns what it found, which AM_DEBUG=1 prints with its time.
  template <class Step> void boot_phase(const char* name, Step&& step);
  void discover();
  void mode1_reset();
  void add_interrupt_sources();
  void calibrate_clock();
  uint64_t gpu_ns(uint64_t ticks) const;
  // submission.cpp: submissions, timelines, waits and queue resets.
  Timeline& timeline(Engine e) { return e == Engine::Compute ? compute_timeline_ : sdma_timeline_; }
  // `abandon` runs, under the timeline's lock, when the packets will not reach the ring.
  template <class Write, class Abandon> uint64_t submit(Engine e, Write&& write, Abandon&& abandon);
  template <class Write> uint64_t submit(Engine e, Write&& write) {
    return submit(e, std::forward<Write>(write), [] {});
  }
  template <class Write> uint64_t submit_locked(Engine e, Timeline& t, Write& write);
  void append_compute_state(Pm4Builder& stream, const Pm4Builder* state);
  // `names`: the packets' names for AM_DEBUG=3 (empty below it).
  // `starts`: the packets' starts in `packets`, for AM_TRACE (empty when no trace is taken).
  uint64_t submit_sdma_words(std::span<const uint32_t> packets, const std::string& names,
                             std::vector<size_t> starts);
  bool stopped(Engine e) const { return e == Engine::Compute ? gfx_.stopped() : sdma_.stopped(); }
  void reset_queue(Engine e);

  std::shared_ptr<Pci> pci_;
  DeviceInfo info_;
  IpDiscovery discovery_;
  BootState boot_state_ = BootState::Fresh;
  std::string firmware_source_;
  // The IP blocks, in the order the boot brings them up (DESIGN.md's boot sequence).
  Nbio nbio_;
  Gmc gmc_;
  MemoryManager memory_;
  SignalPage signals_; // one 64-bit timeline slot per engine + read-pointer write-backs
  Ih ih_;
  Psp psp_;
  Smu smu_;
  Gfx gfx_;
  Sdma sdma_;
  Timeline compute_timeline_, sdma_timeline_;
  InterruptWaiters interrupts_; // threads sleeping in wait() and await()
  std::atomic<bool> compute_owed_ = false; // packets on the compute ring without a doorbell
  Pm4Builder compute_stream_; // what submit_compute writes; guarded by compute_timeline_.mutex
  // The state packets the compute ring ran last, while their registers keep those values (the
  // same mutex): written by what SET_SH_REGs into [first, end) of the SH window.
  std::vector<uint32_t> ring_state_;
  bool ring_state_known_ = false;
  uint32_t ring_state_first_ = 0, ring_state_end_ = 0;
  int64_t clock_offset_ns_ = 0;      // host steady_clock ns minus GPU ns
  int64_t clock_uncertainty_ns_ = 0; // the offset is right within this
  std::atomic<uint64_t> resets_ = 0;
  // Code memory written since the last instruction-cache invalidation went on the ring. True at
  // boot: a fast re-init finds the previous process's code in the caches.
  std::atomic<bool> code_written_ = true;
  std::chrono::milliseconds hang_timeout_;
};

} // namespace am
