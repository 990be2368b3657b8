// OpenCL C versions and the macros a program sees (OpenCL 3.0 §5.8.6.5 and the OpenCL C
// specification's "Features" and "Predefined macros"): every version the device lists builds
// and reports itself in __OPENCL_C_VERSION__; one it does not list fails the build with a log;
// feature and extension macros are defined exactly when the device reports them.
#include "cl_helpers.h"

#include <set>

using amcl_test::Env;
using amcl_test::device_list;
using amcl_test::device_string;

namespace {

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < s.size()) {
    size_t j = s.find(' ', i);
    if (j == std::string::npos) j = s.size();
    if (j > i) out.push_back(s.substr(i, j - i));
    i = j + 1;
  }
  return out;
}

// The OpenCL C 3.0 optional features (OpenCL C specification, "Features").
const char* kAllFeatures[] = {"__opencl_c_3d_image_writes",
                              "__opencl_c_atomic_order_acq_rel",
                              "__opencl_c_atomic_order_seq_cst",
                              "__opencl_c_atomic_scope_device",
                              "__opencl_c_atomic_scope_all_devices",
                              "__opencl_c_device_enqueue",
                              "__opencl_c_generic_address_space",
                              "__opencl_c_fp64",
                              "__opencl_c_images",
                              "__opencl_c_int64",
                              "__opencl_c_pipes",
                              "__opencl_c_program_scope_global_variables",
                              "__opencl_c_read_write_images",
                              "__opencl_c_subgroups",
                              "__opencl_c_work_group_collective_functions",
                              "__opencl_c_integer_dot_product_input_4x8bit",
                              "__opencl_c_integer_dot_product_input_4x8bit_packed"};

// Extensions whose macros a device that does not report them must not define.
const char* kSomeExtensions[] = {"cl_khr_fp64",
                                 "cl_khr_fp16",
                                 "cl_khr_subgroups",
                                 "cl_khr_3d_image_writes",
                                 "cl_khr_depth_images",
                                 "cl_khr_int64_base_atomics",
                                 "cl_khr_global_int32_base_atomics",
                                 "cl_khr_local_int32_base_atomics",
                                 "cl_khr_byte_addressable_store",
                                 "cl_khr_mipmap_image"};

// Extensions that only add API entry points or queries: OpenCL C has no macro for them.
const std::set<std::string> kApiOnly = {"cl_khr_icd",
                                        "cl_khr_extended_versioning",
                                        "cl_khr_device_uuid",
                                        "cl_khr_pci_bus_info",
                                        "cl_khr_image2d_from_buffer",
                                        "cl_khr_il_program",
                                        "cl_khr_spir",
                                        "cl_khr_create_command_queue",
                                        "cl_khr_command_buffer",
                                        "cl_amd_device_attribute_query"};

std::string expect_macro(const std::string& name, bool defined) {
  return std::string(defined ? "#ifndef " : "#ifdef ") + name + "\n#error " + name +
         (defined ? " should be defined" : " should not be defined") + "\n#endif\n";
}

} // namespace

TEST(LanguageVersions, EveryListedVersionBuildsAndNamesItself) {
  Env env;
  ASSERT_TRUE(env.queue);
  size_t n = 0;
  ASSERT_EQ(clGetDeviceInfo(env.device, CL_DEVICE_OPENCL_C_ALL_VERSIONS, 0, nullptr, &n),
            CL_SUCCESS);
  std::vector<cl_name_version> versions(n / sizeof(cl_name_version));
  clGetDeviceInfo(env.device, CL_DEVICE_OPENCL_C_ALL_VERSIONS, n, versions.data(), nullptr);
  size_t tested = 0;
  for (const auto& v : versions) {
    const unsigned major = CL_VERSION_MAJOR(v.version), minor = CL_VERSION_MINOR(v.version);
    if (major == 1 && minor == 0) continue; // there is no -cl-std=CL1.0
    const std::string options = "-cl-std=CL" + std::to_string(major) + "." + std::to_string(minor);
    std::string log;
    cl_program p = nullptr;
    // __OPENCL_VERSION__ is the device's OpenCL version whatever the language version (the
    // CTS's basic kernel_preprocessor_macros); clang leaves it to the implementation.
    ASSERT_EQ(env.try_build("kernel void v(global int* o) {\n"
                            "  o[0] = __OPENCL_C_VERSION__;\n"
                            "#ifdef __OPENCL_VERSION__\n"
                            "  o[1] = __OPENCL_VERSION__;\n"
                            "#else\n"
                            "  o[1] = -1;\n"
                            "#endif\n"
                            "}",
                            options, &log, &p),
              CL_SUCCESS)
        << options << ": " << log;
    cl_kernel k = clCreateKernel(p, "v", nullptr);
    cl_mem m = env.buffer(2 * sizeof(int));
    clSetKernelArg(k, 0, sizeof m, &m);
    size_t one = 1;
    ASSERT_EQ(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, &one, nullptr, 0, nullptr, nullptr),
              CL_SUCCESS);
    int value[2] = {};
    ASSERT_EQ(
        clEnqueueReadBuffer(env.queue, m, CL_TRUE, 0, sizeof value, value, 0, nullptr, nullptr),
        CL_SUCCESS);
    EXPECT_EQ(value[0], int(major * 100 + minor * 10)) << options;
    EXPECT_EQ(value[1], 300) << options << ": __OPENCL_VERSION__";
    clReleaseMemObject(m);
    clReleaseKernel(k);
    clReleaseProgram(p);
    ++tested;
  }
  EXPECT_GE(tested, 3u); // 1.1, 1.2 and 3.0 at least
}

