// Programs: creation from source or binary, build, queries.
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
  p->binary_type = CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
}

// Drops a previous executable (a program compiled again stops being one).
void unload(cl_program p) {
  if (p->image) p->context->devices[0]->am->free(p->image);
  p->image = {};
  p->code.reset();
  p->binary.clear();
  p->binary_type = CL_PROGRAM_BINARY_TYPE_NONE;
}

std::string gfx_of(cl_program p) { return p->context->devices[0]->am->info().gfx; }

// A build of `p`'s source for its device: exactly the extensions, OpenCL C features and
// language versions the device reports.
compiler::BuildRequest device_request(cl_program p, std::string options) {
  compiler::BuildRequest req;
  req.source = p->source;
  req.options = std::move(options);
  req.target = gfx_of(p);
  req.extensions = rt::names(rt::device_extensions());
  req.features = rt::names(rt::opencl_c_features());
  req.c_versions = rt::cl_std_values();
  return req;
}

// The device list arguments shared by build, compile and link.
void check_devices(cl_context c, cl_uint num_devices, const cl_device_id* devices) {
  if ((num_devices == 0) != (devices == nullptr)) throw ClError{CL_INVALID_VALUE, ""};
  for (cl_uint i = 0; i < num_devices; ++i)
    if (devices[i] != c->devices[0]) throw ClError{CL_INVALID_DEVICE, ""};
}

// Links `inputs` (bitcode) into `p`: a library or, by default, an executable.
void link_into(cl_program p, std::vector<std::vector<uint8_t>> inputs, const std::string& options,
               cl_int failure) {
  p->status = CL_BUILD_IN_PROGRESS;
  compiler::BuildResult res = compiler::link({std::move(inputs), options, gfx_of(p)});
  p->log += res.log;
  if (res.bad_options) {
    p->status = CL_BUILD_ERROR;
    throw ClError{CL_INVALID_LINKER_OPTIONS, ""};
  }
  if (!res.ok) {
    p->status = CL_BUILD_ERROR;
    throw ClError{failure, ""};
  }
  p->binary = std::move(res.binary);
  if (compiler::classify_binary(p->binary) == compiler::BinaryKind::Library) {
    p->binary_type = CL_PROGRAM_BINARY_TYPE_LIBRARY;
  } else {
    load_binary(p);
  }
  p->status = CL_BUILD_SUCCESS;
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
      switch (compiler::classify_binary(p->binary)) {
      case compiler::BinaryKind::Object: p->binary_type = CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT; break;
      case compiler::BinaryKind::Library: p->binary_type = CL_PROGRAM_BINARY_TYPE_LIBRARY; break;
      default: load_binary(p.get()); // CL_INVALID_BINARY with the reason if it is no code object
      }
    } catch (const ClError&) {
      if (binary_status) binary_status[0] = CL_INVALID_BINARY;
      throw;
    }
    if (binary_status) binary_status[0] = CL_SUCCESS;
    return p.release();
  });
}

// The devices offer no built-in kernels (CL_DEVICE_BUILT_IN_KERNELS is empty), so every
// name is one no device supports.
cl_program CL_API_CALL clCreateProgramWithBuiltInKernels(cl_context context, cl_uint num_devices,
                                                         const cl_device_id* devices,
                                                         const char* kernel_names, cl_int* errcode_ret) {
  return create<cl_program>(errcode_ret, [&]() -> cl_program {
    require(context, CL_INVALID_CONTEXT);
    if (num_devices == 0 || !devices) throw ClError{CL_INVALID_VALUE, ""};
    check_devices(context, num_devices, devices);
    (void)kernel_names;
    throw ClError{CL_INVALID_VALUE, "no built-in kernels"};
  });
}

cl_int CL_API_CALL clRetainProgram(cl_program h) { return retain_handle(h, CL_INVALID_PROGRAM); }

cl_int CL_API_CALL clReleaseProgram(cl_program h) { return release_handle(h, CL_INVALID_PROGRAM); }

