// Extension function lookup (exported for the ICD loader).
#include "runtime/memory.h"

#include <cstring>

extern "C" {

// amcl's own debugging hook (not an advertised extension; declared in tests/support/amcl_platform.h):
// the device memory allocations the driver has not freed yet, and their bytes. Tests check
// that releasing every object brings them back to where they were.
static cl_int CL_API_CALL clGetDeviceAllocationsAMCL(cl_device_id device, cl_ulong* count,
                                                     cl_ulong* bytes) {
  if (!amcl::rt::valid(device)) return CL_INVALID_DEVICE;
  if (!count && !bytes) return CL_INVALID_VALUE;
  const amcl::rt::LiveAllocations live = amcl::rt::live_allocations(device);
  if (count) *count = live.count;
  if (bytes) *bytes = live.bytes;
  return CL_SUCCESS;
}

void* CL_API_CALL clGetExtensionFunctionAddress(const char* name) {
  if (!name) return nullptr;
  if (std::strcmp(name, "clGetDeviceAllocationsAMCL") == 0)
    return reinterpret_cast<void*>(&clGetDeviceAllocationsAMCL);
  if (std::strcmp(name, "clIcdGetPlatformIDsKHR") == 0)
    return reinterpret_cast<void*>(&clIcdGetPlatformIDsKHR);
  if (std::strcmp(name, "clGetKernelSubGroupInfoKHR") == 0) // cl_khr_subgroups
    return reinterpret_cast<void*>(&clGetKernelSubGroupInfo);
  if (std::strcmp(name, "clCreateProgramWithILKHR") == 0) // cl_khr_il_program
    return reinterpret_cast<void*>(&clCreateProgramWithILKHR);
  // ocl-icd looks clGetPlatformInfo up this way before it trusts the dispatch table.
  if (std::strcmp(name, "clGetPlatformInfo") == 0)
    return reinterpret_cast<void*>(&clGetPlatformInfo);
  return nullptr;
}

void* CL_API_CALL clGetExtensionFunctionAddressForPlatform(cl_platform_id platform,
                                                           const char* name) {
  if (platform != amcl::rt::platform()) return nullptr;
  return clGetExtensionFunctionAddress(name);
}

} // extern "C"
