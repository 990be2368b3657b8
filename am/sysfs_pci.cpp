#include "sysfs_pci.h"

#include "hw/pci_ids.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace am {
namespace fs = std::filesystem;
namespace {

// BAR0's size from the `resource` file: one "start end flags" line per BAR, in hex.
uint64_t bar0_size(const fs::path& dev) {
  std::istringstream line(read_line(dev / "resource"));
  std::string start, end;
  if (!(line >> start >> end)) return 0;
  const uint64_t s = std::strtoull(start.c_str(), nullptr, 16), e = std::strtoull(end.c_str(), nullptr, 16);
  return e > s ? e - s + 1 : 0;
}

// Writes `value` to a sysfs attribute; "" on success, else why not.
std::string write_attr(const fs::path& p, const std::string& value) {
  std::error_code ec;
  if (!fs::exists(p, ec)) return p.string() + " does not exist"; // never create attributes
  std::ofstream f(p);
  if (f) f << value << std::flush;
  if (f) return "";
  return "cannot write " + p.string() + " (writing to sysfs needs root: run the command with sudo)";
}

// The function's directory, or an error message in `why`.
fs::path device_dir(const fs::path& root, const std::string& address, std::string& why) {
  const fs::path dev = root / "bus/pci/devices" / address;
  std::error_code ec;
  if (!fs::exists(dev, ec)) {
    why = "no PCI function " + address + " (see `lspci -D -d 1002:`)";
    return {};
  }
  const unsigned vendor = unsigned(std::strtoul(read_line(dev / "vendor").c_str(), nullptr, 16));
  if (vendor != hw::kVendorAmd) why = address + " is not an AMD device";
  return dev;
}

} // namespace

std::string read_line(const fs::path& p) {
  std::ifstream f(p);
  std::string s;
  std::getline(f, s);
  return s;
}

std::string link_target_name(const fs::path& p) {
  std::error_code ec;
  const fs::path target = fs::read_symlink(p, ec);
  return ec ? std::string() : target.filename().string();
}

fs::path sysfs_root() {
  const char* env = std::getenv("AMCL_SYSFS_ROOT");
  return env && *env ? fs::path(env) : fs::path("/sys");
}

std::vector<PciFunction> scan_pci(const fs::path& root) {
  std::vector<PciFunction> out;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(root / "bus/pci/devices", ec)) {
    const fs::path dev = entry.path();
    PciFunction f;
    f.vendor = uint16_t(std::strtoul(read_line(dev / "vendor").c_str(), nullptr, 16));
    f.device = uint16_t(std::strtoul(read_line(dev / "device").c_str(), nullptr, 16));
    if (f.vendor != hw::kVendorAmd) continue;
    for (const hw::PciPart& part : hw::kKnownParts)
      if (part.device == f.device) f.gfx = part.gfx, f.name = part.marketing;
    if (f.gfx.empty()) continue; // not an RDNA3/RDNA4 GPU function (audio, older parts...)
    f.address = dev.filename().string();
    f.revision = uint8_t(std::strtoul(read_line(dev / "revision").c_str(), nullptr, 16));
    f.driver = link_target_name(dev / "driver");
    f.iommu_group = link_target_name(dev / "iommu_group");
    f.bar0_bytes = bar0_size(dev);
    out.push_back(f);
  }
  std::sort(out.begin(), out.end(), [](const PciFunction& a, const PciFunction& b) { return a.address < b.address; });
  return out;
}

std::string usability(const PciFunction& f) {
  if (f.driver == "vfio-pci")
    return f.iommu_group.empty() ? "bound to vfio-pci without an IOMMU group: use VFIO=0 (no-IOMMU mode)" : "";
  if (!f.driver.empty())
    return "bound to " + f.driver + ", which owns the card: `sudo amcl-smi bind " + f.address +
           "` hands it to vfio-pci for amcl";
  return f.iommu_group.empty()
             ? "no driver and no IOMMU group: amcl drives it through sysfs without an IOMMU (its "
               "DMA unprotected); enable the IOMMU (intel_iommu=on / amd_iommu=on) for vfio-pci"
             : "no driver: `sudo amcl-smi bind " + f.address + "` binds it to vfio-pci";
}

std::string bind_vfio(const fs::path& root, const std::string& address) {
  std::string why;
  const fs::path dev = device_dir(root, address, why);
  if (!why.empty()) return why;
  std::error_code ec;
  if (!fs::exists(root / "bus/pci/drivers/vfio-pci", ec))
    return "the vfio-pci driver is not loaded: run `sudo modprobe vfio-pci` first";
  const std::string driver = link_target_name(dev / "driver");
  if (driver == "vfio-pci") return "";
  // Ask for vfio-pci, release the current driver, and let the PCI core probe again.
  if (std::string e = write_attr(dev / "driver_override", "vfio-pci"); !e.empty()) return e;
  if (!driver.empty())
    if (std::string e = write_attr(dev / "driver/unbind", address); !e.empty()) return e;
  if (std::string e = write_attr(root / "bus/pci/drivers_probe", address); !e.empty()) return e;
  return "";
}

std::string unbind_vfio(const fs::path& root, const std::string& address) {
  std::string why;
  const fs::path dev = device_dir(root, address, why);
  if (!why.empty()) return why;
  const std::string driver = link_target_name(dev / "driver");
  if (!driver.empty() && driver != "vfio-pci")
    return address + " is bound to " + driver + ", not vfio-pci: nothing to do";
  if (!driver.empty())
    if (std::string e = write_attr(dev / "driver/unbind", address); !e.empty()) return e;
  // An empty override lets the default driver (amdgpu) claim the card at the next probe.
  if (std::string e = write_attr(dev / "driver_override", "\n"); !e.empty()) return e;
  if (std::string e = write_attr(root / "bus/pci/drivers_probe", address); !e.empty()) return e;
  return "";
}

} // namespace am
