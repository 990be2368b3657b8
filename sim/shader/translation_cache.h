// A direct-mapped cache of page translations in front of the GMC, for one dispatch on one host
// thread: each lane access would otherwise walk three page-table levels. It serves no longer
// than the dispatch, and the driver changes mappings only between dispatches, so it never
// serves a stale translation. The entries live in a per-thread table that outlives the cache
// (a new cache needs no clearing): each is tagged with the epoch of the cache that filled it,
// and a new cache takes a new epoch.
#pragma once
#include "memory_port.h"

#include <array>
#include <atomic>
#include <cstdint>

namespace sim::shader {

class TranslationCache final : public MemoryPort {
public:
  explicit TranslationCache(MemoryPort& inner)
      : inner_(inner), entries_(thread_entries()),
        epoch_(next_epoch_.fetch_add(1, std::memory_order_relaxed)) {}

  // Final: callers holding a TranslationCache (Executor::page_of) get this inline, without a
  // virtual call per lane of a gather.
  uint8_t* translate(uint64_t va, size_t len, bool write, bool execute = false) override {
    const uint64_t page = va >> 12;
    Entry& e = entries_[page & (kEntries - 1)];
    if (e.page != page || e.epoch != epoch_ || (write && !e.writable) ||
        (execute && !e.executable) || (!write && !execute && !e.readable)) [[unlikely]] {
      // Ask the GMC with this access's rights; it throws on a fault. Rights seen so far for
      // the page are kept so mixed reads and writes do not thrash.
      uint8_t* base = inner_.translate(va & ~uint64_t(4095), 1, write, execute);
      if (e.page != page || e.epoch != epoch_) e = Entry{page, epoch_, base, false, false, false};
      e.base = base;
      (write ? e.writable : execute ? e.executable : e.readable) = true;
    }
    (void)len; // callers never cross a page (MemoryPort::read/write split accesses)
    return e.base + (va & 4095);
  }

private:
  // 4096 pages (16 MiB) of a kernel's working set: gathers over buffers of a few MiB hit.
  static constexpr size_t kEntries = 4096;
  struct Entry {
    uint64_t page = ~0ull;
    uint64_t epoch = 0; // the cache that filled it (0: none)
    uint8_t* base = nullptr;
    bool readable = false, writable = false, executable = false;
  };
  // This thread's table, found once per cache (thread-local lookups in a shared library are
  // calls).
  static Entry* thread_entries() {
    thread_local std::array<Entry, kEntries> entries{};
    return entries.data();
  }
  MemoryPort& inner_;
  Entry* const entries_;
  const uint64_t epoch_;
  static inline std::atomic<uint64_t> next_epoch_{1};
};

} // namespace sim::shader
