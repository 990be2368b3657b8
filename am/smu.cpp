#include "smu.h"

#include "debug_log.h"
#include "device_error.h"
#include "hw/discovery.h"
#include "memory_manager.h"

#include <cstdio>
#include <string>
#include <thread>

namespace am {
namespace {

constexpr uint64_t kPage = 4096;
constexpr uint64_t kDriverTableBytes = 16 << 10, kToolsTableBytes = 100 << 10;

std::string hex(uint32_t v) {
  char b[16];
  std::snprintf(b, sizeof b, "0x%x", v);
  return b;
}

} // namespace

void Smu::init_sw(const IpDiscovery& ip) {
  const IpBlock* mp1 = ip.find(hw::discovery::MP1_HWID);
  if (!mp1 || mp1->bases.size() < 2)
    throw DeviceError(pci_.address() + ": IP discovery lists no MP1 (SMU) register bases");
  regs_ = hw::smu_regs_for_major(mp1->major);
  if (!regs_)
    throw DeviceError(pci_.address() + ": SMU (MP1) " + version_of(*mp1) +
                      " is not known to amcl");
  bases_ = RegisterBases::of(*mp1);
  AM_LOG(kDebugBlocks, pci_, "SMU: MP1 %s, register bases %s", version_of(*mp1).c_str(),
         bases_of(*mp1).c_str());
}

void Smu::init_hw(MemoryManager& memory, uint64_t fb_base) {
  version_ = send(hw::smu::MSG_GetSmuVersion);
  const Allocation driver = memory.alloc_boot(kDriverTableBytes, kPage);
  const Allocation tools = memory.alloc_boot(kToolsTableBytes, kPage);
  // MC addresses, as smu_v13_0_set_driver_table_location passes driver_table->mc_address.
  const uint64_t driver_mc = fb_base + driver.phys, tools_mc = fb_base + tools.phys;
  send(hw::smu::MSG_SetDriverDramAddrHigh, uint32_t(driver_mc >> 32));
  send(hw::smu::MSG_SetDriverDramAddrLow, uint32_t(driver_mc));
  send(hw::smu::MSG_SetToolsDramAddrHigh, uint32_t(tools_mc >> 32));
  send(hw::smu::MSG_SetToolsDramAddrLow, uint32_t(tools_mc));
  send(hw::smu::MSG_EnableAllSmuFeatures);
}

bool Smu::responding() const { return pci_.reg_read32(reg(regs_->resp)) != 0; }

uint32_t Smu::send(uint32_t msg, uint32_t arg) {
  const std::string what = "SMU message " + hex(msg);
  // The previous message must have been answered (any response) before the next is written.
  auto answered = [&](const char* why) {
    const auto deadline = std::chrono::steady_clock::now() + timeout_;
    uint32_t resp;
    while ((resp = pci_.reg_read32(reg(regs_->resp))) == 0)
      if (std::chrono::steady_clock::now() > deadline) throw DeviceError(what + ": " + why);
    return resp;
  };
  answered("the SMU does not answer (is its firmware running?)");
  pci_.reg_write32(reg(regs_->resp), 0);
  pci_.reg_write32(reg(regs_->arg), arg);
  pci_.reg_write32(reg(regs_->msg), msg);
  const uint32_t resp = answered("no answer from the SMU");
  if (resp != hw::smu::RESULT_OK) throw DeviceError(what + " failed: response " + hex(resp));
  const uint32_t value = pci_.reg_read32(reg(regs_->arg));
  AM_LOG(kDebugBlocks, pci_, "SMU: %s (0x%x) argument 0x%x: OK, returns 0x%x",
         hw::smu::message_name(msg), msg, arg, value);
  return value;
}

void Smu::send_debug(uint32_t msg, uint32_t arg) {
  AM_LOG(kDebugBlocks, pci_, "SMU: debug message 0x%x argument 0x%x", msg, arg);
  pci_.reg_write32(reg(regs_->debug_arg), arg);
  pci_.reg_write32(reg(regs_->debug_msg), msg);
  pci_.reg_write32(reg(regs_->debug_resp), 0);
}

void Smu::mode1_reset() {
  send_debug(hw::smu::DEBUGSMC_MSG_Mode1Reset);
  std::this_thread::sleep_for(std::chrono::milliseconds(regs_->mode1_reset_wait_ms));
}

} // namespace am
