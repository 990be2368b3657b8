// Extension function lookup (exported for the ICD loader).
#include "runtime/objects.h"

#include <cstring>

extern "C" {

void* CL_API_CALL clGetExtensionFunctionAddress(const char* name) {
  if (!name) return nullptr;
  if (std::strcmp(name, "clIcdGetPlatformIDsKHR") == 0)
    return reinterpret_cast<void*>(&clIcdGetPlatformIDsKHR);
  if (std::strcmp(name, "clGetKernelSubGroupInfoKHR") == 0) // cl_khr_subgroups
    return reinterpret_cast<void*>(&clGetKernelSubGroupInfo);
  // ocl-icd looks clGetPlatformInfo up this way before it trusts the dispatch table.
  if (std::strcmp(name, "clGetPlatformInfo") == 0) return reinterpret_cast<void*>(&clGetPlatformInfo);
  return nullptr;
}

void* CL_API_CALL clGetExtensionFunctionAddressForPlatform(cl_platform_id platform, const char* name) {
  if (platform != amcl::rt::platform()) return nullptr;
  return clGetExtensionFunctionAddress(name);
}

} // extern "C"
