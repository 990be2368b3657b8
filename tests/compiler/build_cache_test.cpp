// The on-disk build cache: entries round-trip; a damaged, truncated or old-format entry is a
// miss and goes; the size bound evicts the least recently used; processes and threads racing
// on one directory never read a torn or wrong entry.
#include "compiler/build_cache.h"
#include "compiler/code_object.h"
#include "compiler/compiler.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <new>
#include <set>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace amcl::compiler;
namespace fs = std::filesystem;

namespace {

// A byte-exact entry header/digest size, as build_cache.cpp lays entries out.
constexpr size_t kHeaderSize = 24, kDigestSize = 32;

std::vector<uint8_t> read_bytes(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

void write_bytes(const std::string& path, const std::vector<uint8_t>& bytes) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
}

uint64_t fnv1a(const std::string& s) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : s) h = (h ^ c) * 0x100000001b3ull;
  return h;
}

// A build whose every byte follows from (key, writer, round), so a reader can tell that it got
// one writer's whole entry for the right key.
CachedBuild payload(const std::string& key, uint32_t writer, uint32_t round, size_t size = 0) {
  CachedBuild b;
  b.log = "log of " + key + " by " + std::to_string(writer) + " round " + std::to_string(round);
  uint64_t x = fnv1a(b.log) | 1;
  const size_t n = size ? size : 512 + x % 16384;
  b.binary.assign(key.begin(), key.end());
  for (uint32_t v : {writer, round})
    for (int i = 0; i < 4; ++i) b.binary.push_back(uint8_t(v >> (8 * i)));
  while (b.binary.size() < n) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    b.binary.push_back(uint8_t(x));
  }
  return b;
}

// Whether `b` is exactly what payload() made for `key` (with some writer, round and size).
bool is_whole_entry_of(const std::string& key, const CachedBuild& b) {
  if (b.binary.size() < key.size() + 8 || !std::equal(key.begin(), key.end(), b.binary.begin()))
    return false;
  uint32_t writer = 0, round = 0;
  for (int i = 0; i < 4; ++i) {
    writer |= uint32_t(b.binary[key.size() + size_t(i)]) << (8 * i);
    round |= uint32_t(b.binary[key.size() + 4 + size_t(i)]) << (8 * i);
  }
  const CachedBuild want = payload(key, writer, round, b.binary.size());
  return want.binary == b.binary && want.log == b.log;
}

std::string key_of(const std::string& name) {
  return cache_key({"build cache test", name});
}

// The caches' log level (what AM_DEBUG gives them through the runtime) for one scope.
class ScopedLogLevel {
public:
  explicit ScopedLogLevel(int level) { BuildCache::set_log_level(level); }
  ~ScopedLogLevel() { BuildCache::set_log_level(0); }
};

// Each test gets a private cache directory, so nothing depends on the environment or on
// what other tests left in the shared one.
class BuildCacheTest : public ::testing::Test {
protected:
  void SetUp() override {
    char tmpl[] = "/tmp/amcl-build-cache-XXXXXX";
    ASSERT_TRUE(mkdtemp(tmpl));
    dir_ = tmpl;
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string path(const std::string& key) const { return dir_ + "/" + key; }
  std::vector<std::string> files() const {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(dir_)) names.push_back(e.path().filename());
    std::sort(names.begin(), names.end());
    return names;
  }
  std::set<std::string> file_set() const {
    const std::vector<std::string> names = files();
    return {names.begin(), names.end()};
  }
  // Ages a file: its modification time is its last use.
  void set_age(const std::string& key, std::chrono::seconds age) const {
    fs::last_write_time(path(key), fs::file_time_type::clock::now() - age);
  }

  std::string dir_;
};

