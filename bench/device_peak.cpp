// The figures OpenCL users run to characterise a device (what clpeak prints), amcl beside PoCL
// in one process: global-memory bandwidth per vector width, single- and double-precision and
// 32-bit integer throughput per vector width, kernel launch latency from profiling events, and
// transfer bandwidth (read, write, map, device copy) beside the host's own memcpy. Every kernel's
// result is checked on the host, so a figure never comes from a kernel that computed nothing.
//
//   OCL_ICD_VENDORS=<build>/vendors build/bench/device_peak [MiB]
#include "bench_util.h"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace {

// Each work-item sums `reads` elements a global size apart (coalesced: neighbouring work-items
// read neighbouring elements) and writes one: reads are 1/reads of the traffic's writes.
const char* kBandwidthSource = R"CLC(
#define READ_KERNEL(T) \
__kernel void read_##T(__global const T* in, __global T* out, uint reads) { \
  size_t gid = get_global_id(0), n = get_global_size(0); \
  T s = (T)(0); \
  for (uint i = 0; i < reads; ++i) s += in[gid + i * n]; \
  out[gid] = s; \
}
READ_KERNEL(float) READ_KERNEL(float2) READ_KERNEL(float4) READ_KERNEL(float8)
READ_KERNEL(float16)
)CLC";

// Two independent multiply-add chains per work-item (the ALU's latency hidden by the second),
// contractive so that the values stay finite and the host can check them: x -> x*a + b with
// |a| < 1 converges to b / (1 - a).
const char* kComputeSource = R"CLC(
#ifdef USE_DOUBLE
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif
#define MAD8(x, y) \
  x = mad(x, a, b); y = mad(y, a, b); x = mad(x, a, b); y = mad(y, a, b); \
  x = mad(x, a, b); y = mad(y, a, b); x = mad(x, a, b); y = mad(y, a, b);
#define IMAD8(x, y) \
  x = x * a + b; y = y * a + b; x = x * a + b; y = y * a + b; \
  x = x * a + b; y = y * a + b; x = x * a + b; y = y * a + b;
