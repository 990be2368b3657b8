// libFuzzer target: bytes as the IP discovery binary at the top of a card's VRAM (what the
// driver reads before it trusts anything else about the card). Parsing must reject or accept
// without reading past the bytes; what it accepts must be self-consistent.
// Seed: the emulated gfx1100's binary, written by fuzz_seeds.
#include "am/ip_discovery.h"
#include "fuzzer_main.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string error;
  auto ip = am::parse_ip_discovery(std::span(data, size), &error);
  if (!ip) {
    amcl_fuzz::require(error.empty() ? "a rejected binary must say why" : "");
    return 0;
  }
  for (const am::IpBlock& b : ip->blocks)
    if (b.bases.size() > 255) amcl_fuzz::require("more bases than the entry can count");
  if (ip->version < 3 || ip->version > 4) amcl_fuzz::require("accepted an unsupported version");
  return 0;
}
