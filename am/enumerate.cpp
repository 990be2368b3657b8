#include "enumerate.h"

#include "sysfs_pci.h"
#include "sysfs_pci_device.h"
#include "vfio_pci.h"
#include "sim/gpu.h"

#include <cstdio>
#include <cstdio>
#include <cstdlib>
#include <sstream>

namespace am {
namespace {

// VFIO=0 forces the sysfs backend (no IOMMU), VFIO=1 forces vfio-pci; unset: vfio-pci for a
// card bound to it in an IOMMU group, sysfs for a card with no driver and no IOMMU group.
std::string vfio_mode() {
  const char* v = std::getenv("VFIO");
  return v ? v : "";
}

// Opens a real card with the backend its state and VFIO call for. Returns why it was not
// opened ("" when it was).
std::string open_real(const PciFunction& f, std::vector<Enumerated>& out) {
  const std::string mode = vfio_mode();
  if (!f.driver.empty() && f.driver != "vfio-pci") return usability(f); // amdgpu has it
  try {
    if (mode == "0" || (mode.empty() && f.driver.empty() && f.iommu_group.empty())) {
      out.push_back({std::make_shared<SysfsPciDevice>(sysfs_root(), f.address)});
      return "";
    }
    if (f.driver != "vfio-pci")
      return "not bound to vfio-pci: `sudo amcl-smi bind " + f.address + "` (or VFIO=0 for the sysfs backend without IOMMU)";
    if (f.iommu_group.empty())
      return "bound to vfio-pci without an IOMMU group: enable the IOMMU, or VFIO=0 for the sysfs backend";
    out.push_back({std::make_shared<VfioPci>(linux_vfio_system(), f.address, f.iommu_group, false)});
    return "";
  } catch (const std::exception& e) {
    return e.what();
  }
}

// Every RDNA3/RDNA4 card on the PCI bus: opened when it can be, else reported with what
// stands in the way.
void scan_real(std::vector<Enumerated>& out, std::vector<std::string>& messages, bool& found_any) {
  for (const PciFunction& f : scan_pci(sysfs_root())) {
    found_any = true;
    const std::string why = open_real(f, out);
    if (!why.empty()) messages.push_back(f.address + " (" + f.name + "): " + why + "; skipped");
  }
}

bool is_pci_address(const std::string& s) {
  unsigned d, b, dev, fn;
  char tail;
  return std::sscanf(s.c_str(), "%4x:%2x:%2x.%1x%c", &d, &b, &dev, &fn, &tail) == 4;
}

} // namespace

std::vector<Enumerated> enumerate_devices(std::vector<std::string>* messages_out) {
  std::vector<std::string> messages;
  std::vector<Enumerated> out;
  const char* env = std::getenv("AMCL_DEVICES");
  std::string spec = env && *env ? env : "auto";
  unsigned sim_index = 0;
  std::stringstream ss(spec);
  std::string item;
  while (std::getline(ss, item, ',')) {
    if (item == "auto") {
      bool found_real = false;
      scan_real(out, messages, found_real);
      if (!found_real) item = "sim:gfx1100";
      else continue;
    }
    if (item.rfind("sim:", 0) == 0) {
      try {
        out.push_back({sim::open_emulated_gpu(item.substr(4), sim_index++)});
      } catch (const std::exception& e) {
        messages.push_back(item + ": " + e.what());
      }
      continue;
    }
    if (is_pci_address(item)) {
      bool found = false;
      for (const PciFunction& f : scan_pci(sysfs_root()))
        if (f.address == item) {
          found = true;
          if (std::string why = open_real(f, out); !why.empty()) messages.push_back(item + ": " + why + "; skipped");
        }
      if (!found) messages.push_back(item + ": no RDNA3/RDNA4 card at that PCI address");
      continue;
    }
    messages.push_back("AMCL_DEVICES entry '" + item +
                       "' not understood (use auto, sim:gfx1100, sim:gfx1201 or a PCI address)");
  }
  if (messages_out) *messages_out = messages;
  for (auto& m : messages) std::fprintf(stderr, "amcl: %s\n", m.c_str());
  return out;
}

} // namespace am
