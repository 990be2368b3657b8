// OpenCL 3.0 object APIs beyond the basics (mirrors parts of the Khronos CTS "api" suite):
// kernel argument info, clCreateKernelsInProgram, clCloneKernel, buffers with properties,
// context destructor callbacks, host/device timers.
#include "cl_helpers.h"

#include <algorithm>
#include <set>
#include <vector>

using amcl_test::Env;

namespace {

const char* kTwoKernels = R"(
kernel void scale(global float* restrict out, const global float* in, float factor,
                  local int* tmp) {
  size_t i = get_global_id(0);
  out[i] = in[i] * factor;
}
kernel void fill(global volatile int* dst, constant int* src, int value) {
  dst[get_global_id(0)] = value + src[0];
}
)";

cl_program build(Env& env, const char* src, const char* options) {
  cl_int err;
  cl_program p = clCreateProgramWithSource(env.context, 1, &src, nullptr, &err);
  EXPECT_EQ(err, CL_SUCCESS);
  EXPECT_EQ(clBuildProgram(p, 1, &env.device, options, nullptr, nullptr), CL_SUCCESS);
  return p;
}

// `p`'s binary, loaded again with clCreateProgramWithBinary and built; nullptr (a test failure)
// when a step fails.
cl_program reloaded_from_binary(Env& env, cl_program p) {
  size_t size = 0;
  EXPECT_EQ(clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, nullptr), CL_SUCCESS);
  std::vector<unsigned char> bin(size);
  unsigned char* ptr = bin.data();
  EXPECT_EQ(clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof ptr, &ptr, nullptr), CL_SUCCESS);
  const unsigned char* cptr = bin.data();
  cl_int err;
  cl_program q =
      clCreateProgramWithBinary(env.context, 1, &env.device, &size, &cptr, nullptr, &err);
  EXPECT_EQ(err, CL_SUCCESS);
  if (err != CL_SUCCESS) return nullptr;
  EXPECT_EQ(clBuildProgram(q, 1, &env.device, "", nullptr, nullptr), CL_SUCCESS);
  return q;
}

std::string arg_string(cl_kernel k, cl_uint i, cl_kernel_arg_info what) {
  char buf[256] = "";
  EXPECT_EQ(clGetKernelArgInfo(k, i, what, sizeof buf, buf, nullptr), CL_SUCCESS);
  return buf;
}

template <class T> T arg_value(cl_kernel k, cl_uint i, cl_kernel_arg_info what) {
  T v{};
  EXPECT_EQ(clGetKernelArgInfo(k, i, what, sizeof v, &v, nullptr), CL_SUCCESS);
  return v;
}

