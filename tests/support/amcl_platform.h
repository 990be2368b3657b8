// The amcl platform among those the ICD loader lists (nullptr when the loader does not find
// it). No test framework here: the libFuzzer API target uses it too.
#pragma once
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include <cstring>

namespace amcl_test {

inline cl_platform_id amcl_platform() {
  cl_platform_id ids[16];
  cl_uint n = 0;
  if (clGetPlatformIDs(16, ids, &n) != CL_SUCCESS) return nullptr;
  for (cl_uint i = 0; i < n && i < 16; ++i) {
    char name[64] = "";
    clGetPlatformInfo(ids[i], CL_PLATFORM_NAME, sizeof name, name, nullptr);
    if (std::strcmp(name, "amcl") == 0) return ids[i];
  }
  return nullptr;
}

// amcl's debugging hook (icd/api_extension.cpp): device allocations not yet freed, and their
// bytes. Null when the platform does not have it.
using GetDeviceAllocations = cl_int(CL_API_CALL*)(cl_device_id, cl_ulong* count, cl_ulong* bytes);
inline GetDeviceAllocations device_allocations_hook(cl_platform_id platform) {
  return reinterpret_cast<GetDeviceAllocations>(
      clGetExtensionFunctionAddressForPlatform(platform, "clGetDeviceAllocationsAMCL"));
}

} // namespace amcl_test
