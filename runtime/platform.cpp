// The amcl platform, its devices and their queries (OpenCL 3.0 spec, clGetPlatformInfo and
// clGetDeviceInfo tables). Values come from the AM driver's view of the device.
#include "objects.h"

#include "device_caps.h"
#include "device_identity.h"
#include "device_info_amd.h"
#include "dispatch.h"
#include "image.h"
#include "program.h"
#include "svm.h"

#include <CL/cl_ext.h>

#include "device_backends.h"

#include "am/debug_log.h"
#include "compiler/build_cache.h"

#include <array>
#include <chrono>
#include <cstring>

namespace amcl::rt {

const cl_icd_dispatch* g_dispatch = nullptr;

namespace {

constexpr const char* kPlatformName = "amcl";
constexpr const char* kVendor = "amcl project";
constexpr const char* kPlatformVersion = "OpenCL 3.0 amcl 0.1.0";
constexpr const char* kIcdSuffix = "AMCL";

} // namespace

cl_int write_info(const void* data, size_t size, size_t n, void* p, size_t* r) {
  if (p && n < size) return CL_INVALID_VALUE;
  if (p && size) std::memcpy(p, data, size);
  if (r) *r = size;
  return CL_SUCCESS;
}

cl_int write_info_string(const std::string& s, size_t n, void* p, size_t* r) {
  return write_info(s.c_str(), s.size() + 1, n, p, r);
}

uint64_t host_time_ns() {
  return uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(
                      std::chrono::steady_clock::now().time_since_epoch()).count());
}

cl_platform_id platform() {
  static cl_platform_id p = [] {
    auto* plat = new _cl_platform_id();
    compiler::BuildCache::set_log_level(am::debug_level());
    for (DeviceBackend& backend : open_device_backends()) {
      try {
        auto* dev = new _cl_device_id();
        dev->platform = plat;
        if (backend.pci) dev->am = std::make_unique<am::Device>(backend.pci);
        dev->held_identity = std::move(backend.identity);
        dev->held_by = std::move(backend.held_by);
        plat->devices.push_back(dev);
      } catch (const std::exception& ex) {
        std::fprintf(stderr, "amcl: device %s unusable: %s\n", backend.pci->address().c_str(), ex.what());
      }
    }
    return plat;
  }();
  return p;
}

cl_int platform_info(cl_platform_info param, size_t n, void* p, size_t* r) {
  switch (param) {
  case CL_PLATFORM_PROFILE: return write_info_string("FULL_PROFILE", n, p, r);
  case CL_PLATFORM_VERSION: return write_info_string(kPlatformVersion, n, p, r);
  case CL_PLATFORM_NUMERIC_VERSION: return write_info(cl_version(CL_MAKE_VERSION(3, 0, 0)), n, p, r);
  case CL_PLATFORM_NAME: return write_info_string(kPlatformName, n, p, r);
  case CL_PLATFORM_VENDOR: return write_info_string(kVendor, n, p, r);
  case CL_PLATFORM_EXTENSIONS: return write_info_string(joined_names(platform_extensions()), n, p, r);
  case CL_PLATFORM_EXTENSIONS_WITH_VERSION:
    return write_info_vector(with_versions(platform_extensions()), n, p, r);
  case CL_PLATFORM_HOST_TIMER_RESOLUTION: return write_info(cl_ulong(1), n, p, r);
  case CL_PLATFORM_ICD_SUFFIX_KHR: return write_info_string(kIcdSuffix, n, p, r);
  default: return CL_INVALID_VALUE;
  }
}

