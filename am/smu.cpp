#include "smu.h"

#include "device_error.h"

#include <cstdio>
#include <string>
#include <utility>

namespace am {
namespace {

std::string hex(uint32_t v) {
  char b[16];
  std::snprintf(b, sizeof b, "0x%x", v);
  return b;
}

} // namespace

Smu::Smu(Pci& pci, const hw::SmuRegs& regs, RegIndex reg_index)
    : pci_(pci), regs_(regs), reg_index_(std::move(reg_index)) {}

bool Smu::responding() const { return pci_.reg_read32(reg(regs_.resp)) != 0; }

uint32_t Smu::send(uint32_t msg, uint32_t arg) {
  const std::string what = "SMU message " + hex(msg);
  // The previous message must have been answered (any response) before the next is written.
  auto answered = [&](const char* why) {
    const auto deadline = std::chrono::steady_clock::now() + timeout_;
    uint32_t resp;
    while ((resp = pci_.reg_read32(reg(regs_.resp))) == 0)
      if (std::chrono::steady_clock::now() > deadline) throw DeviceError(what + ": " + why);
    return resp;
  };
  answered("the SMU does not answer (is its firmware running?)");
  pci_.reg_write32(reg(regs_.resp), 0);
  pci_.reg_write32(reg(regs_.arg), arg);
  pci_.reg_write32(reg(regs_.msg), msg);
  const uint32_t resp = answered("no answer from the SMU");
  if (resp != hw::smu::RESULT_OK) throw DeviceError(what + " failed: response " + hex(resp));
  return pci_.reg_read32(reg(regs_.arg));
}

void Smu::send_debug(uint32_t msg, uint32_t arg) {
  pci_.reg_write32(reg(regs_.debug_arg), arg);
  pci_.reg_write32(reg(regs_.debug_msg), msg);
  pci_.reg_write32(reg(regs_.debug_resp), 0);
}

} // namespace am
