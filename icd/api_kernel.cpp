// Kernels: creation, arguments, queries.
#include "api_util.h"

#include <algorithm>
#include <tuple>

using namespace amcl;
using namespace amcl::icd;

namespace {

// Whether two builds of a kernel take the same explicit arguments (OpenCL: a kernel must have
// the same definition on every device it was built for).
bool same_definition(const compiler::KernelInfo& a, const compiler::KernelInfo& b) {
  auto explicit_args = [](const compiler::KernelInfo& k) {
    std::vector<std::tuple<size_t, compiler::ArgKind, size_t>> v; // position, kind, size
    for (size_t i = 0; i < k.args.size(); ++i)
      if (!k.args[i].hidden()) v.emplace_back(i, k.args[i].kind, k.args[i].size);
    return v;
  };
  return explicit_args(a) == explicit_args(b);
}

// The kernel `name` in each of the program's devices' executables; nullptr entries where a
// device has none. Throws CL_INVALID_KERNEL_NAME if no executable has it and
// CL_INVALID_KERNEL_DEFINITION if the devices' definitions differ.
std::vector<const compiler::KernelInfo*> kernel_builds(cl_program p, const std::string& name) {
  std::vector<const compiler::KernelInfo*> infos;
  const compiler::KernelInfo* first = nullptr;
  for (const _cl_program::Build& b : p->builds) {
    const compiler::KernelInfo* info = b.code ? b.code->find(name) : nullptr;
    if (info && first && !same_definition(*first, *info))
      throw ClError{CL_INVALID_KERNEL_DEFINITION, ""};
    if (info && !first) first = info;
    infos.push_back(info);
  }
  if (!first) throw ClError{CL_INVALID_KERNEL_NAME, ""};
  return infos;
}

cl_kernel new_kernel(cl_program p, std::vector<const compiler::KernelInfo*> infos) {
  auto k = std::make_unique<_cl_kernel>();
  k->program = p;
  for (const compiler::KernelInfo* i : infos)
    if (i && !k->info) k->info = i;
  k->infos = std::move(infos);
  const compiler::KernelInfo* info = k->info;
  for (size_t i = 0; i < info->args.size(); ++i)
    if (!info->args[i].hidden()) k->explicit_args.push_back(i);
  k->arg_values.resize(k->explicit_args.size());
  k->local_sizes.resize(k->explicit_args.size());
  k->arg_set.resize(k->explicit_args.size());
  rt::retain(p);
  ++p->kernels_attached;
  return k.release();
}

// The device a kernel query is about: `d` if the kernel's program is for it, or the program's
// only device when `d` is NULL (OpenCL: CL_INVALID_DEVICE otherwise).
cl_device_id query_device(cl_kernel k, cl_device_id d) {
  if (!d) return k->program->devices.size() == 1 ? k->program->devices[0] : nullptr;
  return rt::valid(d) && k->info_for(d) ? d : nullptr;
}

// OpenCL promises argument info for programs built with -cl-kernel-arg-info; LLVM's AMDGPU
// metadata records names and types anyway, so a binary that carries them answers too.
bool arg_info_available(cl_kernel k) {
  if (k->program->options.find("-cl-kernel-arg-info") != std::string::npos) return true;
  for (size_t i : k->explicit_args)
    if (!k->info->args[i].name.empty()) return true;
  return false;
}

// Code object metadata spells the qualifiers as AMDGPUUsage's .address_space and .access.
cl_kernel_arg_address_qualifier address_qualifier(const compiler::KernelArg& a) {
  if (a.address_space == "global" || a.address_space == "generic")
    return CL_KERNEL_ARG_ADDRESS_GLOBAL;
  if (a.address_space == "constant") return CL_KERNEL_ARG_ADDRESS_CONSTANT;
  if (a.address_space == "local" || a.kind == compiler::ArgKind::DynamicSharedPointer)
    return CL_KERNEL_ARG_ADDRESS_LOCAL;
  return CL_KERNEL_ARG_ADDRESS_PRIVATE;
}

cl_kernel_arg_access_qualifier access_qualifier(const compiler::KernelArg& a) {
  if (a.access_qual == "read_only") return CL_KERNEL_ARG_ACCESS_READ_ONLY;
  if (a.access_qual == "write_only") return CL_KERNEL_ARG_ACCESS_WRITE_ONLY;
  if (a.access_qual == "read_write") return CL_KERNEL_ARG_ACCESS_READ_WRITE;
  return CL_KERNEL_ARG_ACCESS_NONE;
}

} // namespace

