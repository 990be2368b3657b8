// cl_khr_fp16 / __opencl_c_fp16: half-precision arithmetic, conversions with every rounding
// mode, math builtins and vectors on the device, against a host reference (GCC's _Float16
// with one rounding from a wider exact result). PoCL on the test machines cannot build half
// kernels, so the corpus differential test has no reference for them; this is it.
#include "cl_helpers.h"

#include <CL/cl_ext.h>

#include <cmath>
#include <cstring>
#include <random>

using amcl_test::Env;
using amcl_test::device_info;
using amcl_test::device_string;

namespace {

const char* kSource = R"(
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
kernel void arith(global const half* a, global const half* b, global const half* c,
                  global half* out) {
  size_t i = get_global_id(0);
  half x = a[i], y = b[i], z = c[i];
  global half* o = out + 8 * i;
  o[0] = x + y;
  o[1] = x - y;
  o[2] = x * y;
  o[3] = x / y;
  o[4] = fma(x, y, z);
  o[5] = sqrt(x);
  o[6] = fmin(x, y);
  o[7] = fmax(x, y);
}
kernel void convert(global const float* f, global const half* h, global half* oh,
                    global float* of, global int* oi) {
  size_t i = get_global_id(0);
  oh[4 * i + 0] = convert_half_rte(f[i]);
  oh[4 * i + 1] = convert_half_rtz(f[i]);
  oh[4 * i + 2] = convert_half_rtp(f[i]);
  oh[4 * i + 3] = convert_half_rtn(f[i]);
  of[i] = h[i];
  oi[2 * i + 0] = convert_int_sat_rtz(h[i]);
  oi[2 * i + 1] = convert_int_sat_rte(h[i]);
}
kernel void math(global const half* a, global half* out) {
  size_t i = get_global_id(0);
  half x = a[i];
  global half* o = out + 6 * i;
  o[0] = exp(x);
  o[1] = log(fabs(x));
  o[2] = sin(x);
  o[3] = cos(x);
  o[4] = rsqrt(fabs(x));
  o[5] = exp2(x);
}
kernel void classify(global const half* a, global int* out) {
  size_t i = get_global_id(0);
  half x = a[i];
  global int* o = out + 5 * i;
  o[0] = isnormal(x);
  o[1] = isfinite(x);
  o[2] = isinf(x);
  o[3] = isnan(x);
  o[4] = signbit(x);
}
kernel void vectors(global const half* a, global const half* b, global half* sum,
                    global half* prod) {
  size_t i = get_global_id(0);
  half8 x = vload8(i, a), y = vload8(i, b);
  vstore8(x + y, i, sum);
  vstore8(x * y, i, prod);
}
)";

using H = uint16_t; // a half's bits

_Float16 as_f16(H b) {
  _Float16 v;
  std::memcpy(&v, &b, 2);
  return v;
}
H bits(_Float16 v) {
  H b;
  std::memcpy(&b, &v, 2);
  return b;
}
bool is_nan(H b) { return (b & 0x7c00) == 0x7c00 && (b & 0x3ff); }
// Rounds a value exactly representable in long double to half, to nearest even.
H round_half(long double v) { return bits(_Float16(v)); }
// Distance in units in the last place (NaN matches only NaN).
unsigned ulps(H x, H y) {
  if (is_nan(x) || is_nan(y)) return is_nan(x) && is_nan(y) ? 0 : ~0u;
  auto ordered = [](H b) { return b & 0x8000 ? -int(b & 0x7fff) : int(b); };
  return unsigned(std::abs(ordered(x) - ordered(y)));
}
// The next half towards +infinity / -infinity (finite or infinite inputs).
H next_up(H b) { return b == 0x8000 ? 0x0001 : b & 0x8000 ? H(b - 1) : H(b + 1); }
H next_down(H b) { return b == 0x0000 ? 0x8001 : b & 0x8000 ? H(b + 1) : H(b - 1); }

