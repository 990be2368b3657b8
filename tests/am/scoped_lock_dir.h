// Fake cards lock in a directory of the test's own (TMPDIR, am/card_lock.h), so tests that run
// at once, or a process driving a real card at the same address, never meet.
#pragma once
#include <stdlib.h>

#include <filesystem>
#include <optional>
#include <string>

namespace amcl_test {

class ScopedLockDir {
public:
  ScopedLockDir() {
    char tmpl[] = "/tmp/amcl-locks-XXXXXX";
    dir_ = mkdtemp(tmpl);
    if (const char* old = getenv("TMPDIR")) old_ = old;
    setenv("TMPDIR", dir_.c_str(), 1);
  }
  ~ScopedLockDir() {
    if (old_)
      setenv("TMPDIR", old_->c_str(), 1);
    else
      unsetenv("TMPDIR");
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
  ScopedLockDir(const ScopedLockDir&) = delete;
  ScopedLockDir& operator=(const ScopedLockDir&) = delete;
  const std::filesystem::path& path() const { return dir_; }

private:
  std::filesystem::path dir_;
  std::optional<std::string> old_;
};

} // namespace amcl_test
