// AM_TRACE's writer: records in am/trace_format.h's layout, gathered in a buffer and written to
// the file when it fills, on flush() and when the writer goes away, so tracing a boot costs a
// memcpy per register access and the boot without AM_TRACE costs nothing.
#pragma once
#include "trace_format.h"

#include <atomic>
#include <cstdint>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace am {

class TraceWriter {
public:
  // Creates (or truncates) `path` and writes the file header with `card` as its text. Throws
  // std::runtime_error naming the file when it cannot be created.
  TraceWriter(const std::string& path, const std::string& card);
  ~TraceWriter(); // flushes; so does the process's exit for a writer still alive then
  TraceWriter(const TraceWriter&) = delete;
  TraceWriter& operator=(const TraceWriter&) = delete;

  // A record without payload (a register, doorbell or config-space access).
  void access(trace::TraceKind kind, uint8_t bar, uint8_t size, uint32_t offset, uint64_t value);
  // A record whose payload is `pieces`, one after the other.
  void with_payload(trace::TraceKind kind, uint8_t bar, uint64_t value,
                    std::initializer_list<std::span<const uint8_t>> pieces);
  // Writes what is buffered to the file (an error path calls it before the error goes up).
  void flush();
  const std::string& path() const { return path_; }

private:
  void put_head(trace::TraceKind kind, uint8_t bar, uint8_t size, uint32_t offset, uint64_t value);
  void write_out(); // with mutex_ held

  std::string path_;
  int fd_ = -1;
  std::mutex mutex_;
  std::vector<uint8_t> buffer_;
};

// The file the next card's trace goes to: AM_TRACE (read once) for the process's first traced
// card, "<AM_TRACE>.1", ".2" ... for the next ones; nothing when AM_TRACE is unset or empty.
// A test's ScopedTraceFile takes the place of AM_TRACE.
std::optional<std::string> next_trace_path();

namespace trace_detail {
inline std::atomic<int> open_traces{0}; // how many traced cards are open: hooks skip when 0
} // namespace trace_detail

// For tests: traces go to `path` (numbered as above) while this lives, without setenv races.
class ScopedTraceFile {
public:
  explicit ScopedTraceFile(std::string path);
  ~ScopedTraceFile();
  ScopedTraceFile(const ScopedTraceFile&) = delete;
  ScopedTraceFile& operator=(const ScopedTraceFile&) = delete;
};

} // namespace am
