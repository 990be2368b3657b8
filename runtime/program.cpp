#include "program.h"

#include "compiler/compiler.h"
#include "compiler/spirv_module.h"
#include "compiler/spirv_translator.h"
#include "device_caps.h"

#include <cstring>
#include <functional>
#include <memory>

namespace amcl::rt {
namespace {

using Build = ProgramBuild;

// Reads `b`'s code object and loads its image into `device`'s executable VRAM.
void load_binary(Build& b, cl_device_id device) {
  std::string error;
  auto co = compiler::read_code_object(b.binary, &error);
  if (!co) throw ClError{CL_INVALID_BINARY, error};
  am::Device& dev = *device->am;
  if (co->target != dev.info().gfx) throw ClError{CL_INVALID_BINARY, "binary is for " + co->target};
  b.loaded.reset(); // freed here unless kernels made from it still hold it
  const am::Allocation image = dev.alloc_vram(co->image_size, 256, true);
  try {
    co->load(image.cpu, image.va);
    // The address may have held other code (a freed program's, a binary loaded before): the
    // next dispatch must not run what the instruction cache kept of it.
    dev.note_code_written();
    b.loaded = std::make_shared<const LoadedCode>(dev, std::move(*co), image);
  } catch (...) {
    dev.free(image);
    throw;
  }
  b.binary_type = CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
}

// Drops a previous executable (a program compiled again stops being one).
void unload(Build& b) {
  b.loaded.reset();
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
  req.extensions = names(device_extensions());
  req.features = names(opencl_c_features());
  req.c_versions = cl_std_values();
  req.il = p->il;
  req.spec_constants = p->spec_values;
  return req;
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

// clBuildProgram of a program made from binaries: compiled objects and libraries are linked
// into executables, executables stay.
void link_binaries(cl_program p, const std::vector<cl_device_id>& devices) {
  for (cl_device_id d : devices)
    if (!p->build_for(d)->loaded && p->build_for(d)->binary.empty())
      throw ClError{CL_INVALID_BINARY, ""};
  std::vector<cl_device_id> to_link;
  for (cl_device_id d : devices) {
    Build& b = *p->build_for(d);
    b.log.clear();
    if (b.binary_type == CL_PROGRAM_BINARY_TYPE_EXECUTABLE)
      b.status = CL_BUILD_SUCCESS;
    else
      to_link.push_back(d);
  }
  link_for_devices(
      p, to_link,
      [&](cl_device_id d) { return std::vector<std::vector<uint8_t>>{p->build_for(d)->binary}; },
      "", CL_BUILD_PROGRAM_FAILURE);
}

} // namespace

cl_program create_program_with_source(cl_context context, std::string source) {
  auto p = std::make_unique<_cl_program>();
  p->source = std::move(source);
  p->context = context;
  retain(context);
  p->devices = context->devices;
  p->builds.resize(p->devices.size());
  return p.release();
}

const std::vector<cl_name_version>& il_versions() {
  static const std::vector<cl_name_version> versions = [] {
    std::vector<cl_name_version> v;
    if (compiler::spirv_translator_path().empty()) return v;
    for (cl_uint minor = 0; minor <= 5; ++minor) {
      cl_name_version n{};
      n.version = CL_MAKE_VERSION(1, minor, 0);
      std::strcpy(n.name, "SPIR-V");
      v.push_back(n);
    }
    return v;
  }();
  return versions;
}

cl_program create_program_with_il(cl_context context, std::span<const uint8_t> il) {
  if (il_versions().empty()) throw ClError{CL_INVALID_OPERATION, "no SPIR-V translator"};
  std::string why;
  if (!compiler::spirv_header_valid(il, &why)) throw ClError{CL_INVALID_VALUE, why};
  auto p = std::make_unique<_cl_program>();
  p->il.assign(il.begin(), il.end());
  // A module whose instructions cannot be walked declares no constants; its build fails.
  p->spec_sizes = compiler::spirv_spec_constants(il).value_or(std::map<uint32_t, uint32_t>{});
  p->context = context;
  retain(context);
  p->devices = context->devices;
  p->builds.resize(p->devices.size());
  return p.release();
}

void set_specialization_constant(cl_program p, cl_uint spec_id, size_t size, const void* value) {
  if (p->il.empty()) throw ClError{CL_INVALID_PROGRAM, "not made from IL"};
  auto it = p->spec_sizes.find(spec_id);
  if (it == p->spec_sizes.end()) throw ClError{CL_INVALID_SPEC_ID, ""};
  if (!value || size != it->second) throw ClError{CL_INVALID_VALUE, ""};
  const auto* bytes = static_cast<const uint8_t*>(value);
  p->spec_values[spec_id].assign(bytes, bytes + size);
}

cl_program create_program_with_binary(cl_context context, const std::vector<cl_device_id>& devices,
                                      const std::vector<std::span<const uint8_t>>& binaries,
                                      cl_int* binary_status) {
  auto p = std::make_unique<_cl_program>();
  p->context = context;
  retain(context); // released by ~_cl_program, also when loading fails
  p->devices = devices;
  p->builds.resize(devices.size());
  p->from_binary = true;
  bool invalid = false;
  for (size_t i = 0; i < devices.size(); ++i) {
    Build& b = p->builds[i];
    b.binary.assign(binaries[i].begin(), binaries[i].end());
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
}

cl_int build_program(cl_program p, const std::vector<cl_device_id>& devices,
                     const std::string& options) {
  p->options = options;
  if (p->from_binary) {
    link_binaries(p, devices);
    return CL_SUCCESS;
  }
  std::vector<std::pair<std::string, compiler::BuildResult>> done;
  cl_int first_error = CL_SUCCESS;
  for (cl_device_id d : devices) {
    Build& b = *p->build_for(d);
    b.status = CL_BUILD_IN_PROGRESS;
    unload(b); // a failed build leaves no executable behind
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
        unload(b);
        throw ClError{CL_BUILD_PROGRAM_FAILURE, e.message};
      }
      b.status = CL_BUILD_SUCCESS;
    } catch (const ClError& e) {
      b.status = CL_BUILD_ERROR;
      if (first_error == CL_SUCCESS) first_error = e.code;
    }
  }
  return first_error;
}

cl_int compile_program(cl_program p, const std::vector<cl_device_id>& devices,
                       const std::string& options, const std::vector<NamedHeader>& headers) {
  p->options = options;
  std::vector<std::pair<std::string, compiler::BuildResult>> done;
  cl_int first_error = CL_SUCCESS;
  for (cl_device_id d : devices) {
    Build& b = *p->build_for(d);
    b.status = CL_BUILD_IN_PROGRESS;
    unload(b);
    compiler::BuildResult res = for_target(done, d, [&] {
      compiler::BuildRequest req = device_request(p, d, p->options);
      for (auto& [name, source] : headers) req.headers.push_back({name, source});
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
}

cl_program link_program(cl_context context, const std::vector<cl_device_id>& devices,
                        const std::string& options, const std::vector<cl_program>& inputs,
                        cl_program& failed) {
  auto p = std::make_unique<_cl_program>();
  p->context = context;
  retain(context);
  p->devices = devices;
  p->builds.resize(devices.size());
  p->options = options;
  p->from_binary = true; // its source, if any, lives in the inputs
  try {
    link_for_devices(
        p.get(), devices,
        [&](cl_device_id d) {
          std::vector<std::vector<uint8_t>> bitcode;
          for (cl_program input : inputs) bitcode.push_back(input->build_for(d)->binary);
          return bitcode;
        },
        p->options, CL_LINK_PROGRAM_FAILURE);
  } catch (const ClError& e) {
    if (e.code == CL_LINK_PROGRAM_FAILURE) failed = p.release();
    throw;
  }
  return p.release();
}

std::vector<std::string> kernel_names(const ProgramBuild& b) {
  std::vector<std::string> out;
  for (const compiler::KernelInfo& k : b.loaded->code.kernels) out.push_back(k.name);
  return out;
}

size_t global_variable_size(const ProgramBuild& b) {
  return b.loaded ? b.loaded->code.global_variable_size : 0;
}

} // namespace amcl::rt