// Inputs: every kind of half (zeros, denormals, normals, the largest, infinities, NaN) and
// random ones.
std::vector<H> halves(size_t n, uint32_t seed) {
  std::vector<H> v = {0x0000, 0x8000, 0x0001, 0x83ff, 0x0400, 0x3c00, 0xbc00, 0x7bff,
                      0xfbff, 0x7c00, 0xfc00, 0x7e00, 0x3555, 0x4900, 0x0200, 0x3bff};
  std::mt19937 rng(seed);
  while (v.size() < n) v.push_back(H(rng()));
  return v;
}

struct HalfKernels {
  Env& env;
  cl_program prog = nullptr;
  explicit HalfKernels(Env& e) : env(e), prog(e.program(kSource, "-cl-std=CL3.0")) {}
  ~HalfKernels() {
    if (prog) clReleaseProgram(prog);
  }
  // Runs `name` over n work-items; inputs are copied in, outputs (sizes in bytes) read back.
  std::vector<std::vector<uint8_t>> operator()(const char* name, size_t n,
                                               const std::vector<std::vector<uint8_t>>& in,
                                               const std::vector<size_t>& out_bytes) {
    cl_int err;
    cl_kernel k = clCreateKernel(prog, name, &err);
    EXPECT_EQ(err, CL_SUCCESS) << name;
    std::vector<cl_mem> mems;
    for (const auto& v : in) mems.push_back(env.buffer(v.size(), v.data()));
    for (size_t b : out_bytes) mems.push_back(env.buffer(b));
    for (cl_uint i = 0; i < mems.size(); ++i) clSetKernelArg(k, i, sizeof(cl_mem), &mems[i]);
    cl_event done = nullptr;
    EXPECT_EQ(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, &n, nullptr, 0, nullptr, &done),
              CL_SUCCESS);
    if (done) {
      EXPECT_EQ(env.final_status(done), CL_COMPLETE) << name << " did not complete";
      clReleaseEvent(done);
    }
    std::vector<std::vector<uint8_t>> out;
    for (size_t j = 0; j < out_bytes.size(); ++j) {
      out.emplace_back(out_bytes[j]);
      clEnqueueReadBuffer(env.queue, mems[in.size() + j], CL_TRUE, 0, out_bytes[j],
                          out.back().data(), 0, nullptr, nullptr);
    }
    for (cl_mem m : mems) clReleaseMemObject(m);
    clReleaseKernel(k);
    return out;
  }
};

template <class T> std::vector<uint8_t> bytes(const std::vector<T>& v) {
  std::vector<uint8_t> b(v.size() * sizeof(T));
  std::memcpy(b.data(), v.data(), b.size());
  return b;
}
template <class T> T at(const std::vector<uint8_t>& b, size_t i) {
  T v;
  std::memcpy(&v, b.data() + i * sizeof(T), sizeof v);
  return v;
}

} // namespace

TEST(Half, DeviceReportsHalfSupport) {
  Env env;
  EXPECT_NE(device_string(env.device, CL_DEVICE_EXTENSIONS).find("cl_khr_fp16"), std::string::npos);
  const auto fp = device_info<cl_device_fp_config>(env.device, CL_DEVICE_HALF_FP_CONFIG);
  // The minimum for a device with cl_khr_fp16, and what the hardware does besides.
  EXPECT_TRUE(fp & CL_FP_ROUND_TO_NEAREST);
  EXPECT_TRUE(fp & CL_FP_INF_NAN);
  EXPECT_TRUE(fp & CL_FP_DENORM);
  EXPECT_TRUE(fp & CL_FP_FMA);
  EXPECT_GT(device_info<cl_uint>(env.device, CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF), 0u);
}

