// The error code an entry point returns for an exception other than ClError (objects.h).
#pragma once
#include "objects.h"

namespace amcl::rt {

// Call only while handling an exception: a driver failure (reported on stderr) and anything
// unknown are CL_OUT_OF_RESOURCES, an allocation failure CL_OUT_OF_HOST_MEMORY.
cl_int current_exception_code() noexcept;

} // namespace amcl::rt
