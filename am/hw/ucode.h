// Firmware file layouts (what /lib/firmware/amdgpu/*.bin hold).
// Source: Linux drivers/gpu/drm/amd/amdgpu/amdgpu_ucode.h: struct common_firmware_header (32
// bytes, every file starts with it), struct psp_firmware_header_v2_0 (a count and an array of
// struct psp_fw_bin_desc {fw_type, fw_version, offset_bytes, size_bytes}, offsets relative to
// ucode_array_offset_bytes), struct imu_firmware_header_v1_0, gfx_firmware_header_v2_0,
// sdma_firmware_header_v2_0/v3_0, rlc_firmware_header_v2_0..v2_3 and enum psp_fw_type. Which
// piece the PSP gets as which type: amdgpu_ucode.c (amdgpu_ucode_init_single_fw) and tinygrad's
// AM driver. Byte offsets; pinned by tests/am/firmware_test.cpp.
#pragma once
#include <cstdint>

namespace am::hw::ucode {

inline constexpr uint32_t kSizeBytes = 0, kHeaderSizeBytes = 4, kHeaderVersionMajor = 8,
                          kHeaderVersionMinor = 10, kIpVersionMajor = 12, kIpVersionMinor = 14,
                          kUcodeVersion = 16, kUcodeSizeBytes = 20, kUcodeArrayOffsetBytes = 24,
                          kCrc32 = 28;
inline constexpr uint32_t kCommonHeaderBytes = 32;

// psp_firmware_header_v2_0: the common header, u32 psp_fw_bin_count, then 16-byte descriptors.
inline constexpr uint32_t kPspBinCount = 32, kPspBins = 36, kPspBinDescBytes = 16;
inline constexpr uint32_t kBinFwType = 0, kBinFwVersion = 4, kBinOffsetBytes = 8, kBinSizeBytes = 12;

// imu_firmware_header_v1_0: the common header, then u32 iram size, iram offset, dram size, dram
// offset. amdgpu_ucode.c hands the PSP the IRAM image from ucode_array_offset_bytes and the
// DRAM image right after it.
inline constexpr uint32_t kImuIramSize = 32, kImuDramSize = 40, kImuHeaderBytes = 48;

// gfx_firmware_header_v2_0 (RS64 PFP, ME, MEC on SOC21/SOC24): the code is ucode_size_bytes
// from the common header's ucode offset; the stack (data) is at data_offset_bytes from the
// file's start, and the PSP gets it once per pipe. ucode_start_addr_lo/hi is the address the
// code is linked at, where each pipe's program counter must start (config_gfx_rs64).
inline constexpr uint32_t kCpv2UcodeSize = 36, kCpv2DataSize = 44, kCpv2DataOffset = 48,
                          kCpv2UcodeStartLo = 52, kCpv2UcodeStartHi = 56, kCpv2HeaderBytes = 60;

// sdma_firmware_header_v2_0 (SDMA 6): the context thread's ucode is the common header's ucode
// (ctx_ucode_size_bytes long), the control thread's at ctl_ucode_offset from the file's start.
inline constexpr uint32_t kSdmaV2CtxSize = 36, kSdmaV2CtlOffset = 48, kSdmaV2CtlSize = 52,
                          kSdmaV2HeaderBytes = 64;
// sdma_firmware_header_v3_0 (SDMA 7): one RS64 image, ucode_size_bytes from the common
// header's ucode offset.
inline constexpr uint32_t kSdmaV3UcodeSize = 40, kSdmaV3HeaderBytes = 44;

// rlc_firmware_header_v2_0 is 104 bytes; v2_1 adds the save/restore lists (GPM and SRM size and
// offset below), v2_2 the IRAM and DRAM boot images, v2_3 RLC_P and RLC_V. Offsets are from
// the file's start; the header's minor version says which parts exist.
inline constexpr uint32_t kRlcGpmSize = 132, kRlcGpmOffset = 136, kRlcSrmSize = 148,
                          kRlcSrmOffset = 152, kRlcV21HeaderBytes = 156;
inline constexpr uint32_t kRlcIramSize = 156, kRlcIramOffset = 160, kRlcDramSize = 164,
                          kRlcDramOffset = 168, kRlcV22HeaderBytes = 172;
inline constexpr uint32_t kRlcPSize = 180, kRlcPOffset = 184, kRlcVSize = 196, kRlcVOffset = 200,
                          kRlcV23HeaderBytes = 204;

enum PspFwType : uint32_t {
  PSP_FW_TYPE_PSP_SOS = 1,
  PSP_FW_TYPE_PSP_SYS_DRV = 2,
  PSP_FW_TYPE_PSP_KDB = 3,
  PSP_FW_TYPE_PSP_TOC = 4,
  PSP_FW_TYPE_PSP_SPL = 5,
  PSP_FW_TYPE_PSP_RL = 6,
  PSP_FW_TYPE_PSP_SOC_DRV = 7,
  PSP_FW_TYPE_PSP_INTF_DRV = 8,
  PSP_FW_TYPE_PSP_DBG_DRV = 9,
  PSP_FW_TYPE_PSP_RAS_DRV = 10,
};

} // namespace am::hw::ucode