#define COMPUTE_KERNEL(NAME, T, S, STEP) \
__kernel void NAME(__global T* out, S a, S b, uint iterations) { \
  T x = (T)((S)(get_global_id(0) & 3)); \
  T y = (T)((S)1); \
  for (uint i = 0; i < iterations; ++i) { STEP(x, y) STEP(x, y) } \
  out[get_global_id(0)] = x + y; \
}
#define FLOAT_KERNELS(S) \
  COMPUTE_KERNEL(mad_##S, S, S, MAD8) COMPUTE_KERNEL(mad_##S##2, S##2, S, MAD8) \
  COMPUTE_KERNEL(mad_##S##4, S##4, S, MAD8) COMPUTE_KERNEL(mad_##S##8, S##8, S, MAD8) \
  COMPUTE_KERNEL(mad_##S##16, S##16, S, MAD8)
#ifdef USE_DOUBLE
FLOAT_KERNELS(double)
#else
FLOAT_KERNELS(float)
COMPUTE_KERNEL(mad_uint, uint, uint, IMAD8) COMPUTE_KERNEL(mad_uint4, uint4, uint, IMAD8)
#endif
)CLC";

const char* kEmptySource = "__kernel void empty(__global int* p) { }";

struct Row {
  std::string what;
  double amcl = 0, pocl = 0;
};

class Characterise {
public:
  Characterise(bench::Platform& p, size_t bytes) : p_(p), bytes_(bytes) {}

  // GB/s read and written by the read_<type> kernel over a `bytes_` input.
  double bandwidth(cl_program prog, const char* type, size_t width) {
    const uint32_t reads = 16;
    const size_t elements = bytes_ / (4 * width), global = elements / reads;
    std::vector<float> in(elements * width);
    for (size_t i = 0; i < in.size(); ++i) in[i] = float(i % 7);
    cl_mem src = buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, in.size() * 4, in.data());
    cl_mem dst = buffer(CL_MEM_WRITE_ONLY, global * width * 4, nullptr);
    const std::string name = std::string("read_") + type;
    cl_kernel k = clCreateKernel(prog, name.c_str(), nullptr);
    clSetKernelArg(k, 0, sizeof src, &src);
    clSetKernelArg(k, 1, sizeof dst, &dst);
    clSetKernelArg(k, 2, sizeof reads, &reads);
    const double t = time_kernel(k, global);
    // Element e of work-item g sums in[(g + i * global) * width + e] over i: exact in float.
    std::vector<float> out(global * width);
    clEnqueueReadBuffer(p_.queue, dst, CL_TRUE, 0, out.size() * 4, out.data(), 0, nullptr, nullptr);
    bool ok = true;
    for (size_t g : {size_t(0), global / 2, global - 1})
      for (size_t e = 0; e < width; ++e) {
        float want = 0;
        for (uint32_t i = 0; i < reads; ++i) want += in[(g + i * global) * width + e];
        ok = ok && out[g * width + e] == want;
      }
    release(k, src, dst);
    return checked(ok, name, double(bytes_ + global * width * 4) * 1e-9 / t);
  }

  // Giga-operations per second of the mad_<type> kernel (a multiply-add counts as two).
  template <class S>
  double compute(cl_program prog, const char* type, size_t width, S a, S b, size_t global) {
    const uint32_t iterations = 64; // each runs 2 x MAD8: 8 steps of each of the two chains
    cl_mem dst = buffer(CL_MEM_WRITE_ONLY, global * width * sizeof(S), nullptr);
    const std::string name = std::string("mad_") + type;
    cl_kernel k = clCreateKernel(prog, name.c_str(), nullptr);
    clSetKernelArg(k, 0, sizeof dst, &dst);
    clSetKernelArg(k, 1, sizeof a, &a);
    clSetKernelArg(k, 2, sizeof b, &b);
    clSetKernelArg(k, 3, sizeof iterations, &iterations);
    const double t = time_kernel(k, global);
    std::vector<S> out(global * width);
    clEnqueueReadBuffer(p_.queue, dst, CL_TRUE, 0, out.size() * sizeof(S), out.data(), 0, nullptr,
                        nullptr);
    const size_t steps = iterations * 8; // per chain
    bool ok = true;
    for (size_t g : {size_t(0), size_t(1), size_t(2), size_t(3), global - 1}) {
      S x = S(g & 3), y = S(1);
      for (size_t s = 0; s < steps; ++s) {
        x = S(x * a + b);
        y = S(y * a + b);
      }
      for (size_t e = 0; e < width; ++e) ok = ok && close(out[g * width + e], S(x + y));
    }
    release(k, dst);
    return checked(ok, name, double(global * width) * double(steps) * 2 * 2 * 1e-9 / t);
  }

  // Mean µs from CL_PROFILING_COMMAND_QUEUED to _START of an empty kernel on an idle queue,
  // and of the wall-clock enqueue-to-clFinish round trip.
  std::pair<double, double> launch_latency(cl_program prog) {
    cl_kernel k = clCreateKernel(prog, "empty", nullptr);
    cl_mem m = buffer(CL_MEM_READ_WRITE, 64, nullptr);
    clSetKernelArg(k, 0, sizeof m, &m);
    const size_t global = 64, runs = 400;
    std::vector<double> queued_to_start, round_trip;
    for (size_t i = 0; i < runs + 50; ++i) {
      cl_event e = nullptr;
      const double t0 = bench::now_us();
      clEnqueueNDRangeKernel(p_.queue, k, 1, nullptr, &global, nullptr, 0, nullptr, &e);
      clFinish(p_.queue);
      const double t1 = bench::now_us();
      cl_ulong queued = 0, start = 0;
      clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_QUEUED, sizeof queued, &queued, nullptr);
      clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_START, sizeof start, &start, nullptr);
      clReleaseEvent(e);
      if (i < 50) continue; // warm-up
      queued_to_start.push_back(start >= queued ? double(start - queued) * 1e-3 : 0);
      round_trip.push_back(t1 - t0);
    }
    release(k, m);
    return {bench::summarize(queued_to_start).mean, bench::summarize(round_trip).mean};
  }

  // GB/s of write, read, map-and-write, map-and-read and device copy of `bytes_`.
  std::vector<double> transfers() {
    std::vector<unsigned char> host(bytes_, 0x5a), back(bytes_, 0);
    cl_mem a = buffer(CL_MEM_READ_WRITE, bytes_, nullptr);
    cl_mem b = buffer(CL_MEM_READ_WRITE, bytes_, nullptr);
    const double gb = double(bytes_) * 1e-9;
    std::vector<double> r;
    r.push_back(gb / bench::best_of(3, [&] {
                  clEnqueueWriteBuffer(p_.queue, a, CL_TRUE, 0, bytes_, host.data(), 0, nullptr,
                                       nullptr);
                }));
    r.push_back(gb / bench::best_of(3, [&] {
                  clEnqueueReadBuffer(p_.queue, a, CL_TRUE, 0, bytes_, back.data(), 0, nullptr,
                                      nullptr);
                }));
    bool ok = back == host;
    r.push_back(
        gb / bench::best_of(3, [&] { map_copy(a, CL_MAP_WRITE_INVALIDATE_REGION, host, true); }));
    r.push_back(gb / bench::best_of(3, [&] { map_copy(a, CL_MAP_READ, back, false); }));
    ok = ok && back == host;
    r.push_back(gb / bench::best_of(3, [&] {
                  clEnqueueCopyBuffer(p_.queue, a, b, 0, 0, bytes_, 0, nullptr, nullptr);
                  clFinish(p_.queue);
                }));
    std::fill(back.begin(), back.end(), 0);
    clEnqueueReadBuffer(p_.queue, b, CL_TRUE, 0, bytes_, back.data(), 0, nullptr, nullptr);
    ok = ok && back == host;
    release(nullptr, a, b);
    if (!ok) {
      std::fprintf(stderr, "%s: a transfer returned wrong bytes\n", p_.name.c_str());
      for (double& v : r) v = 0;
    }
    return r;
  }

