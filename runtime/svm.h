// Shared virtual memory (OpenCL 3.0, "Shared Virtual Memory"): clSVMAlloc memory is host memory
// carved from a window reserved inside the GPU's VA space, mapped into every card of the context
// at GPU address == host address, so a pointer is the same number on the host and in every
// kernel. The entry point has checked handles, flags and wait lists.
#pragma once
#include "objects.h"

#include <cstddef>
#include <optional>
#include <vector>

namespace amcl::rt {

// Coarse- and fine-grain buffer SVM; no SVM atomics (svm.cpp says why), no system SVM.
inline constexpr cl_device_svm_capabilities kSvmCapabilities =
    CL_DEVICE_SVM_COARSE_GRAIN_BUFFER | CL_DEVICE_SVM_FINE_GRAIN_BUFFER;
// The largest alignment clSVMAlloc honours (a power of two): a 2 MiB page.
inline constexpr size_t kSvmMaxAlignment = size_t(2) << 20;

// `size` bytes of SVM for `context`, aligned to `alignment` (0: the default, 128, a long16);
// nullptr when the window or the host has no room, or a card cannot map it.
void* svm_alloc(cl_context context, cl_svm_mem_flags flags, size_t size, size_t alignment);
// Frees an allocation of `context` by its start; anything else is ignored (clSVMFree has no
// error to return).
void svm_free(cl_context context, void* p);
// Frees what the context's allocations left (a context released before its SVM).
void svm_release_context(cl_context context);

// The allocation of `context` that holds [p, p + size), or that p points into or just past
// when size is 0 (pointer arithmetic may end there).
struct SvmRegion {
  uint8_t* base;
  size_t size;
  cl_svm_mem_flags flags;
};
std::optional<SvmRegion> svm_region(cl_context context, const void* p, size_t size);

// The SVM commands. Each enqueues one command behind `waits` and returns its event with one
// reference for the caller. The memory is host memory the cards reach snooped, so copies and
// fills are host copies ordered by the queue, and maps, unmaps and migrations only order.
using SvmFreeCallback = void(CL_CALLBACK*)(cl_command_queue, cl_uint, void*[], void*);
cl_event enqueue_svm_free(cl_command_queue q, std::vector<void*> pointers, SvmFreeCallback callback,
                          void* user_data, const cl_event* waits, cl_uint nwait);
cl_event enqueue_svm_memcpy(cl_command_queue q, void* dst, const void* src, size_t size,
                            const cl_event* waits, cl_uint nwait, bool blocking);
cl_event enqueue_svm_fill(cl_command_queue q, void* dst, const void* pattern, size_t pattern_size,
                          size_t size, const cl_event* waits, cl_uint nwait);
// clEnqueueSVMMap, clEnqueueSVMUnmap and clEnqueueSVMMigrateMem (`type` says which).
cl_event enqueue_svm_sync(cl_command_queue q, cl_command_type type, const cl_event* waits,
                          cl_uint nwait, bool blocking);

// clSetKernelArgSVMPointer for an explicit argument `index` (< the kernel's count):
// CL_INVALID_ARG_VALUE unless the argument is a global or constant pointer and `p` is null or
// points into (or just past) an SVM allocation of the kernel's context.
cl_int set_kernel_arg_svm(cl_kernel k, cl_uint index, const void* p);

} // namespace amcl::rt
