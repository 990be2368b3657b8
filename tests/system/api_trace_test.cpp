// AMCL_API_TRACE: with the variable naming a file when amcl loads, each call through the ICD
// loader leaves one line there with its arguments (strings quoted, flags in hex, work sizes as
// lists) and its result by name, errors included where errcode_ret is null.
#include "cl_helpers.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace {

std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The trace line of the n-th call (from 0) to `function`, or "" when there is none.
std::string line_of(const std::string& trace, const std::string& function, int n = 0) {
  std::istringstream in(trace);
  std::string line;
  while (std::getline(in, line))
    if (line.find("] " + function + "(") != std::string::npos && n-- == 0) return line;
  return "";
}

// One test, one process: amcl reads the variable when the loader first loads it, before any
// other OpenCL call this program makes.
TEST(ApiTrace, EachCallLeavesALineWithItsArgumentsAndResult) {
  const auto path =
      std::filesystem::temp_directory_path() / ("amcl-api-trace-" + std::to_string(getpid()));
  std::filesystem::remove(path);
  ASSERT_EQ(setenv("AMCL_API_TRACE", path.c_str(), 1), 0);

  amcl_test::Env env;
  ASSERT_TRUE(env.queue);
  // An error through a null errcode_ret is still named.
  EXPECT_EQ(clCreateBuffer(env.context, CL_MEM_READ_WRITE, 0, nullptr, nullptr), nullptr);
  // A failing build with quoted options, then a working one and a 2-D launch.
  const char* bad = "kernel void k(global int* p) { p[0] = undeclared; }";
  cl_program p = clCreateProgramWithSource(env.context, 1, &bad, nullptr, nullptr);
  EXPECT_EQ(clBuildProgram(p, 0, nullptr, "-DX=1 -I\"/no such dir\"", nullptr, nullptr),
            CL_BUILD_PROGRAM_FAILURE);
  clReleaseProgram(p);
  const char* good = "kernel void k(global int* p) { p[get_global_id(1) * 64 + get_global_id(0)] "
                     "= 7; }";
  p = clCreateProgramWithSource(env.context, 1, &good, nullptr, nullptr);
  ASSERT_EQ(clBuildProgram(p, 0, nullptr, "", nullptr, nullptr), CL_SUCCESS);
  cl_kernel k = clCreateKernel(p, "k", nullptr);
  cl_mem buf =
      clCreateBuffer(env.context, CL_MEM_WRITE_ONLY, 64 * 2 * sizeof(int), nullptr, nullptr);
  clSetKernelArg(k, 0, sizeof buf, &buf);
  const size_t global[2] = {64, 2};
  ASSERT_EQ(clEnqueueNDRangeKernel(env.queue, k, 2, nullptr, global, nullptr, 0, nullptr, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(clFinish(env.queue), CL_SUCCESS);
  // A creator whose cl_icd.h typedef has no parameter names: its error is still caught.
  const cl_buffer_region past_the_end = {0, 4096};
  EXPECT_EQ(clCreateSubBuffer(buf, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &past_the_end,
                              nullptr),
            nullptr);
  clReleaseMemObject(buf);
  clReleaseKernel(k);
  clReleaseProgram(p);

  const std::string trace = read_file(path);
  std::filesystem::remove(path);
  const std::string zero_buffer = line_of(trace, "clCreateBuffer");
  EXPECT_NE(zero_buffer.find("flags=0x1, size=0, host_ptr=NULL) = NULL CL_INVALID_BUFFER_SIZE"),
            std::string::npos)
      << zero_buffer;
  const std::string failed = line_of(trace, "clBuildProgram");
  EXPECT_NE(failed.find("options=\"-DX=1 -I\"/no such dir\"\""), std::string::npos) << failed;
  EXPECT_NE(failed.find(") = CL_BUILD_PROGRAM_FAILURE ("), std::string::npos) << failed;
  EXPECT_NE(line_of(trace, "clBuildProgram", 1).find(") = CL_SUCCESS ("), std::string::npos);
  const std::string launch = line_of(trace, "clEnqueueNDRangeKernel");
  EXPECT_NE(launch.find("work_dim=2, global_work_offset=NULL, global_work_size={64,2}, "
                        "local_work_size=NULL"),
            std::string::npos)
      << launch;
  EXPECT_NE(launch.find(") = CL_SUCCESS ("), std::string::npos) << launch;
  const std::string sub = line_of(trace, "clCreateSubBuffer");
  EXPECT_NE(sub.find("(buffer=0x"), std::string::npos) << sub;
  EXPECT_NE(sub.find("buffer_create_type=0x1220"), std::string::npos) << sub;
  EXPECT_NE(sub.find(") = NULL CL_INVALID_VALUE ("), std::string::npos) << sub;
  // The context's callback is shown as set, and every line ends with its time.
  EXPECT_NE(line_of(trace, "clCreateContext").find("pfn_notify=<callback>"), std::string::npos);
  EXPECT_NE(line_of(trace, "clFinish").find(" us)"), std::string::npos);
}

} // namespace
