// amcl-smi status: how a card was left (SCRATCH_REG7: fresh, left by amdgpu, left by amcl) and
// its firmware's state, read through its BARs without booting (am/boot_probe.h). The card is
// opened as amcl opens it, so its lock is taken while it is read and a card in use is refused.
#include "smi.h"

#include "am/boot_probe.h"
#include "am/enumerate.h"
#include "am/sysfs_pci.h"
#include "sim/gpu.h"

#include <cstdio>

namespace smi {
namespace {

void print_probe(const std::string& address, am::Pci& pci) {
  const am::BootProbe p = am::probe_boot_state(pci);
  std::printf("%s: %s (GC %s)\n", address.c_str(), p.gfx.c_str(), p.gc_version.c_str());
  std::printf("  boot state: %s; SCRATCH_REG7 = 0x%08x\n", p.found.c_str(), p.scratch7);
  std::printf("  PSP: sOS %s, bootloader %s\n", p.sos_alive ? "running" : "not running",
              p.bootloader_ready ? "ready" : "not ready");
  if (p.smu_responding)
    std::printf("  SMU: firmware version 0x%08x\n", p.smu_version);
  else
    std::printf("  SMU: not answering (no firmware loaded since power-on or reset)\n");
  std::printf("  amcl would: %s\n", p.am_marker   ? "re-initialise GFX and SDMA only (fast path)"
                                    : p.sos_alive ? "mode1-reset the card, then boot it fully"
                                                  : "boot it fully");
}

} // namespace

int status(const std::string& address) {
  try {
    if (address.rfind("sim:", 0) == 0) { // an emulated card: fresh in every process
      auto gpu = sim::open_emulated_gpu(address.substr(4), 0);
      print_probe(gpu->address(), *gpu);
      return 0;
    }
    for (const am::PciFunction& f : am::scan_pci(am::sysfs_root()))
      if (f.address == address && !f.driver.empty() && f.driver != "vfio-pci") {
        std::printf("%s: %s, driven by %s now; amcl would find it left by another driver and "
                    "mode1-reset it (`sudo amcl-smi bind %s` hands it over)\n",
                    address.c_str(), f.name.c_str(), f.driver.c_str(), address.c_str());
        return 0;
      }
    std::vector<std::string> messages;
    am::RealCard card = am::open_real_card(address, messages);
    if (card.held) {
      std::fprintf(stderr, "amcl-smi status %s: %s\n", address.c_str(), card.held->message.c_str());
      return 1;
    }
    if (!card.pci) {
      for (const std::string& m : messages)
        std::fprintf(stderr, "amcl-smi status %s: %s\n", address.c_str(), m.c_str());
      return 1;
    }
    print_probe(address, *card.pci);
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "amcl-smi status %s: %s\n", address.c_str(), e.what());
    return 1;
  }
}

} // namespace smi
