// What an amcl device supports, in one place: the extensions and OpenCL C 3.0 features that
// clGetDeviceInfo reports are exactly the ones the compiler defines macros for.
#pragma once
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include <string>
#include <vector>

namespace amcl::rt {

// Properties a host command queue may have (CL_DEVICE_QUEUE_ON_HOST_PROPERTIES).
// Out of order, commands start as their wait lists allow (runtime/scheduler.cpp); the device
// still runs what it is given in submission order.
inline constexpr cl_command_queue_properties kHostQueueProperties =
    CL_QUEUE_PROFILING_ENABLE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE;

// VRAM the driver and the runtime keep (rings, page tables, kernargs, staging): left out of
// CL_DEVICE_GLOBAL_MEM_SIZE and of the free memory reported.
inline constexpr cl_ulong kDriverReserveBytes = 64ull << 20;
inline constexpr cl_ulong global_mem_size(cl_ulong vram_bytes) {
  return vram_bytes - kDriverReserveBytes;
}

struct Capability {
  const char* name;
  cl_version version;
};

const std::vector<Capability>& device_extensions();
const std::vector<Capability>& platform_extensions();
const std::vector<Capability>& opencl_c_features();
// CL_DEVICE_OPENCL_C_ALL_VERSIONS (all named "OpenCL C"), and the same as -cl-std values.
const std::vector<cl_version>& opencl_c_versions();
std::vector<std::string> cl_std_values();

std::vector<std::string> names(const std::vector<Capability>& caps);
std::string joined_names(const std::vector<Capability>& caps);
std::vector<cl_name_version> with_versions(const std::vector<Capability>& caps);

} // namespace amcl::rt
