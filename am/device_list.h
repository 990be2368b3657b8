// AMCL_DEVICES, the list of cards a process drives, parsed once for every reader (the runtime's
// device_backends and tools/amcl-smi): comma-separated entries, "auto" (every RDNA3/4 card amcl
// can open, else one emulated gfx1100), "sim:<gfx>" (an emulated card; "sim:<gfx>:rebar" with a
// BAR0 as large as its VRAM) or a PCI address.
#pragma once
#include <string>
#include <vector>

namespace am {

struct DeviceListEntry {
  enum Kind { Auto, Emulated, Real, Unknown } kind = Unknown;
  std::string text;   // the entry as written
  std::string target; // Emulated: the processor after "sim:"; Real: the PCI address
};

// `spec`'s entries in order; an unset or empty spec is "auto".
std::vector<DeviceListEntry> parse_device_list(const char* spec);
// AMCL_DEVICES's entries.
std::vector<DeviceListEntry> device_list_from_environment();
// What an Unknown entry's message says.
std::string device_list_entry_error(const DeviceListEntry& e);

} // namespace am
