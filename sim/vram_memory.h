// The emulated card's VRAM: one shared-memory object the chip's engines see whole, and the CPU's
// BAR0 window onto its first bar0_bytes. Past the BAR the window's address range is reserved
// but inaccessible, so a CPU pointer past BAR0 faults instead of reaching VRAM, as on a card
// without resizable BAR (a 7900 XTX: 24 GiB of VRAM, 256 MiB of BAR0).
#pragma once
#include <cstdint>

namespace sim {

// ThreadSanitizer knows memory by virtual address: through a second mapping of the same pages it
// sees no synchronisation (an engine's release store to a signal, the host's acquire load of it
// through the BAR), and every buffer an engine wrote looks racy to the host that waited for it.
// A TSan build therefore gives the CPU the engines' mapping, and the end of the BAR is not
// enforced there (the death test that checks it is skipped).
#if defined(__SANITIZE_THREAD__)
inline constexpr bool kBarWindowIsTheChipView = true;
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
inline constexpr bool kBarWindowIsTheChipView = true;
#else
inline constexpr bool kBarWindowIsTheChipView = false;
#endif
#else
inline constexpr bool kBarWindowIsTheChipView = false;
#endif

class VramMemory {
public:
  // Throws std::runtime_error when the host cannot give the memory or the address space.
  VramMemory(uint64_t bytes, uint64_t bar0_bytes);
  ~VramMemory();
  VramMemory(const VramMemory&) = delete;
  VramMemory& operator=(const VramMemory&) = delete;

  uint8_t* chip() const { return chip_; } // all of VRAM, as the engines reach it
  uint8_t* bar0() const { return bar0_; } // the CPU's window: bar0_bytes() accessible bytes
  uint64_t bytes() const { return bytes_; }
  uint64_t bar0_bytes() const { return bar0_bytes_; }

private:
  uint64_t bytes_, bar0_bytes_;
  uint8_t* chip_ = nullptr;
  uint8_t* bar0_ = nullptr; // == chip_ when BAR0 covers all of VRAM
};

} // namespace sim
