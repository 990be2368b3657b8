// The emulated SMU (MP1) message mailbox: once its firmware runs (the PSP loaded it), a message
// written to C2PMSG_66 is answered in C2PMSG_90 (1 OK, 0xFE unknown, 0xFD out of order) with a
// value in C2PMSG_82 where the message returns one. Without firmware nothing answers. Mode1Reset
// answers OK and then resets the card (the Gpu does the reset); so does DEBUGSMC_MSG_Mode1Reset
// on the debug mailbox (C2PMSG_75/53/54), which answers nothing. Message numbers from
// am/hw/mp_regs.h (smu_v13_0_0_ppsmc.h, smu_v14_0_2_ppsmc.h).
#pragma once
#include "card_model.h"
#include "firmware_state.h"
#include "register_file.h"

#include <cstdint>

namespace sim {

class Smu {
public:
  Smu(RegisterFile& regs, const CardModel& model, FirmwareState& fw, int debug);
  // Handles writes to the SMU's registers (false for others); sets `mode1_reset` when the
  // message asks for one.
  bool write(uint32_t index, uint32_t value, bool& mode1_reset);
  void start(); // the PSP loaded the firmware: idle with the OK response
  void reset();

private:
  uint32_t reg(am::hw::Reg r) const { return model_.smu_reg(r); }
  RegisterFile& regs_;
  const CardModel& model_;
  FirmwareState& fw_;
  int debug_;
  uint64_t driver_table_ = 0, tools_table_ = 0;
  bool features_ = false;
};

} // namespace sim
