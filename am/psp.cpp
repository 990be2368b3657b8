#include "psp.h"

#include "debug_log.h"
#include "device_error.h"
#include "hw/discovery.h"
#include "hw/psp_gfx_if.h"
#include "hw/ucode.h"
#include "memory_manager.h"
#include "reg_wait.h"

#include <atomic>
#include <chrono>
#include <cstring>
#include <thread>
#include <utility>

namespace am {
namespace {

using namespace hw;
using namespace hw::psp;

constexpr uint64_t kPage = 4096;

void put32(uint8_t* base, uint32_t at, uint32_t v) { std::memcpy(base + at, &v, 4); }
uint32_t get32(const uint8_t* base, uint32_t at) {
  uint32_t v;
  std::memcpy(&v, base + at, 4);
  return v;
}

} // namespace

void Psp::init_sw(const IpDiscovery& ip) {
  const IpBlock* mp0 = ip.find(discovery::MP0_HWID);
  if (!mp0 || mp0->bases.empty())
    throw DeviceError(pci_.address() + ": IP discovery lists no MP0 (PSP) register bases");
  regs_ = psp_regs_for_major(mp0->major);
  if (!regs_)
    throw DeviceError(pci_.address() + ": PSP (MP0) " + version_of(*mp0) +
                      " is not known to amcl");
  bases_ = RegisterBases::of(*mp0);
  mp0_major_ = mp0->major;
  tmr_at_boot_ = tmr_set_up_at_boot(mp0->major, mp0->minor, mp0->revision);
  AM_LOG(kDebugBlocks, pci_, "PSP: MP0 %s, register bases %s", version_of(*mp0).c_str(),
         bases_of(*mp0).c_str());
}

void Psp::init_hw(const FirmwareSet& fw, MemoryManager& memory, uint64_t fb_base) {
  fb_base_ = fb_base;
  buf_.msg1 = memory.alloc_boot(kMsg1Bytes, kMsg1Bytes);
  buf_.ring = memory.alloc_boot(64 << 10, kPage);
  buf_.cmd = memory.alloc_boot(kPage, kPage);
  buf_.fence = memory.alloc_boot(kPage, kPage);
  std::memset(buf_.fence.cpu, 0, kPage);
  start_sos(fw);
  create_ring();
  const uint32_t tmr_size = load_toc(fw.sos.at(ucode::PSP_FW_TYPE_PSP_TOC));
  // amdgpu_psp.c psp_hw_start: SETUP_TMR after the SMU's image, unless the TMR was set up at boot.
  load_ip_fw(fw.smu);
  if (tmr_at_boot_) {
    AM_LOG(kDebugBlocks, pci_, "PSP: TMR set up at boot (MP0 14.0.2/14.0.3): no SETUP_TMR");
  } else {
    const Allocation tmr = memory.alloc_boot(tmr_size, kTmrAlignment);
    AM_LOG(kDebugBlocks, pci_, "PSP: TMR of %u KiB at MC 0x%llx", tmr_size >> 10,
           static_cast<unsigned long long>(mc(tmr)));
    setup_tmr(tmr);
  }
  for (const FirmwareImage& image : fw.gfx) load_ip_fw(image);
  autoload_rlc();
}

bool Psp::sos_alive() const { return pci_.reg_read32(reg(regs_->sos_alive)) != 0; }

bool Psp::bootloader_ready() const { return pci_.reg_read32(reg(regs_->bl_cmd)) == BL_READY; }

void Psp::copy_to_msg1(std::span<const uint8_t> bytes, const char* what) {
  if (bytes.size() > buf_.msg1.size)
    throw DeviceError(std::string("PSP: ") + what + " (" + std::to_string(bytes.size()) +
                      " bytes) does not fit the 1 MiB firmware buffer");
  std::memset(buf_.msg1.cpu, 0, buf_.msg1.size);
  std::memcpy(buf_.msg1.cpu, bytes.data(), bytes.size());
  std::atomic_thread_fence(std::memory_order_release);
}

void Psp::start_sos(const FirmwareSet& fw) {
  // amdgpu_psp.c / tinygrad's AM: the key database, the SPL table (from the KDB component on
  // MP0 13, its own component from 14 on), the drivers, then the sOS itself.
  const uint32_t spl = mp0_major_ >= 14 ? ucode::PSP_FW_TYPE_PSP_SPL : ucode::PSP_FW_TYPE_PSP_KDB;
  const std::pair<uint32_t, uint32_t> steps[] = {
      {ucode::PSP_FW_TYPE_PSP_KDB, BL_LOAD_KEY_DATABASE}, {spl, BL_LOAD_TOS_SPL_TABLE},
      {ucode::PSP_FW_TYPE_PSP_SYS_DRV, BL_LOAD_SYSDRV},   {ucode::PSP_FW_TYPE_PSP_SOC_DRV, BL_LOAD_SOCDRV},
      {ucode::PSP_FW_TYPE_PSP_INTF_DRV, BL_LOAD_INTFDRV}, {ucode::PSP_FW_TYPE_PSP_DBG_DRV, BL_LOAD_DBGDRV},
      {ucode::PSP_FW_TYPE_PSP_RAS_DRV, BL_LOAD_RASDRV},   {ucode::PSP_FW_TYPE_PSP_SOS, BL_LOAD_SOSDRV}};
  for (const auto& [type, command] : steps) {
    auto it = fw.sos.find(type);
    if (it == fw.sos.end()) continue; // this part has no such component
    if (!wait_reg(pci_, reg(regs_->bl_cmd), 0xffffffffu, BL_READY, timeout_))
      throw DeviceError("PSP bootloader is not ready (C2PMSG_35 = " +
                        std::to_string(pci_.reg_read32(reg(regs_->bl_cmd))) + ")");
    copy_to_msg1(it->second, "sOS component");
    AM_LOG(kDebugBlocks, pci_, "PSP bootloader: command 0x%x, sOS component %u (%zu bytes)",
           command, type, it->second.size());
    nbio_.flush_hdp();
    pci_.reg_write32(reg(regs_->bl_addr), uint32_t(mc(buf_.msg1) >> 20));
    pci_.reg_write32(reg(regs_->bl_cmd), command);
    if (command == BL_LOAD_SOSDRV) break;
    if (!wait_reg(pci_, reg(regs_->bl_cmd), 0xffffffffu, BL_READY, timeout_))
      throw DeviceError("PSP bootloader refused sOS component " + std::to_string(type));
  }
  const auto deadline = std::chrono::steady_clock::now() + timeout_;
  while (!sos_alive())
    if (std::chrono::steady_clock::now() > deadline) throw DeviceError("PSP: the sOS did not start");
}

void Psp::create_ring() {
  // The sOS sets the response flag in C2PMSG_64 when it can take ring commands.
  if (!wait_reg(pci_, reg(regs_->ring_cmd), GFX_FLAG_RESPONSE, GFX_FLAG_RESPONSE, timeout_))
    throw DeviceError("PSP: the sOS does not accept ring commands");
  std::memset(buf_.ring.cpu, 0, buf_.ring.size);
  pci_.reg_write32(reg(regs_->ring_lo), uint32_t(mc(buf_.ring)));
  pci_.reg_write32(reg(regs_->ring_hi), uint32_t(mc(buf_.ring) >> 32));
  pci_.reg_write32(reg(regs_->ring_size), uint32_t(buf_.ring.size));
  pci_.reg_write32(reg(regs_->ring_cmd), GFX_CTRL_CMD_ID_INIT_GPCOM_RING);
  // psp_v13_0_ring_create's mdelay(20) before the response poll, on every card: amdgpu gives the
  // handshake no shorter reading, and the emulated PSP's answer is not evidence for real ones.
  std::this_thread::sleep_for(std::chrono::milliseconds(kRingCreateDelayMs));
  if (!wait_reg(pci_, reg(regs_->ring_cmd), GFX_FLAG_RESPONSE | GFX_CMD_STATUS_MASK, GFX_FLAG_RESPONSE, timeout_))
    throw DeviceError("PSP: creating the GPCOM ring failed (C2PMSG_64 = " +
                      std::to_string(pci_.reg_read32(reg(regs_->ring_cmd))) + ")");
  wptr_ = pci_.reg_read32(reg(regs_->ring_wptr));
  AM_LOG(kDebugBlocks, pci_, "PSP: sOS up, GPCOM ring at MC 0x%llx (%llu KiB)",
         static_cast<unsigned long long>(mc(buf_.ring)),
         static_cast<unsigned long long>(buf_.ring.size >> 10));
}

void Psp::submit(uint32_t cmd_id, const char* what) {
  uint8_t* cmd = buf_.cmd.cpu;
  put32(cmd, kCmdBufSize, kCmdBufBytes);
  put32(cmd, kCmdBufVersion, PSP_GFX_CMD_BUF_VERSION);
  put32(cmd, kCmdId, cmd_id);
  const uint32_t ring_dwords = uint32_t(buf_.ring.size / 4);
  uint8_t* frame = buf_.ring.cpu + size_t(wptr_ % ring_dwords) * 4;
  std::memset(frame, 0, kFrameBytes);
  put32(frame, kFrameCmdBufLo, uint32_t(mc(buf_.cmd)));
  put32(frame, kFrameCmdBufHi, uint32_t(mc(buf_.cmd) >> 32));
  put32(frame, kFrameCmdBufSize, kCmdBufBytes);
  put32(frame, kFrameFenceLo, uint32_t(mc(buf_.fence)));
  put32(frame, kFrameFenceHi, uint32_t(mc(buf_.fence) >> 32));
  const uint32_t fence_value = wptr_ + kFrameBytes / 4;
  put32(frame, kFrameFenceValue, fence_value);
  nbio_.flush_hdp(); // the frame, the command and any image in msg1 reach VRAM first
  wptr_ = (wptr_ + kFrameBytes / 4) % ring_dwords;
  pci_.reg_write32(reg(regs_->ring_wptr), wptr_);
  const auto deadline = std::chrono::steady_clock::now() + timeout_;
  while (std::atomic_ref<uint32_t>(*reinterpret_cast<uint32_t*>(buf_.fence.cpu)).load(std::memory_order_acquire) !=
         fence_value)
    if (std::chrono::steady_clock::now() > deadline)
      throw DeviceError(std::string("PSP: no answer to ") + what);
  const uint32_t status = get32(cmd, kResp + kRespStatus);
  AM_LOG(kDebugBlocks, pci_, "PSP: %s (command 0x%x): status %u", what, cmd_id, status);
  if (status != 0)
    throw DeviceError(std::string("PSP: ") + what + " failed with status " + std::to_string(status));
}

uint32_t Psp::load_toc(std::span<const uint8_t> toc) {
  copy_to_msg1(toc, "TOC");
  std::memset(buf_.cmd.cpu, 0, kCmdBufBytes);
  put32(buf_.cmd.cpu, kCmd + kFwAddrLo, uint32_t(mc(buf_.msg1)));
  put32(buf_.cmd.cpu, kCmd + kFwAddrHi, uint32_t(mc(buf_.msg1) >> 32));
  put32(buf_.cmd.cpu, kCmd + kFwSize, uint32_t(toc.size()));
  submit(GFX_CMD_ID_LOAD_TOC, "LOAD_TOC");
  return get32(buf_.cmd.cpu, kResp + kRespTmrSize);
}

void Psp::setup_tmr(const Allocation& tmr) {
  std::memset(buf_.cmd.cpu, 0, kCmdBufBytes);
  put32(buf_.cmd.cpu, kCmd + kTmrAddrLo, uint32_t(mc(tmr)));
  put32(buf_.cmd.cpu, kCmd + kTmrAddrHi, uint32_t(mc(tmr) >> 32));
  put32(buf_.cmd.cpu, kCmd + kTmrSize, uint32_t(tmr.size));
  put32(buf_.cmd.cpu, kCmd + kTmrFlags, kTmrFlagVirtPhyAddr);
  put32(buf_.cmd.cpu, kCmd + kTmrSysLo, uint32_t(tmr.phys));
  put32(buf_.cmd.cpu, kCmd + kTmrSysHi, uint32_t(tmr.phys >> 32));
  submit(GFX_CMD_ID_SETUP_TMR, "SETUP_TMR");
}

void Psp::load_ip_fw(const FirmwareImage& image) {
  copy_to_msg1(image.ucode, image.file.c_str());
  std::memset(buf_.cmd.cpu, 0, kCmdBufBytes);
  put32(buf_.cmd.cpu, kCmd + kFwAddrLo, uint32_t(mc(buf_.msg1)));
  put32(buf_.cmd.cpu, kCmd + kFwAddrHi, uint32_t(mc(buf_.msg1) >> 32));
  put32(buf_.cmd.cpu, kCmd + kFwSize, uint32_t(image.ucode.size()));
  put32(buf_.cmd.cpu, kCmd + kFwType, image.psp_type);
  const std::string what = "LOAD_IP_FW of " + image.file + " (type " +
                           std::to_string(image.psp_type) + ", " +
                           std::to_string(image.ucode.size()) + " bytes)";
  submit(GFX_CMD_ID_LOAD_IP_FW, what.c_str());
}

void Psp::autoload_rlc() {
  std::memset(buf_.cmd.cpu, 0, kCmdBufBytes);
  submit(GFX_CMD_ID_AUTOLOAD_RLC, "AUTOLOAD_RLC");
}

} // namespace am
