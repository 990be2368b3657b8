// What amcl's synthetic firmware tells the emulated card that a real image would not need to.
// A real RS64 image is linked at an address its file header names (ucode_start_addr), and a
// pipe started anywhere else runs off into garbage. The emulated MEC runs no RS64 code, so a
// synthetic code image opens with a marker and that same address, which lets the emulator
// check the program counter start the driver gave each pipe; the driver itself takes the
// address from the header, as it must for a real file.
#pragma once
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>

namespace am::synthetic {

inline constexpr uint32_t kRs64Marker = 0x34365352; // "RS64"
// Entry addresses above 4 GiB with bit 32 set, so that both halves of the program counter
// start registers (and bit 30 of the low one) carry part of it.
inline constexpr uint64_t kPfpEntry = 0x3'0000'2000, kMeEntry = 0x3'0000'6000;
inline constexpr uint64_t kMecEntry = 0x5'0000'4000;

// The entry a synthetic RS64 code image carries; nothing for any other image.
inline std::optional<uint64_t> rs64_entry(std::span<const uint8_t> code) {
  uint32_t marker = 0;
  uint64_t entry = 0;
  if (code.size() < 12) return std::nullopt;
  std::memcpy(&marker, code.data(), 4);
  if (marker != kRs64Marker) return std::nullopt;
  std::memcpy(&entry, code.data() + 4, 8);
  return entry;
}

} // namespace am::synthetic
