// The memory-flag checks of every memory object creator (OpenCL 3.0, table "Memory Flags").
#pragma once
#include "api_util.h"
#include "runtime/memory.h"

namespace amcl::icd {

// CL_INVALID_VALUE when `flags` has a bit outside `allowed`, or two flags the table says are
// mutually exclusive: two device access flags, two host access flags, or CL_MEM_USE_HOST_PTR
// with CL_MEM_ALLOC_HOST_PTR or CL_MEM_COPY_HOST_PTR.
void check_mem_flags(cl_mem_flags flags, cl_mem_flags allowed);

// The flags clCreateBuffer takes.
inline constexpr cl_mem_flags kBufferFlags =
    rt::kDeviceAccessFlags | rt::kHostAccessFlags | rt::kHostPointerFlags;

// clCreateSubBuffer: only access flags, none that widens the parent's (a write-only parent
// makes no readable sub-buffer, a host-read-only one no host-writable one, ...).
void check_sub_buffer_flags(cl_mem_flags parent, cl_mem_flags flags);

} // namespace amcl::icd
