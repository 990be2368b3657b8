// gfx12's transposing matrix loads from OpenCL C: clang 22's
// __builtin_amdgcn_global_load_tr_b128_* and _b64_* (wave32 and, built with -mwavefrontsize64,
// wave64) compiled by amcl and run on the emulated card of AMCL_DEVICES (gfx12 only: the builtins
// need gfx12-insts). Each lane of one wave points at 8 rows of one K of a column-major 16x16
// matrix as the RDNA4 ISA manual's 11.6 describes; the host checks the wave got the matrix in the
// WMMA A-operand layout of AMD's Matrix Instruction Calculator.
#include "cl_helpers.h"

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

using amcl_test::Env;

namespace {

const char* kSource = R"(
#if !(defined(__gfx1100__) || defined(__gfx1101__) || defined(__gfx1102__))
// Lane 8g + j (of lanes 0-31; the others' addresses are ignored) reads rows 8 (g % 2) .. + 7 at
// the K its element j holds in the wave32 layout.
kernel void tr16(global const short* a, global short* out) {
  const uint l = get_local_id(0), g = (l % 32) / 8, j = l % 8;
  global const short* p = a + 16 * (8 * (j / 4) + 4 * (g / 2) + j % 4) + 8 * (g % 2);
#ifdef W64
  vstore4(__builtin_amdgcn_global_load_tr_b128_v4i16((global short4*)p), l, out);
#else
  vstore8(__builtin_amdgcn_global_load_tr_b128_v8i16((global short8*)p), l, out);
#endif
}
kernel void tr8(global const char* a, global int* out) {
  const uint l = get_local_id(0), g = (l % 32) / 8, j = l % 8;
  global const char* p = a + 16 * (8 * (g / 2) + j) + 8 * (g % 2);
#ifdef W64
  out[l] = __builtin_amdgcn_global_load_tr_b64_i32((global int*)p);
#else
  vstore2(__builtin_amdgcn_global_load_tr_b64_v2i32((global int2*)p), l, out);
#endif
}
#endif
)";

class TransposedLoadTest : public testing::TestWithParam<bool> {
protected:
  void SetUp() override {
    ASSERT_TRUE(env_.context);
    char name[64] = "";
    clGetDeviceInfo(env_.device, CL_DEVICE_NAME, sizeof name, name, nullptr);
    if (std::string(name).rfind("gfx12", 0) != 0) GTEST_SKIP() << "the loads are gfx12's";
    program_ = env_.program(kSource, GetParam() ? "-DW64 -mwavefrontsize64" : "");
    ASSERT_TRUE(program_);
  }
  void TearDown() override {
    if (program_) clReleaseProgram(program_);
  }
  // One wave of `kernel` over the column-major matrix `a` (`bytes` long); 16 bytes out per lane
  // in wave32, 8 in wave64.
  std::vector<uint8_t> run(const char* kernel, const std::vector<uint8_t>& a) {
    const size_t lanes = GetParam() ? 64 : 32, out_bytes = 512;
    std::vector<uint8_t> out(out_bytes);
    cl_mem ma = env_.buffer(a.size(), a.data()), mo = env_.buffer(out_bytes);
    cl_int err;
    cl_kernel k = clCreateKernel(program_, kernel, &err);
    EXPECT_EQ(err, CL_SUCCESS);
    clSetKernelArg(k, 0, sizeof(cl_mem), &ma);
    clSetKernelArg(k, 1, sizeof(cl_mem), &mo);
    EXPECT_EQ(
        clEnqueueNDRangeKernel(env_.queue, k, 1, nullptr, &lanes, &lanes, 0, nullptr, nullptr),
        CL_SUCCESS);
    EXPECT_EQ(
        clEnqueueReadBuffer(env_.queue, mo, CL_TRUE, 0, out_bytes, out.data(), 0, nullptr, nullptr),
        CL_SUCCESS);
    clReleaseKernel(k);
    clReleaseMemObject(ma);
    clReleaseMemObject(mo);
    return out;
  }
  Env env_;
  cl_program program_ = nullptr;
};

} // namespace

TEST_P(TransposedLoadTest, SixteenBitMatrixArrivesInTheWmmaLayout) {
  const bool w64 = GetParam();
  std::mt19937 rng(21 + w64);
  std::vector<uint16_t> a(256); // a[16 k + m] = A[m][k]
  for (auto& v : a) v = uint16_t(rng());
  std::vector<uint8_t> bytes(512);
  std::memcpy(bytes.data(), a.data(), 512);
  const std::vector<uint8_t> out = run("tr16", bytes);
  const unsigned per_lane = w64 ? 4 : 8;
  for (unsigned lane = 0; lane < (w64 ? 64u : 32u); ++lane)
    for (unsigned e = 0; e < per_lane; ++e) {
      const unsigned m = lane % 16;
      const unsigned k =
          w64 ? 8 * (lane / 32) + 4 * (lane / 16 % 2) + e : 8 * (e / 4) + 4 * (lane / 16) + e % 4;
      uint16_t got;
      std::memcpy(&got, &out[2 * (lane * per_lane + e)], 2);
      EXPECT_EQ(got, a[16 * k + m]) << "lane " << lane << " element " << e;
    }
}

TEST_P(TransposedLoadTest, EightBitMatrixArrivesInTheWmmaLayout) {
  const bool w64 = GetParam();
  std::mt19937 rng(31 + w64);
  std::vector<uint8_t> a(256); // a[16 k + m] = A[m][k]
  for (auto& v : a) v = uint8_t(rng());
  const std::vector<uint8_t> out = run("tr8", a);
  const unsigned per_lane = w64 ? 4 : 8;
  for (unsigned lane = 0; lane < (w64 ? 64u : 32u); ++lane)
    for (unsigned b = 0; b < per_lane; ++b) {
      const unsigned m = lane % 16;
      const unsigned k = w64 ? 8 * (lane / 16 % 2) + 4 * (lane / 32) + b : 8 * (lane / 16) + b;
      EXPECT_EQ(out[lane * per_lane + b], a[16 * k + m]) << "lane " << lane << " byte " << b;
    }
}

INSTANTIATE_TEST_SUITE_P(Waves, TransposedLoadTest, testing::Values(false, true),
                         [](const auto& info) { return info.param ? "wave64" : "wave32"; });
