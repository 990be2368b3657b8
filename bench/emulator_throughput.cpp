// Emulated shader core throughput: lane-instructions per second for ALU-, memory- (coalesced
// and gather) and LDS-bound kernels on amcl's emulated GPU (gfx1100, or the card AMCL_DEVICES
// names), next to PoCL running the same kernels in the same process (slowdown ratio); a
// roofline table of the bytes the emulated GPU moves per second against the host's own memcpy
// in the same run; and the cost of a one-work-item work-group. Lane-instructions come from the
// emulator's own count (AMCL_SIM_STATS); times are the wall time of clFinish around a kernel
// dispatched enough times back to back to emulate at least 0.3 CPU-s per run (stop 33).
//
//   OCL_ICD_VENDORS=<build>/vendors build/bench/emulator_throughput
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
// Each work-item reads a[] at a scattered index (a multiplicative hash: a gather across
// pages) and b[] coalesced.
__kernel void gather(__global float* out, __global const float* a, __global const float* b) {
  size_t i = get_global_id(0);
  uint j = ((uint)i * 2654435761u) & (uint)(get_global_size(0) - 1);
  out[i] = a[j] + b[i];
}
__kernel void empty(__global float* out, __global const float* a, __global const float* b) {}
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
// Like the CTS's integer_ops char_compare / short_math: 8- and 16-bit vectors over a large
// buffer (LLVM emits true16 VALU operations and 16-bit compares on gfx11).
__kernel void char_cmp(__global float* out, __global const float* a, __global const float* b) {
  size_t i = get_global_id(0);
  __global char4* o = (__global char4*)out;
  char4 x = ((__global const char4*)a)[i], y = ((__global const char4*)b)[i];
  o[i] = (x < y) + (x == y) - (x >= (char4)3) + (y > (char4)-5);
}
__kernel void short_alu(__global float* out, __global const float* a, __global const float* b) {
  size_t i = get_global_id(0);
  __global short2* o = (__global short2*)out;
  short2 x = ((__global const short2*)a)[i], y = ((__global const short2*)b)[i];
  for (int k = 0; k < 16; ++k) {
    x = x * y + (x >> (short2)3);
    y = (x < y) ? (y ^ x) : (y - (short2)k);
    x = max(x, (short2)(-100)) & (short2)0x7ff3;
  }
  o[i] = x + y;
}
// Like the CTS's c11_atomics: every work-item adds to one counter with a compare-exchange
// loop (most lanes retry: EXEC is sparse), in global and in local memory.
__kernel void cas_global(__global float* out, __global const float* a, __global const float* b) {
  volatile __global int* c = (volatile __global int*)out;
  for (int k = 0; k < 32; ++k) {
    int old = *c;
    for (;;) {
      int seen = atomic_cmpxchg(c, old, old + 1);
      if (seen == old) break;
      old = seen;
    }
  }
}
__kernel void cas_local(__global float* out, __global const float* a, __global const float* b) {
  __local int c;
  if (get_local_id(0) == 0) c = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int k = 0; k < 32; ++k) {
    int old = c;
    for (;;) {
      int seen = atomic_cmpxchg(&c, old, old + 1);
      if (seen == old) break;
      old = seen;
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) == 0) atomic_add((volatile __global int*)out + get_group_id(0), c);
}
)CL";

struct Run {
  double seconds = 0; // for all `dispatches`
  size_t dispatches = 1;
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
  // `repeat` dispatches of the kernel back to back, then clFinish.
  Run run(const char* kernel, size_t items, size_t local, bool random_bits = false,
          size_t repeat = 1) {
    Run r;
    r.dispatches = repeat;
    // Varied bits for the integer kernels (the float ones see 1.0f).
    std::vector<float> host(items, 1.0f);
    if (random_bits) {
      uint32_t x = 12345;
      for (float& f : host) {
        x = x * 1664525u + 1013904223u;
        std::memcpy(&f, &x, 4);
      }
    }
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
    r.ok = true;
    for (size_t i = 0; i < repeat; ++i)
      r.ok = r.ok && clEnqueueNDRangeKernel(platform.queue, k, 1, nullptr, &items, &local, 0,
                                            nullptr, nullptr) == CL_SUCCESS;
    r.ok = clFinish(platform.queue) == CL_SUCCESS && r.ok;
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    clReleaseKernel(k);
    clReleaseMemObject(out);
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    return r;
  }
};

// Sums the emulator's per-dispatch counts written since `from` bytes into the stats file:
// lane-instructions, and wave-instructions into `waves` when given.
// `cpu_s`, when given, receives the dispatching thread's CPU seconds (cpu_ns).
unsigned long long lane_instructions(const std::string& path, std::streamoff& from,
                                     unsigned long long* waves = nullptr, double* cpu_s = nullptr) {
  std::ifstream f(path);
  f.seekg(from);
  std::string line;
  unsigned long long total = 0;
  if (waves) *waves = 0;
  if (cpu_s) *cpu_s = 0;
  while (std::getline(f, line)) {
    auto c = line.find(" cpu_ns=");
    if (cpu_s && c != std::string::npos)
      *cpu_s += 1e-9 * std::strtod(line.c_str() + c + 8, nullptr);
    auto p = line.find("lane_instructions=");
    if (p != std::string::npos) total += std::strtoull(line.c_str() + p + 18, nullptr, 10);
    auto q = line.find(" instructions=");
    if (waves && q != std::string::npos)
      *waves += std::strtoull(line.c_str() + q + 14, nullptr, 10);
  }
  f.clear();
  f.seekg(0, std::ios::end);
  from = f.tellg();
  return total;
}

