// printf from kernels through the ICD loader (OpenCL C 3.0 §6.15.14): the text reaches the
// host's stdout once the kernel has finished (before clFinish returns), every work-item's
// line arrives whole, printf returns 0, and a kernel that prints more than
// CL_DEVICE_PRINTF_BUFFER_SIZE loses only the overflow (printf returns -1 there).
#include "cl_helpers.h"

#include <algorithm>
#include <sstream>

using amcl_test::Env;
using amcl_test::device_info;

namespace {

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

// Runs `name` over `items` work-items with one int buffer argument, capturing stdout.
std::string run_capturing(Env& env, const char* src, const char* name, size_t items,
                          std::vector<int>& out) {
  cl_kernel k = env.kernel(src, name);
  cl_mem m = env.buffer(items * sizeof(int));
  clSetKernelArg(k, 0, sizeof m, &m);
  testing::internal::CaptureStdout();
  EXPECT_EQ(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, &items, nullptr, 0, nullptr, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(clFinish(env.queue), CL_SUCCESS);
  const std::string text = testing::internal::GetCapturedStdout();
  out.resize(items);
  clEnqueueReadBuffer(env.queue, m, CL_TRUE, 0, items * sizeof(int), out.data(), 0, nullptr,
                      nullptr);
  clReleaseMemObject(m);
  clReleaseKernel(k);
  return text;
}

} // namespace

TEST(Printf, EveryWorkItemPrintsItsLine) {
  Env env;
  ASSERT_TRUE(env.queue);
  const char* src = R"(
kernel void hello(global int* ret) {
  int i = get_global_id(0);
  ret[i] = printf("item %d of %u: %.1f %s %v2d 0x%x:%c\n", i, (uint)get_global_size(0), i * 0.5f, "ok",
                  (int2)(i, -i), 255, 'a' + i % 26);
}
)";
  std::vector<int> ret;
  const std::string text = run_capturing(env, src, "hello", 100, ret);
  std::vector<std::string> got = lines(text);
  std::sort(got.begin(), got.end());
  std::vector<std::string> want;
  for (int i = 0; i < 100; ++i) {
    char buf[128];
    std::snprintf(buf, sizeof buf, "item %d of 100: %.1f ok %d,%d 0xff:%c", i, i * 0.5f, i, -i,
                  'a' + i % 26);
    want.push_back(buf);
  }
  std::sort(want.begin(), want.end());
  EXPECT_EQ(got, want);
  for (int r : ret) EXPECT_EQ(r, 0);
}

TEST(Printf, OverflowDropsRecordsNotTheKernel) {
  Env env;
  ASSERT_TRUE(env.queue);
  const auto buffer = device_info<size_t>(env.device, CL_DEVICE_PRINTF_BUFFER_SIZE);
  ASSERT_GE(buffer, size_t(1) << 20); // the full profile's minimum
  // Each record is the id plus a 64-byte string: 68 bytes. 32768 of them do not fit.
  const char* src = R"(
kernel void flood(global int* ret) {
  ret[get_global_id(0)] = printf("%s\n", "0123456789012345678901234567890123456789012345678901234567890");
}
)";
  std::vector<int> ret;
  const std::string text = run_capturing(env, src, "flood", 32768, ret);
  const size_t printed = size_t(std::count(text.begin(), text.end(), '\n'));
  const size_t ok = size_t(std::count(ret.begin(), ret.end(), 0));
  const size_t dropped = size_t(std::count(ret.begin(), ret.end(), -1));
  EXPECT_EQ(ok + dropped, ret.size());
  EXPECT_EQ(printed, ok); // exactly the calls that returned 0 were printed
  EXPECT_GT(dropped, 0u);
  EXPECT_GE(printed * 68, buffer - 8 - 68); // the buffer was used up to its last whole record
  // The queue goes on, and the next kernel prints again.
  const std::string after = run_capturing(
      env, "kernel void one(global int* r) { r[0] = printf(\"again\\n\"); }", "one", 1, ret);
  EXPECT_EQ(after, "again\n");
}

// More arguments than the format converts (the CTS printf suite's printf("", "foo")): C ignores
// the extra ones; the kernel builds (its code object lists sizes for converted arguments only)
// and prints what the format says.
TEST(Printf, ExtraArgumentsAreIgnored) {
  Env env;
  ASSERT_TRUE(env.queue);
  const char* src = R"(
kernel void extra(global int* ret) {
  ret[0] = printf("", "foo") | printf("only %d\n", 7, 8, "bar");
}
)";
  std::vector<int> ret;
  const std::string text = run_capturing(env, src, "extra", 1, ret);
  EXPECT_EQ(text, "only 7\n");
  EXPECT_EQ(ret[0], 0);
}

// A string argument's record is sized past the string's last dword, which the kernel does not
// write: what an earlier kernel printed there must not show through (the CTS printf suite's
// printf("%s", "\"%%\"") after a longer string).
TEST(Printf, StringsShowNothingOfEarlierRecords) {
  Env env;
  ASSERT_TRUE(env.queue);
  std::vector<int> ret;
  EXPECT_EQ(run_capturing(
                env,
                R"(kernel void a(global int* r) { r[0] = printf("%s\n", "foo%%bar%%bar%%foo"); })",
                "a", 1, ret),
            "foo%%bar%%bar%%foo\n");
  EXPECT_EQ(run_capturing(env,
                          R"(kernel void b(global int* r) { r[0] = printf("%s\n", "\"%%\""); })",
                          "b", 1, ret),
            "\"%%\"\n");
}
