// Reading the IP discovery binary (am/hw/discovery.h): the driver learns which IP blocks the
// card has, their versions and register bases from it instead of from per-chip tables.
#pragma once
#include "pci.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace am {

struct IpBlock {
  uint16_t hw_id = 0;
  uint8_t instance = 0;
  uint8_t major = 0, minor = 0, revision = 0;
  std::vector<uint64_t> bases; // register segment bases, in dwords
};

struct IpDiscovery {
  uint16_t version = 0; // of the IP discovery table
  std::vector<IpBlock> blocks;
  const IpBlock* find(uint16_t hw_id, uint8_t instance = 0) const;
};

// Parses and validates a discovery binary: signatures, both checksums, and every offset and
// count against the bytes given. Returns nullopt with `error` saying what is wrong.
std::optional<IpDiscovery> parse_ip_discovery(std::span<const uint8_t> bin, std::string* error);

// The card's own table, from the top of its `vram_size` bytes of VRAM (RCC_CONFIG_MEMSIZE),
// through BAR0 or the MM_INDEX window (amdgpu_discovery_read_binary_from_mem); throws
// DeviceError naming the card when it is missing or malformed.
IpDiscovery read_ip_discovery(Pci& pci, uint64_t vram_size);

// "11.0.3": a block's version as error messages name it.
std::string version_of(const IpBlock& block);
// "0x1260 0xa000 0x1c000": a block's register segment bases, as AM_DEBUG=2 prints them.
std::string bases_of(const IpBlock& block);

// The LLVM processor of a GC IP version ("gfx1100" for GC 11.0.0), or "" when amcl does not
// know it.
std::string gfx_target_of(const IpBlock& gc);

} // namespace am
