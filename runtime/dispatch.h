// Turns clEnqueueNDRangeKernel into a kernel dispatch: kernel arguments (explicit and code
// object v5 hidden ones), an HSA dispatch packet for kernels that read it, the user SGPRs the
// kernel descriptor asks for, and the PM4 packets on the compute ring.
#pragma once
#include "objects.h"

namespace amcl::rt {

void dispatch_kernel(cl_command_queue q, cl_kernel k, cl_uint dims, const size_t* offset,
                     const size_t* global, const size_t* local);

} // namespace amcl::rt
