// AM_DEBUG for the driver: what a boot did, so a first run on a real card that stops halfway
// names the IP block, firmware or queue that failed. Every line goes to stderr as
// "amcl: am <PCI address>: ...", the same on a real and an emulated card (the emulator's own
// lines say "amcl sim:"). Levels, read once from AM_DEBUG (0..4):
//   0 errors and the IOMMU warnings only;  1 one line per boot phase, with timings;
//   2 each IP block's set-up (versions, register bases, firmware files, PSP commands, SMU
//     messages, ring addresses);  3 every packet stream, doorbell and interrupt;
//   4 every register read and write.
#pragma once
#include <atomic>
#include <string>

namespace am {

inline constexpr int kDebugErrors = 0, kDebugBoot = 1, kDebugBlocks = 2, kDebugPackets = 3,
                     kDebugRegisters = 4;

namespace debug_detail {
int level_from_environment(); // AM_DEBUG; a value that is not 0..4 is 0, with one warning
inline std::atomic<int> level_override{-1};
} // namespace debug_detail

// The level in force: a test's override, else AM_DEBUG as read the first time.
inline int debug_level() {
  static const int from_environment = debug_detail::level_from_environment();
  const int forced = debug_detail::level_override.load(std::memory_order_relaxed);
  return forced >= 0 ? forced : from_environment;
}
inline bool debug_on(int level) {
  return debug_level() >= level;
}

// One line, "amcl: am <address>: " and the printf-formatted text, written whole (lines of
// concurrent threads never interleave). Use through AM_LOG, which formats nothing when off.
void debug_print(const std::string& address, const char* format, ...)
    __attribute__((format(printf, 2, 3)));

// For tests: the level as if AM_DEBUG said `level` while this lives (no setenv races).
class ScopedDebugLevel {
public:
  explicit ScopedDebugLevel(int level) : previous_(debug_detail::level_override.exchange(level)) {}
  ~ScopedDebugLevel() { debug_detail::level_override.store(previous_); }
  ScopedDebugLevel(const ScopedDebugLevel&) = delete;
  ScopedDebugLevel& operator=(const ScopedDebugLevel&) = delete;

private:
  int previous_;
};

} // namespace am

// A line at `level` about the card at `pci` (an am::Pci&); the arguments are evaluated only
// when the level is on.
#define AM_LOG(level, pci, ...)                                                                    \
  do {                                                                                             \
    if (::am::debug_on(level)) ::am::debug_print((pci).address(), __VA_ARGS__);                    \
  } while (0)
