// Firmware files: the common header and PSP sOS layouts (amdgpu_ucode.h), the checks that keep
// a malformed file from reaching the device, and which files a card needs by its IP versions.
#include "am/firmware_image.h"
#include "am/firmware_set.h"
#include "am/hw/psp_gfx_if.h"
#include "am/hw/ucode.h"
#include "sim/card_model.h"
#include "sim/ip_discovery.h"

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace {

using namespace am;
namespace fs = std::filesystem;

uint32_t word(const std::vector<uint8_t>& b, size_t at) {
  uint32_t v;
  std::memcpy(&v, b.data() + at, 4);
  return v;
}
void set_word(std::vector<uint8_t>& b, size_t at, uint32_t v) { std::memcpy(b.data() + at, &v, 4); }

std::string error_of(const std::vector<uint8_t>& file) {
  try {
    ucode_payload(file, "x.bin");
  } catch (const FirmwareError& e) {
    return e.what();
  }
  return "";
}

IpDiscovery discovery_of(const char* gfx) {
  std::string error;
  auto ip = parse_ip_discovery(sim::build_ip_discovery(sim::find_card_model(gfx)->blocks), &error);
  EXPECT_TRUE(ip) << error;
  return *ip;
}

} // namespace

// amdgpu_ucode.h: struct common_firmware_header is 8 u32/u16 fields in 32 bytes.
TEST(Firmware, CommonHeaderLayout) {
  using namespace hw::ucode;
  EXPECT_EQ(kCommonHeaderBytes, 32u);
  EXPECT_EQ(kHeaderVersionMajor, 8u);
  EXPECT_EQ(kUcodeSizeBytes, 20u);
  EXPECT_EQ(kUcodeArrayOffsetBytes, 24u);
  EXPECT_EQ(kCrc32, 28u);
  EXPECT_EQ(kPspBinCount, 32u);
  EXPECT_EQ(kPspBinDescBytes, 16u);
  EXPECT_EQ(PSP_FW_TYPE_PSP_SOS, 1u);
  EXPECT_EQ(PSP_FW_TYPE_PSP_TOC, 4u);
  EXPECT_EQ(PSP_FW_TYPE_PSP_RAS_DRV, 10u);
  const std::vector<uint8_t> ucode = {1, 2, 3, 4, 5, 6, 7, 8};
  const auto file = make_firmware_file(2, ucode);
  EXPECT_EQ(word(file, kSizeBytes), 40u);
  EXPECT_EQ(ucode_payload(file, "x.bin"), ucode);
}

TEST(Firmware, MalformedFilesAreRejectedNamingTheFile) {
  const auto good = make_firmware_file(2, std::vector<uint8_t>(64, 0xab));
  EXPECT_EQ(error_of(good), "");
  auto shorter = good;
  shorter.resize(20);
  EXPECT_NE(error_of(shorter).find("x.bin: shorter than its 32-byte header"), std::string::npos);
  auto truncated = good;
  truncated.pop_back();
  EXPECT_NE(error_of(truncated).find("the file has 95"), std::string::npos) << error_of(truncated);
  auto past_end = good;
  set_word(past_end, hw::ucode::kUcodeSizeBytes, 65);
  EXPECT_NE(error_of(past_end).find("past the end"), std::string::npos);
  auto version = good;
  set_word(version, hw::ucode::kHeaderVersionMajor, 9);
  EXPECT_NE(error_of(version).find("header version 9"), std::string::npos);
  auto empty = good;
  set_word(empty, hw::ucode::kUcodeSizeBytes, 0);
  EXPECT_NE(error_of(empty).find("no ucode"), std::string::npos);
}

TEST(Firmware, PspSosFileSplitsIntoItsComponents) {
  std::map<uint32_t, std::vector<uint8_t>> parts = {{1, {1, 1, 1, 1}}, {2, {2, 2}}, {4, std::vector<uint8_t>(100, 4)}};
  auto file = make_psp_sos_file(parts);
  EXPECT_EQ(psp_sos_components(file, "sos.bin"), parts);
  // A descriptor pointing outside the ucode is refused.
  set_word(file, hw::ucode::kPspBins + hw::ucode::kBinOffsetBytes, 1000);
  EXPECT_THROW(psp_sos_components(file, "sos.bin"), FirmwareError);
}

