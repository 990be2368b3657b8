#include "trace_replay.h"

#include <cstdio>

namespace am {

using namespace trace;

ReplayResult replay_trace(const Trace& trace, Pci& card) {
  ReplayResult out;
  auto compare = [&](const TraceRecord& r, uint32_t now) {
    ++out.reads;
    if (now == uint32_t(r.value)) return;
    ++out.reads_differing;
    if (out.first_differences.size() < 16) {
      char buf[96];
      std::snprintf(buf, sizeof buf, "read %s0x%05x: 0x%08x in the trace, 0x%08x now",
                    r.bar == kConfigSpace ? "config " : "",
                    r.bar == kConfigSpace ? r.offset : r.offset / 4, uint32_t(r.value), now);
      out.first_differences.push_back(buf);
    }
  };
  for (const TraceRecord& r : trace.records) {
    switch (r.kind) {
    case kWrite:
      if (r.bar == kRegisterBar) {
        card.reg_write32(r.offset / 4, uint32_t(r.value));
        ++out.register_writes;
      } else if (r.bar == kDoorbellBar) {
        card.doorbell_write64(r.offset / 4, r.value);
        ++out.doorbells;
      } else if (r.bar == kConfigSpace) {
        card.config_write32(r.offset, uint32_t(r.value));
        ++out.config_writes;
      }
      break;
    case kRead:
      if (r.bar == kRegisterBar) compare(r, card.reg_read32(r.offset / 4));
      if (r.bar == kConfigSpace) compare(r, card.config_read32(r.offset));
      break;
    case kBusMaster:
      card.enable_bus_master();
      ++out.config_writes;
      break;
    case kConfigRestore:
      card.after_config_restore();
      break;
    default: // packets, interrupts, phases, IP blocks, firmware: what the driver saw or did
      break; // in memory, nothing to write to the card
    }
  }
  return out;
}

} // namespace am
