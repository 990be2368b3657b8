// Physical addresses of this process's pages, for DMA without an IOMMU (bus address =
// physical address) and for vfio's iova = physical address mappings.
// Source: Linux Documentation/admin-guide/mm/pagemap.rst: /proc/self/pagemap holds one 64-bit
// entry per virtual page; bit 63 "page present", bits 0-54 the page frame number, which reads
// as 0 unless the reader has CAP_SYS_ADMIN.
#pragma once
#include <cstdint>
#include <vector>

namespace am {

// Pins [host, host + size) in memory (mlock) and returns the physical address of each 4 KiB
// page. `host` and `size` are page aligned. Throws std::runtime_error saying why it cannot
// (no CAP_SYS_ADMIN, mlock limit, ...).
std::vector<uint64_t> pin_physical_pages(void* host, uint64_t size);
// Undoes the pinning.
void unpin_pages(void* host, uint64_t size);

} // namespace am
