// The shader core's per-dispatch translation cache (sim/shader/translation_cache.h): it serves
// a page it has seen without asking the GMC again, only with the rights the GMC granted, never
// to another page that shares its slot, and never to a later dispatch (a new cache), whose
// mappings may have changed; also after the thread's epochs have wrapped around.
#include "sim/shader/translation_cache.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace {

using sim::shader::MemoryFault;
using sim::shader::TranslationCache;

// Pages [kBase, kBase + kPages * 4096) map to `host` at `shift` pages further on (so a test can
// remap them), readable; writable unless `read_only`. Counts the translations it is asked for.
struct Remappable : sim::shader::MemoryPort {
  static constexpr uint64_t kBase = 0x40000000, kPages = 8;
  std::vector<uint8_t> host = std::vector<uint8_t>(2 * kPages * 4096 + 3);
  unsigned shift = 0;
  bool read_only = false;
  unsigned asked = 0;
  uint8_t* translate(uint64_t va, size_t len, bool write, bool) override {
    ++asked;
    if (va < kBase || va - kBase + len > kPages * 4096) throw MemoryFault(va, write, "unmapped");
    if (write && read_only) throw MemoryFault(va, write, "read-only");
    // +3: the host bytes of a page need not be page aligned (the cache keeps no bits in them).
    return host.data() + 3 + (va - kBase) + shift * 4096;
  }
};

TEST(TranslationCache, ServesASeenPageWithoutAskingAgain) {
  Remappable mem;
  TranslationCache cache(mem);
  uint8_t* p = cache.translate(Remappable::kBase + 4096 + 8, 4, false);
  EXPECT_EQ(p, mem.host.data() + 3 + 4096 + 8);
  EXPECT_EQ(cache.translate(Remappable::kBase + 4096 + 100, 4, false), p + 92);
  EXPECT_EQ(mem.asked, 1u);
  // A write needs the GMC's word once more; then reads and writes of the page both hit.
  EXPECT_EQ(cache.translate(Remappable::kBase + 4096, 4, true), p - 8);
  EXPECT_EQ(mem.asked, 2u);
  cache.translate(Remappable::kBase + 4096 + 4, 4, false);
  cache.translate(Remappable::kBase + 4096 + 4, 4, true);
  EXPECT_EQ(mem.asked, 2u);
}

TEST(TranslationCache, GrantsOnlyTheRightsTheGmcGranted) {
  Remappable mem;
  mem.read_only = true;
  TranslationCache cache(mem);
  cache.translate(Remappable::kBase, 4, false);
  EXPECT_THROW(cache.translate(Remappable::kBase + 16, 4, true), MemoryFault);
  EXPECT_THROW(cache.translate(Remappable::kBase + 16, 4, true), MemoryFault); // still asks
  EXPECT_NO_THROW(cache.translate(Remappable::kBase + 16, 4, false));
  // Execute is a right of its own.
  const unsigned before = mem.asked;
  cache.translate(Remappable::kBase + 32, 4, false, true);
  EXPECT_EQ(mem.asked, before + 1);
}

TEST(TranslationCache, PagesSharingASlotOrHighBitsDoNotAlias) {
  Remappable mem;
  TranslationCache cache(mem);
  cache.translate(Remappable::kBase, 4, false);
  // 4096 pages further on takes the same slot of the direct-mapped table; so does an address
  // that differs only above bit 47 (not canonical: the GMC must see it and fault).
  EXPECT_THROW(cache.translate(Remappable::kBase + (uint64_t(4096) << 12), 4, false), MemoryFault);
  EXPECT_THROW(cache.translate(Remappable::kBase | (uint64_t(1) << 60), 4, false), MemoryFault);
  EXPECT_THROW(cache.translate(Remappable::kBase | (uint64_t(1) << 48), 4, false), MemoryFault);
  EXPECT_EQ(cache.translate(Remappable::kBase + 4, 4, false), mem.host.data() + 3 + 4);
}

TEST(TranslationCache, ANewCacheSeesTheMappingsOfItsOwnDispatch) {
  Remappable mem;
  // Enough caches on this thread to wrap its epochs around several times: each must see the
  // mapping of its own time, never one a cache of an earlier dispatch filled.
  for (unsigned d = 0; d < 2000; ++d) {
    mem.shift = d % 3;
    TranslationCache cache(mem);
    const uint64_t va = Remappable::kBase + (d % Remappable::kPages) * 4096 + 4;
    ASSERT_EQ(cache.translate(va, 4, d % 2 == 0),
              mem.host.data() + 3 + (va - Remappable::kBase) + mem.shift * 4096)
        << "dispatch " << d;
    ASSERT_EQ(cache.translate(Remappable::kBase, 4, false), mem.host.data() + 3 + mem.shift * 4096)
        << "dispatch " << d;
  }
}

} // namespace
