#include "smu.h"

#include <cstdio>

namespace sim {

using namespace am::hw;

Smu::Smu(RegisterFile& regs, const CardModel& model, FirmwareState& fw, int debug)
    : regs_(regs), model_(model), fw_(fw), debug_(debug) {}

void Smu::start() {
  fw_.smu_running = true;
  regs_.store(reg(model_.smu->resp), smu::RESULT_OK);
}

void Smu::reset() {
  fw_.smu_running = false;
  driver_table_ = tools_table_ = 0;
  features_ = false;
}

bool Smu::write(uint32_t index, uint32_t value, bool& mode1_reset) {
  const SmuRegs& r = *model_.smu;
  if (index == reg(r.debug_arg) || index == reg(r.debug_msg)) {
    regs_.store(index, value);
    return true;
  }
  if (index == reg(r.debug_resp)) {
    // The debug mailbox acts when the driver clears the response, the last write of smu_cmn's
    // sequence (argument, message, response); it never answers.
    regs_.store(index, value);
    const uint32_t msg = regs_.read(reg(r.debug_msg));
    if (value != 0 || !fw_.smu_running) return true;
    if (msg == smu::DEBUGSMC_MSG_Mode1Reset)
      mode1_reset = true;
    else
      std::fprintf(stderr, "amcl sim: SMU debug message 0x%x is not modelled: ignored\n", msg);
    return true;
  }
  if (index == reg(r.resp) || index == reg(r.arg)) {
    regs_.store(index, value);
    return true;
  }
  if (index != reg(r.msg)) return false;
  regs_.store(index, value);
  if (!fw_.smu_running) {
    if (debug_ >= 1) std::fprintf(stderr, "amcl sim: SMU message 0x%x with no SMU firmware running\n", value);
    return true; // nobody answers
  }
  const uint32_t arg = regs_.read(reg(r.arg));
  uint32_t resp = smu::RESULT_OK;
  switch (value) {
  case smu::MSG_TestMessage: regs_.store(reg(r.arg), arg + 1); break;
  case smu::MSG_GetSmuVersion: regs_.store(reg(r.arg), model_.smu_version); break;
  case smu::MSG_SetDriverDramAddrHigh: driver_table_ = (driver_table_ & 0xffffffffu) | (uint64_t(arg) << 32); break;
  case smu::MSG_SetDriverDramAddrLow: driver_table_ = (driver_table_ & ~0xffffffffull) | arg; break;
  case smu::MSG_SetToolsDramAddrHigh: tools_table_ = (tools_table_ & 0xffffffffu) | (uint64_t(arg) << 32); break;
  case smu::MSG_SetToolsDramAddrLow: tools_table_ = (tools_table_ & ~0xffffffffull) | arg; break;
  case smu::MSG_EnableAllSmuFeatures:
    // The firmware needs its driver table before it runs its features.
    if (!driver_table_) resp = smu::RESULT_REJECTED_PREREQ;
    else features_ = true;
    break;
  case smu::MSG_DisableAllSmuFeatures: features_ = false; break;
  case smu::MSG_RunDcBtc: case smu::MSG_PrepareMp1ForUnload: break;
  case smu::MSG_Mode1Reset: mode1_reset = true; break;
  default: resp = smu::RESULT_UNKNOWN_CMD; break;
  }
  if (debug_ >= 3) std::fprintf(stderr, "amcl sim: SMU message 0x%x (arg 0x%x) -> 0x%x\n", value, arg, resp);
  regs_.store(reg(r.resp), resp);
  return true;
}

} // namespace sim
