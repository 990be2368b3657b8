// Programs: creation from source or binary, build, compile, link, queries (runtime/program.h
// does the work).
#include "api_util.h"
#include "runtime/program.h"

#include <algorithm>
#include <cstring>
#include <span>

using namespace amcl;
using namespace amcl::icd;

namespace {

using rt::ProgramBuild;

// A device list argument: devices out of `allowed` (the program's for build and compile, the
// context's for link), each once; all of `allowed` when none are given.
std::vector<cl_device_id> chosen_devices(const std::vector<cl_device_id>& allowed,
                                         cl_uint num_devices, const cl_device_id* devices) {
  if ((num_devices == 0) != (devices == nullptr)) throw ClError{CL_INVALID_VALUE, ""};
  if (!devices) return allowed;
  std::vector<cl_device_id> out;
  for (cl_uint i = 0; i < num_devices; ++i) {
    if (!rt::valid(devices[i]) ||
        std::find(allowed.begin(), allowed.end(), devices[i]) == allowed.end())
      throw ClError{CL_INVALID_DEVICE, ""};
    if (std::find(out.begin(), out.end(), devices[i]) == out.end()) out.push_back(devices[i]);
  }
  return out;
}

} // namespace

extern "C" {

cl_program CL_API_CALL clCreateProgramWithSource(cl_context context, cl_uint count,
                                                 const char** strings, const size_t* lengths,
                                                 cl_int* errcode_ret) {
  return create<cl_program>(errcode_ret, [&]() -> cl_program {
    require(context, CL_INVALID_CONTEXT);
    if (count == 0 || !strings) throw ClError{CL_INVALID_VALUE, ""};
    std::string source;
    for (cl_uint i = 0; i < count; ++i) {
      if (!strings[i]) throw ClError{CL_INVALID_VALUE, ""};
      source +=
          lengths && lengths[i] ? std::string(strings[i], lengths[i]) : std::string(strings[i]);
    }
    return rt::create_program_with_source(context, std::move(source));
  });
}

cl_program CL_API_CALL clCreateProgramWithBinary(cl_context context, cl_uint num_devices,
                                                 const cl_device_id* devices, const size_t* lengths,
                                                 const unsigned char** binaries,
                                                 cl_int* binary_status, cl_int* errcode_ret) {
  return create<cl_program>(errcode_ret, [&]() -> cl_program {
    require(context, CL_INVALID_CONTEXT);
    if (num_devices == 0 || !devices) throw ClError{CL_INVALID_VALUE, ""};
    for (cl_uint i = 0; i < num_devices; ++i)
      if (!rt::valid(devices[i]) ||
          std::find(context->devices.begin(), context->devices.end(), devices[i]) ==
              context->devices.end() ||
          std::find(devices, devices + i, devices[i]) != devices + i)
        throw ClError{CL_INVALID_DEVICE, ""};
    if (!lengths || !binaries) throw ClError{CL_INVALID_VALUE, ""};
    bool missing = false;
    for (cl_uint i = 0; i < num_devices; ++i) {
      const bool bad = !binaries[i] || lengths[i] == 0;
      if (binary_status) binary_status[i] = bad ? CL_INVALID_VALUE : CL_SUCCESS;
      missing |= bad;
    }
    if (missing) throw ClError{CL_INVALID_VALUE, ""};
    std::vector<std::span<const uint8_t>> spans;
    for (cl_uint i = 0; i < num_devices; ++i) spans.emplace_back(binaries[i], lengths[i]);
    return rt::create_program_with_binary(context, {devices, devices + num_devices}, spans,
                                          binary_status);
  });
}

cl_program CL_API_CALL clCreateProgramWithIL(cl_context context, const void* il, size_t length,
                                             cl_int* errcode_ret) {
  return create<cl_program>(errcode_ret, [&]() -> cl_program {
    require(context, CL_INVALID_CONTEXT);
    if (!il || length == 0) throw ClError{CL_INVALID_VALUE, ""};
    return rt::create_program_with_il(context, {static_cast<const uint8_t*>(il), length});
  });
}

// cl_khr_il_program's name for the same function.
cl_program CL_API_CALL clCreateProgramWithILKHR(cl_context context, const void* il, size_t length,
                                                cl_int* errcode_ret) {
  return clCreateProgramWithIL(context, il, length, errcode_ret);
}

cl_int CL_API_CALL clSetProgramSpecializationConstant(cl_program p, cl_uint spec_id,
                                                      size_t spec_size, const void* spec_value) {
  return guarded([&] {
    require(p, CL_INVALID_PROGRAM);
    rt::set_specialization_constant(p, spec_id, spec_size, spec_value);
    return CL_SUCCESS;
  });
}

// The devices offer no built-in kernels (CL_DEVICE_BUILT_IN_KERNELS is empty), so every
// name is one no device supports.
cl_program CL_API_CALL clCreateProgramWithBuiltInKernels(cl_context context, cl_uint num_devices,
                                                         const cl_device_id* devices,
                                                         const char* kernel_names,
                                                         cl_int* errcode_ret) {
  return create<cl_program>(errcode_ret, [&]() -> cl_program {
    require(context, CL_INVALID_CONTEXT);
    if (num_devices == 0 || !devices) throw ClError{CL_INVALID_VALUE, ""};
    chosen_devices(context->devices, num_devices, devices);
    (void)kernel_names;
    throw ClError{CL_INVALID_VALUE, "no built-in kernels"};
  });
}

cl_int CL_API_CALL clRetainProgram(cl_program h) {
  return retain_handle(h, CL_INVALID_PROGRAM);
}

cl_int CL_API_CALL clReleaseProgram(cl_program h) {
  return release_handle(h, CL_INVALID_PROGRAM);
}

cl_int CL_API_CALL clBuildProgram(cl_program p, cl_uint num_devices, const cl_device_id* devices,
                                  const char* options, void(CL_CALLBACK* notify)(cl_program, void*),
                                  void* user_data) {
  cl_int err = guarded([&] {
    require(p, CL_INVALID_PROGRAM);
    std::vector<cl_device_id> targets = chosen_devices(p->devices, num_devices, devices);
    if (!notify && user_data) throw ClError{CL_INVALID_VALUE, ""};
    if (p->kernels_attached) throw ClError{CL_INVALID_OPERATION, ""};
    return rt::build_program(p, targets, options ? options : "");
  });
  if (notify && rt::valid(p)) notify(p, user_data);
  return err;
}

cl_int CL_API_CALL clCompileProgram(cl_program p, cl_uint num_devices, const cl_device_id* devices,
                                    const char* options, cl_uint num_headers,
                                    const cl_program* headers, const char** header_names,
                                    void(CL_CALLBACK* notify)(cl_program, void*), void* user_data) {
  cl_int err = guarded([&] {
    require(p, CL_INVALID_PROGRAM);
    std::vector<cl_device_id> targets = chosen_devices(p->devices, num_devices, devices);
    if (!notify && user_data) throw ClError{CL_INVALID_VALUE, ""};
    if ((num_headers == 0) != (headers == nullptr) ||
        (num_headers == 0) != (header_names == nullptr))
      throw ClError{CL_INVALID_VALUE, ""};
    if (p->from_binary) throw ClError{CL_INVALID_OPERATION, ""}; // nothing to compile
    if (p->kernels_attached) throw ClError{CL_INVALID_OPERATION, ""};
    std::vector<rt::NamedHeader> header_sources;
    for (cl_uint i = 0; i < num_headers; ++i) {
      if (!rt::valid(headers[i]) || headers[i]->from_binary || !header_names[i])
        throw ClError{CL_INVALID_VALUE, ""};
      header_sources.push_back({header_names[i], headers[i]->source});
    }
    return rt::compile_program(p, targets, options ? options : "", header_sources);
  });
  if (notify && rt::valid(p)) notify(p, user_data);
  return err;
}

cl_program CL_API_CALL clLinkProgram(cl_context context, cl_uint num_devices,
                                     const cl_device_id* devices, const char* options,
                                     cl_uint num_inputs, const cl_program* inputs,
                                     void(CL_CALLBACK* notify)(cl_program, void*), void* user_data,
                                     cl_int* errcode_ret) {
  // A failed link still returns the program, so that its log can be read.
  cl_program result = nullptr;
  cl_int err = guarded([&] {
    require(context, CL_INVALID_CONTEXT);
    std::vector<cl_device_id> targets = chosen_devices(context->devices, num_devices, devices);
    if (!notify && user_data) throw ClError{CL_INVALID_VALUE, ""};
    if (num_inputs == 0 || !inputs) throw ClError{CL_INVALID_VALUE, ""};
    for (cl_uint i = 0; i < num_inputs; ++i) {
      require(inputs[i], CL_INVALID_PROGRAM);
      if (inputs[i]->context != context) throw ClError{CL_INVALID_CONTEXT, ""};
      // Every input has a compiled object or library for every device linked for.
      for (cl_device_id d : targets) {
        const ProgramBuild* b = inputs[i]->build_for(d);
        if (!b || (b->binary_type != CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT &&
                   b->binary_type != CL_PROGRAM_BINARY_TYPE_LIBRARY))
          throw ClError{CL_INVALID_OPERATION, ""};
      }
    }
    // A link that fails leaves its program in `result` (the last argument) before it throws.
    result = rt::link_program(context, targets, options ? options : "",
                              {inputs, inputs + num_inputs}, result);
    return CL_SUCCESS;
  });
  if (errcode_ret) *errcode_ret = err;
  if (notify && result) notify(result, user_data);
  return result;
}

cl_int CL_API_CALL clGetProgramInfo(cl_program p, cl_program_info param, size_t size, void* value,
                                    size_t* size_ret) {
  if (!rt::valid(p)) return CL_INVALID_PROGRAM;
  switch (param) {
  case CL_PROGRAM_REFERENCE_COUNT:
    return rt::write_info(cl_uint(p->refs), size, value, size_ret);
  case CL_PROGRAM_CONTEXT:
    return rt::write_info(p->context, size, value, size_ret);
  case CL_PROGRAM_NUM_DEVICES:
    return rt::write_info(cl_uint(p->devices.size()), size, value, size_ret);
  case CL_PROGRAM_DEVICES:
    return rt::write_info_vector(p->devices, size, value, size_ret);
  case CL_PROGRAM_SOURCE:
    return rt::write_info_string(p->source, size, value, size_ret);
  case CL_PROGRAM_BINARY_SIZES: {
    std::vector<size_t> sizes;
    for (const ProgramBuild& b : p->builds) sizes.push_back(b.binary.size());
    return rt::write_info_vector(sizes, size, value, size_ret);
  }
  case CL_PROGRAM_BINARIES: {
    // An array of pointers, one per device, each to memory of CL_PROGRAM_BINARY_SIZES bytes
    // (a NULL entry skips that device).
    const size_t bytes = p->builds.size() * sizeof(unsigned char*);
    if (size_ret) *size_ret = bytes;
    if (!value) return CL_SUCCESS;
    if (size < bytes) return CL_INVALID_VALUE;
    auto** out = static_cast<unsigned char**>(value);
    for (size_t i = 0; i < p->builds.size(); ++i)
      if (out[i] && !p->builds[i].binary.empty())
        std::memcpy(out[i], p->builds[i].binary.data(), p->builds[i].binary.size());
    return CL_SUCCESS;
  }
  case CL_PROGRAM_NUM_KERNELS:
  case CL_PROGRAM_KERNEL_NAMES: {
    const ProgramBuild* b = p->any_executable();
    if (!b) return CL_INVALID_PROGRAM_EXECUTABLE;
    const std::vector<std::string> kernels = rt::kernel_names(*b);
    if (param == CL_PROGRAM_NUM_KERNELS)
      return rt::write_info(kernels.size(), size, value, size_ret);
    std::string names;
    for (const std::string& k : kernels) names += (names.empty() ? "" : ";") + k;
    return rt::write_info_string(names, size, value, size_ret);
  }
  case CL_PROGRAM_IL:
    return p->il.empty() ? rt::write_info(nullptr, 0, size, value, size_ret)
                         : rt::write_info_vector(p->il, size, value, size_ret);
  case CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT:
  case CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT:
    return rt::write_info(cl_bool(CL_FALSE), size, value, size_ret);
  default:
    return CL_INVALID_VALUE;
  }
}

cl_int CL_API_CALL clGetProgramBuildInfo(cl_program p, cl_device_id d, cl_program_build_info param,
                                         size_t size, void* value, size_t* size_ret) {
  if (!rt::valid(p)) return CL_INVALID_PROGRAM;
  const ProgramBuild* b = rt::valid(d) ? p->build_for(d) : nullptr;
  if (!b) return CL_INVALID_DEVICE;
  switch (param) {
  case CL_PROGRAM_BUILD_STATUS:
    return rt::write_info(b->status, size, value, size_ret);
  case CL_PROGRAM_BUILD_OPTIONS:
    return rt::write_info_string(p->options, size, value, size_ret);
  case CL_PROGRAM_BUILD_LOG:
    return rt::write_info_string(b->log, size, value, size_ret);
  case CL_PROGRAM_BINARY_TYPE:
    return rt::write_info(b->binary_type, size, value, size_ret);
  case CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE:
    return rt::write_info(rt::global_variable_size(*b), size, value, size_ret);
  default:
    return CL_INVALID_VALUE;
  }
}

} // extern "C"
