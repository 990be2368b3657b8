// A direct-mapped cache of page translations in front of the GMC, for one dispatch on one host
// thread: each lane access would otherwise walk three page-table levels. It serves no longer
// than the dispatch, and the driver changes mappings only between dispatches, so it never
// serves a stale translation. The entries live in a per-thread table that outlives the cache
// (a new cache needs no clearing): each is tagged with the epoch of the cache that filled it,
// and a new cache takes the thread's next epoch; when the epochs run out the table is cleared.
#pragma once
#include "memory_port.h"
#include "sim/thread_slot.h"

#include <array>
#include <cstdint>

namespace sim::shader {

class TranslationCache final : public MemoryPort {
public:
  explicit TranslationCache(MemoryPort& inner)
      : inner_(inner), table_(thread_table()), epoch_(table_.next_epoch()) {}

  // Final: callers holding a TranslationCache (Executor::page_of) get this inline, without a
  // virtual call per lane of a gather. One load of the tag and one compare per hit: the tag
  // holds the page, the epoch and the rights seen, and `want` asks for this access's right.
  uint8_t* translate(uint64_t va, size_t len, bool write, bool execute = false) override {
    const uint64_t right = write ? kWrite : execute ? kExecute : kRead;
    Entry& e = table_.entries[(va >> 12) & (kEntries - 1)];
    const uint64_t want = (va & ~uint64_t(4095)) | epoch_ | right;
    if ((e.tag & (~kRights | right)) != want) [[unlikely]]
      fill(e, va, write, execute, right);
    (void)len; // callers never cross a page (MemoryPort::read/write split accesses)
    return e.host + (va & 4095);
  }

private:
  // 4096 pages (16 MiB) of a kernel's working set: gathers over buffers of a few MiB hit.
  static constexpr size_t kEntries = 4096;
  // A tag's low 12 bits (a page address has none): the rights seen so far for the page in
  // bits 0-2, the epoch that filled it in bits 3-11. 16 bytes an entry, 64 KiB a table (it
  // was 32 and 128: the table competed with a gather's data for the host's L1 and L2).
  static constexpr uint64_t kRead = 1, kWrite = 2, kExecute = 4, kRights = 7;
  static constexpr uint64_t kEpochShift = 3, kEpochs = 1u << (12 - kEpochShift);
  struct Entry {
    uint64_t tag = 0; // epoch 0 is nobody's: an empty entry never matches
    uint8_t* host = nullptr;
  };
  struct Table {
    std::array<Entry, kEntries> entries{};
    uint64_t epoch = 0;
    // Epochs 1..kEpochs-1, then the table is emptied (64 KiB once per 511 dispatches of the
    // thread) and they start again.
    uint64_t next_epoch() {
      if (++epoch == kEpochs) {
        entries.fill(Entry{});
        epoch = 1;
      }
      return epoch << kEpochShift;
    }
  };
  static_assert(sizeof(Entry) == 16);

  // Asks the GMC with this access's rights; it throws on a fault. Rights seen so far for the
  // page are kept so mixed reads and writes do not thrash.
  [[gnu::noinline]] void fill(Entry& e, uint64_t va, bool write, bool execute, uint64_t right) {
    uint8_t* base = inner_.translate(va & ~uint64_t(4095), 1, write, execute);
    const uint64_t key = (va & ~uint64_t(4095)) | epoch_;
    if ((e.tag & ~kRights) != key) e.tag = key; // another page or an older epoch: its rights go
    e.tag |= right;
    e.host = base;
  }
  // This thread's table, found once per cache. A thread runs one dispatch's cache at a time
  // (run_dispatch's workers).
  static Table& thread_table() { return ThreadSlot<Table>::get(); }
  MemoryPort& inner_;
  Table& table_;
  const uint64_t epoch_; // shifted into place
};

} // namespace sim::shader
