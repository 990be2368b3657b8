// Reading an AM_TRACE file (am/trace_format.h) back: its header and records, and the payloads
// decoded. Used by tools/amcl-trace and by the replay (am/trace_replay.h).
#pragma once
#include "ip_discovery.h"
#include "trace_format.h"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace am {

struct TraceRecord {
  trace::TraceKind kind{};
  uint8_t bar = 0, size = 0;
  uint32_t offset = 0; // for records with a payload, its length
  uint64_t value = 0;
  std::vector<uint8_t> payload;
};

struct Trace {
  uint32_t version = 0;
  std::string card; // the header's text: "<address> <vendor>:<device> rev <r> <real|emulated>"
  std::vector<TraceRecord> records;
  // The file ends inside a record: the process died before its last flush completed.
  bool truncated = false;
};

// Throws std::runtime_error when the file cannot be read, is not a trace, or has a version
// this reader does not know.
Trace read_trace(const std::filesystem::path& path);

struct TracePackets {
  trace::TraceEngine engine{};
  uint64_t ring_va = 0, wptr = 0;
  uint32_t doorbell = 0;
  std::vector<size_t> starts; // SDMA's packet starts; empty for PM4
  std::vector<uint32_t> words;
};
struct TraceFirmware {
  std::string name;
  uint64_t bytes = 0;
  uint32_t version = 0;
};

// A payload's contents, or nothing when the record is not of that kind or is malformed.
std::optional<TracePackets> packets_of(const TraceRecord& r);
std::optional<IpBlock> ip_block_of(const TraceRecord& r);
std::optional<TraceFirmware> firmware_of(const TraceRecord& r);
// A kPhase record's name (and, after a failure, its error).
std::string phase_name_of(const TraceRecord& r);
std::string phase_error_of(const TraceRecord& r);

// The IP discovery table as the trace's kIpBlock records give it.
IpDiscovery ip_discovery_of(const Trace& t);

} // namespace am
