// Emulated shader core throughput: lane-instructions per second for ALU-, memory- and
// LDS-bound kernels on amcl's emulated gfx1100, next to PoCL running the same kernels in the
// same process (slowdown ratio). Lane-instructions come from the emulator's own count
// (AMCL_SIM_STATS); times are the wall time of clFinish around each kernel.
//
//   OCL_ICD_VENDORS=<build>/conformance/vendors build/bench/emulator_throughput
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

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

struct Platform {
  cl_device_id device = nullptr;
  cl_context context = nullptr;
  cl_command_queue queue = nullptr;
  cl_program program = nullptr;
  std::string name;
  explicit Platform(const char* part) {
    cl_platform_id ids[16];
    cl_uint n = 0;
    clGetPlatformIDs(16, ids, &n);
    for (cl_uint i = 0; i < n && !device; ++i) {
      char buf[256] = "";
      clGetPlatformInfo(ids[i], CL_PLATFORM_NAME, sizeof buf, buf, nullptr);
      if (std::strstr(buf, part)) {
        clGetDeviceIDs(ids[i], CL_DEVICE_TYPE_ALL, 1, &device, nullptr);
        name = buf;
      }
    }
    if (!device) return;
    context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, nullptr);
    queue = clCreateCommandQueueWithProperties(context, device, nullptr, nullptr);
    program = clCreateProgramWithSource(context, 1, &kSource, nullptr, nullptr);
    if (clBuildProgram(program, 1, &device, "", nullptr, nullptr) != CL_SUCCESS) device = nullptr;
  }
  Run run(const char* kernel, size_t items, size_t local) {
    Run r;
    std::vector<float> host(items, 1.0f);
    cl_mem out = clCreateBuffer(context, CL_MEM_READ_WRITE, items * 4, nullptr, nullptr);
    cl_mem a = clCreateBuffer(context, CL_MEM_COPY_HOST_PTR, items * 4, host.data(), nullptr);
    cl_mem b = clCreateBuffer(context, CL_MEM_COPY_HOST_PTR, items * 4, host.data(), nullptr);
    cl_kernel k = clCreateKernel(program, kernel, nullptr);
    clSetKernelArg(k, 0, sizeof out, &out);
    clSetKernelArg(k, 1, sizeof a, &a);
    clSetKernelArg(k, 2, sizeof b, &b);
    clFinish(queue);
    auto t0 = std::chrono::steady_clock::now();
    r.ok = clEnqueueNDRangeKernel(queue, k, 1, nullptr, &items, &local, 0, nullptr, nullptr) ==
               CL_SUCCESS &&
           clFinish(queue) == CL_SUCCESS;
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
  Platform amcl("amcl"), pocl("Portable Computing Language");
  if (!amcl.device) {
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
  std::printf("%-8s %14s %12s %16s %14s %12s %10s\n", "kernel", "lane-instr", "amcl s",
              "lane-instr/s", "per thread", "PoCL s", "slowdown");
  for (const Case& c : cases) {
    amcl.run(c.kernel, c.items, c.local); // warm up: code upload, decode
    lane_instructions(stats, offset);
    Run a = amcl.run(c.kernel, c.items, c.local);
    unsigned long long lanes = lane_instructions(stats, offset);
    Run p = pocl.device ? pocl.run(c.kernel, c.items, c.local) : Run{};
    const double rate = a.seconds > 0 ? lanes / a.seconds : 0.0;
    std::printf("%-8s %14llu %12.4f %16.3e %14.3e %12.4f %10.1f%s\n", c.kernel, lanes, a.seconds,
                rate, rate / threads, p.seconds, p.seconds > 0 ? a.seconds / p.seconds : 0.0,
                a.ok ? "" : "  (amcl run FAILED)");
  }
  std::printf("(%u emulator threads for work-groups; PoCL uses all cores)\n", threads);
  unlink(stats);
  return 0;
}
