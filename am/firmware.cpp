#include "firmware.h"

#include "ip_discovery.h"

#include <algorithm>
#include <cstdlib>

namespace am {
namespace fs = std::filesystem;

fs::path firmware_dir() {
  const char* env = std::getenv("AMCL_FIRMWARE_DIR");
  return env && *env ? fs::path(env) : fs::path("/lib/firmware/amdgpu");
}

std::vector<std::string> gc_firmware_files(const fs::path& dir, const std::string& gfx) {
  // The GC versions of this processor, from the same table the driver maps versions with.
  std::vector<std::string> prefixes;
  for (uint8_t major : {11, 12})
    for (uint8_t minor = 0; minor <= 5; ++minor)
      for (uint8_t rev = 0; rev <= 4; ++rev) {
        IpBlock gc;
        gc.major = major, gc.minor = minor, gc.revision = rev;
        if (gfx_target_of(gc) == gfx)
          prefixes.push_back("gc_" + std::to_string(major) + "_" + std::to_string(minor) + "_" +
                             std::to_string(rev) + "_");
      }
  std::vector<std::string> files;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    for (const std::string& p : prefixes)
      if (name.starts_with(p)) files.push_back(name);
  }
  std::sort(files.begin(), files.end());
  return files;
}

} // namespace am
