#include "ip_discovery.h"

#include "device_error.h"
#include "hw/discovery.h"
#include "vram_access.h"

#include <algorithm>
#include <cstdio>

namespace am {
namespace {

using namespace hw::discovery;

struct Reader {
  std::span<const uint8_t> b;
  bool has(size_t at, size_t n) const { return at <= b.size() && n <= b.size() - at; }
  uint16_t u16(size_t at) const { return uint16_t(b[at] | (b[at + 1] << 8)); }
  uint32_t u32(size_t at) const { return u16(at) | (uint32_t(u16(at + 2)) << 16); }
  uint64_t u64(size_t at) const { return u32(at) | (uint64_t(u32(at + 4)) << 32); }
};

std::optional<IpDiscovery> fail(std::string* error, const std::string& why) {
  if (error) *error = "IP discovery: " + why;
  return std::nullopt;
}

} // namespace

const IpBlock* IpDiscovery::find(uint16_t hw_id, uint8_t instance) const {
  for (const IpBlock& b : blocks)
    if (b.hw_id == hw_id && b.instance == instance) return &b;
  return nullptr;
}

std::optional<IpDiscovery> parse_ip_discovery(std::span<const uint8_t> bin, std::string* error) {
  Reader r{bin};
  if (!r.has(0, kBinaryHeaderBytes)) return fail(error, "binary shorter than its header");
  if (r.u32(kBinSignature) != kBinarySignature) return fail(error, "no binary signature");
  const uint32_t size = r.u16(kBinSize);
  if (size < kBinaryHeaderBytes || size > bin.size())
    return fail(error, "binary size " + std::to_string(size) + " out of range");
  if (checksum(bin.data() + kBinSize, size - kBinSize) != r.u16(kBinChecksum))
    return fail(error, "binary checksum mismatch");
  r.b = bin.first(size); // nothing below may read past the binary

  const size_t info = kBinTables + kTableIpDiscovery * kTableInfoBytes;
  const uint32_t table = r.u16(info), table_size = r.u16(info + 4);
  if (!r.has(table, table_size) || table_size < kIpHeaderBytes)
    return fail(error, "IP discovery table outside the binary");
  if (checksum(bin.data() + table, table_size) != r.u16(info + 2))
    return fail(error, "IP discovery table checksum mismatch");
  if (r.u32(table + kIpSignature) != kTableSignature)
    return fail(error, "no IP discovery table signature");

  IpDiscovery out;
  out.version = r.u16(table + kIpVersion);
  if (out.version < 3 || out.version > 4)
    return fail(error, "IP discovery table version " + std::to_string(out.version) +
                           " is not supported (3 and 4 are)");
  const bool wide = out.version == 4 && (r.u16(table + kIpFlags) & 1); // base_addr_64_bit
  const uint32_t dies = r.u16(table + kIpNumDies);
  if (dies == 0 || dies > kMaxDies) return fail(error, std::to_string(dies) + " dies");
  for (uint32_t d = 0; d < dies; ++d) {
    const uint32_t die = r.u16(table + kIpDieInfo + 4 * d + 2);
    if (!r.has(die, kDieHeaderBytes)) return fail(error, "die header outside the binary");
    size_t at = die + kDieHeaderBytes;
    for (uint32_t i = 0, n = r.u16(die + 2); i < n; ++i) {
      if (!r.has(at, kIpEntryBytes)) return fail(error, "IP entry outside the binary");
      IpBlock b;
      b.hw_id = r.u16(at);
      b.instance = bin[at + 2];
      const unsigned nbases = bin[at + 3];
      b.major = bin[at + 4], b.minor = bin[at + 5], b.revision = bin[at + 6];
      at += kIpEntryBytes;
      const unsigned width = wide ? 8 : 4;
      if (!r.has(at, size_t(nbases) * width)) return fail(error, "IP base addresses outside the binary");
      for (unsigned k = 0; k < nbases; ++k, at += width) b.bases.push_back(wide ? r.u64(at) : r.u32(at));
      out.blocks.push_back(std::move(b));
    }
  }
  return out;
}

IpDiscovery read_ip_discovery(Pci& pci, uint64_t vram_size) {
  if (vram_size < kOffsetFromVramTop)
    throw DeviceError(pci.address() + ": VRAM too small for an IP discovery binary");
  const uint64_t at = vram_size - kOffsetFromVramTop;
  // The header first, then only the binary's own size: through the MM_INDEX window every dword
  // costs two register accesses.
  std::vector<uint8_t> bin(kBinaryHeaderBytes);
  read_vram(pci, at, bin);
  const size_t size =
      std::clamp<size_t>(Reader{bin}.u16(kBinSize), kBinaryHeaderBytes, kOffsetFromVramTop);
  bin.resize(size);
  read_vram(pci, at + kBinaryHeaderBytes, std::span(bin).subspan(kBinaryHeaderBytes));
  std::string error;
  auto ip = parse_ip_discovery(bin, &error);
  if (!ip) throw DeviceError(pci.address() + ": " + error);
  return std::move(*ip);
}

std::string version_of(const IpBlock& b) {
  return std::to_string(b.major) + "." + std::to_string(b.minor) + "." + std::to_string(b.revision);
}

std::string bases_of(const IpBlock& b) {
  std::string s;
  char buf[24];
  for (uint64_t base : b.bases) {
    std::snprintf(buf, sizeof buf, "%s0x%llx", s.empty() ? "" : " ",
                  static_cast<unsigned long long>(base));
    s += buf;
  }
  return s.empty() ? "none" : s;
}

// Linux kfd_device.c (kgd2kfd_probe: gfx_target_version per GC IP version). The hardware and
// compiler numbers differ for some parts: GC 11.0.1 and 11.0.4 are gfx1103, 11.0.3 is gfx1101.
std::string gfx_target_of(const IpBlock& gc) {
  switch (gc.major * 10000u + gc.minor * 100u + gc.revision) {
  case 110000: return "gfx1100";
  case 110001: return "gfx1103";
  case 110002: return "gfx1102";
  case 110003: return "gfx1101";
  case 110004: return "gfx1103";
  case 110500: return "gfx1150";
  case 110501: return "gfx1151";
  case 120000: return "gfx1200";
  case 120001: return "gfx1201";
  default: return "";
  }
}

} // namespace am
