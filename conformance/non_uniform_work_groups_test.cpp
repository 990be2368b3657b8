// Non-uniform work-groups (OpenCL 3.0 §5.10, CTS suite non_uniform_work_group): kernels of
// OpenCL C 2.0 or newer may run over NDRanges the work-group size does not divide, each
// dimension ending with a partial work-group; OpenCL C 1.x kernels and kernels built with
// -cl-uniform-work-group-size may not. reqd_work_group_size is enforced and used when the
// application passes no local size.
#include "cl_helpers.h"

#include <array>

using amcl_test::Env;

namespace {

const char* kSource = R"(
#if __OPENCL_C_VERSION__ >= 200 // get_global_linear_id, get_enqueued_local_size
kernel void where(global uint* out) {
  size_t g = get_global_linear_id();
  global uint* o = out + 16 * g;
  for (uint d = 0; d < 3; ++d) {
    o[d] = get_global_id(d);
    o[3 + d] = get_local_id(d);
    o[6 + d] = get_local_size(d);
    o[9 + d] = get_group_id(d);
    o[12 + d] = get_num_groups(d);
  }
  o[15] = get_enqueued_local_size(0) + 1000 * get_global_size(0) + 1;
}
// The work-items of a partial work-group share an async copy out among themselves too: every
// element must arrive (contiguous from in[0..99], strided from in[100 + 2k]).
kernel void copy_sum(global uint* out, global const uint* in) {
  local uint t[100], u[50];
  event_t e = async_work_group_copy(t, in, 100, 0);
  e = async_work_group_strided_copy(u, in + 100, 50, 2, e);
  wait_group_events(1, &e);
  uint s = 0;
  for (int i = 0; i < 100; ++i) s += t[i];
  for (int i = 0; i < 50; ++i) s += u[i] << 16;
  out[get_global_linear_id()] = s;
}
#endif
kernel void plain(global uint* out) { out[get_global_id(0)] = 1; }
kernel __attribute__((reqd_work_group_size(16, 2, 1))) void fixed(global uint* out) {
  out[get_global_id(1) * get_global_size(0) + get_global_id(0)] =
      get_local_size(0) * 100 + get_local_size(1);
}
)";

cl_kernel kernel(Env& env, const char* options, const char* name) {
  cl_int err;
  cl_program p = clCreateProgramWithSource(env.context, 1, &kSource, nullptr, &err);
  if (clBuildProgram(p, 1, &env.device, options, nullptr, nullptr) != CL_SUCCESS) {
    char log[8192] = "";
    clGetProgramBuildInfo(p, env.device, CL_PROGRAM_BUILD_LOG, sizeof log, log, nullptr);
    ADD_FAILURE() << options << ": " << log;
  }
  cl_kernel k = clCreateKernel(p, name, &err);
  clReleaseProgram(p);
  return k;
}

struct Case {
  cl_uint dims;
  std::array<size_t, 3> global, local, offset;
};

// Every work-item of the NDRange reports where it is; all must match the partition of the
// NDRange into whole work-groups plus one partial group at the end of each dimension.
void check_partition(Env& env, cl_kernel k, const Case& c) {
  SCOPED_TRACE("global " + std::to_string(c.global[0]) + "x" + std::to_string(c.global[1]) + "x" +
               std::to_string(c.global[2]) + " local " + std::to_string(c.local[0]) + "x" +
               std::to_string(c.local[1]) + "x" + std::to_string(c.local[2]));
  const size_t items = c.global[0] * c.global[1] * c.global[2];
  std::vector<cl_uint> zero(items * 16, 0);
  cl_mem m = env.buffer(zero.size() * 4, zero.data());
  clSetKernelArg(k, 0, sizeof m, &m);
  ASSERT_EQ(clEnqueueNDRangeKernel(env.queue, k, c.dims, c.offset.data(), c.global.data(),
                                   c.local.data(), 0, nullptr, nullptr),
            CL_SUCCESS);
  std::vector<cl_uint> out(zero.size());
  ASSERT_EQ(clEnqueueReadBuffer(env.queue, m, CL_TRUE, 0, out.size() * 4, out.data(), 0, nullptr,
                                nullptr),
            CL_SUCCESS);
  size_t bad = 0;
  for (size_t z = 0; z < c.global[2]; ++z)
    for (size_t y = 0; y < c.global[1]; ++y)
      for (size_t x = 0; x < c.global[0]; ++x) {
        const size_t g = (z * c.global[1] + y) * c.global[0] + x, pos[3] = {x, y, z};
        cl_uint want[16];
        for (int d = 0; d < 3; ++d) {
          const size_t groups = (c.global[d] + c.local[d] - 1) / c.local[d];
          const size_t group = pos[d] / c.local[d];
          const bool last = group + 1 == groups && c.global[d] % c.local[d];
          want[d] = cl_uint(pos[d] + c.offset[d]);
          want[3 + d] = cl_uint(pos[d] % c.local[d]);
          want[6 + d] = cl_uint(last ? c.global[d] % c.local[d] : c.local[d]);
          want[9 + d] = cl_uint(group);
          want[12 + d] = cl_uint(groups);
        }
        want[15] = cl_uint(c.local[0] + 1000 * c.global[0] + 1);
        for (int j = 0; j < 16; ++j)
          if (out[16 * g + j] != want[j] && ++bad <= 5)
            ADD_FAILURE() << "work-item (" << x << "," << y << "," << z << ") value " << j
                          << ": got " << out[16 * g + j] << ", want " << want[j];
      }
  EXPECT_EQ(bad, 0u);
  clReleaseMemObject(m);
}

} // namespace

