#include "firmware_set.h"

#include "hw/discovery.h"
#include "hw/psp_gfx_if.h"
#include "hw/ucode.h"
#include "synthetic_firmware.h"

#include <cstring>
#include <fstream>
#include <functional>
#include <iterator>

namespace am {
namespace {

using namespace hw;
namespace fs = std::filesystem;

std::string version_of(const IpDiscovery& ip, uint16_t hw_id, const char* what) {
  const IpBlock* b = ip.find(hw_id);
  if (!b) throw FirmwareError(std::string("IP discovery lists no ") + what + " block, so its firmware is unknown");
  return std::to_string(b->major) + "_" + std::to_string(b->minor) + "_" + std::to_string(b->revision);
}

struct Names {
  std::string sos, smu, imu, rlc, pfp, me, mec, sdma;
};
Names names_of(const IpDiscovery& ip) {
  const std::string gc = version_of(ip, discovery::GC_HWID, "GC");
  return {"psp_" + version_of(ip, discovery::MP0_HWID, "MP0 (PSP)") + "_sos.bin",
          "smu_" + version_of(ip, discovery::MP1_HWID, "MP1 (SMU)") + ".bin",
          "gc_" + gc + "_imu.bin",
          "gc_" + gc + "_rlc.bin",
          "gc_" + gc + "_pfp.bin",
          "gc_" + gc + "_me.bin",
          "gc_" + gc + "_mec.bin",
          "sdma_" + version_of(ip, discovery::SDMA0_HWID, "SDMA") + ".bin"};
}

// The set from file contents `contents(name)` returns; each file read is noted in `files`.
FirmwareSet assemble(const IpDiscovery& ip,
                     const std::function<std::vector<uint8_t>(const std::string&)>& contents,
                     std::string source) {
  const Names n = names_of(ip);
  FirmwareSet set;
  set.source = std::move(source);
  auto read = [&](const std::string& name) {
    std::vector<uint8_t> bytes = contents(name);
    set.files.push_back({name, bytes.size(), ucode_version(bytes)});
    return bytes;
  };
  set.sos = psp_sos_components(read(n.sos), n.sos);
  for (uint32_t needed : {ucode::PSP_FW_TYPE_PSP_SOS, ucode::PSP_FW_TYPE_PSP_SYS_DRV, ucode::PSP_FW_TYPE_PSP_TOC})
    if (!set.sos.count(needed))
      throw FirmwareError("firmware " + n.sos + ": no component of psp_fw_type " + std::to_string(needed));
  auto image = [&](uint32_t type, const std::string& name) {
    return FirmwareImage{type, name, ucode_payload(read(name), name)};
  };
  set.smu = image(psp::GFX_FW_TYPE_SMU, n.smu);
  // SOC21/SOC24 containers, in the order tinygrad's AM and amdgpu's ucode ids load them: SDMA's
  // threads, the RS64 command processors (code, then a stack per pipe), the IMU, the RLC's
  // lists and boot images, RLC_G last; then the RLC autoload starts them all.
  auto add = [&](const std::string& file, TypedImages images) {
    for (auto& [type, bytes] : images)
      set.gfx.push_back(FirmwareImage{type, file, std::move(bytes)});
  };
  using namespace psp;
  add(n.sdma, sdma_images(read(n.sdma), n.sdma));
  const uint32_t pfp_stacks[] = {GFX_FW_TYPE_RS64_PFP_P0_STACK, GFX_FW_TYPE_RS64_PFP_P1_STACK};
  const uint32_t me_stacks[] = {GFX_FW_TYPE_RS64_ME_P0_STACK, GFX_FW_TYPE_RS64_ME_P1_STACK};
  const uint32_t mec_stacks[] = {GFX_FW_TYPE_RS64_MEC_P0_STACK, GFX_FW_TYPE_RS64_MEC_P1_STACK,
                                 GFX_FW_TYPE_RS64_MEC_P2_STACK, GFX_FW_TYPE_RS64_MEC_P3_STACK};
  add(n.pfp, cp_rs64_images(read(n.pfp), n.pfp, GFX_FW_TYPE_RS64_PFP, pfp_stacks));
  add(n.me, cp_rs64_images(read(n.me), n.me, GFX_FW_TYPE_RS64_ME, me_stacks));
  const std::vector<uint8_t> mec = read(n.mec);
  add(n.mec, cp_rs64_images(mec, n.mec, GFX_FW_TYPE_RS64_MEC, mec_stacks));
  set.mec_entry = cp_rs64_start_address(mec, n.mec);
  auto [iram, dram] = imu_images(read(n.imu), n.imu);
  set.gfx.push_back(FirmwareImage{GFX_FW_TYPE_IMU_I, n.imu, std::move(iram)});
  set.gfx.push_back(FirmwareImage{GFX_FW_TYPE_IMU_D, n.imu, std::move(dram)});
  add(n.rlc, rlc_images(read(n.rlc), n.rlc));
  return set;
}

// Distinct, recognisable bytes per image: "AMCL" + the name, then a counter pattern.
std::vector<uint8_t> synthetic_bytes(const std::string& what, size_t size) {
  std::vector<uint8_t> b(size);
  const std::string tag = "AMCL " + what;
  for (size_t i = 0; i < size; ++i) b[i] = i < tag.size() ? uint8_t(tag[i]) : uint8_t(i * 7 + 3);
  return b;
}

} // namespace

std::vector<std::string> firmware_file_names(const IpDiscovery& ip) {
  const Names n = names_of(ip);
  return {n.sos, n.smu, n.imu, n.rlc, n.pfp, n.me, n.mec, n.sdma};
}

namespace {

std::vector<uint8_t> read_file(const fs::path& dir, const std::string& name) {
  std::ifstream in(dir / name, std::ios::binary);
  if (!in)
    throw FirmwareError("firmware " + (dir / name).string() +
                        " is missing (Debian: firmware-amd-graphics)");
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

// The stand-in for firmware file `name` of a card with these IP versions.
std::vector<uint8_t> synthetic_file(const IpDiscovery& ip, const std::string& name) {
  const Names n = names_of(ip);
  if (name == n.sos) {
    std::map<uint32_t, std::vector<uint8_t>> parts;
    for (uint32_t t :
         {ucode::PSP_FW_TYPE_PSP_KDB, ucode::PSP_FW_TYPE_PSP_SPL, ucode::PSP_FW_TYPE_PSP_SYS_DRV,
          ucode::PSP_FW_TYPE_PSP_SOC_DRV, ucode::PSP_FW_TYPE_PSP_INTF_DRV,
          ucode::PSP_FW_TYPE_PSP_DBG_DRV, ucode::PSP_FW_TYPE_PSP_RAS_DRV,
          ucode::PSP_FW_TYPE_PSP_SOS, ucode::PSP_FW_TYPE_PSP_TOC})
      parts[t] = synthetic_bytes(name + " component " + std::to_string(t), 4096);
    return make_psp_sos_file(parts);
  }
  if (name == n.imu)
    return make_imu_file(synthetic_bytes(name + " iram", 8192),
                         synthetic_bytes(name + " dram", 4096));
  if (name == n.pfp || name == n.me || name == n.mec) {
    // The code carries its entry for the emulator (synthetic_firmware.h); the header too.
    const uint64_t entry = name == n.pfp  ? synthetic::kPfpEntry
                           : name == n.me ? synthetic::kMeEntry
                                          : synthetic::kMecEntry;
    std::vector<uint8_t> code = synthetic_bytes(name + " code", 16384);
    std::memcpy(code.data(), &synthetic::kRs64Marker, 4);
    std::memcpy(code.data() + 4, &entry, 8);
    return make_cp_rs64_file(code, synthetic_bytes(name + " stack", 4096), entry);
  }
  if (name == n.sdma) // SDMA 6 has two threads (header v2), SDMA 7 one RS64 image (v3)
    return ip.find(discovery::SDMA0_HWID)->major >= 7
               ? make_sdma_file(synthetic_bytes(name, 16384), {})
               : make_sdma_file(synthetic_bytes(name + " ctx", 8192),
                                synthetic_bytes(name + " ctl", 8192));
  if (name == n.rlc) {
    std::map<uint32_t, std::vector<uint8_t>> parts;
    for (uint32_t t :
         {psp::GFX_FW_TYPE_RLC_RESTORE_LIST_GPM_MEM, psp::GFX_FW_TYPE_RLC_RESTORE_LIST_SRM_MEM,
          psp::GFX_FW_TYPE_RLC_IRAM, psp::GFX_FW_TYPE_RLC_DRAM_BOOT, psp::GFX_FW_TYPE_RLC_P,
          psp::GFX_FW_TYPE_RLC_V})
      parts[t] = synthetic_bytes(name + " part " + std::to_string(t), 4096);
    return make_rlc_file(synthetic_bytes(name, 16384), parts);
  }
  return make_firmware_file(2, synthetic_bytes(name, 16384));
}

} // namespace

FirmwareSet load_firmware_set(const IpDiscovery& ip, const fs::path& dir) {
  return assemble(
      ip, [&](const std::string& name) { return read_file(dir, name); }, dir.string());
}

FirmwareSet synthetic_firmware_set(const IpDiscovery& ip) {
  return assemble(
      ip, [&](const std::string& name) { return synthetic_file(ip, name); }, "synthetic");
}

uint64_t load_mec_entry(const IpDiscovery& ip, const fs::path& dir) {
  const std::string mec = names_of(ip).mec;
  return cp_rs64_start_address(read_file(dir, mec), mec);
}

uint64_t synthetic_mec_entry(const IpDiscovery& ip) {
  const std::string mec = names_of(ip).mec;
  return cp_rs64_start_address(synthetic_file(ip, mec), mec);
}

} // namespace am
