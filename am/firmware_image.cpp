#include "firmware_image.h"

#include "hw/psp_gfx_if.h"
#include "hw/ucode.h"

#include <cstring>

namespace am {
namespace {

using namespace hw::ucode;

uint32_t u32(std::span<const uint8_t> b, size_t at) {
  uint32_t v;
  std::memcpy(&v, b.data() + at, 4);
  return v;
}
uint16_t u16(std::span<const uint8_t> b, size_t at) {
  uint16_t v;
  std::memcpy(&v, b.data() + at, 2);
  return v;
}
void put32(std::vector<uint8_t>& b, size_t at, uint32_t v) { std::memcpy(b.data() + at, &v, 4); }
void put16(std::vector<uint8_t>& b, size_t at, uint16_t v) { std::memcpy(b.data() + at, &v, 2); }

[[noreturn]] void bad(const std::string& name, const std::string& why) {
  throw FirmwareError("firmware " + name + ": " + why);
}

// The checked [offset, offset + size) of the payload.
std::pair<uint32_t, uint32_t> payload_range(std::span<const uint8_t> file, const std::string& name) {
  if (file.size() < kCommonHeaderBytes) bad(name, "shorter than its 32-byte header");
  const uint32_t size = u32(file, kSizeBytes), header = u32(file, kHeaderSizeBytes);
  const uint32_t offset = u32(file, kUcodeArrayOffsetBytes), ucode = u32(file, kUcodeSizeBytes);
  const uint16_t major = u16(file, kHeaderVersionMajor);
  if (size != file.size())
    bad(name, "header says " + std::to_string(size) + " bytes, the file has " + std::to_string(file.size()));
  if (major < 1 || major > 3) bad(name, "unknown header version " + std::to_string(major));
  if (header < kCommonHeaderBytes || header > size) bad(name, "header size out of range");
  if (ucode == 0) bad(name, "no ucode");
  if (uint64_t(offset) + ucode > size) bad(name, "ucode runs past the end of the file");
  return {offset, ucode};
}

// The bytes [offset, offset + size) of the file, checked.
std::vector<uint8_t> slice(std::span<const uint8_t> file, const std::string& name, uint32_t offset,
                           uint32_t size, const char* what) {
  if (size == 0 || uint64_t(offset) + size > file.size())
    bad(name, std::string(what) + " (" + std::to_string(size) + " bytes at " +
                  std::to_string(offset) + ") is empty or runs past the end of the file");
  return {file.begin() + offset, file.begin() + offset + size};
}

// A header of at least `bytes`, of header version `major`.
void need_header(std::span<const uint8_t> file, const std::string& name, uint16_t major,
                 uint32_t bytes, const char* what) {
  payload_range(file, name);
  if (u16(file, kHeaderVersionMajor) != major || u32(file, kHeaderSizeBytes) < bytes)
    bad(name, std::string("not ") + what + " (header v" +
                  std::to_string(u16(file, kHeaderVersionMajor)) + "." +
                  std::to_string(u16(file, kHeaderVersionMinor)) + ", " +
                  std::to_string(u32(file, kHeaderSizeBytes)) + " bytes)");
}

// A file around `header` bytes (fields filled by the caller) and `body`, the common header's
// ucode being [ucode_offset, ucode_offset + ucode_size) of the result.
std::vector<uint8_t> container(uint32_t header, uint16_t major, uint16_t minor,
                               std::span<const uint8_t> body, uint32_t ucode_size) {
  std::vector<uint8_t> f(header, 0);
  f.insert(f.end(), body.begin(), body.end());
  put32(f, kSizeBytes, uint32_t(f.size()));
  put32(f, kHeaderSizeBytes, header);
  put16(f, kHeaderVersionMajor, major);
  put16(f, kHeaderVersionMinor, minor);
  put32(f, kUcodeSizeBytes, ucode_size);
  put32(f, kUcodeArrayOffsetBytes, header);
  return f;
}

} // namespace

TypedImages cp_rs64_images(std::span<const uint8_t> file, const std::string& name,
                           uint32_t code_type, std::span<const uint32_t> stack_types) {
  need_header(file, name, 2, kCpv2HeaderBytes, "an RS64 command processor file");
  TypedImages out;
  out.emplace_back(code_type, slice(file, name, u32(file, kUcodeArrayOffsetBytes),
                                    u32(file, kCpv2UcodeSize), "code"));
  const auto stack =
      slice(file, name, u32(file, kCpv2DataOffset), u32(file, kCpv2DataSize), "stack");
  for (uint32_t type : stack_types) out.emplace_back(type, stack);
  return out;
}

uint64_t cp_rs64_start_address(std::span<const uint8_t> file, const std::string& name) {
  need_header(file, name, 2, kCpv2HeaderBytes, "an RS64 command processor file");
  return uint64_t(u32(file, kCpv2UcodeStartLo)) | uint64_t(u32(file, kCpv2UcodeStartHi)) << 32;
}

TypedImages sdma_images(std::span<const uint8_t> file, const std::string& name) {
  using namespace hw::psp;
  payload_range(file, name);
  TypedImages out;
  const uint32_t start = u32(file, kUcodeArrayOffsetBytes);
  if (u16(file, kHeaderVersionMajor) == 3) {
    need_header(file, name, 3, kSdmaV3HeaderBytes, "an SDMA v3 file");
    out.emplace_back(GFX_FW_TYPE_SDMA_UCODE_TH0,
                     slice(file, name, start, u32(file, kSdmaV3UcodeSize), "RS64 ucode"));
    return out;
  }
  need_header(file, name, 2, kSdmaV2HeaderBytes, "an SDMA v2 file");
  out.emplace_back(GFX_FW_TYPE_SDMA_UCODE_TH0,
                   slice(file, name, start, u32(file, kSdmaV2CtxSize), "context thread"));
  out.emplace_back(GFX_FW_TYPE_SDMA_UCODE_TH1, slice(file, name, u32(file, kSdmaV2CtlOffset),
                                                     u32(file, kSdmaV2CtlSize), "control thread"));
  return out;
}

TypedImages rlc_images(std::span<const uint8_t> file, const std::string& name) {
  using namespace hw::psp;
  need_header(file, name, 2, kRlcV21HeaderBytes, "an RLC v2.1+ file");
  // The header's minor version says which parts it describes; it must be long enough for them.
  const unsigned minor = u16(file, kHeaderVersionMinor);
  const uint32_t needed = minor >= 3   ? kRlcV23HeaderBytes
                          : minor == 2 ? kRlcV22HeaderBytes
                                       : kRlcV21HeaderBytes;
  if (u32(file, kHeaderSizeBytes) < needed)
    bad(name, "RLC v2." + std::to_string(minor) + " header too small");
  struct Part {
    uint32_t type, size_at, offset_at;
    unsigned since_minor;
    const char* what;
  };
  const Part parts[] = {
      {GFX_FW_TYPE_RLC_RESTORE_LIST_GPM_MEM, kRlcGpmSize, kRlcGpmOffset, 1, "GPM restore list"},
      {GFX_FW_TYPE_RLC_RESTORE_LIST_SRM_MEM, kRlcSrmSize, kRlcSrmOffset, 1, "SRM restore list"},
      {GFX_FW_TYPE_RLC_IRAM, kRlcIramSize, kRlcIramOffset, 2, "RLC IRAM"},
      {GFX_FW_TYPE_RLC_DRAM_BOOT, kRlcDramSize, kRlcDramOffset, 2, "RLC DRAM boot"},
      {GFX_FW_TYPE_RLC_P, kRlcPSize, kRlcPOffset, 3, "RLC_P"},
      {GFX_FW_TYPE_RLC_V, kRlcVSize, kRlcVOffset, 3, "RLC_V"},
  };
  TypedImages out;
  for (const Part& p : parts) {
    if (minor < p.since_minor || u32(file, p.size_at) == 0) continue; // not described, or none
    out.emplace_back(p.type,
                     slice(file, name, u32(file, p.offset_at), u32(file, p.size_at), p.what));
  }
  out.emplace_back(GFX_FW_TYPE_RLC_G, ucode_payload(file, name));
  return out;
}

std::vector<uint8_t> make_cp_rs64_file(std::span<const uint8_t> code,
                                       std::span<const uint8_t> stack, uint64_t start_address) {
  std::vector<uint8_t> body(code.begin(), code.end());
  body.insert(body.end(), stack.begin(), stack.end());
  auto f = container(kCpv2HeaderBytes, 2, 0, body, uint32_t(body.size()));
  put32(f, kCpv2UcodeSize, uint32_t(code.size()));
  put32(f, kCpv2UcodeSize + 4, kCpv2HeaderBytes); // ucode_offset_bytes
  put32(f, kCpv2DataSize, uint32_t(stack.size()));
  put32(f, kCpv2DataOffset, kCpv2HeaderBytes + uint32_t(code.size()));
  put32(f, kCpv2UcodeStartLo, uint32_t(start_address));
  put32(f, kCpv2UcodeStartHi, uint32_t(start_address >> 32));
  return f;
}

std::vector<uint8_t> make_sdma_file(std::span<const uint8_t> th0, std::span<const uint8_t> th1) {
  if (th1.empty()) {
    auto f = container(kSdmaV3HeaderBytes, 3, 0, th0, uint32_t(th0.size()));
    put32(f, kSdmaV3UcodeSize - 4, kSdmaV3HeaderBytes); // ucode_offset_bytes
    put32(f, kSdmaV3UcodeSize, uint32_t(th0.size()));
    return f;
  }
  std::vector<uint8_t> body(th0.begin(), th0.end());
  body.insert(body.end(), th1.begin(), th1.end());
  auto f = container(kSdmaV2HeaderBytes, 2, 0, body, uint32_t(body.size()));
  put32(f, kSdmaV2CtxSize, uint32_t(th0.size()));
  put32(f, kSdmaV2CtlOffset, kSdmaV2HeaderBytes + uint32_t(th0.size()));
  put32(f, kSdmaV2CtlSize, uint32_t(th1.size()));
  return f;
}

std::vector<uint8_t> make_rlc_file(std::span<const uint8_t> rlc_g,
                                   const std::map<uint32_t, std::vector<uint8_t>>& parts) {
  using namespace hw::psp;
  // Each part's size field; its offset field is the next dword.
  const std::pair<uint32_t, uint32_t> size_fields[] = {
      {GFX_FW_TYPE_RLC_RESTORE_LIST_GPM_MEM, kRlcGpmSize},
      {GFX_FW_TYPE_RLC_RESTORE_LIST_SRM_MEM, kRlcSrmSize},
      {GFX_FW_TYPE_RLC_IRAM, kRlcIramSize},
      {GFX_FW_TYPE_RLC_DRAM_BOOT, kRlcDramSize},
      {GFX_FW_TYPE_RLC_P, kRlcPSize},
      {GFX_FW_TYPE_RLC_V, kRlcVSize}};
  std::vector<uint8_t> body(rlc_g.begin(), rlc_g.end());
  std::vector<std::pair<uint32_t, uint32_t>> placed; // (size field, offset in the body)
  for (const auto& [type, size_field] : size_fields) {
    auto it = parts.find(type);
    if (it == parts.end()) continue;
    placed.emplace_back(size_field, uint32_t(body.size()));
    body.insert(body.end(), it->second.begin(), it->second.end());
  }
  auto f = container(kRlcV23HeaderBytes, 2, 3, body, uint32_t(rlc_g.size()));
  for (size_t i = 0; i < placed.size(); ++i) {
    const uint32_t end = i + 1 < placed.size() ? placed[i + 1].second : uint32_t(body.size());
    put32(f, placed[i].first, end - placed[i].second);
    put32(f, placed[i].first + 4, kRlcV23HeaderBytes + placed[i].second);
  }
  return f;
}

std::vector<uint8_t> ucode_payload(std::span<const uint8_t> file, const std::string& name) {
  const auto [offset, size] = payload_range(file, name);
  return {file.begin() + offset, file.begin() + offset + size};
}

uint32_t ucode_version(std::span<const uint8_t> file) {
  return file.size() < kCommonHeaderBytes ? 0 : u32(file, kUcodeVersion);
}

std::map<uint32_t, std::vector<uint8_t>> psp_sos_components(std::span<const uint8_t> file,
                                                            const std::string& name) {
  const auto [start, size] = payload_range(file, name);
  if (u16(file, kHeaderVersionMajor) != 2) bad(name, "not a PSP v2 sOS file");
  if (u32(file, kHeaderSizeBytes) < kPspBins) bad(name, "header too small for its descriptor count");
  const uint32_t count = u32(file, kPspBinCount);
  if (uint64_t(kPspBins) + uint64_t(count) * kPspBinDescBytes > u32(file, kHeaderSizeBytes))
    bad(name, std::to_string(count) + " descriptors do not fit the header");
  std::map<uint32_t, std::vector<uint8_t>> out;
  for (uint32_t i = 0; i < count; ++i) {
    const size_t d = kPspBins + size_t(i) * kPspBinDescBytes;
    const uint32_t type = u32(file, d + kBinFwType), off = u32(file, d + kBinOffsetBytes),
                   len = u32(file, d + kBinSizeBytes);
    if (len == 0) continue; // a part without this component
    if (uint64_t(off) + len > size) bad(name, "component " + std::to_string(type) + " outside the ucode");
    out[type].assign(file.begin() + start + off, file.begin() + start + off + len);
  }
  return out;
}

std::pair<std::vector<uint8_t>, std::vector<uint8_t>> imu_images(std::span<const uint8_t> file,
                                                                 const std::string& name) {
  const auto [start, size] = payload_range(file, name);
  if (u32(file, kHeaderSizeBytes) < kImuHeaderBytes) bad(name, "not an IMU file (header too small)");
  const uint32_t iram = u32(file, kImuIramSize), dram = u32(file, kImuDramSize);
  if (iram == 0 || dram == 0 || uint64_t(iram) + dram > size) bad(name, "IMU images do not fit the ucode");
  return {{file.begin() + start, file.begin() + start + iram},
          {file.begin() + start + iram, file.begin() + start + iram + dram}};
}

std::vector<uint8_t> make_imu_file(std::span<const uint8_t> iram, std::span<const uint8_t> dram) {
  std::vector<uint8_t> ucode(iram.begin(), iram.end());
  ucode.insert(ucode.end(), dram.begin(), dram.end());
  std::vector<uint8_t> f(kImuHeaderBytes, 0);
  f.insert(f.end(), ucode.begin(), ucode.end());
  put32(f, kSizeBytes, uint32_t(f.size()));
  put32(f, kHeaderSizeBytes, kImuHeaderBytes);
  put16(f, kHeaderVersionMajor, 1);
  put32(f, kUcodeSizeBytes, uint32_t(ucode.size()));
  put32(f, kUcodeArrayOffsetBytes, kImuHeaderBytes);
  put32(f, kImuIramSize, uint32_t(iram.size()));
  put32(f, kImuIramSize + 4, 0);
  put32(f, kImuDramSize, uint32_t(dram.size()));
  put32(f, kImuDramSize + 4, uint32_t(iram.size()));
  return f;
}

std::vector<uint8_t> make_firmware_file(uint16_t header_major, std::span<const uint8_t> ucode) {
  std::vector<uint8_t> f(kCommonHeaderBytes + ucode.size(), 0);
  put32(f, kSizeBytes, uint32_t(f.size()));
  put32(f, kHeaderSizeBytes, kCommonHeaderBytes);
  put16(f, kHeaderVersionMajor, header_major);
  put32(f, kUcodeSizeBytes, uint32_t(ucode.size()));
  put32(f, kUcodeArrayOffsetBytes, kCommonHeaderBytes);
  std::memcpy(f.data() + kCommonHeaderBytes, ucode.data(), ucode.size());
  return f;
}

std::vector<uint8_t> make_psp_sos_file(const std::map<uint32_t, std::vector<uint8_t>>& components) {
  const uint32_t header = kPspBins + uint32_t(components.size()) * kPspBinDescBytes;
  std::vector<uint8_t> ucode;
  std::vector<uint8_t> f(header, 0);
  size_t i = 0;
  for (const auto& [type, bytes] : components) {
    const size_t d = kPspBins + i++ * kPspBinDescBytes;
    put32(f, d + kBinFwType, type);
    put32(f, d + kBinOffsetBytes, uint32_t(ucode.size()));
    put32(f, d + kBinSizeBytes, uint32_t(bytes.size()));
    ucode.insert(ucode.end(), bytes.begin(), bytes.end());
  }
  f.insert(f.end(), ucode.begin(), ucode.end());
  put32(f, kSizeBytes, uint32_t(f.size()));
  put32(f, kHeaderSizeBytes, header);
  put16(f, kHeaderVersionMajor, 2);
  put32(f, kUcodeSizeBytes, uint32_t(ucode.size()));
  put32(f, kUcodeArrayOffsetBytes, header);
  put32(f, kPspBinCount, uint32_t(components.size()));
  return f;
}

} // namespace am
