// The IP discovery binary the emulated card carries at the top of its VRAM, in the real format
// (am/hw/discovery.h), as firmware leaves it there on hardware before any driver runs.
#pragma once
#include <cstdint>
#include <vector>

namespace sim {

struct IpBlockModel {
  uint16_t hw_id;
  uint8_t major, minor, revision;
  std::vector<uint32_t> bases; // register segment bases, in dwords
};

// The whole binary (binary header, IP discovery table with one die), checksums filled in.
std::vector<uint8_t> build_ip_discovery(const std::vector<IpBlockModel>& blocks);

} // namespace sim
