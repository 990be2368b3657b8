// The PCI functions amcl could drive, as Linux's sysfs shows them, and moving one between its
// kernel driver and vfio-pci (Documentation/ABI/testing/sysfs-bus-pci: driver_override,
// drivers_probe, driver/unbind; Documentation/driver-api/vfio.rst).
//
// Everything works on a sysfs root given by the caller ("/sys", or a directory tree made by a
// test), so the logic is tested without hardware or root rights.
#pragma once
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace am {

struct PciFunction {
  std::string address;      // "0000:03:00.0"
  uint16_t vendor = 0, device = 0;
  uint8_t revision = 0;     // config space byte 8, as sysfs "revision" shows it
  std::string gfx;          // LLVM processor from the PCI id table ("gfx1100")
  std::string name;         // marketing name
  std::string driver;       // bound kernel driver ("amdgpu", "vfio-pci"), "" when none
  std::string iommu_group;  // "12", "" when the IOMMU is off
  uint64_t bar0_bytes = 0;  // the VRAM aperture (all of VRAM with resizable BAR)
};

// A sysfs attribute's first line ("" when unreadable), and the last component a symlink points
// at ("driver" -> .../drivers/amdgpu gives "amdgpu"; "" when it is no link).
std::string read_line(const std::filesystem::path& p);
std::string link_target_name(const std::filesystem::path& p);

// The sysfs root: $AMCL_SYSFS_ROOT when set (tests), else /sys.
std::filesystem::path sysfs_root();

// Every RDNA3/RDNA4 function below `root`/bus/pci/devices, in address order.
std::vector<PciFunction> scan_pci(const std::filesystem::path& root);

// Why amcl cannot drive `f` as it is now, and what to do, or "" when it can (bound to
// vfio-pci with an IOMMU group, or unbound with VFIO=0's no-IOMMU mode in mind).
std::string usability(const PciFunction& f);

// Moves a function to vfio-pci (bind) or back to the default kernel driver (unbind).
// Returns "" on success, else a message that says what failed and what to do (load the
// vfio-pci module, run as root, ...). Nothing is changed when a precondition fails.
std::string bind_vfio(const std::filesystem::path& root, const std::string& address);
std::string unbind_vfio(const std::filesystem::path& root, const std::string& address);

} // namespace am
