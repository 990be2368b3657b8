// Separate compilation (mirrors the Khronos CTS "compiler" suite): clCompileProgram with
// embedded headers, clLinkProgram into executables and libraries, binaries of compiled
// objects, and the errors of each step.
#include "cl_helpers.h"

using amcl_test::Env;

namespace {

const char* kHeader = "int twice(int x);\n#define OFFSET 3\n";
const char* kHelper = "int twice(int x) { return 2 * x; }\n";
const char* kKernel = R"(
#include "helpers/math.h"
kernel void apply(global int* data) {
  size_t i = get_global_id(0);
  data[i] = twice(data[i]) + OFFSET;
}
)";

cl_program source(Env& env, const char* text) {
  cl_int err;
  cl_program p = clCreateProgramWithSource(env.context, 1, &text, nullptr, &err);
  EXPECT_EQ(err, CL_SUCCESS);
  return p;
}

cl_program_binary_type binary_type(Env& env, cl_program p) {
  cl_program_binary_type t = 0;
  EXPECT_EQ(clGetProgramBuildInfo(p, env.device, CL_PROGRAM_BINARY_TYPE, sizeof t, &t, nullptr),
            CL_SUCCESS);
  return t;
}

std::string build_log(Env& env, cl_program p) {
  size_t n = 0;
  clGetProgramBuildInfo(p, env.device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &n);
  std::string log(n, '\0');
  clGetProgramBuildInfo(p, env.device, CL_PROGRAM_BUILD_LOG, n, log.data(), nullptr);
  return log;
}

// Compiles kKernel with the header embedded under the name it #includes.
cl_program compiled_kernel(Env& env) {
  cl_program header = source(env, kHeader), kernel = source(env, kKernel);
  const char* name = "helpers/math.h";
  EXPECT_EQ(clCompileProgram(kernel, 1, &env.device, "", 1, &header, &name, nullptr, nullptr),
            CL_SUCCESS)
      << build_log(env, kernel);
  clReleaseProgram(header);
  return kernel;
}

cl_program compiled_helper(Env& env) {
  cl_program helper = source(env, kHelper);
  EXPECT_EQ(clCompileProgram(helper, 0, nullptr, "", 0, nullptr, nullptr, nullptr, nullptr),
            CL_SUCCESS);
  return helper;
}

// Runs `apply` from an executable on 0..15 and checks 2x+3.
void expect_apply_works(Env& env, cl_program exe) {
  cl_int err;
  cl_kernel k = clCreateKernel(exe, "apply", &err);
  ASSERT_EQ(err, CL_SUCCESS);
  int data[16];
  for (int i = 0; i < 16; ++i) data[i] = i;
  cl_mem m = env.buffer(sizeof data, data);
  ASSERT_EQ(clSetKernelArg(k, 0, sizeof m, &m), CL_SUCCESS);
  size_t global = 16;
  ASSERT_EQ(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, &global, nullptr, 0, nullptr, nullptr),
            CL_SUCCESS);
  ASSERT_EQ(clEnqueueReadBuffer(env.queue, m, CL_TRUE, 0, sizeof data, data, 0, nullptr, nullptr),
            CL_SUCCESS);
  for (int i = 0; i < 16; ++i) EXPECT_EQ(data[i], 2 * i + 3) << i;
  clReleaseMemObject(m);
  clReleaseKernel(k);
}

