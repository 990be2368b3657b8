#include "device_backends.h"

#include "am/enumerate.h"
#include "sim/gpu.h"

#include <cstdio>
#include <cstdlib>
#include <sstream>

namespace amcl::rt {

std::vector<std::shared_ptr<am::Pci>> open_device_backends(std::vector<std::string>* messages_out) {
  std::vector<std::string> messages;
  std::vector<std::shared_ptr<am::Pci>> out;
  const char* env = std::getenv("AMCL_DEVICES");
  std::string spec = env && *env ? env : "auto";
  unsigned sim_index = 0;
  std::stringstream ss(spec);
  std::string item;
  while (std::getline(ss, item, ',')) {
    if (item == "auto") {
      bool found_real = false;
      for (auto& pci : am::open_real_cards(messages, found_real)) out.push_back(std::move(pci));
      if (found_real) continue;
      item = "sim:gfx1100"; // a fresh machine runs OpenCL programs at once
    }
    if (item.rfind("sim:", 0) == 0) {
      try {
        out.push_back(sim::open_emulated_gpu(item.substr(4), sim_index++));
      } catch (const std::exception& e) {
        messages.push_back(item + ": " + e.what());
      }
      continue;
    }
    if (am::is_pci_address(item)) {
      if (auto pci = am::open_real_card(item, messages)) out.push_back(std::move(pci));
      continue;
    }
    messages.push_back("AMCL_DEVICES entry '" + item +
                       "' not understood (use auto, sim:gfx1100, sim:gfx1201 or a PCI address)");
  }
  if (messages_out) *messages_out = messages;
  for (auto& m : messages) std::fprintf(stderr, "amcl: %s\n", m.c_str());
  return out;
}

} // namespace amcl::rt
