// The driver's memory: VRAM ranges, pinned and IOMMU-mapped system pages and other cards' VRAM
// (peer mappings), each mapped into VMID 0's page tables in the one process-wide VA space, and
// the boot region that the PSP keeps firmware in. It tracks every mapping it made, so that the
// driver can read what the GPU sees at an address (a faulting wave's code).
// amdgpu's amdgpu_vram_mgr / amdgpu_vm in small, as tinygrad's AM memory manager.
//
// VRAM layout (offsets; DESIGN.md "VRAM larger than the BAR"):
//   [0, visible_end - boot)      CPU-visible heap: rings, MQD, EOP, page tables, signals,
//                                kernargs, code objects, descriptors (everything `.cpu` touches)
//   [visible_end - boot, visible_end)  the boot region (PSP buffers the CPU writes, the TMR)
//   [bar0, vram - reserved top)  the invisible heap (only when BAR0 is smaller than VRAM)
//   [vram - reserved top, vram)  the discovery binary and firmware reservations, never touched
// visible_end = min(BAR0, vram - reserved top).
#pragma once
#include "gmc.h"
#include "memory.h"
#include "pci.h"
#include "vram_allocator.h"
#include <algorithm>

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

namespace am {

class MemoryManager {
public:
  MemoryManager(Pci& pci, Gmc& gmc) : pci_(pci), gmc_(gmc) {}
  // Lays VRAM out once its size is known (RCC_CONFIG_MEMSIZE), before the first allocation.
  void init_sw(uint64_t vram_size);

  // The allocator page tables come from: CPU-visible VRAM below the boot region.
  VramAllocator& vram() { return *visible_; }
  // CPU-visible VRAM (`cpu` set). Sizes are rounded up to whole pages; failures throw
  // DeviceError: there is no fallback, the BAR is all the CPU can reach.
  Allocation alloc_vram(uint64_t size, uint64_t align = 4096, bool executable = false);
  // VRAM only the GPU touches (buffers, images, scratch; the CPU reaches it by SDMA): beyond
  // the BAR while there is room there, else CPU-visible VRAM. `cpu` is nullptr beyond the BAR.
  Allocation alloc_vram_gpu(uint64_t size, uint64_t align = 4096);
  Allocation alloc_system(uint64_t size);
  // Boot memory: the region below the discovery table that no later allocation (of this or a
  // later session) overwrites, because the PSP keeps firmware in it (the TMR).
  Allocation alloc_boot(uint64_t size, uint64_t align);
  void free(const Allocation& a);
  void map_peer(const Allocation& remote);
  void unmap_peer(const Allocation& remote);
  // Host memory the caller owns, mapped for the GPU at its own host address (shared virtual
  // memory): pinned, IOMMU-mapped, snooped. The range must lie in one of VaSpace's host windows
  // and be page-aligned; undo with unmap_host before the memory goes.
  void map_host(void* host, uint64_t size);
  void unmap_host(void* host, uint64_t size);
  // The application's memory of one transfer, mapped for the card's DMA engines for its
  // duration: the pages around [host, host + size) pinned and IOMMU-mapped (Pci::dma_map), at a
  // fresh GPU address, readable only unless `device_writes`. The result covers whole pages (its
  // `va` maps `cpu`, the first page's start). Throws DeviceError when the pages cannot be
  // mapped (the caller copies through staging instead). Undo with unmap_transfer.
  Allocation map_transfer(const void* host, uint64_t size, bool device_writes);
  void unmap_transfer(const Allocation& a);
  // Unmaps what is left of the peers and the boot region's mappings (the boot memory itself
  // stays reserved for the next session).
  void fini();

  uint64_t vram_free() const {
    return visible_->free_bytes() + (invisible_ ? invisible_->free_bytes() : 0);
  }
  // Free VRAM inside BAR0 (what alloc_vram can still hand out).
  uint64_t visible_vram_free() const { return visible_->free_bytes(); }
  // The largest single allocation VRAM could still take.
  uint64_t vram_largest_free() const {
    return std::max(visible_->largest_free(), invisible_ ? invisible_->largest_free() : 0);
  }
  uint64_t live_allocations() const { return live_; }
  uint64_t live_bytes() const { return live_bytes_; }
  // Copies up to three dwords at GPU address `va` from the driver's own mappings of the
  // allocations it made; returns how many were inside them.
  unsigned read_code(uint64_t va, uint32_t out[3]);

private:
  void track(const Allocation& a);
  void untrack(uint64_t va);
  // Maps `phys` (from `heap`) at a new VA; gives the range back to `heap` when that fails.
  Allocation map_vram(VramAllocator& heap, uint64_t phys, uint64_t size, uint64_t align,
                      bool executable);

  Pci& pci_;
  Gmc& gmc_;
  std::unique_ptr<VramAllocator> visible_, invisible_; // invisible_: null when BAR0 covers VRAM
  uint64_t boot_base_ = 0;                             // the boot region's first byte (VRAM offset)
  uint64_t boot_next_ = 0;              // next free byte of the boot region (from boot_base_)
  std::vector<Allocation> boot_allocs_; // their VA mappings, released with the device
  std::vector<Allocation> peers_;       // peer mappings (phys = the bus address here)
  std::vector<Allocation> host_maps_;   // map_host's mappings, guarded by mapped_mutex_
  // Every allocation the driver has mapped, by GPU address: its own view of memory.
  std::map<uint64_t, Allocation> mapped_;
  std::mutex mapped_mutex_;
  std::atomic<uint64_t> live_ = 0, live_bytes_ = 0;
};

} // namespace am
