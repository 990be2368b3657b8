// Host-side cost of the hot OpenCL calls, amcl next to PoCL in the same process: each call is
// timed on its own (mean and p99, µs). Enqueues are measured without waiting; the device work
// they queue is drained with clFinish outside the timed region.
//
//   OCL_ICD_VENDORS=<build>/vendors build/bench/host_overhead [iterations]
#include "bench_util.h"

#include <cstdlib>
#include <functional>
#include <map>

namespace {

const char* kSource = "__kernel void empty(__global int* p) { }";

struct Row {
  std::string op;
  bench::Stats stats;
};

// Times `call` `n` times (one sample per call) after `warm` untimed calls.
bench::Stats time_calls(size_t n, size_t warm, const std::function<void()>& call) {
  for (size_t i = 0; i < warm; ++i) call();
  std::vector<double> samples;
  samples.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    const double t0 = bench::now_us();
    call();
    samples.push_back(bench::now_us() - t0);
  }
  return bench::summarize(std::move(samples));
}

std::vector<Row> measure(bench::Platform& p, size_t n) {
  std::vector<Row> rows;
  cl_program prog = p.build(kSource);
  if (!prog) return rows;
  cl_kernel k = clCreateKernel(prog, "empty", nullptr);
  cl_mem buf = clCreateBuffer(p.context, CL_MEM_READ_WRITE, 4096, nullptr, nullptr);
  clSetKernelArg(k, 0, sizeof buf, &buf);
  const size_t global = 64, local = 64;
  int host[16] = {};

  rows.push_back({"clSetKernelArg (buffer)",
                  time_calls(n * 10, 100, [&] { clSetKernelArg(k, 0, sizeof buf, &buf); })});
  // Warm-up outside the timed runs, for both implementations: the first dispatches pay for
  // one-time work (amcl: the code object's first decode in the emulator, kernel-argument
  // slots, object memory and the queue's command list growing to hold a burst of `n`
  // commands), which is not the per-call cost. The bursts are as long as the timed one.
  for (int round = 0; round < 2; ++round) {
    for (size_t i = 0; i < n; ++i)
      clEnqueueNDRangeKernel(p.queue, k, 1, nullptr, &global, &local, 0, nullptr, nullptr);
    clFinish(p.queue);
  }
  rows.push_back({"clEnqueueNDRangeKernel (no wait)", time_calls(n, 10, [&] {
                    clEnqueueNDRangeKernel(p.queue, k, 1, nullptr, &global, &local, 0, nullptr,
                                           nullptr);
                  })});
  clFinish(p.queue);
  {
    // The same with the queue held by a user event: nothing runs meanwhile, so this is the
    // enqueue's own cost, without the submission and device threads competing for the cores.
    cl_event gate = clCreateUserEvent(p.context, nullptr);
    clEnqueueMarkerWithWaitList(p.queue, 1, &gate, nullptr);
    rows.push_back({"clEnqueueNDRangeKernel (queue held)", time_calls(n, 10, [&] {
                      clEnqueueNDRangeKernel(p.queue, k, 1, nullptr, &global, &local, 0, nullptr,
                                             nullptr);
                    })});
    clSetUserEventStatus(gate, CL_COMPLETE);
    clReleaseEvent(gate);
    clFinish(p.queue);
  }
  rows.push_back({"clEnqueueWriteBuffer (64 B, no wait)", time_calls(n, 10, [&] {
                    clEnqueueWriteBuffer(p.queue, buf, CL_FALSE, 0, sizeof host, host, 0, nullptr,
                                         nullptr);
                  })});
  clFinish(p.queue);
  rows.push_back({"clEnqueueMarker + event release", time_calls(n, 10, [&] {
                    cl_event e = nullptr;
                    clEnqueueMarkerWithWaitList(p.queue, 0, nullptr, &e);
                    clReleaseEvent(e);
                  })});
  clFinish(p.queue);
  rows.push_back({"clCreateUserEvent + release", time_calls(n, 10, [&] {
                    cl_event e = clCreateUserEvent(p.context, nullptr);
                    clReleaseEvent(e);
                  })});
  // Many round trips, so that the median and p99 show whether it is one figure or two.
  rows.push_back({"kernel + clFinish round trip", time_calls(std::max<size_t>(n / 2, 50), 50, [&] {
                    clEnqueueNDRangeKernel(p.queue, k, 1, nullptr, &global, &local, 0, nullptr,
                                           nullptr);
                    clFinish(p.queue);
                  })});
  rows.push_back(
      {"clEnqueueReadBuffer (64 B, blocking)", time_calls(std::max<size_t>(n / 10, 50), 10, [&] {
         clEnqueueReadBuffer(p.queue, buf, CL_TRUE, 0, sizeof host, host, 0, nullptr, nullptr);
       })});
  clReleaseMemObject(buf);
  clReleaseKernel(k);
  clReleaseProgram(prog);
  return rows;
}

} // namespace

int main(int argc, char** argv) {
  const size_t n = argc > 1 ? size_t(std::atol(argv[1])) : 2000;
  bench::Platform amcl(bench::kAmcl), pocl(bench::kPocl);
  if (!amcl) {
    std::fprintf(stderr, "the amcl platform is not available (set OCL_ICD_VENDORS)\n");
    return 1;
  }
  std::vector<Row> a = measure(amcl, n), p;
  if (pocl) p = measure(pocl, n);
  // The mean carries the rare stalls of a shared machine (one preempted call of a millisecond
  // moves a 2000-call mean by half a microsecond); the median shows the typical call.
  std::printf("%-40s %9s %9s %9s %9s %9s %9s %10s\n", "call (µs per call)", "amcl mean", "amcl p50",
              "amcl p99", "PoCL mean", "PoCL p50", "PoCL p99", "PoCL/amcl");
  for (size_t i = 0; i < a.size(); ++i) {
    const bench::Stats& s = a[i].stats;
    const bench::Stats r = i < p.size() ? p[i].stats : bench::Stats{};
    std::printf("%-40s %9.2f %9.2f %9.2f %9.2f %9.2f %9.2f %10s\n", a[i].op.c_str(), s.mean, s.p50,
                s.p99, r.mean, r.p50, r.p99, bench::ratio(r.mean, s.mean).c_str());
  }
  return 0;
}
