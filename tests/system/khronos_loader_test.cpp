// amcl as the Khronos OpenCL-ICD-Loader loads it (khronos OpenCL-ICD-Loader loader/icd.c,
// khrIcdVendorAdd): dlopen the vendor library, find clGetExtensionFunctionAddress, ask it for
// clIcdGetPlatformIDsKHR, enumerate the platforms, read CL_PLATFORM_ICD_SUFFIX_KHR through the
// platform's dispatch table, and from then on call every function through the dispatch table
// that is the first member of each object (cl_icd.h struct _cl_icd_dispatch). Debian ships only
// ocl-icd, so this test does what the Khronos loader does instead of linking it; a vector add
// runs with no exported entry point but the two the loader resolves by name.
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <CL/cl_icd.h>

#include <gtest/gtest.h>

#include <dlfcn.h>

#include <cstring>
#include <string>
#include <vector>

namespace {

struct Object {
  const cl_icd_dispatch* dispatch; // every ICD object starts with its dispatch table
};
const cl_icd_dispatch* table(void* object) { return static_cast<Object*>(object)->dispatch; }

using GetExtensionFunctionAddress = void*(CL_API_CALL*)(const char*);
using IcdGetPlatformIDs = cl_int(CL_API_CALL*)(cl_uint, cl_platform_id*, cl_uint*);

class KhronosLoader : public testing::Test {
protected:
  void SetUp() override {
    // Opened once and never closed, as the Khronos loader keeps its ICDs until the process
    // ends (amcl's platform state lives in the library).
    static void* const library = dlopen(AMCL_LIBRARY, RTLD_NOW | RTLD_LOCAL);
    library_ = library;
    ASSERT_NE(library_, nullptr) << dlerror();
    auto gefa = reinterpret_cast<GetExtensionFunctionAddress>(dlsym(library_, "clGetExtensionFunctionAddress"));
    ASSERT_NE(gefa, nullptr);
    auto get_ids = reinterpret_cast<IcdGetPlatformIDs>(gefa("clIcdGetPlatformIDsKHR"));
    ASSERT_NE(get_ids, nullptr);
    cl_uint n = 0;
    ASSERT_EQ(get_ids(0, nullptr, &n), CL_SUCCESS);
    ASSERT_GE(n, 1u);
    std::vector<cl_platform_id> ids(n);
    ASSERT_EQ(get_ids(n, ids.data(), nullptr), CL_SUCCESS);
    platform_ = ids[0];
    d_ = table(platform_);
    ASSERT_NE(d_, nullptr) << "the loader skips a platform without a dispatch table";
  }
  void* library_ = nullptr;
  cl_platform_id platform_ = nullptr;
  const cl_icd_dispatch* d_ = nullptr;
};

} // namespace

TEST_F(KhronosLoader, PlatformHasItsIcdSuffixAndName) {
  char suffix[64] = "", name[64] = "";
  ASSERT_EQ(d_->clGetPlatformInfo(platform_, CL_PLATFORM_ICD_SUFFIX_KHR, sizeof suffix, suffix, nullptr), CL_SUCCESS);
  EXPECT_GT(std::strlen(suffix), 0u);
  ASSERT_EQ(d_->clGetPlatformInfo(platform_, CL_PLATFORM_NAME, sizeof name, name, nullptr), CL_SUCCESS);
  EXPECT_STREQ(name, "amcl");
  // The loader also resolves extension functions per platform through the table.
  EXPECT_NE(d_->clGetExtensionFunctionAddressForPlatform(platform_, "clIcdGetPlatformIDsKHR"), nullptr);
}

TEST_F(KhronosLoader, EveryObjectCarriesTheTableAndAKernelRunsThroughIt) {
  cl_device_id dev = nullptr;
  ASSERT_EQ(d_->clGetDeviceIDs(platform_, CL_DEVICE_TYPE_GPU, 1, &dev, nullptr), CL_SUCCESS);
  EXPECT_EQ(table(dev), d_);
  cl_int err = CL_SUCCESS;
  cl_context ctx = d_->clCreateContext(nullptr, 1, &dev, nullptr, nullptr, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  EXPECT_EQ(table(ctx), d_);
  cl_command_queue q = d_->clCreateCommandQueueWithProperties(ctx, dev, nullptr, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  EXPECT_EQ(table(q), d_);
  constexpr size_t n = 1024;
  std::vector<float> a(n), b(n), c(n, 0.0f);
  for (size_t i = 0; i < n; ++i) a[i] = float(i), b[i] = 2.0f * float(i);
  cl_mem ma = d_->clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * 4, a.data(), &err);
  cl_mem mb = d_->clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * 4, b.data(), &err);
  cl_mem mc = d_->clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, n * 4, nullptr, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  EXPECT_EQ(table(mc), d_);
  const char* src = "kernel void add(global const float* a, global const float* b, global float* c) {"
                    " size_t i = get_global_id(0); c[i] = a[i] + b[i]; }";
  cl_program prog = d_->clCreateProgramWithSource(ctx, 1, &src, nullptr, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  EXPECT_EQ(table(prog), d_);
  ASSERT_EQ(d_->clBuildProgram(prog, 1, &dev, "", nullptr, nullptr), CL_SUCCESS);
  cl_kernel k = d_->clCreateKernel(prog, "add", &err);
  ASSERT_EQ(err, CL_SUCCESS);
  EXPECT_EQ(table(k), d_);
  ASSERT_EQ(d_->clSetKernelArg(k, 0, sizeof ma, &ma), CL_SUCCESS);
  ASSERT_EQ(d_->clSetKernelArg(k, 1, sizeof mb, &mb), CL_SUCCESS);
  ASSERT_EQ(d_->clSetKernelArg(k, 2, sizeof mc, &mc), CL_SUCCESS);
  cl_event ev = nullptr;
  ASSERT_EQ(d_->clEnqueueNDRangeKernel(q, k, 1, nullptr, &n, nullptr, 0, nullptr, &ev), CL_SUCCESS);
  EXPECT_EQ(table(ev), d_);
  ASSERT_EQ(d_->clEnqueueReadBuffer(q, mc, CL_TRUE, 0, n * 4, c.data(), 1, &ev, nullptr), CL_SUCCESS);
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(c[i], 3.0f * float(i)) << i;
  d_->clReleaseEvent(ev);
  d_->clReleaseKernel(k);
  d_->clReleaseProgram(prog);
  for (cl_mem m : {ma, mb, mc}) d_->clReleaseMemObject(m);
  d_->clReleaseCommandQueue(q);
  EXPECT_EQ(d_->clReleaseContext(ctx), CL_SUCCESS);
}
