// Program-scope variables through the ICD loader, after the CTS basic suite's progvar_* and
// constant_source tests: __constant tables indexed at run time, __global variables with
// initialisers (scalars, arrays of structs, pointers to other program-scope variables) that
// keep their values between kernels, programs recreated from their binary at another address,
// and CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE.
#include "cl_helpers.h"

#include <vector>

using amcl_test::Env;

namespace {

const char* kVariables = R"CL(
typedef struct { int a; float b; } Pair;
__global int counter = 5;
__global int* counter_ptr = &counter;
__global Pair pairs[3] = {{1, 1.5f}, {2, 2.5f}, {3, 3.5f}};
__global Pair* pair_ptrs[3] = {&pairs[2], &pairs[0], &pairs[1]};
__constant int weights[4] = {10, 20, 30, 40};

kernel void bump(int by) {
  *counter_ptr += by;
  pairs[1].a += by;
}
kernel void read(global int* out) {
  out[0] = counter;
  out[1] = *counter_ptr;
  for (int i = 0; i < 3; ++i) out[2 + i] = pair_ptrs[i]->a;
  out[5] = (int)(pair_ptrs[0]->b * 2.0f);
  out[6] = weights[out[0] & 3];
}
)CL";

constexpr size_t kReadWords = 7;

std::vector<cl_int> run_read(Env& env, cl_program p) {
  cl_int err;
  cl_kernel k = clCreateKernel(p, "read", &err);
  EXPECT_EQ(err, CL_SUCCESS);
  cl_mem out = env.buffer(kReadWords * sizeof(cl_int));
  std::vector<cl_int> v(kReadWords, -1);
  clSetKernelArg(k, 0, sizeof out, &out);
  size_t one = 1;
  EXPECT_EQ(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, &one, nullptr, 0, nullptr, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(clEnqueueReadBuffer(env.queue, out, CL_TRUE, 0, v.size() * sizeof(cl_int), v.data(), 0,
                                nullptr, nullptr),
            CL_SUCCESS);
  clReleaseMemObject(out);
  clReleaseKernel(k);
  return v;
}

void run_bump(Env& env, cl_program p, cl_int by) {
  cl_int err;
  cl_kernel k = clCreateKernel(p, "bump", &err);
  ASSERT_EQ(err, CL_SUCCESS);
  clSetKernelArg(k, 0, sizeof by, &by);
  size_t one = 1;
  ASSERT_EQ(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, &one, nullptr, 0, nullptr, nullptr),
            CL_SUCCESS);
  ASSERT_EQ(clFinish(env.queue), CL_SUCCESS);
  clReleaseKernel(k);
}

} // namespace

// The issue's reproducer: the table is reached through a GOT entry the loader must fill in;
// unfilled, the kernel faulted reading address 0.
TEST(ProgramScope, ConstantTableIndexedAtRunTime) {
  Env env;
  ASSERT_TRUE(env.queue);
  cl_kernel k = env.kernel(R"CL(
__constant float tw[4] = {1.0f, 2.0f, 3.0f, 4.0f};
__kernel void k(__global float* out) { uint i = get_global_id(0); out[i] = tw[i & 3]; }
)CL",
                           "k");
  ASSERT_TRUE(k);
  constexpr size_t n = 64;
  cl_mem out = env.buffer(n * sizeof(float));
  clSetKernelArg(k, 0, sizeof out, &out);
  cl_event done = nullptr;
  ASSERT_EQ(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, &n, nullptr, 0, nullptr, &done),
            CL_SUCCESS);
  EXPECT_EQ(env.final_status(done), CL_COMPLETE);
  std::vector<float> v(n);
  ASSERT_EQ(clEnqueueReadBuffer(env.queue, out, CL_TRUE, 0, n * sizeof(float), v.data(), 0, nullptr,
                                nullptr),
            CL_SUCCESS);
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(v[i], float((i & 3) + 1)) << i;
  clReleaseEvent(done);
  clReleaseMemObject(out);
  clReleaseKernel(k);
}

TEST(ProgramScope, GlobalVariablesStartInitialisedAndKeepTheirValues) {
  Env env;
  ASSERT_TRUE(env.queue);
  cl_program p = env.program(kVariables, "-cl-std=CL3.0");
  ASSERT_TRUE(p);
  EXPECT_EQ(run_read(env, p), (std::vector<cl_int>{5, 5, 3, 1, 2, 7, 20}));
  run_bump(env, p, 10);
  run_bump(env, p, 10);
  // Both kernels see the same variables, and pointers among them point at them.
  EXPECT_EQ(run_read(env, p), (std::vector<cl_int>{25, 25, 3, 1, 22, 7, 20}));
  clReleaseProgram(p);
}

// A binary loaded again is a new executable at a new address with its own variables, and its
// pointers are fixed up for that address.
TEST(ProgramScope, ABinaryLoadedAgainHasItsOwnVariables) {
  Env env;
  ASSERT_TRUE(env.queue);
  cl_program first = env.program(kVariables, "-cl-std=CL3.0");
  ASSERT_TRUE(first);
  run_bump(env, first, 100);
  size_t size = 0;
  ASSERT_EQ(clGetProgramInfo(first, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, nullptr),
            CL_SUCCESS);
  std::vector<unsigned char> binary(size);
  unsigned char* ptr = binary.data();
  ASSERT_EQ(clGetProgramInfo(first, CL_PROGRAM_BINARIES, sizeof ptr, &ptr, nullptr), CL_SUCCESS);
  std::vector<cl_program> copies;
  for (int i = 0; i < 3; ++i) {
    const unsigned char* bin = binary.data();
    cl_int status = 0, err = 0;
    cl_program p =
        clCreateProgramWithBinary(env.context, 1, &env.device, &size, &bin, &status, &err);
    ASSERT_EQ(err, CL_SUCCESS);
    ASSERT_EQ(clBuildProgram(p, 1, &env.device, "", nullptr, nullptr), CL_SUCCESS);
    run_bump(env, p, i);
    EXPECT_EQ(run_read(env, p),
              (std::vector<cl_int>{5 + i, 5 + i, 3, 1, 2 + i, 7, 10 * (((5 + i) & 3) + 1)}))
        << "copy " << i;
    copies.push_back(p);
  }
  EXPECT_EQ(run_read(env, first)[0], 105);
  for (cl_program p : copies) clReleaseProgram(p);
  clReleaseProgram(first);
}

TEST(ProgramScope, GlobalVariableTotalSize) {
  Env env;
  ASSERT_TRUE(env.queue);
  cl_program p = env.program(kVariables, "-cl-std=CL3.0");
  ASSERT_TRUE(p);
  size_t total = 0;
  ASSERT_EQ(clGetProgramBuildInfo(p, env.device, CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE,
                                  sizeof total, &total, nullptr),
            CL_SUCCESS);
  // counter 4 + counter_ptr 8 + pairs 3 * 8 + pair_ptrs 3 * 8; weights is __constant.
  EXPECT_EQ(total, 60u);
  clReleaseProgram(p);
  cl_program none = env.program("kernel void k(global int* p) { p[0] = 1; }");
  ASSERT_TRUE(none);
  ASSERT_EQ(clGetProgramBuildInfo(none, env.device, CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE,
                                  sizeof total, &total, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(total, 0u);
  clReleaseProgram(none);
}