TEST_F(BuildCacheTest, RoundTrip) {
  BuildCache cache(dir_);
  const std::string key = key_of("round trip");
  EXPECT_FALSE(cache.load(key));
  const CachedBuild stored = payload(key, 0, 0);
  cache.store(key, stored);
  auto got = cache.load(key);
  ASSERT_TRUE(got);
  EXPECT_EQ(got->binary, stored.binary);
  EXPECT_EQ(got->log, stored.log);
  EXPECT_EQ(fs::file_size(path(key)),
            kHeaderSize + stored.log.size() + stored.binary.size() + kDigestSize);
  EXPECT_EQ(files(), std::vector<std::string>{key}); // no temporary file left
  // An empty log and an empty binary round-trip too.
  cache.store(key, CachedBuild{});
  got = cache.load(key);
  ASSERT_TRUE(got);
  EXPECT_TRUE(got->binary.empty() && got->log.empty());
  // A cache whose directory was deleted under it makes it again.
  fs::remove_all(dir_);
  cache.store(key, stored);
  EXPECT_TRUE(cache.load(key));
  // Only cache_key() names are entries: nothing else is written or read.
  cache.store("../escape", stored);
  EXPECT_FALSE(cache.load("../escape"));
  EXPECT_FALSE(fs::exists(fs::path(dir_).parent_path() / "escape"));
}

TEST_F(BuildCacheTest, EveryCorruptedByteIsAMissAndTheEntryGoes) {
  BuildCache cache(dir_);
  const std::string key = key_of("corrupt");
  const CachedBuild stored = payload(key, 1, 2, 1000);
  cache.store(key, stored);
  const std::vector<uint8_t> good = read_bytes(path(key));
  const size_t log_end = kHeaderSize + stored.log.size(), digest_at = good.size() - kDigestSize;
  // Every byte of the header, the log and the digest, every 7th of the binary.
  std::vector<size_t> positions;
  for (size_t i = 0; i < good.size(); ++i)
    if (i < log_end || i >= digest_at || (i - log_end) % 7 == 0) positions.push_back(i);
  int misses = 0;
  for (size_t i : positions) {
    std::vector<uint8_t> bad = good;
    bad[i] ^= uint8_t(1u << (i % 8)); // one bit, a different one from byte to byte
    write_bytes(path(key), bad);
    EXPECT_FALSE(cache.load(key)) << "flipped byte " << i << " of " << good.size();
    EXPECT_FALSE(fs::exists(path(key))) << "flipped byte " << i;
    misses += !fs::exists(path(key));
  }
  EXPECT_EQ(misses, int(positions.size()));
  // The pristine entry still hits.
  write_bytes(path(key), good);
  EXPECT_TRUE(cache.load(key));
  std::printf("[ figures  ] %zu single-byte corruptions of a %zu-byte entry, %d misses\n",
              positions.size(), good.size(), misses);
}

TEST_F(BuildCacheTest, DiscardingSaysSoAtAmDebug1) {
  BuildCache cache(dir_);
  const std::string key = key_of("debug");
  cache.store(key, payload(key, 0, 0));
  std::vector<uint8_t> bad = read_bytes(path(key));
  bad[bad.size() / 2] ^= 0xff;
  write_bytes(path(key), bad);
  {
    ScopedLogLevel debug(1);
    testing::internal::CaptureStderr();
    EXPECT_FALSE(cache.load(key));
    const std::string err = testing::internal::GetCapturedStderr();
    EXPECT_EQ(err, "amcl: build cache: discarding corrupt entry " + key + ": checksum mismatch\n");
  }
  cache.store(key, payload(key, 0, 0));
  write_bytes(path(key), bad);
  ScopedLogLevel quiet(0);
  testing::internal::CaptureStderr();
  EXPECT_FALSE(cache.load(key));
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
}

