// An AM_TRACE record as one line of text, in the words and format AM_DEBUG=3/4 prints the
// same event (register names from am/register_names, packet names from am/packet_names), and
// which IP block a register belongs to, for tools/amcl-trace's listing and --summary.
#pragma once
#include "register_names.h"
#include "trace_reader.h"

#include <cstdint>
#include <string>

namespace am {

// The register names of the tables the trace's IP versions select (empty when its GC version
// has no table).
RegisterNames trace_register_names(const IpDiscovery& ip);

// One line for `r`, without AM_DEBUG's "amcl: am <address>: " prefix.
std::string trace_line(const TraceRecord& r, const RegisterNames& names);

// "GC", "MMHUB", "MP0 (PSP)" ...: an IP discovery hardware id by name, or "hwid N".
std::string ip_block_name(uint16_t hw_id);
// The block whose register segment holds BAR5 dword `index` (the nearest segment base at or
// below it), or "" when no block's segment starts below it.
std::string ip_block_of_register(const IpDiscovery& ip, uint32_t index);

} // namespace am
