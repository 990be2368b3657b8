// The PSP (MP0) and SMU (MP1) mailbox registers amcl uses, per MP version, and the meaning of
// what is written to them.
//
// Sources: Linux drivers/gpu/drm/amd/include/asic_reg/mp/mp_13_0_0_offset.h (MP0_SMN_C2PMSG_n
// = 0x40 + n and MP1_SMN_C2PMSG_n = 0x240 + n, BASE_IDX 0) and mp_14_0_2_offset.h (the PSP's
// mailbox renamed MPASP_SMN_C2PMSG_n, still 0x40 + n at BASE_IDX 0; MP1_SMN_C2PMSG_n = 0x40 + n
// at BASE_IDX 1), also in tinygrad's generated regs/mp_13_0_0.py and regs/mp_14_0_2.py; the
// roles of the registers from psp_v13_0.c / psp_v14_0.c (bootloader: C2PMSG_35 command and
// status, C2PMSG_36 buffer address >> 20, C2PMSG_81 sOS alive; GPCOM ring: C2PMSG_64 command,
// C2PMSG_67 write pointer, C2PMSG_69/70/71 ring address and size) and smu_cmn.c (C2PMSG_66
// message, C2PMSG_82 argument, C2PMSG_90 response). The debug mailbox (C2PMSG_75 message,
// C2PMSG_53 argument, C2PMSG_54 response) from smu_v13_0_0_ppt.c / smu_v14_0_2_ppt.c
// (set_smu_mailbox_registers, later init_msg_ctl); the C2PMSG offsets were re-read in
// mp_13_0_0_offset.h (MP1: 0x240 + n) and mp_14_0_2_offset.h (0x40 + n, BASE_IDX 1). Pinned by
// tests/am/hw_facts_test.cpp.
#pragma once
#include "gc_regs.h"

#include <cstdint>

