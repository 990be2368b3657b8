// The work-group size amcl picks when clEnqueueNDRangeKernel is given none.
#pragma once
#include <CL/cl.h>

#include <cstddef>

namespace amcl::rt {

// Each dimension in turn takes its largest divisor that keeps the group within `cap`
// work-items, so whole groups cover the NDRange (as OpenCL C 1.x kernels need) and odd sizes
// still fill waves: 329 x 349 x 202 gets 47 x 1 x 2, not one work-item per group.
void choose_local_size(cl_uint dims, const size_t* global, size_t cap, size_t* local);

} // namespace amcl::rt
