#include "device_backends.h"

#include "am/debug_log.h"
#include "am/device_list.h"
#include "am/enumerate.h"
#include "am/hw/pci_ids.h"
#include "sim/gpu.h"

#include <cstdio>
#include <cstdlib>
#include <sstream>

namespace amcl::rt {
namespace {

// What a held card is without touching it: its sysfs identity and the PCI id table's facts.
am::DeviceInfo identity_of(const am::PciFunction& f) {
  am::DeviceInfo info;
  info.gfx = f.gfx;
  info.name = f.name;
  info.vendor_id = f.vendor;
  info.device_id = f.device;
  info.revision = f.revision;
  info.vram_size = f.bar0_bytes;
  info.pci_address = f.address;
  for (const am::hw::PciPart& p : am::hw::kKnownParts)
    if (p.device == f.device)
      info.compute_units = p.compute_units, info.max_clock_mhz = p.max_clock_mhz,
      info.vram_bus_bits = p.vram_bus_bits;
  return info;
}

void add_real(am::RealCard card, std::vector<DeviceBackend>& out) {
  if (card.pci) {
    out.push_back({std::move(card.pci), {}, {}});
  } else if (card.held) {
    if (am::debug_on(am::kDebugBoot)) std::fprintf(stderr, "amcl: %s\n", card.held->message.c_str());
    out.push_back({nullptr, identity_of(card.held->function), card.held->message});
  }
}

} // namespace

std::vector<DeviceBackend> open_device_backends(std::vector<std::string>* messages_out) {
  std::vector<std::string> messages;
  std::vector<DeviceBackend> out;
  unsigned sim_index = 0;
  for (const am::DeviceListEntry& entry : am::device_list_from_environment()) {
    std::string gfx = entry.target;
    switch (entry.kind) {
    case am::DeviceListEntry::Auto: {
      bool found_real = false;
      for (auto& card : am::open_real_cards(messages, found_real)) add_real(std::move(card), out);
      if (found_real) continue;
      gfx = "gfx1100"; // a fresh machine runs OpenCL programs at once
      [[fallthrough]];
    }
    case am::DeviceListEntry::Emulated:
      try {
        out.push_back({sim::open_emulated_gpu(gfx, sim_index++), {}, {}});
      } catch (const std::exception& e) {
        messages.push_back("sim:" + gfx + ": " + e.what());
      }
      continue;
    case am::DeviceListEntry::Real:
      add_real(am::open_real_card(entry.target, messages), out);
      continue;
    case am::DeviceListEntry::Unknown:
      messages.push_back(am::device_list_entry_error(entry));
    }
  }
  if (messages_out) *messages_out = messages;
  for (auto& m : messages) std::fprintf(stderr, "amcl: %s\n", m.c_str());
  return out;
}

} // namespace amcl::rt
