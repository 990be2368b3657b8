// Every build option of OpenCL 3.0 §5.8.6 through clBuildProgram: each is accepted and the
// kernel built with it computes the right answer; -D/-I reach the preprocessor, -w and -Werror
// change what a warning does, unknown options are CL_INVALID_BUILD_OPTIONS.
#include "cl_helpers.h"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>

using amcl_test::Env;

namespace {

const char* kKernel = R"(
#ifndef SCALE
#define SCALE 2
#endif
kernel void axpy(global float* y, global const float* x) {
  size_t i = get_global_id(0);
  y[i] = mad((float)SCALE, x[i], y[i]) / 1.0f + sqrt(4.0f) - 2.0f;
}
)";

// y = SCALE * x + y over 256 items, checked exactly (all values are small integers).
void expect_axpy(Env& env, cl_program p, float scale) {
  cl_kernel k = clCreateKernel(p, "axpy", nullptr);
  std::vector<float> x(256), y(256);
  for (int i = 0; i < 256; ++i) x[i] = float(i), y[i] = float(3 * i);
  cl_mem my = env.buffer(sizeof(float) * 256, y.data()),
         mx = env.buffer(sizeof(float) * 256, x.data());
  clSetKernelArg(k, 0, sizeof my, &my);
  clSetKernelArg(k, 1, sizeof mx, &mx);
  size_t n = 256;
  ASSERT_EQ(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, &n, nullptr, 0, nullptr, nullptr),
            CL_SUCCESS);
  clEnqueueReadBuffer(env.queue, my, CL_TRUE, 0, sizeof(float) * 256, y.data(), 0, nullptr,
                      nullptr);
  for (int i = 0; i < 256; ++i) ASSERT_EQ(y[i], scale * float(i) + float(3 * i)) << i;
  clReleaseMemObject(mx);
  clReleaseMemObject(my);
  clReleaseKernel(k);
}

class BuildOption : public testing::TestWithParam<const char*> {};

TEST_P(BuildOption, IsAcceptedAndTheKernelIsRight) {
  Env env;
  ASSERT_TRUE(env.queue);
  std::string log;
  cl_program p = nullptr;
  ASSERT_EQ(env.try_build(kKernel, GetParam(), &log, &p), CL_SUCCESS) << GetParam() << ": " << log;
  size_t n = 0;
  clGetProgramBuildInfo(p, env.device, CL_PROGRAM_BUILD_OPTIONS, 0, nullptr, &n);
  std::string stored(n, '\0');
  clGetProgramBuildInfo(p, env.device, CL_PROGRAM_BUILD_OPTIONS, n, stored.data(), nullptr);
  EXPECT_EQ(stored.c_str(), std::string(GetParam())); // the options as given
  expect_axpy(env, p, 2.0f);
  clReleaseProgram(p);
}

INSTANTIATE_TEST_SUITE_P(
    Spec, BuildOption,
    testing::Values("", "-w", "-Werror", "-cl-opt-disable", "-cl-mad-enable", "-cl-no-signed-zeros",
                    "-cl-unsafe-math-optimizations", "-cl-finite-math-only",
                    "-cl-fast-relaxed-math", "-cl-denorms-are-zero",
                    "-cl-fp32-correctly-rounded-divide-sqrt", "-cl-kernel-arg-info",
                    "-cl-single-precision-constant", "-cl-uniform-work-group-size",
                    "-cl-no-subgroup-ifp", "-g", "-cl-std=CL1.1", "-cl-std=CL1.2", "-cl-std=CL3.0",
                    "-mwavefrontsize64", "-cl-std=CL3.0 -cl-mad-enable -cl-fast-relaxed-math -g -w",
                    // OpenCL 1.0's option, deprecated since 1.1; piglit's
                    // optimization-options-cl10 gives it with the others.
                    "-cl-strict-aliasing",
                    "-cl-std=CL1.0 -cl-opt-disable -cl-strict-aliasing -cl-mad-enable "
                    "-cl-finite-math-only -cl-no-signed-zeros -cl-unsafe-math-optimizations "
                    "-cl-fast-relaxed-math"));

