#include "page_table.h"

#include <atomic>
#include <stdexcept>

namespace am {

using namespace hw::gmc;

PageTable::PageTable(uint8_t* vram, PteFormat format, std::function<uint64_t()> alloc_table)
    : vram_(vram), pde_pte_(pde_pte_flag(format)),
      // GMC v12 leaves say they are PTEs (bit 63), as tinygrad's AM driver writes them.
      leaf_bits_(format == PteFormat::v12 ? PTE_IS_PTE_GFX12 : 0),
      alloc_table_(std::move(alloc_table)), root_(alloc_table_()) {}

uint64_t* PageTable::entry(uint64_t table, unsigned index) {
  return reinterpret_cast<uint64_t*>(vram_ + table) + index;
}

uint64_t PageTable::descend(uint64_t table, unsigned index) {
  uint64_t* e = entry(table, index);
  if (*e & PTE_VALID) {
    if (*e & pde_pte_) throw std::logic_error("PageTable: 4 KiB map inside a 2 MiB mapping");
    return *e & kAddressMask;
  }
  uint64_t child = alloc_table_();
  ++tables_;
  std::atomic_ref<uint64_t>(*e).store(child | PTE_VALID, std::memory_order_release);
  return child;
}

void PageTable::map(uint64_t va, uint64_t pa, uint64_t size, uint32_t flags) {
  if ((va | pa | size) & (kPageSize - 1)) throw std::invalid_argument("PageTable: unaligned map");
  if (va + size > kVaSpan) throw std::invalid_argument("PageTable: beyond 512 GiB");
  uint64_t bits = PTE_VALID;
  if (flags & kRead) bits |= PTE_READABLE;
  if (flags & kWrite) bits |= PTE_WRITEABLE;
  if (flags & kExecute) bits |= PTE_EXECUTABLE;
  if (flags & kSystem) bits |= PTE_SYSTEM;
  if (flags & kSnooped) bits |= PTE_SNOOPED;
  std::lock_guard lock(mutex_);
  const uint64_t huge = 1ull << level_shift(1);
  for (uint64_t off = 0; off < size;) {
    uint64_t v = va + off, p = pa + off;
    uint64_t pdb0 = descend(root_, unsigned(v >> level_shift(2)) & 511);
    // Whole, aligned 2 MiB blocks of VRAM are mapped by one PDE-as-PTE.
    if (!(flags & kSystem) && !(v & (huge - 1)) && !(p & (huge - 1)) && size - off >= huge &&
        !(*entry(pdb0, unsigned(v >> level_shift(1)) & 511) & PTE_VALID)) {
      std::atomic_ref<uint64_t>(*entry(pdb0, unsigned(v >> level_shift(1)) & 511))
          .store(p | bits | pde_pte_ | pte_fragment(9), std::memory_order_release);
      off += huge;
      continue;
    }
    uint64_t ptb = descend(pdb0, unsigned(v >> level_shift(1)) & 511);
    std::atomic_ref<uint64_t>(*entry(ptb, unsigned(v >> 12) & 511))
        .store(p | bits | leaf_bits_, std::memory_order_release);
    off += kPageSize;
  }
}

void PageTable::map_pages(uint64_t va, const std::vector<uint64_t>& pages, uint32_t flags) {
  // Neighbouring pages that are neighbours on the bus too go in as one range (2 MiB entries
  // need not apply: system memory is mapped with 4 KiB PTEs).
  for (size_t i = 0; i < pages.size();) {
    size_t n = 1;
    while (i + n < pages.size() && pages[i + n] == pages[i] + n * kPageSize) ++n;
    map(va + i * kPageSize, pages[i], n * kPageSize, flags);
    i += n;
  }
}

void PageTable::unmap(uint64_t va, uint64_t size) {
  std::lock_guard lock(mutex_);
  const uint64_t huge = 1ull << level_shift(1);
  for (uint64_t off = 0; off < size;) {
    uint64_t v = va + off;
    uint64_t* l2 = entry(root_, unsigned(v >> level_shift(2)) & 511);
    if (!(*l2 & PTE_VALID)) { off += kPageSize; continue; }
    uint64_t* l1 = entry(*l2 & kAddressMask, unsigned(v >> level_shift(1)) & 511);
    if ((*l1 & PTE_VALID) && (*l1 & pde_pte_)) {
      std::atomic_ref<uint64_t>(*l1).store(0, std::memory_order_release);
      off += huge;
      continue;
    }
    if (*l1 & PTE_VALID)
      std::atomic_ref<uint64_t>(*entry(*l1 & kAddressMask, unsigned(v >> 12) & 511))
          .store(0, std::memory_order_release);
    off += kPageSize;
  }
}

} // namespace am
