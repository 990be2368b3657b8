#include "kernel.h"

#include "image.h"

#include <algorithm>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace amcl::rt {
namespace {

// Whether two builds of a kernel take the same explicit arguments.
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
// device has none. Throws as create_kernel says.
std::vector<const compiler::KernelInfo*> kernel_builds(cl_program p, const std::string& name) {
  std::vector<const compiler::KernelInfo*> infos;
  const compiler::KernelInfo* first = nullptr;
  for (const _cl_program::Build& b : p->builds) {
    const compiler::KernelInfo* info = b.loaded ? b.loaded->code.find(name) : nullptr;
    if (info && first && !same_definition(*first, *info))
      throw ClError{CL_INVALID_KERNEL_DEFINITION, ""};
    if (info && !first) first = info;
    infos.push_back(info);
  }
  if (!first) throw ClError{CL_INVALID_KERNEL_NAME, ""};
  return infos;
}

// The executables of `p`'s builds as they are now, which kernel_builds' infos point into.
std::vector<std::shared_ptr<const LoadedCode>> current_code(cl_program p) {
  std::vector<std::shared_ptr<const LoadedCode>> loaded;
  for (const _cl_program::Build& b : p->builds) loaded.push_back(b.loaded);
  return loaded;
}

cl_kernel new_kernel(cl_program p, std::vector<const compiler::KernelInfo*> infos,
                     std::vector<std::shared_ptr<const LoadedCode>> loaded) {
  auto k = std::make_unique<_cl_kernel>();
  k->program = p;
  k->loaded = std::move(loaded);
  for (const compiler::KernelInfo* i : infos)
    if (i && !k->info) k->info = i;
  k->infos = std::move(infos);
  const compiler::KernelInfo* info = k->info;
  for (size_t i = 0; i < info->args.size(); ++i)
    if (!info->args[i].hidden()) k->explicit_args.push_back(i);
  k->arg_values.resize(k->explicit_args.size());
  k->local_sizes.resize(k->explicit_args.size());
  k->arg_set.resize(k->explicit_args.size());
  k->arg_svm.resize(k->explicit_args.size());
  retain(p);
  ++p->kernels_attached;
  return k.release();
}

// Whether an image argument declared as `type_name` (image2d_t, ...; the metadata's .type_name)
// takes `m`: an image of that type. Unknown names take any image.
bool image_fits_type(cl_mem m, const std::string& type_name) {
  static const std::pair<const char*, cl_mem_object_type> kTypes[] = {
      {"image1d_buffer_t", CL_MEM_OBJECT_IMAGE1D_BUFFER},
      {"image1d_array_t", CL_MEM_OBJECT_IMAGE1D_ARRAY},
      {"image2d_array_t", CL_MEM_OBJECT_IMAGE2D_ARRAY},
      {"image1d_t", CL_MEM_OBJECT_IMAGE1D},
      {"image2d_t", CL_MEM_OBJECT_IMAGE2D},
      {"image3d_t", CL_MEM_OBJECT_IMAGE3D}};
  for (const auto& [name, type] : kTypes)
    if (type_name.find(name) != std::string::npos) return m->image->desc.image_type == type;
  return true;
}

// Code object metadata spells the qualifiers as AMDGPUUsage's .address_space and .access.
cl_kernel_arg_address_qualifier address_qualifier(const compiler::KernelArg& a) {
  // OpenCL 3.0 clGetKernelArgInfo: image arguments are in the global address space.
  if (a.address_space == "global" || a.address_space == "generic" ||
      a.kind == compiler::ArgKind::Image)
    return CL_KERNEL_ARG_ADDRESS_GLOBAL;
  if (a.kind == compiler::ArgKind::Sampler) return CL_KERNEL_ARG_ADDRESS_PRIVATE;
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

cl_kernel_arg_type_qualifier type_qualifier(const compiler::KernelArg& a) {
  cl_kernel_arg_type_qualifier q = CL_KERNEL_ARG_TYPE_NONE;
  if (a.is_const || a.address_space == "constant") q |= CL_KERNEL_ARG_TYPE_CONST;
  if (a.is_restrict) q |= CL_KERNEL_ARG_TYPE_RESTRICT;
  if (a.is_volatile) q |= CL_KERNEL_ARG_TYPE_VOLATILE;
  return q;
}

} // namespace

cl_kernel create_kernel(cl_program p, const std::string& name) {
  return new_kernel(p, kernel_builds(p, name), current_code(p));
}

cl_uint create_kernels_in_program(cl_program p, cl_uint num_kernels, cl_kernel* kernels) {
  const _cl_program::Build* first = p->any_executable();
  // Kernels whose definition differs between devices are left out (OpenCL 3.0).
  std::vector<std::vector<const compiler::KernelInfo*>> builds;
  for (const compiler::KernelInfo& info : first->loaded->code.kernels) {
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
      for (auto& infos : builds) made.push_back(new_kernel(p, infos, current_code(p)));
    } catch (...) {
      for (cl_kernel k : made) release(k);
      throw;
    }
    std::copy(made.begin(), made.end(), kernels);
  }
  return cl_uint(builds.size());
}

