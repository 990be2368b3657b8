// The driver's memory: VRAM ranges, pinned and IOMMU-mapped system pages and other cards' VRAM
// (peer mappings), each mapped into VMID 0's page tables in the one process-wide VA space, and
// the boot region at the top of VRAM that the PSP keeps firmware in. It tracks every mapping it
// made, so that the driver can read what the GPU sees at an address (a faulting wave's code).
// amdgpu's amdgpu_vram_mgr / amdgpu_vm in small, as tinygrad's AM memory manager.
#pragma once
#include "gmc.h"
#include "memory.h"
#include "pci.h"
#include "vram_allocator.h"

#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <vector>

namespace am {

class MemoryManager {
public:
  MemoryManager(Pci& pci, Gmc& gmc);

  // The allocator page tables and ordinary allocations come from (below the boot region).
  VramAllocator& vram() { return vram_; }
  // Sizes are rounded up to whole pages; failures throw DeviceError.
  Allocation alloc_vram(uint64_t size, uint64_t align = 4096, bool executable = false);
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
  // Unmaps what is left of the peers and the boot region's mappings (the boot memory itself
  // stays reserved for the next session).
  void fini();

  uint64_t vram_free() const { return vram_.free_bytes(); }
  uint64_t live_allocations() const { return live_; }
  uint64_t live_bytes() const { return live_bytes_; }
  // Copies up to three dwords at GPU address `va` from the driver's own mappings of the
  // allocations it made; returns how many were inside them.
  unsigned read_code(uint64_t va, uint32_t out[3]);

private:
  void track(const Allocation& a);
  void untrack(uint64_t va);

  Pci& pci_;
  Gmc& gmc_;
  VramAllocator vram_;
  uint64_t boot_next_ = 0;              // next free byte of the boot region (VRAM offset)
  std::vector<Allocation> boot_allocs_; // their VA mappings, released with the device
  std::vector<Allocation> peers_;       // peer mappings (phys = the bus address here)
  std::vector<Allocation> host_maps_;   // map_host's mappings, guarded by mapped_mutex_
  // Every allocation the driver has mapped, by GPU address: its own view of memory.
  std::map<uint64_t, Allocation> mapped_;
  std::mutex mapped_mutex_;
  std::atomic<uint64_t> live_ = 0, live_bytes_ = 0;
};

} // namespace am
