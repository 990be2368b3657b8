#include "mem_flags.h"

namespace amcl::icd {

void check_mem_flags(cl_mem_flags flags, cl_mem_flags allowed) {
  auto count = [](cl_mem_flags f) { return __builtin_popcountll(f); };
  if ((flags & ~allowed) || count(flags & rt::kDeviceAccessFlags) > 1 ||
      count(flags & rt::kHostAccessFlags) > 1 ||
      ((flags & CL_MEM_USE_HOST_PTR) && (flags & (CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR))))
    throw ClError{CL_INVALID_VALUE, ""};
}

void check_sub_buffer_flags(cl_mem_flags parent, cl_mem_flags flags) {
  check_mem_flags(flags, rt::kDeviceAccessFlags | rt::kHostAccessFlags);
  if (((parent & CL_MEM_WRITE_ONLY) && (flags & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY))) ||
      ((parent & CL_MEM_READ_ONLY) && (flags & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY))) ||
      ((parent & CL_MEM_HOST_WRITE_ONLY) && (flags & CL_MEM_HOST_READ_ONLY)) ||
      ((parent & CL_MEM_HOST_READ_ONLY) && (flags & CL_MEM_HOST_WRITE_ONLY)) ||
      ((parent & CL_MEM_HOST_NO_ACCESS) &&
       (flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY))))
    throw ClError{CL_INVALID_VALUE, ""};
}

} // namespace amcl::icd
