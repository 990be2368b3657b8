#include "build_cache.h"

#include <llvm/ADT/ArrayRef.h>
#include <llvm/Support/SHA256.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <sys/stat.h>
#include <unistd.h>

namespace amcl::compiler {
namespace {

namespace fs = std::filesystem;

// Entry layout (integers little-endian):
//   magic "AMCLBC02" | u64 log size | u64 binary size | log | binary | SHA-256
// The SHA-256 covers the entry's key and everything before it, so a damaged, truncated or
// misnamed entry never verifies. AMCLBC01 entries (no sizes, no digest) are misses.
constexpr std::array<char, 8> kMagic = {'A', 'M', 'C', 'L', 'B', 'C', '0', '2'};
constexpr size_t kHeaderSize = 8 + 8 + 8;
constexpr size_t kDigestSize = 32;
// Far above any code object or build log; a larger file is damage, not an entry.
constexpr uint64_t kMaxEntrySize = uint64_t(1) << 30;
// A writer's temporary file older than this belongs to a writer that died.
constexpr auto kStaleTemporary = std::chrono::hours(1);

std::atomic<int> g_log_level = 0;

int debug_level() {
  return g_log_level.load(std::memory_order_relaxed);
}

// Entries are named by cache_key(): 64 lower-case hex digits. Nothing else in the directory
// is read, counted or removed, except the temporary files store() writes.
bool is_key(const std::string& name) {
  return name.size() == 64 && std::all_of(name.begin(), name.end(), [](char c) {
           return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
         });
}

// store()'s temporary files: ".<key>.<pid>.<n>.tmp".
bool is_temporary(const std::string& name) {
  return name.size() > 65 + 4 && name[0] == '.' && is_key(name.substr(1, 64)) && name[65] == '.' &&
         name.ends_with(".tmp");
}

void put_u64(uint8_t* p, uint64_t v) {
  for (int i = 0; i < 8; ++i) p[i] = uint8_t(v >> (8 * i));
}

bool fail(std::string& why, std::string reason) {
  why = std::move(reason);
  return false;
}

uint64_t get_u64(const uint8_t* p) {
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v |= uint64_t(p[i]) << (8 * i);
  return v;
}

std::array<uint8_t, kDigestSize> digest(const std::string& key, const uint8_t* data, size_t n) {
  llvm::SHA256 h;
  h.update(llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t*>(key.data()), key.size()));
  h.update(llvm::ArrayRef<uint8_t>(data, n));
  return h.final();
}

// The whole file behind `fd`; false on a read error or a file larger than any entry.
bool read_all(int fd, std::vector<uint8_t>& out, std::string& why) {
  struct stat st;
  if (::fstat(fd, &st) != 0) return fail(why, std::strerror(errno));
  if (uint64_t(st.st_size) > kMaxEntrySize)
    return fail(why, std::to_string(st.st_size) + " bytes, larger than any entry");
  out.resize(size_t(st.st_size) + 1); // one more: a file that grew is noticed as a mismatch
  size_t have = 0;
  while (have < out.size()) {
    const ssize_t n = ::read(fd, out.data() + have, out.size() - have);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return fail(why, std::string("read error: ") + std::strerror(errno));
    if (n == 0) break;
    have += size_t(n);
  }
  out.resize(have);
  return true;
}

// Checks a whole entry read from the file named `key`; on success fills `build`.
bool parse_entry(const std::string& key, const std::vector<uint8_t>& e, CachedBuild& build,
                 std::string& why) {
  const std::string truncated = "truncated to " + std::to_string(e.size()) + " bytes";
  if (e.size() < kMagic.size()) return fail(why, truncated);
  if (!std::equal(kMagic.begin(), kMagic.end(), e.begin())) {
    const bool old = std::equal(kMagic.begin(), kMagic.end() - 2, e.begin());
    return fail(why, old ? "entry of an older format" : "not an entry (bad magic)");
  }
  if (e.size() < kHeaderSize + kDigestSize) return fail(why, truncated);
  const uint64_t log_size = get_u64(e.data() + 8), binary_size = get_u64(e.data() + 16);
  const uint64_t payload = e.size() - kHeaderSize - kDigestSize;
  if (log_size > payload || binary_size != payload - log_size)
    return fail(why, "sizes (log " + std::to_string(log_size) + ", binary " +
                         std::to_string(binary_size) + ") do not match its " +
                         std::to_string(e.size()) + " bytes");
  const size_t body = e.size() - kDigestSize;
  const auto want = digest(key, e.data(), body);
  if (!std::equal(want.begin(), want.end(), e.begin() + long(body)))
    return fail(why, "checksum mismatch");
  const auto log = e.begin() + long(kHeaderSize);
  build.log.assign(log, log + long(log_size));
  build.binary.assign(log + long(log_size), log + long(log_size + binary_size));
  return true;
}

bool write_all(int fd, const std::vector<uint8_t>& data) {
  size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += size_t(n);
  }
  return true;
}

