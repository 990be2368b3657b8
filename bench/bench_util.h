// Shared pieces of the bench/ programs: finding a platform by name with a context and an
// in-order queue on its first device, timing, and summary statistics.
#pragma once
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace bench {

constexpr const char* kAmcl = "amcl";
constexpr const char* kPocl = "Portable Computing Language";

struct Platform {
  cl_device_id device = nullptr;
  cl_context context = nullptr;
  cl_command_queue queue = nullptr;
  std::string name;
  // The first platform whose name contains `part`; `device` stays null when there is none.
  explicit Platform(const char* part, cl_command_queue_properties props = 0) {
    cl_platform_id ids[16];
    cl_uint n = 0;
    clGetPlatformIDs(16, ids, &n);
    for (cl_uint i = 0; i < n && !device; ++i) {
      char buf[256] = "";
      clGetPlatformInfo(ids[i], CL_PLATFORM_NAME, sizeof buf, buf, nullptr);
      if (std::strstr(buf, part) &&
          clGetDeviceIDs(ids[i], CL_DEVICE_TYPE_ALL, 1, &device, nullptr) == CL_SUCCESS)
        name = buf;
    }
    if (!device) return;
    context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, nullptr);
    cl_queue_properties qp[] = {CL_QUEUE_PROPERTIES, props, 0};
    queue = clCreateCommandQueueWithProperties(context, device, qp, nullptr);
  }
  Platform(const Platform&) = delete;
  Platform& operator=(const Platform&) = delete;
  ~Platform() {
    if (queue) clReleaseCommandQueue(queue);
    if (context) clReleaseContext(context);
  }
  explicit operator bool() const { return device && queue; }
  // Builds `source` or returns null (printing the log).
  cl_program build(const char* source, const char* options = "") const {
    cl_program p = clCreateProgramWithSource(context, 1, &source, nullptr, nullptr);
    if (clBuildProgram(p, 1, &device, options, nullptr, nullptr) == CL_SUCCESS) return p;
    char log[4096] = "";
    clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_LOG, sizeof log, log, nullptr);
    std::fprintf(stderr, "%s: build failed:\n%s\n", name.c_str(), log);
    clReleaseProgram(p);
    return nullptr;
  }
};

inline double now_us() {
  return std::chrono::duration<double, std::micro>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// Best of `reps` wall-clock timings of `body`, in seconds (the machines are noisy).
template <class F> double best_of(int reps, F body) {
  double best = 1e30;
  for (int r = 0; r < reps; ++r) {
    const double t0 = now_us();
    body();
    best = std::min(best, (now_us() - t0) * 1e-6);
  }
  return best;
}

struct Stats {
  double mean = 0, p50 = 0, p99 = 0;
  size_t n = 0;
};

inline Stats summarize(std::vector<double> samples) {
  Stats s;
  s.n = samples.size();
  if (samples.empty()) return s;
  std::sort(samples.begin(), samples.end());
  double sum = 0;
  for (double v : samples) sum += v;
  s.mean = sum / double(samples.size());
  s.p50 = samples[samples.size() / 2];
  s.p99 = samples[std::min(samples.size() - 1, samples.size() * 99 / 100)];
  return s;
}

// "a / b" as a printable ratio, or "-" when either side is missing.
inline std::string ratio(double a, double b) {
  if (a <= 0 || b <= 0) return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", a / b);
  return buf;
}

} // namespace bench
