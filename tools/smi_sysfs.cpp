// What amcl-smi reads of sysfs beyond am/sysfs_pci: every AMD function (the HDMI audio next to
// a GPU among them), IOMMU groups' members, vfio's state
// (Documentation/driver-api/vfio.rst; Documentation/ABI/testing/sysfs-kernel-iommu_groups).
#include "smi.h"

#include "am/hw/pci_ids.h"
#include "am/sysfs_pci.h"

#include <algorithm>
#include <cstdlib>

namespace smi {
namespace fs = std::filesystem;
namespace {

AmdFunction function_at(const fs::path& dev) {
  AmdFunction f;
  f.address = dev.filename().string();
  f.device = uint16_t(std::strtoul(am::read_line(dev / "device").c_str(), nullptr, 16));
  f.pci_class = uint32_t(std::strtoul(am::read_line(dev / "class").c_str(), nullptr, 16));
  f.driver = am::link_target_name(dev / "driver");
  f.iommu_group = am::link_target_name(dev / "iommu_group");
  return f;
}

} // namespace

std::vector<AmdFunction> amd_functions(const fs::path& root) {
  std::vector<AmdFunction> out;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(root / "bus/pci/devices", ec))
    if (std::strtoul(am::read_line(entry.path() / "vendor").c_str(), nullptr, 16) ==
        am::hw::kVendorAmd)
      out.push_back(function_at(entry.path()));
  std::sort(out.begin(), out.end(),
            [](const AmdFunction& a, const AmdFunction& b) { return a.address < b.address; });
  return out;
}

std::vector<AmdFunction> group_peers(const fs::path& root, const std::string& group,
                                     const std::string& address) {
  std::vector<AmdFunction> out;
  if (group.empty()) return out;
  std::error_code ec;
  for (const auto& entry :
       fs::directory_iterator(root / "kernel/iommu_groups" / group / "devices", ec)) {
    const std::string peer = entry.path().filename().string();
    if (peer != address) out.push_back(function_at(root / "bus/pci/devices" / peer));
  }
  std::sort(out.begin(), out.end(),
            [](const AmdFunction& a, const AmdFunction& b) { return a.address < b.address; });
  return out;
}

std::string describe_class(uint32_t pci_class) {
  if (pci_class >> 16 == 0x03) return "display";
  if (pci_class >> 8 == 0x0403) return "HDMI/DP audio";
  char buf[32];
  std::snprintf(buf, sizeof buf, "PCI class 0x%06x", pci_class);
  return buf;
}

bool vfio_pci_loaded(const fs::path& root) {
  std::error_code ec;
  return fs::exists(root / "bus/pci/drivers/vfio-pci", ec);
}

bool noiommu_allowed(const fs::path& root) {
  const std::string v = am::read_line(root / "module/vfio/parameters/enable_unsafe_noiommu_mode");
  return v == "Y" || v == "1";
}

} // namespace smi
