#include "local_size.h"

#include <algorithm>

namespace amcl::rt {

void choose_local_size(cl_uint dims, const size_t* global, size_t cap, size_t* local) {
  size_t left = std::max<size_t>(cap, 1);
  for (cl_uint i = 0; i < dims; ++i) {
    size_t d = std::min(global[i], left);
    while (d > 1 && global[i] % d) --d;
    local[i] = std::max<size_t>(d, 1);
    left /= local[i];
  }
}

} // namespace amcl::rt
