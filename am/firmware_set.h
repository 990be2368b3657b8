// The firmware a card needs, by the IP versions its discovery table lists, named as Linux
// amdgpu names the files (psp_13_0_0_sos.bin, smu_13_0_0.bin, gc_11_0_0_imu.bin,
// gc_11_0_0_rlc.bin, gc_11_0_0_pfp.bin, gc_11_0_0_me.bin, gc_11_0_0_mec.bin, sdma_6_0_0.bin), read
// from the firmware directory and checked. An emulated card gets synthetic files in the same
// format, so it needs no files on disk.
#pragma once
#include "firmware_image.h"
#include "ip_discovery.h"

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace am {

struct FirmwareImage {
  uint32_t psp_type = 0; // psp_gfx_fw_type the PSP loads it as
  std::string file;
  std::vector<uint8_t> ucode;
};

// A file the set was read from, as AM_DEBUG reports it.
struct FirmwareFile {
  std::string name;
  uint64_t bytes = 0;
  uint32_t version = 0; // the common header's ucode_version
};

struct FirmwareSet {
  std::string source;                           // the directory, or "synthetic"
  std::vector<FirmwareFile> files;              // in the order they were read
  std::map<uint32_t, std::vector<uint8_t>> sos; // the PSP's own components, by psp_fw_type
  FirmwareImage smu;                            // loaded before the TMR
  std::vector<FirmwareImage> gfx;               // SDMA, PFP, ME, MEC, IMU, RLC: in load order
  uint64_t mec_entry = 0; // where the MEC's code is linked (the mec file's ucode_start_addr)
};

// The file names, from the GC, SDMA0, MP0 and MP1 versions; throws FirmwareError when the
// discovery table lacks one of those blocks.
std::vector<std::string> firmware_file_names(const IpDiscovery& ip);

// Reads every file from `dir`; throws FirmwareError naming a missing or malformed file.
FirmwareSet load_firmware_set(const IpDiscovery& ip, const std::filesystem::path& dir);

// Deterministic stand-in files for an emulated card, through the same checks.
FirmwareSet synthetic_firmware_set(const IpDiscovery& ip);

// Only the MEC file's entry (ucode_start_addr), for a boot that finds the firmware running.
uint64_t load_mec_entry(const IpDiscovery& ip, const std::filesystem::path& dir);
uint64_t synthetic_mec_entry(const IpDiscovery& ip);

} // namespace am
