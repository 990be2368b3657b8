#include "host_copy.h"

#include <sys/mman.h>

#include <cstdlib>

namespace amcl::rt {

void* alloc_host_copy(size_t& bytes) {
  if (bytes < kHugePageBytes) return std::malloc(bytes);
  const size_t rounded = (bytes + kHugePageBytes - 1) & ~(kHugePageBytes - 1);
  void* p = std::aligned_alloc(kHugePageBytes, rounded);
  if (!p) return nullptr;
  // Advice only: without transparent huge pages (or with them off) the pages fault as before.
  (void)madvise(p, rounded, MADV_HUGEPAGE);
  bytes = rounded;
  return p;
}

} // namespace amcl::rt
