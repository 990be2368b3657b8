// amcl-smi: lists the GPUs amcl can see — every AMD display function on the PCI bus with its
// kernel driver, IOMMU group (and what else is in it), vfio's state, lock holder and what amcl
// would do with it, and the emulated cards AMCL_DEVICES asks for — moves a card between its
// kernel driver and vfio-pci, and says how a card was left without booting it.
//
//   amcl-smi                                list
//   amcl-smi bind <address> [--with-group]  hand a card to vfio-pci (root, vfio-pci loaded);
//                                           --with-group moves its HDMI/DP audio function too
//   amcl-smi unbind <address> [--with-group] give it back to its default driver (amdgpu)
//   amcl-smi status <address | sim:gfx...>  boot state (SCRATCH_REG7) and firmware, no boot
#include "smi.h"

#include <cstdio>
#include <string>

namespace {

int usage() {
  std::fprintf(stderr, "usage: amcl-smi [bind <pci address> [--with-group] | unbind <pci address> "
                       "[--with-group] | status <pci address>]\n");
  return 2;
}

} // namespace

int main(int argc, char** argv) {
  if (argc == 1) return smi::list();
  if (argc < 3 || argc > 4) return usage();
  const std::string cmd = argv[1], address = argv[2];
  const bool with_group = argc == 4 && std::string(argv[3]) == "--with-group";
  if (argc == 4 && !with_group) return usage();
  if (cmd == "bind") return smi::bind(address, with_group);
  if (cmd == "unbind") return smi::unbind(address, with_group);
  if (cmd == "status" && argc == 3) return smi::status(address);
  return usage();
}