private:
  cl_mem buffer(cl_mem_flags flags, size_t size, void* host) {
    return clCreateBuffer(p_.context, flags, size, host, nullptr);
  }

  // Best of three runs of a 1-D NDRange of `global` work-items (local size 64), in seconds.
  double time_kernel(cl_kernel k, size_t global) {
    const size_t local = 64;
    clEnqueueNDRangeKernel(p_.queue, k, 1, nullptr, &global, &local, 0, nullptr, nullptr);
    clFinish(p_.queue); // warm-up: code upload, first touch of the buffers
    return bench::best_of(3, [&] {
      clEnqueueNDRangeKernel(p_.queue, k, 1, nullptr, &global, &local, 0, nullptr, nullptr);
      clFinish(p_.queue);
    });
  }

  void map_copy(cl_mem m, cl_map_flags flags, std::vector<unsigned char>& host, bool to_device) {
    void* p =
        clEnqueueMapBuffer(p_.queue, m, CL_TRUE, flags, 0, bytes_, 0, nullptr, nullptr, nullptr);
    if (!p) return;
    if (to_device)
      std::memcpy(p, host.data(), bytes_);
    else
      std::memcpy(host.data(), p, bytes_);
    clEnqueueUnmapMemObject(p_.queue, m, p, 0, nullptr, nullptr);
    clFinish(p_.queue);
  }

  template <class S> static bool close(S got, S want) {
    if constexpr (std::is_integral_v<S>)
      return got == want;
    else // mad may or may not round between the multiply and the add
      return std::fabs(double(got) - double(want)) <= 1e-4 * std::fabs(double(want)) + 1e-6;
  }

  double checked(bool ok, const std::string& kernel, double figure) const {
    if (ok) return figure;
    std::fprintf(stderr, "%s: %s computed wrong values; its figure is left out\n", p_.name.c_str(),
                 kernel.c_str());
    return 0;
  }

  template <class... M> void release(cl_kernel k, M... mems) {
    if (k) clReleaseKernel(k);
    (clReleaseMemObject(mems), ...);
  }

  bench::Platform& p_;
  size_t bytes_;
};

bool has_fp64(const bench::Platform& p) {
  char ext[8192] = "";
  clGetDeviceInfo(p.device, CL_DEVICE_EXTENSIONS, sizeof ext, ext, nullptr);
  return std::strstr(ext, "cl_khr_fp64") != nullptr;
}

