#include "enumerate.h"

#include "sysfs_pci.h"
#include "sim/gpu.h"

#include <cstdio>
#include <cstdlib>
#include <sstream>

namespace am {
namespace {

// Reports every RDNA3/RDNA4 card on the PCI bus with what stands between it and amcl. Driving
// one needs the vfio-pci backend, which is not built yet: each card is reported and skipped.
void scan_real(std::vector<std::string>& messages, bool& found_any) {
  for (const PciFunction& f : scan_pci(sysfs_root())) {
    found_any = true;
    const std::string why = usability(f);
    messages.push_back(f.address + " (" + f.name + "): " +
                       (why.empty() ? "bound to vfio-pci, but the real-hardware PCI backend is not built yet"
                                    : why) +
                       "; skipped");
  }
}

} // namespace

std::vector<Enumerated> enumerate_devices(std::vector<std::string>* messages_out) {
  std::vector<std::string> messages;
  std::vector<Enumerated> out;
  const char* env = std::getenv("AMCL_DEVICES");
  std::string spec = env && *env ? env : "auto";
  unsigned sim_index = 0;
  std::stringstream ss(spec);
  std::string item;
  while (std::getline(ss, item, ',')) {
    if (item == "auto") {
      bool found_real = false;
      scan_real(messages, found_real);
      if (!found_real) item = "sim:gfx1100";
      else continue;
    }
    if (item.rfind("sim:", 0) == 0) {
      try {
        out.push_back({sim::open_emulated_gpu(item.substr(4), sim_index++)});
      } catch (const std::exception& e) {
        messages.push_back(item + ": " + e.what());
      }
      continue;
    }
    messages.push_back("AMCL_DEVICES entry '" + item + "' not understood (use auto or sim:gfx1100)");
  }
  if (messages_out) *messages_out = messages;
  for (auto& m : messages) std::fprintf(stderr, "amcl: %s\n", m.c_str());
  return out;
}

} // namespace am
