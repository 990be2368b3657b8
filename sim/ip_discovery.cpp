#include "ip_discovery.h"

#include "am/hw/discovery.h"

#include <cstddef>

namespace sim {
namespace {

using namespace am::hw::discovery;

void put16(std::vector<uint8_t>& b, size_t at, uint16_t v) {
  b[at] = uint8_t(v), b[at + 1] = uint8_t(v >> 8);
}
void put32(std::vector<uint8_t>& b, size_t at, uint32_t v) {
  put16(b, at, uint16_t(v)), put16(b, at + 2, uint16_t(v >> 16));
}

} // namespace

std::vector<uint8_t> build_ip_discovery(const std::vector<IpBlockModel>& blocks) {
  // Layout: binary header | IP discovery header | die header | IP entries.
  const size_t table_at = kBinaryHeaderBytes;
  const size_t die_at = table_at + kIpHeaderBytes;
  size_t end = die_at + kDieHeaderBytes;
  for (const IpBlockModel& b : blocks) end += kIpEntryBytes + 4 * b.bases.size();
  std::vector<uint8_t> bin(end, 0);

  // IP discovery table, version 4 with 32-bit bases.
  put32(bin, table_at + kIpSignature, kTableSignature);
  put16(bin, table_at + kIpVersion, 4);
  put16(bin, table_at + kIpSize, uint16_t(end - table_at));
  put16(bin, table_at + kIpNumDies, 1);
  put16(bin, table_at + kIpDieInfo + 0, 0);                          // die_id
  put16(bin, table_at + kIpDieInfo + 2, uint16_t(die_at));           // die_offset (from binary start)
  put16(bin, die_at + 0, 0);                                         // die_id
  put16(bin, die_at + 2, uint16_t(blocks.size()));                   // num_ips
  size_t at = die_at + kDieHeaderBytes;
  for (const IpBlockModel& b : blocks) {
    put16(bin, at, b.hw_id);
    bin[at + 2] = 0; // instance
    bin[at + 3] = uint8_t(b.bases.size());
    bin[at + 4] = b.major, bin[at + 5] = b.minor, bin[at + 6] = b.revision;
    at += kIpEntryBytes;
    for (uint32_t base : b.bases) put32(bin, at, base), at += 4;
  }

  // Binary header: version 1.0, the one table, then the checksums.
  put32(bin, kBinSignature, kBinarySignature);
  put16(bin, kBinVersionMajor, 1);
  put16(bin, kBinSize, uint16_t(end));
  const size_t info = kBinTables + kTableIpDiscovery * kTableInfoBytes;
  put16(bin, info + 0, uint16_t(table_at));
  put16(bin, info + 4, uint16_t(end - table_at));
  put16(bin, info + 2, checksum(&bin[table_at], uint32_t(end - table_at)));
  put16(bin, kBinChecksum, checksum(&bin[kBinSize], uint32_t(end - kBinSize)));
  return bin;
}

} // namespace sim
