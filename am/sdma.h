// SDMA (sdma_v6_0 on gfx11 parts, sdma_v7_0 on gfx12): engine 0 queue 0, its ring programmed
// from user space as the bare-metal gfx_resume does, its TRAP interrupt on. tinygrad's AM_SDMA
// does the same.
#pragma once
#include "hw/ih_v6.h"
#include "ih.h"
#include "ip_discovery.h"
#include "memory.h"
#include "nbio.h"
#include "pci.h"
#include "queue_ring.h"
#include "register_bases.h"
#include "signal_page.h"

#include <atomic>
#include <cstdint>
#include <optional>
#include <span>

namespace am {

class MemoryManager;

class Sdma {
public:
  Sdma(Pci& pci, Nbio& nbio) : pci_(pci), nbio_(nbio) {}

  // The engine's major version from IP discovery (6 when it lists none); its registers are in
  // GC's table.
  void init_sw(const IpDiscovery& ip, const GcRegisters& gc);
  unsigned major() const { return major_; }
  // The TRAP interrupt the waits sleep on, then the queue (sdma_v6_0_gfx_resume).
  void init_hw(MemoryManager& memory, SignalPage& signals);
  void fini_hw(); // the ring stops

  // Copies `words` to the ring and rings its doorbell; false while the ring lacks room.
  // `starts`: the packets' starts in `words`, for AM_TRACE (SDMA headers do not give them).
  bool submit(std::span<const uint32_t> words, std::span<const size_t> starts = {}) {
    return queue_.submit(words, starts);
  }
  // A queue reset: stop_queue turns the ring off, restart_queue programs it again empty.
  void stop_queue();
  void restart_queue();
  // The engine reported a queue it stopped since the last restart.
  bool stopped() const { return stopped_; }
  // IH handler: SDMA_QUEUE_HANG, a packet the engine cannot execute.
  std::optional<DeviceFault> on_queue_hang(const hw::ih::IvEntry& iv);

private:
  uint32_t reg(hw::Reg r) const { return gc_(r); }
  void program_queue();

  Pci& pci_;
  Nbio& nbio_;
  GcRegisters gc_;
  unsigned major_ = 6;
  QueueRing queue_;
  std::atomic<bool> stopped_ = false;
};

} // namespace am