TEST_F(BuildCacheTest, EveryTruncationIsAMiss) {
  BuildCache cache(dir_);
  const std::string key = key_of("truncated");
  cache.store(key, payload(key, 3, 4, 700));
  const std::vector<uint8_t> good = read_bytes(path(key));
  for (size_t n = 0; n < good.size(); ++n) {
    write_bytes(path(key), std::vector<uint8_t>(good.begin(), good.begin() + long(n)));
    ASSERT_FALSE(cache.load(key)) << "truncated to " << n << " of " << good.size();
    ASSERT_FALSE(fs::exists(path(key))) << "truncated to " << n;
  }
  // Bytes appended after a whole entry are damage too.
  std::vector<uint8_t> longer = good;
  longer.push_back(0);
  write_bytes(path(key), longer);
  EXPECT_FALSE(cache.load(key));
  std::printf("[ figures  ] %zu truncations (0..%zu bytes) and one extension: misses\n",
              good.size(), good.size() - 1);
}

TEST_F(BuildCacheTest, AnEntryOfTheOldFormatIsAMiss) {
  BuildCache cache(dir_);
  const std::string key = key_of("old format");
  // AMCLBC01: magic, log size, log, binary; no sizes check, no digest.
  const CachedBuild b = payload(key, 0, 0);
  std::vector<uint8_t> old = {'A', 'M', 'C', 'L', 'B', 'C', '0', '1'};
  for (int i = 0; i < 8; ++i) old.push_back(uint8_t(uint64_t(b.log.size()) >> (8 * i)));
  old.insert(old.end(), b.log.begin(), b.log.end());
  old.insert(old.end(), b.binary.begin(), b.binary.end());
  write_bytes(path(key), old);
  ScopedLogLevel debug(1);
  testing::internal::CaptureStderr();
  EXPECT_FALSE(cache.load(key));
  EXPECT_NE(testing::internal::GetCapturedStderr().find("entry of an older format"),
            std::string::npos);
  EXPECT_FALSE(fs::exists(path(key)));
}

TEST_F(BuildCacheTest, StoreReplacesACorruptEntry) {
  BuildCache cache(dir_);
  const std::string key = key_of("replace");
  cache.store(key, payload(key, 0, 0));
  std::vector<uint8_t> bad = read_bytes(path(key));
  bad[kHeaderSize + 3] ^= 0x10;
  // Replaced before any load saw it...
  write_bytes(path(key), bad);
  cache.store(key, payload(key, 0, 1));
  auto got = cache.load(key);
  ASSERT_TRUE(got);
  EXPECT_TRUE(is_whole_entry_of(key, *got));
  // ... and after a load discarded it (what build() does: miss, rebuild, store).
  write_bytes(path(key), bad);
  EXPECT_FALSE(cache.load(key));
  cache.store(key, payload(key, 0, 2));
  got = cache.load(key);
  ASSERT_TRUE(got);
  EXPECT_EQ(got->binary, payload(key, 0, 2).binary);
}

TEST_F(BuildCacheTest, AFailedWriteLeavesNothingBehind) {
  // A full disk mid-write, by the file size limit: write() fails part way into the entry.
  const std::string key = key_of("full disk");
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    signal(SIGXFSZ, SIG_IGN);
    const struct rlimit limit = {4096, 4096};
    setrlimit(RLIMIT_FSIZE, &limit);
    BuildCache(dir_).store(key, payload(key, 0, 0, 64 * 1024));
    _exit(0);
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  EXPECT_TRUE(files().empty()) << files().front(); // neither an entry nor a temporary file
  BuildCache cache(dir_);
  cache.store(key, payload(key, 0, 0, 64 * 1024));
  EXPECT_TRUE(cache.load(key));
}

