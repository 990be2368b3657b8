// Emulated shader core throughput: lane-instructions per second for ALU-, memory- and
// LDS-bound kernels on amcl's emulated gfx1100, next to PoCL running the same kernels in the
// same process (slowdown ratio). Lane-instructions come from the emulator's own count
// (AMCL_SIM_STATS); times are the wall time of clFinish around each kernel.
//
//   OCL_ICD_VENDORS=<build>/conformance/vendors build/bench/emulator_throughput
#include "bench_util.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

namespace {

const char* kSource = R"CL(
__kernel void alu(__global float* out, __global const float* a, __global const float* b) {
  size_t i = get_global_id(0);
  float x = a[i], y = b[i];
  for (int k = 0; k < 256; ++k) { x = fma(x, 1.0001f, y); y = fma(y, 0.9999f, -x * 0.001f); }
  out[i] = x + y;
}
__kernel void memory(__global float* out, __global const float* a, __global const float* b) {
  size_t i = get_global_id(0);
  out[i] = a[i] * 2.0f + b[i];
}
__kernel void lds(__global float* out, __global const float* a, __global const float* b) {
  __local float t[256];
  size_t l = get_local_id(0), i = get_global_id(0);
  t[l] = a[i];
  barrier(CLK_LOCAL_MEM_FENCE);
  float s = 0.0f;
  for (int k = 0; k < 64; ++k) {
    s += t[(l + k) & 255] * t[(l * 7 + k) & 255];
    barrier(CLK_LOCAL_MEM_FENCE);
    t[l] = s * 0.5f;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[i] = s;
}
)CL";

struct Run {
  double seconds = 0;
  bool ok = false;
};

// One implementation with the benchmark kernels built.
struct Target {
  bench::Platform platform;
  cl_program program = nullptr;
  explicit Target(const char* name, const char* options = "") : platform(name) {
    if (platform) program = platform.build(kSource, options);
  }
  ~Target() {
    if (program) clReleaseProgram(program);
  }
  explicit operator bool() const { return program != nullptr; }
  Run run(const char* kernel, size_t items, size_t local) {
    Run r;
    std::vector<float> host(items, 1.0f);
    cl_mem out = clCreateBuffer(platform.context, CL_MEM_READ_WRITE, items * 4, nullptr, nullptr);
    cl_mem a =
        clCreateBuffer(platform.context, CL_MEM_COPY_HOST_PTR, items * 4, host.data(), nullptr);
    cl_mem b =
        clCreateBuffer(platform.context, CL_MEM_COPY_HOST_PTR, items * 4, host.data(), nullptr);
    cl_kernel k = clCreateKernel(program, kernel, nullptr);
    clSetKernelArg(k, 0, sizeof out, &out);
    clSetKernelArg(k, 1, sizeof a, &a);
    clSetKernelArg(k, 2, sizeof b, &b);
    clFinish(platform.queue);
    auto t0 = std::chrono::steady_clock::now();
    r.ok = clEnqueueNDRangeKernel(platform.queue, k, 1, nullptr, &items, &local, 0, nullptr,
                                  nullptr) == CL_SUCCESS &&
           clFinish(platform.queue) == CL_SUCCESS;
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    clReleaseKernel(k);
    clReleaseMemObject(out);
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    return r;
  }
};

// Sums the emulator's per-dispatch counts written since `from` bytes into the stats file.
unsigned long long lane_instructions(const std::string& path, std::streamoff& from) {
  std::ifstream f(path);
  f.seekg(from);
  std::string line;
  unsigned long long total = 0;
  while (std::getline(f, line)) {
    auto p = line.find("lane_instructions=");
    if (p != std::string::npos) total += std::strtoull(line.c_str() + p + 18, nullptr, 10);
  }
  f.clear();
  f.seekg(0, std::ios::end);
  from = f.tellg();
  return total;
}

} // namespace

int main() {
  char stats[] = "/tmp/amcl-bench-stats-XXXXXX";
  int fd = mkstemp(stats);
  if (fd < 0) return 1;
  close(fd);
  setenv("AMCL_SIM_STATS", stats, 1); // before amcl initialises
  Target amcl(bench::kAmcl), pocl(bench::kPocl);
  Target amcl64(bench::kAmcl, "-mwavefrontsize64"); // the same kernels as wave64 waves
  if (!amcl) {
    std::fprintf(stderr, "the amcl platform is not available (set OCL_ICD_VENDORS)\n");
    return 1;
  }
  struct Case {
    const char* kernel;
    size_t items, local;
  } cases[] = {{"alu", 16384, 256}, {"memory", 1 << 20, 256}, {"lds", 16384, 256}};
  std::streamoff offset = 0;
  lane_instructions(stats, offset);
  unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  if (const char* env = std::getenv("AMCL_SIM_THREADS")) threads = std::max(1, std::atoi(env));
  std::printf("%-10s %14s %12s %16s %14s %12s %10s\n", "kernel", "lane-instr", "amcl s",
              "lane-instr/s", "per thread", "PoCL s", "slowdown");
  for (const Case& c : cases) {
    amcl.run(c.kernel, c.items, c.local); // warm up: code upload, decode
    lane_instructions(stats, offset);
    Run a = amcl.run(c.kernel, c.items, c.local);
    unsigned long long lanes = lane_instructions(stats, offset);
    Run p = pocl ? pocl.run(c.kernel, c.items, c.local) : Run{};
    const double rate = a.seconds > 0 ? lanes / a.seconds : 0.0;
    std::printf("%-10s %14llu %12.4f %16.3e %14.3e %12.4f %10.1f%s\n", c.kernel, lanes, a.seconds,
                rate, rate / threads, p.seconds, p.seconds > 0 ? a.seconds / p.seconds : 0.0,
                a.ok ? "" : "  (amcl run FAILED)");
  }
  // Wave64: the same kernels built with -mwavefrontsize64 (two 32-lane passes per vector
  // instruction in the emulator).
  for (const Case& c : cases) {
    if (!amcl64) break;
    amcl64.run(c.kernel, c.items, c.local);
    lane_instructions(stats, offset);
    Run a = amcl64.run(c.kernel, c.items, c.local);
    unsigned long long lanes = lane_instructions(stats, offset);
    const double rate = a.seconds > 0 ? lanes / a.seconds : 0.0;
    const std::string name = std::string(c.kernel) + "/w64";
    std::printf("%-10s %14llu %12.4f %16.3e %14.3e%s\n", name.c_str(), lanes, a.seconds, rate,
                rate / threads, a.ok ? "" : "  (amcl run FAILED)");
  }
  std::printf("(%u emulator threads for work-groups; PoCL uses all cores)\n", threads);
  unlink(stats);
  return 0;
}
