// What the compute and SDMA queues share: a ring in VRAM the engine fetches from, the
// signal-page slots it writes its read pointer back to and may poll its write pointer from,
// and its doorbell. The engines count differently: the MEC's pointers are in dwords, SDMA's in
// bytes.
#pragma once
#include "memory.h"
#include "nbio.h"
#include "pci.h"
#include "ring.h"
#include "signal_page.h"

#include <cstdint>
#include <span>

namespace am {

class QueueRing {
public:
  struct Layout {
    uint32_t doorbell; // BAR2 dword index
    SignalPage::Slot rptr, wptr_poll;
    uint32_t pointer_scale; // the engine's pointer units per ring dword: 1 (MEC), 4 (SDMA)
  };

  // `mem`: the ring, a power of two bytes, zeroed here.
  void init(Pci& pci, Nbio& nbio, SignalPage& signals, const Allocation& mem, Layout layout);
  const Allocation& memory() const { return mem_; }
  uint64_t rptr_va() const { return signals_->va(layout_.rptr); }
  uint64_t wptr_poll_va() const { return signals_->va(layout_.wptr_poll); }

  // Copies `words` to the ring and hands the engine the new write pointer as amdgpu's set_wptr
  // does: at the poll address first (where the firmware reads it from memory, a queue it
  // restores or polls, it finds the same value), then through the doorbell after an HDP
  // flush. False while the ring lacks room. `starts`: the packets' starts in an SDMA stream,
  // for AM_TRACE.
  bool submit(std::span<const uint32_t> words, std::span<const size_t> starts = {});
  // The same without handing the write pointer over yet: more packets follow at once, and the
  // next submit() or ring() hands the engine all of them with one doorbell. A ring without room
  // hands over what it holds first, so that the engine can make room.
  bool submit_deferred(std::span<const uint32_t> words);
  // Hands the engine packets submit_deferred left on the ring (nothing when none are).
  void ring();
  // After the engine's queue came off: an empty ring, both pointers back at 0.
  void reset();

private:
  // Copies `words` to the ring without handing them over; false while the ring lacks room.
  bool write(std::span<const uint32_t> words);
  void trace(std::span<const uint32_t> words, std::span<const size_t> starts); // AM_TRACE
  void doorbell(uint64_t wptr);
  Pci* pci_ = nullptr;
  Nbio* nbio_ = nullptr;
  SignalPage* signals_ = nullptr;
  Allocation mem_;
  Layout layout_{};
  Ring ring_;
  bool owed_ = false; // packets on the ring whose write pointer the engine was not given
};

} // namespace am
