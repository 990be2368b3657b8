// The ground of the CTS "math_brute_force" suite: float math builtins and operators at the edges
// of the range, against the host. Each case here is one the CTS's wimpy run found wrong on the
// emulated cards.
#include "cl_helpers.h"

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <random>
#include <vector>

using amcl_test::Env;

namespace {

const char* kSource = R"(
kernel void divide(global const float* a, global const float* b, global float* out) {
  size_t i = get_global_id(0);
  out[i] = a[i] / b[i];
}
kernel void zeros_f32(global const float* x, global const float* unused, global float* out) {
  size_t i = get_global_id(0);
  out[4 * i] = sinpi(x[i]);
  out[4 * i + 1] = cospi(x[i]);
  out[4 * i + 2] = tanpi(x[i]);
  out[4 * i + 3] = atanpi(x[i]);
}
kernel void zeros_f64(global const float* x, global const float* unused, global float* out) {
  size_t i = get_global_id(0);
  double d = x[i];
  out[4 * i] = sinpi(d);
  out[4 * i + 1] = cospi(d);
  out[4 * i + 2] = tanpi(d);
  out[4 * i + 3] = atanpi(d);
}
kernel void remainders(global const float* x, global const float* y, global float* out) {
  size_t i = get_global_id(0);
  int q;
  out[4 * i] = fmod(x[i], y[i]);
  out[4 * i + 1] = remainder(x[i], y[i]);
  out[4 * i + 2] = remquo(x[i], y[i], &q);
  out[4 * i + 3] = as_float(q);
}
kernel void rootn_f32(global const float* x, global const float* n, global float* out) {
  size_t i = get_global_id(0);
  out[i] = rootn(x[i], (int)n[i]);
}
kernel void exp2_f32(global const float* a, global const float* unused, global float* out) {
  size_t i = get_global_id(0);
  out[i] = exp2(a[i]);
}
)";

// Runs the kernel `name` of kSource, built with `options`, over a and b (one result per item).
std::vector<float> run(Env& env, const char* name, const char* options, const std::vector<float>& a,
                       const std::vector<float>& b, size_t per_item = 1) {
  std::vector<float> out(a.size() * per_item, -1.0f);
  cl_program p = env.program(kSource, options);
  if (!p) return out;
  cl_int err;
  cl_kernel k = clCreateKernel(p, name, &err);
  cl_mem ma = env.buffer(a.size() * 4, a.data()), mb = env.buffer(b.size() * 4, b.data()),
         mo = env.buffer(out.size() * 4);
  clSetKernelArg(k, 0, sizeof ma, &ma);
  clSetKernelArg(k, 1, sizeof mb, &mb);
  clSetKernelArg(k, 2, sizeof mo, &mo);
  size_t n = a.size();
  EXPECT_EQ(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, &n, nullptr, 0, nullptr, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(clEnqueueReadBuffer(env.queue, mo, CL_TRUE, 0, out.size() * 4, out.data(), 0, nullptr,
                                nullptr),
            CL_SUCCESS);
  for (cl_mem m : {ma, mb, mo}) clReleaseMemObject(m);
  clReleaseKernel(k);
  clReleaseProgram(p);
  return out;
}

std::string hex(float v) {
  char s[32];
  std::snprintf(s, sizeof s, "%a", double(v));
  return s;
}

// -cl-fp32-correctly-rounded-divide-sqrt (CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT is reported):
// every quotient is the host's, bit for bit. The denominators lie above 2^126, where 1/b is a
// float denormal, so the division has to scale its operands; the quotients are normal or
// denormal. The first pair is math_brute_force divide_cr's: 2^64 / 0x1.fffffep+127 rounds up.
TEST(Math, CorrectlyRoundedDivisionByHugeDenominators) {
  Env env;
  std::vector<float> a = {-0x1p+64f, 0x1p+64f, 1.0f, 0x1.8p+100f, 0x1p-20f},
                     b = {-0x1.fffffep+127f, 0x1.fffffep+127f, 0x1.fffffep+127f, 0x1.4p+127f,
                          0x1.000002p+126f};
  std::mt19937 rng(34);
  std::uniform_int_distribution<uint32_t> big(0x7e800000u, 0x7f7fffffu),
      any(0x00000001u, 0x7f7fffffu);
  for (int i = 0; i < 4096; ++i) {
    a.push_back(std::bit_cast<float>(any(rng) | (i & 1u) << 31));
    b.push_back(std::bit_cast<float>(big(rng) | (i & 2u) << 30));
  }
  const auto q = run(env, "divide", "-cl-fp32-correctly-rounded-divide-sqrt", a, b);
  int bad = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    const float want = a[i] / b[i];
    if (std::bit_cast<uint32_t>(q[i]) != std::bit_cast<uint32_t>(want) && ++bad <= 8)
      ADD_FAILURE() << hex(a[i]) << " / " << hex(b[i]) << ": got " << hex(q[i]) << ", want "
                    << hex(want);
  }
  EXPECT_EQ(bad, 0);
}

