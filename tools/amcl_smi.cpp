// amcl-smi: lists the GPUs amcl can see — real RDNA3/RDNA4 cards on the PCI bus with their
// kernel driver, IOMMU group, VRAM aperture and firmware files, and the emulated cards
// AMCL_DEVICES asks for, booted to show their state — says which process holds a card (its
// lock, am/card_lock.h), and moves a card between its kernel driver and vfio-pci.
//
//   amcl-smi                 list
//   amcl-smi bind <address>  hand a card to vfio-pci (needs root and the vfio-pci module)
//   amcl-smi unbind <address> give it back to its default driver (amdgpu)
#include "am/card_lock.h"
#include "am/device.h"
#include "am/firmware.h"
#include "am/sysfs_pci.h"
#include "sim/gpu.h"

#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>

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
  return std::to_string(files.size()) + " GC firmware files in " + dir.string() + " (" + files.front() + ", ...)";
}

void list_real(bool& any_usable) {
  const auto functions = am::scan_pci(am::sysfs_root());
  std::printf("PCI (%s): %zu RDNA3/RDNA4 card%s\n", am::sysfs_root().c_str(), functions.size(),
              functions.size() == 1 ? "" : "s");
  for (const am::PciFunction& f : functions) {
    std::printf("  %s  %s (%s, 1002:%04x)\n", f.address.c_str(), f.name.c_str(), f.gfx.c_str(), f.device);
    std::printf("    driver: %s, IOMMU group: %s, VRAM aperture (BAR0): %s\n",
                f.driver.empty() ? "none" : f.driver.c_str(),
                f.iommu_group.empty() ? "none (IOMMU off)" : f.iommu_group.c_str(), gib(f.bar0_bytes).c_str());
    std::printf("    firmware: %s\n", firmware_summary(f.gfx).c_str());
    if (auto holder = am::card_lock_holder(f.address))
      std::printf("    in use: %s\n", am::describe_holder(f.address, holder).c_str());
    else
      std::printf("    lock: %s, free\n", am::card_lock_path(f.address).c_str());
    const std::string why = am::usability(f);
    std::printf("    amcl: %s\n", why.empty() ? "ready for vfio-pci (the real-hardware backend is not built yet)"
                                              : why.c_str());
    any_usable |= why.empty();
  }
}

// The emulated cards AMCL_DEVICES names ("auto": one gfx1100 when no real card is usable).
void list_emulated(bool any_real_usable) {
  const char* env = std::getenv("AMCL_DEVICES");
  std::string spec = env && *env ? env : "auto";
  std::stringstream ss(spec);
  std::string item;
  unsigned index = 0;
  std::printf("emulated (AMCL_DEVICES=%s):\n", spec.c_str());
  while (std::getline(ss, item, ',')) {
    if (item == "auto") {
      if (any_real_usable) continue;
      item = "sim:gfx1100";
    }
    if (item.rfind("sim:", 0) != 0) continue;
    try {
      am::Device dev(sim::open_emulated_gpu(item.substr(4), index++));
      const am::DeviceInfo& info = dev.info();
      std::printf("  %s  %s (%s)\n", info.pci_address.c_str(), info.name.c_str(), info.gfx.c_str());
      std::printf("    booted: %s; VRAM %s, %u compute units, %zu IP blocks in its discovery table\n",
                  am::to_string(dev.boot_state()), gib(info.vram_size).c_str(), info.compute_units,
                  dev.ip_discovery().blocks.size());
      if (!dev.firmware_source().empty())
        std::printf("    firmware: %s, SMU firmware version 0x%08x\n", dev.firmware_source().c_str(),
                    dev.smu_version());
    } catch (const std::exception& e) {
      std::printf("  %s: %s\n", item.c_str(), e.what());
    }
  }
}

int usage() {
  std::fprintf(stderr, "usage: amcl-smi [bind <pci address> | unbind <pci address>]\n");
  return 2;
}

} // namespace

int main(int argc, char** argv) {
  if (argc == 1) {
    bool usable = false;
    list_real(usable);
    list_emulated(usable);
    return 0;
  }
  if (argc != 3) return usage();
  const std::string cmd = argv[1], address = argv[2];
  std::string error;
  if (cmd == "bind") error = am::bind_vfio(am::sysfs_root(), address);
  else if (cmd == "unbind") error = am::unbind_vfio(am::sysfs_root(), address);
  else return usage();
  if (!error.empty()) {
    std::fprintf(stderr, "amcl-smi %s %s: %s\n", cmd.c_str(), address.c_str(), error.c_str());
    return 1;
  }
  std::printf("%s: %s\n", address.c_str(),
              cmd == "bind" ? "bound to vfio-pci" : "released to its default driver");
  return 0;
}
