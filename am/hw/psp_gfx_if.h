// The PSP's GPCOM ring interface: ring frames, command buffers and the command and firmware
// type numbers amcl uses.
// Source: Linux drivers/gpu/drm/amd/amdgpu/psp_gfx_if.h (struct psp_gfx_rb_frame, struct
// psp_gfx_cmd_resp with its union at +28 and the response at +864, enum psp_gfx_cmd_id, enum
// psp_gfx_fw_type) and amdgpu_psp.h (PSP_TMR_ALIGNMENT, PSP_1_MEG). "All physical addresses used
// in this interface are actually GPU Virtual Addresses" (VMID 0), says the header. Byte offsets
// below; pinned by tests/am/hw_facts_test.cpp.
#pragma once
#include <cstdint>

namespace am::hw::psp {

inline constexpr uint32_t PSP_GFX_CMD_BUF_VERSION = 1;

enum CmdId : uint32_t {
  GFX_CMD_ID_SETUP_TMR = 0x05,
  GFX_CMD_ID_LOAD_IP_FW = 0x06,
  GFX_CMD_ID_LOAD_TOC = 0x20,
  GFX_CMD_ID_AUTOLOAD_RLC = 0x21,
};

// enum psp_gfx_fw_type: the images amcl hands the PSP.
enum FwType : uint32_t {
  GFX_FW_TYPE_CP_MEC = 4,
  GFX_FW_TYPE_RLC_V = 7,
  GFX_FW_TYPE_RLC_G = 8,
  GFX_FW_TYPE_SDMA0 = 9,
  GFX_FW_TYPE_SMU = 18,
  GFX_FW_TYPE_RLC_RESTORE_LIST_GPM_MEM = 20,
  GFX_FW_TYPE_RLC_RESTORE_LIST_SRM_MEM = 21,
  GFX_FW_TYPE_RLC_P = 25,
  GFX_FW_TYPE_RLC_IRAM = 26,
  GFX_FW_TYPE_RLC_DRAM_BOOT = 48,
  GFX_FW_TYPE_IMU_I = 68, // SOC21 and later: the IMU's instruction and data images
  GFX_FW_TYPE_IMU_D = 69,
  GFX_FW_TYPE_SDMA_UCODE_TH0 = 71, // SOC21: SDMA context thread (SDMA 7's one RS64 image too)
  GFX_FW_TYPE_SDMA_UCODE_TH1 = 72, // SOC21: SDMA control thread
  // SOC21 RS64 command processors: code, then a stack per pipe.
  GFX_FW_TYPE_RS64_PFP = 87,
  GFX_FW_TYPE_RS64_ME = 88,
  GFX_FW_TYPE_RS64_MEC = 89,
  GFX_FW_TYPE_RS64_PFP_P0_STACK = 90,
  GFX_FW_TYPE_RS64_PFP_P1_STACK = 91,
  GFX_FW_TYPE_RS64_ME_P0_STACK = 92,
  GFX_FW_TYPE_RS64_ME_P1_STACK = 93,
  GFX_FW_TYPE_RS64_MEC_P0_STACK = 94,
  GFX_FW_TYPE_RS64_MEC_P1_STACK = 95,
  GFX_FW_TYPE_RS64_MEC_P2_STACK = 96,
  GFX_FW_TYPE_RS64_MEC_P3_STACK = 97,
};

// struct psp_gfx_rb_frame: 64 bytes.
inline constexpr uint32_t kFrameBytes = 64;
inline constexpr uint32_t kFrameCmdBufLo = 0, kFrameCmdBufHi = 4, kFrameCmdBufSize = 8,
                          kFrameFenceLo = 12, kFrameFenceHi = 16, kFrameFenceValue = 20;

// struct psp_gfx_cmd_resp: 1024 bytes; the command union at +28, the response at +864.
inline constexpr uint32_t kCmdBufBytes = 1024;
inline constexpr uint32_t kCmdBufSize = 0, kCmdBufVersion = 4, kCmdId = 8, kCmd = 28, kResp = 864;
// Command fields, from kCmd: load_ip_fw {addr lo, addr hi, size, type}; load_toc {addr lo,
// addr hi, size}; setup_tmr {addr lo, addr hi, size, flags (bit 1: virt_phy_addr), system
// physical lo, hi}.
inline constexpr uint32_t kFwAddrLo = 0, kFwAddrHi = 4, kFwSize = 8, kFwType = 12;
inline constexpr uint32_t kTmrAddrLo = 0, kTmrAddrHi = 4, kTmrSize = 8, kTmrFlags = 12,
                          kTmrSysLo = 16, kTmrSysHi = 20;
inline constexpr uint32_t kTmrFlagVirtPhyAddr = 1u << 1;
// Response fields, from kResp: status, session id, fw address lo/hi (within the TMR), tmr_size.
inline constexpr uint32_t kRespStatus = 0, kRespFwAddrLo = 8, kRespFwAddrHi = 12, kRespTmrSize = 16;

inline constexpr uint64_t kTmrAlignment = 1ull << 20; // PSP_TMR_ALIGNMENT
// Parts whose PSP sets its TMR up at boot: amdgpu_psp.c psp_early_init leaves boot_time_tmr set
// for MP0 14.0.2 and 14.0.3 (clears it for 13.0.0), and with RLC autoload psp_hw_start then
// sends no SETUP_TMR and psp_tmr_init allocates none (tinygrad's AM_PSP: boot_time_tmr and
// autoload_tmr). LOAD_TOC is still sent.
inline constexpr bool tmr_set_up_at_boot(unsigned major, unsigned minor, unsigned revision) {
  return major == 14 && minor == 0 && (revision == 2 || revision == 3);
}
// psp_v13_0_ring_create / psp_v14_0_ring_create: mdelay(20) after the ring command is written
// ("there might be handshake issue with hardware which needs delay"), then the response poll;
// tinygrad's AM_PSP._ring_create sleeps the same 20 ms.
inline constexpr unsigned kRingCreateDelayMs = 20;
inline constexpr uint64_t kMsg1Bytes = 1ull << 20;    // the bootloader's 1 MiB component buffer

} // namespace am::hw::psp
