// Kernel objects: creation from a program's executables, argument binding, and the facts the
// kernel queries report, in OpenCL's terms, from the code object's metadata.
#pragma once
#include "objects.h"

#include <string>

namespace amcl::rt {

// The kernel `name` of `p`, which has an executable for at least one device.
// CL_INVALID_KERNEL_NAME if no executable has it, CL_INVALID_KERNEL_DEFINITION if the devices'
// definitions differ (OpenCL: a kernel must have the same definition on every device).
cl_kernel create_kernel(cl_program p, const std::string& name);
// clCreateKernelsInProgram (`p` has an executable): a kernel for every name whose definition
// agrees on all devices, into `kernels` (all or none) when it is given; CL_INVALID_VALUE if
// `num_kernels` is too few. Returns how many there are.
cl_uint create_kernels_in_program(cl_program p, cl_uint num_kernels, cl_kernel* kernels);
// A new kernel for the same code, starting with `source`'s arguments.
cl_kernel clone_kernel(cl_kernel source);

// clSetKernelArg for an explicit argument `index` (< the kernel's count): the value is checked
// against the argument's kind and size and becomes part of the next launch's snapshot.
cl_int set_kernel_arg(cl_kernel k, cl_uint index, size_t size, const void* value);

// What clGetKernelWorkGroupInfo and clGetKernelSubGroupInfo report for `k` as built for `d`.
struct KernelLimits {
  size_t work_group_size;            // largest the code was built for
  size_t compile_work_group_size[3]; // reqd_work_group_size, or zeros
  cl_ulong local_mem_size;           // static LDS plus what __local arguments asked for
  size_t wave_size;
  cl_ulong private_mem_size; // per work-item
};
KernelLimits kernel_limits(cl_kernel k, cl_device_id d);

const std::string& kernel_function_name(cl_kernel k);
// CL_KERNEL_ATTRIBUTES: the attributes of the kernel's declaration in its source.
std::string kernel_attributes(cl_kernel k);

// clGetKernelArgInfo of an explicit argument. Available only when arg_info_available.
bool arg_info_available(cl_kernel k);
struct ArgInfo {
  cl_kernel_arg_address_qualifier address;
  cl_kernel_arg_access_qualifier access;
  cl_kernel_arg_type_qualifier type;
  std::string type_name, name;
};
ArgInfo kernel_arg_info(cl_kernel k, cl_uint index);

} // namespace amcl::rt
