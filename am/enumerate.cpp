#include "enumerate.h"

#include "hw/pci_ids.h"
#include "sim/gpu.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace am {
namespace {

std::string read_line(const std::filesystem::path& p) {
  std::ifstream f(p);
  std::string s;
  std::getline(f, s);
  return s;
}

// Lists RDNA3/RDNA4 functions on the PCI bus. Driving them needs the sysfs/vfio backends,
// which are not built yet: each card found is reported and skipped.
void scan_real(std::vector<std::string>& messages, bool& found_any) {
  std::error_code ec;
  for (auto& entry : std::filesystem::directory_iterator("/sys/bus/pci/devices", ec)) {
    auto vendor = read_line(entry.path() / "vendor");
    if (vendor != "0x1002") continue;
    unsigned dev = unsigned(std::strtoul(read_line(entry.path() / "device").c_str(), nullptr, 16));
    for (const auto& part : hw::kKnownParts)
      if (part.device == dev) {
        found_any = true;
        messages.push_back(entry.path().filename().string() + " (" + std::string(part.marketing) +
                           "): real-hardware PCI backend not available yet; skipped");
      }
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