// imu_firmware_header_v1_0: IRAM image first, DRAM image right after it.
TEST(Firmware, ImuFileHoldsTwoImages) {
  const std::vector<uint8_t> iram(100, 1), dram(50, 2);
  const auto file = make_imu_file(iram, dram);
  EXPECT_EQ(hw::ucode::kImuHeaderBytes, 48u);
  const auto [i, d] = imu_images(file, "imu.bin");
  EXPECT_EQ(i, iram);
  EXPECT_EQ(d, dram);
  auto bad = file;
  set_word(bad, hw::ucode::kImuDramSize, 1000);
  EXPECT_THROW(imu_images(bad, "imu.bin"), FirmwareError);
}

TEST(Firmware, FileNamesFollowTheIpVersions) {
  EXPECT_EQ(firmware_file_names(discovery_of("gfx1100")),
            (std::vector<std::string>{"psp_13_0_0_sos.bin", "smu_13_0_0.bin", "gc_11_0_0_imu.bin",
                                      "gc_11_0_0_rlc.bin", "gc_11_0_0_mec.bin", "sdma_6_0_0.bin"}));
  EXPECT_EQ(firmware_file_names(discovery_of("gfx1201")),
            (std::vector<std::string>{"psp_14_0_3_sos.bin", "smu_14_0_3.bin", "gc_12_0_1_imu.bin",
                                      "gc_12_0_1_rlc.bin", "gc_12_0_1_mec.bin", "sdma_7_0_1.bin"}));
}

// A firmware directory is read and checked file by file; a missing or damaged file stops the
// load with its name.
TEST(Firmware, SetFromADirectory) {
  const IpDiscovery ip = discovery_of("gfx1100");
  const fs::path dir = fs::temp_directory_path() / ("amcl_fw_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  // Files in the real format: the synthetic set's bytes, written back out.
  const FirmwareSet synthetic = synthetic_firmware_set(ip);
  EXPECT_EQ(synthetic.source, "synthetic");
  EXPECT_EQ(synthetic.smu.psp_type, hw::psp::GFX_FW_TYPE_SMU);
  ASSERT_EQ(synthetic.gfx.size(), 5u);
  EXPECT_EQ(synthetic.gfx[0].psp_type, hw::psp::GFX_FW_TYPE_IMU_I);
  EXPECT_EQ(synthetic.gfx[1].psp_type, hw::psp::GFX_FW_TYPE_IMU_D);
  auto write = [&](const std::string& name, const std::vector<uint8_t>& bytes) {
    std::ofstream(dir / name, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
  };
  write("psp_13_0_0_sos.bin", make_psp_sos_file(synthetic.sos));
  write("smu_13_0_0.bin", make_firmware_file(2, synthetic.smu.ucode));
  write("gc_11_0_0_imu.bin", make_imu_file(synthetic.gfx[0].ucode, synthetic.gfx[1].ucode));
  for (size_t i = 2; i < synthetic.gfx.size(); ++i)
    write(synthetic.gfx[i].file, make_firmware_file(2, synthetic.gfx[i].ucode));
  const FirmwareSet loaded = load_firmware_set(ip, dir);
  EXPECT_EQ(loaded.sos, synthetic.sos);
  EXPECT_EQ(loaded.gfx[1].ucode, synthetic.gfx[1].ucode); // the IMU's DRAM image
  EXPECT_EQ(loaded.gfx[3].ucode, synthetic.gfx[3].ucode);
  EXPECT_EQ(loaded.source, dir.string());

  fs::remove(dir / "gc_11_0_0_mec.bin");
  try {
    load_firmware_set(ip, dir);
    ADD_FAILURE() << "a missing file was not noticed";
  } catch (const FirmwareError& e) {
    EXPECT_NE(std::string(e.what()).find("gc_11_0_0_mec.bin is missing"), std::string::npos) << e.what();
  }
  write("gc_11_0_0_mec.bin", {1, 2, 3});
  EXPECT_THROW(load_firmware_set(ip, dir), FirmwareError);
  fs::remove_all(dir);
}
