// On-disk cache of builds: the code object and build log of a clBuildProgram, keyed by
// everything that changes them (source, options, target, extensions and features, the
// compiler's version and the libclc library's content). Each entry carries a SHA-256 over all
// of it, so a damaged entry (a crash or a full disk mid-write, a bad sector) is a miss, never a
// wrong binary; entries are written to a private file and renamed into place, so a concurrent
// build in this or another process sees a whole entry or none.
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
  // The cache the environment asks for (read once); disabled() when there is none.
  static BuildCache& process();
  // A cache in `dir` (created if missing; empty: disabled).
  explicit BuildCache(std::string dir);

  bool disabled() const { return dir_.empty(); }
  const std::string& directory() const { return dir_; }

  // The entry stored under `key` (a cache_key()), or nullopt when there is none or it is
  // damaged; a damaged entry is removed (AM_DEBUG >= 1 says so).
  std::optional<CachedBuild> load(const std::string& key) const;
  // Stores (or replaces) the entry. Failures (a full disk, a read-only directory) only cost
  // the entry.
  void store(const std::string& key, const CachedBuild& build) const;

private:
  std::string dir_;
};

// Hex SHA-256 of the parts (length-prefixed, so parts cannot run into each other).
std::string cache_key(const std::vector<std::string>& parts);

} // namespace amcl::compiler
