// The packets of a stream by name, for AM_DEBUG=3's submission lines: "SET_SH_REG x4,
// DISPATCH_DIRECT, RELEASE_MEM" (a run of one packet is counted, not repeated).
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

namespace am {

// A PM4 stream, walked by its type-3 headers' counts (type-2 fillers are NOPs).
std::string pm4_packet_names(std::span<const uint32_t> words);
// An SDMA stream whose packets start at `starts` (SdmaBuilder::packet_starts, relative to
// `words`), which the headers alone do not give.
std::string sdma_packet_names(std::span<const uint32_t> words, std::span<const size_t> starts);

} // namespace am
