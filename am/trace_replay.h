// Replaying an AM_TRACE into a card: the driver's writes (registers, doorbells, config space,
// bus mastering) in the order it made them, so a failure seen on one card can be brought back
// on another (or on the emulated card) without the driver. What a trace cannot carry is not
// replayed: the values of reads that steered the driver (the replay makes each read again and
// counts those that come back different) and the memory the engines fetch from (rings'
// contents apart, page tables, MQDs, firmware images and PSP commands live in VRAM and host
// memory, which the trace does not hold).
#pragma once
#include "pci.h"
#include "trace_reader.h"

#include <cstddef>
#include <string>
#include <vector>

namespace am {

struct ReplayResult {
  size_t register_writes = 0, doorbells = 0, config_writes = 0;
  size_t reads = 0;                           // register and config reads made again
  size_t reads_differing = 0;                 // of them, those whose value differs from the trace's
  std::vector<std::string> first_differences; // up to 16, "read 0x0a2b4: 0x1 in the trace, 0x0 now"
};

// Replays every record of `trace` into `card`, in order.
ReplayResult replay_trace(const Trace& trace, Pci& card);

} // namespace am
