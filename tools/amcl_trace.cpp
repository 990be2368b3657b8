// amcl-trace: prints an AM_TRACE file (am/trace_format.h) one line per record, in the words
// AM_DEBUG=3/4 uses (register names from the tables the trace's IP versions select, packets by
// name), or with --summary how many records of each kind and register accesses per IP block.
//
//   amcl-trace FILE            every record
//   amcl-trace --summary FILE  counts
#include "am/trace_reader.h"
#include "am/trace_text.h"

#include <cstdio>
#include <map>
#include <string>
#include <string_view>

namespace {

using namespace am::trace;

// A record's kind as the summary counts it.
std::string kind_name(const am::TraceRecord& r) {
  switch (r.kind) {
  case kRead:
    return r.bar == kRegisterBar ? "register reads" : "config-space reads";
  case kWrite:
    return r.bar == kRegisterBar   ? "register writes"
           : r.bar == kDoorbellBar ? "doorbells"
                                   : "config-space writes";
  case kBusMaster:
    return "bus-master enables";
  case kConfigRestore:
    return "config restores";
  case kPackets:
    return r.bar == kEngineCompute ? "compute submissions" : "SDMA submissions";
  case kInterrupt:
    return "interrupts";
  case kPhase:
    return r.bar == kPhaseFailed ? "failed phases" : "phase markers";
  case kIpBlock:
    return "IP blocks";
  case kFirmware:
    return "firmware files";
  }
  return "unknown records";
}

// SDMA 6 and 7 have no register segment of their own: their registers sit in GC's (amdgpu
// reaches them with SOC15_REG_OFFSET(GC, ...)), so the segment alone would count them as GC's.
std::string block_of(const am::IpDiscovery& ip, const am::RegisterNames& names, uint32_t index) {
  const char* name = names.find(index);
  if (name && std::string_view(name).starts_with("SDMA")) return "SDMA0 (in GC's segment)";
  std::string block = am::ip_block_of_register(ip, index);
  return block.empty() ? "(no block)" : block;
}

void summary(const am::Trace& t) {
  const am::IpDiscovery ip = am::ip_discovery_of(t);
  const am::RegisterNames names = am::trace_register_names(ip);
  std::map<std::string, size_t> kinds;
  std::map<std::string, std::pair<size_t, size_t>> blocks; // reads, writes
  for (const am::TraceRecord& r : t.records) {
    ++kinds[kind_name(r)];
    if ((r.kind == kRead || r.kind == kWrite) && r.bar == kRegisterBar) {
      auto& [reads, writes] = blocks[block_of(ip, names, r.offset / 4)];
      ++(r.kind == kRead ? reads : writes);
    }
  }
  std::printf("%zu records\n", t.records.size());
  for (const auto& [name, n] : kinds) std::printf("  %-22s %zu\n", name.c_str(), n);
  std::printf("register accesses by IP block (reads, writes):\n");
  for (const auto& [name, rw] : blocks)
    std::printf("  %-22s %zu, %zu\n", name.c_str(), rw.first, rw.second);
}

int usage() {
  std::fprintf(stderr, "usage: amcl-trace [--summary] FILE\n");
  return 2;
}

} // namespace

int main(int argc, char** argv) {
  bool want_summary = false;
  std::string file;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--summary")
      want_summary = true;
    else if (file.empty() && !arg.starts_with("-"))
      file = arg;
    else
      return usage();
  }
  if (file.empty()) return usage();
  am::Trace t;
  try {
    t = am::read_trace(file);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "amcl-trace: %s\n", e.what());
    return 1;
  }
  std::printf("trace of %s (format version %u)\n", t.card.c_str(), t.version);
  if (want_summary) {
    summary(t);
  } else {
    const am::RegisterNames names = am::trace_register_names(am::ip_discovery_of(t));
    for (const am::TraceRecord& r : t.records)
      std::printf("%s\n", am::trace_line(r, names).c_str());
  }
  if (t.truncated)
    std::printf("(the file ends inside a record: the process stopped before its last flush)\n");
  return 0;
}
