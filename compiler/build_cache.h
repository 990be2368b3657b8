// On-disk cache of builds: the code object and build log of a clBuildProgram, keyed by
// everything that changes them (source, options, target, extensions and features, the
// compiler's version and the libclc library's content). Each entry carries a SHA-256 over all
// of it, so a damaged entry (a crash or a full disk mid-write, a bad sector) is a miss, never a
// wrong binary; entries are written to a private file and renamed into place, so a concurrent
// build in this or another process sees a whole entry or none.
//   AMCL_CACHE_DIR:    where entries live (default $XDG_CACHE_HOME/amcl, else ~/.cache/amcl)
//   AMCL_CACHE=0:      no cache
//   AMCL_CACHE_MAX_MB: size bound in MiB (default 256; 0: none); least recently used go first
#pragma once
#include <atomic>
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
  static constexpr uint64_t kDefaultMaxBytes = uint64_t(256) << 20;

  // The cache the environment asks for (read once); disabled() when there is none.
  static BuildCache& process();
  // How much the caches say on stderr (AM_DEBUG's levels: 1 damaged entries and failed writes,
  // 2 evictions). The runtime passes the level the driver parsed; compiler/ reads no AM_DEBUG
  // of its own, so a malformed value is refused in one place.
  static void set_log_level(int level);
  // A cache in `dir` (created if missing; empty: disabled) holding at most `max_bytes` of
  // entries (0: no bound).
  explicit BuildCache(std::string dir, uint64_t max_bytes = kDefaultMaxBytes);

  bool disabled() const { return dir_.empty(); }
  const std::string& directory() const { return dir_; }
  uint64_t max_bytes() const { return max_bytes_; }

  // The entry stored under `key` (a cache_key()), or nullopt when there is none or it is
  // damaged; a damaged entry is removed (AM_DEBUG >= 1 says so). A hit marks it recently used.
  std::optional<CachedBuild> load(const std::string& key) const;
  // Stores (or replaces) the entry, then evicts least recently used entries when the
  // directory holds more than max_bytes(); an entry larger than the bound is not stored.
  // Failures (a full disk, a read-only directory) only cost the entry.
  void store(const std::string& key, const CachedBuild& build) const;

  // The directory is scanned (sizes summed, stale temporaries removed, entries evicted) at a
  // process's first store, when its own stores since the last scan would pass the bound, and
  // after this many stores (to count other processes' entries): with ten thousand entries,
  // a scan per store cost a program build 70 ms.
  static constexpr unsigned kRescanEvery = 64;

private:
  // Scans and evicts; returns the bytes of entries left.
  uint64_t evict(const std::string& keep) const;

  std::string dir_;
  uint64_t max_bytes_;
  // Entry bytes the directory held at the last scan plus those stored since, and the stores
  // since (kRescanEvery before the first, so it scans).
  mutable std::atomic<uint64_t> tracked_bytes_{0};
  mutable std::atomic<unsigned> stores_since_scan_{kRescanEvery};
};

// Hex SHA-256 of the parts (length-prefixed, so parts cannot run into each other).
std::string cache_key(const std::vector<std::string>& parts);

} // namespace amcl::compiler
