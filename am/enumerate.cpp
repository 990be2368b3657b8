#include "enumerate.h"

#include "sysfs_pci.h"
#include "sysfs_pci_device.h"
#include "vfio_pci.h"

#include <cstdio>
#include <cstdlib>

namespace am {
namespace {

// VFIO=0 forces the sysfs backend (no IOMMU), VFIO=1 forces vfio-pci; unset: vfio-pci for a
// card bound to it in an IOMMU group, sysfs for a card with no driver and no IOMMU group.
std::string vfio_mode() {
  const char* v = std::getenv("VFIO");
  return v ? v : "";
}

// Opens a real card with the backend its state and VFIO call for; a card another process
// holds is added as held. Returns why it was neither ("" when it was one).
std::string open_real(const PciFunction& f, std::vector<RealCard>& out) {
  const std::string mode = vfio_mode();
  if (!f.driver.empty() && f.driver != "vfio-pci") return usability(f); // amdgpu has it
  try {
    if (mode == "0" || (mode.empty() && f.driver.empty() && f.iommu_group.empty())) {
      out.push_back({std::make_shared<SysfsPciDevice>(sysfs_root(), f.address), std::nullopt});
      return "";
    }
    if (f.driver != "vfio-pci")
      return "not bound to vfio-pci: `sudo amcl-smi bind " + f.address +
             "` (or VFIO=0 for the sysfs backend without IOMMU)";
    if (f.iommu_group.empty())
      return "bound to vfio-pci without an IOMMU group: enable the IOMMU, or VFIO=0 for the sysfs "
             "backend";
    out.push_back({std::make_shared<VfioPci>(linux_vfio_system(), f.address, f.iommu_group, false),
                   std::nullopt});
    return "";
  } catch (const CardBusy& busy) {
    out.push_back({nullptr, HeldCard{f, busy.holder(), busy.what()}});
    return "";
  } catch (const std::exception& e) {
    return e.what();
  }
}

} // namespace

std::vector<RealCard> open_real_cards(std::vector<std::string>& messages, bool& found_any) {
  std::vector<RealCard> out;
  found_any = false;
  for (const PciFunction& f : scan_pci(sysfs_root())) {
    found_any = true;
    const std::string why = open_real(f, out);
    if (!why.empty()) messages.push_back(f.address + " (" + f.name + "): " + why + "; skipped");
  }
  return out;
}

RealCard open_real_card(const std::string& address, std::vector<std::string>& messages) {
  std::vector<RealCard> out;
  bool found = false;
  for (const PciFunction& f : scan_pci(sysfs_root()))
    if (f.address == address) {
      found = true;
      if (std::string why = open_real(f, out); !why.empty())
        messages.push_back(address + ": " + why + "; skipped");
    }
  if (!found) messages.push_back(address + ": no RDNA3/RDNA4 card at that PCI address");
  return out.empty() ? RealCard{} : out.front();
}

bool is_pci_address(const std::string& s) {
  unsigned d, b, dev, fn;
  char tail;
  return std::sscanf(s.c_str(), "%4x:%2x:%2x.%1x%c", &d, &b, &dev, &fn, &tail) == 4;
}

} // namespace am