TEST(Half, ArithmeticIsCorrectlyRounded) {
  Env env;
  HalfKernels run(env);
  const size_t n = 4096;
  const std::vector<H> a = halves(n, 1), b = halves(n, 2), c = halves(n, 3);
  auto out = run("arith", n, {bytes(a), bytes(b), bytes(c)}, {n * 8 * 2});
  const char* names[] = {"+", "-", "*", "/", "fma", "sqrt", "fmin", "fmax"};
  size_t bad = 0;
  for (size_t i = 0; i < n; ++i) {
    const long double x = (long double)as_f16(a[i]), y = (long double)as_f16(b[i]),
                      z = (long double)as_f16(c[i]);
    // Each is one rounding of the exact result: long double holds all of these exactly
    // (fma's exact result spans at most 56 bits for halves).
    const H want[8] = {round_half(x + y),
                       round_half(x - y),
                       round_half(x * y),
                       round_half(x / y),
                       round_half(x * y + z),
                       round_half(std::sqrt(x)),
                       round_half(std::fmin(x, y)),
                       round_half(std::fmax(x, y))};
    // Division and square root may be 1 ulp off (OpenCL 3.0 §7.4, half precision).
    const unsigned tolerance[8] = {0, 0, 0, 1, 0, 1, 0, 0};
    for (int j = 0; j < 8; ++j) {
      const H got = at<H>(out[0], 8 * i + j);
      if (ulps(got, want[j]) > tolerance[j] && ++bad <= 8)
        ADD_FAILURE() << std::hex << "0x" << a[i] << " " << names[j] << " 0x" << b[i]
                      << (j == 4 ? " + 0x" + std::to_string(c[i]) : "") << ": got 0x" << got
                      << ", want 0x" << want[j];
    }
  }
  EXPECT_EQ(bad, 0u);
}

TEST(Half, ConversionsHonourTheirRoundingModes) {
  Env env;
  HalfKernels run(env);
  const size_t n = 4096;
  std::vector<float> f = {0.0f, -0.0f, 1.0f, 65504.0f, 65520.0f, 1e6f, -1e6f, 1e-8f, -1e-8f,
                          5.9604645e-8f, 2.9802322e-8f, NAN, INFINITY, -INFINITY, 0.1f, -0.1f};
  std::mt19937 rng(4);
  while (f.size() < n) {
    const uint32_t r = rng();
    float v;
    std::memcpy(&v, &r, 4);
    if (std::fabs(v) > 1e-9f && std::fabs(v) < 1e6f) f.push_back(v); // the half range and beyond
  }
  const std::vector<H> h = halves(n, 5);
  auto out = run("convert", n, {bytes(f), bytes(h)}, {n * 4 * 2, n * 4, n * 2 * 4});
  size_t bad = 0;
  for (size_t i = 0; i < n; ++i) {
    // The halves either side of f; rte picks by distance, the others by direction.
    const H rte = round_half(f[i]);
    H lower = rte, upper = rte;
    if (!std::isnan(f[i]) && (long double)as_f16(rte) != f[i]) {
      if ((long double)as_f16(rte) > f[i]) lower = next_down(rte);
      else upper = next_up(rte);
    }
    const H rtz = std::signbit(f[i]) ? upper : lower;
    const H want[4] = {rte, rtz, upper, lower};
    for (int j = 0; j < 4; ++j) {
      const H got = at<H>(out[0], 4 * i + j);
      if (ulps(got, want[j]) != 0 && ++bad <= 8)
        ADD_FAILURE() << "convert_half mode " << j << " of " << f[i] << ": got 0x" << std::hex
                      << got << ", want 0x" << want[j];
    }
    const float back = at<float>(out[1], i);
    if (!(back == float(as_f16(h[i])) || (std::isnan(back) && is_nan(h[i]))) && ++bad <= 8)
      ADD_FAILURE() << "half 0x" << std::hex << h[i] << " as float: got " << back;
    const long double v = (long double)as_f16(h[i]);
    auto sat = [&](long double r) -> int {
      if (std::isnan(v)) return 0;
      return r >= 2147483647.0L ? INT32_MAX : r <= -2147483648.0L ? INT32_MIN : int(r);
    };
    const int want_i[2] = {sat(std::trunc(v)), sat(std::nearbyint(v))};
    for (int j = 0; j < 2; ++j)
      if (at<int>(out[2], 2 * i + j) != want_i[j] && ++bad <= 8)
        ADD_FAILURE() << "convert_int_sat of half 0x" << std::hex << h[i] << " mode " << j
                      << ": got " << std::dec << at<int>(out[2], 2 * i + j) << ", want "
                      << want_i[j];
  }
  EXPECT_EQ(bad, 0u);
}

