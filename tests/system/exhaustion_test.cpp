// Running out of device memory (on a deliberately small emulated VRAM): allocations beyond it
// fail with CL_MEM_OBJECT_ALLOCATION_FAILURE, requests beyond CL_DEVICE_MAX_MEM_ALLOC_SIZE with
// CL_INVALID_BUFFER_SIZE, and once memory is released the same context allocates and computes.
#include "cl_helpers.h"

#include <cstdlib>

using amcl_test::Env;
using amcl_test::device_info;

namespace {
// Set before main(): amcl reads it when the platform first comes up.
const int kSmallVram = setenv("AMCL_SIM_VRAM_MB", "256", 1);
} // namespace

TEST(Exhaustion, VramRunsOutCleanlyAndRecovers) {
  (void)kSmallVram;
  Env env;
  ASSERT_TRUE(env.queue);
  const auto max_alloc = device_info<cl_ulong>(env.device, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
  const auto global = device_info<cl_ulong>(env.device, CL_DEVICE_GLOBAL_MEM_SIZE);
  ASSERT_LE(global, 256ull << 20);
  cl_int err;
  EXPECT_EQ(clCreateBuffer(env.context, CL_MEM_READ_WRITE, max_alloc + 1, nullptr, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_BUFFER_SIZE);

  std::vector<cl_mem> held;
  const size_t chunk = 16 << 20;
  for (int i = 0; i < 64; ++i) {
    cl_mem m = clCreateBuffer(env.context, CL_MEM_READ_WRITE, chunk, nullptr, &err);
    if (!m) break;
    held.push_back(m);
  }
  EXPECT_EQ(err, CL_MEM_OBJECT_ALLOCATION_FAILURE);
  EXPECT_LT(held.size(), 64u);
  EXPECT_GT(held.size(), 4u);

  // Give back half and compute in the same context.
  for (size_t i = 0; i < held.size() / 2; ++i) clReleaseMemObject(held[i]);
  held.erase(held.begin(), held.begin() + long(held.size() / 2));
  cl_kernel k = env.kernel(
      "kernel void fill(global int* p) { p[get_global_id(0)] = (int)get_global_id(0); }", "fill");
  cl_mem m = clCreateBuffer(env.context, CL_MEM_READ_WRITE, chunk, nullptr, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  clSetKernelArg(k, 0, sizeof m, &m);
  size_t n = 4096;
  ASSERT_EQ(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, &n, nullptr, 0, nullptr, nullptr),
            CL_SUCCESS);
  std::vector<int> out(n);
  ASSERT_EQ(clEnqueueReadBuffer(env.queue, m, CL_TRUE, 0, n * sizeof(int), out.data(), 0, nullptr,
                                nullptr),
            CL_SUCCESS);
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(out[i], int(i));
  clReleaseMemObject(m);
  clReleaseKernel(k);
  for (cl_mem h : held) clReleaseMemObject(h);
}
