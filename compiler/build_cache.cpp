#include "build_cache.h"

#include <llvm/ADT/ArrayRef.h>
#include <llvm/Support/SHA256.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace amcl::compiler {
namespace {

namespace fs = std::filesystem;

// Entry layout: magic, log size, log, binary.
constexpr char kMagic[8] = {'A', 'M', 'C', 'L', 'B', 'C', '0', '1'};

std::string default_dir() {
  if (const char* v = std::getenv("AMCL_CACHE"); v && std::strcmp(v, "0") == 0) return "";
  if (const char* v = std::getenv("AMCL_CACHE_DIR"); v && *v) return v;
  if (const char* v = std::getenv("XDG_CACHE_HOME"); v && *v) return std::string(v) + "/amcl";
  if (const char* v = std::getenv("HOME"); v && *v) return std::string(v) + "/.cache/amcl";
  return "";
}

} // namespace

BuildCache::BuildCache() : dir_(default_dir()) {
  if (dir_.empty()) return;
  std::error_code ec;
  fs::create_directories(dir_, ec);
  if (ec) {
    std::fprintf(stderr, "amcl: build cache disabled: cannot create %s: %s\n", dir_.c_str(),
                 ec.message().c_str());
    dir_.clear();
  }
}

BuildCache& BuildCache::process() {
  static BuildCache cache;
  return cache;
}

std::optional<CachedBuild> BuildCache::load(const std::string& key) const {
  if (disabled()) return std::nullopt;
  std::ifstream f(dir_ + "/" + key, std::ios::binary);
  if (!f) return std::nullopt;
  char magic[8];
  uint64_t log_size = 0;
  if (!f.read(magic, 8) || std::memcmp(magic, kMagic, 8) != 0) return std::nullopt;
  if (!f.read(reinterpret_cast<char*>(&log_size), 8) || log_size > (64u << 20)) return std::nullopt;
  CachedBuild b;
  b.log.resize(log_size);
  if (!f.read(b.log.data(), std::streamsize(log_size))) return std::nullopt;
  std::stringstream rest;
  rest << f.rdbuf();
  const std::string bin = rest.str();
  if (bin.empty()) return std::nullopt;
  b.binary.assign(bin.begin(), bin.end());
  return b;
}

void BuildCache::store(const std::string& key, const CachedBuild& build) const {
  if (disabled()) return;
  // Write a private temporary file, then rename: readers see a whole entry or none.
  const std::string tmp = dir_ + "/." + key + "." + std::to_string(::getpid()) + "." +
                          std::to_string(reinterpret_cast<uintptr_t>(&build));
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    if (!f) return;
    const uint64_t log_size = build.log.size();
    f.write(kMagic, 8);
    f.write(reinterpret_cast<const char*>(&log_size), 8);
    f.write(build.log.data(), std::streamsize(log_size));
    f.write(reinterpret_cast<const char*>(build.binary.data()), std::streamsize(build.binary.size()));
    if (!f) {
      std::error_code ec;
      fs::remove(tmp, ec);
      return;
    }
  }
  std::error_code ec;
  fs::rename(tmp, dir_ + "/" + key, ec);
  if (ec) fs::remove(tmp, ec);
}

std::string cache_key(const std::vector<std::string>& parts) {
  llvm::SHA256 h;
  for (const std::string& p : parts) {
    const uint64_t n = p.size();
    h.update(llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t*>(&n), 8));
    h.update(llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t*>(p.data()), p.size()));
  }
  auto digest = h.final();
  static const char* hex = "0123456789abcdef";
  std::string out;
  for (uint8_t b : digest) out += hex[b >> 4], out += hex[b & 15];
  return out;
}

} // namespace amcl::compiler