std::string default_dir() {
  if (const char* v = std::getenv("AMCL_CACHE"); v && std::strcmp(v, "0") == 0) return "";
  if (const char* v = std::getenv("AMCL_CACHE_DIR"); v && *v) return v;
  if (const char* v = std::getenv("XDG_CACHE_HOME"); v && *v) return std::string(v) + "/amcl";
  if (const char* v = std::getenv("HOME"); v && *v) return std::string(v) + "/.cache/amcl";
  return "";
}

uint64_t default_max_bytes() {
  const char* v = std::getenv("AMCL_CACHE_MAX_MB");
  if (!v || !*v) return BuildCache::kDefaultMaxBytes;
  char* end = nullptr;
  errno = 0;
  const unsigned long long mb = std::strtoull(v, &end, 10);
  if (errno != 0 || *end != '\0' || *v == '-') {
    std::fprintf(stderr, "amcl: AMCL_CACHE_MAX_MB=%s is not a number of MiB; using %llu\n", v,
                 (unsigned long long)(BuildCache::kDefaultMaxBytes >> 20));
    return BuildCache::kDefaultMaxBytes;
  }
  return mb > (UINT64_MAX >> 20) ? 0 : uint64_t(mb) << 20;
}

} // namespace

BuildCache::BuildCache(std::string dir, uint64_t max_bytes)
    : dir_(std::move(dir)), max_bytes_(max_bytes) {
  if (dir_.empty()) return;
  std::error_code ec;
  fs::create_directories(dir_, ec);
  if (ec) {
    std::fprintf(stderr, "amcl: build cache disabled: cannot create %s: %s\n", dir_.c_str(),
                 ec.message().c_str());
    dir_.clear();
  }
}

void BuildCache::set_log_level(int level) {
  g_log_level.store(level, std::memory_order_relaxed);
}

BuildCache& BuildCache::process() {
  static BuildCache cache(default_dir(), default_max_bytes());
  return cache;
}

std::optional<CachedBuild> BuildCache::load(const std::string& key) const {
  if (disabled() || !is_key(key)) return std::nullopt;
  const std::string path = dir_ + "/" + key;
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt; // no entry (or evicted by another process just now)
  struct stat st;
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return std::nullopt;
  }
  std::vector<uint8_t> bytes;
  std::string why;
  CachedBuild build;
  if (read_all(fd, bytes, why) && parse_entry(key, bytes, build, why)) {
    // Mark it used: an entry's modification time is its last use, which eviction orders by.
    ::futimens(fd, nullptr);
    ::close(fd);
    return build;
  }
  // Damaged: remove it, unless a writer has renamed a new entry into its place meanwhile.
  struct stat now;
  if (::stat(path.c_str(), &now) == 0 && now.st_dev == st.st_dev && now.st_ino == st.st_ino)
    ::unlink(path.c_str());
  ::close(fd);
  if (debug_level() >= 1)
    std::fprintf(stderr, "amcl: build cache: discarding corrupt entry %s: %s\n", key.c_str(),
                 why.c_str());
  return std::nullopt;
}