// Every row for one platform, in the order `labels` lists them.
std::vector<double> characterise(bench::Platform& p, size_t bytes, size_t global,
                                 std::vector<std::string>* labels) {
  std::vector<double> v;
  auto add = [&](const std::string& label, double x) {
    if (labels) labels->push_back(label);
    v.push_back(x);
  };
  Characterise c(p, bytes);
  static const char* const kFloat[] = {"float", "float2", "float4", "float8", "float16"};
  static const char* const kDouble[] = {"double", "double2", "double4", "double8", "double16"};
  static const size_t kWidth[] = {1, 2, 4, 8, 16};

  cl_program bw = p.build(kBandwidthSource);
  for (size_t i = 0; i < 5; ++i)
    add(std::string("global memory GB/s, ") + kFloat[i],
        bw ? c.bandwidth(bw, kFloat[i], kWidth[i]) : 0);
  cl_program sp = p.build(kComputeSource);
  for (size_t i = 0; i < 5; ++i)
    add(std::string("single precision GFLOPS, ") + kFloat[i],
        sp ? c.compute<float>(sp, kFloat[i], kWidth[i], 0.999f, 0.001f, global / kWidth[i]) : 0);
  add("32-bit integer GIOPS, uint", sp ? c.compute<uint32_t>(sp, "uint", 1, 3u, 7u, global) : 0);
  add("32-bit integer GIOPS, uint4",
      sp ? c.compute<uint32_t>(sp, "uint4", 4, 3u, 7u, global / 4) : 0);
  cl_program dp = has_fp64(p) ? p.build(kComputeSource, "-DUSE_DOUBLE") : nullptr;
  for (size_t i = 0; i < 5; ++i)
    add(std::string("double precision GFLOPS, ") + kDouble[i],
        dp ? c.compute<double>(dp, kDouble[i], kWidth[i], 0.999, 0.001, global / kWidth[i]) : 0);
  cl_program empty = p.build(kEmptySource);
  const auto [queued_to_start, round_trip] =
      empty ? c.launch_latency(empty) : std::pair<double, double>{0, 0};
  add("kernel launch latency us (queued->start)", queued_to_start);
  add("kernel + clFinish round trip us", round_trip);
  const std::vector<double> t = c.transfers();
  const char* const kTransfer[] = {"write", "read", "map + memcpy in", "map + memcpy out",
                                   "device copy"};
  for (size_t i = 0; i < t.size(); ++i) add(std::string("transfer GB/s, ") + kTransfer[i], t[i]);
  for (cl_program prog : {bw, sp, dp, empty})
    if (prog) clReleaseProgram(prog);
  return v;
}

} // namespace

int main(int argc, char** argv) {
  const size_t mib = argc > 1 ? size_t(std::atol(argv[1])) : 16;
  const size_t bytes = mib << 20;
  // Work-items of the compute kernels (divided by the vector width): ~4e8 operations a row.
  const size_t global = 64 * 1024;
  bench::Platform amcl(bench::kAmcl, CL_QUEUE_PROFILING_ENABLE);
  bench::Platform pocl(bench::kPocl, CL_QUEUE_PROFILING_ENABLE);
  if (!amcl) {
    std::fprintf(stderr, "the amcl platform is not available (set OCL_ICD_VENDORS)\n");
    return 1;
  }
  std::vector<std::string> labels;
  const std::vector<double> a = characterise(amcl, bytes, global, &labels);
  const std::vector<double> p =
      pocl ? characterise(pocl, bytes, global, nullptr) : std::vector<double>(a.size(), 0);
  std::vector<unsigned char> src(bytes, 1), dst(bytes, 0);
  const double memcpy_gb = double(bytes) * 1e-9 / bench::best_of(5, [&] {
                             std::memcpy(dst.data(), src.data(), bytes);
                             src[0] = dst[bytes - 1];
                           });
  std::printf("%s (%zu MiB buffers) beside %s\n", amcl.name.c_str(), mib,
              pocl ? pocl.name.c_str() : "no PoCL");
  std::printf("%-44s %12s %12s %10s\n", "figure", "amcl", "PoCL", "amcl/PoCL");
  for (size_t i = 0; i < labels.size(); ++i)
    std::printf("%-44s %12.3f %12.3f %10s\n", labels[i].c_str(), a[i], p[i],
                bench::ratio(a[i], p[i]).c_str());
  std::printf("%-44s %12.3f %12.3f\n", "host memcpy GB/s, one thread", memcpy_gb, memcpy_gb);
  return 0;
}