TEST(ApiObjects, KernelArgInfoWithOption) {
  Env env;
  ASSERT_NE(env.context, nullptr);
  cl_program p = build(env, kTwoKernels, "-cl-kernel-arg-info");
  cl_int err;
  cl_kernel k = clCreateKernel(p, "scale", &err);
  ASSERT_EQ(err, CL_SUCCESS);
  EXPECT_EQ(arg_string(k, 0, CL_KERNEL_ARG_NAME), "out");
  EXPECT_EQ(arg_string(k, 0, CL_KERNEL_ARG_TYPE_NAME), "float*");
  EXPECT_EQ(arg_value<cl_kernel_arg_address_qualifier>(k, 0, CL_KERNEL_ARG_ADDRESS_QUALIFIER),
            cl_kernel_arg_address_qualifier(CL_KERNEL_ARG_ADDRESS_GLOBAL));
  EXPECT_EQ(arg_value<cl_kernel_arg_type_qualifier>(k, 0, CL_KERNEL_ARG_TYPE_QUALIFIER),
            cl_kernel_arg_type_qualifier(CL_KERNEL_ARG_TYPE_RESTRICT));
  EXPECT_EQ(arg_value<cl_kernel_arg_type_qualifier>(k, 1, CL_KERNEL_ARG_TYPE_QUALIFIER),
            cl_kernel_arg_type_qualifier(CL_KERNEL_ARG_TYPE_CONST));
  EXPECT_EQ(arg_string(k, 2, CL_KERNEL_ARG_NAME), "factor");
  EXPECT_EQ(arg_string(k, 2, CL_KERNEL_ARG_TYPE_NAME), "float");
  EXPECT_EQ(arg_value<cl_kernel_arg_address_qualifier>(k, 2, CL_KERNEL_ARG_ADDRESS_QUALIFIER),
            cl_kernel_arg_address_qualifier(CL_KERNEL_ARG_ADDRESS_PRIVATE));
  EXPECT_EQ(arg_value<cl_kernel_arg_address_qualifier>(k, 3, CL_KERNEL_ARG_ADDRESS_QUALIFIER),
            cl_kernel_arg_address_qualifier(CL_KERNEL_ARG_ADDRESS_LOCAL));
  EXPECT_EQ(arg_value<cl_kernel_arg_access_qualifier>(k, 3, CL_KERNEL_ARG_ACCESS_QUALIFIER),
            cl_kernel_arg_access_qualifier(CL_KERNEL_ARG_ACCESS_NONE));
  // Errors: index past the end, unknown query, too small a buffer.
  char tiny[2];
  EXPECT_EQ(clGetKernelArgInfo(k, 4, CL_KERNEL_ARG_NAME, sizeof tiny, tiny, nullptr),
            CL_INVALID_ARG_INDEX);
  EXPECT_EQ(clGetKernelArgInfo(k, 0, 0x7fff, sizeof tiny, tiny, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_NAME, sizeof tiny, tiny, nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(clGetKernelArgInfo(nullptr, 0, CL_KERNEL_ARG_NAME, 0, nullptr, nullptr),
            CL_INVALID_KERNEL);

  cl_kernel f = clCreateKernel(p, "fill", &err);
  ASSERT_EQ(err, CL_SUCCESS);
  EXPECT_EQ(arg_value<cl_kernel_arg_type_qualifier>(f, 0, CL_KERNEL_ARG_TYPE_QUALIFIER),
            cl_kernel_arg_type_qualifier(CL_KERNEL_ARG_TYPE_VOLATILE));
  EXPECT_EQ(arg_value<cl_kernel_arg_address_qualifier>(f, 1, CL_KERNEL_ARG_ADDRESS_QUALIFIER),
            cl_kernel_arg_address_qualifier(CL_KERNEL_ARG_ADDRESS_CONSTANT));
  EXPECT_EQ(arg_value<cl_kernel_arg_type_qualifier>(f, 1, CL_KERNEL_ARG_TYPE_QUALIFIER),
            cl_kernel_arg_type_qualifier(CL_KERNEL_ARG_TYPE_CONST));
  clReleaseKernel(f);
  clReleaseKernel(k);
  clReleaseProgram(p);
}

TEST(ApiObjects, KernelArgInfoSurvivesBinaryRoundTrip) {
  // The code object's metadata carries the argument names -cl-kernel-arg-info asked for
  // (AMDGPUUsage .args), so the information stays available for programs loaded with
  // clCreateProgramWithBinary.
  Env env;
  ASSERT_NE(env.context, nullptr);
  cl_program p = build(env, kTwoKernels, "-cl-kernel-arg-info");
  cl_program q = reloaded_from_binary(env, p);
  clReleaseProgram(p);
  ASSERT_NE(q, nullptr);
  cl_int err;
  cl_kernel k = clCreateKernel(q, "fill", &err);
  ASSERT_EQ(err, CL_SUCCESS);
  EXPECT_EQ(arg_string(k, 2, CL_KERNEL_ARG_NAME), "value");
  EXPECT_EQ(arg_string(k, 1, CL_KERNEL_ARG_TYPE_NAME), "int*");
  clReleaseKernel(k);
  clReleaseProgram(q);
}

// Without -cl-kernel-arg-info there is no argument information (OpenCL 3.0 5.9.3), from
// source or through a binary: piglit's cl-api-get-kernel-arg-info, which PoCL passes. amcl
// answered: clang, run in process, kept the IR's argument names, and LLVM wrote them into the
// code object's metadata as if the option had been given.
TEST(ApiObjects, NoKernelArgInfoWithoutTheOption) {
  Env env;
  ASSERT_NE(env.context, nullptr);
  cl_program p = build(env, kTwoKernels, "");
  cl_int err;
  cl_kernel k = clCreateKernel(p, "fill", &err);
  ASSERT_EQ(err, CL_SUCCESS);
  size_t n = 0;
  for (cl_kernel_arg_info what :
       {CL_KERNEL_ARG_NAME, CL_KERNEL_ARG_TYPE_NAME, CL_KERNEL_ARG_ADDRESS_QUALIFIER})
    EXPECT_EQ(clGetKernelArgInfo(k, 0, what, 0, nullptr, &n), CL_KERNEL_ARG_INFO_NOT_AVAILABLE)
        << what;
  clReleaseKernel(k);
  cl_program q = reloaded_from_binary(env, p);
  clReleaseProgram(p);
  ASSERT_NE(q, nullptr);
  k = clCreateKernel(q, "fill", &err);
  ASSERT_EQ(err, CL_SUCCESS);
  EXPECT_EQ(clGetKernelArgInfo(k, 2, CL_KERNEL_ARG_NAME, 0, nullptr, &n),
            CL_KERNEL_ARG_INFO_NOT_AVAILABLE);
  clReleaseKernel(k);
  clReleaseProgram(q);
}

TEST(ApiObjects, CreateKernelsInProgram) {
  Env env;
  ASSERT_NE(env.context, nullptr);
  cl_program p = build(env, kTwoKernels, "");
  cl_uint n = 0;
  ASSERT_EQ(clCreateKernelsInProgram(p, 0, nullptr, &n), CL_SUCCESS);
  ASSERT_EQ(n, 2u);
  cl_kernel one[1];
  EXPECT_EQ(clCreateKernelsInProgram(p, 1, one, nullptr), CL_INVALID_VALUE);
  cl_kernel ks[2] = {};
  ASSERT_EQ(clCreateKernelsInProgram(p, 2, ks, nullptr), CL_SUCCESS);
  std::set<std::string> names;
  for (cl_kernel k : ks) {
    char name[32] = "";
    clGetKernelInfo(k, CL_KERNEL_FUNCTION_NAME, sizeof name, name, nullptr);
    names.insert(name);
  }
  EXPECT_EQ(names, (std::set<std::string>{"fill", "scale"}));
  // Kernels hold the program: it cannot be rebuilt while they exist.
  EXPECT_EQ(clBuildProgram(p, 1, &env.device, "", nullptr, nullptr), CL_INVALID_OPERATION);
  for (cl_kernel k : ks) clReleaseKernel(k);
  EXPECT_EQ(clBuildProgram(p, 1, &env.device, "", nullptr, nullptr), CL_SUCCESS);

  cl_int err;
  cl_program unbuilt = clCreateProgramWithSource(env.context, 1, &kTwoKernels, nullptr, &err);
  EXPECT_EQ(clCreateKernelsInProgram(unbuilt, 0, nullptr, &n), CL_INVALID_PROGRAM_EXECUTABLE);
  clReleaseProgram(unbuilt);
  clReleaseProgram(p);
}

TEST(ApiObjects, CloneKernelKeepsArgumentsAndThenDiverges) {
  Env env;
  ASSERT_NE(env.context, nullptr);
  cl_kernel k =
      env.kernel("kernel void put(global int* o, int v) { o[get_global_id(0)] = v; }", "put");
  cl_mem a = env.buffer(4 * sizeof(int)), b = env.buffer(4 * sizeof(int));
  int seven = 7, nine = 9;
  ASSERT_EQ(clSetKernelArg(k, 0, sizeof a, &a), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(k, 1, sizeof seven, &seven), CL_SUCCESS);
  cl_int err;
  cl_kernel c = clCloneKernel(k, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  // The clone writes b with 9 while the source still writes a with 7.
  ASSERT_EQ(clSetKernelArg(c, 0, sizeof b, &b), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(c, 1, sizeof nine, &nine), CL_SUCCESS);
  size_t global = 4;
  ASSERT_EQ(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, &global, nullptr, 0, nullptr, nullptr),
            CL_SUCCESS);
  ASSERT_EQ(clEnqueueNDRangeKernel(env.queue, c, 1, nullptr, &global, nullptr, 0, nullptr, nullptr),
            CL_SUCCESS);
  int ra[4], rb[4];
  ASSERT_EQ(clEnqueueReadBuffer(env.queue, a, CL_TRUE, 0, sizeof ra, ra, 0, nullptr, nullptr),
            CL_SUCCESS);
  ASSERT_EQ(clEnqueueReadBuffer(env.queue, b, CL_TRUE, 0, sizeof rb, rb, 0, nullptr, nullptr),
            CL_SUCCESS);
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(ra[i], 7);
    EXPECT_EQ(rb[i], 9);
  }
  EXPECT_EQ(clCloneKernel(nullptr, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_KERNEL);
  clReleaseKernel(c);
  clReleaseKernel(k);
  clReleaseMemObject(a);
  clReleaseMemObject(b);
}

// A program whose kernels the application has all released builds again, even while launches
// of those kernels still wait to run (piglit's cl-api-create-program-with-binary: enqueue,
// clReleaseKernel, clBuildProgram with no wait between). The launches hold their kernel, which
// counted as attached: clBuildProgram returned CL_INVALID_OPERATION. Launches made before the
// build run the code they were enqueued with; kernels made after it run the new code.
TEST(ApiObjects, ProgramBuildsAgainWhileLaunchesOfReleasedKernelsWait) {
  Env env;
  ASSERT_TRUE(env.queue);
  const char* src = "kernel void put(global int* out) { out[get_global_id(0)] = VALUE; }";
  cl_int err;
  cl_program p = clCreateProgramWithSource(env.context, 1, &src, nullptr, &err);
  ASSERT_EQ(clBuildProgram(p, 1, &env.device, "-DVALUE=1", nullptr, nullptr), CL_SUCCESS);
  int init[64] = {};
  cl_mem out = env.buffer(sizeof init, init);
  const size_t global = 64;
  cl_kernel k = clCreateKernel(p, "put", &err);
  ASSERT_EQ(err, CL_SUCCESS);
  // A kernel the application still holds keeps the program from building (OpenCL 3.0 5.8.2).
  EXPECT_EQ(clBuildProgram(p, 1, &env.device, "-DVALUE=2", nullptr, nullptr), CL_INVALID_OPERATION);
  ASSERT_EQ(clSetKernelArg(k, 0, sizeof out, &out), CL_SUCCESS);
  ASSERT_EQ(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, &global, nullptr, 0, nullptr, nullptr),
            CL_SUCCESS);
  ASSERT_EQ(clReleaseKernel(k), CL_SUCCESS);
  // A second release of the same handle is the application's error, whatever launches hold.
  EXPECT_EQ(clReleaseKernel(k), CL_INVALID_KERNEL);
  EXPECT_EQ(clRetainKernel(k), CL_INVALID_KERNEL); // nor is it the application's to revive
  ASSERT_EQ(clBuildProgram(p, 1, &env.device, "-DVALUE=2", nullptr, nullptr), CL_SUCCESS);
  int got[64] = {};
  ASSERT_EQ(clEnqueueReadBuffer(env.queue, out, CL_TRUE, 0, sizeof got, got, 0, nullptr, nullptr),
            CL_SUCCESS);
  for (int v : got) ASSERT_EQ(v, 1); // the launch ran the code it was enqueued with
  k = clCreateKernel(p, "put", &err);
  ASSERT_EQ(err, CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(k, 0, sizeof out, &out), CL_SUCCESS);
  ASSERT_EQ(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, &global, nullptr, 0, nullptr, nullptr),
            CL_SUCCESS);
  ASSERT_EQ(clEnqueueReadBuffer(env.queue, out, CL_TRUE, 0, sizeof got, got, 0, nullptr, nullptr),
            CL_SUCCESS);
  for (int v : got) ASSERT_EQ(v, 2);
  clReleaseKernel(k);

  // The same for a program made from a binary, which clBuildProgram keeps as it is.
  cl_program from_binary = reloaded_from_binary(env, p);
  ASSERT_NE(from_binary, nullptr);
  k = clCreateKernel(from_binary, "put", &err);
  ASSERT_EQ(err, CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(k, 0, sizeof out, &out), CL_SUCCESS);
  ASSERT_EQ(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, &global, nullptr, 0, nullptr, nullptr),
            CL_SUCCESS);
  clReleaseKernel(k);
  EXPECT_EQ(clBuildProgram(from_binary, 1, &env.device, "", nullptr, nullptr), CL_SUCCESS);
  EXPECT_EQ(clFinish(env.queue), CL_SUCCESS);
  clReleaseProgram(from_binary);
  clReleaseProgram(p);
  clReleaseMemObject(out);
}

