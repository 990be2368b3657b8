// Wave matrix multiply-accumulate from OpenCL C: clang 22's __builtin_amdgcn_wmma_* (gfx11's
// _w32 forms, gfx12's _w32_gfx12) compiled by amcl and run on the emulated card of
// AMCL_DEVICES. Each work-item of one wave32 work-group gathers its fragments of row-major
// A, B and C by the lane layout of AMD's Matrix Instruction Calculator (RDNA3: lane l holds
// A's row l % 16 and B's column l % 16 whole, D[2v + l / 16][l % 16] in element v; RDNA4: element
// e of lane l is k = 8 (e / 4) + 4 (l / 16) + e % 4, D[8 (l / 16) + v][l % 16]) and scatters D;
// the host multiplies the same matrices.
#include "cl_helpers.h"

#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

using amcl_test::Env;

namespace {

const char* kSource = R"(
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#if defined(__gfx1100__) || defined(__gfx1101__) || defined(__gfx1102__)
#define A_K(l, e) (e)
#define D_ROW(l, v) (2 * (v) + (l) / 16)
typedef half16 frag_h;
typedef int4 frag_i8;
#define WMMA_F16(a, b, c) __builtin_amdgcn_wmma_f32_16x16x16_f16_w32(a, b, c)
#define WMMA_IU8(a, b, c) __builtin_amdgcn_wmma_i32_16x16x16_iu8_w32(true, a, true, b, c, false)
#define FRAG_H 16
#define FRAG_I8 4
#else
#define A_K(l, e) (8 * ((e) / 4) + 4 * ((l) / 16) + (e) % 4)
#define D_ROW(l, v) (8 * ((l) / 16) + (v))
typedef half8 frag_h;
typedef int2 frag_i8;
#define WMMA_F16(a, b, c) __builtin_amdgcn_wmma_f32_16x16x16_f16_w32_gfx12(a, b, c)
#define WMMA_IU8(a, b, c) __builtin_amdgcn_wmma_i32_16x16x16_iu8_w32_gfx12(true, a, true, b, c, false)
#define FRAG_H 8
#define FRAG_I8 2
#endif

kernel void mma_f16(global const half* A, global const half* B, global const float* C,
                    global float* D) {
  const uint l = get_local_id(0);
  frag_h a, b;
  for (int e = 0; e < FRAG_H; ++e) {
    a[e] = A[(l % 16) * 16 + A_K(l, e)];
    b[e] = B[A_K(l, e) * 16 + l % 16];
  }
  float8 c;
  for (int v = 0; v < 8; ++v) c[v] = C[D_ROW(l, v) * 16 + l % 16];
  const float8 d = WMMA_F16(a, b, c);
  for (int v = 0; v < 8; ++v) D[D_ROW(l, v) * 16 + l % 16] = d[v];
}

// Signed bytes, four to a dword: dword e of lane l holds k = 4e .. 4e + 3 (gfx11) or
// 8 (l / 16) + 4e .. (gfx12).
kernel void mma_iu8(global const char* A, global const char* B, global const int* C,
                    global int* D) {
  const uint l = get_local_id(0);
  frag_i8 a, b;
  for (int e = 0; e < FRAG_I8; ++e) {
    uint wa = 0, wb = 0;
    for (int byte = 0; byte < 4; ++byte) {
#if defined(__gfx1100__) || defined(__gfx1101__) || defined(__gfx1102__)
      const int k = 4 * e + byte;
#else
      const int k = 8 * (l / 16) + 4 * e + byte;
#endif
      wa |= (uint)(uchar)A[(l % 16) * 16 + k] << (8 * byte);
      wb |= (uint)(uchar)B[k * 16 + l % 16] << (8 * byte);
    }
    a[e] = (int)wa;
    b[e] = (int)wb;
  }
  int8 c;
  for (int v = 0; v < 8; ++v) c[v] = C[D_ROW(l, v) * 16 + l % 16];
  const int8 d = WMMA_IU8(a, b, c);
  for (int v = 0; v < 8; ++v) D[D_ROW(l, v) * 16 + l % 16] = d[v];
}

// gfx12's 4:2 sparse form: `kept` holds each row's two values per group of four K (8 groups),
// `where` their positions. Element 2g + n of lane l is group 4 (g / 2) + 2 (l / 16) + g % 2's
// value n, its positions the index VGPR's bits 4g..4g+3; B's element e of lane l is
// k = 16 (e / 8) + 8 (l / 16) + e % 8 (AMD Matrix Instruction Calculator, RDNA4).
kernel void smma_f16(global const half* kept, global const uchar* where, global const half* B,
                     global float* D) {
#if !(defined(__gfx1100__) || defined(__gfx1101__) || defined(__gfx1102__))
  const uint l = get_local_id(0), row = l % 16;
  half8 a;
  int index = 0;
  for (int g = 0; g < 4; ++g) {
    const int group = 4 * (g / 2) + 2 * (l / 16) + g % 2;
    for (int n = 0; n < 2; ++n) {
      a[2 * g + n] = kept[(row * 8 + group) * 2 + n];
      index |= where[(row * 8 + group) * 2 + n] << (4 * g + 2 * n);
    }
  }
  half16 b;
  for (int e = 0; e < 16; ++e) b[e] = B[(16 * (e / 8) + 8 * (l / 16) + e % 8) * 16 + l % 16];
  float8 d;
  for (int v = 0; v < 8; ++v) d[v] = D[(8 * (l / 16) + v) * 16 + l % 16];
  d = __builtin_amdgcn_swmmac_f32_16x16x32_f16_w32(a, b, d, index);
  for (int v = 0; v < 8; ++v) D[(8 * (l / 16) + v) * 16 + l % 16] = d[v];
#endif
}
)";

