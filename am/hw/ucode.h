// Firmware file layouts (what /lib/firmware/amdgpu/*.bin hold).
// Source: Linux drivers/gpu/drm/amd/amdgpu/amdgpu_ucode.h: struct common_firmware_header (32
// bytes, every file starts with it), struct psp_firmware_header_v2_0 (a count and an array of
// struct psp_fw_bin_desc {fw_type, fw_version, offset_bytes, size_bytes}, offsets relative to
// ucode_array_offset_bytes), struct imu_firmware_header_v1_0 and enum psp_fw_type. Byte offsets; pinned by
// tests/am/firmware_test.cpp.
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