TEST_F(BuildCacheTest, SizeBoundEvictsTheLeastRecentlyUsed) {
  const auto key = [](char c) { return key_of(std::string(1, c)); };
  const size_t binary = 10000;
  const CachedBuild probe = payload(key('a'), 0, 0, binary);
  const uint64_t entry = kHeaderSize + probe.log.size() + binary + kDigestSize;
  BuildCache cache(dir_, 5 * entry); // five entries; a store beyond goes down to 4.5
  for (char c : {'a', 'b', 'c', 'd'}) cache.store(key(c), payload(key(c), 0, 0, binary));
  // Last used a four, three, two and one hour ago; then a load makes `a` the most recent.
  for (char c : {'a', 'b', 'c', 'd'}) set_age(key(c), std::chrono::hours('e' - c));
  ASSERT_TRUE(cache.load(key('a')));
  cache.store(key('e'), payload(key('e'), 0, 0, binary)); // five: within the bound
  EXPECT_EQ(files().size(), 5u);
  cache.store(key('f'), payload(key('f'), 0, 0, binary)); // six: b and c go, oldest first
  EXPECT_EQ(file_set(), (std::set<std::string>{key('a'), key('d'), key('e'), key('f')}));

  // The entry just stored stays, even when every other looks more recently used.
  for (char c : {'a', 'd', 'e', 'f'}) set_age(key(c), std::chrono::hours(-1));
  cache.store(key('g'), payload(key('g'), 0, 0, 4 * binary)); // alone above 90% of the bound
  EXPECT_EQ(files(), std::vector<std::string>{key('g')});
  // An entry larger than the whole bound is not stored.
  cache.store(key('h'), payload(key('h'), 0, 0, 6 * binary));
  EXPECT_FALSE(cache.load(key('h')));
  EXPECT_TRUE(cache.load(key('g')));
}

TEST_F(BuildCacheTest, EvictionRemovesStaleTemporaryFilesOnly) {
  BuildCache cache(dir_, 1 << 20);
  const std::string key = key_of("temporaries");
  const std::string stale = "." + key + ".4242.0.tmp", fresh = "." + key + ".4242.1.tmp";
  for (const std::string& name : {stale, fresh, std::string("notes.txt")})
    write_bytes(dir_ + "/" + name, {1, 2, 3});
  set_age(stale, std::chrono::hours(2)); // a writer that died mid-write
  set_age("notes.txt", std::chrono::hours(2));
  cache.store(key, payload(key, 0, 0));
  EXPECT_EQ(file_set(), (std::set<std::string>{key, fresh, "notes.txt"}));
}

// A store scans the directory only at the first store and every kRescanEvery-th after a scan
// (a stale temporary file shows when one ran): a scan of a large cache per build was slow.
TEST_F(BuildCacheTest, StoresScanTheDirectoryOnlyNowAndThen) {
  BuildCache cache(dir_, 1 << 20);
  const auto store = [&](unsigned i) {
    const std::string key = key_of("entry " + std::to_string(i));
    cache.store(key, payload(key, 0, 0));
  };
  store(0); // the first store scans
  const std::string stale = "." + key_of("stale") + ".4242.0.tmp";
  write_bytes(dir_ + "/" + stale, {1, 2, 3});
  set_age(stale, std::chrono::hours(2));
  for (unsigned i = 1; i < BuildCache::kRescanEvery; ++i) store(i);
  EXPECT_TRUE(fs::exists(dir_ + "/" + stale)) << "a store between scans scanned";
  store(BuildCache::kRescanEvery);
  EXPECT_FALSE(fs::exists(dir_ + "/" + stale)) << "the kRescanEvery-th store did not scan";
  EXPECT_EQ(files().size(), BuildCache::kRescanEvery + 1);
}

// What the racing processes saw, in memory they share.
struct RaceRecord {
  std::atomic<bool> go{false}, stop{false};
  std::atomic<int> stores{0}, loads{0}, hits{0}, wrong{0}, damaged{0};
  char first_wrong[128] = {};
};

