// Which builtin functions OpenCL C declares for a device, and which of them the libraries amcl
// links (its own builtins, then libclc) leave undefined: a check for tests.
#pragma once
#include <string>
#include <vector>

namespace amcl::compiler {

// A parameter or result passed by value as an OpenCL C scalar or vector type.
struct ValueType {
  std::string name;   // "uint4", "float"; empty for anything else (pointers, events, void...)
  char kind = 0;      // 'i' signed integer, 'u' unsigned integer, 'f' floating point
  unsigned bits = 0;  // of one component
  unsigned width = 0; // components (1 for a scalar)
};

struct DeclaredBuiltin {
  std::string name;      // as OpenCL C spells it: "async_work_group_copy"
  std::string mangled;   // the symbol a call refers to
  std::string signature; // "uint4 max(uint4, uint)": OpenCL C type names, else as clang prints
  bool in_header = false, in_table = false; // declared by opencl-c.h, by clang's builtin table
  ValueType result;
  std::vector<ValueType> params;
  bool variadic = false;
};

struct DeclarationRequest {
  std::string target = "gfx1100";
  std::vector<std::string> c_versions = {"CL3.0"}; // -cl-std values; the union is returned
  // What the device reports (rt::device_extensions(), rt::opencl_c_features()), given to
  // clang as a build gives them.
  std::vector<std::string> extensions, features;
  // CL_DEVICE_IMAGE_SUPPORT. OpenCL C before 3.0 declares the image functions whatever the
  // device supports (clang's table does); without images they are not the device's to offer.
  bool images = false;
};

struct BuiltinDeclarations {
  bool ok = false;
  std::string log;
  // Distinct by mangled name, sorted by it.
  std::vector<DeclaredBuiltin> functions;
  // How many clang's full header (opencl-c.h) declares, and how many its builtin table
  // (-fdeclare-opencl-builtins, what amcl compiles with) declares for the same names.
  size_t from_header = 0, from_table = 0;
  // Declared, but taking or returning an image or sampler on a device without images.
  std::vector<DeclaredBuiltin> image_functions;
};

// Every builtin function OpenCL C declares for the request: the declarations of clang's
// opencl-c.h (and opencl-c-base.h), parsed for each version with the request's extension and
// feature macros, and those clang's builtin table creates for the same names.
BuiltinDeclarations declared_builtins(const DeclarationRequest& request);

struct BuiltinCoverage {
  bool ok = false;
  std::string log;
  // Declared functions that stay undefined after linking the builtin libraries.
  std::vector<DeclaredBuiltin> missing;
  // Functions the linked definitions call that nothing defines (internal helpers).
  std::vector<std::string> undefined_helpers;
  // Declared functions that code generation lowers instead of a library (printf).
  std::vector<DeclaredBuiltin> lowered;
  // Defined functions that read the HSA dispatch packet (llvm.amdgcn.dispatch.ptr), directly or
  // through what they call: libclc's way to the work-group size, which is the enqueued one,
  // wrong in the partial work-group of a non-uniform NDRange.
  std::vector<DeclaredBuiltin> read_dispatch_packet;
};

// Links every function of `declared` from amcl's builtins for `target` and wave size and
// libclc, as a program calling each of them would, and lists what stays undefined.
BuiltinCoverage builtin_coverage(const std::vector<DeclaredBuiltin>& declared,
                                 const std::string& target, bool wave64);

} // namespace amcl::compiler
