// VkFFT (libvkfft-dev, header-only) with its OpenCL back end, run as its users run it through
// the ICD loader on amcl: it generates each transform's kernels as OpenCL C and builds them at
// run time (radix passes, Bluestein's algorithm for prime sizes, multi-dimensional passes).
// Forward transforms against a DFT on the host, and the round trip. PoCL gives the same figures
// (conformance/README.md, "Other OpenCL code from Debian's archive").
#define VKFFT_BACKEND 3
#include "cl_helpers.h"

#include <vkFFT.h>

#include <cmath>
#include <complex>
#include <numbers>
#include <random>
#include <vector>

namespace {

using amcl_test::Env;

struct Errors {
  double forward = 0; // largest |error| over largest |value| of the forward transform
  double round_trip = 0;
};

template <class T> Errors transform(Env& env, const std::vector<uint64_t>& dims) {
  size_t total = 1;
  for (uint64_t d : dims) total *= d;
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<std::complex<T>> x(total), y(total);
  for (auto& v : x) v = {T(u(rng)), T(u(rng))};
  uint64_t bytes = total * sizeof(std::complex<T>);
  cl_mem buffer = env.buffer(bytes, x.data());
  VkFFTConfiguration config = {};
  config.FFTdim = dims.size();
  for (size_t i = 0; i < dims.size(); ++i) config.size[i] = dims[i];
  config.device = &env.device;
  config.context = &env.context;
  config.buffer = &buffer;
  config.bufferSize = &bytes;
  config.doublePrecision = sizeof(T) == 8;
  VkFFTApplication app = {};
  EXPECT_EQ(initializeVkFFT(&app, config), VKFFT_SUCCESS);
  VkFFTLaunchParams launch = {};
  launch.commandQueue = &env.queue;
  launch.buffer = &buffer;
  EXPECT_EQ(VkFFTAppend(&app, -1, &launch), VKFFT_SUCCESS);
  EXPECT_EQ(
      clEnqueueReadBuffer(env.queue, buffer, CL_TRUE, 0, bytes, y.data(), 0, nullptr, nullptr),
      CL_SUCCESS);
  // The DFT along each dimension in turn (the first varies fastest), in long double.
  std::vector<std::complex<long double>> want(x.begin(), x.end()), next(total);
  size_t stride = 1;
  for (uint64_t n : dims) {
    for (size_t i = 0; i < total; ++i) {
      const size_t k = (i / stride) % n, base = i - k * stride;
      std::complex<long double> s = 0;
      for (size_t j = 0; j < n; ++j) {
        const long double angle = -2 * std::numbers::pi_v<long double> * ((k * j) % n) / n;
        s += want[base + j * stride] * std::polar(1.0L, angle);
      }
      next[i] = s;
    }
    want.swap(next);
    stride *= n;
  }
  Errors e;
  double largest = 0;
  for (size_t i = 0; i < total; ++i) {
    e.forward = std::max(e.forward, double(std::abs(std::complex<long double>(y[i]) - want[i])));
    largest = std::max(largest, double(std::abs(want[i])));
  }
  e.forward /= largest;
  EXPECT_EQ(VkFFTAppend(&app, 1, &launch), VKFFT_SUCCESS);
  EXPECT_EQ(
      clEnqueueReadBuffer(env.queue, buffer, CL_TRUE, 0, bytes, y.data(), 0, nullptr, nullptr),
      CL_SUCCESS);
  for (size_t i = 0; i < total; ++i)
    e.round_trip = std::max(e.round_trip, double(std::abs(y[i] / T(total) - x[i])));
  deleteVkFFT(&app);
  clReleaseMemObject(buffer);
  return e;
}

TEST(VkFft, SinglePrecisionTransformsMatchTheHostDft) {
  Env env;
  ASSERT_TRUE(env.queue);
  // A power of two, a product of small primes, a prime (Bluestein), two and three dimensions.
  for (std::vector<uint64_t> dims :
       {std::vector<uint64_t>{1024}, {105}, {97}, {64, 48}, {16, 12, 10}}) {
    const Errors e = transform<float>(env, dims);
    EXPECT_LT(e.forward, 1e-6) << dims[0] << " (" << dims.size() << " dimensions)";
    EXPECT_LT(e.round_trip, 2e-6) << dims[0] << " (" << dims.size() << " dimensions)";
  }
}

TEST(VkFft, DoublePrecisionTransformsMatchTheHostDft) {
  Env env;
  ASSERT_TRUE(env.queue);
  for (std::vector<uint64_t> dims : {std::vector<uint64_t>{1024}, {97}}) {
    const Errors e = transform<double>(env, dims);
    EXPECT_LT(e.forward, 1e-14) << dims[0];
    EXPECT_LT(e.round_trip, 1e-14) << dims[0];
  }
}

} // namespace
