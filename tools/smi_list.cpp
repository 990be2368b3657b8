// amcl-smi's listing: every AMD display function on the PCI bus (the RDNA3/RDNA4 cards with
// their state and what amcl would do with them, others named and left alone), then the
// emulated cards AMCL_DEVICES asks for, booted to show their state.
#include "smi.h"

#include "am/card_lock.h"
#include "am/device.h"
#include "am/device_list.h"
#include "am/firmware.h"
#include "am/sysfs_pci.h"
#include "sim/gpu.h"

#include <cstdio>

namespace smi {
namespace {

std::string gib(uint64_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f GiB", double(bytes) / double(1ull << 30));
  return buf;
}

std::string firmware_summary(const std::string& gfx) {
  const auto dir = am::firmware_dir();
  const auto files = am::gc_firmware_files(dir, gfx);
  if (files.empty())
    return "no GC firmware for " + gfx + " in " + dir.string() + " (Debian: firmware-amd-graphics)";
  return std::to_string(files.size()) + " GC firmware files in " + dir.string() + " (" +
         files.front() + ", ...)";
}

void list_card(const std::filesystem::path& root, const am::PciFunction& f, bool& any_usable) {
  std::printf("  %s  %s (%s, 1002:%04x)\n", f.address.c_str(), f.name.c_str(), f.gfx.c_str(),
              f.device);
  std::printf("    driver: %s, IOMMU group: %s, VRAM aperture (BAR0): %s\n",
              f.driver.empty() ? "none" : f.driver.c_str(),
              f.iommu_group.empty() ? "none (IOMMU off)" : f.iommu_group.c_str(),
              gib(f.bar0_bytes).c_str());
  std::printf("    vfio: vfio-pci %s%s\n",
              vfio_pci_loaded(root) ? "loaded" : "not loaded (sudo modprobe vfio-pci)",
              f.iommu_group.empty()
                  ? (noiommu_allowed(root) ? ", no-IOMMU mode allowed (DMA unprotected)"
                                           : ", no IOMMU: vfio-pci cannot take it unless "
                                             "no-IOMMU mode is enabled")
                  : "");
  for (const AmdFunction& peer : group_peers(root, f.iommu_group, f.address))
    std::printf("    IOMMU group %s also holds %s (%s, driver %s)\n", f.iommu_group.c_str(),
                peer.address.c_str(), describe_class(peer.pci_class).c_str(),
                peer.driver.empty() ? "none" : peer.driver.c_str());
  std::printf("    firmware: %s\n", firmware_summary(f.gfx).c_str());
  if (auto holder = am::card_lock_holder(f.address))
    std::printf("    in use: %s\n", am::describe_holder(f.address, holder).c_str());
  else
    std::printf("    lock: %s, free\n", am::card_lock_path(f.address).c_str());
  const std::string why = am::usability(f);
  std::printf("    amcl: %s\n",
              why.empty() ? "ready: amcl drives it through vfio-pci" : why.c_str());
  any_usable |= why.empty();
}

void list_real(bool& any_usable) {
  const std::filesystem::path root = am::sysfs_root();
  const auto cards = am::scan_pci(root);
  std::printf("PCI (%s): %zu RDNA3/RDNA4 card%s\n", root.c_str(), cards.size(),
              cards.size() == 1 ? "" : "s");
  for (const am::PciFunction& f : cards) list_card(root, f, any_usable);
  for (const AmdFunction& f : amd_functions(root)) {
    if (f.pci_class >> 16 != 0x03) continue; // audio and bridges show beside their GPU
    bool known = false;
    for (const am::PciFunction& c : cards) known |= c.address == f.address;
    if (!known)
      std::printf("  %s  AMD display function 1002:%04x (driver %s): not an RDNA3/RDNA4 GPU, "
                  "amcl leaves it alone\n",
                  f.address.c_str(), f.device, f.driver.empty() ? "none" : f.driver.c_str());
  }
}

// The emulated cards AMCL_DEVICES names ("auto": one gfx1100 when no real card is usable).
void list_emulated(bool any_real_usable) {
  const char* env = std::getenv("AMCL_DEVICES");
  std::printf("emulated (AMCL_DEVICES=%s):\n", env && *env ? env : "auto");
  unsigned index = 0;
  for (const am::DeviceListEntry& entry : am::device_list_from_environment()) {
    std::string gfx = entry.target;
    if (entry.kind == am::DeviceListEntry::Auto) {
      if (any_real_usable) continue;
      gfx = "gfx1100";
    } else if (entry.kind == am::DeviceListEntry::Unknown) {
      std::printf("  %s\n", am::device_list_entry_error(entry).c_str());
      continue;
    } else if (entry.kind != am::DeviceListEntry::Emulated) {
      continue; // a PCI address: listed above
    }
    try {
      am::Device dev(sim::open_emulated_gpu(gfx, index++));
      const am::DeviceInfo& info = dev.info();
      std::printf("  %s  %s (%s)\n", info.pci_address.c_str(), info.name.c_str(), info.gfx.c_str());
      std::printf(
          "    booted: %s; VRAM %s, %u compute units, %zu IP blocks in its discovery table\n",
          am::to_string(dev.boot_state()), gib(info.vram_size).c_str(), info.compute_units,
          dev.ip_discovery().blocks.size());
      if (!dev.firmware_source().empty())
        std::printf("    firmware: %s, SMU firmware version 0x%08x\n",
                    dev.firmware_source().c_str(), dev.smu_version());
    } catch (const std::exception& e) {
      std::printf("  sim:%s: %s\n", gfx.c_str(), e.what());
    }
  }
}

} // namespace

int list() {
  bool usable = false;
  list_real(usable);
  list_emulated(usable);
  return 0;
}

} // namespace smi