TEST(BuildOptions, DefineAndIncludeReachThePreprocessor) {
  Env env;
  ASSERT_TRUE(env.queue);
  cl_program p = nullptr;
  std::string log;
  ASSERT_EQ(env.try_build(kKernel, "-DSCALE=5", &log, &p), CL_SUCCESS) << log;
  expect_axpy(env, p, 5.0f);
  clReleaseProgram(p);
  ASSERT_EQ(env.try_build(kKernel, "-D SCALE=7", &log, &p), CL_SUCCESS) << log;
  expect_axpy(env, p, 7.0f);
  clReleaseProgram(p);

  const auto dir =
      std::filesystem::temp_directory_path() / ("amcl-include-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "scale.h") << "#define SCALE 9\n";
  const std::string src = std::string("#include \"scale.h\"\n") + kKernel;
  for (const std::string& opt : {"-I" + dir.string(), "-I " + dir.string()}) {
    ASSERT_EQ(env.try_build(src, opt, &log, &p), CL_SUCCESS) << opt << ": " << log;
    expect_axpy(env, p, 9.0f);
    clReleaseProgram(p);
  }
  std::filesystem::remove_all(dir);
}

// Options are split as a shell splits them: quotes group a value and are removed. darktable
// 4.2 builds every program with -I"<kernel directory>" (and failed on "'common.h' file not
// found" before), and a directory or a macro value with spaces needs the quotes.
TEST(BuildOptions, QuotedValuesKeepTheirSpacesAndLoseTheirQuotes) {
  Env env;
  ASSERT_TRUE(env.queue);
  const auto dir =
      std::filesystem::temp_directory_path() / ("amcl include dir " + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "scale.h") << "#ifndef SCALE\n#define SCALE 9\n#endif\n";
  const std::string src = std::string("#include \"scale.h\"\n") + kKernel;
  const std::pair<std::string, float> cases[] = {
      {"-w -cl-fast-relaxed-math  -DAMD=1 -I\"" + dir.string() + "\"", 9.0f}, // darktable's
      {"-I \"" + dir.string() + "\"", 9.0f},
      {"'-I" + dir.string() + "'", 9.0f},
      {"-I\"" + dir.string() + "\" -D \"SCALE=(3 + 1)\"", 4.0f},
      {"-I\"" + dir.string() + "\" -DSCALE='2 * 3'", 6.0f},
  };
  for (const auto& [opt, scale] : cases) {
    cl_program p = nullptr;
    std::string log;
    ASSERT_EQ(env.try_build(src, opt, &log, &p), CL_SUCCESS) << opt << ": " << log;
    expect_axpy(env, p, scale);
    clReleaseProgram(p);
  }
  std::filesystem::remove_all(dir);
}

TEST(BuildOptions, WarningsFollowWAndWerror) {
  Env env;
  ASSERT_TRUE(env.queue);
  const char* warns =
      "kernel void k(global int* p) { int unused_but_set; p[0] = 1; return; p[1] = 2; }\n"
      "#warning this is a warning\n";
  std::string log;
  EXPECT_EQ(env.try_build(warns, "", &log), CL_SUCCESS);
  EXPECT_NE(log.find("this is a warning"), std::string::npos) << log;
  EXPECT_EQ(env.try_build(warns, "-w", &log), CL_SUCCESS);
  EXPECT_EQ(log.find("warning"), std::string::npos) << log;
  EXPECT_EQ(env.try_build(warns, "-Werror", &log), CL_BUILD_PROGRAM_FAILURE);
  EXPECT_NE(log.find("error"), std::string::npos) << log;
}

// What clang 22 made errors by default but other clang-based OpenCL compilers (PoCL, ROCm)
// warn about builds with the warning in the log; -Werror makes each an error again and -w
// silences it.
TEST(BuildOptions, DiagnosticsOtherCompilersWarnAboutBuildWithAWarning) {
  Env env;
  ASSERT_TRUE(env.queue);
  const std::pair<const char*, const char*> cases[] = {
      {"kernel void k(global float* out) { global float2* a = (global float2*)out; global float4* "
       "b = a;"
       " b[0] = (float4)(1.0f); }",
       "incompatible-pointer-types"},
      {"kernel void k(global int* out) { int v = out; out[1] = v; }", "int-conversion"},
      {"int f(int x) { if (x) return; return 1; } kernel void k(global int* out) { out[0] = f(0); "
       "}",
       "return-mismatch"},
      {"kernel void k(global int* out) { const c = 3; out[0] = c; }", "implicit-int"},
  };
  for (const auto& [src, group] : cases) {
    std::string log;
    EXPECT_EQ(env.try_build(src, "", &log), CL_SUCCESS) << group << ": " << log;
    EXPECT_NE(log.find(std::string("warning: ")), std::string::npos) << group << ": " << log;
    EXPECT_NE(log.find(std::string("[-W") + group + "]"), std::string::npos) << log;
    EXPECT_EQ(env.try_build(src, "-Werror", &log), CL_BUILD_PROGRAM_FAILURE) << group;
    EXPECT_NE(log.find(std::string("error: ")), std::string::npos) << group << ": " << log;
    EXPECT_EQ(env.try_build(src, "-w", &log), CL_SUCCESS) << group << ": " << log;
    EXPECT_EQ(log.find("warning"), std::string::npos) << group << ": " << log;
  }
  // Implicit function declarations were never OpenCL C: still an error.
  std::string log;
  EXPECT_EQ(
      env.try_build("kernel void k(global int* out) { out[0] = undeclared_fn(1); }", "", &log),
      CL_BUILD_PROGRAM_FAILURE);
}

// 1e-20 squared is 1e-40, a single-precision denormal: kept by default, flushed to zero with
// -cl-denorms-are-zero (the kernel's FLOAT_MODE says so and the shader core obeys it).
TEST(BuildOptions, DenormsAreZeroFlushesSinglePrecisionDenormals) {
  Env env;
  ASSERT_TRUE(env.queue);
  const char* src = "kernel void sq(global float* p) { p[0] = p[0] * p[1]; }";
  for (const char* opt : {"", "-cl-denorms-are-zero"}) {
    cl_program p = nullptr;
    std::string log;
    ASSERT_EQ(env.try_build(src, opt, &log, &p), CL_SUCCESS) << log;
    cl_kernel k = clCreateKernel(p, "sq", nullptr);
    float v[2] = {1e-20f, 1e-20f};
    cl_mem m = env.buffer(sizeof v, v);
    clSetKernelArg(k, 0, sizeof m, &m);
    size_t one = 1;
    ASSERT_EQ(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, &one, nullptr, 0, nullptr, nullptr),
              CL_SUCCESS);
    clEnqueueReadBuffer(env.queue, m, CL_TRUE, 0, sizeof v, v, 0, nullptr, nullptr);
    if (*opt)
      EXPECT_EQ(v[0], 0.0f) << opt;
    else
      EXPECT_EQ(v[0], 1e-20f * 1e-20f);
    clReleaseMemObject(m);
    clReleaseKernel(k);
    clReleaseProgram(p);
  }
}