extern "C" {

cl_kernel CL_API_CALL clCreateKernel(cl_program p, const char* name, cl_int* errcode_ret) {
  return create<cl_kernel>(errcode_ret, [&]() -> cl_kernel {
    require(p, CL_INVALID_PROGRAM);
    if (!name) throw ClError{CL_INVALID_VALUE, ""};
    if (!p->any_executable()) throw ClError{CL_INVALID_PROGRAM_EXECUTABLE, ""};
    return new_kernel(p, kernel_builds(p, name));
  });
}

cl_int CL_API_CALL clCreateKernelsInProgram(cl_program p, cl_uint num_kernels, cl_kernel* kernels,
                                            cl_uint* num_kernels_ret) {
  return guarded([&] {
    require(p, CL_INVALID_PROGRAM);
    const _cl_program::Build* first = p->any_executable();
    if (!first) throw ClError{CL_INVALID_PROGRAM_EXECUTABLE, ""};
    // Kernels whose definition differs between devices are left out (OpenCL 3.0).
    std::vector<std::vector<const compiler::KernelInfo*>> builds;
    for (const compiler::KernelInfo& info : first->code->kernels) {
      try {
        builds.push_back(kernel_builds(p, info.name));
      } catch (const ClError& e) {
        if (e.code != CL_INVALID_KERNEL_DEFINITION) throw;
      }
    }
    if (kernels && num_kernels < builds.size()) throw ClError{CL_INVALID_VALUE, ""};
    if (kernels) {
      // All or nothing: on failure the kernels made so far are released again.
      std::vector<cl_kernel> made;
      made.reserve(builds.size()); // push_back cannot fail after a kernel exists
      try {
        for (auto& infos : builds) made.push_back(new_kernel(p, infos));
      } catch (...) {
        for (cl_kernel k : made) rt::release(k);
        throw;
      }
      std::copy(made.begin(), made.end(), kernels);
    }
    if (num_kernels_ret) *num_kernels_ret = cl_uint(builds.size());
    return CL_SUCCESS;
  });
}

cl_kernel CL_API_CALL clCloneKernel(cl_kernel source, cl_int* errcode_ret) {
  return create<cl_kernel>(errcode_ret, [&]() -> cl_kernel {
    require(source, CL_INVALID_KERNEL);
    cl_kernel k = new_kernel(source->program, source->infos);
    // The clone starts with the arguments set on the source; later changes stay separate.
    try {
      k->arg_values = source->arg_values;
      k->local_sizes = source->local_sizes;
      k->arg_set = source->arg_set;
    } catch (...) {
      rt::release(k); // out of memory while copying: the clone goes again
      throw;
    }
    return k;
  });
}

cl_int CL_API_CALL clRetainKernel(cl_kernel h) {
  return retain_handle(h, CL_INVALID_KERNEL);
}

cl_int CL_API_CALL clReleaseKernel(cl_kernel h) {
  return release_handle(h, CL_INVALID_KERNEL);
}

cl_int CL_API_CALL clSetKernelArg(cl_kernel k, cl_uint index, size_t size, const void* value) {
  if (!rt::valid(k)) return CL_INVALID_KERNEL;
  if (index >= k->explicit_args.size()) return CL_INVALID_ARG_INDEX;
  const compiler::KernelArg& arg = k->info->args[k->explicit_args[index]];
  // Launches already enqueued keep the snapshot they took; the next one takes a new one.
  std::lock_guard snapshot_lock(k->snapshot_mutex);
  k->snapshot.reset();
  if (arg.kind == compiler::ArgKind::DynamicSharedPointer) {
    if (value) return CL_INVALID_ARG_VALUE;
    if (size == 0) return CL_INVALID_ARG_SIZE;
    k->local_sizes[index] = size;
  } else if (arg.kind == compiler::ArgKind::GlobalBuffer) {
    if (size != sizeof(cl_mem)) return CL_INVALID_ARG_SIZE;
    cl_mem m = value ? *static_cast<const cl_mem*>(value) : nullptr;
    if (m && !rt::valid(m)) return CL_INVALID_MEM_OBJECT;
    k->arg_values[index].assign(reinterpret_cast<const uint8_t*>(&m),
                                reinterpret_cast<const uint8_t*>(&m) + sizeof m);
  } else {
    if (size != arg.size) return CL_INVALID_ARG_SIZE;
    if (!value) return CL_INVALID_ARG_VALUE;
    k->arg_values[index].assign(static_cast<const uint8_t*>(value),
                                static_cast<const uint8_t*>(value) + size);
  }
  k->arg_set[index] = true;
  return CL_SUCCESS;
}

cl_int CL_API_CALL clGetKernelInfo(cl_kernel k, cl_kernel_info param, size_t size, void* value,
                                   size_t* size_ret) {
  if (!rt::valid(k)) return CL_INVALID_KERNEL;
  switch (param) {
  case CL_KERNEL_FUNCTION_NAME:
    return rt::write_info_string(k->info->name, size, value, size_ret);
  case CL_KERNEL_NUM_ARGS:
    return rt::write_info(cl_uint(k->explicit_args.size()), size, value, size_ret);
  case CL_KERNEL_REFERENCE_COUNT:
    return rt::write_info(cl_uint(k->refs), size, value, size_ret);
  case CL_KERNEL_CONTEXT:
    return rt::write_info(k->program->context, size, value, size_ret);
  case CL_KERNEL_PROGRAM:
    return rt::write_info(k->program, size, value, size_ret);
  case CL_KERNEL_ATTRIBUTES:
    // OpenCL 3.0 5.9.3: the attributes of the kernel's declaration in its source; a program
    // made from a binary has no source to quote.
    return rt::write_info_string(k->program->from_binary ? "" : k->info->source_attributes(), size, value,
                                 size_ret);
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
  const compiler::KernelInfo* info = k->info_for(d);
  switch (param) {
  case CL_KERNEL_WORK_GROUP_SIZE:
    return rt::write_info(size_t(info->max_flat_workgroup_size), size, value, size_ret);
  case CL_KERNEL_COMPILE_WORK_GROUP_SIZE: {
    size_t v[3] = {info->reqd_workgroup_size[0], info->reqd_workgroup_size[1],
                   info->reqd_workgroup_size[2]};
    return rt::write_info(v, sizeof v, size, value, size_ret);
  }
  case CL_KERNEL_LOCAL_MEM_SIZE: {
    cl_ulong total = info->group_segment_size;
    for (size_t s : k->local_sizes) total += s;
    return rt::write_info(total, size, value, size_ret);
  }
  case CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE:
    return rt::write_info(size_t(info->wavefront_size), size, value, size_ret);
  case CL_KERNEL_PRIVATE_MEM_SIZE:
    return rt::write_info(cl_ulong(info->private_segment_size), size, value, size_ret);
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
  const size_t wave = k->info_for(d)->wavefront_size,
               max_items = k->info_for(d)->max_flat_workgroup_size;
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
  if (!arg_info_available(k)) return CL_KERNEL_ARG_INFO_NOT_AVAILABLE;
  const compiler::KernelArg& a = k->info->args[k->explicit_args[index]];
  switch (param) {
  case CL_KERNEL_ARG_ADDRESS_QUALIFIER:
    return rt::write_info(address_qualifier(a), size, value, size_ret);
  case CL_KERNEL_ARG_ACCESS_QUALIFIER:
    return rt::write_info(access_qualifier(a), size, value, size_ret);
  case CL_KERNEL_ARG_TYPE_NAME:
    return rt::write_info_string(a.type_name, size, value, size_ret);
  case CL_KERNEL_ARG_TYPE_QUALIFIER: {
    cl_kernel_arg_type_qualifier q = CL_KERNEL_ARG_TYPE_NONE;
    if (a.is_const || a.address_space == "constant") q |= CL_KERNEL_ARG_TYPE_CONST;
    if (a.is_restrict) q |= CL_KERNEL_ARG_TYPE_RESTRICT;
    if (a.is_volatile) q |= CL_KERNEL_ARG_TYPE_VOLATILE;
    return rt::write_info(q, size, value, size_ret);
  }
  case CL_KERNEL_ARG_NAME:
    return rt::write_info_string(a.name, size, value, size_ret);
  default:
    return CL_INVALID_VALUE;
  }
}

} // extern "C"
