// Many host threads on shared objects (OpenCL 3.0 Appendix A.2: every API call but
// clSetKernelArg on one kernel is thread-safe): 8 threads × AMCL_STRESS_ENQUEUES (default
// 10,000) mixed writes, kernels, copies and reads on two shared queues and two shared
// buffers, each thread on its own slice, every result checked.
#include "cl_helpers.h"

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <random>
#include <thread>

using amcl_test::Env;

namespace {

constexpr int kThreads = 8;
constexpr size_t kSlice = 256; // ints per thread

const char* kSource = R"(
kernel void add(global int* p, uint base, int v) { p[base + get_global_id(0)] += v; }
)";

} // namespace

TEST(Stress, ThreadsShareQueuesAndBuffers) {
  Env env;
  ASSERT_TRUE(env.queue);
  const int enqueues =
      std::getenv("AMCL_STRESS_ENQUEUES") ? std::atoi(std::getenv("AMCL_STRESS_ENQUEUES")) : 10000;
  cl_command_queue queues[2] = {
      env.queue, clCreateCommandQueueWithProperties(env.context, env.device, nullptr, nullptr)};
  const char* src = kSource;
  cl_program prog = clCreateProgramWithSource(env.context, 1, &src, nullptr, nullptr);
  ASSERT_EQ(clBuildProgram(prog, 1, &env.device, "", nullptr, nullptr), CL_SUCCESS);
  const size_t bytes = kThreads * kSlice * sizeof(int);
  std::vector<int> zero(kThreads * kSlice, 0);
  cl_mem data = env.buffer(bytes, zero.data()), mirror = env.buffer(bytes, zero.data());
  std::atomic<int> failures{0};
  std::atomic<long> done{0};

  auto worker = [&](int t) {
    std::mt19937 rng(uint32_t(t) + 1);
    cl_command_queue q = queues[t % 2];
    cl_kernel k = clCreateKernel(prog, "add", nullptr); // clSetKernelArg is per kernel object
    const cl_uint base = cl_uint(t * kSlice);
    clSetKernelArg(k, 0, sizeof data, &data);
    clSetKernelArg(k, 1, sizeof base, &base);
    const size_t off = base * sizeof(int), n = kSlice * sizeof(int);
    std::vector<int> expect(kSlice, 0), host(kSlice), mirrored(kSlice, 0);
    for (int i = 0; i < enqueues && !failures; ++i) {
      switch (rng() % 4) {
      case 0: // write new values (blocking: host memory is reused next iteration)
        for (size_t j = 0; j < kSlice; ++j) expect[j] = host[j] = int(rng() % 1000);
        if (clEnqueueWriteBuffer(q, data, CL_TRUE, off, n, host.data(), 0, nullptr, nullptr))
          ++failures;
        break;
      case 1: { // a kernel adds v to the slice (not waited for)
        const int v = int(rng() % 7) + 1;
        clSetKernelArg(k, 2, sizeof v, &v);
        const size_t global = kSlice;
        if (clEnqueueNDRangeKernel(q, k, 1, nullptr, &global, nullptr, 0, nullptr, nullptr))
          ++failures;
        for (int& e : expect) e += v;
        break;
      }
      case 2: // device-side copy to the mirror buffer (not waited for)
        if (clEnqueueCopyBuffer(q, data, mirror, off, off, n, 0, nullptr, nullptr)) ++failures;
        mirrored = expect;
        break;
      default: { // read back and check both buffers
        std::vector<int> got(kSlice), got_mirror(kSlice);
        if (clEnqueueReadBuffer(q, data, CL_TRUE, off, n, got.data(), 0, nullptr, nullptr) ||
            clEnqueueReadBuffer(q, mirror, CL_TRUE, off, n, got_mirror.data(), 0, nullptr,
                                nullptr) ||
            got != expect || got_mirror != mirrored)
          ++failures;
      }
      }
      ++done;
    }
    clFinish(q);
    std::vector<int> got(kSlice);
    clEnqueueReadBuffer(q, data, CL_TRUE, off, n, got.data(), 0, nullptr, nullptr);
    if (got != expect) ++failures;
    clReleaseKernel(k);
  };
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) threads.emplace_back(worker, t);
  for (auto& th : threads) th.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(done.load(), long(kThreads) * enqueues);
  std::printf("stress: %ld enqueues from %d threads\n", done.load(), kThreads);
  clReleaseMemObject(data);
  clReleaseMemObject(mirror);
  clReleaseProgram(prog);
  clReleaseCommandQueue(queues[1]);
}

