// Firmware files: the common header and PSP sOS layouts (amdgpu_ucode.h), the checks that keep
// a malformed file from reaching the device, and which files a card needs by its IP versions.
#include "am/firmware_image.h"
#include "am/firmware_set.h"
#include "am/hw/psp_gfx_if.h"
#include "am/hw/ucode.h"
#include "am/synthetic_firmware.h"
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

// The SOC21/SOC24 containers: header field offsets from amdgpu_ucode.h, and each piece found
// where its header says, every offset checked against the file.
TEST(Firmware, ContainerHeaderLayouts) {
  using namespace hw::ucode;
  EXPECT_EQ(kCpv2UcodeSize, 36u); // gfx_firmware_header_v2_0: after feature version
  EXPECT_EQ(kCpv2DataSize, 44u);
  EXPECT_EQ(kCpv2DataOffset, 48u);
  EXPECT_EQ(kCpv2HeaderBytes, 60u);
  EXPECT_EQ(kSdmaV2CtxSize, 36u); // sdma_firmware_header_v2_0
  EXPECT_EQ(kSdmaV2CtlOffset, 48u);
  EXPECT_EQ(kSdmaV2CtlSize, 52u);
  EXPECT_EQ(kSdmaV2HeaderBytes, 64u);
  EXPECT_EQ(kSdmaV3UcodeSize, 40u); // sdma_firmware_header_v3_0
  EXPECT_EQ(kSdmaV3HeaderBytes, 44u);
  // rlc_firmware_header_v2_0 is 32 + 18 dwords = 104 bytes; v2_1 adds 13 dwords (GPM size and
  // offset are its 8th and 9th), v2_2 four, v2_3 eight.
  EXPECT_EQ(kRlcGpmSize, 104u + 7 * 4);
  EXPECT_EQ(kRlcSrmOffset, 104u + 12 * 4);
  EXPECT_EQ(kRlcV21HeaderBytes, 104u + 13 * 4);
  EXPECT_EQ(kRlcIramSize, kRlcV21HeaderBytes);
  EXPECT_EQ(kRlcV22HeaderBytes, kRlcV21HeaderBytes + 16);
  EXPECT_EQ(kRlcPSize, kRlcV22HeaderBytes + 8);
  EXPECT_EQ(kRlcVOffset, kRlcV22HeaderBytes + 28);
  EXPECT_EQ(kRlcV23HeaderBytes, kRlcV22HeaderBytes + 32);
  using namespace hw::psp;
  EXPECT_EQ(GFX_FW_TYPE_RS64_MEC, 89u);
  EXPECT_EQ(GFX_FW_TYPE_RS64_MEC_P3_STACK, 97u);
  EXPECT_EQ(GFX_FW_TYPE_SDMA_UCODE_TH1, 72u);
  EXPECT_EQ(GFX_FW_TYPE_RLC_DRAM_BOOT, 48u);
  EXPECT_EQ(GFX_FW_TYPE_RLC_RESTORE_LIST_SRM_MEM, 21u);
}

