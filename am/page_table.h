// VMID 0 page tables in the GMC v11 or v12 format: PDB1 (root) -> PDB0 -> PTB, 9 bits per
// level, 4 KiB PTEs and 2 MiB PDE-as-PTE mappings. Tables live in VRAM and are written through
// the BAR0 aperture.
#pragma once
#include "hw/gmc.h"

#include <cstdint>
#include <functional>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace am {

class PageTable {
public:
  // `alloc_table` returns the VRAM offset of a zeroed 4 KiB table.
  PageTable(uint8_t* vram, hw::gmc::PteFormat format, std::function<uint64_t()> alloc_table);
  uint64_t root() const { return root_; }

  enum Flags : uint32_t { kRead = 1, kWrite = 2, kExecute = 4, kSystem = 8, kSnooped = 16 };
  // Maps [va, va+size) to physical [pa, pa+size) (VRAM offset, or a bus address if kSystem).
  void map(uint64_t va, uint64_t pa, uint64_t size, uint32_t flags);
  // Maps consecutive 4 KiB pages at `va` to the given physical/bus page addresses.
  void map_pages(uint64_t va, const std::vector<uint64_t>& pages, uint32_t flags);
  void unmap(uint64_t va, uint64_t size);
  // Number of 4 KiB tables allocated (for tests and accounting).
  size_t table_count() const { return tables_; }

private:
  uint64_t* entry(uint64_t table, unsigned index);
  uint64_t descend(uint64_t table, unsigned index);
  uint8_t* vram_;
  uint64_t pde_pte_;  // the format's PDE-as-PTE flag
  uint64_t leaf_bits_; // bits every 4 KiB PTE of the format carries
  std::function<uint64_t()> alloc_table_;
  uint64_t root_;
  size_t tables_ = 1;
  std::mutex mutex_;
};

} // namespace am