TEST(CompileLink, TwoObjectsWithAnEmbeddedHeader) {
  Env env;
  ASSERT_NE(env.context, nullptr);
  cl_program kernel = compiled_kernel(env), helper = compiled_helper(env);
  EXPECT_EQ(binary_type(env, kernel),
            cl_program_binary_type(CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT));
  // A compiled object has no kernels yet.
  cl_int err;
  EXPECT_EQ(clCreateKernel(kernel, "apply", &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_PROGRAM_EXECUTABLE);
  static int notified = 0;
  notified = 0;
  auto notify = [](cl_program, void*) { ++notified; };
  cl_program inputs[] = {kernel, helper};
  cl_program exe = clLinkProgram(env.context, 1, &env.device, "", 2, inputs, notify, nullptr, &err);
  ASSERT_EQ(err, CL_SUCCESS) << (exe ? build_log(env, exe) : "");
  EXPECT_EQ(notified, 1);
  EXPECT_EQ(binary_type(env, exe), cl_program_binary_type(CL_PROGRAM_BINARY_TYPE_EXECUTABLE));
  expect_apply_works(env, exe);
  clReleaseProgram(exe);
  clReleaseProgram(kernel);
  clReleaseProgram(helper);
}

TEST(CompileLink, LibraryThenExecutable) {
  Env env;
  ASSERT_NE(env.context, nullptr);
  cl_program helper = compiled_helper(env), kernel = compiled_kernel(env);
  cl_int err;
  cl_program lib =
      clLinkProgram(env.context, 0, nullptr, "-create-library", 1, &helper, nullptr, nullptr, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  EXPECT_EQ(binary_type(env, lib), cl_program_binary_type(CL_PROGRAM_BINARY_TYPE_LIBRARY));
  cl_program inputs[] = {kernel, lib};
  cl_program exe = clLinkProgram(env.context, 0, nullptr, "-cl-fast-relaxed-math", 2, inputs,
                                 nullptr, nullptr, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  expect_apply_works(env, exe);
  clReleaseProgram(exe);
  clReleaseProgram(lib);
  clReleaseProgram(kernel);
  clReleaseProgram(helper);
}

TEST(CompileLink, CompiledObjectBinaryRoundTrips) {
  Env env;
  ASSERT_NE(env.context, nullptr);
  cl_program helper = compiled_helper(env);
  size_t size = 0;
  ASSERT_EQ(clGetProgramInfo(helper, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, nullptr),
            CL_SUCCESS);
  ASSERT_GT(size, 0u);
  std::vector<unsigned char> bin(size);
  unsigned char* ptr = bin.data();
  ASSERT_EQ(clGetProgramInfo(helper, CL_PROGRAM_BINARIES, sizeof ptr, &ptr, nullptr), CL_SUCCESS);
  const unsigned char* cptr = bin.data();
  cl_int err, status;
  cl_program again =
      clCreateProgramWithBinary(env.context, 1, &env.device, &size, &cptr, &status, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  EXPECT_EQ(binary_type(env, again),
            cl_program_binary_type(CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT));
  // One byte altered anywhere: the binary is refused before the bitcode reader sees it.
  for (size_t at : {size_t(3), size_t(20), size / 2, size - 1}) {
    std::vector<unsigned char> bad = bin;
    bad[at] ^= 0x10;
    const unsigned char* bptr = bad.data();
    cl_int bad_status = 0;
    EXPECT_EQ(clCreateProgramWithBinary(env.context, 1, &env.device, &size, &bptr, &bad_status, &err), nullptr);
    EXPECT_EQ(err, CL_INVALID_BINARY) << at;
    EXPECT_EQ(bad_status, CL_INVALID_BINARY) << at;
  }
  cl_program kernel = compiled_kernel(env);
  cl_program inputs[] = {kernel, again};
  cl_program exe = clLinkProgram(env.context, 0, nullptr, "", 2, inputs, nullptr, nullptr, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  expect_apply_works(env, exe);
  clReleaseProgram(exe);
  clReleaseProgram(kernel);
  clReleaseProgram(again);
  clReleaseProgram(helper);
}

TEST(CompileLink, UndefinedFunctionFailsTheLinkWithALog) {
  Env env;
  ASSERT_NE(env.context, nullptr);
  cl_program kernel = compiled_kernel(env); // calls twice(), which nothing defines
  cl_int err;
  cl_program exe = clLinkProgram(env.context, 0, nullptr, "", 1, &kernel, nullptr, nullptr, &err);
  EXPECT_EQ(err, CL_LINK_PROGRAM_FAILURE);
  ASSERT_NE(exe, nullptr); // returned so that the log can be read
  EXPECT_NE(build_log(env, exe).find("twice"), std::string::npos) << build_log(env, exe);
  cl_build_status st = 0;
  clGetProgramBuildInfo(exe, env.device, CL_PROGRAM_BUILD_STATUS, sizeof st, &st, nullptr);
  EXPECT_EQ(st, CL_BUILD_ERROR);
  clReleaseProgram(exe);
  clReleaseProgram(kernel);
}

// Two objects that both define a function (piglit's cl-api-link-program): the link fails with
// CL_LINK_PROGRAM_FAILURE and a log naming the symbol. LLVM's linker reports the clash as a
// diagnostic; with no handler on its context LLVM printed it and ended the process (exit 1).
TEST(CompileLink, ConflictingDefinitionsFailTheLinkWithALog) {
  Env env;
  ASSERT_NE(env.context, nullptr);
  cl_program first = compiled_helper(env), second = compiled_helper(env);
  cl_program inputs[] = {first, second};
  cl_int err;
  cl_program exe = clLinkProgram(env.context, 0, nullptr, "", 2, inputs, nullptr, nullptr, &err);
  EXPECT_EQ(err, CL_LINK_PROGRAM_FAILURE);
  ASSERT_NE(exe, nullptr);
  EXPECT_NE(build_log(env, exe).find("twice"), std::string::npos) << build_log(env, exe);
  clReleaseProgram(exe);
  // The same as a library link.
  exe =
      clLinkProgram(env.context, 0, nullptr, "-create-library", 2, inputs, nullptr, nullptr, &err);
  EXPECT_EQ(err, CL_LINK_PROGRAM_FAILURE);
  if (exe) clReleaseProgram(exe);
  clReleaseProgram(first);
  clReleaseProgram(second);
}

// Objects compiled with -mwavefrontsize64 link into a wave64 executable (the link itself takes
// no wave option: the objects carry it), whose kernel has sub-groups of 64; an object of the
// other wave size is refused with a log that says so.
TEST(CompileLink, Wave64ObjectsLinkAndMixedWaveSizesAreRefused) {
  Env env;
  ASSERT_NE(env.context, nullptr);
  const char* text =
      "kernel void ids(global uint* o) { o[get_global_id(0)] = get_sub_group_size() |"
      " get_sub_group_local_id() << 8; }";
  const char* helper_text = "int unused_helper(int x) { return x + 1; }";
  cl_program obj = source(env, text), helper32 = source(env, helper_text);
  ASSERT_EQ(clCompileProgram(obj, 0, nullptr, "-cl-std=CL3.0 -mwavefrontsize64", 0, nullptr,
                             nullptr, nullptr, nullptr),
            CL_SUCCESS)
      << build_log(env, obj);
  ASSERT_EQ(clCompileProgram(helper32, 0, nullptr, "-cl-std=CL3.0", 0, nullptr, nullptr, nullptr,
                             nullptr),
            CL_SUCCESS);
  cl_int err;
  cl_program exe = clLinkProgram(env.context, 0, nullptr, "", 1, &obj, nullptr, nullptr, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  cl_kernel k = clCreateKernel(exe, "ids", &err);
  ASSERT_EQ(err, CL_SUCCESS);
  const size_t global = 128, local = 128;
  size_t wave = 0;
  EXPECT_EQ(clGetKernelSubGroupInfo(k, env.device, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
                                    sizeof local, &local, sizeof wave, &wave, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(wave, 64u);
  cl_mem m = env.buffer(global * 4);
  clSetKernelArg(k, 0, sizeof m, &m);
  ASSERT_EQ(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, &global, &local, 0, nullptr, nullptr),
            CL_SUCCESS);
  cl_uint out[128];
  ASSERT_EQ(clEnqueueReadBuffer(env.queue, m, CL_TRUE, 0, sizeof out, out, 0, nullptr, nullptr),
            CL_SUCCESS);
  for (cl_uint i = 0; i < 128; ++i) EXPECT_EQ(out[i], 64u | (i % 64) << 8) << i;
  clReleaseMemObject(m);
  clReleaseKernel(k);
  clReleaseProgram(exe);
  const cl_program both[] = {obj, helper32};
  cl_program mixed = clLinkProgram(env.context, 0, nullptr, "", 2, both, nullptr, nullptr, &err);
  EXPECT_EQ(err, CL_LINK_PROGRAM_FAILURE);
  if (mixed) {
    EXPECT_NE(build_log(env, mixed).find("wave size"), std::string::npos) << build_log(env, mixed);
    clReleaseProgram(mixed);
  }
  clReleaseProgram(helper32);
  clReleaseProgram(obj);
}

// A link option changes the executable: 1e-20 squared (a single-precision denormal) is kept
// by a plain link and flushed to zero when the link says -cl-denorms-are-zero.
TEST(CompileLink, LinkMathOptionsReachTheExecutable) {
  Env env;
  ASSERT_NE(env.context, nullptr);
  for (const char* opt : {"", "-cl-denorms-are-zero"}) {
    cl_program obj = source(env, "kernel void sq(global float* p) { p[0] = p[0] * p[1]; }");
    ASSERT_EQ(clCompileProgram(obj, 0, nullptr, "", 0, nullptr, nullptr, nullptr, nullptr), CL_SUCCESS);
    cl_int err;
    cl_program exe = clLinkProgram(env.context, 0, nullptr, opt, 1, &obj, nullptr, nullptr, &err);
    ASSERT_EQ(err, CL_SUCCESS) << opt;
    cl_kernel k = clCreateKernel(exe, "sq", &err);
    float v[2] = {1e-20f, 1e-20f};
    cl_mem m = env.buffer(sizeof v, v);
    clSetKernelArg(k, 0, sizeof m, &m);
    size_t one = 1;
    ASSERT_EQ(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, &one, nullptr, 0, nullptr, nullptr), CL_SUCCESS);
    clEnqueueReadBuffer(env.queue, m, CL_TRUE, 0, sizeof v, v, 0, nullptr, nullptr);
    if (*opt) EXPECT_EQ(v[0], 0.0f);
    else EXPECT_EQ(v[0], 1e-20f * 1e-20f);
    clReleaseMemObject(m);
    clReleaseKernel(k);
    clReleaseProgram(exe);
    clReleaseProgram(obj);
  }
}

TEST(CompileLink, Errors) {
  Env env;
  ASSERT_NE(env.context, nullptr);
  cl_program bad = source(env, "kernel void k(global int* p) { p[0] = undeclared; }");
  EXPECT_EQ(clCompileProgram(bad, 0, nullptr, "", 0, nullptr, nullptr, nullptr, nullptr),
            CL_COMPILE_PROGRAM_FAILURE);
  EXPECT_NE(build_log(env, bad).find("undeclared"), std::string::npos);
  EXPECT_EQ(
      clCompileProgram(bad, 0, nullptr, "-no-such-option", 0, nullptr, nullptr, nullptr, nullptr),
      CL_INVALID_COMPILER_OPTIONS);
  // Header arguments must come together.
  const char* name = "x.h";
  EXPECT_EQ(clCompileProgram(bad, 0, nullptr, "", 1, nullptr, &name, nullptr, nullptr),
            CL_INVALID_VALUE);
  cl_program helper = compiled_helper(env);
  cl_int err;
  EXPECT_EQ(
      clLinkProgram(env.context, 0, nullptr, "-no-such-option", 1, &helper, nullptr, nullptr, &err),
      nullptr);
  EXPECT_EQ(err, CL_INVALID_LINKER_OPTIONS);
  // -enable-link-options belongs to libraries only (OpenCL 3.0 §5.8.7).
  EXPECT_EQ(clLinkProgram(env.context, 0, nullptr, "-enable-link-options", 1, &helper, nullptr, nullptr, &err),
            nullptr);
  EXPECT_EQ(err, CL_INVALID_LINKER_OPTIONS);
  cl_program lib = clLinkProgram(env.context, 0, nullptr, "-create-library -enable-link-options", 1, &helper,
                                 nullptr, nullptr, &err);
  EXPECT_EQ(err, CL_SUCCESS);
  if (lib) clReleaseProgram(lib);
  EXPECT_EQ(clLinkProgram(env.context, 0, nullptr, "", 0, nullptr, nullptr, nullptr, &err),
            nullptr);
  EXPECT_EQ(err, CL_INVALID_VALUE);
  // Only compiled objects and libraries link; a program never compiled does not.
  cl_program raw = source(env, kHelper);
  EXPECT_EQ(clLinkProgram(env.context, 0, nullptr, "", 1, &raw, nullptr, nullptr, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_OPERATION);
  // An executable's binary cannot be compiled again.
  cl_program exe = clLinkProgram(env.context, 0, nullptr, "", 1, &helper, nullptr, nullptr, &err);
  ASSERT_EQ(err, CL_SUCCESS); // no kernels, nothing undefined: an empty executable
  EXPECT_EQ(clCompileProgram(exe, 0, nullptr, "", 0, nullptr, nullptr, nullptr, nullptr),
            CL_INVALID_OPERATION);
  clReleaseProgram(exe);
  clReleaseProgram(raw);
  clReleaseProgram(helper);
  clReleaseProgram(bad);
}

} // namespace

// A program's code memory freed and given to the next program: each run must execute the
// program just loaded, from source and from a binary alike, never what the instruction cache
// kept of the program before (the driver invalidates it after each load).
TEST(CompileLink, ProgramsLoadedAtAFreedProgramsAddressRunTheirOwnCode) {
  Env env;
  if (!env.device) GTEST_SKIP();
  const char* kStore[] = {"kernel void store(global int* o) { o[0] = 11; }",
                          "kernel void store(global int* o) { o[0] = 22; }"};
  std::vector<unsigned char> binary[2];
  for (int i = 0; i < 2; ++i) {
    cl_program p = env.program(kStore[i]);
    ASSERT_NE(p, nullptr);
    size_t size = 0;
    ASSERT_EQ(clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, nullptr),
              CL_SUCCESS);
    binary[i].resize(size);
    unsigned char* out = binary[i].data();
    ASSERT_EQ(clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof out, &out, nullptr), CL_SUCCESS);
    clReleaseProgram(p);
  }
  cl_mem buf = env.buffer(4);
  auto run = [&](cl_program p) {
    cl_int err;
    cl_kernel k = clCreateKernel(p, "store", &err);
    EXPECT_EQ(err, CL_SUCCESS);
    clSetKernelArg(k, 0, sizeof buf, &buf);
    const size_t one = 1;
    EXPECT_EQ(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, &one, &one, 0, nullptr, nullptr),
              CL_SUCCESS);
    cl_int v = 0;
    EXPECT_EQ(clEnqueueReadBuffer(env.queue, buf, CL_TRUE, 0, 4, &v, 0, nullptr, nullptr),
              CL_SUCCESS);
    clReleaseKernel(k);
    clReleaseProgram(p);
    return v;
  };
  for (int round = 0; round < 2; ++round)
    for (int i = 0; i < 2; ++i) {
      const unsigned char* bytes = binary[i].data();
      const size_t size = binary[i].size();
      cl_int err;
      cl_program p =
          clCreateProgramWithBinary(env.context, 1, &env.device, &size, &bytes, nullptr, &err);
      ASSERT_EQ(err, CL_SUCCESS);
      ASSERT_EQ(clBuildProgram(p, 1, &env.device, "", nullptr, nullptr), CL_SUCCESS);
      EXPECT_EQ(run(p), i == 0 ? 11 : 22) << "binary " << i << ", round " << round;
      EXPECT_EQ(run(env.program(kStore[i])), i == 0 ? 11 : 22)
          << "source " << i << ", round " << round;
    }
  clReleaseMemObject(buf);
}
