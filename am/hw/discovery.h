// The IP discovery binary a RDNA card keeps at the top of its VRAM: which IP blocks the chip
// has, their versions and their register base addresses.
// Source: Linux drivers/gpu/drm/amd/include/discovery.h (binary_header, table_info,
// ip_discovery_header, die_header, ip_v3/ip_v4 layouts; all little-endian and packed),
// amdgpu_discovery.c (location vram_size - DISCOVERY_TMR_OFFSET; checksums: the 16-bit sum of
// the bytes after binary_checksum up to binary_size, and of each table's bytes) and
// soc15_hw_ip.h (hardware ids). Offsets below are byte offsets within each structure; pinned
// by tests/am/ip_discovery_test.cpp.
#pragma once
#include <cstdint>

namespace am::hw::discovery {

inline constexpr uint64_t kOffsetFromVramTop = 64 << 10; // DISCOVERY_TMR_OFFSET
inline constexpr uint32_t kMaxBinaryBytes = 64 << 10;    // BINARY_MAX_SIZE

inline constexpr uint32_t kBinarySignature = 0x28211407; // BINARY_SIGNATURE
inline constexpr uint32_t kTableSignature = 0x53445049;  // DISCOVERY_TABLE_SIGNATURE, "IPDS"

// binary_header: u32 signature, u16 version_major, u16 version_minor, u16 binary_checksum,
// u16 binary_size, then table_info[6] {u16 offset, u16 checksum, u16 size, u16 padding}.
inline constexpr uint32_t kBinSignature = 0, kBinVersionMajor = 4, kBinVersionMinor = 6,
                          kBinChecksum = 8, kBinSize = 10, kBinTables = 12;
inline constexpr uint32_t kTableInfoBytes = 8, kTableCount = 6, kBinaryHeaderBytes = 12 + 6 * 8;
inline constexpr uint32_t kTableIpDiscovery = 0; // table_list[IP_DISCOVERY]

// ip_discovery_header: u32 signature, u16 version, u16 size, u32 id, u16 num_dies,
// die_info[16] {u16 die_id, u16 die_offset}, then a u16 whose bit 0 is base_addr_64_bit.
inline constexpr uint32_t kIpSignature = 0, kIpVersion = 4, kIpSize = 6, kIpId = 8,
                          kIpNumDies = 12, kIpDieInfo = 14, kIpFlags = 14 + 16 * 4;
inline constexpr uint32_t kIpHeaderBytes = kIpFlags + 2, kMaxDies = 16;

// die_header: u16 die_id, u16 num_ips; then the IP entries.
inline constexpr uint32_t kDieHeaderBytes = 4;
// ip_v3 / ip_v4: u16 hw_id, u8 instance_number, u8 num_base_address, u8 major, u8 minor,
// u8 revision, u8 {sub_revision[3:0], variant[7:4]}, then num_base_address bases of 32 bits
// (64 bits in a v4 table whose header sets base_addr_64_bit).
inline constexpr uint32_t kIpEntryBytes = 8;

// Hardware ids (soc15_hw_ip.h).
inline constexpr uint16_t MP1_HWID = 1, SMUIO_HWID = 4, GC_HWID = 11, VCN_HWID = 12,
                          MMHUB_HWID = 34, ATHUB_HWID = 35, OSSSYS_HWID = 40, HDP_HWID = 41,
                          SDMA0_HWID = 42, DF_HWID = 46, NBIF_HWID = 108, UMC_HWID = 150,
                          MP0_HWID = 255;

// The 16-bit byte sum both checksums use.
inline uint16_t checksum(const uint8_t* p, uint32_t n) {
  uint16_t sum = 0;
  for (uint32_t i = 0; i < n; ++i) sum = uint16_t(sum + p[i]);
  return sum;
}

} // namespace am::hw::discovery
