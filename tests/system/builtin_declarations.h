// The builtin functions OpenCL C 3.0 declares for an amcl device (its extensions and features,
// as a build gives them to clang), for the builtin test generators.
#pragma once
#include "compiler/builtin_coverage.h"
#include "runtime/device_caps.h"

inline amcl::compiler::BuiltinDeclarations amcl_device_builtins() {
  amcl::compiler::DeclarationRequest req;
  req.target = "gfx1100";
  req.c_versions = {"CL3.0"};
  req.extensions = amcl::rt::names(amcl::rt::device_extensions());
  req.features = amcl::rt::names(amcl::rt::opencl_c_features());
  return amcl::compiler::declared_builtins(req);
}
