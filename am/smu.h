// The driver's side of the SMU (MP1) mailbox: a message in C2PMSG_66 with its argument in
// C2PMSG_82; the firmware answers in C2PMSG_90 (1 = OK) and may return a value in C2PMSG_82.
// Follows smu_cmn.c (smu_cmn_send_smc_msg_with_param: wait for the previous answer, clear the
// response, write the argument, then the message).
#pragma once
#include "hw/mp_regs.h"
#include "pci.h"

#include <chrono>
#include <cstdint>
#include <functional>

namespace am {

class Smu {
public:
  using RegIndex = std::function<uint32_t(hw::Reg)>;
  Smu(Pci& pci, const hw::SmuRegs& regs, RegIndex reg_index);

  // Whether the SMU firmware runs and answers (its response register is non-zero when idle).
  bool responding() const;
  // Sends a message and returns the value the SMU leaves in the argument register; throws
  // DeviceError when it does not answer or answers with anything but OK.
  uint32_t send(uint32_t msg, uint32_t arg = 0);
  // A message to the debug mailbox (smu_cmn's __smu_cmn_send_debug_msg): argument, message,
  // then the response cleared. Nothing answers; the firmware acts on it.
  void send_debug(uint32_t msg, uint32_t arg = 0);

private:
  uint32_t reg(hw::Reg r) const { return reg_index_(r); }
  Pci& pci_;
  const hw::SmuRegs& regs_;
  RegIndex reg_index_;
  std::chrono::milliseconds timeout_{3000};
};

} // namespace am
