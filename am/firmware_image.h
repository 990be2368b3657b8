// Reading and writing the firmware files amdgpu ships (am/hw/ucode.h): every file's common
// header is checked against the file's size before any byte of it reaches the device, and the
// PSP's sOS file is split into its components.
#pragma once
#include <cstdint>
#include <map>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace am {

// A missing or malformed firmware file; the message names the file.
struct FirmwareError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The ucode payload of a firmware file after checking its common header (sizes consistent with
// the file, a header version amcl reads). `name` is for messages.
std::vector<uint8_t> ucode_payload(std::span<const uint8_t> file, const std::string& name);

// The common header's ucode_version (what amdgpu prints as the firmware's version); 0 for a
// file shorter than the header.
uint32_t ucode_version(std::span<const uint8_t> file);

// The components of a PSP sOS file (psp_firmware_header_v2_0), by psp_fw_type.
std::map<uint32_t, std::vector<uint8_t>> psp_sos_components(std::span<const uint8_t> file,
                                                            const std::string& name);

// The IRAM and DRAM images of an IMU file (imu_firmware_header_v1_0).
std::pair<std::vector<uint8_t>, std::vector<uint8_t>> imu_images(std::span<const uint8_t> file,
                                                                 const std::string& name);

// The images of a SOC21/SOC24 container file, each with the psp_gfx_fw_type the PSP loads it as,
// in load order. Every offset and size is checked against the file.
using TypedImages = std::vector<std::pair<uint32_t, std::vector<uint8_t>>>;
// gfx_firmware_header_v2_0 (RS64 PFP/ME/MEC): the code as `code_type`, then the stack once for
// each of `stack_types` (one per pipe).
TypedImages cp_rs64_images(std::span<const uint8_t> file, const std::string& name,
                           uint32_t code_type, std::span<const uint32_t> stack_types);
// The same file's ucode_start_addr: the byte address its code is linked at.
uint64_t cp_rs64_start_address(std::span<const uint8_t> file, const std::string& name);
// sdma_firmware_header_v2_0 (context and control threads: TH0, TH1) or v3_0 (one image: TH0).
TypedImages sdma_images(std::span<const uint8_t> file, const std::string& name);
// rlc_firmware_header_v2_x: the restore lists GPM and SRM (v2.1+), IRAM and DRAM boot (v2.2+),
// RLC_P and RLC_V (v2.3+), whichever are non-empty, then RLC_G (the header's ucode) last.
TypedImages rlc_images(std::span<const uint8_t> file, const std::string& name);

// Builds a file in the same format: a common header (version major.0) around `ucode`, or a
// PSP v2.0 sOS file around `components`. The emulated card's synthetic firmware is made this
// way, and goes through the same checks as files from disk.
std::vector<uint8_t> make_firmware_file(uint16_t header_major, std::span<const uint8_t> ucode);
std::vector<uint8_t> make_psp_sos_file(const std::map<uint32_t, std::vector<uint8_t>>& components);
std::vector<uint8_t> make_imu_file(std::span<const uint8_t> iram, std::span<const uint8_t> dram);
std::vector<uint8_t> make_cp_rs64_file(std::span<const uint8_t> code,
                                       std::span<const uint8_t> stack, uint64_t start_address);
// SDMA 6 (header v2.0: both threads) or SDMA 7 (v3.0: `th1` must be empty).
std::vector<uint8_t> make_sdma_file(std::span<const uint8_t> th0, std::span<const uint8_t> th1);
// An RLC v2.3 file: RLC_G as the ucode, the other parts by psp_gfx_fw_type (GPM, SRM, IRAM,
// DRAM boot, P, V; absent ones are empty).
std::vector<uint8_t> make_rlc_file(std::span<const uint8_t> rlc_g,
                                   const std::map<uint32_t, std::vector<uint8_t>>& parts);

} // namespace am
