// The emulated interrupt handler (OSSSYS 6.0 / 7.0): writes IV entries into the ring the driver
// programmed through IH_RB_*, advances IH_RB_WPTR (and its write-back copy), then signals the
// host. A full ring sets RB_OVERFLOW and drops the entry, as the hardware does.
#pragma once
#include "am/hw/ih_v6.h"
#include "card_model.h"
#include "gmc.h"
#include "register_file.h"

#include <atomic>
#include <mutex>

namespace sim {

class Ih {
public:
  // `gmc` is the hub the IH's memory writes go through (MMHUB).
  Ih(RegisterFile& regs, const CardModel& model, Gmc& gmc)
      : regs_(regs), model_(model), gmc_(gmc) {}
  // Returns true when the entry reached the ring.
  bool post(const am::hw::ih::IvEntry& entry);
  // Counters other threads (tests, diagnostics) read while engines post.
  uint64_t posted() const { return posted_.load(std::memory_order_relaxed); }
  uint64_t dropped() const { return dropped_.load(std::memory_order_relaxed); }

private:
  RegisterFile& regs_;
  const CardModel& model_;
  Gmc& gmc_;
  std::mutex mutex_;
  std::atomic<uint64_t> posted_{0}, dropped_{0};
  uint64_t dropped_faults_ = 0; // under mutex_
};

} // namespace sim