class WmmaTest : public testing::Test {
protected:
  void SetUp() override {
    ASSERT_TRUE(env_.context);
    program_ = env_.program(kSource);
    ASSERT_TRUE(program_);
  }
  void TearDown() override {
    if (program_) clReleaseProgram(program_);
  }
  // Runs `name` over one wave32 work-group with the four buffers.
  void run(const char* name, cl_mem a, cl_mem b, cl_mem c, cl_mem d) {
    cl_int err;
    cl_kernel k = clCreateKernel(program_, name, &err);
    ASSERT_EQ(err, CL_SUCCESS);
    cl_mem args[] = {a, b, c, d};
    for (cl_uint i = 0; i < 4; ++i) clSetKernelArg(k, i, sizeof(cl_mem), &args[i]);
    const size_t n = 32;
    ASSERT_EQ(clEnqueueNDRangeKernel(env_.queue, k, 1, nullptr, &n, &n, 0, nullptr, nullptr),
              CL_SUCCESS);
    ASSERT_EQ(clFinish(env_.queue), CL_SUCCESS);
    clReleaseKernel(k);
  }
  Env env_;
  cl_program program_ = nullptr;
};

} // namespace

TEST_F(WmmaTest, HalfMatricesMultiplyIntoFloat) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> dist(-2, 2);
  std::vector<_Float16> a(256), b(256);
  std::vector<float> c(256), d(256, 0);
  for (int i = 0; i < 256; ++i)
    a[i] = _Float16(dist(rng)), b[i] = _Float16(dist(rng)), c[i] = dist(rng);
  cl_mem ma = env_.buffer(512, a.data()), mb = env_.buffer(512, b.data()),
         mc = env_.buffer(1024, c.data()), md = env_.buffer(1024);
  run("mma_f16", ma, mb, mc, md);
  ASSERT_EQ(clEnqueueReadBuffer(env_.queue, md, CL_TRUE, 0, 1024, d.data(), 0, nullptr, nullptr),
            CL_SUCCESS);
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 16; ++j) {
      double want = c[i * 16 + j];
      for (int k = 0; k < 16; ++k) want += double(a[i * 16 + k]) * double(b[k * 16 + j]);
      EXPECT_NEAR(d[i * 16 + j], want, 1e-5 * (1 + std::fabs(want))) << "D" << i << "," << j;
    }
  for (cl_mem m : {ma, mb, mc, md}) clReleaseMemObject(m);
}

TEST_F(WmmaTest, SignedBytesMultiplyIntoInt) {
  std::mt19937 rng(8);
  std::vector<int8_t> a(256), b(256);
  std::vector<int32_t> c(256), d(256, 0);
  for (int i = 0; i < 256; ++i)
    a[i] = int8_t(rng()), b[i] = int8_t(rng()), c[i] = int32_t(rng() % 100000);
  cl_mem ma = env_.buffer(256, a.data()), mb = env_.buffer(256, b.data()),
         mc = env_.buffer(1024, c.data()), md = env_.buffer(1024);
  run("mma_iu8", ma, mb, mc, md);
  ASSERT_EQ(clEnqueueReadBuffer(env_.queue, md, CL_TRUE, 0, 1024, d.data(), 0, nullptr, nullptr),
            CL_SUCCESS);
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 16; ++j) {
      int32_t want = c[i * 16 + j];
      for (int k = 0; k < 16; ++k) want += int32_t(a[i * 16 + k]) * b[k * 16 + j];
      EXPECT_EQ(d[i * 16 + j], want) << "D" << i << "," << j;
    }
  for (cl_mem m : {ma, mb, mc, md}) clReleaseMemObject(m);
}

TEST_F(WmmaTest, SparseHalfMatricesOnGfx12) {
  char name[64] = "";
  clGetDeviceInfo(env_.device, CL_DEVICE_NAME, sizeof name, name, nullptr);
  if (std::string(name).rfind("gfx12", 0) != 0) GTEST_SKIP() << "SWMMAC is gfx12's";
  std::mt19937 rng(9);
  std::uniform_real_distribution<float> dist(-2, 2);
  std::vector<_Float16> kept(16 * 8 * 2), b(32 * 16);
  std::vector<uint8_t> where(16 * 8 * 2);
  std::vector<float> d(256), start(256);
  for (auto& v : kept) v = _Float16(dist(rng));
  for (size_t i = 0; i < where.size(); i += 2) { // two distinct positions of four
    where[i] = uint8_t(rng() % 4);
    where[i + 1] = uint8_t((where[i] + 1 + rng() % 3) % 4);
  }
  for (auto& v : b) v = _Float16(dist(rng));
  for (auto& v : d) v = dist(rng);
  start = d;
  cl_mem mk = env_.buffer(kept.size() * 2, kept.data()),
         mw = env_.buffer(where.size(), where.data()), mb = env_.buffer(b.size() * 2, b.data()),
         md = env_.buffer(1024, d.data());
  run("smma_f16", mk, mw, mb, md);
  ASSERT_EQ(clEnqueueReadBuffer(env_.queue, md, CL_TRUE, 0, 1024, d.data(), 0, nullptr, nullptr),
            CL_SUCCESS);
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 16; ++j) {
      double want = start[i * 16 + j];
      for (int g = 0; g < 8; ++g)
        for (int n = 0; n < 2; ++n)
          want += double(kept[(i * 8 + g) * 2 + n]) *
                  double(b[(4 * g + where[(i * 8 + g) * 2 + n]) * 16 + j]);
      EXPECT_NEAR(d[i * 16 + j], want, 1e-5 * (1 + std::fabs(want))) << "D" << i << "," << j;
    }
  for (cl_mem m : {mk, mw, mb, md}) clReleaseMemObject(m);
}
