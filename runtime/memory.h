// Buffer objects: creation with their host-pointer flags, storage on the context's cards, and
// sub-buffers over a parent's storage. The entry point has checked the flags and sizes.
#pragma once
#include "objects.h"

#include <cstddef>
#include <vector>

namespace amcl::rt {

// The groups of memory flags (OpenCL 3.0, table "Memory Flags"): at most one of each of the
// first two, and CL_MEM_USE_HOST_PTR never with either of the others of the third.
inline constexpr cl_mem_flags kDeviceAccessFlags =
    CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY;
inline constexpr cl_mem_flags kHostAccessFlags =
    CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS;
inline constexpr cl_mem_flags kHostPointerFlags =
    CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR;

// A buffer of `size` bytes in the VRAM of the context's first device, mapped at the same
// address into the others' page tables; CL_MEM_COPY_HOST_PTR and CL_MEM_USE_HOST_PTR copy
// `host_ptr` in, except that CL_MEM_USE_HOST_PTR on SVM memory of the context makes the buffer
// that memory (CL_MEM_USES_SVM_POINTER). CL_MEM_OBJECT_ALLOCATION_FAILURE when the memory cannot be had.
cl_mem create_buffer(cl_context context, cl_mem_flags flags, size_t size, void* host_ptr,
                     std::vector<cl_mem_properties> properties);

// A sub-buffer of `parent` at [origin, origin + size): access and host-access flags not
// given are the parent's, and the host-pointer flags always are.
cl_mem create_sub_buffer(cl_mem parent, cl_mem_flags flags, size_t origin, size_t size);

// `size` bytes of the context's first device's VRAM, mapped at the same address into the other
// devices' page tables; undone by ~_cl_mem. Throws am::DeviceError, having released what it got.
// enum Visibility: what the CPU does with it. GpuOnly (buffers, images: the runtime reaches
// them by SDMA) goes beyond BAR0 when there is room, except in a context of several cards,
// whose peers reach VRAM only through the owner's BAR; CpuVisible (descriptors the runtime
// writes) is always inside BAR0.
enum class Visibility { GpuOnly, CpuVisible };
am::Allocation alloc_in_context(cl_context context, uint64_t size,
                                Visibility visibility = Visibility::GpuOnly);

// The device memory allocations not freed yet on `d`, and their bytes (a debugging hook).
struct LiveAllocations {
  cl_ulong count, bytes;
};
LiveAllocations live_allocations(cl_device_id d);

} // namespace amcl::rt
