#include "memory_manager.h"

#include "device_error.h"
#include "page_table.h"
#include "va_space.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>

namespace am {
namespace {

constexpr uint64_t kPage = 4096;
constexpr uint64_t kHuge = 2ull << 20;
// Top of VRAM: the IP discovery binary and the firmware's reservations (amdgpu_ttm_reserve_tmr
// keeps the VBIOS's fw_reserved_fb_size there, at least DISCOVERY_TMR_OFFSET = 64 KiB; the
// emulated card's boot TMR sits in this MiB). Nothing of the driver's goes there.
constexpr uint64_t kReservedTop = 1ull << 20;
// Below the visible heap's end, the boot region: the PSP's buffers (the CPU writes its commands
// there, so it must lie inside the BAR), the TMR (firmware the PSP keeps) and the SMU's tables.
// Ordinary allocations never come from it, in this session or a later one.
constexpr uint64_t kBootRegion = 32ull << 20;

uint64_t round_up(uint64_t v, uint64_t a) {
  return (v + a - 1) & ~(a - 1);
}

} // namespace

void MemoryManager::init_sw(uint64_t vram_size) {
  if (vram_size < kReservedTop + kBootRegion + (64ull << 20))
    throw DeviceError(pci_.address() + ": " + std::to_string(vram_size >> 20) +
                      " MiB of VRAM is too little for amcl");
  const uint64_t usable_end = vram_size - kReservedTop;
  const uint64_t visible_end = std::min(pci_.bar0_size() & ~(kHuge - 1), usable_end);
  if (visible_end < kBootRegion + (16ull << 20))
    throw DeviceError(pci_.address() + ": a BAR0 of " + std::to_string(pci_.bar0_size() >> 20) +
                      " MiB is too small for amcl's rings, page tables and boot region");
  boot_base_ = visible_end - kBootRegion;
  visible_ = std::make_unique<VramAllocator>(0, boot_base_);
  if (visible_end < usable_end)
    invisible_ = std::make_unique<VramAllocator>(visible_end, usable_end - visible_end);
}

Allocation MemoryManager::alloc_boot(uint64_t size, uint64_t align) {
  size = round_up(size, kPage);
  const uint64_t phys = round_up(boot_base_ + boot_next_, align);
  if (phys + size > boot_base_ + kBootRegion)
    throw DeviceError("boot memory region (" + std::to_string(kBootRegion >> 20) +
                      " MiB) exhausted");
  boot_next_ = phys + size - boot_base_;
  auto va = VaSpace::process().allocate(size, std::max<uint64_t>(align, kPage));
  if (!va) throw DeviceError("out of GPU virtual address space");
  gmc_.page_table().map(*va, phys, size, PageTable::kRead | PageTable::kWrite);
  Allocation a{*va, size, pci_.vram() + phys, MemoryKind::Vram, phys};
  boot_allocs_.push_back(a);
  track(a);
  return a;
}

Allocation MemoryManager::alloc_vram(uint64_t size, uint64_t align, bool executable) {
  size = round_up(size ? size : 1, kPage);
  align = std::max<uint64_t>(align, size >= kHuge ? uint64_t(kHuge) : uint64_t(kPage));
  auto phys = visible_->allocate(size, align);
  if (!phys)
    throw DeviceError("out of CPU-visible VRAM (BAR0 " + std::to_string(pci_.bar0_size() >> 20) +
                      " MiB): " + std::to_string(size) + " bytes requested, " +
                      std::to_string(visible_->largest_free()) + " largest free block");
  return map_vram(*visible_, *phys, size, align, executable);
}

Allocation MemoryManager::alloc_vram_gpu(uint64_t size, uint64_t align) {
  size = round_up(size ? size : 1, kPage);
  align = std::max<uint64_t>(align, size >= kHuge ? uint64_t(kHuge) : uint64_t(kPage));
  if (invisible_)
    if (auto phys = invisible_->allocate(size, align))
      return map_vram(*invisible_, *phys, size, align, false);
  auto phys = visible_->allocate(size, align);
  if (!phys) {
    const uint64_t largest =
        std::max(visible_->largest_free(), invisible_ ? invisible_->largest_free() : 0);
    throw DeviceError("out of VRAM: " + std::to_string(size) + " bytes requested, " +
                      std::to_string(largest) + " largest free block");
  }
  return map_vram(*visible_, *phys, size, align, false);
}

Allocation MemoryManager::map_vram(VramAllocator& heap, uint64_t phys, uint64_t size,
                                   uint64_t align, bool executable) {
  auto va = VaSpace::process().allocate(size, align);
  if (!va) {
    heap.free(phys, size);
    throw DeviceError("out of GPU virtual address space");
  }
  uint32_t flags =
      PageTable::kRead | PageTable::kWrite | (executable ? uint32_t(PageTable::kExecute) : 0u);
  gmc_.page_table().map(*va, phys, size, flags);
  gmc_.invalidate_tlb();
  ++live_;
  live_bytes_ += size;
  // Only VRAM inside BAR0 has a CPU address.
  uint8_t* cpu = phys + size <= pci_.bar0_size() ? pci_.vram() + phys : nullptr;
  const Allocation a{*va, size, cpu, MemoryKind::Vram, phys};
  track(a);
  return a;
}

Allocation MemoryManager::alloc_system(uint64_t size) {
  size = round_up(size ? size : 1, kPage);
  void* host = nullptr;
  if (posix_memalign(&host, kPage, size) != 0) throw DeviceError("out of host memory");
  std::memset(host, 0, size);
  std::vector<uint64_t> pages;
  try {
    pages = pci_.dma_map(host, size);
  } catch (const std::exception& e) {
    std::free(host);
    throw DeviceError(std::string("DMA map failed: ") + e.what());
  }
  auto va = VaSpace::process().allocate(size, kPage);
  if (!va) {
    pci_.dma_unmap(host, size);
    std::free(host);
    throw DeviceError("out of GPU virtual address space");
  }
  gmc_.page_table().map_pages(
      *va, pages, PageTable::kRead | PageTable::kWrite | PageTable::kSystem | PageTable::kSnooped);
  gmc_.invalidate_tlb();
  ++live_;
  live_bytes_ += size;
  const Allocation a{*va, size, static_cast<uint8_t*>(host), MemoryKind::System, pages.front()};
  track(a);
  return a;
}

void MemoryManager::free(const Allocation& a) {
  if (!a) return;
  untrack(a.va);
  gmc_.page_table().unmap(a.va, a.size);
  gmc_.invalidate_tlb(); // before the memory or its address can be handed out again
  VaSpace::process().free(a.va, a.size);
  if (a.kind == MemoryKind::Vram) {
    (invisible_ && a.phys >= boot_base_ ? *invisible_ : *visible_).free(a.phys, a.size);
  } else {
    pci_.dma_unmap(a.cpu, a.size);
    std::free(a.cpu);
  }
  --live_;
  live_bytes_ -= a.size;
}

void MemoryManager::map_peer(const Allocation& remote) {
  if (remote.kind != MemoryKind::Vram)
    throw DeviceError("peer mapping needs another card's VRAM allocation");
  // Another card reaches VRAM only through its owner's BAR0 (a peer-to-peer PCIe access).
  if (!remote.cpu)
    throw DeviceError("peer mapping needs VRAM inside the owner's BAR0; this allocation lies "
                      "beyond it");
  for (const Allocation& p : peers_)
    if (p.va == remote.va) throw DeviceError("that allocation is already mapped here");
  // The remote card's VRAM is its BAR0 aperture; the IOMMU makes it reachable from this card.
  std::vector<uint64_t> pages;
  try {
    pages = pci_.dma_map(remote.cpu, remote.size);
  } catch (const std::exception& e) {
    throw DeviceError(std::string("peer mapping failed: ") + e.what());
  }
  gmc_.page_table().map_pages(remote.va, pages,
                              PageTable::kRead | PageTable::kWrite | PageTable::kSystem);
  gmc_.invalidate_tlb();
  Allocation here = remote;
  here.kind = MemoryKind::System;
  here.phys = pages.front();
  peers_.push_back(here);
  track(here);
}

void MemoryManager::unmap_peer(const Allocation& remote) {
  auto it = std::find_if(peers_.begin(), peers_.end(),
                         [&](const Allocation& p) { return p.va == remote.va; });
  if (it == peers_.end()) return;
  untrack(it->va);
  gmc_.page_table().unmap(it->va, it->size);
  gmc_.invalidate_tlb();
  pci_.dma_unmap(it->cpu, it->size);
  peers_.erase(it);
}

void MemoryManager::map_host(void* host, uint64_t size) {
  const auto va = reinterpret_cast<uint64_t>(host);
  if (va % kPage || size % kPage || !size || !VaSpace::in_host_window(va, size))
    throw DeviceError("host mapping outside the shared-memory windows");
  std::vector<uint64_t> pages;
  try {
    pages = pci_.dma_map(host, size);
  } catch (const std::exception& e) {
    throw DeviceError(std::string("DMA map failed: ") + e.what());
  }
  gmc_.page_table().map_pages(
      va, pages, PageTable::kRead | PageTable::kWrite | PageTable::kSystem | PageTable::kSnooped);
  gmc_.invalidate_tlb();
  const Allocation a{va, size, static_cast<uint8_t*>(host), MemoryKind::System, pages.front()};
  track(a);
  std::lock_guard lock(mapped_mutex_);
  host_maps_.push_back(a);
}

void MemoryManager::unmap_host(void* host, uint64_t size) {
  const auto va = reinterpret_cast<uint64_t>(host);
  {
    std::lock_guard lock(mapped_mutex_);
    auto it = std::find_if(host_maps_.begin(), host_maps_.end(),
                           [&](const Allocation& a) { return a.va == va && a.size == size; });
    if (it == host_maps_.end()) return;
    host_maps_.erase(it);
  }
  untrack(va);
  gmc_.page_table().unmap(va, size);
  gmc_.invalidate_tlb(); // before the pages can be unpinned and reused
  pci_.dma_unmap(host, size);
}

Allocation MemoryManager::map_transfer(const void* host, uint64_t size, bool device_writes) {
  const auto at = reinterpret_cast<uintptr_t>(host);
  const uint64_t first = at & ~(kPage - 1), bytes = round_up(at + size, kPage) - first;
  // Shared virtual memory is mapped at its own address already, pinned by map_host: a second
  // pinning would be undone (munlock does not count) while that mapping still needs it.
  for (const VaSpace::Window& w : VaSpace::kHostWindows)
    if (first < w.base + w.size && w.base < first + bytes)
      throw DeviceError("transfer memory inside a shared-memory window");
  auto* cpu = reinterpret_cast<uint8_t*>(first);
  std::vector<uint64_t> pages;
  try {
    pages = pci_.dma_map(cpu, bytes);
  } catch (const std::exception& e) {
    throw DeviceError(std::string("DMA map failed: ") + e.what());
  }
  auto va = VaSpace::process().allocate(bytes, kPage);
  if (!va) {
    pci_.dma_unmap(cpu, bytes);
    throw DeviceError("out of GPU virtual address space");
  }
  uint32_t access = PageTable::kRead | PageTable::kSystem | PageTable::kSnooped;
  if (device_writes) access |= PageTable::kWrite;
  gmc_.page_table().map_pages(*va, pages, access);
  gmc_.invalidate_tlb();
  return Allocation{*va, bytes, cpu, MemoryKind::System, pages.front()};
}

void MemoryManager::unmap_transfer(const Allocation& a) {
  gmc_.page_table().unmap(a.va, a.size);
  gmc_.invalidate_tlb(); // before the pages are unpinned and the address reused
  VaSpace::process().free(a.va, a.size);
  pci_.dma_unmap(a.cpu, a.size);
}

void MemoryManager::fini() {
  for (const Allocation& p : std::vector<Allocation>(peers_)) unmap_peer(p);
  std::vector<Allocation> hosts;
  {
    std::lock_guard lock(mapped_mutex_);
    hosts = host_maps_;
  }
  for (const Allocation& h : hosts) unmap_host(h.cpu, h.size);
  for (const Allocation& a : boot_allocs_) { // the memory stays reserved; the mapping goes
    untrack(a.va);
    gmc_.page_table().unmap(a.va, a.size);
    VaSpace::process().free(a.va, a.size);
  }
  boot_allocs_.clear();
}

unsigned MemoryManager::read_code(uint64_t va, uint32_t out[3]) {
  std::lock_guard lock(mapped_mutex_);
  unsigned n = 0;
  for (; n < 3; ++n) {
    const uint64_t at = va + 4 * n;
    auto it = mapped_.upper_bound(at);
    if (it == mapped_.begin()) break;
    const Allocation& a = std::prev(it)->second;
    if (at + 4 > a.va + a.size || !a.cpu) break;
    std::memcpy(&out[n], a.cpu + (at - a.va), 4);
  }
  return n;
}

void MemoryManager::track(const Allocation& a) {
  std::lock_guard lock(mapped_mutex_);
  mapped_[a.va] = a;
}

void MemoryManager::untrack(uint64_t va) {
  std::lock_guard lock(mapped_mutex_);
  mapped_.erase(va);
}

} // namespace am
