// The MEC's RS64 microcontroller as a driver brings it up after the PSP's RLC autoload:
// - RLC_RLCS_BOOTLOAD_STATUS.BOOTLOAD_COMPLETE and CP_STAT tell when the autoload is over; until
//   then the CP is busy, and whatever the driver wrote to the MEC's controls is overwritten when
//   the autoload finishes. It leaves the MEC halted, its pipes neither in reset nor active and
//   their program counters at 0: which state real parts leave is not published, and this is
//   the one that needs every step amdgpu takes;
// - CP_MEC_RS64_PRGRM_CNTR_START(_HI), banked per pipe by GRBM_GFX_CNTL (ME 1), is where a
//   pipe's program counter goes when its reset in CP_MEC_RS64_CNTL is released (amdgpu:
//   "reset given PIPE to take effect of ... PRGRM_CNTR_START");
// - pipe 0, which serves amcl's queue, runs once CP_MEC_RS64_CNTL has HALT and PIPE0_RESET
//   clear and PIPE0_ACTIVE set, at the firmware's entry.
// A pipe released at any other address would execute garbage on a real card; here it runs
// nothing, and the fault is reported naming both addresses.
#pragma once
#include "card_model.h"
#include "firmware_state.h"

#include <array>
#include <atomic>
#include <cstdint>

namespace sim {

class MecControl {
public:
  MecControl(const CardModel& model, FirmwareState& fw, int debug);
  // Register accesses; the caller serialises them (the register lock). Each returns false for a
  // register that is not the MEC's. `grbm_select` is GRBM_GFX_CNTL's value.
  bool read(uint32_t index, uint32_t grbm_select, uint32_t& value);
  // `started` is set when the write let pipe 0 run.
  bool write(uint32_t index, uint32_t value, uint32_t grbm_select, bool& started);
  bool pipe0_running() const { return running_.load(std::memory_order_acquire); }
  // Releases of pipe 0 at an address other than its firmware's entry.
  uint64_t start_faults() const { return start_faults_.load(); }
  void reset(); // power-on (and mode1 reset) state
  bool is_register(uint32_t index) const;

  // What CP_MEC_RS64_CNTL holds out of reset and after an autoload.
  static constexpr uint32_t kHalted = am::hw::CP_MEC_RS64_HALT;

private:
  void settle(); // the autoload's end, once its time has come
  void update_running();

  const CardModel& model_;
  FirmwareState& fw_;
  int debug_;
  bool autoload_complete_ = false;
  uint32_t cntl_ = kHalted;
  std::array<uint64_t, 4> start_{}; // PRGRM_CNTR_START(_HI) per pipe: dword address
  std::array<uint64_t, 4> pc_{};    // where each pipe started (dword address)
  std::atomic<bool> running_{false};
  std::atomic<uint64_t> start_faults_{0};
};

} // namespace sim