TEST(Firmware, ContainersSplitIntoTheirImages) {
  using namespace hw::psp;
  const std::vector<uint8_t> code(300, 1), stack(200, 2), th0(100, 3), th1(60, 4), g(80, 5);
  const uint32_t stacks[] = {GFX_FW_TYPE_RS64_MEC_P0_STACK, GFX_FW_TYPE_RS64_MEC_P1_STACK};
  const auto mec_file = make_cp_rs64_file(code, stack, 0x5'0000'4000);
  const TypedImages mec = cp_rs64_images(mec_file, "mec.bin", GFX_FW_TYPE_RS64_MEC, stacks);
  ASSERT_EQ(mec.size(), 3u);
  // ucode_start_addr_lo at byte 52, _hi at 56 (gfx_firmware_header_v2_0).
  EXPECT_EQ(cp_rs64_start_address(mec_file, "mec.bin"), 0x5'0000'4000u);
  EXPECT_EQ(mec_file[52], 0x00);
  EXPECT_EQ(mec_file[53], 0x40);
  EXPECT_EQ(mec_file[56], 0x05);
  EXPECT_EQ(mec[0], std::make_pair(uint32_t(GFX_FW_TYPE_RS64_MEC), code));
  EXPECT_EQ(mec[2], std::make_pair(uint32_t(GFX_FW_TYPE_RS64_MEC_P1_STACK), stack));
  const TypedImages v2 = sdma_images(make_sdma_file(th0, th1), "sdma_6_0_0.bin");
  ASSERT_EQ(v2.size(), 2u);
  EXPECT_EQ(v2[0], std::make_pair(uint32_t(GFX_FW_TYPE_SDMA_UCODE_TH0), th0));
  EXPECT_EQ(v2[1], std::make_pair(uint32_t(GFX_FW_TYPE_SDMA_UCODE_TH1), th1));
  const TypedImages v3 = sdma_images(make_sdma_file(th0, {}), "sdma_7_0_0.bin");
  ASSERT_EQ(v3.size(), 1u);
  EXPECT_EQ(v3[0], std::make_pair(uint32_t(GFX_FW_TYPE_SDMA_UCODE_TH0), th0));
  const auto rlc_file = make_rlc_file(g, {{GFX_FW_TYPE_RLC_IRAM, th0}, {GFX_FW_TYPE_RLC_V, th1}});
  const TypedImages rlc = rlc_images(rlc_file, "rlc.bin");
  ASSERT_EQ(rlc.size(), 3u); // empty parts are not loaded
  EXPECT_EQ(rlc[0], std::make_pair(uint32_t(GFX_FW_TYPE_RLC_IRAM), th0));
  EXPECT_EQ(rlc[1], std::make_pair(uint32_t(GFX_FW_TYPE_RLC_V), th1));
  EXPECT_EQ(rlc[2], std::make_pair(uint32_t(GFX_FW_TYPE_RLC_G), g));
  // A v2.1 header (minor 1) has no IRAM or RLC_V fields: what sits there is not read.
  auto v21 = rlc_file;
  const uint16_t minor1 = 1;
  std::memcpy(v21.data() + hw::ucode::kHeaderVersionMinor, &minor1, 2);
  EXPECT_EQ(rlc_images(v21, "rlc.bin").size(), 1u);
  // Offsets past the end, and a container of the wrong kind, are errors naming the file.
  auto bad = rlc_file;
  set_word(bad, hw::ucode::kRlcVOffset, uint32_t(bad.size()));
  EXPECT_THROW(rlc_images(bad, "rlc.bin"), FirmwareError);
  auto bad_stack = make_cp_rs64_file(code, stack, 0);
  set_word(bad_stack, hw::ucode::kCpv2DataSize, 100000);
  EXPECT_THROW(cp_rs64_images(bad_stack, "mec.bin", GFX_FW_TYPE_RS64_MEC, stacks), FirmwareError);
  try {
    cp_rs64_images(make_firmware_file(1, code), "gc_11_0_0_mec.bin", GFX_FW_TYPE_RS64_MEC, stacks);
    ADD_FAILURE() << "a v1 file was taken for an RS64 one";
  } catch (const FirmwareError& e) {
    EXPECT_NE(std::string(e.what()).find("gc_11_0_0_mec.bin"), std::string::npos) << e.what();
  }
}

