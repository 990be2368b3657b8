// Programs: creation from source or binary, build, queries.
#include "api_util.h"

#include "compiler/compiler.h"
#include "runtime/device_caps.h"

#include <algorithm>
#include <cstring>
#include <functional>

using namespace amcl;
using namespace amcl::icd;

namespace {

using Build = _cl_program::Build;

// Reads `b`'s code object and loads its image into `device`'s executable VRAM.
void load_binary(Build& b, cl_device_id device) {
  std::string error;
  auto co = compiler::read_code_object(b.binary, &error);
  if (!co) throw ClError{CL_INVALID_BINARY, error};
  am::Device& dev = *device->am;
  if (co->target != dev.info().gfx) throw ClError{CL_INVALID_BINARY, "binary is for " + co->target};
  if (b.image) dev.free(b.image);
  b.image = dev.alloc_vram(co->image_size, 256, true);
  co->load(b.image.cpu, b.image.va);
  b.code = std::move(co);
  b.binary_type = CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
}

// Drops a previous executable (a program compiled again stops being one).
void unload(Build& b, cl_device_id device) {
  if (b.image) device->am->free(b.image);
  b.image = {};
  b.code.reset();
  b.binary.clear();
  b.binary_type = CL_PROGRAM_BINARY_TYPE_NONE;
}

// A build of `p`'s source for `device`: exactly the extensions, OpenCL C features and
// language versions the device reports.
compiler::BuildRequest device_request(cl_program p, cl_device_id device, std::string options) {
  compiler::BuildRequest req;
  req.source = p->source;
  req.options = std::move(options);
  req.target = device->am->info().gfx;
  req.extensions = rt::names(rt::device_extensions());
  req.features = rt::names(rt::opencl_c_features());
  req.c_versions = rt::cl_std_values();
  return req;
}

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

// Runs `make` for each device, reusing the result of an earlier device of the same target
// (devices of one target get the same code; each still loads its own image).
template <class Make>
compiler::BuildResult for_target(std::vector<std::pair<std::string, compiler::BuildResult>>& done,
                                 cl_device_id device, Make make) {
  const std::string& gfx = device->am->info().gfx;
  for (auto& [target, result] : done)
    if (target == gfx) return result;
  done.emplace_back(gfx, make());
  return done.back().second;
}

// Links `inputs` (bitcode) into `b` for `device`: a library or, by default, an executable.
void link_into(Build& b, cl_device_id device, const compiler::BuildResult& res, cl_int failure) {
  b.status = CL_BUILD_IN_PROGRESS;
  b.log += res.log;
  if (res.bad_options) {
    b.status = CL_BUILD_ERROR;
    throw ClError{CL_INVALID_LINKER_OPTIONS, ""};
  }
  if (!res.ok) {
    b.status = CL_BUILD_ERROR;
    throw ClError{failure, ""};
  }
  b.binary = res.binary;
  if (compiler::classify_binary(b.binary) == compiler::BinaryKind::Library) {
    b.binary_type = CL_PROGRAM_BINARY_TYPE_LIBRARY;
  } else {
    load_binary(b, device);
  }
  b.status = CL_BUILD_SUCCESS;
}

// Links bitcode for each of `devices` into `p` (whose devices they are).
void link_for_devices(cl_program p, const std::vector<cl_device_id>& devices,
                      const std::function<std::vector<std::vector<uint8_t>>(cl_device_id)>& inputs,
                      const std::string& options, cl_int failure) {
  std::vector<std::pair<std::string, compiler::BuildResult>> done;
  cl_int first_error = CL_SUCCESS;
  for (cl_device_id d : devices) {
    Build& b = *p->build_for(d);
    try {
      auto res = for_target(done, d, [&] {
        return compiler::link({inputs(d), options, d->am->info().gfx});
      });
      link_into(b, d, res, failure);
    } catch (const ClError& e) {
      if (first_error == CL_SUCCESS) first_error = e.code;
    }
  }
  if (first_error != CL_SUCCESS) throw ClError{first_error, ""};
}

} // namespace

