// gfx12's split barrier from OpenCL C: clang 22's __builtin_amdgcn_s_barrier_signal_isfirst,
// __builtin_amdgcn_s_get_barrier_state and __builtin_amdgcn_s_barrier_wait compiled by amcl and
// run on the emulated card of AMCL_DEVICES (gfx12 only: clang has them for gfx12-insts). Against
// the RDNA4 ISA manual: one wave of a work-group is the first to signal, the signal count each
// wave reads after its own signal runs through 1..N-1 and 0 (the last completes the barrier), the
// member count is the work-group's waves; a single-wave work-group's barriers are S_NOPs, and
// LLVM sets SCC first, so its wave reads as the first.
#include "cl_helpers.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

using amcl_test::Env;

namespace {

const char* kSource = R"(
kernel void signal_state(global uint* first, global uint* state) {
#if !(defined(__gfx1100__) || defined(__gfx1101__) || defined(__gfx1102__))
  const bool f = __builtin_amdgcn_s_barrier_signal_isfirst(-1);
  const uint s = __builtin_amdgcn_s_get_barrier_state(-1);
  __builtin_amdgcn_s_barrier_wait(-1);
  first[get_global_id(0)] = f;
  state[get_global_id(0)] = s;
#endif
}
)";

// S_GET_BARRIER_STATE: {9'0, signalCnt[6:0], 5'0, memberCnt[6:0], 3'0, valid}.
uint32_t state(unsigned signalled, unsigned members) {
  return signalled << 16 | members << 4 | 1u;
}

class BarrierStateTest : public testing::Test {
protected:
  void SetUp() override {
    ASSERT_TRUE(env_.context);
    char name[64] = "";
    clGetDeviceInfo(env_.device, CL_DEVICE_NAME, sizeof name, name, nullptr);
    gfx12_ = std::string(name).rfind("gfx12", 0) == 0;
    if (!gfx12_) GTEST_SKIP() << "the split barrier is gfx12's";
    program_ = env_.program(kSource);
    ASSERT_TRUE(program_);
  }
  void TearDown() override {
    if (program_) clReleaseProgram(program_);
  }
  // Runs signal_state over `groups` work-groups of `local` work-items; first and state per item.
  void run(size_t groups, size_t local, std::vector<uint32_t>& first, std::vector<uint32_t>& st) {
    const size_t n = groups * local;
    first.assign(n, 7);
    st.assign(n, 0);
    cl_mem mf = env_.buffer(n * 4), ms = env_.buffer(n * 4);
    cl_int err;
    cl_kernel k = clCreateKernel(program_, "signal_state", &err);
    ASSERT_EQ(err, CL_SUCCESS);
    clSetKernelArg(k, 0, sizeof(cl_mem), &mf);
    clSetKernelArg(k, 1, sizeof(cl_mem), &ms);
    ASSERT_EQ(clEnqueueNDRangeKernel(env_.queue, k, 1, nullptr, &n, &local, 0, nullptr, nullptr),
              CL_SUCCESS);
    ASSERT_EQ(
        clEnqueueReadBuffer(env_.queue, mf, CL_TRUE, 0, n * 4, first.data(), 0, nullptr, nullptr),
        CL_SUCCESS);
    ASSERT_EQ(
        clEnqueueReadBuffer(env_.queue, ms, CL_TRUE, 0, n * 4, st.data(), 0, nullptr, nullptr),
        CL_SUCCESS);
    clReleaseKernel(k);
    clReleaseMemObject(mf);
    clReleaseMemObject(ms);
  }
  Env env_;
  bool gfx12_ = false;
  cl_program program_ = nullptr;
};

} // namespace

TEST_F(BarrierStateTest, OneFirstWaveAndTheSignalCountsPerWorkGroup) {
  const unsigned kWaves = 4, kLanes = 32; // wave32: 128 work-items are four waves
  std::vector<uint32_t> first, st;
  run(8, kWaves * kLanes, first, st);
  for (unsigned g = 0; g < 8; ++g) {
    unsigned firsts = 0;
    std::vector<uint32_t> seen, want;
    for (unsigned w = 0; w < kWaves; ++w) {
      const size_t at = (g * kWaves + w) * kLanes;
      for (unsigned l = 1; l < kLanes; ++l) { // a wave's lanes agree
        ASSERT_EQ(first[at + l], first[at]) << "group " << g << " wave " << w;
        ASSERT_EQ(st[at + l], st[at]) << "group " << g << " wave " << w;
      }
      firsts += first[at];
      seen.push_back(st[at]);
      want.push_back(state((w + 1) % kWaves, kWaves));
    }
    EXPECT_EQ(firsts, 1u) << "group " << g;
    std::sort(seen.begin(), seen.end());
    std::sort(want.begin(), want.end());
    EXPECT_EQ(seen, want) << "group " << g;
  }
}

TEST_F(BarrierStateTest, ASingleWaveWorkGroupIsItsOwnFirst) {
  std::vector<uint32_t> first, st;
  run(4, 32, first, st);
  for (size_t i = 0; i < first.size(); ++i) EXPECT_EQ(first[i], 1u) << i;
}
