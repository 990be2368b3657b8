// Platform, device, context and queue entry points through the ICD loader, after the CTS "api"
// suite: every query answers with a consistent size and value, misuse gets the OpenCL 3.0
// specification's error, and the features the devices do not have (pipes,
// system SVM, IL programs, native kernels, GL sharing) answer with the errors the specification gives
// for a device without them.
#include "cl_helpers.h"

#include <CL/cl_ext.h>
#include <CL/cl_gl.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <set>
#include <sstream>

using amcl_test::Env;
using amcl_test::device_info;
using amcl_test::device_list;
using amcl_test::device_string;
using amcl_test::platform_string;

namespace {

// How a query's value is shaped: a scalar of a known size, a string, or a list of any length.
enum class Shape { Scalar, String, List };
struct Query {
  cl_uint param;
  Shape shape;
  size_t size; // for scalars
  const char* name;
};
#define SCALAR(p, T)                                                                               \
  { p, Shape::Scalar, sizeof(T), #p }
#define STRING(p)                                                                                  \
  { p, Shape::String, 0, #p }
#define LIST(p)                                                                                    \
  { p, Shape::List, 0, #p }

// Asks `get` for the size, then the value, then again with one byte too few.
template <class Get> void check_query(const Query& q, Get get) {
  size_t size = 0;
  ASSERT_EQ(get(q.param, 0, nullptr, &size), CL_SUCCESS) << q.name;
  std::vector<char> value(size + 1, '\x7f');
  size_t again = 0;
  ASSERT_EQ(get(q.param, size, size ? value.data() : nullptr, &again), CL_SUCCESS) << q.name;
  EXPECT_EQ(again, size) << q.name;
  switch (q.shape) {
  case Shape::Scalar:
    EXPECT_EQ(size, q.size) << q.name;
    break;
  case Shape::String:
    ASSERT_GE(size, 1u) << q.name;
    EXPECT_EQ(value[size - 1], '\0') << q.name;
    EXPECT_EQ(std::strlen(value.data()) + 1, size) << q.name;
    break;
  case Shape::List:
    break;
  }
  EXPECT_EQ(value[size], '\x7f') << q.name << ": wrote past the size it reported";
  if (size > 0)
    EXPECT_EQ(get(q.param, size - 1, value.data(), nullptr), CL_INVALID_VALUE) << q.name;
}

} // namespace

TEST(Api, PlatformQueries) {
  Env env;
  ASSERT_NE(env.platform, nullptr);
  const Query queries[] = {STRING(CL_PLATFORM_PROFILE),
                           STRING(CL_PLATFORM_VERSION),
                           STRING(CL_PLATFORM_NAME),
                           STRING(CL_PLATFORM_VENDOR),
                           STRING(CL_PLATFORM_EXTENSIONS),
                           SCALAR(CL_PLATFORM_NUMERIC_VERSION, cl_version),
                           LIST(CL_PLATFORM_EXTENSIONS_WITH_VERSION),
                           SCALAR(CL_PLATFORM_HOST_TIMER_RESOLUTION, cl_ulong),
                           STRING(CL_PLATFORM_ICD_SUFFIX_KHR)};
  for (const Query& q : queries)
    check_query(q, [&](cl_uint p, size_t n, void* v, size_t* r) {
      return clGetPlatformInfo(env.platform, p, n, v, r);
    });
  char text[256];
  EXPECT_EQ(clGetPlatformInfo(env.platform, 0x7777, sizeof text, text, nullptr), CL_INVALID_VALUE);
  const std::string version = platform_string(env.platform, CL_PLATFORM_VERSION);
  EXPECT_EQ(std::strncmp(version.c_str(), "OpenCL 3.0 ", 11), 0) << version;
  cl_platform_id ids[4];
  cl_uint n = 0;
  EXPECT_EQ(clGetPlatformIDs(0, ids, &n), CL_INVALID_VALUE);
  EXPECT_EQ(clGetPlatformIDs(0, nullptr, nullptr), CL_INVALID_VALUE);
}

// Extension functions by name through the loader: known ones are found, unknown ones are
// NULL. (An exported entry point that bound to the loader's function of the same name made
// ocl-icd loop forever on an unknown name: the lookup runs on a thread the test can give up on.)
TEST(Api, ExtensionFunctionLookup) {
  cl_platform_id platform = amcl_test::amcl_platform();
  ASSERT_NE(platform, nullptr);
  struct Result {
    std::atomic<bool> done{false};
    void* unknown = reinterpret_cast<void*>(1);
    void* subgroups = nullptr;
    void* hook = nullptr;
  };
  auto* r = new Result; // leaked if the lookup never returns: the thread may still use it
  std::thread([platform, r] {
    r->unknown = clGetExtensionFunctionAddressForPlatform(platform, "clNoSuchFunctionAnywhere");
    r->subgroups = clGetExtensionFunctionAddressForPlatform(platform, "clGetKernelSubGroupInfoKHR");
    r->hook = clGetExtensionFunctionAddressForPlatform(platform, "clGetDeviceAllocationsAMCL");
    r->done = true;
  }).detach();
  ASSERT_TRUE(amcl_test::eventually([&] { return bool(r->done); }))
      << "clGetExtensionFunctionAddressForPlatform did not return";
  EXPECT_EQ(r->unknown, nullptr);
  EXPECT_NE(r->subgroups, nullptr);
  EXPECT_NE(r->hook, nullptr);
  delete r;
}

TEST(Api, DeviceQueriesAreCompleteAndConsistent) {
  Env env;
  ASSERT_NE(env.device, nullptr);
  const Query queries[] = {
      SCALAR(CL_DEVICE_TYPE, cl_device_type),
      SCALAR(CL_DEVICE_VENDOR_ID, cl_uint),
      SCALAR(CL_DEVICE_MAX_COMPUTE_UNITS, cl_uint),
      SCALAR(CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS, cl_uint),
      {CL_DEVICE_MAX_WORK_ITEM_SIZES, Shape::Scalar, 3 * sizeof(size_t),
       "CL_DEVICE_MAX_WORK_ITEM_SIZES"},
      SCALAR(CL_DEVICE_MAX_WORK_GROUP_SIZE, size_t),
      SCALAR(CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR, cl_uint),
      SCALAR(CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT, cl_uint),
      SCALAR(CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT, cl_uint),
      SCALAR(CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG, cl_uint),
      SCALAR(CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT, cl_uint),
      SCALAR(CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE, cl_uint),
      SCALAR(CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF, cl_uint),
      SCALAR(CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR, cl_uint),
      SCALAR(CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT, cl_uint),
      SCALAR(CL_DEVICE_NATIVE_VECTOR_WIDTH_INT, cl_uint),
      SCALAR(CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG, cl_uint),
      SCALAR(CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT, cl_uint),
      SCALAR(CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE, cl_uint),
      SCALAR(CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF, cl_uint),
      SCALAR(CL_DEVICE_MAX_CLOCK_FREQUENCY, cl_uint),
      SCALAR(CL_DEVICE_ADDRESS_BITS, cl_uint),
      SCALAR(CL_DEVICE_MAX_MEM_ALLOC_SIZE, cl_ulong),
      SCALAR(CL_DEVICE_IMAGE_SUPPORT, cl_bool),
      SCALAR(CL_DEVICE_MAX_READ_IMAGE_ARGS, cl_uint),
      SCALAR(CL_DEVICE_MAX_WRITE_IMAGE_ARGS, cl_uint),
      SCALAR(CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS, cl_uint),
      SCALAR(CL_DEVICE_IMAGE2D_MAX_WIDTH, size_t),
      SCALAR(CL_DEVICE_IMAGE2D_MAX_HEIGHT, size_t),
      SCALAR(CL_DEVICE_IMAGE3D_MAX_WIDTH, size_t),
      SCALAR(CL_DEVICE_IMAGE3D_MAX_HEIGHT, size_t),
      SCALAR(CL_DEVICE_IMAGE3D_MAX_DEPTH, size_t),
      SCALAR(CL_DEVICE_IMAGE_MAX_BUFFER_SIZE, size_t),
      SCALAR(CL_DEVICE_IMAGE_MAX_ARRAY_SIZE, size_t),
      SCALAR(CL_DEVICE_MAX_SAMPLERS, cl_uint),
      SCALAR(CL_DEVICE_IMAGE_PITCH_ALIGNMENT, cl_uint),
      SCALAR(CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT, cl_uint),
      SCALAR(CL_DEVICE_MAX_PIPE_ARGS, cl_uint),
      SCALAR(CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS, cl_uint),
      SCALAR(CL_DEVICE_PIPE_MAX_PACKET_SIZE, cl_uint),
      SCALAR(CL_DEVICE_MAX_PARAMETER_SIZE, size_t),
      SCALAR(CL_DEVICE_MEM_BASE_ADDR_ALIGN, cl_uint),
      SCALAR(CL_DEVICE_SINGLE_FP_CONFIG, cl_device_fp_config),
      SCALAR(CL_DEVICE_DOUBLE_FP_CONFIG, cl_device_fp_config),
      SCALAR(CL_DEVICE_HALF_FP_CONFIG, cl_device_fp_config),
      SCALAR(CL_DEVICE_GLOBAL_MEM_CACHE_TYPE, cl_device_mem_cache_type),
      SCALAR(CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE, cl_uint),
      SCALAR(CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, cl_ulong),
      SCALAR(CL_DEVICE_GLOBAL_MEM_SIZE, cl_ulong),
      SCALAR(CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE, cl_ulong),
      SCALAR(CL_DEVICE_MAX_CONSTANT_ARGS, cl_uint),
      SCALAR(CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE, size_t),
      SCALAR(CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE, size_t),
      SCALAR(CL_DEVICE_LOCAL_MEM_TYPE, cl_device_local_mem_type),
      SCALAR(CL_DEVICE_LOCAL_MEM_SIZE, cl_ulong),
      SCALAR(CL_DEVICE_ERROR_CORRECTION_SUPPORT, cl_bool),
      SCALAR(CL_DEVICE_PROFILING_TIMER_RESOLUTION, size_t),
      SCALAR(CL_DEVICE_ENDIAN_LITTLE, cl_bool),
      SCALAR(CL_DEVICE_AVAILABLE, cl_bool),
      SCALAR(CL_DEVICE_COMPILER_AVAILABLE, cl_bool),
      SCALAR(CL_DEVICE_LINKER_AVAILABLE, cl_bool),
      SCALAR(CL_DEVICE_EXECUTION_CAPABILITIES, cl_device_exec_capabilities),
      SCALAR(CL_DEVICE_QUEUE_ON_HOST_PROPERTIES, cl_command_queue_properties),
      SCALAR(CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES, cl_command_queue_properties),
      SCALAR(CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE, cl_uint),
      SCALAR(CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE, cl_uint),
      SCALAR(CL_DEVICE_MAX_ON_DEVICE_QUEUES, cl_uint),
      SCALAR(CL_DEVICE_MAX_ON_DEVICE_EVENTS, cl_uint),
      STRING(CL_DEVICE_BUILT_IN_KERNELS),
      LIST(CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION),
      SCALAR(CL_DEVICE_PLATFORM, cl_platform_id),
      STRING(CL_DEVICE_NAME),
      STRING(CL_DEVICE_VENDOR),
      STRING(CL_DRIVER_VERSION),
      STRING(CL_DEVICE_PROFILE),
      STRING(CL_DEVICE_VERSION),
      SCALAR(CL_DEVICE_NUMERIC_VERSION, cl_version),
      STRING(CL_DEVICE_OPENCL_C_VERSION),
      LIST(CL_DEVICE_OPENCL_C_ALL_VERSIONS),
      LIST(CL_DEVICE_OPENCL_C_FEATURES),
      STRING(CL_DEVICE_EXTENSIONS),
      LIST(CL_DEVICE_EXTENSIONS_WITH_VERSION),
      STRING(CL_DEVICE_IL_VERSION),
      LIST(CL_DEVICE_ILS_WITH_VERSION),
      SCALAR(CL_DEVICE_PRINTF_BUFFER_SIZE, size_t),
      SCALAR(CL_DEVICE_PREFERRED_INTEROP_USER_SYNC, cl_bool),
      SCALAR(CL_DEVICE_PARENT_DEVICE, cl_device_id),
      SCALAR(CL_DEVICE_PARTITION_MAX_SUB_DEVICES, cl_uint),
      LIST(CL_DEVICE_PARTITION_PROPERTIES),
      SCALAR(CL_DEVICE_PARTITION_AFFINITY_DOMAIN, cl_device_affinity_domain),
      LIST(CL_DEVICE_PARTITION_TYPE),
      SCALAR(CL_DEVICE_REFERENCE_COUNT, cl_uint),
      SCALAR(CL_DEVICE_SVM_CAPABILITIES, cl_device_svm_capabilities),
      SCALAR(CL_DEVICE_PREFERRED_PLATFORM_ATOMIC_ALIGNMENT, cl_uint),
      SCALAR(CL_DEVICE_PREFERRED_GLOBAL_ATOMIC_ALIGNMENT, cl_uint),
      SCALAR(CL_DEVICE_PREFERRED_LOCAL_ATOMIC_ALIGNMENT, cl_uint),
      SCALAR(CL_DEVICE_MAX_NUM_SUB_GROUPS, cl_uint),
      SCALAR(CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS, cl_bool),
      SCALAR(CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES, cl_device_atomic_capabilities),
      SCALAR(CL_DEVICE_ATOMIC_FENCE_CAPABILITIES, cl_device_atomic_capabilities),
      SCALAR(CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT, cl_bool),
      SCALAR(CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT, cl_bool),
      SCALAR(CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT, cl_bool),
      SCALAR(CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES, cl_device_device_enqueue_capabilities),
      SCALAR(CL_DEVICE_PIPE_SUPPORT, cl_bool),
      SCALAR(CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, size_t),
      STRING(CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED),
      // cl_khr_device_uuid, cl_khr_pci_bus_info
      {CL_DEVICE_UUID_KHR, Shape::Scalar, CL_UUID_SIZE_KHR, "CL_DEVICE_UUID_KHR"},
      {CL_DRIVER_UUID_KHR, Shape::Scalar, CL_UUID_SIZE_KHR, "CL_DRIVER_UUID_KHR"},
      SCALAR(CL_DEVICE_LUID_VALID_KHR, cl_bool),
      {CL_DEVICE_LUID_KHR, Shape::Scalar, CL_LUID_SIZE_KHR, "CL_DEVICE_LUID_KHR"},
      SCALAR(CL_DEVICE_NODE_MASK_KHR, cl_uint),
      SCALAR(CL_DEVICE_PCI_BUS_INFO_KHR, cl_device_pci_bus_info_khr),
  };
  for (const Query& q : queries)
    check_query(q, [&](cl_uint p, size_t n, void* v, size_t* r) {
      return clGetDeviceInfo(env.device, p, n, v, r);
    });
  cl_uint word;
  EXPECT_EQ(clGetDeviceInfo(env.device, 0x7777, sizeof word, &word, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clGetDeviceInfo(nullptr, CL_DEVICE_VENDOR_ID, sizeof word, &word, nullptr),
            CL_INVALID_DEVICE);

  // The values the issue and the specification pin.
  EXPECT_EQ(device_info<size_t>(env.device, CL_DEVICE_MAX_WORK_GROUP_SIZE), 1024u);
  EXPECT_EQ(device_info<cl_ulong>(env.device, CL_DEVICE_LOCAL_MEM_SIZE), 65536u);
  EXPECT_EQ(device_info<cl_uint>(env.device, CL_DEVICE_VENDOR_ID), 0x1002u);
  EXPECT_EQ(device_info<cl_device_type>(env.device, CL_DEVICE_TYPE),
            cl_device_type(CL_DEVICE_TYPE_GPU));
  EXPECT_EQ(device_info<cl_version>(env.device, CL_DEVICE_NUMERIC_VERSION),
            cl_version(CL_MAKE_VERSION(3, 0, 0)));
  EXPECT_GE(device_info<cl_ulong>(env.device, CL_DEVICE_MAX_MEM_ALLOC_SIZE),
            std::max<cl_ulong>(device_info<cl_ulong>(env.device, CL_DEVICE_GLOBAL_MEM_SIZE) / 4,
                               128u << 20));
  EXPECT_EQ(device_info<cl_platform_id>(env.device, CL_DEVICE_PLATFORM), env.platform);

  // The extension string and the versioned list name the same extensions; the required ones
  // are there, and cl_khr_3d_image_writes is too (3D images are writable).
  std::set<std::string> listed;
  std::istringstream words(device_string(env.device, CL_DEVICE_EXTENSIONS));
  for (std::string w; words >> w;) listed.insert(w);
  const auto versioned =
      device_list<cl_name_version>(env.device, CL_DEVICE_EXTENSIONS_WITH_VERSION);
  std::set<std::string> named;
  for (auto& v : versioned) named.insert(v.name);
  EXPECT_EQ(listed, named);
  for (const char* ext : {"cl_khr_fp64", "cl_khr_fp16", "cl_khr_global_int32_base_atomics",
                          "cl_khr_global_int32_extended_atomics", "cl_khr_local_int32_base_atomics",
                          "cl_khr_local_int32_extended_atomics", "cl_khr_int64_base_atomics",
                          "cl_khr_int64_extended_atomics", "cl_khr_byte_addressable_store",
                          "cl_khr_icd", "cl_khr_extended_versioning", "cl_khr_device_uuid",
                          "cl_khr_pci_bus_info", "cl_khr_subgroups"})
    EXPECT_TRUE(listed.count(ext)) << ext;
  EXPECT_TRUE(listed.count("cl_khr_3d_image_writes"));
  EXPECT_FALSE(listed.count("cl_khr_gl_sharing"));

  // UUIDs: version-8 layout, stable, and the device's differs from the driver's.
  auto uuid = device_info<std::array<cl_uchar, CL_UUID_SIZE_KHR>>(env.device, CL_DEVICE_UUID_KHR);
  auto driver =
      device_info<std::array<cl_uchar, CL_UUID_SIZE_KHR>>(env.device, CL_DRIVER_UUID_KHR);
  EXPECT_EQ(uuid,
            (device_info<std::array<cl_uchar, CL_UUID_SIZE_KHR>>(env.device, CL_DEVICE_UUID_KHR)));
  EXPECT_NE(uuid, driver);
  EXPECT_EQ(uuid[6] >> 4, 8);
  EXPECT_EQ(uuid[8] >> 6, 2);
  EXPECT_EQ(device_info<cl_bool>(env.device, CL_DEVICE_LUID_VALID_KHR), cl_bool(CL_FALSE));
  // The emulated card's PCI location: a virtual domain, bus = its index.
  auto bus = device_info<cl_device_pci_bus_info_khr>(env.device, CL_DEVICE_PCI_BUS_INFO_KHR);
  EXPECT_EQ(bus.pci_domain, 0xffffu);
  EXPECT_EQ(bus.pci_bus, 0u);
  EXPECT_EQ(bus.pci_device, 0u);
  EXPECT_EQ(bus.pci_function, 0u);
}

// cl_amd_device_attribute_query, as ROCm answers it for the same card (ROCm clr's ISA table:
// 2 SIMDs of 32 lanes per CU, 64 KiB of LDS in 32 banks; channels = bus width / 32) and as
// clinfo, OpenMM and hashcat read it; the topology is CL_DEVICE_PCI_BUS_INFO_KHR's location.
TEST(Api, AmdDeviceAttributesDescribeTheCard) {
  Env env;
  ASSERT_NE(env.device, nullptr);
  const std::string gfx = device_string(env.device, CL_DEVICE_NAME);
  std::set<std::string> listed;
  std::istringstream words(device_string(env.device, CL_DEVICE_EXTENSIONS));
  for (std::string w; words >> w;) listed.insert(w);
  ASSERT_TRUE(listed.count("cl_amd_device_attribute_query"));
  const bool rdna4 = gfx == "gfx1201";
  EXPECT_EQ(device_string(env.device, CL_DEVICE_BOARD_NAME_AMD)
                .rfind(rdna4 ? "AMD Radeon RX 9070 XT" : "AMD Radeon RX 7900 XTX", 0),
            0u);
  EXPECT_EQ(device_info<cl_uint>(env.device, CL_DEVICE_PCIE_ID_AMD), rdna4 ? 0x7550u : 0x744cu);
  EXPECT_EQ(device_info<cl_uint>(env.device, CL_DEVICE_GFXIP_MAJOR_AMD), rdna4 ? 12u : 11u);
  EXPECT_EQ(device_info<cl_uint>(env.device, CL_DEVICE_GFXIP_MINOR_AMD), 0u);
  EXPECT_EQ(device_info<cl_uint>(env.device, CL_DEVICE_GLOBAL_MEM_CHANNELS_AMD), rdna4 ? 8u : 12u);
  EXPECT_EQ(device_info<cl_uint>(env.device, CL_DEVICE_SIMD_PER_COMPUTE_UNIT_AMD), 2u);
  EXPECT_EQ(device_info<cl_uint>(env.device, CL_DEVICE_SIMD_WIDTH_AMD), 32u);
  EXPECT_EQ(device_info<cl_uint>(env.device, CL_DEVICE_SIMD_INSTRUCTION_WIDTH_AMD), 1u);
  EXPECT_EQ(device_info<cl_uint>(env.device, CL_DEVICE_WAVEFRONT_WIDTH_AMD), 32u);
  EXPECT_EQ(device_info<cl_uint>(env.device, CL_DEVICE_LOCAL_MEM_SIZE_PER_COMPUTE_UNIT_AMD),
            65536u);
  EXPECT_EQ(device_info<cl_uint>(env.device, CL_DEVICE_LOCAL_MEM_BANKS_AMD), 32u);
  EXPECT_EQ(device_info<cl_uint>(env.device, CL_DEVICE_GLOBAL_MEM_CHANNEL_BANKS_AMD), 4u);
  EXPECT_EQ(device_info<cl_uint>(env.device, CL_DEVICE_GLOBAL_MEM_CHANNEL_BANK_WIDTH_AMD), 256u);
  EXPECT_EQ(device_info<cl_bool>(env.device, CL_DEVICE_THREAD_TRACE_SUPPORTED_AMD),
            cl_bool(CL_FALSE));
  EXPECT_EQ(device_info<size_t>(env.device, CL_DEVICE_MAX_WORK_GROUP_SIZE_AMD), 1024u);
  EXPECT_EQ(device_info<cl_uint>(env.device, CL_DEVICE_AVAILABLE_ASYNC_QUEUES_AMD), 1u);
  const auto topo = device_info<cl_device_topology_amd>(env.device, CL_DEVICE_TOPOLOGY_AMD);
  const auto bus = device_info<cl_device_pci_bus_info_khr>(env.device, CL_DEVICE_PCI_BUS_INFO_KHR);
  EXPECT_EQ(topo.raw.type, cl_uint(CL_DEVICE_TOPOLOGY_TYPE_PCIE_AMD));
  EXPECT_EQ(cl_uint(topo.pcie.bus), bus.pci_bus);
  EXPECT_EQ(cl_uint(topo.pcie.device), bus.pci_device);
  EXPECT_EQ(cl_uint(topo.pcie.function), bus.pci_function);
  // Free VRAM in KiB, then the largest block: no more than the card has, and it shrinks by what
  // a buffer takes.
  size_t free_kib[2] = {};
  ASSERT_EQ(clGetDeviceInfo(env.device, CL_DEVICE_GLOBAL_FREE_MEMORY_AMD, sizeof free_kib, free_kib,
                            nullptr),
            CL_SUCCESS);
  EXPECT_GT(free_kib[1], 0u);
  EXPECT_LE(free_kib[1], free_kib[0]);
  EXPECT_LE(free_kib[0], device_info<cl_ulong>(env.device, CL_DEVICE_GLOBAL_MEM_SIZE) >> 10);
  cl_int err;
  cl_mem m = clCreateBuffer(env.context, CL_MEM_READ_WRITE, 64 << 20, nullptr, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  const cl_uint zero = 0;
  ASSERT_EQ(clEnqueueFillBuffer(env.queue, m, &zero, 4, 0, 64 << 20, 0, nullptr, nullptr),
            CL_SUCCESS);
  ASSERT_EQ(clFinish(env.queue), CL_SUCCESS);
  size_t after[2] = {};
  ASSERT_EQ(
      clGetDeviceInfo(env.device, CL_DEVICE_GLOBAL_FREE_MEMORY_AMD, sizeof after, after, nullptr),
      CL_SUCCESS);
  EXPECT_LE(after[0] + (64u << 10), free_kib[0]);
  clReleaseMemObject(m);
  // Profiling timestamps are nanoseconds of a clock whose zero lies this far after the epoch.
  const cl_ulong offset = device_info<cl_ulong>(env.device, CL_DEVICE_PROFILING_TIMER_OFFSET_AMD);
  const auto wall = std::chrono::duration_cast<std::chrono::nanoseconds>(
                        std::chrono::system_clock::now().time_since_epoch())
                        .count();
  cl_ulong device_now = 0, host_now = 0;
  ASSERT_EQ(clGetDeviceAndHostTimer(env.device, &device_now, &host_now), CL_SUCCESS);
  EXPECT_NEAR(double(offset + device_now), double(wall), 1e9);
}

TEST(Api, NoSubDevices) {
  Env env;
  ASSERT_NE(env.device, nullptr);
  EXPECT_EQ(device_info<cl_uint>(env.device, CL_DEVICE_PARTITION_MAX_SUB_DEVICES), 0u);
  EXPECT_EQ(device_info<cl_device_id>(env.device, CL_DEVICE_PARENT_DEVICE), nullptr);
  // "If the device cannot be partitioned, a value of 0 will be returned."
  size_t n = 0;
  ASSERT_EQ(clGetDeviceInfo(env.device, CL_DEVICE_PARTITION_PROPERTIES, 0, nullptr, &n),
            CL_SUCCESS);
  ASSERT_EQ(n, sizeof(cl_device_partition_property));
  EXPECT_EQ(device_info<cl_device_partition_property>(env.device, CL_DEVICE_PARTITION_PROPERTIES),
            0);
  cl_device_partition_property equally[] = {CL_DEVICE_PARTITION_EQUALLY, 1, 0};
  cl_device_partition_property by_counts[] = {CL_DEVICE_PARTITION_BY_COUNTS, 1,
                                              CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0};
  cl_device_partition_property affinity[] = {CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN,
                                             CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE, 0};
  cl_device_id out[4];
  cl_uint count = 99;
  for (auto* props : {equally, by_counts, affinity}) {
    EXPECT_EQ(clCreateSubDevices(env.device, props, 4, out, &count), CL_INVALID_VALUE);
    EXPECT_EQ(clCreateSubDevices(nullptr, props, 4, out, &count), CL_INVALID_DEVICE);
  }
  // Root devices are not reference counted, but retain and release succeed on them.
  EXPECT_EQ(clRetainDevice(env.device), CL_SUCCESS);
  EXPECT_EQ(clReleaseDevice(env.device), CL_SUCCESS);
  EXPECT_EQ(device_info<cl_uint>(env.device, CL_DEVICE_REFERENCE_COUNT), 1u);
  EXPECT_EQ(clRetainDevice(nullptr), CL_INVALID_DEVICE);
}

TEST(Api, ContextCreationAndQueries) {
  Env env;
  ASSERT_NE(env.device, nullptr);
  cl_int err;
  const cl_context_properties with_platform[] = {CL_CONTEXT_PLATFORM,
                                                 cl_context_properties(env.platform), 0};
  cl_context c = clCreateContext(with_platform, 1, &env.device, nullptr, nullptr, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  size_t n = 0;
  ASSERT_EQ(clGetContextInfo(c, CL_CONTEXT_PROPERTIES, 0, nullptr, &n), CL_SUCCESS);
  ASSERT_EQ(n, sizeof with_platform);
  std::vector<cl_context_properties> props(3);
  clGetContextInfo(c, CL_CONTEXT_PROPERTIES, n, props.data(), nullptr);
  EXPECT_EQ(props, std::vector<cl_context_properties>(with_platform, with_platform + 3));
  cl_uint count = 0;
  EXPECT_EQ(clGetContextInfo(c, CL_CONTEXT_NUM_DEVICES, sizeof count, &count, nullptr), CL_SUCCESS);
  EXPECT_EQ(count, 1u);
  cl_device_id d = nullptr;
  EXPECT_EQ(clGetContextInfo(c, CL_CONTEXT_DEVICES, sizeof d, &d, nullptr), CL_SUCCESS);
  EXPECT_EQ(d, env.device);
  cl_uint refs = 0;
  EXPECT_EQ(clRetainContext(c), CL_SUCCESS);
  EXPECT_EQ(clGetContextInfo(c, CL_CONTEXT_REFERENCE_COUNT, sizeof refs, &refs, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(refs, 2u);
  EXPECT_EQ(clReleaseContext(c), CL_SUCCESS);
  EXPECT_EQ(clGetContextInfo(c, 0x7777, sizeof refs, &refs, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clReleaseContext(c), CL_SUCCESS);
  // Without properties the property list is empty.
  c = clCreateContext(nullptr, 1, &env.device, nullptr, nullptr, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  ASSERT_EQ(clGetContextInfo(c, CL_CONTEXT_PROPERTIES, 0, nullptr, &n), CL_SUCCESS);
  EXPECT_EQ(n, 0u);
  clReleaseContext(c);

  auto context_error = [&](const cl_context_properties* p, cl_uint num, const cl_device_id* devs,
                           void(CL_CALLBACK * fn)(const char*, const void*, size_t, void*) =
                               nullptr,
                           void* data = nullptr) {
    cl_int e = 1;
    cl_context x = clCreateContext(p, num, devs, fn, data, &e);
    if (x) clReleaseContext(x);
    return e;
  };
  const cl_context_properties bad_platform[] = {CL_CONTEXT_PLATFORM, cl_context_properties(0x1234),
                                                0};
  const cl_context_properties unknown[] = {0x7777, 1, 0};
  const cl_context_properties twice[] = {CL_CONTEXT_PLATFORM, cl_context_properties(env.platform),
                                         CL_CONTEXT_PLATFORM, cl_context_properties(env.platform),
                                         0};
  EXPECT_EQ(context_error(bad_platform, 1, &env.device), CL_INVALID_PLATFORM);
  EXPECT_EQ(context_error(unknown, 1, &env.device), CL_INVALID_PROPERTY);
  EXPECT_EQ(context_error(twice, 1, &env.device), CL_INVALID_PROPERTY);
  EXPECT_EQ(context_error(nullptr, 0, &env.device), CL_INVALID_VALUE);
  EXPECT_EQ(context_error(nullptr, 1, nullptr), CL_INVALID_VALUE);
  cl_device_id bad = nullptr;
  EXPECT_EQ(context_error(nullptr, 1, &bad), CL_INVALID_DEVICE);
  int data = 0;
  EXPECT_EQ(context_error(nullptr, 1, &env.device, nullptr, &data),
            CL_INVALID_VALUE); // user data, no callback

  // From a type.
  c = clCreateContextFromType(with_platform, CL_DEVICE_TYPE_GPU, nullptr, nullptr, &err);
  EXPECT_EQ(err, CL_SUCCESS);
  if (c) clReleaseContext(c);
  c = clCreateContextFromType(with_platform, CL_DEVICE_TYPE_DEFAULT, nullptr, nullptr, &err);
  EXPECT_EQ(err, CL_SUCCESS);
  if (c) clReleaseContext(c);
  EXPECT_EQ(clCreateContextFromType(with_platform, CL_DEVICE_TYPE_CPU, nullptr, nullptr, &err),
            nullptr);
  EXPECT_EQ(err, CL_DEVICE_NOT_FOUND);
  EXPECT_EQ(clCreateContextFromType(with_platform, cl_device_type(1) << 40, nullptr, nullptr, &err),
            nullptr);
  EXPECT_EQ(err, CL_INVALID_DEVICE_TYPE);
}

TEST(Api, CommandQueueCreationAndQueries) {
  Env env;
  ASSERT_NE(env.queue, nullptr);
  cl_command_queue_properties supported =
      device_info<cl_command_queue_properties>(env.device, CL_DEVICE_QUEUE_ON_HOST_PROPERTIES);
  EXPECT_TRUE(supported & CL_QUEUE_PROFILING_ENABLE);
  cl_int err;
  const cl_queue_properties profiling[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
  cl_command_queue q = clCreateCommandQueueWithProperties(env.context, env.device, profiling, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  cl_command_queue_properties props = 0;
  EXPECT_EQ(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof props, &props, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(props, cl_command_queue_properties(CL_QUEUE_PROFILING_ENABLE));
  size_t n = 0;
  EXPECT_EQ(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES_ARRAY, 0, nullptr, &n), CL_SUCCESS);
  EXPECT_EQ(n, sizeof profiling);
  cl_context c = nullptr;
  cl_device_id d = nullptr;
  EXPECT_EQ(clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof c, &c, nullptr), CL_SUCCESS);
  EXPECT_EQ(clGetCommandQueueInfo(q, CL_QUEUE_DEVICE, sizeof d, &d, nullptr), CL_SUCCESS);
  EXPECT_EQ(c, env.context);
  EXPECT_EQ(d, env.device);
  cl_uint size = 0;
  EXPECT_EQ(clGetCommandQueueInfo(q, CL_QUEUE_SIZE, sizeof size, &size, nullptr),
            CL_INVALID_COMMAND_QUEUE)
      << "CL_QUEUE_SIZE is for device queues";
  cl_command_queue device_default = env.queue;
  EXPECT_EQ(clGetCommandQueueInfo(q, CL_QUEUE_DEVICE_DEFAULT, sizeof device_default,
                                  &device_default, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(device_default, nullptr);
  // clSetCommandQueueProperty (OpenCL 1.0) switches what the device supports.
  cl_command_queue_properties old = 0;
  EXPECT_EQ(clSetCommandQueueProperty(q, CL_QUEUE_PROFILING_ENABLE, CL_FALSE, &old), CL_SUCCESS);
  EXPECT_EQ(old, cl_command_queue_properties(CL_QUEUE_PROFILING_ENABLE));
  clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof props, &props, nullptr);
  EXPECT_EQ(props, 0u);
  EXPECT_EQ(clSetCommandQueueProperty(q, cl_command_queue_properties(1) << 30, CL_TRUE, &old),
            CL_INVALID_VALUE);
  EXPECT_EQ(clSetCommandQueueProperty(q, CL_QUEUE_ON_DEVICE, CL_TRUE, &old),
            CL_INVALID_QUEUE_PROPERTIES);
  EXPECT_EQ(clSetCommandQueueProperty(nullptr, CL_QUEUE_PROFILING_ENABLE, CL_TRUE, &old),
            CL_INVALID_COMMAND_QUEUE);
  clReleaseCommandQueue(q);

  auto queue_error = [&](const cl_queue_properties* p, cl_context ctx, cl_device_id dev) {
    cl_int e = 1;
    cl_command_queue x = clCreateCommandQueueWithProperties(ctx, dev, p, &e);
    if (x) clReleaseCommandQueue(x);
    return e;
  };
  const cl_queue_properties unknown_bits[] = {CL_QUEUE_PROPERTIES, cl_queue_properties(1) << 30, 0};
  const cl_queue_properties on_device[] = {
      CL_QUEUE_PROPERTIES, CL_QUEUE_ON_DEVICE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
  const cl_queue_properties unknown_name[] = {0x7777, 0, 0};
  EXPECT_EQ(queue_error(unknown_bits, env.context, env.device), CL_INVALID_VALUE);
  EXPECT_EQ(queue_error(on_device, env.context, env.device), CL_INVALID_QUEUE_PROPERTIES);
  EXPECT_EQ(queue_error(unknown_name, env.context, env.device), CL_INVALID_VALUE);
  EXPECT_EQ(queue_error(nullptr, nullptr, env.device), CL_INVALID_CONTEXT);
  EXPECT_EQ(queue_error(nullptr, env.context, nullptr), CL_INVALID_DEVICE);
  // Out-of-order execution: created exactly when the device reports it.
  const cl_queue_properties ooo[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE,
                                     0};
  EXPECT_EQ(queue_error(ooo, env.context, env.device),
            (supported & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) ? CL_SUCCESS
                                                                 : CL_INVALID_QUEUE_PROPERTIES);
  // The OpenCL 1.x entry point.
  q = clCreateCommandQueue(env.context, env.device, CL_QUEUE_PROFILING_ENABLE, &err);
  EXPECT_EQ(err, CL_SUCCESS);
  clReleaseCommandQueue(q);
  EXPECT_EQ(
      clCreateCommandQueue(env.context, env.device, cl_command_queue_properties(1) << 30, &err),
      nullptr);
  EXPECT_EQ(err, CL_INVALID_VALUE);
}

// Features the devices do not have: the specification's error for each entry point, after the
// checks of the objects they are given.
TEST(Api, UnsupportedFeaturesAnswerWithTheSpecsErrors) {
  Env env;
  ASSERT_NE(env.queue, nullptr);
  EXPECT_EQ(device_info<cl_bool>(env.device, CL_DEVICE_PIPE_SUPPORT), cl_bool(CL_FALSE));
  EXPECT_EQ(
      device_info<cl_device_exec_capabilities>(env.device, CL_DEVICE_EXECUTION_CAPABILITIES) &
          CL_EXEC_NATIVE_KERNEL,
      0u);
  cl_mem buffer = env.buffer(64);
  cl_kernel kernel = env.kernel("__kernel void k(__global int* p) { p[0] = 1; }", "k");
  ASSERT_NE(kernel, nullptr);
  cl_program program = nullptr;
  clGetKernelInfo(kernel, CL_KERNEL_PROGRAM, sizeof program, &program, nullptr);
  cl_command_queue bad_queue = nullptr;
  cl_int err = 1;

  // Images and samplers are offered now: tests/system/image_api_test.cpp and sampler_test.cpp
  // check their entry points and errors.
  size_t value = 0;

  // Pipes.
  EXPECT_EQ(clCreatePipe(env.context, CL_MEM_READ_WRITE, 4, 16, nullptr, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_OPERATION);
  EXPECT_EQ(clGetPipeInfo(buffer, CL_PIPE_PACKET_SIZE, sizeof value, &value, nullptr),
            CL_INVALID_MEM_OBJECT);

  // Shared virtual memory is offered now (conformance/svm_test.cpp); what stays refused here is
  // system SVM, and the handle checks come first.
  int host[4] = {};
  EXPECT_EQ(clEnqueueSVMMemcpy(bad_queue, CL_TRUE, host, host + 2, 8, 0, nullptr, nullptr),
            CL_INVALID_COMMAND_QUEUE);
  EXPECT_EQ(clSetKernelArgSVMPointer(kernel, 0, host), CL_INVALID_ARG_VALUE) << "not SVM";
  EXPECT_EQ(clSetKernelArgSVMPointer(nullptr, 0, host), CL_INVALID_KERNEL);
  cl_bool fine_grain = CL_TRUE;
  EXPECT_EQ(clSetKernelExecInfo(kernel, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM,
                                sizeof fine_grain, &fine_grain),
            CL_INVALID_OPERATION);
  EXPECT_EQ(clSetKernelExecInfo(kernel, 0x7777, sizeof fine_grain, &fine_grain), CL_INVALID_VALUE);

  // Intermediate-language programs are offered now (tests/system/spirv_program_test.cpp
  // checks them): what stays refused here is a module that is only a magic number, a null
  // context, and specialization constants of a program not made from IL.
  const uint32_t spirv_magic = 0x07230203;
  EXPECT_EQ(clCreateProgramWithIL(env.context, &spirv_magic, sizeof spirv_magic, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_VALUE);
  EXPECT_EQ(clCreateProgramWithIL(nullptr, &spirv_magic, sizeof spirv_magic, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_CONTEXT);
  cl_uint constant = 1;
  EXPECT_EQ(clSetProgramSpecializationConstant(program, 0, sizeof constant, &constant),
            CL_INVALID_PROGRAM);
  EXPECT_EQ(clSetProgramSpecializationConstant(nullptr, 0, sizeof constant, &constant),
            CL_INVALID_PROGRAM);

  // Native kernels.
  auto native = [](void*) {};
  EXPECT_EQ(clEnqueueNativeKernel(env.queue, native, nullptr, 0, 0, nullptr, nullptr, 0, nullptr,
                                  nullptr),
            CL_INVALID_OPERATION);
  EXPECT_EQ(clEnqueueNativeKernel(bad_queue, native, nullptr, 0, 0, nullptr, nullptr, 0, nullptr,
                                  nullptr),
            CL_INVALID_COMMAND_QUEUE);

  // Nothing of the above left a command behind or broke the queue.
  EXPECT_EQ(clFinish(env.queue), CL_SUCCESS);
  clReleaseKernel(kernel);
  clReleaseMemObject(buffer);
}

// Releasing every object gives back all the device memory they used: the driver's count of
// live allocations (amcl's debugging hook) returns to where it was, whatever the objects did
// (kernels with scratch and printf, maps, sub-buffers, host-pointer buffers, profiling and
// out-of-order queues), even when they are released while their commands still run. The
// scenario runs twice and the second run must end where the first did: what a device keeps
// for its lifetime once used (its 4 MiB staging buffer for creating buffers from host memory)
// is allocated by the first.
namespace {
void use_and_release_everything(cl_device_id device) {
  cl_int err;
  cl_context context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
  const cl_queue_properties profiling[] = {
      CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
  cl_command_queue q1 = clCreateCommandQueueWithProperties(context, device, nullptr, &err);
  cl_command_queue q2 = clCreateCommandQueueWithProperties(context, device, profiling, &err);
  const char* src = R"CL(
__kernel void work(__global uint* p, uint n) {
  uint scratch[300]; // private memory the compiler cannot keep in registers
  size_t i = get_global_id(0);
  for (uint k = 0; k < 300; ++k) scratch[k] = (uint)i * k + n;
  p[i] = scratch[(i * 7 + n) % 300];
  if (i == 0) printf("work %u\n", n);
}
)CL";
  cl_program program = clCreateProgramWithSource(context, 1, &src, nullptr, &err);
  ASSERT_EQ(clBuildProgram(program, 1, &device, "", nullptr, nullptr), CL_SUCCESS);
  cl_kernel kernel = clCreateKernel(program, "work", &err);
  cl_kernel clone = clCloneKernel(kernel, &err);
  std::vector<cl_uint> host(4096, 1);
  cl_mem plain = clCreateBuffer(context, CL_MEM_READ_WRITE, 1 << 20, nullptr, &err);
  cl_mem used = clCreateBuffer(context, CL_MEM_USE_HOST_PTR, host.size() * 4, host.data(), &err);
  cl_mem copied = clCreateBuffer(context, CL_MEM_COPY_HOST_PTR | CL_MEM_ALLOC_HOST_PTR,
                                 host.size() * 4, host.data(), &err);
  cl_buffer_region region{4096, 4096};
  cl_mem sub = clCreateSubBuffer(plain, 0, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  cl_uint n = 3;
  size_t global = 1024;
  std::vector<cl_event> events;
  for (cl_command_queue q : {q1, q2})
    for (cl_mem m : {plain, used, sub}) {
      cl_kernel k = q == q1 ? kernel : clone;
      clSetKernelArg(k, 0, sizeof m, &m);
      clSetKernelArg(k, 1, sizeof n, &n);
      cl_event e;
      ASSERT_EQ(clEnqueueNDRangeKernel(q, k, 1, nullptr, &global, nullptr, 0, nullptr, &e),
                CL_SUCCESS);
      events.push_back(e);
    }
  ASSERT_EQ(clEnqueueCopyBuffer(q1, copied, plain, 0, 0, host.size() * 4, 0, nullptr, nullptr),
            CL_SUCCESS);
  void* mapped = clEnqueueMapBuffer(q1, copied, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, 4096, 0,
                                    nullptr, nullptr, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  ASSERT_EQ(clEnqueueUnmapMemObject(q1, copied, mapped, 0, nullptr, nullptr), CL_SUCCESS);
  cl_uint pattern = 9;
  ASSERT_EQ(clEnqueueFillBuffer(q2, plain, &pattern, 4, 0, 1 << 20, 0, nullptr, nullptr),
            CL_SUCCESS);
  cl_event user = clCreateUserEvent(context, &err);
  ASSERT_EQ(clEnqueueMarkerWithWaitList(q1, 1, &user, nullptr), CL_SUCCESS);
  ASSERT_EQ(clFinish(q2), CL_SUCCESS);

  // Release everything while the marker still waits for the user event.
  for (cl_event e : events) clReleaseEvent(e);
  for (cl_mem m : {sub, plain, used, copied}) clReleaseMemObject(m);
  clReleaseKernel(clone);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
  clReleaseCommandQueue(q1);
  clReleaseCommandQueue(q2);
  clReleaseContext(context);
  clSetUserEventStatus(user, CL_COMPLETE);
  clReleaseEvent(user);
}
} // namespace

TEST(Api, ReleasingEverythingFreesAllDeviceMemory) {
  cl_platform_id platform = amcl_test::amcl_platform();
  ASSERT_NE(platform, nullptr);
  auto allocations = amcl_test::device_allocations_hook(platform);
  ASSERT_NE(allocations, nullptr);
  cl_device_id device;
  ASSERT_EQ(clGetDeviceIDs(platform, CL_DEVICE_TYPE_GPU, 1, &device, nullptr), CL_SUCCESS);
  cl_ulong count0 = 0, bytes0 = 0;
  EXPECT_EQ(allocations(nullptr, &count0, &bytes0), CL_INVALID_DEVICE);
  // Settled: the count once nothing changes it for a while (the last releases happen on
  // amcl's threads after the last command completes).
  auto settled = [&](cl_ulong& count, cl_ulong& bytes) {
    cl_ulong c = 0, b = 0;
    allocations(device, &count, &bytes);
    for (int same = 0, i = 0; same < 20 && i < 2000; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
      allocations(device, &c, &b);
      same = (c == count && b == bytes) ? same + 1 : 0;
      count = c;
      bytes = b;
    }
  };
  use_and_release_everything(device);
  settled(count0, bytes0);
  for (int round = 0; round < 2; ++round) {
    use_and_release_everything(device);
    cl_ulong count = 0, bytes = 0;
    settled(count, bytes);
    EXPECT_EQ(count, count0) << "device allocations left behind, round " << round;
    EXPECT_EQ(bytes, bytes0);
  }
}

// The CTS api suite's negative_get_device_ids and negative_create_context(_from_type): no
// device type bit is not a type; CL_CONTEXT_INTEROP_USER_SYNC takes a cl_bool; and
// clCreateContextFromType checks its arguments before it looks for devices.
TEST(Api, DeviceTypeAndContextPropertyErrors) {
  cl_platform_id platform = amcl_test::amcl_platform();
  ASSERT_NE(platform, nullptr);
  cl_device_id device = nullptr;
  cl_uint n = 0;
  EXPECT_EQ(clGetDeviceIDs(platform, 0, 1, &device, nullptr), CL_INVALID_DEVICE_TYPE);
  EXPECT_EQ(clGetDeviceIDs(platform, CL_DEVICE_TYPE_CPU, 1, &device, &n), CL_DEVICE_NOT_FOUND);
  ASSERT_EQ(clGetDeviceIDs(platform, CL_DEVICE_TYPE_GPU, 1, &device, nullptr), CL_SUCCESS);
  cl_int err = CL_SUCCESS;
  EXPECT_EQ(clCreateContextFromType(
                std::vector<cl_context_properties>{
                    CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(platform), 0}
                    .data(),
                0, nullptr, nullptr, &err),
            nullptr);
  EXPECT_EQ(err, CL_INVALID_DEVICE_TYPE);

  // The ICD loader finds the platform of clCreateContextFromType in its properties.
  const auto pf = reinterpret_cast<cl_context_properties>(platform);
  const cl_context_properties bad_sync[] = {CL_CONTEXT_PLATFORM, pf, CL_CONTEXT_INTEROP_USER_SYNC,
                                            -1, 0};
  EXPECT_EQ(clCreateContext(bad_sync, 1, &device, nullptr, nullptr, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_PROPERTY);
  EXPECT_EQ(clCreateContextFromType(bad_sync, CL_DEVICE_TYPE_GPU, nullptr, nullptr, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_PROPERTY);
  // Bad arguments are reported as such even for a type no device has.
  EXPECT_EQ(clCreateContextFromType(bad_sync, CL_DEVICE_TYPE_CPU, nullptr, nullptr, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_PROPERTY);
  int user_data = 1;
  const cl_context_properties only_platform[] = {CL_CONTEXT_PLATFORM, pf, 0};
  EXPECT_EQ(clCreateContextFromType(only_platform, CL_DEVICE_TYPE_GPU, nullptr, &user_data, &err),
            nullptr);
  EXPECT_EQ(err, CL_INVALID_VALUE);
  const cl_context_properties twice[] = {CL_CONTEXT_PLATFORM,
                                         pf,
                                         CL_CONTEXT_INTEROP_USER_SYNC,
                                         CL_FALSE,
                                         CL_CONTEXT_INTEROP_USER_SYNC,
                                         CL_FALSE,
                                         0};
  EXPECT_EQ(clCreateContextFromType(twice, CL_DEVICE_TYPE_GPU, nullptr, nullptr, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_PROPERTY);
  for (cl_context_properties v :
       {cl_context_properties(CL_TRUE), cl_context_properties(CL_FALSE)}) {
    const cl_context_properties ok[] = {CL_CONTEXT_PLATFORM, pf, CL_CONTEXT_INTEROP_USER_SYNC, v,
                                        0};
    cl_context c = clCreateContextFromType(ok, CL_DEVICE_TYPE_GPU, nullptr, nullptr, &err);
    EXPECT_EQ(err, CL_SUCCESS);
    if (c) clReleaseContext(c);
  }
}

// CL_KERNEL_ATTRIBUTES quotes the declaration's attributes for a program built from source
// (the CTS api suite's kernel_attributes), and is empty for one made from a binary.
TEST(Api, KernelAttributesQuoteTheSource) {
  Env env;
  ASSERT_TRUE(env.queue);
  const char* src =
      "__kernel __attribute__((vec_type_hint(ushort3))) "
      "__attribute__((reqd_work_group_size(4,2,1)))"
      " __attribute__((work_group_size_hint(8,1,1))) void k(__global int* p) { p[0] = 1; }\n"
      "__kernel void plain(__global int* p) { p[0] = 2; }";
  cl_program p = env.program(src);
  ASSERT_TRUE(p);
  auto attributes = [](cl_program prog, const char* name) {
    cl_kernel k = clCreateKernel(prog, name, nullptr);
    size_t size = 0;
    EXPECT_EQ(clGetKernelInfo(k, CL_KERNEL_ATTRIBUTES, 0, nullptr, &size), CL_SUCCESS);
    std::string s(size, '\0');
    EXPECT_EQ(clGetKernelInfo(k, CL_KERNEL_ATTRIBUTES, size, s.data(), nullptr), CL_SUCCESS);
    clReleaseKernel(k);
    return std::string(s.c_str());
  };
  const std::string a = attributes(p, "k");
  for (const char* expected :
       {"vec_type_hint(ushort3)", "reqd_work_group_size(4,2,1)", "work_group_size_hint(8,1,1)"})
    EXPECT_NE(a.find(expected), std::string::npos) << a;
  EXPECT_EQ(attributes(p, "plain"), "");
  size_t size = 0;
  clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, nullptr);
  std::vector<unsigned char> bin(size);
  unsigned char* ptr = bin.data();
  clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof ptr, &ptr, nullptr);
  const unsigned char* cptr = bin.data();
  cl_program from_binary =
      clCreateProgramWithBinary(env.context, 1, &env.device, &size, &cptr, nullptr, nullptr);
  ASSERT_EQ(clBuildProgram(from_binary, 1, &env.device, "", nullptr, nullptr), CL_SUCCESS);
  EXPECT_EQ(attributes(from_binary, "k"), "");
  clReleaseProgram(from_binary);
  clReleaseProgram(p);
}

// OpenCL 3.0 clSetKernelArg: an image created CL_MEM_READ_ONLY cannot be a write_only argument
// nor one created CL_MEM_WRITE_ONLY a read_only one (the CTS api suite's
// negative_set_read_write_image_arg); a read-write image fits either.
TEST(Api, ImageArgumentsMatchTheirAccessQualifier) {
  Env env;
  ASSERT_TRUE(env.queue);
  cl_program p = env.program(
      "__kernel void writes(__write_only image2d_t img) {\n"
      "  write_imageui(img, (int2)(0, 0), (uint4)(1));\n"
      "}\n"
      "__kernel void reads(__read_only image2d_t img, __global uint4* out) {\n"
      "  out[0] = read_imageui(img, (int2)(0, 0));\n"
      "}\n");
  ASSERT_TRUE(p);
  cl_kernel writes = clCreateKernel(p, "writes", nullptr);
  cl_kernel reads = clCreateKernel(p, "reads", nullptr);
  ASSERT_TRUE(writes && reads);
  const cl_image_format format{CL_RGBA, CL_UNSIGNED_INT8};
  cl_image_desc desc{};
  desc.image_type = CL_MEM_OBJECT_IMAGE2D;
  desc.image_width = desc.image_height = 8;
  auto image = [&](cl_mem_flags flags) {
    cl_int err = CL_SUCCESS;
    cl_mem m = clCreateImage(env.context, flags, &format, &desc, nullptr, &err);
    EXPECT_EQ(err, CL_SUCCESS);
    return m;
  };
  cl_mem read_only = image(CL_MEM_READ_ONLY), write_only = image(CL_MEM_WRITE_ONLY),
         read_write = image(CL_MEM_READ_WRITE);
  EXPECT_EQ(clSetKernelArg(writes, 0, sizeof read_only, &read_only), CL_INVALID_ARG_VALUE);
  EXPECT_EQ(clSetKernelArg(reads, 0, sizeof write_only, &write_only), CL_INVALID_ARG_VALUE);
  EXPECT_EQ(clSetKernelArg(writes, 0, sizeof write_only, &write_only), CL_SUCCESS);
  EXPECT_EQ(clSetKernelArg(reads, 0, sizeof read_only, &read_only), CL_SUCCESS);
  EXPECT_EQ(clSetKernelArg(writes, 0, sizeof read_write, &read_write), CL_SUCCESS);
  EXPECT_EQ(clSetKernelArg(reads, 0, sizeof read_write, &read_write), CL_SUCCESS);
  for (cl_mem m : {read_only, write_only, read_write}) clReleaseMemObject(m);
  clReleaseKernel(writes);
  clReleaseKernel(reads);
  clReleaseProgram(p);
}