// -cl-fp32-correctly-rounded-divide-sqrt: x / y and sqrt(x) exactly as the host's IEEE
// operations round them, also where v_div_scale has to scale operands 2^64 apart (and
// v_div_fmas to scale the quotient back, up or down).
TEST(BuildOptions, CorrectlyRoundedDivideAndSqrtAreCorrectlyRounded) {
  Env env;
  ASSERT_TRUE(env.queue);
  const char* src =
      "kernel void q(global float* out, global const float* x, global const float* y) {"
      "  size_t i = get_global_id(0); out[2 * i] = x[i] / y[i]; out[2 * i + 1] = sqrt(x[i]); }";
  cl_program p = nullptr;
  std::string log;
  ASSERT_EQ(env.try_build(src, "-cl-fp32-correctly-rounded-divide-sqrt", &log, &p), CL_SUCCESS)
      << log;
  std::vector<float> x, y;
  uint32_t seed = 12345;
  auto next = [&] { return seed = seed * 1664525u + 1013904223u; };
  for (int i = 0; i < 512; ++i) {
    // Mantissas at random, exponents spread so that some quotients need the scaling.
    const float m = 1.0f + float(next() >> 8) / 16777216.0f,
                n = 1.0f + float(next() >> 8) / 16777216.0f;
    const int ex = int(next() % 200) - 100, ey = int(next() % 200) - 100;
    x.push_back(std::ldexp(m, ex));
    y.push_back(std::ldexp(n, ey));
  }
  for (float big : {1e30f, 3e37f}) x.push_back(big), y.push_back(1e-10f);    // huge quotients
  for (float tiny : {1e-30f, 3e-37f}) x.push_back(tiny), y.push_back(1e10f); // tiny ones
  const size_t count = x.size();
  std::vector<float> out(2 * count);
  cl_mem mo = env.buffer(out.size() * 4), mx = env.buffer(count * 4, x.data()),
         my = env.buffer(count * 4, y.data());
  cl_kernel k = clCreateKernel(p, "q", nullptr);
  clSetKernelArg(k, 0, sizeof mo, &mo);
  clSetKernelArg(k, 1, sizeof mx, &mx);
  clSetKernelArg(k, 2, sizeof my, &my);
  ASSERT_EQ(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, &count, nullptr, 0, nullptr, nullptr),
            CL_SUCCESS);
  ASSERT_EQ(clEnqueueReadBuffer(env.queue, mo, CL_TRUE, 0, out.size() * 4, out.data(), 0, nullptr,
                                nullptr),
            CL_SUCCESS);
  size_t bad = 0;
  for (size_t i = 0; i < count; ++i) {
    if (out[2 * i] != x[i] / y[i] && ++bad <= 5)
      ADD_FAILURE() << x[i] << " / " << y[i] << ": got " << out[2 * i] << ", want " << x[i] / y[i];
    if (out[2 * i + 1] != std::sqrt(x[i]) && ++bad <= 5)
      ADD_FAILURE() << "sqrt(" << x[i] << "): got " << out[2 * i + 1] << ", want "
                    << std::sqrt(x[i]);
  }
  EXPECT_EQ(bad, 0u);
  clReleaseMemObject(mo);
  clReleaseMemObject(mx);
  clReleaseMemObject(my);
  clReleaseKernel(k);
  clReleaseProgram(p);
}

