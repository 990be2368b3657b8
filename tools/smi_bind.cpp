// amcl-smi bind / unbind: move a card between its kernel driver (amdgpu) and vfio-pci through
// sysfs (driver_override, driver/unbind, drivers_probe: Documentation/ABI/testing/sysfs-bus-pci),
// after the checks that say what to do instead of failing halfway: root, the card in use (its
// lock), vfio-pci loaded, the IOMMU (vfio's no-IOMMU mode), and the other functions of its
// IOMMU group (the card's HDMI/DP audio), which vfio-pci needs too (vfio.rst, "viable" groups).
#include "smi.h"

#include "am/card_lock.h"
#include "am/sysfs_pci.h"

#include <cstdio>
#include <cstdlib>
#include <optional>
#include <unistd.h>

namespace smi {
namespace {

// Root, as sysfs writes need. AMCL_SMI_ASSUME_ROOT=0/1 answers instead, for tests on a fake
// sysfs tree (honoured only with AMCL_SYSFS_ROOT set: on the real /sys the answer is geteuid's).
bool is_root() {
  const char* fake = std::getenv("AMCL_SYSFS_ROOT");
  const char* assume = std::getenv("AMCL_SMI_ASSUME_ROOT");
  if (fake && *fake && assume && *assume) return std::string(assume) == "1";
  return ::geteuid() == 0;
}

int refuse(const char* cmd, const std::string& address, const std::string& why) {
  std::fprintf(stderr, "amcl-smi %s %s: %s\n", cmd, address.c_str(), why.c_str());
  return 1;
}

// The RDNA3/RDNA4 card at `address`, or nothing.
std::optional<am::PciFunction> card_at(const std::filesystem::path& root,
                                       const std::string& address) {
  for (const am::PciFunction& f : am::scan_pci(root))
    if (f.address == address) return f;
  return std::nullopt;
}

// Refusals both directions share: not root, no such card, the card in use.
std::string common_checks(const std::filesystem::path& root, const std::string& address,
                          const char* cmd) {
  if (!is_root())
    return std::string("moving a card between drivers writes sysfs, which needs root: `sudo "
                       "amcl-smi ") +
           cmd + " " + address + "`";
  if (!card_at(root, address))
    return "no RDNA3/RDNA4 card at " + address + " (`amcl-smi` lists them; `lspci -D -d 1002:`)";
  if (auto holder = am::card_lock_holder(address))
    return "the card is in use: " + am::describe_holder(address, holder);
  return "";
}

} // namespace

int bind(const std::string& address, bool with_group) {
  const std::filesystem::path root = am::sysfs_root();
  if (std::string why = common_checks(root, address, "bind"); !why.empty())
    return refuse("bind", address, why);
  const am::PciFunction f = *card_at(root, address);
  if (f.driver == "vfio-pci") {
    std::printf("%s: already bound to vfio-pci\n", address.c_str());
    return 0;
  }
  if (std::string why = load_vfio_pci(root); !why.empty()) return refuse("bind", address, why);
  if (f.iommu_group.empty()) {
    if (!noiommu_allowed(root))
      return refuse(
          "bind", address,
          "the IOMMU is off (the card has no IOMMU group), so vfio-pci takes it only in vfio's "
          "no-IOMMU mode. Either enable the IOMMU (amd_iommu=on or intel_iommu=on, and iommu=pt, "
          "on the kernel command line; IOMMU/VT-d on in the firmware setup), or allow no-IOMMU "
          "mode (`sudo modprobe vfio enable_unsafe_noiommu_mode=1`: the card's DMA is then "
          "unprotected), or leave the card unbound and run amcl with VFIO=0");
    std::fprintf(stderr,
                 "amcl-smi: warning: the IOMMU is off; vfio-pci takes %s in no-IOMMU mode, where "
                 "nothing stops the card's DMA from reaching any memory\n",
                 address.c_str());
  }
  // vfio-pci hands out a group only when each of its functions is bound to vfio-pci or to no
  // driver: the card's HDMI/DP audio must move too.
  std::vector<AmdFunction> movers;
  std::string blocking;
  for (const AmdFunction& peer : group_peers(root, f.iommu_group, address)) {
    if (peer.driver.empty() || peer.driver == "vfio-pci") continue;
    movers.push_back(peer);
    blocking += (blocking.empty() ? "" : ", ") + peer.address + " (" +
                describe_class(peer.pci_class) + ", bound to " + peer.driver + ")";
  }
  if (!movers.empty() && !with_group)
    return refuse("bind", address,
                  "IOMMU group " + f.iommu_group + " also holds " + blocking +
                      "; vfio-pci needs every function of the group. Run `sudo amcl-smi bind " +
                      address +
                      " --with-group` to move it to vfio-pci too (the card's HDMI/DP "
                      "audio is silent until `amcl-smi unbind " +
                      address + " --with-group`), or unbind it yourself");
  for (const AmdFunction& peer : movers) {
    if (std::string e = am::bind_vfio(root, peer.address); !e.empty())
      return refuse("bind", address, "moving " + peer.address + " to vfio-pci: " + e);
    std::printf("%s: bound to vfio-pci (IOMMU group %s)\n", peer.address.c_str(),
                f.iommu_group.c_str());
  }
  if (std::string e = am::bind_vfio(root, address); !e.empty()) return refuse("bind", address, e);
  std::printf("%s: bound to vfio-pci\n", address.c_str());
  return 0;
}

int unbind(const std::string& address, bool with_group) {
  const std::filesystem::path root = am::sysfs_root();
  if (std::string why = common_checks(root, address, "unbind"); !why.empty())
    return refuse("unbind", address, why);
  const am::PciFunction f = *card_at(root, address);
  if (std::string e = am::unbind_vfio(root, address); !e.empty())
    return refuse("unbind", address, e);
  std::printf("%s: released to its default driver\n", address.c_str());
  for (const AmdFunction& peer : group_peers(root, f.iommu_group, address)) {
    if (peer.driver != "vfio-pci") continue;
    if (!with_group) {
      std::printf("%s (%s) stays on vfio-pci: `sudo amcl-smi unbind %s --with-group` gives it "
                  "back too\n",
                  peer.address.c_str(), describe_class(peer.pci_class).c_str(), address.c_str());
      continue;
    }
    if (std::string e = am::unbind_vfio(root, peer.address); !e.empty())
      return refuse("unbind", address, "releasing " + peer.address + ": " + e);
    std::printf("%s: released to its default driver\n", peer.address.c_str());
  }
  return 0;
}

} // namespace smi
