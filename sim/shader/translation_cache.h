// A small direct-mapped cache of page translations in front of the GMC, for one dispatch on
// one host thread: each lane access would otherwise walk three page-table levels. It lives
// no longer than the dispatch, and the driver changes mappings only between dispatches, so it
// never serves a stale translation.
#pragma once
#include "memory_port.h"

#include <array>

namespace sim::shader {

class TranslationCache : public MemoryPort {
public:
  explicit TranslationCache(MemoryPort& inner) : inner_(inner) {}

  uint8_t* translate(uint64_t va, size_t len, bool write, bool execute = false) override {
    const uint64_t page = va >> 12;
    Entry& e = entries_[page & (kEntries - 1)];
    if (e.page != page || (write && !e.writable) || (execute && !e.executable) || (!write && !e.readable)) {
      // Ask the GMC with this access's rights; it throws on a fault. Rights seen so far for
      // the page are kept so mixed reads and writes do not thrash.
      uint8_t* base = inner_.translate(va & ~uint64_t(4095), 1, write, execute);
      if (e.page != page) e = Entry{page, base, false, false, false};
      e.base = base;
      (write ? e.writable : execute ? e.executable : e.readable) = true;
    }
    (void)len; // callers never cross a page (MemoryPort::read/write split accesses)
    return e.base + (va & 4095);
  }

private:
  static constexpr size_t kEntries = 64;
  struct Entry {
    uint64_t page = ~0ull;
    uint8_t* base = nullptr;
    bool readable = false, writable = false, executable = false;
  };
  MemoryPort& inner_;
  std::array<Entry, kEntries> entries_{};
};

} // namespace sim::shader
