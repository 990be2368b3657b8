// Shared virtual memory: allocation, the SVM commands and SVM kernel arguments, with the
// checks OpenCL 3.0 lists for each; runtime/svm.h does the work.
#include "api_util.h"
#include "enqueue.h"
#include "runtime/svm.h"

#include <vector>

using namespace amcl;
using namespace amcl::icd;

namespace {

constexpr cl_svm_mem_flags kSvmAccessFlags =
    CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY;

// clSVMAlloc's rules: one access flag at most, atomics only with fine grain, and only what the
// devices offer; a power-of-two alignment they can honour; a size a buffer could have.
bool valid_svm_request(cl_context context, cl_svm_mem_flags flags, size_t size, cl_uint alignment) {
  const cl_svm_mem_flags known =
      kSvmAccessFlags | CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS;
  if (flags & ~known || __builtin_popcountll(flags & kSvmAccessFlags) > 1) return false;
  if ((flags & CL_MEM_SVM_ATOMICS) && !(flags & CL_MEM_SVM_FINE_GRAIN_BUFFER)) return false;
  const cl_svm_mem_flags offered =
      (rt::kSvmCapabilities & CL_DEVICE_SVM_FINE_GRAIN_BUFFER ? CL_MEM_SVM_FINE_GRAIN_BUFFER : 0) |
      (rt::kSvmCapabilities & CL_DEVICE_SVM_ATOMICS ? CL_MEM_SVM_ATOMICS : 0);
  if (flags & (CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS) & ~offered) return false;
  if (alignment & (alignment - 1) || alignment > rt::kSvmMaxAlignment) return false;
  for (cl_device_id d : context->devices) {
    cl_ulong max_alloc = 0;
    clGetDeviceInfo(d, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof max_alloc, &max_alloc, nullptr);
    if (size == 0 || size > max_alloc) return false;
  }
  return true;
}

bool valid_pattern_size(size_t s) {
  return s && s <= 128 && (s & (s - 1)) == 0;
}

} // namespace