cl_kernel clone_kernel(cl_kernel source) {
  cl_kernel k = new_kernel(source->program, source->infos, source->loaded);
  // The clone starts with the arguments set on the source; later changes stay separate.
  try {
    k->arg_values = source->arg_values;
    k->local_sizes = source->local_sizes;
    k->arg_set = source->arg_set;
    k->arg_svm = source->arg_svm;
  } catch (...) {
    release(k); // out of memory while copying: the clone goes again
    throw;
  }
  return k;
}

cl_int set_kernel_arg(cl_kernel k, cl_uint index, size_t size, const void* value) {
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
    if (m && (!valid(m) || m->image)) return CL_INVALID_MEM_OBJECT;
    k->arg_values[index].assign(reinterpret_cast<const uint8_t*>(&m),
                                reinterpret_cast<const uint8_t*>(&m) + sizeof m);
  } else if (arg.kind == compiler::ArgKind::Image) {
    if (size != sizeof(cl_mem)) return CL_INVALID_ARG_SIZE;
    cl_mem m = value ? *static_cast<const cl_mem*>(value) : nullptr;
    if (!valid(m) || !m->image || !image_fits_type(m, arg.type_name)) return CL_INVALID_MEM_OBJECT;
    // OpenCL 3.0 clSetKernelArg: a read_only argument refuses a CL_MEM_WRITE_ONLY image and a
    // write_only one a CL_MEM_READ_ONLY image.
    const cl_kernel_arg_access_qualifier access = access_qualifier(arg);
    if ((access == CL_KERNEL_ARG_ACCESS_READ_ONLY && (m->flags & CL_MEM_WRITE_ONLY)) ||
        (access == CL_KERNEL_ARG_ACCESS_WRITE_ONLY && (m->flags & CL_MEM_READ_ONLY)))
      return CL_INVALID_ARG_VALUE;
    note_written(m); // its launches may write it
    k->arg_values[index].assign(reinterpret_cast<const uint8_t*>(&m),
                                reinterpret_cast<const uint8_t*>(&m) + sizeof m);
  } else if (arg.kind == compiler::ArgKind::Sampler) {
    if (size != sizeof(cl_sampler)) return CL_INVALID_ARG_SIZE;
    cl_sampler s = value ? *static_cast<const cl_sampler*>(value) : nullptr;
    if (!valid(s)) return CL_INVALID_SAMPLER;
    k->arg_values[index].assign(reinterpret_cast<const uint8_t*>(&s),
                                reinterpret_cast<const uint8_t*>(&s) + sizeof s);
  } else {
    if (size != arg.size) return CL_INVALID_ARG_SIZE;
    if (!value) return CL_INVALID_ARG_VALUE;
    k->arg_values[index].assign(static_cast<const uint8_t*>(value),
                                static_cast<const uint8_t*>(value) + size);
  }
  k->arg_set[index] = true;
  k->arg_svm[index] = false;
  return CL_SUCCESS;
}

KernelLimits kernel_limits(cl_kernel k, cl_device_id d) {
  const compiler::KernelInfo& info = *k->info_for(d);
  KernelLimits limits{
      size_t(info.max_flat_workgroup_size),
      {info.reqd_workgroup_size[0], info.reqd_workgroup_size[1], info.reqd_workgroup_size[2]},
      info.group_segment_size,
      size_t(info.wavefront_size),
      cl_ulong(info.private_segment_size)};
  for (size_t s : k->local_sizes) limits.local_mem_size += s;
  return limits;
}

const std::string& kernel_function_name(cl_kernel k) {
  return k->info->name;
}

std::string kernel_attributes(cl_kernel k) {
  // OpenCL 3.0 5.9.3: a program made from a binary has no source to quote.
  return k->program->from_binary ? "" : k->info->source_attributes();
}

// Argument info exists for programs built with -cl-kernel-arg-info (OpenCL 3.0 5.9.3), and for
// binaries of such builds: LLVM writes the argument names into the code object's metadata only
// then (clang runs with -discard-value-names, as its driver does), and they survive the binary.
bool arg_info_available(cl_kernel k) {
  if (k->program->options.find("-cl-kernel-arg-info") != std::string::npos) return true;
  for (size_t i : k->explicit_args)
    if (!k->info->args[i].name.empty()) return true;
  return false;
}

ArgInfo kernel_arg_info(cl_kernel k, cl_uint index) {
  const compiler::KernelArg& a = k->info->args[k->explicit_args[index]];
  return {address_qualifier(a), access_qualifier(a), type_qualifier(a), a.type_name, a.name};
}

} // namespace amcl::rt
