// Device-side figures, amcl's emulated GPU next to PoCL in the same process: empty-kernel
// dispatch rate with the queue fed from one application thread and from four, and copy
// bandwidth host->device, device->host and device->device, beside the host's own memcpy of the
// same size in the same run (the copies' target: within 2x of it).
//
//   OCL_ICD_VENDORS=<build>/vendors build/bench/device_throughput [MiB]
#include "bench_util.h"

#include <algorithm>
#include <atomic>
#include <barrier>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

namespace {

struct Figures {
  double kernels_per_s = 0, kernels_per_s_4 = 0; // fed from one thread, from four
  double h2d = 0, d2h = 0, d2d = 0;               // GB/s
};

Figures measure(bench::Platform& p, size_t bytes) {
  Figures f;
  cl_program prog = p.build("__kernel void empty(__global int* p) { }");
  if (!prog) return f;
  cl_kernel k = clCreateKernel(prog, "empty", nullptr);
  cl_mem a = clCreateBuffer(p.context, CL_MEM_READ_WRITE, bytes, nullptr, nullptr);
  cl_mem b = clCreateBuffer(p.context, CL_MEM_READ_WRITE, bytes, nullptr, nullptr);
  clSetKernelArg(k, 0, sizeof a, &a);
  std::vector<unsigned char> host(bytes, 0x5a);

  const size_t global = 64, local = 64, kernels = 2000;
  clEnqueueNDRangeKernel(p.queue, k, 1, nullptr, &global, &local, 0, nullptr, nullptr);
  clFinish(p.queue);
  // A round of 2000 kernels takes a few milliseconds: on a shared 2-core machine one round in
  // three meets a moment when both cores are free only now and then, so each rate is the best
  // of ten rounds (both implementations alike).
  constexpr int kRounds = 10;
  const double t = bench::best_of(kRounds, [&] {
    for (size_t i = 0; i < kernels; ++i)
      clEnqueueNDRangeKernel(p.queue, k, 1, nullptr, &global, &local, 0, nullptr, nullptr);
    clFinish(p.queue);
  });
  f.kernels_per_s = double(kernels) / t;
  // The same number of kernels enqueued into the one queue by four threads at once (an
  // application whose worker threads share a queue): the enqueue path's locks are contended.
  // The threads live across the rounds, as an application's workers do; each round releases
  // them together and ends when the queue has finished what they enqueued. (Creating and
  // joining four threads in every round took 0.1-0.2 ms of a round of about 1 ms on a 2-core
  // VM, for both implementations alike.)
  const size_t feeders = 4;
  std::barrier start(ptrdiff_t(feeders + 1)), enqueued(ptrdiff_t(feeders + 1));
  std::atomic<bool> quit{false};
  std::vector<std::thread> threads;
  for (size_t n = 0; n < feeders; ++n)
    threads.emplace_back([&] {
      for (;;) {
        start.arrive_and_wait();
        if (quit) return;
        for (size_t i = 0; i < kernels / feeders; ++i)
          clEnqueueNDRangeKernel(p.queue, k, 1, nullptr, &global, &local, 0, nullptr, nullptr);
        enqueued.arrive_and_wait();
      }
    });
  const double t4 = bench::best_of(kRounds, [&] {
    start.arrive_and_wait();
    enqueued.arrive_and_wait();
    clFinish(p.queue);
  });
  quit = true;
  start.arrive_and_wait();
  for (std::thread& t : threads) t.join();
  f.kernels_per_s_4 = double(kernels) / t4;

  const double gb = double(bytes) * 1e-9;
  f.h2d = gb / bench::best_of(3, [&] {
            clEnqueueWriteBuffer(p.queue, a, CL_TRUE, 0, bytes, host.data(), 0, nullptr, nullptr);
          });
  f.d2h = gb / bench::best_of(3, [&] {
            clEnqueueReadBuffer(p.queue, a, CL_TRUE, 0, bytes, host.data(), 0, nullptr, nullptr);
          });
  f.d2d = gb / bench::best_of(3, [&] {
            clEnqueueCopyBuffer(p.queue, a, b, 0, 0, bytes, 0, nullptr, nullptr);
            clFinish(p.queue);
          });
  clReleaseMemObject(a);
  clReleaseMemObject(b);
  clReleaseKernel(k);
  clReleaseProgram(prog);
  return f;
}

} // namespace

int main(int argc, char** argv) {
  const size_t mib = argc > 1 ? size_t(std::atol(argv[1])) : 64;
  bench::Platform amcl(bench::kAmcl), pocl(bench::kPocl);
  if (!amcl) {
    std::fprintf(stderr, "the amcl platform is not available (set OCL_ICD_VENDORS)\n");
    return 1;
  }
  // The host's memcpy of the same size, one thread, best of five before and after the copies
  // (the machines are noisy): the copies' yardstick.
  std::vector<unsigned char> src(mib << 20, 1), dst(mib << 20, 0);
  auto memcpy_gb = [&] {
    return double(mib << 20) * 1e-9 / bench::best_of(5, [&] {
             std::memcpy(dst.data(), src.data(), src.size());
             src[0] = dst[src.size() - 1];
           });
  };
  double host_gb = memcpy_gb();
  const Figures a = measure(amcl, mib << 20);
  const Figures p = pocl ? measure(pocl, mib << 20) : Figures{};
  host_gb = std::max(host_gb, memcpy_gb());
  std::printf("%-36s %12s %12s %10s\n", "figure", "amcl", "PoCL", "amcl/PoCL");
  auto row = [](const char* what, double x, double y) {
    std::printf("%-36s %12.3f %12.3f %10s\n", what, x, y, bench::ratio(x, y).c_str());
  };
  row("empty kernels/s (x1000), 1 thread", a.kernels_per_s / 1000, p.kernels_per_s / 1000);
  row("empty kernels/s (x1000), 4 threads", a.kernels_per_s_4 / 1000, p.kernels_per_s_4 / 1000);
  char label[64];
  std::snprintf(label, sizeof label, "host->device GB/s (%zu MiB)", mib);
  row(label, a.h2d, p.h2d);
  std::snprintf(label, sizeof label, "device->host GB/s (%zu MiB)", mib);
  row(label, a.d2h, p.d2h);
  std::snprintf(label, sizeof label, "device->device GB/s (%zu MiB)", mib);
  row(label, a.d2d, p.d2d);
  std::snprintf(label, sizeof label, "host memcpy GB/s (%zu MiB)", mib);
  row(label, host_gb, host_gb);
  std::printf("copies / memcpy: host->device %.2f, device->host %.2f, device->device %.2f\n",
              a.h2d / host_gb, a.d2h / host_gb, a.d2d / host_gb);
  return 0;
}