TEST(Firmware, FileNamesFollowTheIpVersions) {
  EXPECT_EQ(firmware_file_names(discovery_of("gfx1100")),
            (std::vector<std::string>{"psp_13_0_0_sos.bin", "smu_13_0_0.bin", "gc_11_0_0_imu.bin",
                                      "gc_11_0_0_rlc.bin", "gc_11_0_0_pfp.bin", "gc_11_0_0_me.bin",
                                      "gc_11_0_0_mec.bin", "sdma_6_0_0.bin"}));
  EXPECT_EQ(firmware_file_names(discovery_of("gfx1201")),
            (std::vector<std::string>{"psp_14_0_3_sos.bin", "smu_14_0_3.bin", "gc_12_0_1_imu.bin",
                                      "gc_12_0_1_rlc.bin", "gc_12_0_1_pfp.bin", "gc_12_0_1_me.bin",
                                      "gc_12_0_1_mec.bin", "sdma_7_0_1.bin"}));
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
  // The PSP load order (tinygrad's AM): SDMA's two threads, PFP, ME and MEC (code, then a stack
  // per pipe: 2, 2, 4), the IMU's two images, the RLC's six parts and RLC_G last.
  using namespace hw::psp;
  std::vector<uint32_t> types;
  for (const FirmwareImage& f : synthetic.gfx) types.push_back(f.psp_type);
  EXPECT_EQ(types, (std::vector<uint32_t>{GFX_FW_TYPE_SDMA_UCODE_TH0,
                                          GFX_FW_TYPE_SDMA_UCODE_TH1,
                                          GFX_FW_TYPE_RS64_PFP,
                                          GFX_FW_TYPE_RS64_PFP_P0_STACK,
                                          GFX_FW_TYPE_RS64_PFP_P1_STACK,
                                          GFX_FW_TYPE_RS64_ME,
                                          GFX_FW_TYPE_RS64_ME_P0_STACK,
                                          GFX_FW_TYPE_RS64_ME_P1_STACK,
                                          GFX_FW_TYPE_RS64_MEC,
                                          GFX_FW_TYPE_RS64_MEC_P0_STACK,
                                          GFX_FW_TYPE_RS64_MEC_P1_STACK,
                                          GFX_FW_TYPE_RS64_MEC_P2_STACK,
                                          GFX_FW_TYPE_RS64_MEC_P3_STACK,
                                          GFX_FW_TYPE_IMU_I,
                                          GFX_FW_TYPE_IMU_D,
                                          GFX_FW_TYPE_RLC_RESTORE_LIST_GPM_MEM,
                                          GFX_FW_TYPE_RLC_RESTORE_LIST_SRM_MEM,
                                          GFX_FW_TYPE_RLC_IRAM,
                                          GFX_FW_TYPE_RLC_DRAM_BOOT,
                                          GFX_FW_TYPE_RLC_P,
                                          GFX_FW_TYPE_RLC_V,
                                          GFX_FW_TYPE_RLC_G}));
  auto write = [&](const std::string& name, const std::vector<uint8_t>& bytes) {
    std::ofstream(dir / name, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
  };
  auto piece = [&](uint32_t type) {
    for (const FirmwareImage& f : synthetic.gfx)
      if (f.psp_type == type) return f.ucode;
    return std::vector<uint8_t>{};
  };
  write("psp_13_0_0_sos.bin", make_psp_sos_file(synthetic.sos));
  write("smu_13_0_0.bin", make_firmware_file(2, synthetic.smu.ucode));
  write("gc_11_0_0_imu.bin", make_imu_file(piece(GFX_FW_TYPE_IMU_I), piece(GFX_FW_TYPE_IMU_D)));
  write("sdma_6_0_0.bin",
        make_sdma_file(piece(GFX_FW_TYPE_SDMA_UCODE_TH0), piece(GFX_FW_TYPE_SDMA_UCODE_TH1)));
  write("gc_11_0_0_pfp.bin",
        make_cp_rs64_file(piece(GFX_FW_TYPE_RS64_PFP), piece(GFX_FW_TYPE_RS64_PFP_P0_STACK),
                          am::synthetic::kPfpEntry));
  write("gc_11_0_0_me.bin",
        make_cp_rs64_file(piece(GFX_FW_TYPE_RS64_ME), piece(GFX_FW_TYPE_RS64_ME_P0_STACK),
                          am::synthetic::kMeEntry));
  write("gc_11_0_0_mec.bin",
        make_cp_rs64_file(piece(GFX_FW_TYPE_RS64_MEC), piece(GFX_FW_TYPE_RS64_MEC_P0_STACK),
                          am::synthetic::kMecEntry));
  std::map<uint32_t, std::vector<uint8_t>> rlc_parts;
  for (uint32_t t :
       {GFX_FW_TYPE_RLC_RESTORE_LIST_GPM_MEM, GFX_FW_TYPE_RLC_RESTORE_LIST_SRM_MEM,
        GFX_FW_TYPE_RLC_IRAM, GFX_FW_TYPE_RLC_DRAM_BOOT, GFX_FW_TYPE_RLC_P, GFX_FW_TYPE_RLC_V})
    rlc_parts[t] = piece(t);
  write("gc_11_0_0_rlc.bin", make_rlc_file(piece(GFX_FW_TYPE_RLC_G), rlc_parts));
  const FirmwareSet loaded = load_firmware_set(ip, dir);
  EXPECT_EQ(loaded.sos, synthetic.sos);
  ASSERT_EQ(loaded.gfx.size(), synthetic.gfx.size());
  for (size_t i = 0; i < loaded.gfx.size(); ++i) {
    EXPECT_EQ(loaded.gfx[i].psp_type, synthetic.gfx[i].psp_type) << i;
    EXPECT_EQ(loaded.gfx[i].file, synthetic.gfx[i].file) << i;
    EXPECT_EQ(loaded.gfx[i].ucode, synthetic.gfx[i].ucode) << i;
  }
  EXPECT_EQ(loaded.source, dir.string());
  EXPECT_EQ(loaded.mec_entry, am::synthetic::kMecEntry);
  EXPECT_EQ(synthetic.mec_entry, am::synthetic::kMecEntry);
  EXPECT_EQ(am::synthetic::rs64_entry(piece(GFX_FW_TYPE_RS64_MEC)), am::synthetic::kMecEntry);

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