TEST(LanguageVersions, AnUnlistedVersionFailsTheBuildWithALog) {
  Env env;
  ASSERT_TRUE(env.queue);
  std::string log;
  EXPECT_EQ(env.try_build("kernel void k(global int* o) { }", "-cl-std=CL2.0", &log),
            CL_BUILD_PROGRAM_FAILURE);
  EXPECT_NE(log.find("does not support OpenCL C 2.0"), std::string::npos) << log;
  const char* text = "kernel void k(global int* o) { }";
  cl_program p = clCreateProgramWithSource(env.context, 1, &text, nullptr, nullptr);
  EXPECT_EQ(
      clCompileProgram(p, 1, &env.device, "-cl-std=CL2.0", 0, nullptr, nullptr, nullptr, nullptr),
      CL_COMPILE_PROGRAM_FAILURE);
  clReleaseProgram(p);
  // Not a version at all: the options themselves are invalid.
  EXPECT_EQ(env.try_build("kernel void k(global int* o) { }", "-cl-std=CL9.9"),
            CL_INVALID_BUILD_OPTIONS);
}

TEST(LanguageVersions, FeatureMacrosMatchTheDevice) {
  Env env;
  ASSERT_TRUE(env.queue);
  std::set<std::string> reported;
  for (const auto& f : device_list<cl_name_version>(env.device, CL_DEVICE_OPENCL_C_FEATURES))
    reported.insert(f.name);
  std::string src;
  for (const std::string& f : reported) src += expect_macro(f, true);
  for (const char* f : kAllFeatures) src += expect_macro(f, reported.count(f) > 0);
  src += "kernel void k(global int* o) { }\n";
  std::string log;
  EXPECT_EQ(env.try_build(src, "-cl-std=CL3.0", &log), CL_SUCCESS) << log;
}

TEST(LanguageVersions, ExtensionMacrosMatchTheDevice) {
  Env env;
  ASSERT_TRUE(env.queue);
  std::set<std::string> reported;
  for (const std::string& e : split(device_string(env.device, CL_DEVICE_EXTENSIONS)))
    if (!kApiOnly.count(e)) reported.insert(e);
  // Extensions that came with OpenCL C 2.0 exist in the language from 2.0 on only (clang's
  // OpenCLExtensions.def: cl_khr_subgroups is available from 200): an OpenCL C 1.2 kernel
  // does not see them even on a device that reports them.
  const std::set<std::string> from_c20 = {"cl_khr_subgroups", "cl_khr_subgroup_shuffle",
                                          "cl_khr_subgroup_shuffle_relative",
                                          "cl_khr_subgroup_non_uniform_vote",
                                          "cl_khr_subgroup_non_uniform_arithmetic",
                                          "cl_khr_subgroup_extended_types",
                                          "cl_khr_subgroup_ballot",
                                          "cl_khr_subgroup_clustered_reduce",
                                          "cl_khr_subgroup_rotate"};
  for (const char* std : {"-cl-std=CL1.2", "-cl-std=CL3.0"}) {
    const bool c12 = std::string(std) == "-cl-std=CL1.2";
    auto visible = [&](const std::string& e) {
      return reported.count(e) > 0 && !(c12 && from_c20.count(e));
    };
    std::string src;
    for (const std::string& e : reported) src += expect_macro(e, visible(e));
    for (const char* e : kSomeExtensions) src += expect_macro(e, visible(e));
    src += "kernel void k(global int* o) { }\n";
    std::string log;
    EXPECT_EQ(env.try_build(src, std, &log), CL_SUCCESS) << std << ": " << log;
  }
}