TEST(NonUniformWorkGroups, DeviceReportsSupport) {
  Env env;
  cl_bool v = CL_FALSE;
  ASSERT_EQ(clGetDeviceInfo(env.device, CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT, sizeof v, &v,
                            nullptr),
            CL_SUCCESS);
  EXPECT_EQ(v, CL_TRUE);
}

TEST(NonUniformWorkGroups, PartialGroupsAtTheEndOfEachDimension) {
  Env env;
  cl_kernel k = kernel(env, "-cl-std=CL3.0", "where");
  ASSERT_TRUE(k);
  const Case cases[] = {
      {1, {100, 1, 1}, {48, 1, 1}, {0, 0, 0}},
      {1, {7, 1, 1}, {64, 1, 1}, {3, 0, 0}},     // smaller than one work-group
      {2, {20, 13, 1}, {8, 6, 1}, {5, 7, 0}},    // partial in both dimensions
      {3, {5, 7, 9}, {2, 3, 4}, {0, 1, 2}},      // and in three
      {2, {64, 10, 1}, {16, 4, 1}, {0, 0, 0}},   // whole in x, partial in y
      {1, {1000, 1, 1}, {1000, 1, 1}, {0, 0, 0}} // uniform, for contrast
  };
  for (const Case& c : cases) check_partition(env, k, c);
  clReleaseKernel(k);
}

TEST(NonUniformWorkGroups, AsyncCopiesFillThePartialGroups) {
  Env env;
  cl_kernel k = kernel(env, "-cl-std=CL3.0", "copy_sum");
  ASSERT_TRUE(k);
  std::vector<cl_uint> in(200);
  cl_uint want = 0;
  for (cl_uint i = 0; i < in.size(); ++i) in[i] = i * 7 + 1;
  for (cl_uint i = 0; i < 100; ++i) want += in[i];
  for (cl_uint i = 0; i < 50; ++i) want += in[100 + 2 * i] << 16;
  cl_mem src = env.buffer(in.size() * 4, in.data());
  const Case cases[] = {{1, {100, 1, 1}, {48, 1, 1}, {0, 0, 0}},
                        {2, {20, 13, 1}, {8, 6, 1}, {0, 0, 0}}};
  for (const Case& c : cases) {
    const size_t items = c.global[0] * c.global[1];
    std::vector<cl_uint> out(items, 0);
    cl_mem dst = env.buffer(out.size() * 4, out.data());
    clSetKernelArg(k, 0, sizeof dst, &dst);
    clSetKernelArg(k, 1, sizeof src, &src);
    ASSERT_EQ(clEnqueueNDRangeKernel(env.queue, k, c.dims, nullptr, c.global.data(), c.local.data(),
                                     0, nullptr, nullptr),
              CL_SUCCESS);
    ASSERT_EQ(clEnqueueReadBuffer(env.queue, dst, CL_TRUE, 0, out.size() * 4, out.data(), 0,
                                  nullptr, nullptr),
              CL_SUCCESS);
    size_t bad = 0;
    for (size_t i = 0; i < items; ++i)
      if (out[i] != want && ++bad <= 3)
        ADD_FAILURE() << "work-item " << i << ": " << out[i] << ", want " << want;
    EXPECT_EQ(bad, 0u) << c.dims << "-dimensional NDRange";
    clReleaseMemObject(dst);
  }
  clReleaseMemObject(src);
  clReleaseKernel(k);
}

TEST(NonUniformWorkGroups, UniformKernelsRejectThem) {
  Env env;
  size_t global = 100, local = 48, whole = 96;
  for (const char* options : {"", "-cl-std=CL1.2", "-cl-std=CL3.0 -cl-uniform-work-group-size"}) {
    cl_kernel k = kernel(env, options, "plain");
    ASSERT_TRUE(k) << options;
    cl_mem m = env.buffer(100 * 4);
    clSetKernelArg(k, 0, sizeof m, &m);
    EXPECT_EQ(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, &global, &local, 0, nullptr, nullptr),
              CL_INVALID_WORK_GROUP_SIZE)
        << options;
    EXPECT_EQ(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, &whole, &local, 0, nullptr, nullptr),
              CL_SUCCESS)
        << options;
    clFinish(env.queue);
    clReleaseMemObject(m);
    clReleaseKernel(k);
  }
}

TEST(NonUniformWorkGroups, RequiredWorkGroupSizeIsEnforcedAndUsed) {
  Env env;
  cl_kernel k = kernel(env, "-cl-std=CL3.0", "fixed");
  ASSERT_TRUE(k);
  cl_mem m = env.buffer(64 * 4 * 4);
  clSetKernelArg(k, 0, sizeof m, &m);
  size_t global[2] = {64, 4}, wrong[2] = {32, 2}, right[2] = {16, 2};
  EXPECT_EQ(clEnqueueNDRangeKernel(env.queue, k, 2, nullptr, global, wrong, 0, nullptr, nullptr),
            CL_INVALID_WORK_GROUP_SIZE);
  EXPECT_EQ(clEnqueueNDRangeKernel(env.queue, k, 2, nullptr, global, right, 0, nullptr, nullptr),
            CL_SUCCESS);
  // No local size: the required one is used.
  ASSERT_EQ(clEnqueueNDRangeKernel(env.queue, k, 2, nullptr, global, nullptr, 0, nullptr, nullptr),
            CL_SUCCESS);
  std::vector<cl_uint> out(64 * 4);
  ASSERT_EQ(clEnqueueReadBuffer(env.queue, m, CL_TRUE, 0, out.size() * 4, out.data(), 0, nullptr,
                                nullptr),
            CL_SUCCESS);
  for (cl_uint v : out) ASSERT_EQ(v, 16u * 100 + 2);
  clReleaseMemObject(m);
  clReleaseKernel(k);
}