TEST(Half, MathBuiltinsWithinTheirUlpBounds) {
  Env env;
  HalfKernels run(env);
  const size_t n = 2048;
  std::vector<H> a;
  std::mt19937 rng(6);
  std::uniform_real_distribution<float> d(-10.0f, 10.0f);
  while (a.size() < n) a.push_back(bits(_Float16(d(rng))));
  auto out = run("math", n, {bytes(a)}, {n * 6 * 2});
  const char* names[] = {"exp", "log", "sin", "cos", "rsqrt", "exp2"};
  size_t bad = 0;
  for (size_t i = 0; i < n; ++i) {
    const double x = double(as_f16(a[i]));
    const double want[6] = {std::exp(x),  std::log(std::fabs(x)), std::sin(x),
                            std::cos(x),  1.0 / std::sqrt(std::fabs(x)), std::exp2(x)};
    for (int j = 0; j < 6; ++j) {
      const H got = at<H>(out[0], 6 * i + j);
      // Results the spec leaves open at the edges (log/rsqrt of 0) are compared as values.
      if (ulps(got, round_half(want[j])) > 2 && ++bad <= 8)
        ADD_FAILURE() << names[j] << "(" << x << "): got " << float(as_f16(got)) << ", want "
                      << want[j];
    }
  }
  EXPECT_EQ(bad, 0u);
}

TEST(Half, VectorsOfEight) {
  Env env;
  HalfKernels run(env);
  const size_t n = 512;
  const std::vector<H> a = halves(n * 8, 7), b = halves(n * 8, 8);
  auto out = run("vectors", n, {bytes(a), bytes(b)}, {n * 8 * 2, n * 8 * 2});
  size_t bad = 0;
  for (size_t i = 0; i < n * 8; ++i) {
    const long double x = (long double)as_f16(a[i]), y = (long double)as_f16(b[i]);
    if (ulps(at<H>(out[0], i), round_half(x + y)) != 0 && ++bad <= 8)
      ADD_FAILURE() << "sum " << i << ": got 0x" << std::hex << at<H>(out[0], i);
    if (ulps(at<H>(out[1], i), round_half(x * y)) != 0 && ++bad <= 8)
      ADD_FAILURE() << "product " << i << ": got 0x" << std::hex << at<H>(out[1], i);
  }
  EXPECT_EQ(bad, 0u);
}

// The classification builtins of every half bit pattern (OpenCL 3.0 §6.15.10): a denormal is not
// normal (math_brute_force isnormal fp16: isnormal(0x1p-17) was 1, since v_cmp_class_f16
// classified the float the half widens to, where every half denormal is normal).
TEST(Half, ClassesOfEveryBitPattern) {
  Env env;
  HalfKernels run(env);
  const size_t n = 65536;
  std::vector<H> a(n);
  for (size_t i = 0; i < n; ++i) a[i] = H(i);
  auto out = run("classify", n, {bytes(a)}, {n * 5 * 4});
  size_t bad = 0;
  for (size_t i = 0; i < n; ++i) {
    const unsigned e = (i >> 10) & 0x1f, f = i & 0x3ff;
    const int want[5] = {e != 0 && e != 0x1f, e != 0x1f, e == 0x1f && !f, e == 0x1f && f != 0,
                         int(i >> 15)};
    const char* names[5] = {"isnormal", "isfinite", "isinf", "isnan", "signbit"};
    for (int k = 0; k < 5; ++k)
      if (at<int>(out[0], 5 * i + k) != want[k] && ++bad <= 8)
        ADD_FAILURE() << names[k] << "(0x" << std::hex << i << ") was "
                      << at<int>(out[0], 5 * i + k);
  }
  EXPECT_EQ(bad, 0u);
}
