// Kernels: creation, arguments, queries and their enqueue (runtime/kernel.h and
// runtime/dispatch.h do the work).
#include "api_util.h"
#include "enqueue.h"
#include "runtime/dispatch.h"
#include "runtime/kernel.h"

#include <algorithm>

using namespace amcl;
using namespace amcl::icd;

namespace {

// The device a kernel query is about: `d` if the kernel's program is for it, or the program's
// only device when `d` is NULL (OpenCL: CL_INVALID_DEVICE otherwise).
cl_device_id query_device(cl_kernel k, cl_device_id d) {
  if (!d) return k->program->devices.size() == 1 ? k->program->devices[0] : nullptr;
  return rt::valid(d) && k->info_for(d) ? d : nullptr;
}

// Moves the application's count one up or down, never from zero: a kernel the application
// released is detached, whatever launches hold it. Returns the count before (0: not moved).
cl_uint step_app_refs(cl_kernel h, bool up) {
  cl_uint refs = h->app_refs.load();
  do {
    if (refs == 0) return 0;
  } while (!h->app_refs.compare_exchange_weak(refs, up ? refs + 1 : refs - 1));
  return refs;
}

} // namespace

extern "C" {

cl_kernel CL_API_CALL clCreateKernel(cl_program p, const char* name, cl_int* errcode_ret) {
  return create<cl_kernel>(errcode_ret, [&]() -> cl_kernel {
    require(p, CL_INVALID_PROGRAM);
    if (!name) throw ClError{CL_INVALID_VALUE, ""};
    if (!p->any_executable()) throw ClError{CL_INVALID_PROGRAM_EXECUTABLE, ""};
    return rt::create_kernel(p, name);
  });
}

cl_int CL_API_CALL clCreateKernelsInProgram(cl_program p, cl_uint num_kernels, cl_kernel* kernels,
                                            cl_uint* num_kernels_ret) {
  return guarded([&] {
    require(p, CL_INVALID_PROGRAM);
    if (!p->any_executable()) throw ClError{CL_INVALID_PROGRAM_EXECUTABLE, ""};
    const cl_uint n = rt::create_kernels_in_program(p, num_kernels, kernels);
    if (num_kernels_ret) *num_kernels_ret = n;
    return CL_SUCCESS;
  });
}

cl_kernel CL_API_CALL clCloneKernel(cl_kernel source, cl_int* errcode_ret) {
  return create<cl_kernel>(errcode_ret, [&]() -> cl_kernel {
    require(source, CL_INVALID_KERNEL);
    return rt::clone_kernel(source);
  });
}

cl_int CL_API_CALL clRetainKernel(cl_kernel h) {
  if (!rt::valid(h)) return CL_INVALID_KERNEL;
  if (step_app_refs(h, true) == 0) return CL_INVALID_KERNEL;
  rt::retain(h);
  return CL_SUCCESS;
}

// The application's last release detaches the kernel from its program (clBuildProgram may run
// again) even while enqueued launches keep the object; a release past it is the application's
// error, not a launch's reference to take.
cl_int CL_API_CALL clReleaseKernel(cl_kernel h) {
  if (!rt::valid(h)) return CL_INVALID_KERNEL;
  const cl_uint refs = step_app_refs(h, false);
  if (refs == 0) return CL_INVALID_KERNEL;
  if (refs == 1) --h->program->kernels_attached;
  rt::release(h);
  return CL_SUCCESS;
}

cl_int CL_API_CALL clSetKernelArg(cl_kernel k, cl_uint index, size_t size, const void* value) {
  if (!rt::valid(k)) return CL_INVALID_KERNEL;
  if (index >= k->explicit_args.size()) return CL_INVALID_ARG_INDEX;
  return rt::set_kernel_arg(k, index, size, value);
}

cl_int CL_API_CALL clGetKernelInfo(cl_kernel k, cl_kernel_info param, size_t size, void* value,
                                   size_t* size_ret) {
  if (!rt::valid(k)) return CL_INVALID_KERNEL;
  switch (param) {
  case CL_KERNEL_FUNCTION_NAME:
    return rt::write_info_string(rt::kernel_function_name(k), size, value, size_ret);
  case CL_KERNEL_NUM_ARGS:
    return rt::write_info(cl_uint(k->explicit_args.size()), size, value, size_ret);
  case CL_KERNEL_REFERENCE_COUNT:
    return rt::write_info(cl_uint(k->refs), size, value, size_ret);
  case CL_KERNEL_CONTEXT:
    return rt::write_info(k->program->context, size, value, size_ret);
  case CL_KERNEL_PROGRAM:
    return rt::write_info(k->program, size, value, size_ret);
  case CL_KERNEL_ATTRIBUTES:
    return rt::write_info_string(rt::kernel_attributes(k), size, value, size_ret);
  default:
    return CL_INVALID_VALUE;
  }
}

cl_int CL_API_CALL clGetKernelWorkGroupInfo(cl_kernel k, cl_device_id d,
                                            cl_kernel_work_group_info param, size_t size,
                                            void* value, size_t* size_ret) {
  if (!rt::valid(k)) return CL_INVALID_KERNEL;
  d = query_device(k, d);
  if (!d) return CL_INVALID_DEVICE;
  const rt::KernelLimits limits = rt::kernel_limits(k, d);
  switch (param) {
  case CL_KERNEL_WORK_GROUP_SIZE:
    return rt::write_info(limits.work_group_size, size, value, size_ret);
  case CL_KERNEL_COMPILE_WORK_GROUP_SIZE:
    return rt::write_info(limits.compile_work_group_size, size, value, size_ret);
  case CL_KERNEL_LOCAL_MEM_SIZE:
    return rt::write_info(limits.local_mem_size, size, value, size_ret);
  case CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE:
    return rt::write_info(limits.wave_size, size, value, size_ret);
  case CL_KERNEL_PRIVATE_MEM_SIZE:
    return rt::write_info(limits.private_mem_size, size, value, size_ret);
  default:
    return CL_INVALID_VALUE;
  }
}

// Sub-groups are waves (compiler/workitem_builtins.cl): a work-group of n work-items has
// ceil(n / wave size) of them, all full but the last.
cl_int CL_API_CALL clGetKernelSubGroupInfo(cl_kernel k, cl_device_id d,
                                           cl_kernel_sub_group_info param, size_t input_size,
                                           const void* input, size_t size, void* value,
                                           size_t* size_ret) {
  if (!rt::valid(k)) return CL_INVALID_KERNEL;
  d = query_device(k, d);
  if (!d) return CL_INVALID_DEVICE;
  const rt::KernelLimits limits = rt::kernel_limits(k, d);
  const size_t wave = limits.wave_size, max_items = limits.work_group_size;
  // The NDRANGE queries take a local size of 1 to 3 dimensions.
  auto local_items = [&](size_t& items) {
    if (!input || input_size == 0 || input_size % sizeof(size_t) || input_size > 3 * sizeof(size_t))
      return false;
    items = 1;
    for (size_t i = 0; i < input_size / sizeof(size_t); ++i)
      items *= static_cast<const size_t*>(input)[i];
    return true;
  };
  switch (param) {
  case CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE: {
    size_t items;
    if (!local_items(items)) return CL_INVALID_VALUE;
    return rt::write_info(std::min(items, wave), size, value, size_ret);
  }
  case CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE: {
    size_t items;
    if (!local_items(items)) return CL_INVALID_VALUE;
    return rt::write_info((items + wave - 1) / wave, size, value, size_ret);
  }
  case CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT: {
    // Output: a local size of param_value_size / sizeof(size_t) dimensions giving exactly the
    // requested count; all zeros when no work-group size can.
    if (!input || input_size != sizeof(size_t)) return CL_INVALID_VALUE;
    const size_t count = *static_cast<const size_t*>(input);
    const size_t dims = size / sizeof(size_t);
    if (value && (dims == 0 || dims > 3 || size % sizeof(size_t))) return CL_INVALID_VALUE;
    size_t local[3] = {0, 0, 0};
    if (count > 0 && count <= max_items / wave) local[0] = count * wave, local[1] = local[2] = 1;
    return rt::write_info(local, (value ? dims : 3) * sizeof(size_t), size, value, size_ret);
  }
  case CL_KERNEL_MAX_NUM_SUB_GROUPS:
    return rt::write_info((max_items + wave - 1) / wave, size, value, size_ret);
  case CL_KERNEL_COMPILE_NUM_SUB_GROUPS:
    return rt::write_info(size_t(0), size, value, size_ret); // no source attribute sets it
  default:
    return CL_INVALID_VALUE;
  }
}

cl_int CL_API_CALL clGetKernelArgInfo(cl_kernel k, cl_uint index, cl_kernel_arg_info param,
                                      size_t size, void* value, size_t* size_ret) {
  if (!rt::valid(k)) return CL_INVALID_KERNEL;
  if (index >= k->explicit_args.size()) return CL_INVALID_ARG_INDEX;
  if (!rt::arg_info_available(k)) return CL_KERNEL_ARG_INFO_NOT_AVAILABLE;
  const rt::ArgInfo a = rt::kernel_arg_info(k, index);
  switch (param) {
  case CL_KERNEL_ARG_ADDRESS_QUALIFIER:
    return rt::write_info(a.address, size, value, size_ret);
  case CL_KERNEL_ARG_ACCESS_QUALIFIER:
    return rt::write_info(a.access, size, value, size_ret);
  case CL_KERNEL_ARG_TYPE_NAME:
    return rt::write_info_string(a.type_name, size, value, size_ret);
  case CL_KERNEL_ARG_TYPE_QUALIFIER:
    return rt::write_info(a.type, size, value, size_ret);
  case CL_KERNEL_ARG_NAME:
    return rt::write_info_string(a.name, size, value, size_ret);
  default:
    return CL_INVALID_VALUE;
  }
}

cl_int CL_API_CALL clEnqueueNDRangeKernel(cl_command_queue q, cl_kernel k, cl_uint dims,
                                          const size_t* offset, const size_t* global,
                                          const size_t* local, cl_uint nwait, const cl_event* wait,
                                          cl_event* event) {
  return guarded([&] {
    require(q, CL_INVALID_COMMAND_QUEUE);
    require(k, CL_INVALID_KERNEL);
    if (k->program->context != q->context) throw ClError{CL_INVALID_CONTEXT, ""};
    check_wait_list(q, nwait, wait);
    return hand_back(
        rt::enqueue_ndrange(q, k, dims, offset, global, local, wait, nwait, event != nullptr),
        event);
  });
}

cl_int CL_API_CALL clEnqueueTask(cl_command_queue q, cl_kernel k, cl_uint nwait,
                                 const cl_event* wait, cl_event* event) {
  size_t one = 1;
  return clEnqueueNDRangeKernel(q, k, 1, nullptr, &one, &one, nwait, wait, event);
}

} // extern "C"
