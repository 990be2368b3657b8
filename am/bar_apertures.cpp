#include "bar_apertures.h"

#include <cinttypes>
#include <cstdio>
#include <fstream>
#include <map>
#include <mutex>
#include <string>

namespace am {
namespace {

struct Aperture {
  uint64_t size, bus;
};

struct Registry {
  std::mutex mutex;
  std::map<uintptr_t, Aperture> by_base;
};

// Never destroyed: devices may unregister during exit.
Registry& registry() {
  static auto* r = new Registry;
  return *r;
}

} // namespace

void register_aperture(const void* cpu, uint64_t size, uint64_t bus) {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  r.by_base[reinterpret_cast<uintptr_t>(cpu)] = Aperture{size, bus};
}

void unregister_aperture(const void* cpu) {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  r.by_base.erase(reinterpret_cast<uintptr_t>(cpu));
}

std::optional<uint64_t> aperture_bus_address(const void* host, uint64_t size) {
  const uintptr_t p = reinterpret_cast<uintptr_t>(host);
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  auto it = r.by_base.upper_bound(p);
  if (it == r.by_base.begin()) return std::nullopt;
  --it;
  const uint64_t offset = p - it->first;
  if (offset >= it->second.size || size > it->second.size - offset) return std::nullopt;
  return it->second.bus + offset;
}

std::vector<uint64_t> contiguous_pages(uint64_t bus, uint64_t size) {
  std::vector<uint64_t> pages(size / 4096);
  for (size_t i = 0; i < pages.size(); ++i) pages[i] = bus + i * 4096;
  return pages;
}

std::optional<uint64_t> sysfs_bar_start(const std::filesystem::path& device_dir, unsigned index) {
  std::ifstream in(device_dir / "resource");
  std::string line;
  for (unsigned i = 0; i <= index; ++i)
    if (!std::getline(in, line)) return std::nullopt;
  uint64_t start = 0, end = 0, flags = 0;
  if (std::sscanf(line.c_str(), "%" SCNx64 " %" SCNx64 " %" SCNx64, &start, &end, &flags) != 3 ||
      start == 0)
    return std::nullopt;
  return start;
}

} // namespace am