extern "C" {

cl_program CL_API_CALL clCreateProgramWithSource(cl_context context, cl_uint count,
                                                 const char** strings, const size_t* lengths,
                                                 cl_int* errcode_ret) {
  return create<cl_program>(errcode_ret, [&]() -> cl_program {
    require(context, CL_INVALID_CONTEXT);
    if (count == 0 || !strings) throw ClError{CL_INVALID_VALUE, ""};
    auto p = std::make_unique<_cl_program>();
    for (cl_uint i = 0; i < count; ++i) {
      if (!strings[i]) throw ClError{CL_INVALID_VALUE, ""};
      p->source +=
          lengths && lengths[i] ? std::string(strings[i], lengths[i]) : std::string(strings[i]);
    }
    p->context = context;
    rt::retain(context);
    p->devices = context->devices;
    p->builds.resize(p->devices.size());
    return p.release();
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
    auto p = std::make_unique<_cl_program>();
    p->context = context;
    rt::retain(context); // released by ~_cl_program, also when loading fails
    p->devices.assign(devices, devices + num_devices);
    p->builds.resize(num_devices);
    p->from_binary = true;
    bool invalid = false;
    for (cl_uint i = 0; i < num_devices; ++i) {
      Build& b = p->builds[i];
      b.binary.assign(binaries[i], binaries[i] + lengths[i]);
      try {
        switch (compiler::classify_binary(b.binary)) {
        case compiler::BinaryKind::Object:
          b.binary_type = CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT;
          break;
        case compiler::BinaryKind::Library:
          b.binary_type = CL_PROGRAM_BINARY_TYPE_LIBRARY;
          break;
        default:
          load_binary(b, devices[i]); // CL_INVALID_BINARY with the reason if it is no code object
        }
      } catch (const ClError& e) {
        if (e.code != CL_INVALID_BINARY) throw;
        if (binary_status) binary_status[i] = CL_INVALID_BINARY;
        invalid = true;
      }
    }
    if (invalid) throw ClError{CL_INVALID_BINARY, ""};
    return p.release();
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
    p->options = options ? options : "";
    if (p->from_binary) {
      // A compiled object or library from a binary is linked into an executable.
      for (cl_device_id d : targets)
        if (!p->build_for(d)->code && p->build_for(d)->binary.empty())
          throw ClError{CL_INVALID_BINARY, ""};
      std::vector<cl_device_id> to_link;
      for (cl_device_id d : targets) {
        Build& b = *p->build_for(d);
        b.log.clear();
        if (b.binary_type == CL_PROGRAM_BINARY_TYPE_EXECUTABLE)
          b.status = CL_BUILD_SUCCESS;
        else
          to_link.push_back(d);
      }
      link_for_devices(
          p, to_link,
          [&](cl_device_id d) {
            return std::vector<std::vector<uint8_t>>{p->build_for(d)->binary};
          },
          "", CL_BUILD_PROGRAM_FAILURE);
      return CL_SUCCESS;
    }
    std::vector<std::pair<std::string, compiler::BuildResult>> done;
    cl_int first_error = CL_SUCCESS;
    for (cl_device_id d : targets) {
      Build& b = *p->build_for(d);
      b.status = CL_BUILD_IN_PROGRESS;
      unload(b, d); // a failed build leaves no executable behind
      compiler::BuildResult res =
          for_target(done, d, [&] { return compiler::build(device_request(p, d, p->options)); });
      b.log = res.log;
      try {
        if (res.bad_options) throw ClError{CL_INVALID_BUILD_OPTIONS, ""};
        if (!res.ok) throw ClError{CL_BUILD_PROGRAM_FAILURE, ""};
        b.binary = std::move(res.binary);
        try {
          load_binary(b, d);
        } catch (const ClError& e) {
          // The compiler made a code object amcl cannot load: amcl's fault, not the source's,
          // but the log is where a user looks (clBuildProgram has no CL_INVALID_BINARY for
          // source).
          b.log += "internal error: the compiled code object cannot be loaded: " + e.message + "\n";
          unload(b, d);
          throw ClError{CL_BUILD_PROGRAM_FAILURE, e.message};
        }
        b.status = CL_BUILD_SUCCESS;
      } catch (const ClError& e) {
        b.status = CL_BUILD_ERROR;
        if (first_error == CL_SUCCESS) first_error = e.code;
      }
    }
    return first_error;
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
    std::vector<std::pair<std::string, std::string>> header_sources;
    for (cl_uint i = 0; i < num_headers; ++i) {
      if (!rt::valid(headers[i]) || headers[i]->from_binary || !header_names[i])
        throw ClError{CL_INVALID_VALUE, ""};
      header_sources.push_back({header_names[i], headers[i]->source});
    }
    p->options = options ? options : "";
    std::vector<std::pair<std::string, compiler::BuildResult>> done;
    cl_int first_error = CL_SUCCESS;
    for (cl_device_id d : targets) {
      Build& b = *p->build_for(d);
      b.status = CL_BUILD_IN_PROGRESS;
      unload(b, d);
      compiler::BuildResult res = for_target(done, d, [&] {
        compiler::BuildRequest req = device_request(p, d, p->options);
        for (auto& [name, source] : header_sources) req.headers.push_back({name, source});
        return compiler::compile(req);
      });
      b.log = res.log;
      if (res.bad_options || !res.ok) {
        b.status = CL_BUILD_ERROR;
        if (first_error == CL_SUCCESS)
          first_error = res.bad_options ? CL_INVALID_COMPILER_OPTIONS : CL_COMPILE_PROGRAM_FAILURE;
        continue;
      }
      b.binary = std::move(res.binary);
      b.binary_type = CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT;
      b.status = CL_BUILD_SUCCESS;
    }
    return first_error;
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
        const Build* b = inputs[i]->build_for(d);
        if (!b || (b->binary_type != CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT &&
                   b->binary_type != CL_PROGRAM_BINARY_TYPE_LIBRARY))
          throw ClError{CL_INVALID_OPERATION, ""};
      }
    }
    auto p = std::make_unique<_cl_program>();
    p->context = context;
    rt::retain(context);
    p->devices = targets;
    p->builds.resize(targets.size());
    p->options = options ? options : "";
    p->from_binary = true; // its source, if any, lives in the inputs
    try {
      link_for_devices(
          p.get(), targets,
          [&](cl_device_id d) {
            std::vector<std::vector<uint8_t>> bitcode;
            for (cl_uint i = 0; i < num_inputs; ++i)
              bitcode.push_back(inputs[i]->build_for(d)->binary);
            return bitcode;
          },
          p->options, CL_LINK_PROGRAM_FAILURE);
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
    for (const Build& b : p->builds) sizes.push_back(b.binary.size());
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
    const Build* b = p->any_executable();
    if (!b) return CL_INVALID_PROGRAM_EXECUTABLE;
    if (param == CL_PROGRAM_NUM_KERNELS)
      return rt::write_info(size_t(b->code->kernels.size()), size, value, size_ret);
    std::string names;
    for (auto& k : b->code->kernels) names += (names.empty() ? "" : ";") + k.name;
    return rt::write_info_string(names, size, value, size_ret);
  }
  case CL_PROGRAM_IL:
    return rt::write_info(nullptr, 0, size, value, size_ret);
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
  const Build* b = rt::valid(d) ? p->build_for(d) : nullptr;
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
    return rt::write_info(size_t(b->code ? b->code->global_variable_size : 0), size, value,
                          size_ret);
  default:
    return CL_INVALID_VALUE;
  }
}

} // extern "C"