extern "C" {

void* CL_API_CALL clSVMAlloc(cl_context context, cl_svm_mem_flags flags, size_t size,
                             cl_uint alignment) {
  if (!rt::valid(context) || !valid_svm_request(context, flags, size, alignment)) return nullptr;
  try {
    return rt::svm_alloc(context, flags, size, alignment ? alignment : 128);
  } catch (...) {
    return nullptr; // clSVMAlloc reports every failure as NULL
  }
}

void CL_API_CALL clSVMFree(cl_context context, void* svm_pointer) {
  if (!rt::valid(context) || !svm_pointer) return;
  try {
    rt::svm_free(context, svm_pointer);
  } catch (...) {
  } // no error to return
}

cl_int CL_API_CALL clEnqueueSVMFree(cl_command_queue q, cl_uint num_svm_pointers,
                                    void* svm_pointers[], rt::SvmFreeCallback pfn_free_func,
                                    void* user_data, cl_uint nwait, const cl_event* wait,
                                    cl_event* event) {
  return guarded([&] {
    require(q, CL_INVALID_COMMAND_QUEUE);
    if ((num_svm_pointers == 0) != (svm_pointers == nullptr)) throw ClError{CL_INVALID_VALUE, ""};
    for (cl_uint i = 0; i < num_svm_pointers; ++i)
      if (!svm_pointers[i]) throw ClError{CL_INVALID_VALUE, ""};
    check_wait_list(q, nwait, wait);
    std::vector<void*> pointers(svm_pointers, svm_pointers + num_svm_pointers);
    return hand_back(
        rt::enqueue_svm_free(q, std::move(pointers), pfn_free_func, user_data, wait, nwait), event);
  });
}

cl_int CL_API_CALL clEnqueueSVMMemcpy(cl_command_queue q, cl_bool blocking, void* dst,
                                      const void* src, size_t size, cl_uint nwait,
                                      const cl_event* wait, cl_event* event) {
  return guarded([&] {
    require(q, CL_INVALID_COMMAND_QUEUE);
    if (!dst || !src) throw ClError{CL_INVALID_VALUE, ""};
    const auto d = reinterpret_cast<uintptr_t>(dst), s = reinterpret_cast<uintptr_t>(src);
    if (size && (d < s ? s - d < size : d - s < size)) throw ClError{CL_MEM_COPY_OVERLAP, ""};
    check_wait_list(q, nwait, wait);
    return hand_back(rt::enqueue_svm_memcpy(q, dst, src, size, wait, nwait, blocking), event);
  });
}

cl_int CL_API_CALL clEnqueueSVMMemFill(cl_command_queue q, void* svm_ptr, const void* pattern,
                                       size_t pattern_size, size_t size, cl_uint nwait,
                                       const cl_event* wait, cl_event* event) {
  return guarded([&] {
    require(q, CL_INVALID_COMMAND_QUEUE);
    if (!svm_ptr || !pattern || !valid_pattern_size(pattern_size) ||
        reinterpret_cast<uintptr_t>(svm_ptr) % pattern_size || size % pattern_size)
      throw ClError{CL_INVALID_VALUE, ""};
    check_wait_list(q, nwait, wait);
    return hand_back(rt::enqueue_svm_fill(q, svm_ptr, pattern, pattern_size, size, wait, nwait),
                     event);
  });
}

cl_int CL_API_CALL clEnqueueSVMMap(cl_command_queue q, cl_bool blocking, cl_map_flags flags,
                                   void* svm_ptr, size_t size, cl_uint nwait, const cl_event* wait,
                                   cl_event* event) {
  return guarded([&] {
    require(q, CL_INVALID_COMMAND_QUEUE);
    const cl_map_flags known = CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION;
    if (!svm_ptr || size == 0 || (flags & ~known) ||
        ((flags & CL_MAP_WRITE_INVALIDATE_REGION) && (flags & (CL_MAP_READ | CL_MAP_WRITE))))
      throw ClError{CL_INVALID_VALUE, ""};
    check_wait_list(q, nwait, wait);
    return hand_back(rt::enqueue_svm_sync(q, CL_COMMAND_SVM_MAP, wait, nwait, blocking), event);
  });
}

cl_int CL_API_CALL clEnqueueSVMUnmap(cl_command_queue q, void* svm_ptr, cl_uint nwait,
                                     const cl_event* wait, cl_event* event) {
  return guarded([&] {
    require(q, CL_INVALID_COMMAND_QUEUE);
    if (!svm_ptr) throw ClError{CL_INVALID_VALUE, ""};
    check_wait_list(q, nwait, wait);
    return hand_back(rt::enqueue_svm_sync(q, CL_COMMAND_SVM_UNMAP, wait, nwait, false), event);
  });
}

cl_int CL_API_CALL clEnqueueSVMMigrateMem(cl_command_queue q, cl_uint num_svm_pointers,
                                          const void** svm_pointers, const size_t* sizes,
                                          cl_mem_migration_flags flags, cl_uint nwait,
                                          const cl_event* wait, cl_event* event) {
  return guarded([&] {
    require(q, CL_INVALID_COMMAND_QUEUE);
    if (num_svm_pointers == 0 || !svm_pointers ||
        (flags & ~(CL_MIGRATE_MEM_OBJECT_HOST | CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED)))
      throw ClError{CL_INVALID_VALUE, ""};
    // Each range lies in one allocation of the queue's context (a size of 0: the whole of it).
    for (cl_uint i = 0; i < num_svm_pointers; ++i)
      if (!svm_pointers[i] ||
          !rt::svm_region(q->context, svm_pointers[i], sizes && sizes[i] ? sizes[i] : 1))
        throw ClError{CL_INVALID_VALUE, ""};
    check_wait_list(q, nwait, wait);
    return hand_back(rt::enqueue_svm_sync(q, CL_COMMAND_SVM_MIGRATE_MEM, wait, nwait, false),
                     event);
  });
}

cl_int CL_API_CALL clSetKernelArgSVMPointer(cl_kernel k, cl_uint index, const void* value) {
  if (!rt::valid(k)) return CL_INVALID_KERNEL;
  if (index >= k->explicit_args.size()) return CL_INVALID_ARG_INDEX;
  return rt::set_kernel_arg_svm(k, index, value);
}

// Every SVM allocation of a context is mapped on all its cards from clSVMAlloc to clSVMFree,
// so the pointers a kernel reaches indirectly need no action; system SVM is not offered.
cl_int CL_API_CALL clSetKernelExecInfo(cl_kernel k, cl_kernel_exec_info param, size_t size,
                                       const void* value) {
  if (!rt::valid(k)) return CL_INVALID_KERNEL;
  switch (param) {
  case CL_KERNEL_EXEC_INFO_SVM_PTRS: // an empty list (0, NULL) unsets the earlier one
    return size % sizeof(void*) || (size != 0) != (value != nullptr) ? CL_INVALID_VALUE
                                                                      : CL_SUCCESS;
  case CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM:
    if (size != sizeof(cl_bool) || !value) return CL_INVALID_VALUE;
    return *static_cast<const cl_bool*>(value) ? CL_INVALID_OPERATION : CL_SUCCESS;
  default:
    return CL_INVALID_VALUE;
  }
}

} // extern "C"