// Bytes a host memcpy of 64 MiB reads and writes per second, the best of five.
double memcpy_bytes_per_s() {
  const size_t bytes = size_t(64) << 20;
  std::vector<unsigned char> src(bytes, 1), dst(bytes, 0);
  double best = 1e30;
  for (int rep = 0; rep < 5; ++rep) {
    const auto t0 = std::chrono::steady_clock::now();
    std::memcpy(dst.data(), src.data(), bytes);
    const auto t1 = std::chrono::steady_clock::now();
    best = std::min(best, std::chrono::duration<double>(t1 - t0).count());
    src[rep] = dst[bytes - 1 - rep]; // keeps the copies from being optimised away
  }
  return 2.0 * double(bytes) / best;
}

} // namespace

// Optional argument: a comma-separated list of kernels to run (default: all; "groups" is the
// work-group cost).
int main(int argc, char** argv) {
  const std::string only = argc > 1 ? "," + std::string(argv[1]) + "," : "";
  auto wanted = [&](const char* k) {
    return only.empty() || only.find("," + std::string(k) + ",") != std::string::npos;
  };
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
    unsigned bytes = 0; // global memory bytes each work-item reads and writes
  } cases[] = {{"alu", 16384, 256, 12},
               {"memory", 1 << 20, 256, 12},
               {"gather", 1 << 20, 256, 12},
               {"lds", 16384, 256, 8}};
  std::streamoff offset = 0;
  lane_instructions(stats, offset);
  unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  if (const char* env = std::getenv("AMCL_SIM_THREADS")) threads = std::max(1, std::atoi(env));
  // The best of three runs of each kernel (the machines are noisy), after a warm-up run (code
  // upload, decode) that also says how many dispatches make a run emulate at least
  // kRunCpuSeconds: one dispatch emulates 0.02-0.03 s, too short for its CPU time to mean
  // much. `lanes` counts a whole run's dispatches.
  // `cpu_s`: the least CPU time of the three runs' dispatches (the whole emulator's with one
  // emulator thread, which runs the work-groups on the dispatching thread).
  constexpr double kRunCpuSeconds = 0.3;
  auto best_run = [&](Target& t, const Case& c, unsigned long long& lanes,
                      double* cpu_s = nullptr) {
    lane_instructions(stats, offset);
    const Run warm = t.run(c.kernel, c.items, c.local);
    double once = 0;
    lane_instructions(stats, offset, nullptr, &once);
    if (once <= 0) once = warm.seconds; // the stats carry no CPU time: go by the wall clock
    const size_t repeat =
        std::clamp<size_t>(size_t(kRunCpuSeconds / std::max(once, 1e-4)) + 1, 1, 1000);
    Run a = t.run(c.kernel, c.items, c.local, false, repeat);
    double cpu = 0, least = 0;
    lanes = lane_instructions(stats, offset, nullptr, &least);
    for (int rep = 0; rep < 2; ++rep) {
      const Run again = t.run(c.kernel, c.items, c.local, false, repeat);
      if (again.seconds < a.seconds) a = again;
      lane_instructions(stats, offset, nullptr, &cpu);
      least = std::min(least, cpu);
    }
    if (cpu_s) *cpu_s = least;
    return a;
  };
  struct Moved {
    std::string kernel;
    double bytes_per_s;
  };
  std::vector<Moved> moved;
  // "per CPU s": lane-instructions per second of the emulator's CPU time, printed with one
  // emulator thread (AMCL_SIM_THREADS=1); on a loaded machine it moves less than the wall time.
  // "amcl s" and "PoCL s" are per dispatch; "lane-instr" counts a run's dispatches.
  std::printf("%-10s %14s %12s %16s %14s %12s %10s %12s\n", "kernel", "lane-instr", "amcl s",
              "lane-instr/s", "per thread", "PoCL s", "slowdown", "per CPU s");
  auto per_cpu = [&](unsigned long long lanes, double cpu) {
    return threads == 1 && cpu > 0 ? double(lanes) / cpu : 0.0;
  };
  for (const Case& c : cases) {
    if (!wanted(c.kernel)) continue;
    unsigned long long lanes = 0;
    double cpu = 0;
    Run a = best_run(amcl, c, lanes, &cpu);
    Run p = pocl ? pocl.run(c.kernel, c.items, c.local) : Run{};
    const double rate = a.seconds > 0 ? lanes / a.seconds : 0.0;
    const double each = a.seconds / double(a.dispatches);
    std::printf("%-10s %14llu %12.4f %16.3e %14.3e %12.4f %10.1f %12.3e%s\n", c.kernel, lanes, each,
                rate, rate / threads, p.seconds, p.seconds > 0 ? each / p.seconds : 0.0,
                per_cpu(lanes, cpu), a.ok ? "" : "  (amcl run FAILED)");
    if (a.seconds > 0) moved.push_back({c.kernel, double(c.items) * c.bytes / each});
  }
  // Wave64: the same kernels built with -mwavefrontsize64 (two 32-lane passes per vector
  // instruction in the emulator).
  for (const Case& c : cases) {
    if (!amcl64) break;
    if (!wanted(c.kernel)) continue;
    unsigned long long lanes = 0;
    double cpu = 0;
    Run a = best_run(amcl64, c, lanes, &cpu);
    const double rate = a.seconds > 0 ? lanes / a.seconds : 0.0;
    const std::string name = std::string(c.kernel) + "/w64";
    const double each = a.seconds / double(a.dispatches);
    std::printf("%-10s %14llu %12.4f %16.3e %14.3e %12s %10s %12.3e%s\n", name.c_str(), lanes, each,
                rate, rate / threads, "", "", per_cpu(lanes, cpu),
                a.ok ? "" : "  (amcl run FAILED)");
    if (a.seconds > 0) moved.push_back({name, double(c.items) * c.bytes / each});
  }
  // Roofline: global memory bytes read and written per second by the emulated GPU, against
  // the bytes a host memcpy reads and writes per second in the same run (one thread).
  if (!moved.empty()) {
    const double host = memcpy_bytes_per_s();
    std::printf("%-10s %16s %16s %10s\n", "kernel", "GPU bytes/s", "memcpy bytes/s", "fraction");
    for (const Moved& m : moved)
      std::printf("%-10s %16.3e %16.3e %10.3f\n", m.kernel.c_str(), m.bytes_per_s, host,
                  m.bytes_per_s / host);
  }
  // The cost of a work-group: 64K work-groups of one work-item (one wave with one lane), of
  // the empty kernel (launch state, wave set-up, hand-out) and of the memory kernel.
  if (wanted("groups")) {
    for (const char* kernel : {"empty", "memory"}) {
      const Case c{kernel, 1 << 16, 1};
      unsigned long long lanes = 0;
      Run a = best_run(amcl, c, lanes);
      Run p = pocl ? pocl.run(c.kernel, c.items, c.local) : Run{};
      std::printf("one-item work-groups, %-8s %10.1f ns each (PoCL %.1f ns)%s\n", kernel,
                  a.seconds / double(a.dispatches) * 1e9 / double(c.items),
                  p.seconds * 1e9 / double(c.items), a.ok ? "" : "  (amcl run FAILED)");
    }
  }
  // The CTS's slow suites: 8/16-bit integer kernels (integer_ops) and compare-exchange loops
  // on one counter (c11_atomics), on random inputs. Wave-instructions per second and the
  // average active lanes per instruction (scalar ones count 1) show where the time goes.
  const Case cts_cases[] = {{"char_cmp", 1 << 20, 256},
                            {"short_alu", 1 << 18, 256},
                            {"cas_global", 4096, 256},
                            {"cas_local", 4096, 256}};
  std::printf("%-14s %14s %12s %16s %16s %8s %12s\n", "kernel", "wave-instr", "amcl s",
              "wave-instr/s", "lane-instr/s", "lanes", "PoCL s");
  for (const Case& c : cts_cases) {
    if (!wanted(c.kernel)) continue;
    for (Target* t : {&amcl, &amcl64}) {
      if (!*t) continue;
      t->run(c.kernel, c.items, c.local, true);
      lane_instructions(stats, offset);
      // The best of three runs: the machines these run on are noisy.
      Run a = t->run(c.kernel, c.items, c.local, true);
      unsigned long long waves = 0, lanes = lane_instructions(stats, offset, &waves);
      for (int rep = 0; rep < 2; ++rep) {
        const Run again = t->run(c.kernel, c.items, c.local, true);
        if (again.seconds < a.seconds) a = again;
      }
      lane_instructions(stats, offset);
      Run p = t == &amcl && pocl ? pocl.run(c.kernel, c.items, c.local, true) : Run{};
      const std::string name = std::string(c.kernel) + (t == &amcl ? "" : "/w64");
      std::printf("%-14s %14llu %12.4f %16.3e %16.3e %8.1f %12.4f%s\n", name.c_str(), waves,
                  a.seconds, a.seconds > 0 ? waves / a.seconds : 0.0,
                  a.seconds > 0 ? lanes / a.seconds : 0.0, waves ? double(lanes) / waves : 0.0,
                  p.seconds, a.ok ? "" : "  (amcl run FAILED)");
    }
  }
  std::printf("(%u emulator threads for work-groups; PoCL uses all cores)\n", threads);
  unlink(stats);
  return 0;
}
