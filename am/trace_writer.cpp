#include "trace_writer.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <stdexcept>
#include <unistd.h>

namespace am {
namespace {

constexpr size_t kBufferBytes = 1 << 20;

void put_le(std::vector<uint8_t>& out, uint64_t v, unsigned bytes) {
  for (unsigned i = 0; i < bytes; ++i) out.push_back(uint8_t(v >> (8 * i)));
}

struct PathState {
  std::mutex mutex;
  std::optional<std::string> forced; // a ScopedTraceFile's
  unsigned cards = 0;                // traced cards so far (of this file name)
};

PathState& path_state() {
  static PathState state;
  return state;
}

// The writers alive: an OpenCL application never destroys its platform's devices, so their
// traces are flushed when the process exits. The registry is never destroyed, so a writer
// that a static object destroys after the exit handler ran can still leave it.
struct LiveWriters {
  std::mutex mutex;
  std::vector<TraceWriter*> writers;
};

LiveWriters& live_writers() {
  static LiveWriters* const live = [] {
    std::atexit([] {
      LiveWriters& l = live_writers();
      std::lock_guard lock(l.mutex);
      for (TraceWriter* w : l.writers) w->flush();
    });
    return new LiveWriters;
  }();
  return *live;
}

} // namespace

TraceWriter::TraceWriter(const std::string& path, const std::string& card) : path_(path) {
  fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd_ < 0)
    throw std::runtime_error("AM_TRACE: cannot create " + path + ": " + std::strerror(errno));
  buffer_.reserve(kBufferBytes);
  buffer_.insert(buffer_.end(), std::begin(trace::kMagic), std::end(trace::kMagic));
  put_le(buffer_, trace::kTraceVersion, 4);
  put_le(buffer_, card.size(), 4);
  buffer_.insert(buffer_.end(), card.begin(), card.end());
  LiveWriters& live = live_writers();
  std::lock_guard lock(live.mutex);
  live.writers.push_back(this);
}

TraceWriter::~TraceWriter() {
  {
    LiveWriters& live = live_writers();
    std::lock_guard lock(live.mutex);
    std::erase(live.writers, this);
  }
  flush();
  ::close(fd_);
}

void TraceWriter::put_head(trace::TraceKind kind, uint8_t bar, uint8_t size, uint32_t offset,
                           uint64_t value) {
  buffer_.push_back(kind);
  buffer_.push_back(bar);
  buffer_.push_back(size);
  buffer_.push_back(0);
  put_le(buffer_, offset, 4);
  put_le(buffer_, value, 8);
}

void TraceWriter::access(trace::TraceKind kind, uint8_t bar, uint8_t size, uint32_t offset,
                         uint64_t value) {
  std::lock_guard lock(mutex_);
  put_head(kind, bar, size, offset, value);
  if (buffer_.size() >= kBufferBytes) write_out();
}

void TraceWriter::with_payload(trace::TraceKind kind, uint8_t bar, uint64_t value,
                               std::initializer_list<std::span<const uint8_t>> pieces) {
  size_t length = 0;
  for (auto piece : pieces) length += piece.size();
  std::lock_guard lock(mutex_);
  put_head(kind, bar, 0, uint32_t(length), value);
  for (auto piece : pieces) buffer_.insert(buffer_.end(), piece.begin(), piece.end());
  if (buffer_.size() >= kBufferBytes) write_out();
}

void TraceWriter::flush() {
  std::lock_guard lock(mutex_);
  write_out();
}

// A trace is a diagnostic: a write that fails loses the rest of the trace, never the work.
void TraceWriter::write_out() {
  const uint8_t* at = buffer_.data();
  size_t left = buffer_.size();
  while (left > 0) {
    const ssize_t n = ::write(fd_, at, left);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    at += n, left -= size_t(n);
  }
  buffer_.clear();
}

std::optional<std::string> next_trace_path() {
  static const char* const from_environment = std::getenv("AM_TRACE");
  PathState& state = path_state();
  std::lock_guard lock(state.mutex);
  std::string path;
  if (state.forced)
    path = *state.forced;
  else if (from_environment && *from_environment)
    path = from_environment;
  else
    return std::nullopt;
  const unsigned n = state.cards++;
  return n == 0 ? path : path + "." + std::to_string(n);
}

ScopedTraceFile::ScopedTraceFile(std::string path) {
  PathState& state = path_state();
  std::lock_guard lock(state.mutex);
  state.forced = std::move(path);
  state.cards = 0;
}

ScopedTraceFile::~ScopedTraceFile() {
  PathState& state = path_state();
  std::lock_guard lock(state.mutex);
  state.forced.reset();
  state.cards = 0;
}

} // namespace am