TEST(ApiObjects, BufferWithProperties) {
  Env env;
  ASSERT_NE(env.context, nullptr);
  cl_int err;
  const cl_mem_properties empty[] = {0};
  int init[4] = {1, 2, 3, 4};
  cl_mem m = clCreateBufferWithProperties(env.context, empty, CL_MEM_COPY_HOST_PTR, sizeof init,
                                          init, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  size_t size = 99;
  ASSERT_EQ(clGetMemObjectInfo(m, CL_MEM_PROPERTIES, 0, nullptr, &size), CL_SUCCESS);
  EXPECT_EQ(size, sizeof(cl_mem_properties));
  int back[4] = {};
  ASSERT_EQ(clEnqueueReadBuffer(env.queue, m, CL_TRUE, 0, sizeof back, back, 0, nullptr, nullptr),
            CL_SUCCESS);
  EXPECT_TRUE(std::equal(back, back + 4, init));
  clReleaseMemObject(m);

  m = clCreateBufferWithProperties(env.context, nullptr, CL_MEM_READ_WRITE, 64, nullptr, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  ASSERT_EQ(clGetMemObjectInfo(m, CL_MEM_PROPERTIES, 0, nullptr, &size), CL_SUCCESS);
  EXPECT_EQ(size, 0u);
  clReleaseMemObject(m);

  const cl_mem_properties unknown[] = {0x7777, 1, 0};
  EXPECT_EQ(
      clCreateBufferWithProperties(env.context, unknown, CL_MEM_READ_WRITE, 64, nullptr, &err),
      nullptr);
  EXPECT_EQ(err, CL_INVALID_PROPERTY);
  EXPECT_EQ(clCreateBufferWithProperties(env.context, nullptr, CL_MEM_READ_WRITE, 0, nullptr, &err),
            nullptr);
  EXPECT_EQ(err, CL_INVALID_BUFFER_SIZE);
}

TEST(ApiObjects, ContextDestructorCallbacksRunInReverseOrder) {
  amcl_test::Env env;
  ASSERT_NE(env.context, nullptr);
  cl_int err;
  cl_context c = clCreateContext(nullptr, 1, &env.device, nullptr, nullptr, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  static std::vector<int> order;
  order.clear();
  auto first = [](cl_context, void*) { order.push_back(1); };
  auto second = [](cl_context, void*) { order.push_back(2); };
  ASSERT_EQ(clSetContextDestructorCallback(c, first, nullptr), CL_SUCCESS);
  ASSERT_EQ(clSetContextDestructorCallback(c, second, nullptr), CL_SUCCESS);
  EXPECT_EQ(clSetContextDestructorCallback(c, nullptr, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clSetContextDestructorCallback(nullptr, first, nullptr), CL_INVALID_CONTEXT);
  // A buffer keeps the context alive: no callback until it is released too.
  cl_mem m = clCreateBuffer(c, CL_MEM_READ_WRITE, 64, nullptr, &err);
  ASSERT_EQ(clReleaseContext(c), CL_SUCCESS);
  EXPECT_TRUE(order.empty());
  clReleaseMemObject(m);
  EXPECT_EQ(order, (std::vector<int>{2, 1}));
}

TEST(ApiObjects, HostAndDeviceTimersAdvance) {
  Env env;
  ASSERT_NE(env.context, nullptr);
  cl_ulong host0 = 0, dev1 = 0, host1 = 0;
  ASSERT_EQ(clGetHostTimer(env.device, &host0), CL_SUCCESS);
  ASSERT_EQ(clGetDeviceAndHostTimer(env.device, &dev1, &host1), CL_SUCCESS);
  EXPECT_GE(host1, host0);
  EXPECT_GT(dev1, 0u);
  EXPECT_EQ(clGetHostTimer(env.device, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clGetDeviceAndHostTimer(nullptr, &dev1, &host1), CL_INVALID_DEVICE);
  // Event profiling stamps are on the device timer.
  cl_int err;
  cl_command_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
  cl_command_queue q = clCreateCommandQueueWithProperties(env.context, env.device, props, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  cl_event e;
  ASSERT_EQ(clEnqueueMarkerWithWaitList(q, 0, nullptr, &e), CL_SUCCESS);
  ASSERT_EQ(clFinish(q), CL_SUCCESS);
  cl_ulong queued = 0, dev2 = 0, host2 = 0;
  ASSERT_EQ(
      clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_QUEUED, sizeof queued, &queued, nullptr),
      CL_SUCCESS);
  ASSERT_EQ(clGetDeviceAndHostTimer(env.device, &dev2, &host2), CL_SUCCESS);
  EXPECT_GE(queued, dev1);
  EXPECT_LE(queued, dev2);
  clReleaseEvent(e);
  clReleaseCommandQueue(q);
}

TEST(ApiObjects, NoBuiltInKernels) {
  Env env;
  ASSERT_NE(env.context, nullptr);
  size_t size = 0;
  ASSERT_EQ(clGetDeviceInfo(env.device, CL_DEVICE_BUILT_IN_KERNELS, 0, nullptr, &size), CL_SUCCESS);
  EXPECT_EQ(size, 1u); // the empty string
  cl_int err;
  EXPECT_EQ(clCreateProgramWithBuiltInKernels(env.context, 1, &env.device, "anything", &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_VALUE);
  EXPECT_EQ(clCreateProgramWithBuiltInKernels(nullptr, 1, &env.device, "anything", &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_CONTEXT);
}

TEST(ApiObjects, UnloadCompiler) {
  Env env;
  ASSERT_NE(env.platform, nullptr);
  EXPECT_EQ(clUnloadPlatformCompiler(env.platform), CL_SUCCESS);
  // Building still works afterwards.
  cl_kernel k = env.kernel("kernel void k(global int* o) { o[0] = 1; }", "k");
  EXPECT_NE(k, nullptr);
  clReleaseKernel(k);
}

} // namespace

// Rectangular transfers: a 3x2 block of 4-byte elements written at (1,2) of an 8x4 buffer
// lands there and nowhere else; reading it back into a host block with its own pitch returns
// the same values; a region past the buffer's end is CL_INVALID_VALUE.
TEST(ApiObjects, RectangularWriteAndReadRoundTrip) {
  Env env;
  ASSERT_TRUE(env.queue);
  std::vector<int> zero(8 * 4, 0);
  cl_mem m = env.buffer(zero.size() * sizeof(int), zero.data());
  const int block[2][3] = {{1, 2, 3}, {4, 5, 6}};
  const size_t buf_origin[3] = {1 * sizeof(int), 2, 0}, host_origin[3] = {0, 0, 0};
  const size_t region[3] = {3 * sizeof(int), 2, 1};
  ASSERT_EQ(clEnqueueWriteBufferRect(env.queue, m, CL_TRUE, buf_origin, host_origin, region, 8 * sizeof(int), 0,
                                     3 * sizeof(int), 0, block, 0, nullptr, nullptr),
            CL_SUCCESS);
  std::vector<int> all(8 * 4);
  ASSERT_EQ(clEnqueueReadBuffer(env.queue, m, CL_TRUE, 0, all.size() * sizeof(int), all.data(), 0, nullptr, nullptr),
            CL_SUCCESS);
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 8; ++x) {
      const bool inside = y >= 2 && x >= 1 && x < 4;
      EXPECT_EQ(all[size_t(y * 8 + x)], inside ? block[y - 2][x - 1] : 0) << x << "," << y;
    }
  int back[2][5] = {};
  const size_t host_at[3] = {sizeof(int), 0, 0};
  ASSERT_EQ(clEnqueueReadBufferRect(env.queue, m, CL_TRUE, buf_origin, host_at, region, 8 * sizeof(int), 0,
                                    5 * sizeof(int), 0, back, 0, nullptr, nullptr),
            CL_SUCCESS);
  for (int y = 0; y < 2; ++y)
    for (int x = 0; x < 3; ++x) EXPECT_EQ(back[y][x + 1], block[y][x]);
  EXPECT_EQ(back[0][0], 0);
  const size_t far[3] = {6 * sizeof(int), 3, 0};
  EXPECT_EQ(clEnqueueReadBufferRect(env.queue, m, CL_TRUE, far, host_origin, region, 8 * sizeof(int), 0,
                                    5 * sizeof(int), 0, back, 0, nullptr, nullptr),
            CL_INVALID_VALUE);
  clReleaseMemObject(m);
}

// Transfers larger than the staging buffer go through it in alternating halves while the SDMA
// engine copies the other half: every byte must land where it belongs, at odd sizes and
// offsets, in both directions and for CL_MEM_COPY_HOST_PTR.
TEST(ApiObjects, LargeTransfersRoundTrip) {
  Env env;
  const size_t size = (9 << 20) + 123, offset = 4093;
  std::vector<uint8_t> data(size), back(size, 0);
  for (size_t i = 0; i < size; ++i) data[i] = uint8_t((i * 2654435761u) >> 13);
  cl_mem m = env.buffer(size + offset);
  ASSERT_EQ(clEnqueueWriteBuffer(env.queue, m, CL_TRUE, offset, size, data.data(), 0, nullptr,
                                 nullptr),
            CL_SUCCESS);
  ASSERT_EQ(clEnqueueReadBuffer(env.queue, m, CL_TRUE, offset, size, back.data(), 0, nullptr,
                                nullptr),
            CL_SUCCESS);
  EXPECT_TRUE(data == back) << "write/read round trip differs";
  cl_mem copied = env.buffer(size, data.data()); // CL_MEM_COPY_HOST_PTR
  std::fill(back.begin(), back.end(), 0);
  ASSERT_EQ(clEnqueueReadBuffer(env.queue, copied, CL_TRUE, 0, size, back.data(), 0, nullptr,
                                nullptr),
            CL_SUCCESS);
  EXPECT_TRUE(data == back) << "CL_MEM_COPY_HOST_PTR contents differ";
  clReleaseMemObject(copied);
  clReleaseMemObject(m);
}