void BuildCache::store(const std::string& key, const CachedBuild& build) const {
  if (disabled() || !is_key(key)) return;
  const size_t log_size = build.log.size(), binary_size = build.binary.size();
  const uint64_t size = kHeaderSize + log_size + binary_size + kDigestSize;
  if (size > kMaxEntrySize || (max_bytes_ != 0 && size > max_bytes_)) return;
  std::vector<uint8_t> e(size);
  std::copy(kMagic.begin(), kMagic.end(), e.begin());
  put_u64(e.data() + 8, log_size);
  put_u64(e.data() + 16, binary_size);
  std::copy(build.log.begin(), build.log.end(), e.begin() + long(kHeaderSize));
  std::copy(build.binary.begin(), build.binary.end(), e.begin() + long(kHeaderSize + log_size));
  const size_t body = e.size() - kDigestSize;
  const auto sum = digest(key, e.data(), body);
  std::copy(sum.begin(), sum.end(), e.begin() + long(body));

  // A temporary file private to this process and call, then a rename: readers see the old
  // entry, the new one or none, never part of one. No fsync: an entry a power loss leaves
  // empty or half written fails its checksum and is rebuilt, which costs less than a sync
  // per build.
  static std::atomic<uint64_t> counter{0};
  std::string tmp;
  int fd = -1;
  for (int attempt = 0; fd < 0 && attempt < 4; ++attempt) {
    tmp = dir_ + "/." + key + "." + std::to_string(::getpid()) + "." +
          std::to_string(counter.fetch_add(1)) + ".tmp";
    fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd >= 0 || errno == EEXIST) continue; // EEXIST: left by a dead process with our pid
    if (errno != ENOENT || attempt > 0) break;
    std::error_code ec; // ENOENT: someone deleted the whole cache; make its directory again
    fs::create_directories(dir_, ec);
    if (ec) break;
  }
  if (fd < 0) return;
  const bool written = write_all(fd, e);
  const bool closed = ::close(fd) == 0; // a full disk may only show here
  if (!written || !closed || ::rename(tmp.c_str(), (dir_ + "/" + key).c_str()) != 0) {
    if (debug_level() >= 1)
      std::fprintf(stderr, "amcl: build cache: cannot write entry %s: %s\n", key.c_str(),
                   std::strerror(errno));
    ::unlink(tmp.c_str());
    return;
  }
  if (max_bytes_ == 0) return;
  const uint64_t tracked = tracked_bytes_.fetch_add(size) + size;
  if (stores_since_scan_.fetch_add(1) + 1 >= kRescanEvery || tracked > max_bytes_) {
    stores_since_scan_ = 0;
    tracked_bytes_ = evict(key);
  }
}

// One pass over the directory: if its entries exceed the bound, the least recently used
// (oldest modification time) go until they fit in 90% of it, so the next stores do not each
// scan and evict again. `keep` (just stored) stays. Other processes may evict, read or write
// at the same time: an entry removed under a reader stays readable through its open file, a
// reader that opens too late has a miss, and a file already gone is skipped.
uint64_t BuildCache::evict(const std::string& keep) const {
  struct Entry {
    std::string path;
    struct timespec used;
    uint64_t size;
  };
  std::vector<Entry> entries;
  uint64_t total = 0;
  const auto stale_before = std::chrono::system_clock::now() - kStaleTemporary;
  std::error_code ec;
  for (fs::directory_iterator it(dir_, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    const bool entry = is_key(name), temporary = !entry && is_temporary(name);
    if (!entry && !temporary) continue;
    const std::string path = it->path().string();
    struct stat st;
    if (::lstat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) continue;
    if (temporary) {
      const auto mtime = std::chrono::system_clock::from_time_t(st.st_mtim.tv_sec);
      if (mtime < stale_before) ::unlink(path.c_str()); // its writer died mid-write
      continue;
    }
    total += uint64_t(st.st_size);
    if (name != keep) entries.push_back({path, st.st_mtim, uint64_t(st.st_size)});
  }
  if (total <= max_bytes_) return total;
  std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
    if (a.used.tv_sec != b.used.tv_sec) return a.used.tv_sec < b.used.tv_sec;
    if (a.used.tv_nsec != b.used.tv_nsec) return a.used.tv_nsec < b.used.tv_nsec;
    return a.path < b.path;
  });
  const uint64_t target = max_bytes_ / 10 * 9;
  size_t evicted = 0;
  for (const Entry& e : entries) {
    if (total <= target) break;
    if (::unlink(e.path.c_str()) == 0) ++evicted;
    total -= e.size; // removed here or by another process (ENOENT): gone either way
  }
  if (debug_level() >= 2)
    std::fprintf(stderr, "amcl: build cache: evicted %zu entries, %llu KiB left in %s\n", evicted,
                 (unsigned long long)(total >> 10), dir_.c_str());
  return total;
}

std::string cache_key(const std::vector<std::string>& parts) {
  llvm::SHA256 h;
  for (const std::string& p : parts) {
    const uint64_t n = p.size();
    h.update(llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t*>(&n), 8));
    h.update(llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t*>(p.data()), p.size()));
  }
  static const char* hex = "0123456789abcdef";
  std::string out;
  for (uint8_t b : h.final()) out += hex[b >> 4], out += hex[b & 15];
  return out;
}

} // namespace amcl::compiler
