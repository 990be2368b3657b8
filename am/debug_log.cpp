#include "debug_log.h"

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

namespace am {

int debug_detail::level_from_environment() {
  const char* v = std::getenv("AM_DEBUG");
  if (!v || !*v) return 0;
  if (std::strlen(v) == 1 && v[0] >= '0' && v[0] <= '4') return v[0] - '0';
  std::fprintf(stderr, "amcl: AM_DEBUG=%s is not a level from 0 to 4: using 0\n", v);
  return 0;
}

void debug_print(const std::string& address, const char* format, ...) {
  std::string line = "amcl: am " + address + ": ";
  va_list args;
  va_start(args, format);
  va_list again;
  va_copy(again, args);
  const int n = std::vsnprintf(nullptr, 0, format, args);
  va_end(args);
  if (n > 0) {
    const size_t at = line.size();
    line.resize(at + size_t(n) + 1);
    std::vsnprintf(line.data() + at, size_t(n) + 1, format, again);
    line.back() = '\n';
  } else {
    line += '\n';
  }
  va_end(again);
  // One write per line, under a lock: stderr is unbuffered, and a line written in pieces by
  // two threads would interleave.
  static std::mutex mutex;
  std::lock_guard lock(mutex);
  std::fwrite(line.data(), 1, line.size(), stderr);
}

} // namespace am
