#include "gmc.h"

#include "thread_slot.h"

#include <algorithm>
#include <array>

#include <cstdio>
#include <cstring>

namespace sim {

using namespace am::hw;

void Gmc::fault(const char* what, uint64_t va, bool write) const {
  char buf[160];
  std::snprintf(buf, sizeof buf, "VM fault (VMID 0, %s): %s at 0x%llx", name_, what,
                static_cast<unsigned long long>(va));
  throw shader::MemoryFault(va, write, buf);
}

uint64_t Gmc::read_entry(uint64_t table_pa, unsigned index, uint64_t va) const {
  const uint8_t* p = vram_at(table_pa + 8ull * index, 8);
  if (!p) fault("page table outside VRAM", va, false);
  uint64_t e;
  std::memcpy(&e, p, 8);
  return e;
}

// One translation cache per host thread (an emulated engine or CU): the leaf entries of recently
// used 4 KiB pages, direct-mapped. An entry belongs to a GMC and an invalidation generation;
// anything else is stale and the whole cache is dropped, as an invalidation drops it.
struct Gmc::Tlb {
  static constexpr unsigned kEntries = 512;
  uint64_t owner = 0, generation = 0, iommu_generation = 0;
  uint64_t page[kEntries]; // va >> 12, or ~0 when empty
  uint64_t pte[kEntries];
  // The host memory behind the page, when all of it lies in VRAM or in one IOMMU mapping
  // (else nullptr): a hit then costs the rights check alone, not the IOMMU's lock and search.
  uint8_t* host[kEntries];
  void reset(uint64_t id, uint64_t gen, uint64_t iommu_gen) {
    owner = id, generation = gen, iommu_generation = iommu_gen;
    std::fill(std::begin(page), std::end(page), ~0ull);
  }
};
// Two per thread: the emulated MEC's thread reaches the MMHUB too (the IH's ring, when a fence
// raises an interrupt), and one cache shared by both hubs was dropped at every such switch.
// Hubs of other cards share the slot of their kind (the owner check tells them apart).
Gmc::Tlb& Gmc::this_thread_tlb(Hub which) {
  return ThreadSlot<std::array<Tlb, 2>>::get()[unsigned(which)];
}

uint8_t* Gmc::translate(uint64_t va, size_t len, bool write, bool execute) {
  // The hit: no call, so no registers to save (the MEC asks three times a dispatch).
  Tlb& entries = this_thread_tlb(which_);
  const uint64_t vpage = va >> 12;
  const unsigned slot = unsigned(vpage % Tlb::kEntries);
  if (entries.page[slot] == vpage && entries.host[slot] && (va & 4095) + len <= 4096 &&
      entries.owner == id_ && entries.generation == generation_.load(std::memory_order_acquire) &&
      entries.iommu_generation == iommu_.generation() &&
      rights_allow(entries.pte[slot], write, execute))
    return entries.host[slot] + (va & 4095);
  return translate_slow(entries, va, len, write, execute);
}

uint8_t* Gmc::translate_slow(Tlb& entries, uint64_t va, size_t len, bool write, bool execute) {
  const uint64_t gen = generation_.load(std::memory_order_acquire);
  const uint64_t iommu_gen = iommu_.generation();
  if (entries.owner != id_ || entries.generation != gen || entries.iommu_generation != iommu_gen)
    entries.reset(id_, gen, iommu_gen);
  const uint64_t vpage = va >> 12;
  const unsigned slot = unsigned(vpage % Tlb::kEntries);
  const bool one_page = (va & 4095) + len <= 4096;
  if (one_page && entries.page[slot] == vpage)
    return resolve(entries.pte[slot], va, len, write, execute);
  if (!(regs_.read(reg(hub_.MX_L1_TLB_CNTL)) & MX_L1_TLB_ENABLE_L1_TLB))
    fault("the hub's L1 TLB is off (MC_VM_MX_L1_TLB_CNTL.ENABLE_L1_TLB)", va, write);
  if (uint8_t* p = system_aperture(va, len, write)) return p;
  const uint64_t pte = walk(va, len, write);
  if (one_page) {
    entries.page[slot] = vpage, entries.pte[slot] = pte;
    const uint64_t pa = pte & gmc::kAddressMask;
    entries.host[slot] = (pte & gmc::PTE_SYSTEM) ? iommu_.translate(pa, 4096) : vram_at(pa, 4096);
  }
  return resolve(pte, va, len, write, execute);
}

uint8_t* Gmc::translate_run(uint64_t va, size_t len, bool write, size_t& run) {
  run = std::min<size_t>(len, 4096 - (va & 4095));
  uint8_t* p = translate(va, run, write); // the first page: the TLB, the aperture, its faults
  if (run == len) return p;
  Tlb& entries = this_thread_tlb(which_);
  const unsigned slot = unsigned((va >> 12) % Tlb::kEntries);
  if (entries.page[slot] != va >> 12) {
    // Not cached, so translate took the system aperture: frame-buffer addresses, contiguous.
    const uint64_t high =
        (uint64_t(regs_.read(reg(hub_.SYSTEM_APERTURE_HIGH_ADDR)) & 0x3fffffff) << 18) | 0x3ffff;
    const uint64_t fb = uint64_t(regs_.read(reg(hub_.FB_LOCATION_BASE)) & 0xffffff) << 24;
    const uint64_t end = std::min(high + 1, fb + vram_size_);
    if (va < end) run = std::min<uint64_t>(len, end - va);
    return p;
  }
  const uint64_t pte = entries.pte[slot];
  const uint64_t more = extend_run(va, pte, len - run, write);
  if (!more) return p;
  const uint64_t pa = (pte & gmc::kAddressMask) + (va & 4095);
  // One lookup for the whole run; a run the IOMMU does not map in one piece goes page by page.
  uint8_t* whole =
      (pte & gmc::PTE_SYSTEM) ? iommu_.translate(pa, run + more) : vram_at(pa, run + more);
  if (whole != p) return p;
  run += more;
  return p;
}

uint64_t Gmc::extend_run(uint64_t va, uint64_t pte, uint64_t want, bool write) const {
  Leaf leaf;
  try {
    // The cached entry must be what the tables say now, or the run would mix the two.
    if (walk(va, 1, write, &leaf) != pte) return 0;
  } catch (const shader::MemoryFault&) {
    return 0;
  }
  const VmHubRegs& h = hub_;
  const uint64_t start = regs_.read64(reg(h.PAGE_TABLE_START_LO32), reg(h.PAGE_TABLE_START_HI32))
                         << 12;
  const uint64_t last =
      (regs_.read64(reg(h.PAGE_TABLE_END_LO32), reg(h.PAGE_TABLE_END_HI32)) << 12) + 4095;
  const uint64_t page_va = va & ~uint64_t(4095);
  if (page_va + 4096 - 1 >= last) return 0;
  want = std::min(want, last - (page_va + 4096) + 1); // walk's range check, for the whole run
  const uint64_t need = write ? gmc::PTE_WRITEABLE : gmc::PTE_READABLE;
  const uint64_t pde_pte = gmc::pde_pte_flag(model_.pte_format);
  // The rest of the leaf entry's own block (nothing for a 4 KiB PTE), then the next entries of
  // its table while they continue it.
  const uint64_t block = 1ull << gmc::level_shift(leaf.level);
  uint64_t got = block - ((page_va - start) & (block - 1)) - 4096;
  uint64_t expect = (pte & gmc::kAddressMask) + 4096 + got;
  for (unsigned i = leaf.index + 1; got < want && i < gmc::kEntriesPerTable; ++i) {
    const uint64_t e = read_entry(leaf.table, i, va);
    if (!(e & gmc::PTE_VALID) || !(e & need) || (e & gmc::PTE_SYSTEM) != (pte & gmc::PTE_SYSTEM) ||
        (e & gmc::kAddressMask) != expect || (leaf.level == 1 && !(e & pde_pte)))
      break;
    got += block, expect += block;
  }
  return std::min(got, want);
}

uint8_t* Gmc::system_aperture(uint64_t va, size_t len, bool write) const {
  const uint64_t low = uint64_t(regs_.read(reg(hub_.SYSTEM_APERTURE_LOW_ADDR)) & 0x3fffffff) << 18;
  const uint64_t high =
      (uint64_t(regs_.read(reg(hub_.SYSTEM_APERTURE_HIGH_ADDR)) & 0x3fffffff) << 18) | 0x3ffff;
  if (va < low || va > high) return nullptr;
  const uint64_t fb = uint64_t(regs_.read(reg(hub_.FB_LOCATION_BASE)) & 0xffffff) << 24;
  uint8_t* p = va >= fb ? vram_at(va - fb, len) : nullptr;
  if (!p) fault("system-aperture address outside the frame buffer", va, write);
  return p;
}

uint64_t Gmc::walk(uint64_t va, size_t len, bool write, Leaf* leaf) const {
  const VmHubRegs& h = hub_;
  const uint32_t cntl = regs_.read(reg(h.CONTEXT0_CNTL));
  if (!(cntl & VM_CONTEXT_CNTL_ENABLE)) fault("VMID 0 context disabled", va, write);
  if (((cntl >> VM_CONTEXT_CNTL_DEPTH_SHIFT) & 3) != gmc::kPageTableDepth ||
      ((cntl >> h.block_size_shift) & 0xf) != 0)
    fault("unsupported page-table depth/block size", va, write);
  const uint64_t start = regs_.read64(reg(h.PAGE_TABLE_START_LO32), reg(h.PAGE_TABLE_START_HI32))
                         << 12;
  const uint64_t end = regs_.read64(reg(h.PAGE_TABLE_END_LO32), reg(h.PAGE_TABLE_END_HI32)) << 12;
  if (va < start || va + len - 1 > end + 4095) fault("address outside the VMID 0 range", va, write);
  const uint64_t base = regs_.read64(reg(h.PAGE_TABLE_BASE_LO32), reg(h.PAGE_TABLE_BASE_HI32));
  // GMC v11 marks a PDE-as-PTE with bit 54, v12 with bit 63 (on v12, bits [55:54] are the
  // memory type and bit 63 of a PTB entry is IS_PTE, which a leaf may carry either way).
  const uint64_t pde_pte = gmc::pde_pte_flag(model_.pte_format);
  if (!(base & gmc::PTE_VALID)) fault("page directory base not valid", va, write);

  const uint64_t rel = va - start;
  uint64_t table = base & gmc::kAddressMask;
  uint64_t entry = 0;
  uint64_t page_size = 0;
  for (int level = int(gmc::kLevels) - 1; level >= 0; --level) {
    unsigned index = unsigned(rel >> gmc::level_shift(unsigned(level))) & 511;
    entry = read_entry(table, index, va);
    if (!(entry & gmc::PTE_VALID)) fault("invalid page table entry", va, write);
    if (leaf) *leaf = Leaf{table, index, unsigned(level)};
    if (level == 0) {
      page_size = gmc::kPageSize;
      break;
    }
    if (entry & pde_pte) {
      if (level != 1) fault("PDE-as-PTE above the PDB0 level", va, write);
      page_size = 1ull << gmc::level_shift(1);
      break;
    }
    if (entry & gmc::PTE_SYSTEM) fault("page table in system memory", va, write);
    table = entry & gmc::kAddressMask;
  }
  // The entry narrowed to va's 4 KiB page (a 2 MiB PDE-as-PTE or fragment covers several).
  const uint64_t page_pa = (entry & gmc::kAddressMask) + (rel & (page_size - 1) & ~uint64_t(4095));
  return (entry & ~gmc::kAddressMask) | page_pa;
}

void Gmc::check_rights(uint64_t entry, uint64_t va, bool write, bool execute) const {
  if (rights_allow(entry, write, execute)) return;
  if (write && !(entry & gmc::PTE_WRITEABLE)) fault("write to a read-only page", va, write);
  if (!write && !(entry & gmc::PTE_READABLE)) fault("read of an unreadable page", va, write);
  if (execute && !(entry & gmc::PTE_EXECUTABLE))
    fault("instruction fetch from a non-executable page", va, write);
  if ((entry & gmc::PTE_SYSTEM) && !iommu_.bus_master())
    fault("system memory access with PCI bus mastering off (COMMAND.BUS_MASTER_ENABLE)", va, write);
  fault("access the entry's rights do not allow", va, write); // not reached: a reason above
}

uint8_t* Gmc::resolve(uint64_t entry, uint64_t va, size_t len, bool write, bool execute) const {
  check_rights(entry, va, write, execute);
  const uint64_t pa = (entry & gmc::kAddressMask) + (va & 4095);
  if (entry & gmc::PTE_SYSTEM) {
    uint8_t* p = iommu_.translate(pa, len);
    if (!p) fault("IOMMU fault: bus address not mapped", va, write);
    return p;
  }
  uint8_t* p = vram_at(pa, len);
  if (!p) fault("physical address beyond VRAM", va, write);
  return p;
}

} // namespace sim