// clang 22 crashes on this malformed source (Sema::BuildAsTypeExpr): the build fails with a
// log that says so, and the application lives on to build the next program.
TEST(BuildOptions, ACompilerCrashFailsTheBuildNotTheProcess) {
#if defined(__SANITIZE_THREAD__)
  GTEST_SKIP() << "ThreadSanitizer does not follow LLVM's longjmp out of its crash signal handler";
#endif
  Env env;
  ASSERT_TRUE(env.queue);
  std::string log;
  EXPECT_EQ(
      env.try_build(
          "kernel void k(global uint* out) { float2 x = 0; out[0] = as_uint(dot 200.0f), x)); }",
          "", &log),
      CL_BUILD_PROGRAM_FAILURE);
  EXPECT_NE(log.find("internal compiler error"), std::string::npos) << log;
  cl_program p = nullptr;
  ASSERT_EQ(env.try_build(kKernel, "", &log, &p), CL_SUCCESS) << log;
  expect_axpy(env, p, 2.0f);
  clReleaseProgram(p);
}

TEST(BuildOptions, UnknownOrIncompleteOptionsAreInvalid) {
  Env env;
  ASSERT_TRUE(env.queue);
  for (const char* bad : {"-cl-no-such-option", "--help", "-D", "-I", "-cl-std=CL4.0", "-O3"})
    EXPECT_EQ(env.try_build(kKernel, bad), CL_INVALID_BUILD_OPTIONS) << bad;
}

} // namespace
