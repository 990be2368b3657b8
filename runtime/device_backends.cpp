#include "device_backends.h"

#include "am/debug_log.h"
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
      info.compute_units = p.compute_units, info.max_clock_mhz = p.max_clock_mhz;
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
  const char* env = std::getenv("AMCL_DEVICES");
  std::string spec = env && *env ? env : "auto";
  unsigned sim_index = 0;
  std::stringstream ss(spec);
  std::string item;
  while (std::getline(ss, item, ',')) {
    if (item == "auto") {
      bool found_real = false;
      for (auto& card : am::open_real_cards(messages, found_real)) add_real(std::move(card), out);
      if (found_real) continue;
      item = "sim:gfx1100"; // a fresh machine runs OpenCL programs at once
    }
    if (item.rfind("sim:", 0) == 0) {
      try {
        out.push_back({sim::open_emulated_gpu(item.substr(4), sim_index++), {}, {}});
      } catch (const std::exception& e) {
        messages.push_back(item + ": " + e.what());
      }
      continue;
    }
    if (am::is_pci_address(item)) {
      add_real(am::open_real_card(item, messages), out);
      continue;
    }
    messages.push_back("AMCL_DEVICES entry '" + item +
                       "' not understood (use auto, sim:gfx1100, sim:gfx1201 or a PCI address)");
  }
  if (messages_out) *messages_out = messages;
  for (auto& m : messages) std::fprintf(stderr, "amcl: %s\n", m.c_str());
  return out;
}

} // namespace amcl::rt