cl_int device_info(cl_device_id d, cl_device_info param, size_t n, void* p, size_t* r) {
  const am::DeviceInfo& info = d->info();
  auto u = [&](cl_uint v) { return write_info(v, n, p, r); };
  auto ul = [&](cl_ulong v) { return write_info(v, n, p, r); };
  auto sz = [&](size_t v) { return write_info(v, n, p, r); };
  auto b = [&](cl_bool v) { return write_info(v, n, p, r); };
  auto s = [&](const std::string& v) { return write_info_string(v, n, p, r); };
  const cl_ulong global_mem = global_mem_size(info.vram_size);
  const cl_ulong max_alloc = global_mem / 2;
  const cl_device_fp_config fp32 = CL_FP_DENORM | CL_FP_INF_NAN | CL_FP_ROUND_TO_NEAREST |
                                   CL_FP_ROUND_TO_ZERO | CL_FP_ROUND_TO_INF | CL_FP_FMA |
                                   CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT;
  const cl_device_fp_config fp64 = CL_FP_DENORM | CL_FP_INF_NAN | CL_FP_ROUND_TO_NEAREST |
                                   CL_FP_ROUND_TO_ZERO | CL_FP_ROUND_TO_INF | CL_FP_FMA;
  switch (param) {
  case CL_DEVICE_TYPE: return write_info(cl_device_type(CL_DEVICE_TYPE_GPU), n, p, r);
  case CL_DEVICE_VENDOR_ID: return u(info.vendor_id);
  case CL_DEVICE_MAX_COMPUTE_UNITS: return u(info.compute_units);
  case CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS: return u(3);
  case CL_DEVICE_MAX_WORK_ITEM_SIZES: {
    size_t v[3] = {1024, 1024, 1024};
    return write_info(v, sizeof v, n, p, r);
  }
  case CL_DEVICE_MAX_WORK_GROUP_SIZE: return sz(1024);
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR: case CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR: return u(4);
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT: case CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT: return u(2);
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT: case CL_DEVICE_NATIVE_VECTOR_WIDTH_INT:
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG: case CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG:
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT: case CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT:
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE: case CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE:
    return u(1);
  // Packed f16 instructions (v_pk_*) work on pairs.
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF: case CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF: return u(2);
  case CL_DEVICE_MAX_CLOCK_FREQUENCY: return u(info.max_clock_mhz);
  case CL_DEVICE_ADDRESS_BITS: return u(64);
  // Image and sampler arguments are 8-byte kernarg slots (compiler/image_abi.h): the limits are
  // the OpenCL 3.0 minimums, which the kernarg space holds many times over.
  case CL_DEVICE_MAX_READ_IMAGE_ARGS: return u(128);
  case CL_DEVICE_MAX_WRITE_IMAGE_ARGS: case CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS: return u(64);
  case CL_DEVICE_MAX_SAMPLERS: return u(16);
  case CL_DEVICE_MAX_MEM_ALLOC_SIZE: return ul(max_alloc);
  case CL_DEVICE_IMAGE2D_MAX_WIDTH: return sz(image_limits(d).width_2d);
  case CL_DEVICE_IMAGE2D_MAX_HEIGHT: return sz(image_limits(d).height_2d);
  case CL_DEVICE_IMAGE3D_MAX_WIDTH: return sz(image_limits(d).width_3d);
  case CL_DEVICE_IMAGE3D_MAX_HEIGHT: return sz(image_limits(d).height_3d);
  case CL_DEVICE_IMAGE3D_MAX_DEPTH: return sz(image_limits(d).depth_3d);
  case CL_DEVICE_IMAGE_MAX_BUFFER_SIZE: return sz(image_limits(d).buffer_size);
  case CL_DEVICE_IMAGE_MAX_ARRAY_SIZE: return sz(image_limits(d).array_size);
  case CL_DEVICE_IMAGE_SUPPORT: return b(CL_TRUE);
  case CL_DEVICE_IMAGE_PITCH_ALIGNMENT: return u(image_limits(d).pitch_align);
  case CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT: return u(image_limits(d).base_align);
  case CL_DEVICE_MAX_PARAMETER_SIZE: return sz(4096);
  case CL_DEVICE_MEM_BASE_ADDR_ALIGN: return u(1024); // bits: sub-buffers on 128-byte boundaries
  case CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE: return u(128);
  case CL_DEVICE_SINGLE_FP_CONFIG: return write_info(fp32, n, p, r);
  case CL_DEVICE_DOUBLE_FP_CONFIG: return write_info(fp64, n, p, r);
  // f16 shares the f64 denormal mode (MODE.FP_DENORM[3:2]), which kernels run with enabled.
  case CL_DEVICE_HALF_FP_CONFIG:
    return write_info(cl_device_fp_config(CL_FP_DENORM | CL_FP_INF_NAN | CL_FP_ROUND_TO_NEAREST |
                                          CL_FP_FMA),
                      n, p, r);
  case CL_DEVICE_GLOBAL_MEM_CACHE_TYPE:
    return write_info(cl_device_mem_cache_type(CL_READ_WRITE_CACHE), n, p, r);
  case CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE: return u(128);
  case CL_DEVICE_GLOBAL_MEM_CACHE_SIZE: return ul(6ull << 20);
  case CL_DEVICE_GLOBAL_MEM_SIZE: return ul(global_mem);
  case CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE: return ul(max_alloc);
  case CL_DEVICE_MAX_CONSTANT_ARGS: return u(8);
  case CL_DEVICE_LOCAL_MEM_TYPE: return write_info(cl_device_local_mem_type(CL_LOCAL), n, p, r);
  case CL_DEVICE_LOCAL_MEM_SIZE: return ul(kLocalMemoryBytes);
  case CL_DEVICE_ERROR_CORRECTION_SUPPORT: return b(CL_FALSE);
  case CL_DEVICE_HOST_UNIFIED_MEMORY: return b(CL_FALSE);
  case CL_DEVICE_PROFILING_TIMER_RESOLUTION: return sz(10);
  case CL_DEVICE_ENDIAN_LITTLE: return b(CL_TRUE);
  // A card another process holds is listed but not available (runtime/device_backends.h).
  case CL_DEVICE_AVAILABLE: return b(d->am ? CL_TRUE : CL_FALSE);
  case CL_DEVICE_COMPILER_AVAILABLE: case CL_DEVICE_LINKER_AVAILABLE: return b(CL_TRUE);
  case CL_DEVICE_EXECUTION_CAPABILITIES:
    return write_info(cl_device_exec_capabilities(CL_EXEC_KERNEL), n, p, r);
  case CL_DEVICE_QUEUE_PROPERTIES: // == CL_DEVICE_QUEUE_ON_HOST_PROPERTIES
    return write_info(kHostQueueProperties, n, p, r);
  case CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES:
    return write_info(cl_command_queue_properties(0), n, p, r);
  case CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE: case CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE:
  case CL_DEVICE_MAX_ON_DEVICE_QUEUES: case CL_DEVICE_MAX_ON_DEVICE_EVENTS:
    return u(0);
  case CL_DEVICE_PLATFORM: return write_info(d->platform, n, p, r);
  case CL_DEVICE_NAME: return s(info.gfx);
  case CL_DEVICE_VENDOR: return s("Advanced Micro Devices, Inc.");
  case CL_DRIVER_VERSION: return s("0.1.0 (amcl)");
  case CL_DEVICE_PROFILE: return s("FULL_PROFILE");
  case CL_DEVICE_VERSION: return s("OpenCL 3.0 amcl " + info.name);
  case CL_DEVICE_NUMERIC_VERSION: return u(CL_MAKE_VERSION(3, 0, 0));
  case CL_DEVICE_OPENCL_C_VERSION: return s("OpenCL C 1.2 ");
  case CL_DEVICE_OPENCL_C_ALL_VERSIONS: {
    std::vector<cl_name_version> v(opencl_c_versions().size());
    for (size_t i = 0; i < v.size(); ++i) {
      v[i].version = opencl_c_versions()[i];
      std::strcpy(v[i].name, "OpenCL C");
    }
    return write_info_vector(v, n, p, r);
  }
  case CL_DEVICE_OPENCL_C_FEATURES: return write_info_vector(with_versions(opencl_c_features()), n, p, r);
  case CL_DEVICE_OPENCL_C_NUMERIC_VERSION_KHR: return u(CL_MAKE_VERSION(1, 2, 0));
  case CL_DEVICE_EXTENSIONS: return s(joined_names(device_extensions()));
  case CL_DEVICE_EXTENSIONS_WITH_VERSION:
    return write_info_vector(with_versions(device_extensions()), n, p, r);
  case CL_DEVICE_ILS_WITH_VERSION:
    return il_versions().empty() ? write_info(nullptr, 0, n, p, r) : write_info_vector(il_versions(), n, p, r);
  case CL_DEVICE_IL_VERSION: {
    std::string names;
    for (const cl_name_version& v : il_versions())
      names += (names.empty() ? "" : " ") + std::string("SPIR-V_1.") +
               std::to_string(CL_VERSION_MINOR(v.version));
    return s(names);
  }
  case CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION: return write_info(nullptr, 0, n, p, r);
  case CL_DEVICE_BUILT_IN_KERNELS: return s("");
  case CL_DEVICE_PRINTF_BUFFER_SIZE: return sz(1 << 20);
  case CL_DEVICE_PREFERRED_INTEROP_USER_SYNC: return b(CL_TRUE);
  case CL_DEVICE_PARENT_DEVICE: return write_info(cl_device_id(nullptr), n, p, r);
  case CL_DEVICE_PARTITION_MAX_SUB_DEVICES: return u(0);
  // "If the device cannot be partitioned ... a value of 0 will be returned."
  case CL_DEVICE_PARTITION_PROPERTIES: return write_info(cl_device_partition_property(0), n, p, r);
  // A root device was not partitioned from anything: an empty list.
  case CL_DEVICE_PARTITION_TYPE: return write_info(nullptr, 0, n, p, r);
  case CL_DEVICE_PARTITION_AFFINITY_DOMAIN:
    return write_info(cl_device_affinity_domain(0), n, p, r);
  case CL_DEVICE_REFERENCE_COUNT: return u(1);
  case CL_DEVICE_SVM_CAPABILITIES: return write_info(kSvmCapabilities, n, p, r);
  case CL_DEVICE_PREFERRED_PLATFORM_ATOMIC_ALIGNMENT: case CL_DEVICE_PREFERRED_GLOBAL_ATOMIC_ALIGNMENT:
  case CL_DEVICE_PREFERRED_LOCAL_ATOMIC_ALIGNMENT:
    return u(0);
  case CL_DEVICE_MAX_PIPE_ARGS: case CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS:
  case CL_DEVICE_PIPE_MAX_PACKET_SIZE:
    return u(0);
  case CL_DEVICE_PIPE_SUPPORT: return b(CL_FALSE);
  case CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE: return sz(64 * 1024);
  case CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE: return sz(1 << 20);
  // Sub-groups are wave32 waves: 1024 work-items make at most 32. The SQ interleaves the
  // waves of a work-group (the emulator gives each a turn), so one spinning on another's store
  // does not starve it: independent forward progress, which cl_khr_subgroups requires.
  case CL_DEVICE_MAX_NUM_SUB_GROUPS: return u(1024 / 32);
  case CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS: return b(CL_TRUE);
  case CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES: case CL_DEVICE_ATOMIC_FENCE_CAPABILITIES:
    return write_info(cl_device_atomic_capabilities(
                          CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_ORDER_ACQ_REL |
                          CL_DEVICE_ATOMIC_ORDER_SEQ_CST | CL_DEVICE_ATOMIC_SCOPE_WORK_ITEM |
                          CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP | CL_DEVICE_ATOMIC_SCOPE_DEVICE),
                      n, p, r);
  case CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT: return b(CL_TRUE); // PARTIAL_TG_EN dispatches
  case CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT: return b(CL_FALSE);
  case CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT: return b(CL_TRUE);
  case CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES:
    return write_info(cl_device_device_enqueue_capabilities(0), n, p, r);
  case CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE: return sz(32);
  case CL_DEVICE_UUID_KHR: return write_info(device_uuid(info), n, p, r);
  case CL_DRIVER_UUID_KHR: return write_info(driver_uuid(), n, p, r);
  // LUIDs are a Windows notion: never valid here, and then LUID and node mask are undefined.
  case CL_DEVICE_LUID_VALID_KHR: return b(CL_FALSE);
  case CL_DEVICE_LUID_KHR: return write_info(std::array<cl_uchar, CL_LUID_SIZE_KHR>{}, n, p, r);
  case CL_DEVICE_NODE_MASK_KHR: return u(0);
  case CL_DEVICE_PCI_BUS_INFO_KHR: {
    auto bus = pci_bus_info(info.pci_address);
    if (!bus) return CL_INVALID_VALUE;
    return write_info(*bus, n, p, r);
  }
  case CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED: return s("v0000-01-01-00");
  default:
    return amd_device_info(d, param, n, p, r).value_or(CL_INVALID_VALUE);
  }
}

} // namespace amcl::rt
