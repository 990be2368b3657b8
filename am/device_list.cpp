#include "device_list.h"

#include "enumerate.h"

#include <cstdlib>
#include <sstream>

namespace am {

std::vector<DeviceListEntry> parse_device_list(const char* spec) {
  std::stringstream ss(spec && *spec ? spec : "auto");
  std::vector<DeviceListEntry> out;
  for (std::string item; std::getline(ss, item, ',');) {
    DeviceListEntry e;
    e.text = item;
    if (item == "auto") {
      e.kind = DeviceListEntry::Auto;
    } else if (item.rfind("sim:", 0) == 0) {
      e.kind = DeviceListEntry::Emulated, e.target = item.substr(4);
    } else if (is_pci_address(item)) {
      e.kind = DeviceListEntry::Real, e.target = item;
    }
    out.push_back(std::move(e));
  }
  return out;
}

std::vector<DeviceListEntry> device_list_from_environment() {
  return parse_device_list(std::getenv("AMCL_DEVICES"));
}

std::string device_list_entry_error(const DeviceListEntry& e) {
  return "AMCL_DEVICES entry '" + e.text +
         "' not understood (use auto, sim:gfx1100, sim:gfx1201 or a PCI address)";
}

} // namespace am
