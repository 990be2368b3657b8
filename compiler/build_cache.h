// On-disk cache of builds: the code object and build log of a clBuildProgram, keyed by
// everything that changes them (source, options, target, extensions and features, the
// compiler's version and the libclc library's content). Entries are written atomically, so
// concurrent builds in one or several processes are safe.
//   AMCL_CACHE_DIR: where entries live (default $XDG_CACHE_HOME/amcl, else ~/.cache/amcl)
//   AMCL_CACHE=0:   no cache
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace amcl::compiler {

struct CachedBuild {
  std::vector<uint8_t> binary;
  std::string log;
};

class BuildCache {
public:
  // The cache the environment asks for; disabled() when there is none.
  static BuildCache& process();
  bool disabled() const { return dir_.empty(); }
  const std::string& directory() const { return dir_; }

  std::optional<CachedBuild> load(const std::string& key) const;
  void store(const std::string& key, const CachedBuild& build) const;

private:
  BuildCache();
  std::string dir_;
};

// Hex SHA-256 of the parts (length-prefixed, so parts cannot run into each other).
std::string cache_key(const std::vector<std::string>& parts);

} // namespace amcl::compiler