// exp2 is within 3 ulp (OpenCL 3.0 §7.4) down into the denormals: between -149 and -126 its
// results are float denormals, not 0 (math_brute_force exp2: exp2(-0x1.f84p+6) was 0, not
// 0x1.ea4afcp-127).
TEST(Math, Exp2OfTheDenormalRange) {
  Env env;
  std::vector<float> x = {-0x1.f84p+6f, -126.0f, -149.0f, -148.5f};
  for (int i = 0; i < 4096; ++i) x.push_back(-126.0f - 23.5f * float(i) / 4096.0f);
  const auto r = run(env, "exp2_f32", "", x, x);
  int bad = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    const long double want = std::exp2l((long double)x[i]);
    // A denormal's ulp is 2^-149; at -126 the result is FLT_MIN, whose ulp is the same.
    const long double err = std::fabs((long double)r[i] - want) / 0x1p-149L;
    if (!(err <= 3.0L) && ++bad <= 8)
      ADD_FAILURE() << "exp2(" << hex(x[i]) << "): got " << hex(r[i]) << ", want about "
                    << hex(float(want)) << " (" << double(err) << " ulp)";
  }
  EXPECT_EQ(bad, 0);
}

// The zeros of sinpi, cospi and tanpi carry the signs OpenCL 3.0 §7.5.1 gives them, in float
// and in double (rounded to float: a zero keeps its sign): sinpi(n) is copysign(0, n), cospi(n +
// 0.5) is +0, tanpi(n) is copysign(0, n) for even n and copysign(0, -n) for odd n, and
// atanpi(±0) is ±0 (math_brute_force math_edge_cases: sinpi(1) was -0, tanpi(1) +0).
TEST(Math, ZerosOfThePiFunctionsCarryTheirSigns) {
  Env env;
  const std::vector<float> x = {0.0f,  -0.0f, 1.0f,  -1.0f, 2.0f,  -2.0f,   3.0f,
                                -3.0f, 0.5f,  -0.5f, 2.5f,  -2.5f, 0x1p30f, -0x1p30f};
  for (const char* kernel : {"zeros_f32", "zeros_f64"}) {
    const auto r = run(env, kernel, "", x, x, 4);
    for (size_t i = 0; i < x.size(); ++i) {
      const float v = x[i];
      const bool integer = v == std::floor(v), odd = integer && std::fmod(v, 2.0f) != 0.0f;
      const char* names[4] = {"sinpi", "cospi", "tanpi", "atanpi"};
      // The expected zero of each function at v, or nothing where the result is not a zero.
      const bool zero[4] = {integer, !integer, integer, v == 0.0f};
      const float want[4] = {std::copysign(0.0f, v), 0.0f, std::copysign(0.0f, odd ? -v : v), v};
      for (int f = 0; f < 4; ++f)
        if (zero[f])
          EXPECT_EQ(std::bit_cast<uint32_t>(r[4 * i + f]), std::bit_cast<uint32_t>(want[f]))
              << kernel << ": " << names[f] << "(" << hex(v) << ") = " << hex(r[4 * i + f]);
    }
  }
}

