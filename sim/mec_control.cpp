#include "mec_control.h"

#include <chrono>
#include <cstdio>

namespace sim {

using namespace am::hw;

namespace {
// CP_STAT while the autoload runs: not 0 (the CP is busy loading; the model sets one bit).
constexpr uint32_t kCpBusy = 1u << 31;
} // namespace

MecControl::MecControl(const CardModel& model, FirmwareState& fw, int debug)
    : model_(model), fw_(fw), debug_(debug) {}

void MecControl::reset() {
  autoload_complete_ = false;
  cntl_ = kHalted;
  start_.fill(0);
  pc_.fill(0);
  running_.store(false, std::memory_order_release);
}

bool MecControl::is_register(uint32_t index) const {
  const GcRegs& g = *model_.gc;
  for (Reg r : {g.CP_STAT, g.RLC_RLCS_BOOTLOAD_STATUS, g.CP_MEC_RS64_PRGRM_CNTR_START,
                g.CP_MEC_RS64_PRGRM_CNTR_START_HI, g.CP_MEC_RS64_CNTL})
    if (index == model_.gc_reg(r)) return true;
  return false;
}

void MecControl::settle() {
  const int64_t done = fw_.autoload_done_ns.load();
  if (autoload_complete_ || done == 0 ||
      std::chrono::steady_clock::now().time_since_epoch().count() < done)
    return;
  autoload_complete_ = true;
  cntl_ = kHalted;
  pc_.fill(0);
  running_.store(false, std::memory_order_release);
}

bool MecControl::read(uint32_t index, uint32_t grbm_select, uint32_t& value) {
  if (!is_register(index)) return false;
  settle();
  const GcRegs& g = *model_.gc;
  const uint32_t pipe = grbm_select & 3, me = (grbm_select >> 2) & 3;
  if (index == model_.gc_reg(g.RLC_RLCS_BOOTLOAD_STATUS)) {
    value = autoload_complete_ ? RLC_BOOTLOAD_COMPLETE : 0;
  } else if (index == model_.gc_reg(g.CP_STAT)) {
    value = fw_.autoload_done_ns.load() != 0 && !autoload_complete_ ? kCpBusy : 0;
  } else if (index == model_.gc_reg(g.CP_MEC_RS64_CNTL)) {
    value = cntl_;
  } else if (index == model_.gc_reg(g.CP_MEC_RS64_PRGRM_CNTR_START)) {
    value = me == 1 ? uint32_t(start_[pipe]) : 0;
  } else {
    value = me == 1 ? uint32_t(start_[pipe] >> 32) : 0;
  }
  return true;
}

bool MecControl::write(uint32_t index, uint32_t value, uint32_t grbm_select, bool& started) {
  if (!is_register(index)) return false;
  settle();
  const GcRegs& g = *model_.gc;
  const uint32_t pipe = grbm_select & 3, me = (grbm_select >> 2) & 3;
  const bool lo = index == model_.gc_reg(g.CP_MEC_RS64_PRGRM_CNTR_START);
  if (lo || index == model_.gc_reg(g.CP_MEC_RS64_PRGRM_CNTR_START_HI)) {
    if (me != 1) {
      std::fprintf(stderr,
                   "amcl sim: CP_MEC_RS64_PRGRM_CNTR_START%s written with GRBM_GFX_CNTL selecting "
                   "ME %u, not the MEC (ME 1): no MEC pipe takes it\n",
                   lo ? "" : "_HI", me);
      return true;
    }
    uint64_t& s = start_[pipe];
    s = lo ? (s & ~0xffffffffull) | value : (s & 0xffffffffull) | uint64_t(value) << 32;
    return true;
  }
  if (index != model_.gc_reg(g.CP_MEC_RS64_CNTL)) return true; // the status registers are read-only
  const bool was_running = running_.load(std::memory_order_acquire);
  const uint32_t released = cntl_ & ~value; // reset bits going from 1 to 0
  cntl_ = value;
  for (uint32_t p = 0; p < pc_.size(); ++p)
    if (released & (1u << (CP_MEC_RS64_PIPE_RESET_SHIFT + p))) pc_[p] = start_[p];
  update_running();
  started = !was_running && running_.load(std::memory_order_acquire);
  return true;
}

// Pipe 0 runs when the autoload is over, the MEC is not halted and pipe 0 is out of reset and
// active, at its firmware's entry.
void MecControl::update_running() {
  const bool released = autoload_complete_ && fw_.gfx_running && !(cntl_ & CP_MEC_RS64_HALT) &&
                        !(cntl_ & (1u << CP_MEC_RS64_PIPE_RESET_SHIFT)) &&
                        (cntl_ & (1u << CP_MEC_RS64_PIPE_ACTIVE_SHIFT));
  const uint64_t entry = fw_.mec_entry.load();
  const bool at_entry = entry == FirmwareState::kUnknownEntry || pc_[0] == entry >> 2;
  if (released && !at_entry && !running_.load()) {
    start_faults_.fetch_add(1);
    std::fprintf(stderr,
                 "amcl sim: MEC pipe 0 released at address 0x%llx but its firmware is linked at "
                 "0x%llx (CP_MEC_RS64_PRGRM_CNTR_START(_HI) with the pipe selected, then a pipe "
                 "reset to take it): the pipe runs nothing\n",
                 static_cast<unsigned long long>(pc_[0] << 2),
                 static_cast<unsigned long long>(entry));
  }
  if (debug_ >= 2 && released && at_entry && !running_.load())
    std::fprintf(stderr, "amcl sim: MEC pipe 0 runs from 0x%llx\n",
                 static_cast<unsigned long long>(pc_[0] << 2));
  running_.store(released && at_entry, std::memory_order_release);
}

} // namespace sim