namespace am::hw {

struct PspRegs {
  const char* name;
  Reg bl_cmd;      // C2PMSG_35: bootloader command; reads 0x80000000 when ready for the next
  Reg bl_addr;     // C2PMSG_36: address of the component buffer >> 20
  Reg ring_cmd;    // C2PMSG_64: GPCOM ring control command; GFX_FLAG_RESPONSE when done
  Reg ring_wptr;   // C2PMSG_67: GPCOM ring write pointer, in dwords
  Reg ring_lo;     // C2PMSG_69
  Reg ring_hi;     // C2PMSG_70
  Reg ring_size;   // C2PMSG_71: bytes
  Reg sos_alive;   // C2PMSG_81: non-zero once the secure OS runs
};

inline constexpr Reg mp0_c2pmsg(unsigned n) { return {0x40 + n, 0}; }
inline constexpr PspRegs psp_regs(const char* name) {
  return {name,           mp0_c2pmsg(35), mp0_c2pmsg(36), mp0_c2pmsg(64),
          mp0_c2pmsg(67), mp0_c2pmsg(69), mp0_c2pmsg(70), mp0_c2pmsg(71), mp0_c2pmsg(81)};
}
inline constexpr PspRegs kMp0_13 = psp_regs("MP0 13.0");
inline constexpr PspRegs kMp0_14 = psp_regs("MP0 14.0");

struct SmuRegs {
  const char* name;
  Reg msg;  // C2PMSG_66
  Reg arg;  // C2PMSG_82
  Reg resp; // C2PMSG_90
  // The debug mailbox: no answer; smu_cmn writes the argument, the message, then clears the
  // response. amdgpu sends its mode1 reset here on every SMU 13.0.x dGPU and 14.0.2/14.0.3.
  Reg debug_msg;  // C2PMSG_75
  Reg debug_arg;  // C2PMSG_53
  Reg debug_resp; // C2PMSG_54
  // How long amdgpu leaves the card alone after asking for a mode1 reset before it touches it
  // again (SMU13_MODE1_RESET_WAIT_TIME_IN_MS; smu_v14_0_2_mode1_reset's msleep(1000)).
  unsigned mode1_reset_wait_ms;
};
inline constexpr Reg mp1_13_c2pmsg(unsigned n) {
  return {0x240 + n, 0};
}
inline constexpr Reg mp1_14_c2pmsg(unsigned n) {
  return {0x40 + n, 1};
}
inline constexpr SmuRegs kMp1_13{
    "MP1 13.0",        mp1_13_c2pmsg(66), mp1_13_c2pmsg(82), mp1_13_c2pmsg(90),
    mp1_13_c2pmsg(75), mp1_13_c2pmsg(53), mp1_13_c2pmsg(54), 500};
inline constexpr SmuRegs kMp1_14{
    "MP1 14.0",        mp1_14_c2pmsg(66), mp1_14_c2pmsg(82), mp1_14_c2pmsg(90),
    mp1_14_c2pmsg(75), mp1_14_c2pmsg(53), mp1_14_c2pmsg(54), 1000};

inline constexpr const PspRegs* psp_regs_for_major(unsigned major) {
  return major == 13 ? &kMp0_13 : major == 14 ? &kMp0_14 : nullptr;
}
inline constexpr const SmuRegs* smu_regs_for_major(unsigned major) {
  return major == 13 ? &kMp1_13 : major == 14 ? &kMp1_14 : nullptr;
}

namespace psp {
// Bootloader commands (amdgpu_psp.h enum psp_bootloader_cmd), written to C2PMSG_35.
inline constexpr uint32_t BL_LOAD_SYSDRV = 0x10000;
inline constexpr uint32_t BL_LOAD_SOSDRV = 0x20000;
inline constexpr uint32_t BL_LOAD_KEY_DATABASE = 0x80000;
inline constexpr uint32_t BL_LOAD_SOCDRV = 0xB0000;
inline constexpr uint32_t BL_LOAD_DBGDRV = 0xC0000;
inline constexpr uint32_t BL_LOAD_INTFDRV = 0xD0000;
inline constexpr uint32_t BL_LOAD_RASDRV = 0xE0000;
inline constexpr uint32_t BL_LOAD_TOS_SPL_TABLE = 0x10000000;
inline constexpr uint32_t BL_READY = 0x80000000; // C2PMSG_35 when the bootloader is idle

// psp_gfx_if.h: ring control commands (C2PMSG_64) and their completion flag.
inline constexpr uint32_t GFX_CTRL_CMD_ID_INIT_GPCOM_RING = 0x00020000;
inline constexpr uint32_t GFX_CTRL_CMD_ID_DESTROY_RINGS = 0x00030000;
inline constexpr uint32_t GFX_FLAG_RESPONSE = 0x80000000;
inline constexpr uint32_t GFX_CMD_STATUS_MASK = 0x0000FFFF;
} // namespace psp

namespace smu {
// smu_v13_0_0_ppsmc.h and smu_v14_0_2_ppsmc.h agree on every message amcl sends.
inline constexpr uint32_t RESULT_OK = 0x1, RESULT_FAILED = 0xFF, RESULT_UNKNOWN_CMD = 0xFE,
                          RESULT_REJECTED_PREREQ = 0xFD;
inline constexpr uint32_t MSG_TestMessage = 0x1, MSG_GetSmuVersion = 0x2,
                          MSG_EnableAllSmuFeatures = 0x6, MSG_DisableAllSmuFeatures = 0x7,
                          MSG_SetDriverDramAddrHigh = 0xE, MSG_SetDriverDramAddrLow = 0xF,
                          MSG_SetToolsDramAddrHigh = 0x10, MSG_SetToolsDramAddrLow = 0x11,
                          MSG_PrepareMp1ForUnload = 0x2E, MSG_Mode1Reset = 0x2F,
                          MSG_RunDcBtc = 0x36;
// The name of a message above, for AM_DEBUG's lines ("?" for any other).
inline constexpr const char* message_name(uint32_t msg) {
  switch (msg) {
  case MSG_TestMessage: return "TestMessage";
  case MSG_GetSmuVersion: return "GetSmuVersion";
  case MSG_EnableAllSmuFeatures: return "EnableAllSmuFeatures";
  case MSG_DisableAllSmuFeatures: return "DisableAllSmuFeatures";
  case MSG_SetDriverDramAddrHigh: return "SetDriverDramAddrHigh";
  case MSG_SetDriverDramAddrLow: return "SetDriverDramAddrLow";
  case MSG_SetToolsDramAddrHigh: return "SetToolsDramAddrHigh";
  case MSG_SetToolsDramAddrLow: return "SetToolsDramAddrLow";
  case MSG_PrepareMp1ForUnload: return "PrepareMp1ForUnload";
  case MSG_Mode1Reset: return "Mode1Reset";
  case MSG_RunDcBtc: return "RunDcBtc";
  default: return "?";
  }
}
// Debug-mailbox messages (smu_v14_0_2_ppt.c; tinygrad's AM sends the same number to SMU 13.0.0).
inline constexpr uint32_t DEBUGSMC_MSG_Mode1Reset = 2;
} // namespace smu

} // namespace am::hw