TEST_F(BuildCacheTest, ProcessesRacingOnOneDirectoryNeverSeeATornOrWrongEntry) {
  constexpr int kWorkers = 4, kRounds = 50;
  // About 36 entries of 8 KiB on average against a 128 KiB bound: stores evict all the time.
  BuildCache cache(dir_, 128 << 10);
  std::vector<std::string> shared, own;
  for (int i = 0; i < 4; ++i) shared.push_back(key_of("shared " + std::to_string(i)));
  for (int i = 0; i < kWorkers * 8; ++i) own.push_back(key_of("own " + std::to_string(i)));
  void* mem =
      mmap(nullptr, sizeof(RaceRecord), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(mem, MAP_FAILED);
  auto* record = new (mem) RaceRecord;

  const auto check = [&](const std::string& key) {
    record->loads++;
    if (auto got = cache.load(key)) {
      record->hits++;
      if (!is_whole_entry_of(key, *got) && record->wrong++ == 0)
        std::snprintf(record->first_wrong, sizeof record->first_wrong, "%s: %zu bytes", key.c_str(),
                      got->binary.size());
    }
  };
  const auto worker = [&](uint32_t w) {
    while (!record->go) sched_yield();
    for (uint32_t round = 0; round < kRounds; ++round) {
      const std::string& s = shared[(w + round) % shared.size()];
      const std::string& o = own[w * 8 + round % 8];
      cache.store(s, payload(s, w, round));
      cache.store(o, payload(o, w, round));
      record->stores += 2;
      for (const std::string& k : {s, o, shared[(round * 7 + w) % shared.size()],
                                   own[((w + 1) % kWorkers) * 8 + round % 8]})
        check(k);
    }
  };
  // Damages entries in place as they are: a flipped byte or a truncation.
  const auto vandal = [&] {
    uint64_t x = 0x9e3779b97f4a7c15ull;
    while (!record->go) sched_yield();
    while (!record->stop) {
      std::vector<std::string> entries;
      std::error_code ec;
      for (fs::directory_iterator it(dir_, ec), end; !ec && it != end; it.increment(ec))
        if (it->path().filename().string()[0] != '.') entries.push_back(it->path());
      if (entries.empty()) continue;
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      const int fd = open(entries[x % entries.size()].c_str(), O_RDWR);
      struct stat st;
      if (fd < 0 || fstat(fd, &st) != 0 || st.st_size == 0) {
        if (fd >= 0) close(fd);
        continue;
      }
      const off_t at = off_t((x >> 20) % uint64_t(st.st_size));
      uint8_t byte = 0;
      bool done = false;
      if (x & 1)
        done = ftruncate(fd, at) == 0;
      else if (pread(fd, &byte, 1, at) == 1)
        byte ^= 0x20, done = pwrite(fd, &byte, 1, at) == 1;
      close(fd);
      record->damaged += done;
    }
  };

  std::vector<pid_t> workers;
  for (uint32_t w = 0; w < kWorkers; ++w) {
    const pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) worker(w), _exit(0);
    workers.push_back(pid);
  }
  const pid_t vandal_pid = fork();
  ASSERT_GE(vandal_pid, 0);
  if (vandal_pid == 0) vandal(), _exit(0);
  const auto start = std::chrono::steady_clock::now();
  record->go = true;
  for (pid_t pid : workers) {
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
  }
  record->stop = true;
  int status = 0;
  ASSERT_EQ(waitpid(vandal_pid, &status, 0), vandal_pid);
  const double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();

  EXPECT_EQ(record->stores, kWorkers * kRounds * 2);
  EXPECT_EQ(record->loads, kWorkers * kRounds * 4);
  EXPECT_EQ(record->wrong, 0) << "first: " << record->first_wrong;
  EXPECT_GT(record->hits, 0);
  EXPECT_GT(record->damaged, 0);
  // Whatever the vandal left is a miss or a whole entry; no writer left a temporary file.
  for (const auto& keys : {shared, own})
    for (const std::string& k : keys) check(k);
  EXPECT_EQ(record->wrong, 0) << "first: " << record->first_wrong;
  for (const std::string& name : files()) EXPECT_NE(name[0], '.') << name;
  // Storing every key once more (about 300 KiB) leaves the directory within its bound.
  for (const auto& keys : {shared, own})
    for (const std::string& k : keys) cache.store(k, payload(k, 9, 9));
  uint64_t total = 0;
  for (const auto& e : fs::directory_iterator(dir_)) total += e.file_size();
  EXPECT_LE(total, cache.max_bytes());
  std::printf("[ figures  ] %d processes x %d rounds + a vandal: %d stores, %d loads, %d hits, "
              "%d in-place damages, %d wrong, %.0f ms\n",
              kWorkers, kRounds, record->stores.load(), record->loads.load(), record->hits.load(),
              record->damaged.load(), record->wrong.load(), ms);
  record->~RaceRecord();
  munmap(mem, sizeof(RaceRecord));
}

