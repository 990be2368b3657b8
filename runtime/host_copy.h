// Host memory for amcl's own large copies of device data (image maps): the copy engine writes
// it whole on its first touch, so it comes in transparent huge pages where the kernel offers
// them (one page fault per 2 MiB instead of 512; a fault costs microseconds on a
// paravirtualised machine).
#pragma once
#include <cstddef>

namespace amcl::rt {

inline constexpr size_t kHugePageBytes = size_t{2} << 20;

// At least `bytes` of host memory, freed with std::free; `bytes` becomes the usable size (a
// copy of 2 MiB or more is rounded up to whole, 2 MiB-aligned huge pages). nullptr if none.
void* alloc_host_copy(size_t& bytes);

} // namespace amcl::rt
