// The driver's side of the SMU (MP1, smu_v13_0 on gfx11 parts, smu_v14_0 on gfx12): a message
// in C2PMSG_66 with its argument in C2PMSG_82; the firmware answers in C2PMSG_90 (1 = OK) and
// may return a value in C2PMSG_82. Follows smu_cmn.c (smu_cmn_send_smc_msg_with_param: wait
// for the previous answer, clear the response, write the argument, then the message).
// tinygrad's AM_SMU does the same.
#pragma once
#include "hw/mp_regs.h"
#include "ip_discovery.h"
#include "pci.h"
#include "register_bases.h"

#include <chrono>
#include <cstdint>

namespace am {

class MemoryManager;

class Smu {
public:
  explicit Smu(Pci& pci) : pci_(pci) {}

  // MP1's table by IP discovery's major version; DeviceError when amcl has none.
  void init_sw(const IpDiscovery& ip);
  // smu_v13_0 / smu_v14_0 hw setup as amcl needs it: learn the firmware version, tell the SMU
  // where its tables live (boot memory, by MC address: `fb_base` + offset), enable its
  // features.
  void init_hw(MemoryManager& memory, uint64_t fb_base);
  // The firmware's version, as init_hw learnt it (0 before).
  uint32_t version() const { return version_; }

  // Whether the SMU firmware runs and answers (its response register is non-zero when idle).
  bool responding() const;
  // Sends a message and returns the value the SMU leaves in the argument register; throws
  // DeviceError when it does not answer or answers with anything but OK.
  uint32_t send(uint32_t msg, uint32_t arg = 0);
  // A message to the debug mailbox (smu_cmn's __smu_cmn_send_debug_msg): argument, message,
  // then the response cleared. Nothing answers; the firmware acts on it.
  void send_debug(uint32_t msg, uint32_t arg = 0);
  // smu_v13_0_0_mode1_reset / smu_v14_0_2_mode1_reset: the reset asked through the debug
  // mailbox, then the generation's wait, during which the chip must not be touched.
  void mode1_reset();

private:
  uint32_t reg(hw::Reg r) const { return bases_(r); }
  Pci& pci_;
  const hw::SmuRegs* regs_ = nullptr;
  RegisterBases bases_;
  uint32_t version_ = 0;
  std::chrono::milliseconds timeout_{3000};
};

} // namespace am
