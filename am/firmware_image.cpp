#include "firmware_image.h"

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
  if (major < 1 || major > 2) bad(name, "unknown header version " + std::to_string(major));
  if (header < kCommonHeaderBytes || header > size) bad(name, "header size out of range");
  if (ucode == 0) bad(name, "no ucode");
  if (uint64_t(offset) + ucode > size) bad(name, "ucode runs past the end of the file");
  return {offset, ucode};
}

} // namespace

std::vector<uint8_t> ucode_payload(std::span<const uint8_t> file, const std::string& name) {
  const auto [offset, size] = payload_range(file, name);
  return {file.begin() + offset, file.begin() + offset + size};
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