// fmod, remainder and remquo are exact (OpenCL 3.0 §7.4), also of a denormal x, and remquo's
// quotient has the sign of x / y and the 7 low bits of the integral quotient (math_brute_force
// remquo: remquo(-0x1.5b2dd8p-127, -0x1.0068eap-110) was -0, not x).
TEST(Math, RemaindersOfDenormalsAreExact) {
  Env env;
  std::vector<float> x = {-0x1.5b2dd8p-127f, 0x1p-149f, 0x1.fffffcp-127f, -0x1p-140f},
                     y = {-0x1.0068eap-110f, 0x1p-126f, 3.0f, 0x1p-149f};
  std::mt19937 rng(7);
  std::uniform_int_distribution<uint32_t> denormal(1u, 0x007fffffu), any(1u, 0x7f7fffffu);
  for (int i = 0; i < 2048; ++i) {
    x.push_back(std::bit_cast<float>(denormal(rng) | (i & 1u) << 31));
    y.push_back(std::bit_cast<float>((i & 4 ? denormal(rng) : any(rng)) | (i & 2u) << 30));
  }
  const auto r = run(env, "remainders", "", x, y, 4);
  int bad = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    int q = 0;
    const float want[3] = {std::fmod(x[i], y[i]), std::remainder(x[i], y[i]),
                           std::remquo(x[i], y[i], &q)};
    // glibc's remquo gives 3 quotient bits; the 7 come from the exact quotient (x - r) / y,
    // which long double holds while it is below 2^63.
    const long double n = ((long double)x[i] - want[2]) / y[i];
    const int got_q = std::bit_cast<int>(r[4 * i + 3]);
    const bool q_ok = std::fabs(n) < 0x1p63L
                          ? got_q == int(std::copysign(std::fmod(std::fabs(n), 128.0L), n))
                          : (std::abs(got_q) & 7) == (std::abs(q) & 7);
    for (int f = 0; f < 3; ++f)
      if (std::bit_cast<uint32_t>(r[4 * i + f]) != std::bit_cast<uint32_t>(want[f]) && ++bad <= 8)
        ADD_FAILURE() << (f == 0   ? "fmod("
                          : f == 1 ? "remainder("
                                   : "remquo(")
                      << hex(x[i]) << ", " << hex(y[i]) << "): got " << hex(r[4 * i + f])
                      << ", want " << hex(want[f]);
    if (!q_ok && ++bad <= 8)
      ADD_FAILURE() << "remquo(" << hex(x[i]) << ", " << hex(y[i]) << ") quotient " << got_q
                    << ", want " << q;
  }
  EXPECT_EQ(bad, 0);
}

// rootn is within 4 ulp (OpenCL 3.0 §7.4) where its result is near or below FLT_MIN: the first
// root of x is x (math_brute_force rootn: rootn(-0x1.000002p-126, 1) was -0), roots of a
// denormal with n = 1 or 2, and inverse roots of huge arguments.
TEST(Math, RootnOfTheSmallestResults) {
  Env env;
  std::vector<float> x = {-0x1.000002p-126f, 0x1p-126f,        0x1.8p-130f,
                          -0x1p-149f,        0x1.fffffep+127f, 0x1p+127f},
                     n = {1, 1, 1, 1, -1, -1};
  for (uint32_t i = 0; i < 1024; ++i) {
    // Denormal and small normal x for n = 1, x near FLT_MAX (a denormal 1/x) for n = -1.
    const bool first = i & 2;
    x.push_back(std::bit_cast<float>(first ? 1u + 0x9000u * i : 0x7f7fffffu - 0x1000u * i));
    if (i & 1) x.back() = -x.back();
    n.push_back(first ? 1.0f : -1.0f);
  }
  const auto r = run(env, "rootn_f32", "", x, n);
  int bad = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    if (!std::isfinite(x[i])) continue;
    const long double want = n[i] > 0 ? (long double)x[i] : 1.0L / (long double)x[i];
    const long double ulp = std::fmax(0x1p-149L, std::fabs(want) * 0x1p-23L);
    const long double err = std::fabs((long double)r[i] - want) / ulp;
    if (!(err <= 4.0L) && ++bad <= 8)
      ADD_FAILURE() << "rootn(" << hex(x[i]) << ", " << n[i] << "): got " << hex(r[i])
                    << ", want about " << hex(float(want)) << " (" << double(err) << " ulp)";
  }
  EXPECT_EQ(bad, 0);
}

} // namespace