cl_int CL_API_CALL clBuildProgram(cl_program p, cl_uint num_devices, const cl_device_id* devices,
                                  const char* options, void(CL_CALLBACK* notify)(cl_program, void*),
                                  void* user_data) {
  cl_int err = guarded([&] {
    require(p, CL_INVALID_PROGRAM);
    check_devices(p->context, num_devices, devices);
    if (!notify && user_data) throw ClError{CL_INVALID_VALUE, ""};
    if (p->kernels_attached) throw ClError{CL_INVALID_OPERATION, ""};
    p->options = options ? options : "";
    p->log.clear();
    if (p->from_binary) {
      // A compiled object or library from a binary is linked into an executable.
      if (p->binary_type != CL_PROGRAM_BINARY_TYPE_EXECUTABLE)
        link_into(p, {p->binary}, "", CL_BUILD_PROGRAM_FAILURE);
      p->status = CL_BUILD_SUCCESS;
      return CL_SUCCESS;
    }
    p->status = CL_BUILD_IN_PROGRESS;
    unload(p); // a failed build leaves no executable behind
    compiler::BuildRequest req = device_request(p, p->options);
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

cl_int CL_API_CALL clCompileProgram(cl_program p, cl_uint num_devices, const cl_device_id* devices,
                                    const char* options, cl_uint num_headers, const cl_program* headers,
                                    const char** header_names,
                                    void(CL_CALLBACK* notify)(cl_program, void*), void* user_data) {
  cl_int err = guarded([&] {
    require(p, CL_INVALID_PROGRAM);
    check_devices(p->context, num_devices, devices);
    if (!notify && user_data) throw ClError{CL_INVALID_VALUE, ""};
    if ((num_headers == 0) != (headers == nullptr) || (num_headers == 0) != (header_names == nullptr))
      throw ClError{CL_INVALID_VALUE, ""};
    if (p->from_binary) throw ClError{CL_INVALID_OPERATION, ""}; // nothing to compile
    if (p->kernels_attached) throw ClError{CL_INVALID_OPERATION, ""};
    compiler::BuildRequest req = device_request(p, options ? options : "");
    for (cl_uint i = 0; i < num_headers; ++i) {
      if (!rt::valid(headers[i]) || headers[i]->from_binary || !header_names[i])
        throw ClError{CL_INVALID_VALUE, ""};
      req.headers.push_back({header_names[i], headers[i]->source});
    }
    p->options = req.options;
    p->status = CL_BUILD_IN_PROGRESS;
    unload(p);
    compiler::BuildResult res = compiler::compile(req);
    p->log = res.log;
    if (res.bad_options) {
      p->status = CL_BUILD_ERROR;
      throw ClError{CL_INVALID_COMPILER_OPTIONS, ""};
    }
    if (!res.ok) {
      p->status = CL_BUILD_ERROR;
      throw ClError{CL_COMPILE_PROGRAM_FAILURE, ""};
    }
    p->binary = std::move(res.binary);
    p->binary_type = CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT;
    p->status = CL_BUILD_SUCCESS;
    return CL_SUCCESS;
  });
  if (notify && rt::valid(p)) notify(p, user_data);
  return err;
}

cl_program CL_API_CALL clLinkProgram(cl_context context, cl_uint num_devices, const cl_device_id* devices,
                                     const char* options, cl_uint num_inputs, const cl_program* inputs,
                                     void(CL_CALLBACK* notify)(cl_program, void*), void* user_data,
                                     cl_int* errcode_ret) {
  // A failed link still returns the program, so that its log can be read.
  cl_program result = nullptr;
  cl_int err = guarded([&] {
    require(context, CL_INVALID_CONTEXT);
    check_devices(context, num_devices, devices);
    if (!notify && user_data) throw ClError{CL_INVALID_VALUE, ""};
    if (num_inputs == 0 || !inputs) throw ClError{CL_INVALID_VALUE, ""};
    std::vector<std::vector<uint8_t>> bitcode;
    for (cl_uint i = 0; i < num_inputs; ++i) {
      require(inputs[i], CL_INVALID_PROGRAM);
      if (inputs[i]->context != context) throw ClError{CL_INVALID_CONTEXT, ""};
      if (inputs[i]->binary_type != CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT &&
          inputs[i]->binary_type != CL_PROGRAM_BINARY_TYPE_LIBRARY)
        throw ClError{CL_INVALID_OPERATION, ""};
      bitcode.push_back(inputs[i]->binary);
    }
    auto p = std::make_unique<_cl_program>();
    p->context = context;
    rt::retain(context);
    p->options = options ? options : "";
    p->from_binary = true; // its source, if any, lives in the inputs
    try {
      link_into(p.get(), std::move(bitcode), p->options, CL_LINK_PROGRAM_FAILURE);
    } catch (const ClError& e) {
      if (e.code == CL_LINK_PROGRAM_FAILURE) result = p.release();
      throw;
    }
    result = p.release();
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
  case CL_PROGRAM_BINARY_TYPE: return rt::write_info(p->binary_type, size, value, size_ret);
  case CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE: return rt::write_info(size_t(0), size, value, size_ret);
  default: return CL_INVALID_VALUE;
  }
}

} // extern "C"
