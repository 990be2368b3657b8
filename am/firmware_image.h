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

// The components of a PSP sOS file (psp_firmware_header_v2_0), by psp_fw_type.
std::map<uint32_t, std::vector<uint8_t>> psp_sos_components(std::span<const uint8_t> file,
                                                            const std::string& name);

// The IRAM and DRAM images of an IMU file (imu_firmware_header_v1_0).
std::pair<std::vector<uint8_t>, std::vector<uint8_t>> imu_images(std::span<const uint8_t> file,
                                                                 const std::string& name);

// Builds a file in the same format: a common header (version major.0) around `ucode`, or a
// PSP v2.0 sOS file around `components`. The emulated card's synthetic firmware is made this
// way, and goes through the same checks as files from disk.
std::vector<uint8_t> make_firmware_file(uint16_t header_major, std::span<const uint8_t> ucode);
std::vector<uint8_t> make_psp_sos_file(const std::map<uint32_t, std::vector<uint8_t>>& components);
std::vector<uint8_t> make_imu_file(std::span<const uint8_t> iram, std::span<const uint8_t> dram);

} // namespace am
