// The API call fuzzer (fuzz/api_call_sequence.cpp) as a bounded gtest loop through the ICD
// loader, then a check that the queue still runs a kernel. AMCL_FUZZ_SECONDS (default 10)
// bounds the run; AMCL_FUZZ_SEED picks another sequence. fuzz/api_fuzzer.cpp is the libFuzzer
// target over the same calls.
#include "cl_helpers.h"
#include "fuzz/api_call_sequence.h"
#include "fuzz/budget.h"

#include <chrono>

using amcl_test::Env;

TEST(ApiFuzz, RandomCallsNeverCrash) {
  Env env;
  ASSERT_TRUE(env.queue);
  const auto [seconds, seed] = amcl_fuzz::Budget::from_env();
  amcl_fuzz::SeededChoices choices(seed);
  amcl_fuzz::ApiCallSequence f({env.context, env.device, env.queue}, choices);
  const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (std::chrono::steady_clock::now() < end && f.failures().empty()) f.step();
  f.release_all();
  for (const std::string& failure : f.failures()) ADD_FAILURE() << failure;
  std::printf("api fuzz: %zu calls in %.0f s (seed %llu), %zu handles released\n", f.calls(),
              seconds, (unsigned long long)seed, f.released());
  // The queue still works afterwards.
  cl_kernel k = env.kernel("kernel void one(global int* p) { p[0] = 42; }", "one");
  cl_mem m = env.buffer(sizeof(int));
  clSetKernelArg(k, 0, sizeof m, &m);
  size_t one = 1;
  ASSERT_EQ(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, &one, nullptr, 0, nullptr, nullptr),
            CL_SUCCESS);
  int v = 0;
  ASSERT_EQ(clEnqueueReadBuffer(env.queue, m, CL_TRUE, 0, sizeof v, &v, 0, nullptr, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(v, 42);
  clReleaseMemObject(m);
  clReleaseKernel(k);
}
