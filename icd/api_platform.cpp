// Platform, device and context entry points.
#include "api_util.h"
#include "runtime/context.h"

#include <algorithm>

using namespace amcl;
using namespace amcl::icd;

extern "C" {

cl_int CL_API_CALL clGetPlatformIDs(cl_uint num_entries, cl_platform_id* platforms,
                                    cl_uint* num_platforms) {
  if ((num_entries == 0 && platforms) || (!platforms && !num_platforms)) return CL_INVALID_VALUE;
  return guarded([&] {
    cl_platform_id p = rt::platform();
    if (platforms) platforms[0] = p;
    if (num_platforms) *num_platforms = 1;
    return CL_SUCCESS;
  });
}

cl_int CL_API_CALL clIcdGetPlatformIDsKHR(cl_uint num_entries, cl_platform_id* platforms,
                                          cl_uint* num_platforms) {
  return clGetPlatformIDs(num_entries, platforms, num_platforms);
}

cl_int CL_API_CALL clGetPlatformInfo(cl_platform_id platform, cl_platform_info param_name,
                                     size_t size, void* value, size_t* size_ret) {
  if (platform && platform != rt::platform()) return CL_INVALID_PLATFORM;
  return rt::platform_info(param_name, size, value, size_ret);
}

cl_int CL_API_CALL clGetDeviceIDs(cl_platform_id platform, cl_device_type type, cl_uint num_entries,
                                  cl_device_id* devices, cl_uint* num_devices) {
  if (platform && platform != rt::platform()) return CL_INVALID_PLATFORM;
  const cl_device_type known = CL_DEVICE_TYPE_DEFAULT | CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_GPU |
                               CL_DEVICE_TYPE_ACCELERATOR | CL_DEVICE_TYPE_CUSTOM;
  // No bit set is no type at all (OpenCL 3.0 4.2: "device_type is not a valid value").
  if (type == 0 || (type != CL_DEVICE_TYPE_ALL && (type & ~known))) return CL_INVALID_DEVICE_TYPE;
  if ((num_entries == 0 && devices) || (!devices && !num_devices)) return CL_INVALID_VALUE;
  return guarded([&] {
    const auto& all = rt::platform()->devices;
    std::vector<cl_device_id> match;
    if (type & (CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_DEFAULT) || type == CL_DEVICE_TYPE_ALL)
      match = all;
    if (match.empty()) return CL_DEVICE_NOT_FOUND;
    if (devices)
      for (cl_uint i = 0; i < num_entries && i < match.size(); ++i) devices[i] = match[i];
    if (num_devices) *num_devices = cl_uint(match.size());
    return CL_SUCCESS;
  });
}

cl_int CL_API_CALL clGetDeviceInfo(cl_device_id device, cl_device_info param_name, size_t size,
                                   void* value, size_t* size_ret) {
  if (!rt::valid(device)) return CL_INVALID_DEVICE;
  return rt::device_info(device, param_name, size, value, size_ret);
}

cl_int CL_API_CALL clCreateSubDevices(cl_device_id device, const cl_device_partition_property*,
                                      cl_uint, cl_device_id*, cl_uint*) {
  if (!rt::valid(device)) return CL_INVALID_DEVICE;
  return CL_INVALID_VALUE; // no partition type is supported (CL_DEVICE_PARTITION_PROPERTIES)
}
// Event profiling times are on the host's steady clock: host stamps directly, GPU timestamps
// through the clock calibration the driver makes at boot (runtime/scheduler.cpp). So the
// device timer, in the time base of the profiling times, and the host timer are the same
// clock; CL_PLATFORM_HOST_TIMER_RESOLUTION says 1 ns.
cl_int CL_API_CALL clGetHostTimer(cl_device_id device, cl_ulong* host_timestamp) {
  if (!rt::valid(device)) return CL_INVALID_DEVICE;
  if (!host_timestamp) return CL_INVALID_VALUE;
  *host_timestamp = rt::host_time_ns();
  return CL_SUCCESS;
}

cl_int CL_API_CALL clGetDeviceAndHostTimer(cl_device_id device, cl_ulong* device_timestamp,
                                           cl_ulong* host_timestamp) {
  if (!rt::valid(device)) return CL_INVALID_DEVICE;
  if (!device_timestamp || !host_timestamp) return CL_INVALID_VALUE;
  *device_timestamp = *host_timestamp = rt::host_time_ns();
  return CL_SUCCESS;
}

cl_int CL_API_CALL clRetainDevice(cl_device_id device) {
  return rt::valid(device) ? CL_SUCCESS : CL_INVALID_DEVICE;
}
cl_int CL_API_CALL clReleaseDevice(cl_device_id device) {
  return rt::valid(device) ? CL_SUCCESS : CL_INVALID_DEVICE;
}

static cl_int parse_context_properties(const cl_context_properties* props,
                                       std::vector<cl_context_properties>& out) {
  if (!props) return CL_SUCCESS;
  for (size_t i = 0; props[i]; i += 2) {
    for (size_t j = 0; j < i; j += 2)
      if (props[j] == props[i]) return CL_INVALID_PROPERTY; // named twice
    if (props[i] == CL_CONTEXT_PLATFORM) {
      if (reinterpret_cast<cl_platform_id>(props[i + 1]) != rt::platform()) return CL_INVALID_PLATFORM;
    } else if (props[i] == CL_CONTEXT_INTEROP_USER_SYNC) {
      // A cl_bool (OpenCL 3.0 table 13): any other value is not valid for it.
      if (props[i + 1] != CL_TRUE && props[i + 1] != CL_FALSE) return CL_INVALID_PROPERTY;
    } else {
      return CL_INVALID_PROPERTY;
    }
    out.push_back(props[i]);
    out.push_back(props[i + 1]);
  }
  out.push_back(0);
  return CL_SUCCESS;
}

cl_context CL_API_CALL clCreateContext(const cl_context_properties* properties, cl_uint num_devices,
                                       const cl_device_id* devices,
                                       void(CL_CALLBACK* notify)(const char*, const void*, size_t, void*),
                                       void* user_data, cl_int* errcode_ret) {
  return create<cl_context>(errcode_ret, [&]() -> cl_context {
    if (!devices || num_devices == 0 || (!notify && user_data)) throw ClError{CL_INVALID_VALUE, ""};
    for (cl_uint i = 0; i < num_devices; ++i)
      if (!rt::valid(devices[i])) throw ClError{CL_INVALID_DEVICE, ""};
    std::vector<cl_context_properties> parsed;
    if (cl_int e = parse_context_properties(properties, parsed)) throw ClError{e, ""};
    std::vector<cl_device_id> distinct;
    for (cl_uint i = 0; i < num_devices; ++i) // "duplicate devices ... are ignored"
      if (std::find(distinct.begin(), distinct.end(), devices[i]) == distinct.end())
        distinct.push_back(devices[i]);
    return rt::create_context(std::move(distinct), std::move(parsed), notify, user_data);
  });
}

cl_context CL_API_CALL clCreateContextFromType(const cl_context_properties* properties,
                                               cl_device_type type,
                                               void(CL_CALLBACK* notify)(const char*, const void*, size_t, void*),
                                               void* user_data, cl_int* errcode_ret) {
  // The arguments are checked before devices are looked for: bad properties or a user_data
  // without a callback are their own errors even when no device matches.
  {
    std::vector<cl_context_properties> parsed;
    cl_int err = parse_context_properties(properties, parsed);
    if (err == CL_SUCCESS && !notify && user_data) err = CL_INVALID_VALUE;
    if (err != CL_SUCCESS) {
      if (errcode_ret) *errcode_ret = err;
      return nullptr;
    }
  }
  cl_uint n = 0;
  cl_int err = clGetDeviceIDs(rt::platform(), type, 0, nullptr, &n);
  if (err != CL_SUCCESS) {
    if (errcode_ret) *errcode_ret = err;
    return nullptr;
  }
  std::vector<cl_device_id> devs(n), available;
  clGetDeviceIDs(rt::platform(), type, n, devs.data(), nullptr);
  // A card another process holds is left out; none left is "CL_DEVICE_NOT_AVAILABLE if no
  // devices that match device_type ... are currently available".
  for (cl_device_id d : devs) {
    cl_bool is = CL_FALSE;
    clGetDeviceInfo(d, CL_DEVICE_AVAILABLE, sizeof is, &is, nullptr);
    if (is) available.push_back(d);
  }
  if (available.empty()) {
    if (errcode_ret) *errcode_ret = CL_DEVICE_NOT_AVAILABLE;
    return nullptr;
  }
  return clCreateContext(properties, cl_uint(available.size()), available.data(), notify, user_data,
                         errcode_ret);
}

cl_int CL_API_CALL clRetainContext(cl_context h) { return retain_handle(h, CL_INVALID_CONTEXT); }

cl_int CL_API_CALL clReleaseContext(cl_context h) { return release_handle(h, CL_INVALID_CONTEXT); }

cl_int CL_API_CALL clGetContextInfo(cl_context c, cl_context_info param, size_t size, void* value,
                                    size_t* size_ret) {
  if (!rt::valid(c)) return CL_INVALID_CONTEXT;
  switch (param) {
  case CL_CONTEXT_REFERENCE_COUNT: return rt::write_info(cl_uint(c->refs), size, value, size_ret);
  case CL_CONTEXT_NUM_DEVICES: return rt::write_info(cl_uint(c->devices.size()), size, value, size_ret);
  case CL_CONTEXT_DEVICES: return rt::write_info_vector(c->devices, size, value, size_ret);
  case CL_CONTEXT_PROPERTIES: return rt::write_info_vector(c->properties, size, value, size_ret);
  default: return CL_INVALID_VALUE;
  }
}

cl_int CL_API_CALL clSetContextDestructorCallback(cl_context c, void(CL_CALLBACK* fn)(cl_context, void*),
                                                  void* data) {
  if (!rt::valid(c)) return CL_INVALID_CONTEXT;
  if (!fn) return CL_INVALID_VALUE;
  c->destructors.push_back({fn, data});
  return CL_SUCCESS;
}

// The compiler lives in process and keeps nothing worth unloading between builds.
cl_int CL_API_CALL clUnloadPlatformCompiler(cl_platform_id platform) {
  return platform == rt::platform() ? CL_SUCCESS : CL_INVALID_PLATFORM;
}

cl_int CL_API_CALL clUnloadCompiler(void) { return CL_SUCCESS; }

} // extern "C"