// One out-of-order queue shared by 8 threads, each ordering only its own commands by chaining
// events (each command waits for the thread's previous one): the queue holds many independent
// chains at once, and every thread's results come out as if its chain ran alone.
TEST(Stress, ThreadsChainCommandsOnOneOutOfOrderQueue) {
  Env env;
  ASSERT_TRUE(env.queue);
  const int enqueues =
      (std::getenv("AMCL_STRESS_ENQUEUES") ? std::atoi(std::getenv("AMCL_STRESS_ENQUEUES"))
                                           : 10000) /
      5;
  const cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE,
                                       0};
  cl_command_queue q = clCreateCommandQueueWithProperties(env.context, env.device, props, nullptr);
  ASSERT_NE(q, nullptr);
  const char* src = kSource;
  cl_program prog = clCreateProgramWithSource(env.context, 1, &src, nullptr, nullptr);
  ASSERT_EQ(clBuildProgram(prog, 1, &env.device, "", nullptr, nullptr), CL_SUCCESS);
  const size_t bytes = kThreads * kSlice * sizeof(int);
  std::vector<int> zero(kThreads * kSlice, 0);
  cl_mem data = env.buffer(bytes, zero.data());
  std::atomic<int> failures{0};
  auto worker = [&](int t) {
    std::mt19937 rng(uint32_t(t) + 100);
    cl_kernel k = clCreateKernel(prog, "add", nullptr);
    const cl_uint base = cl_uint(t * kSlice);
    clSetKernelArg(k, 0, sizeof data, &data);
    clSetKernelArg(k, 1, sizeof base, &base);
    const size_t off = base * sizeof(int), n = kSlice * sizeof(int);
    std::vector<int> expect(kSlice, 0), host(kSlice), got(kSlice);
    cl_event last = nullptr, next = nullptr;
    // Called with an enqueue's result: its event (in `next`, read only once the call has
    // returned) becomes what the thread's next command waits for.
    auto chain = [&](cl_int err) {
      if (err) ++failures;
      if (last) clReleaseEvent(last);
      last = next;
      next = nullptr;
    };
    for (int i = 0; i < enqueues && !failures; ++i) {
      const cl_uint nwait = last ? 1 : 0;
      const cl_event* wait = last ? &last : nullptr; // a list must be NULL when it is empty
      switch (rng() % 3) {
      case 0: // the write's host memory is reused: wait for it
        for (size_t j = 0; j < kSlice; ++j) expect[j] = host[j] = int(rng() % 1000);
        chain(clEnqueueWriteBuffer(q, data, CL_TRUE, off, n, host.data(), nwait, wait, &next));
        break;
      case 1: {
        const int v = int(rng() % 7) + 1;
        clSetKernelArg(k, 2, sizeof v, &v);
        const size_t global = kSlice;
        chain(clEnqueueNDRangeKernel(q, k, 1, nullptr, &global, nullptr, nwait, wait, &next));
        for (int& e : expect) e += v;
        break;
      }
      default:
        chain(clEnqueueReadBuffer(q, data, CL_TRUE, off, n, got.data(), nwait, wait, &next));
        if (got != expect) ++failures;
      }
    }
    chain(clEnqueueReadBuffer(q, data, CL_TRUE, off, n, got.data(), last ? 1 : 0,
                              last ? &last : nullptr, nullptr));
    if (got != expect) ++failures;
    clReleaseKernel(k);
  };
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) threads.emplace_back(worker, t);
  for (auto& th : threads) th.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(clFinish(q), CL_SUCCESS);
  clReleaseMemObject(data);
  clReleaseProgram(prog);
  clReleaseCommandQueue(q);
}
