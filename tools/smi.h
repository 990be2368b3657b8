// amcl-smi's commands (tools/amcl_smi.cpp dispatches): the listing, bind/unbind with the checks
// a user needs, and status. Each works on the sysfs root am::sysfs_root() gives, so the tests
// run them on a fake tree (tools/amcl_smi_test.sh).
#pragma once
#include <filesystem>
#include <string>
#include <vector>

namespace smi {

// An AMD PCI function as sysfs shows it: the GPUs and what shares their IOMMU group.
struct AmdFunction {
  std::string address, driver, iommu_group;
  uint16_t device = 0;
  uint32_t pci_class = 0; // 0x030000 display, 0x040300 HDMI/DP audio; 0 when sysfs has none
};

// Every AMD function below `root`, in address order.
std::vector<AmdFunction> amd_functions(const std::filesystem::path& root);
// The other functions of `group` (IOMMU group number) than `address`.
std::vector<AmdFunction> group_peers(const std::filesystem::path& root, const std::string& group,
                                     const std::string& address);
// "HDMI/DP audio", "display", "PCI class 0x..." for a message.
std::string describe_class(uint32_t pci_class);
// Whether the vfio-pci driver is loaded, and whether vfio allows no-IOMMU mode.
bool vfio_pci_loaded(const std::filesystem::path& root);
bool noiommu_allowed(const std::filesystem::path& root);

// Loads vfio-pci with disable_idle_d3 when it is not loaded, or sets the parameter on a module
// loaded without it (smi_vfio_module.cpp); why it could not, or "".
std::string load_vfio_pci(const std::filesystem::path& root);

int list();                                              // smi_list.cpp
int bind(const std::string& address, bool with_group);   // smi_bind.cpp
int unbind(const std::string& address, bool with_group); // smi_bind.cpp
int status(const std::string& address);                  // smi_status.cpp

} // namespace smi