TEST_F(BuildCacheTest, ThreadsRacingOnOneDirectoryNeverSeeATornOrWrongEntry) {
  BuildCache cache(dir_, 64 << 10);
  std::vector<std::string> keys;
  for (int i = 0; i < 6; ++i) keys.push_back(key_of("thread " + std::to_string(i)));
  std::atomic<int> wrong{0}, hits{0};
  std::vector<std::thread> threads;
  for (uint32_t t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      for (uint32_t round = 0; round < 50; ++round) {
        const std::string& k = keys[(t + round) % keys.size()];
        cache.store(k, payload(k, t, round));
        for (const std::string& other : {k, keys[(round * 5 + t) % keys.size()]})
          if (auto got = cache.load(other)) hits++, wrong += !is_whole_entry_of(other, *got);
      }
    });
  for (auto& t : threads) t.join();
  EXPECT_EQ(wrong, 0);
  EXPECT_GT(hits, 0);
  for (const std::string& name : files()) EXPECT_NE(name[0], '.') << name;
}

// Through build(): an entry damaged on disk is rebuilt, replaced and then served again.
TEST(BuildCache, ACorruptEntryBehindBuildIsRebuilt) {
  BuildCache& process = BuildCache::process();
  if (process.disabled()) GTEST_SKIP() << "no build cache (AMCL_CACHE=0)";
  // An earlier test in this process may have pointed the cache at a directory it removed.
  const bool made = fs::create_directories(process.directory());
  // A kernel name no earlier run has built, so the entry is new and found by its content.
  const std::string name =
      "cache_rebuild_" + std::to_string(getpid()) + "_" +
      std::to_string(std::chrono::steady_clock::now().time_since_epoch().count());
  const BuildRequest req{"__kernel void " + name + "(__global int* p) { p[0] = 7; }", "",
                         "gfx1100"};
  const auto before = fs::file_time_type::clock::now() - std::chrono::seconds(2);
  const BuildResult first = build(req);
  ASSERT_TRUE(first.ok) << first.log;
  ASSERT_FALSE(first.cached);
  std::string entry;
  for (const auto& e : fs::directory_iterator(process.directory())) {
    std::error_code ec;
    if (e.path().filename().string().size() != 64 || e.last_write_time(ec) < before) continue;
    const std::vector<uint8_t> bytes = read_bytes(e.path());
    if (std::search(bytes.begin(), bytes.end(), name.begin(), name.end()) != bytes.end())
      entry = e.path();
  }
  ASSERT_FALSE(entry.empty()) << "no entry holds " << name << " in " << process.directory();
  std::vector<uint8_t> bytes = read_bytes(entry);
  bytes[bytes.size() / 2] ^= 0x04;
  write_bytes(entry, bytes);

  BuildResult second;
  {
    ScopedLogLevel debug(1);
    testing::internal::CaptureStderr();
    second = build(req);
    EXPECT_NE(testing::internal::GetCapturedStderr().find("discarding corrupt entry"),
              std::string::npos);
  }
  ASSERT_TRUE(second.ok) << second.log;
  EXPECT_FALSE(second.cached);
  std::string err;
  auto co = read_code_object(second.binary, &err);
  ASSERT_TRUE(co) << err;
  EXPECT_TRUE(co->find(name));
  const BuildResult third = build(req); // the rebuilt entry replaced the damaged one
  EXPECT_TRUE(third.cached);
  EXPECT_EQ(third.binary, second.binary);
  if (made) fs::remove_all(process.directory());
}

} // namespace
