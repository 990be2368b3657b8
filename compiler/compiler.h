// OpenCL C -> AMDGPU code object, in process: clang (libclang-cpp 22) to LLVM IR, link with
// amcl's work-item builtins and libclc's amdgcn-amd-amdhsa library, optimise, emit an AMDGPU
// object, link it with lld into a code object (ELF shared object, code object v5).
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace amcl::compiler {

// A named source text: clCompileProgram's embedded headers (#include "name").
struct SourceFile {
  std::string name, text;
};

struct BuildRequest {
  std::string source;
  std::string options; // OpenCL build options (clBuildProgram)
  std::string target = "gfx1100";
  // OpenCL extensions and OpenCL C 3.0 features the device reports; exactly these get their
  // macros defined, so source sees what CL_DEVICE_EXTENSIONS/OPENCL_C_FEATURES say.
  std::vector<std::string> extensions;
  std::vector<std::string> features;
  std::vector<SourceFile> headers; // compile(): files #include "name" can find
  // The -cl-std values the device supports (CL_DEVICE_OPENCL_C_ALL_VERSIONS as "CL1.2", ...);
  // asking for another fails the build. Empty: any version clang knows.
  std::vector<std::string> c_versions;
  // A SPIR-V module (clCreateProgramWithIL) to build instead of `source`, and the values of
  // its specialization constants by SpecId (clSetProgramSpecializationConstant).
  std::vector<uint8_t> il;
  std::map<uint32_t, std::vector<uint8_t>> spec_constants;
};

struct BuildResult {
  bool ok = false;
  bool bad_options = false; // options clang rejected: CL_INVALID_BUILD_OPTIONS
  std::string log;          // diagnostics, file:line:col with carets
  std::vector<uint8_t> binary;
  bool cached = false; // served from the on-disk build cache (build_cache.h)
};

// Builds through the on-disk cache; build_uncached always compiles.
BuildResult build(const BuildRequest& request);
BuildResult build_uncached(const BuildRequest& request);

// clCompileProgram: source (+ headers) -> LLVM bitcode object, builtins not yet linked.
BuildResult compile(const BuildRequest& request);

// clLinkProgram: bitcode objects and libraries -> a library (bitcode; -create-library) or an
// executable code object. bad_options means options clLinkProgram does not accept.
struct LinkRequest {
  std::vector<std::vector<uint8_t>> inputs;
  std::string options;
  std::string target = "gfx1100";
};
BuildResult link(const LinkRequest& request);

// What a program binary is: an executable code object, or bitcode from compile()/link().
enum class BinaryKind { Invalid, Executable, Object, Library };
BinaryKind classify_binary(const std::vector<uint8_t>& binary);

// Version string that identifies the compiler in caches and CL_DEVICE_VERSION-like queries.
std::string compiler_version();

} // namespace amcl::compiler
