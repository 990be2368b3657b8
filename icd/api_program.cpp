// Programs and kernels.
#include "api_util.h"

#include "compiler/compiler.h"
#include "runtime/device_caps.h"

#include <cstring>

using namespace amcl;
using namespace amcl::icd;

namespace {

// Reads the code object and loads its image into executable VRAM.
void load_binary(cl_program p) {
  std::string error;
  auto co = compiler::read_code_object(p->binary, &error);
  if (!co) throw ClError{CL_INVALID_BINARY, error};
  am::Device& dev = *p->context->devices[0]->am;
  if (co->target != dev.info().gfx) throw ClError{CL_INVALID_BINARY, "binary is for " + co->target};
  if (p->image) dev.free(p->image);
  p->image = dev.alloc_vram(co->image_size, 256, true);
  co->load(p->image.cpu);
  p->code = std::move(co);
}

} // namespace

extern "C" {

cl_program CL_API_CALL clCreateProgramWithSource(cl_context context, cl_uint count, const char** strings,
                                                 const size_t* lengths, cl_int* errcode_ret) {
  return create<cl_program>(errcode_ret, [&]() -> cl_program {
    require(context, CL_INVALID_CONTEXT);
    if (count == 0 || !strings) throw ClError{CL_INVALID_VALUE, ""};
    auto p = std::make_unique<_cl_program>();
    for (cl_uint i = 0; i < count; ++i) {
      if (!strings[i]) throw ClError{CL_INVALID_VALUE, ""};
      p->source += lengths && lengths[i] ? std::string(strings[i], lengths[i]) : std::string(strings[i]);
    }
    p->context = context;
    rt::retain(context);
    return p.release();
  });
}

cl_program CL_API_CALL clCreateProgramWithBinary(cl_context context, cl_uint num_devices,
                                                 const cl_device_id* devices, const size_t* lengths,
                                                 const unsigned char** binaries, cl_int* binary_status,
                                                 cl_int* errcode_ret) {
  return create<cl_program>(errcode_ret, [&]() -> cl_program {
    require(context, CL_INVALID_CONTEXT);
    if (num_devices == 0 || !devices) throw ClError{CL_INVALID_VALUE, ""};
    if (num_devices != 1 || devices[0] != context->devices[0]) throw ClError{CL_INVALID_DEVICE, ""};
    if (!lengths || !binaries || !binaries[0] || lengths[0] == 0) {
      if (binary_status) binary_status[0] = CL_INVALID_VALUE;
      throw ClError{CL_INVALID_VALUE, ""};
    }
    auto p = std::make_unique<_cl_program>();
    p->context = context;
    rt::retain(context); // released by ~_cl_program, also when loading fails
    p->binary.assign(binaries[0], binaries[0] + lengths[0]);
    p->from_binary = true;
    try {
      load_binary(p.get());
    } catch (const ClError&) {
      if (binary_status) binary_status[0] = CL_INVALID_BINARY;
      throw;
    }
    if (binary_status) binary_status[0] = CL_SUCCESS;
    return p.release();
  });
}

cl_int CL_API_CALL clRetainProgram(cl_program h) { return retain_handle(h, CL_INVALID_PROGRAM); }

cl_int CL_API_CALL clReleaseProgram(cl_program h) { return release_handle(h, CL_INVALID_PROGRAM); }

cl_int CL_API_CALL clBuildProgram(cl_program p, cl_uint num_devices, const cl_device_id* devices,
                                  const char* options, void(CL_CALLBACK* notify)(cl_program, void*),
                                  void* user_data) {
  cl_int err = guarded([&] {
    require(p, CL_INVALID_PROGRAM);
    if ((num_devices == 0) != (devices == nullptr) || (!notify && user_data))
      throw ClError{CL_INVALID_VALUE, ""};
    for (cl_uint i = 0; i < num_devices; ++i)
      if (devices[i] != p->context->devices[0]) throw ClError{CL_INVALID_DEVICE, ""};
    if (p->kernels_attached) throw ClError{CL_INVALID_OPERATION, ""};
    p->options = options ? options : "";
    if (p->from_binary) {
      p->status = CL_BUILD_SUCCESS;
      return CL_SUCCESS;
    }
    p->status = CL_BUILD_IN_PROGRESS;
    compiler::BuildRequest req{p->source, p->options, p->context->devices[0]->am->info().gfx,
                               rt::names(rt::device_extensions()), rt::names(rt::opencl_c_features())};
    compiler::BuildResult res = compiler::build(req);
    p->log = res.log;
    if (res.bad_options) {
      p->status = CL_BUILD_ERROR;
      throw ClError{CL_INVALID_BUILD_OPTIONS, ""};
    }
    if (!res.ok) {
      p->status = CL_BUILD_ERROR;
      throw ClError{CL_BUILD_PROGRAM_FAILURE, ""};
    }
    p->binary = std::move(res.binary);
    load_binary(p);
    p->status = CL_BUILD_SUCCESS;
    return CL_SUCCESS;
  });
  if (notify && rt::valid(p)) notify(p, user_data);
  return err;
}

cl_int CL_API_CALL clGetProgramInfo(cl_program p, cl_program_info param, size_t size, void* value,
                                    size_t* size_ret) {
  if (!rt::valid(p)) return CL_INVALID_PROGRAM;
  switch (param) {
  case CL_PROGRAM_REFERENCE_COUNT: return rt::write_info(cl_uint(p->refs), size, value, size_ret);
  case CL_PROGRAM_CONTEXT: return rt::write_info(p->context, size, value, size_ret);
  case CL_PROGRAM_NUM_DEVICES: return rt::write_info(cl_uint(1), size, value, size_ret);
  case CL_PROGRAM_DEVICES: return rt::write_info(p->context->devices[0], size, value, size_ret);
  case CL_PROGRAM_SOURCE: return rt::write_info_string(p->source, size, value, size_ret);
  case CL_PROGRAM_BINARY_SIZES: return rt::write_info(size_t(p->binary.size()), size, value, size_ret);
  case CL_PROGRAM_BINARIES: {
    if (size_ret) *size_ret = sizeof(unsigned char*);
    if (!value) return CL_SUCCESS;
    if (size < sizeof(unsigned char*)) return CL_INVALID_VALUE;
    auto** out = static_cast<unsigned char**>(value);
    if (out[0] && !p->binary.empty()) std::memcpy(out[0], p->binary.data(), p->binary.size());
    return CL_SUCCESS;
  }
  case CL_PROGRAM_NUM_KERNELS: case CL_PROGRAM_KERNEL_NAMES: {
    if (!p->code) return CL_INVALID_PROGRAM_EXECUTABLE;
    if (param == CL_PROGRAM_NUM_KERNELS)
      return rt::write_info(size_t(p->code->kernels.size()), size, value, size_ret);
    std::string names;
    for (auto& k : p->code->kernels) names += (names.empty() ? "" : ";") + k.name;
    return rt::write_info_string(names, size, value, size_ret);
  }
  case CL_PROGRAM_IL: return rt::write_info(nullptr, 0, size, value, size_ret);
  case CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT: case CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT:
    return rt::write_info(cl_bool(CL_FALSE), size, value, size_ret);
  default: return CL_INVALID_VALUE;
  }
}

cl_int CL_API_CALL clGetProgramBuildInfo(cl_program p, cl_device_id d, cl_program_build_info param,
                                         size_t size, void* value, size_t* size_ret) {
  if (!rt::valid(p)) return CL_INVALID_PROGRAM;
  if (!rt::valid(d) || d != p->context->devices[0]) return CL_INVALID_DEVICE;
  switch (param) {
  case CL_PROGRAM_BUILD_STATUS: return rt::write_info(p->status, size, value, size_ret);
  case CL_PROGRAM_BUILD_OPTIONS: return rt::write_info_string(p->options, size, value, size_ret);
  case CL_PROGRAM_BUILD_LOG: return rt::write_info_string(p->log, size, value, size_ret);
  case CL_PROGRAM_BINARY_TYPE:
    return rt::write_info(cl_program_binary_type(p->code ? CL_PROGRAM_BINARY_TYPE_EXECUTABLE
                                                         : CL_PROGRAM_BINARY_TYPE_NONE),
                          size, value, size_ret);
  case CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE: return rt::write_info(size_t(0), size, value, size_ret);
  default: return CL_INVALID_VALUE;
  }
}

cl_kernel CL_API_CALL clCreateKernel(cl_program p, const char* name, cl_int* errcode_ret) {
  return create<cl_kernel>(errcode_ret, [&]() -> cl_kernel {
    require(p, CL_INVALID_PROGRAM);
    if (!name) throw ClError{CL_INVALID_VALUE, ""};
    if (!p->code) throw ClError{CL_INVALID_PROGRAM_EXECUTABLE, ""};
    const compiler::KernelInfo* info = p->code->find(name);
    if (!info) throw ClError{CL_INVALID_KERNEL_NAME, ""};
    auto k = std::make_unique<_cl_kernel>();
    k->program = p;
    k->info = info;
    for (size_t i = 0; i < info->args.size(); ++i)
      if (!info->args[i].hidden()) k->explicit_args.push_back(i);
    k->arg_values.resize(k->explicit_args.size());
    k->local_sizes.resize(k->explicit_args.size());
    k->arg_set.resize(k->explicit_args.size());
    rt::retain(p);
    ++p->kernels_attached;
    return k.release();
  });
}

cl_int CL_API_CALL clRetainKernel(cl_kernel h) { return retain_handle(h, CL_INVALID_KERNEL); }

cl_int CL_API_CALL clReleaseKernel(cl_kernel h) { return release_handle(h, CL_INVALID_KERNEL); }

cl_int CL_API_CALL clSetKernelArg(cl_kernel k, cl_uint index, size_t size, const void* value) {
  if (!rt::valid(k)) return CL_INVALID_KERNEL;
  if (index >= k->explicit_args.size()) return CL_INVALID_ARG_INDEX;
  const compiler::KernelArg& arg = k->info->args[k->explicit_args[index]];
  if (arg.value_kind == "dynamic_shared_pointer") {
    if (value) return CL_INVALID_ARG_VALUE;
    if (size == 0) return CL_INVALID_ARG_SIZE;
    k->local_sizes[index] = size;
  } else if (arg.value_kind == "global_buffer") {
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
  case CL_KERNEL_FUNCTION_NAME: return rt::write_info_string(k->info->name, size, value, size_ret);
  case CL_KERNEL_NUM_ARGS: return rt::write_info(cl_uint(k->explicit_args.size()), size, value, size_ret);
  case CL_KERNEL_REFERENCE_COUNT: return rt::write_info(cl_uint(k->refs), size, value, size_ret);
  case CL_KERNEL_CONTEXT: return rt::write_info(k->program->context, size, value, size_ret);
  case CL_KERNEL_PROGRAM: return rt::write_info(k->program, size, value, size_ret);
  case CL_KERNEL_ATTRIBUTES: return rt::write_info_string("", size, value, size_ret);
  default: return CL_INVALID_VALUE;
  }
}

cl_int CL_API_CALL clGetKernelWorkGroupInfo(cl_kernel k, cl_device_id d, cl_kernel_work_group_info param,
                                            size_t size, void* value, size_t* size_ret) {
  if (!rt::valid(k)) return CL_INVALID_KERNEL;
  if (d && (!rt::valid(d) || d != k->program->context->devices[0])) return CL_INVALID_DEVICE;
  switch (param) {
  case CL_KERNEL_WORK_GROUP_SIZE:
    return rt::write_info(size_t(k->info->max_flat_workgroup_size), size, value, size_ret);
  case CL_KERNEL_COMPILE_WORK_GROUP_SIZE: {
    size_t v[3] = {k->info->reqd_workgroup_size[0], k->info->reqd_workgroup_size[1],
                   k->info->reqd_workgroup_size[2]};
    return rt::write_info(v, sizeof v, size, value, size_ret);
  }
  case CL_KERNEL_LOCAL_MEM_SIZE: {
    cl_ulong total = k->info->group_segment_size;
    for (size_t s : k->local_sizes) total += s;
    return rt::write_info(total, size, value, size_ret);
  }
  case CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE:
    return rt::write_info(size_t(k->info->wavefront_size), size, value, size_ret);
  case CL_KERNEL_PRIVATE_MEM_SIZE:
    return rt::write_info(cl_ulong(k->info->private_segment_size), size, value, size_ret);
  default: return CL_INVALID_VALUE;
  }
}

} // extern "C"
