// Event semantics through the ICD loader (the CTS "events" suite's ground): user events gate
// commands, failures propagate to dependants, callbacks run in state order, waits cross
// queues, and a pending command keeps its arguments and buffers as they were at enqueue.
#include "cl_helpers.h"

#include <array>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <future>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

using amcl_test::Env;

namespace {

const char* kStore = "__kernel void store(__global int* p, int v) { p[get_global_id(0)] = v; }";

int read_int(Env& env, cl_mem m) {
  int v = -1;
  EXPECT_EQ(clEnqueueReadBuffer(env.queue, m, CL_TRUE, 0, sizeof v, &v, 0, nullptr, nullptr),
            CL_SUCCESS);
  return v;
}

// Callbacks run on the runtime's threads, and OpenCL does not order a callback before the
// completion a clFinish or clWaitForEvents observes: read what they recorded under the lock,
// and wait (boundedly) for the number expected before comparing.
struct Trace {
  std::mutex mutex;
  std::vector<cl_int> seen;
  static void CL_CALLBACK record(cl_event, cl_int status, void* self) {
    auto* t = static_cast<Trace*>(self);
    std::lock_guard lock(t->mutex);
    t->seen.push_back(status);
  }
  std::vector<cl_int> snapshot() {
    std::lock_guard lock(mutex);
    return seen;
  }
  // What was recorded once `count` callbacks have run, or after 5 s.
  std::vector<cl_int> after(size_t count) {
    amcl_test::eventually([&] { return snapshot().size() >= count; });
    return snapshot();
  }
};

// clFinish on another thread, given `limit` to return CL_SUCCESS. A clFinish that never
// returns leaves the runtime wedged: the process ends with the failure printed rather than
// waiting for ctest's time limit.
bool finishes_within(cl_command_queue q, std::chrono::seconds limit) {
  auto done = std::make_shared<std::promise<cl_int>>();
  std::future<cl_int> result = done->get_future();
  std::thread([q, done] { done->set_value(clFinish(q)); }).detach();
  if (result.wait_for(limit) == std::future_status::ready) return result.get() == CL_SUCCESS;
  std::fprintf(stderr, "clFinish did not return within %llds\n", (long long)limit.count());
  std::fflush(nullptr);
  std::_Exit(1);
}
constexpr std::chrono::seconds kFinishLimit{120};

} // namespace

TEST(Events, UserEventGatesAKernel) {
  Env env;
  ASSERT_TRUE(env.queue);
  cl_int err, zero = 0, seven = 7;
  cl_mem m = env.buffer(sizeof(int), &zero);
  cl_kernel k = env.kernel(kStore, "store");
  clSetKernelArg(k, 0, sizeof m, &m);
  clSetKernelArg(k, 1, sizeof seven, &seven);
  cl_event gate = clCreateUserEvent(env.context, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  size_t one = 1;
  cl_event done;
  ASSERT_EQ(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, &one, &one, 1, &gate, &done),
            CL_SUCCESS);
  EXPECT_EQ(env.status(done), CL_SUBMITTED); // held back by the gate
  EXPECT_EQ(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
  EXPECT_EQ(clSetUserEventStatus(gate, CL_COMPLETE), CL_INVALID_OPERATION);
  EXPECT_EQ(clWaitForEvents(1, &done), CL_SUCCESS);
  EXPECT_EQ(read_int(env, m), 7);
  clReleaseEvent(done);
  clReleaseEvent(gate);
  clReleaseKernel(k);
  clReleaseMemObject(m);
}

TEST(Events, FailedUserEventFailsItsDependants) {
  Env env;
  ASSERT_TRUE(env.queue);
  cl_int err, zero = 0, v = 3;
  cl_mem m = env.buffer(sizeof(int), &zero);
  cl_event gate = clCreateUserEvent(env.context, &err);
  cl_event write;
  ASSERT_EQ(clEnqueueWriteBuffer(env.queue, m, CL_FALSE, 0, sizeof v, &v, 1, &gate, &write),
            CL_SUCCESS);
  EXPECT_EQ(clSetUserEventStatus(gate, -1234), CL_SUCCESS);
  EXPECT_EQ(clWaitForEvents(1, &write), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  EXPECT_EQ(env.status(write), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  EXPECT_EQ(read_int(env, m), 0); // the write never ran
  clReleaseEvent(write);
  clReleaseEvent(gate);
  clReleaseMemObject(m);
}

TEST(Events, CallbacksRunInStateOrder) {
  Env env;
  ASSERT_TRUE(env.queue);
  cl_int err;
  cl_event gate = clCreateUserEvent(env.context, &err);
  cl_event marker;
  ASSERT_EQ(clEnqueueMarkerWithWaitList(env.queue, 1, &gate, &marker), CL_SUCCESS);
  Trace trace;
  ASSERT_EQ(clSetEventCallback(marker, CL_COMPLETE, &Trace::record, &trace), CL_SUCCESS);
  ASSERT_EQ(clSetEventCallback(marker, CL_RUNNING, &Trace::record, &trace), CL_SUCCESS);
  ASSERT_EQ(clSetEventCallback(marker, CL_SUBMITTED, &Trace::record, &trace),
            CL_SUCCESS); // already there
  EXPECT_EQ(trace.after(1), (std::vector<cl_int>{CL_SUBMITTED}));
  EXPECT_EQ(clSetEventCallback(marker, 42, &Trace::record, &trace), CL_INVALID_VALUE);
  clSetUserEventStatus(gate, CL_COMPLETE);
  clFinish(env.queue);
  EXPECT_EQ(trace.after(3), (std::vector<cl_int>{CL_SUBMITTED, CL_RUNNING, CL_COMPLETE}));
  clReleaseEvent(marker);
  clReleaseEvent(gate);
}

TEST(Events, WaitsCrossQueues) {
  Env env;
  ASSERT_TRUE(env.queue);
  cl_int err, zero = 0, v = 11;
  cl_command_queue q2 = clCreateCommandQueueWithProperties(env.context, env.device, nullptr, &err);
  cl_mem m = env.buffer(sizeof(int), &zero);
  cl_event gate = clCreateUserEvent(env.context, &err);
  cl_event write, read;
  int got = 0;
  ASSERT_EQ(clEnqueueWriteBuffer(env.queue, m, CL_FALSE, 0, sizeof v, &v, 1, &gate, &write),
            CL_SUCCESS);
  ASSERT_EQ(clEnqueueReadBuffer(q2, m, CL_FALSE, 0, sizeof got, &got, 1, &write, &read),
            CL_SUCCESS);
  EXPECT_EQ(env.status(read), CL_SUBMITTED);
  // Another thread opens the gate while this one waits on the second queue's read.
  std::thread opener([&] { clSetUserEventStatus(gate, CL_COMPLETE); });
  EXPECT_EQ(clWaitForEvents(1, &read), CL_SUCCESS);
  opener.join();
  EXPECT_EQ(got, 11);
  clReleaseEvent(read);
  clReleaseEvent(write);
  clReleaseEvent(gate);
  clReleaseMemObject(m);
  clReleaseCommandQueue(q2);
}

// Hundreds of dispatches enqueued without waiting (more than the device holds at once), each
// with its own argument value, and a host write in the middle: all run in order, every
// dispatch sees the arguments it was enqueued with, and the write lands between them.
TEST(Events, DispatchesInFlightRunInOrderWithTheirArguments) {
  Env env;
  ASSERT_TRUE(env.queue);
  // Long enough per dispatch that the device still has many queued when the write comes.
  cl_kernel k = env.kernel("__kernel void step(__global uint* p, uint v) {"
                           " size_t i = get_global_id(0); uint x = p[i];"
                           " for (uint j = 0; j < 200u; ++j) x = x * 3u + v + (uint)i + j;"
                           " p[i] = x; }",
                           "step");
  constexpr size_t kItems = 256, kLaunches = 300, kWriteAt = 150;
  std::vector<cl_uint> host(kItems, 1), reset(kItems), expect(kItems, 1), out(kItems);
  for (size_t i = 0; i < kItems; ++i) reset[i] = cl_uint(1000 + i);
  cl_mem m = env.buffer(kItems * 4, host.data());
  clSetKernelArg(k, 0, sizeof m, &m);
  cl_event last = nullptr;
  for (size_t n = 0; n < kLaunches; ++n) {
    if (n == kWriteAt) {
      ASSERT_EQ(clEnqueueWriteBuffer(env.queue, m, CL_FALSE, 0, kItems * 4, reset.data(), 0,
                                     nullptr, nullptr),
                CL_SUCCESS);
      expect = reset;
    }
    const cl_uint v = cl_uint(n * 7919);
    clSetKernelArg(k, 1, sizeof v, &v);
    size_t global = kItems;
    if (last) clReleaseEvent(last);
    ASSERT_EQ(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, &global, nullptr, 0, nullptr, &last),
              CL_SUCCESS);
    for (size_t i = 0; i < kItems; ++i)
      for (cl_uint j = 0; j < 200; ++j) expect[i] = expect[i] * 3u + v + cl_uint(i) + j;
  }
  EXPECT_EQ(env.final_status(last), CL_COMPLETE);
  ASSERT_EQ(
      clEnqueueReadBuffer(env.queue, m, CL_TRUE, 0, kItems * 4, out.data(), 0, nullptr, nullptr),
      CL_SUCCESS);
  EXPECT_EQ(out, expect);
  clReleaseEvent(last);
  clReleaseMemObject(m);
  clReleaseKernel(k);
}

// Dispatches held back by a user event go to the device in one batch once it completes: one
// doorbell, and an end-of-pipe interrupt only for the batch's last. A wait for the first of them
// still returns, each completes in order with its own arguments and GPU times.
TEST(Events, DispatchesReleasedTogetherEachComplete) {
  Env env;
  ASSERT_TRUE(env.queue);
  cl_int err;
  cl_event gate = clCreateUserEvent(env.context, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  const cl_queue_properties profiling[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
  cl_command_queue q = clCreateCommandQueueWithProperties(env.context, env.device, profiling, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  constexpr size_t kLaunches = 40;
  std::vector<int> out(kLaunches, 0);
  cl_mem m = env.buffer(kLaunches * sizeof(int), out.data());
  cl_kernel k = env.kernel(kStore, "store");
  clSetKernelArg(k, 0, sizeof m, &m);
  std::vector<cl_event> done(kLaunches);
  for (size_t i = 0; i < kLaunches; ++i) {
    const int v = int(i) + 1;
    clSetKernelArg(k, 1, sizeof v, &v);
    size_t offset = i, one = 1;
    ASSERT_EQ(clEnqueueNDRangeKernel(q, k, 1, &offset, &one, &one, i == 0 ? 1 : 0,
                                     i == 0 ? &gate : nullptr, &done[i]),
              CL_SUCCESS);
  }
  EXPECT_EQ(env.status(done[0]), CL_SUBMITTED);
  ASSERT_EQ(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
  EXPECT_EQ(clWaitForEvents(1, &done[0]), CL_SUCCESS);
  EXPECT_EQ(clWaitForEvents(cl_uint(kLaunches), done.data()), CL_SUCCESS);
  cl_ulong previous_end = 0;
  for (size_t i = 0; i < kLaunches; ++i) {
    EXPECT_EQ(env.status(done[i]), CL_COMPLETE) << i;
    cl_ulong start = 0, end = 0;
    EXPECT_EQ(
        clGetEventProfilingInfo(done[i], CL_PROFILING_COMMAND_START, sizeof start, &start, nullptr),
        CL_SUCCESS);
    EXPECT_EQ(clGetEventProfilingInfo(done[i], CL_PROFILING_COMMAND_END, sizeof end, &end, nullptr),
              CL_SUCCESS);
    EXPECT_GE(start, previous_end) << i;
    EXPECT_GE(end, start) << i;
    previous_end = end;
  }
  ASSERT_EQ(clEnqueueReadBuffer(q, m, CL_TRUE, 0, kLaunches * sizeof(int), out.data(), 0, nullptr,
                                nullptr),
            CL_SUCCESS);
  for (size_t i = 0; i < kLaunches; ++i) EXPECT_EQ(out[i], int(i) + 1) << i;
  for (cl_event e : done) clReleaseEvent(e);
  clReleaseEvent(gate);
  clReleaseKernel(k);
  clReleaseMemObject(m);
  clReleaseCommandQueue(q);
}

// Launches with unchanged arguments share one snapshot of them; it holds the buffers only while
// a launch needs it: once they have run, a buffer the application released is gone, though the
// kernel still names it.
TEST(Events, SharedArgumentSnapshotLetsReleasedBuffersGo) {
  Env env;
  ASSERT_TRUE(env.queue);
  cl_kernel k = env.kernel(kStore, "store");
  cl_mem m = env.buffer(64 * 4);
  std::atomic<int> freed{0};
  ASSERT_EQ(clSetMemObjectDestructorCallback(
                m, [](cl_mem, void* flag) { static_cast<std::atomic<int>*>(flag)->fetch_add(1); },
                &freed),
            CL_SUCCESS);
  int v = 3;
  clSetKernelArg(k, 0, sizeof m, &m);
  clSetKernelArg(k, 1, sizeof v, &v);
  size_t global = 64;
  for (int i = 0; i < 3; ++i)
    ASSERT_EQ(
        clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, &global, nullptr, 0, nullptr, nullptr),
        CL_SUCCESS);
  clReleaseMemObject(m);
  EXPECT_EQ(clFinish(env.queue), CL_SUCCESS);
  EXPECT_EQ(freed.load(), 1) << "the buffer outlived the launches that used it";
  clReleaseKernel(k);
}

TEST(Events, PendingLaunchKeepsItsArgumentsAndBuffers) {
  Env env;
  ASSERT_TRUE(env.queue);
  cl_int err, zero = 0, first = 5, second = 9;
  cl_mem a = env.buffer(sizeof(int), &zero), b = env.buffer(sizeof(int), &zero);
  cl_mem c = env.buffer(sizeof(int), &zero);
  cl_kernel k = env.kernel(kStore, "store");
  cl_event gate = clCreateUserEvent(env.context, &err);
  size_t one = 1;
  clSetKernelArg(k, 0, sizeof c, &c);
  clSetKernelArg(k, 1, sizeof first, &first);
  ASSERT_EQ(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, &one, &one, 1, &gate, nullptr),
            CL_SUCCESS);
  // Changing the arguments and releasing the buffer now must not affect the pending launch.
  clSetKernelArg(k, 0, sizeof a, &a);
  clSetKernelArg(k, 1, sizeof second, &second);
  cl_mem keep = c;
  clRetainMemObject(keep);
  clReleaseMemObject(c);
  clSetUserEventStatus(gate, CL_COMPLETE);
  clFinish(env.queue);
  EXPECT_EQ(read_int(env, keep), 5);
  EXPECT_EQ(read_int(env, a), 0);
  clReleaseMemObject(keep);
  clReleaseMemObject(a);
  clReleaseMemObject(b);
  clReleaseEvent(gate);
  clReleaseKernel(k);
}

namespace {

// Polls until `e` reaches a final status or `seconds` pass; the status it saw last. (A test of
// out-of-order execution must not hang when the implementation runs in order instead.)
cl_int status_within(Env& env, cl_event e, double seconds) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  cl_int s = env.status(e);
  while (s > CL_COMPLETE && std::chrono::steady_clock::now() < until) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    s = env.status(e);
  }
  return s;
}

cl_command_queue out_of_order_queue(Env& env) {
  const cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE,
                                       0};
  cl_int err;
  cl_command_queue q = clCreateCommandQueueWithProperties(env.context, env.device, props, &err);
  EXPECT_EQ(err, CL_SUCCESS);
  return q;
}

} // namespace

// Out of order, a command whose waits are done starts even when one enqueued before it is
// held back; markers without a wait list complete after everything before them; nothing passes
// a barrier.
TEST(Events, OutOfOrderQueueRunsReadyCommandsPastBlockedOnes) {
  Env env;
  ASSERT_TRUE(env.queue);
  cl_command_queue q = out_of_order_queue(env);
  ASSERT_NE(q, nullptr);
  cl_int err, zero = 0, one_value = 1, two_value = 2;
  cl_mem a = env.buffer(sizeof(int), &zero), b = env.buffer(sizeof(int), &zero);
  cl_event gate = clCreateUserEvent(env.context, &err);
  cl_event held, passed, marker, after_marker;
  ASSERT_EQ(clEnqueueWriteBuffer(q, a, CL_FALSE, 0, sizeof(int), &one_value, 1, &gate, &held),
            CL_SUCCESS);
  ASSERT_EQ(clEnqueueMarkerWithWaitList(q, 0, nullptr, &marker), CL_SUCCESS);
  ASSERT_EQ(clEnqueueWriteBuffer(q, b, CL_FALSE, 0, sizeof(int), &two_value, 0, nullptr, &passed),
            CL_SUCCESS);
  cl_kernel k = env.kernel(kStore, "store");
  ASSERT_NE(k, nullptr);
  cl_int five = 5;
  clSetKernelArg(k, 0, sizeof b, &b);
  clSetKernelArg(k, 1, sizeof five, &five);
  size_t n = 1;
  ASSERT_EQ(clEnqueueNDRangeKernel(q, k, 1, nullptr, &n, &n, 1, &passed, &after_marker),
            CL_SUCCESS);
  clFlush(q);
  EXPECT_EQ(status_within(env, passed, 10), CL_COMPLETE)
      << "a ready write waited behind a held one";
  EXPECT_EQ(status_within(env, after_marker, 10), CL_COMPLETE) << "a kernel waited behind a marker";
  EXPECT_EQ(read_int(env, b), 5);
  EXPECT_EQ(env.status(held), CL_SUBMITTED);
  EXPECT_GT(env.status(marker), CL_COMPLETE) << "the marker completed before the command before it";
  // A barrier holds everything after it until the held write is done.
  cl_event barrier, behind;
  ASSERT_EQ(clEnqueueBarrierWithWaitList(q, 0, nullptr, &barrier), CL_SUCCESS);
  ASSERT_EQ(clEnqueueWriteBuffer(q, b, CL_FALSE, 0, sizeof(int), &one_value, 0, nullptr, &behind),
            CL_SUCCESS);
  clFlush(q);
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_GT(env.status(behind), CL_COMPLETE) << "a command passed a barrier";
  EXPECT_EQ(read_int(env, b), 5);
  ASSERT_EQ(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
  ASSERT_EQ(clFinish(q), CL_SUCCESS);
  for (cl_event e : {held, marker, barrier, behind}) EXPECT_EQ(env.status(e), CL_COMPLETE);
  EXPECT_EQ(read_int(env, a), 1);
  EXPECT_EQ(read_int(env, b), 1);
  for (cl_event e : {gate, held, passed, marker, after_marker, barrier, behind}) clReleaseEvent(e);
  clReleaseKernel(k);
  clReleaseMemObject(a);
  clReleaseMemObject(b);
  clReleaseCommandQueue(q);
}

// Out of order, dependencies are only what the wait lists say: a chain of kernels that each
// wait for the previous one computes the same as an in-order queue would.
TEST(Events, OutOfOrderDependencyChainsKeepTheirOrder) {
  Env env;
  ASSERT_TRUE(env.queue);
  cl_command_queue q = out_of_order_queue(env);
  ASSERT_NE(q, nullptr);
  cl_kernel k = env.kernel(
      "__kernel void step(__global uint* p, uint m, uint a) { size_t i = get_global_id(0); "
      "p[i] = p[i] * m + a; }",
      "step");
  ASSERT_NE(k, nullptr);
  const size_t n = 256;
  std::vector<cl_uint> init(n, 1);
  cl_mem m = env.buffer(n * sizeof(cl_uint), init.data());
  cl_event last = nullptr;
  cl_uint expect = 1; // wraps modulo 2^32 like the kernel's
  for (cl_uint step = 0; step < 40; ++step) {
    cl_uint mul = 2 + step % 3, add = step;
    expect = expect * mul + add;
    clSetKernelArg(k, 0, sizeof m, &m);
    clSetKernelArg(k, 1, sizeof mul, &mul);
    clSetKernelArg(k, 2, sizeof add, &add);
    cl_event next;
    ASSERT_EQ(clEnqueueNDRangeKernel(q, k, 1, nullptr, &n, nullptr, last ? 1 : 0,
                                     last ? &last : nullptr, &next),
              CL_SUCCESS);
    if (last) clReleaseEvent(last);
    last = next;
  }
  std::vector<cl_uint> out(n);
  ASSERT_EQ(
      clEnqueueReadBuffer(q, m, CL_TRUE, 0, n * sizeof(cl_uint), out.data(), 1, &last, nullptr),
      CL_SUCCESS);
  EXPECT_EQ(out, std::vector<cl_uint>(n, expect));
  clReleaseEvent(last);
  clReleaseKernel(k);
  clReleaseMemObject(m);
  clReleaseCommandQueue(q);
}

// An idle queue's dispatch goes on the device from the enqueuing thread; with nobody waiting
// for it, the submission thread still retires it and its callback runs, also right after
// earlier work, while that thread lingers and is not woken for each dispatch.
TEST(Events, DispatchCompletesWithNobodyWaiting) {
  Env env;
  ASSERT_TRUE(env.queue);
  cl_int zero = 0;
  cl_mem m = env.buffer(sizeof(int), &zero);
  cl_kernel k = env.kernel(kStore, "store");
  clSetKernelArg(k, 0, sizeof m, &m);
  size_t one = 1;
  constexpr cl_int kRounds = 20;
  std::array<Trace, kRounds> traces; // outlive a callback that comes late
  for (cl_int i = 0; i < kRounds; ++i) {
    const cl_int v = i + 1;
    clSetKernelArg(k, 1, sizeof v, &v);
    ASSERT_EQ(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, &one, &one, 0, nullptr, nullptr),
              CL_SUCCESS);
    ASSERT_EQ(clFinish(env.queue), CL_SUCCESS); // the submission thread has just gone idle
    cl_event e = nullptr;
    ASSERT_EQ(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, &one, &one, 0, nullptr, &e),
              CL_SUCCESS);
    ASSERT_EQ(clSetEventCallback(e, CL_COMPLETE, &Trace::record, &traces[i]), CL_SUCCESS);
    ASSERT_EQ(clFlush(env.queue), CL_SUCCESS);
    // No OpenCL call until the callback has run: no thread of the application pumps for it.
    EXPECT_EQ(traces[i].after(1), std::vector<cl_int>{CL_COMPLETE}) << "dispatch " << v;
    clReleaseEvent(e);
  }
  clFinish(env.queue);
  EXPECT_EQ(read_int(env, m), kRounds);
  clReleaseKernel(k);
  clReleaseMemObject(m);
}

// The same while another thread is blocked in clWaitForEvents on a user event: the submission
// thread then leaves what the device has just finished to waiting threads, but this waiter
// waits for something else, so what nobody waits for must still be rung and retired (within a
// look or two of the submission thread). No clFlush: the dispatches wait on the ring for their
// batch's doorbell, and only the submission thread is left to ring it.
TEST(Events, DispatchCompletesWithNobodyWaitingWhileAnotherThreadWaits) {
  Env env;
  ASSERT_TRUE(env.queue);
  cl_int zero = 0;
  cl_mem m = env.buffer(sizeof(int), &zero);
  cl_kernel k = env.kernel(kStore, "store");
  clSetKernelArg(k, 0, sizeof m, &m);
  cl_int err = CL_SUCCESS;
  cl_event gate = clCreateUserEvent(env.context, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  std::thread blocked([&] { EXPECT_EQ(clWaitForEvents(1, &gate), CL_SUCCESS); });
  size_t one = 1;
  constexpr cl_int kRounds = 10;
  std::array<Trace, kRounds> traces; // outlive a callback that comes late
  for (cl_int i = 0; i < kRounds; ++i) {
    const cl_int v = i + 1;
    clSetKernelArg(k, 1, sizeof v, &v);
    // A few without events first (the enqueuing thread's fast path), then one with.
    for (int plain = 0; plain < i % 3; ++plain)
      ASSERT_EQ(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, &one, &one, 0, nullptr, nullptr),
                CL_SUCCESS);
    cl_event e = nullptr;
    ASSERT_EQ(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, &one, &one, 0, nullptr, &e),
              CL_SUCCESS);
    ASSERT_EQ(clSetEventCallback(e, CL_COMPLETE, &Trace::record, &traces[i]), CL_SUCCESS);
    EXPECT_EQ(traces[i].after(1), std::vector<cl_int>{CL_COMPLETE}) << "dispatch " << v;
    clReleaseEvent(e);
  }
  ASSERT_EQ(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
  blocked.join();
  clReleaseEvent(gate);
  clFinish(env.queue);
  EXPECT_EQ(read_int(env, m), kRounds);
  clReleaseKernel(k);
  clReleaseMemObject(m);
}

// Threads waiting for the same dispatch at once (clWaitForEvents, clFinish) wait for it side by
// side, whichever sees the end first retires it: all return, with the event complete, and the
// dispatch retired once (a second retirement would pop a later dispatch or an empty list).
TEST(Events, ThreadsWaitingForOneDispatchAllReturn) {
  Env env;
  ASSERT_TRUE(env.queue);
  cl_int zero = 0, seven = 7;
  cl_mem m = env.buffer(sizeof(int), &zero);
  cl_kernel k = env.kernel(kStore, "store");
  clSetKernelArg(k, 0, sizeof m, &m);
  clSetKernelArg(k, 1, sizeof seven, &seven);
  size_t one = 1;
  for (int round = 0; round < 50; ++round) {
    cl_event e = nullptr;
    ASSERT_EQ(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, &one, &one, 0, nullptr, &e),
              CL_SUCCESS);
    std::atomic<int> returned = 0;
    std::vector<std::thread> waiters;
    for (int t = 0; t < 3; ++t)
      waiters.emplace_back([&] {
        EXPECT_EQ(clWaitForEvents(1, &e), CL_SUCCESS);
        ++returned;
      });
    EXPECT_EQ(clFinish(env.queue), CL_SUCCESS);
    for (std::thread& t : waiters) t.join();
    EXPECT_EQ(returned, 3);
    EXPECT_EQ(env.status(e), CL_COMPLETE);
    clReleaseEvent(e);
  }
  EXPECT_EQ(read_int(env, m), 7);
  clReleaseKernel(k);
  clReleaseMemObject(m);
}

// Dispatches whose events nobody asked for carry none: clFinish must still learn when the last
// of them is retired, whichever thread retires it (the enqueuing one, when the device's slots
// are full, or the submission thread). Rounds of a few to more than the device holds at once,
// from one thread and then from four at a time, each followed by clFinish. A lost wake-up
// (found by bench/device_throughput) hangs clFinish for good: the watchdog fails the test.
TEST(Events, FinishReturnsAfterDispatchesWithoutEvents) {
  Env env;
  ASSERT_TRUE(env.queue);
  cl_int zero = 0;
  cl_mem m = env.buffer(sizeof(int), &zero);
  cl_kernel k = env.kernel(kStore, "store");
  clSetKernelArg(k, 0, sizeof m, &m);
  size_t one = 1;
  cl_int last = 0;
  for (int round = 0; round < 40; ++round) {
    const int count = 1 + (round * 37) % 150; // 1 .. 150: below, at and above the 64 slots
    for (int i = 0; i < count; ++i) {
      last = round * 1000 + i;
      ASSERT_EQ(clSetKernelArg(k, 1, sizeof last, &last), CL_SUCCESS);
      ASSERT_EQ(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, &one, &one, 0, nullptr, nullptr),
                CL_SUCCESS);
    }
    ASSERT_TRUE(finishes_within(env.queue, kFinishLimit)) << "round " << round;
    EXPECT_EQ(read_int(env, m), last) << "round " << round;
  }
  // Four threads feeding the queue at once, each with its own kernel object (clSetKernelArg is
  // not thread-safe on one kernel): every dispatch writes the same value, so only completion
  // is checked.
  const cl_int seven = 7;
  std::array<cl_kernel, 4> kernels{};
  for (cl_kernel& mine : kernels) {
    mine = env.kernel(kStore, "store");
    clSetKernelArg(mine, 0, sizeof m, &m);
    clSetKernelArg(mine, 1, sizeof seven, &seven);
  }
  for (int round = 0; round < 10; ++round) {
    std::vector<std::thread> feeders;
    for (cl_kernel mine : kernels)
      feeders.emplace_back([&, mine] {
        for (int i = 0; i < 50; ++i)
          EXPECT_EQ(
              clEnqueueNDRangeKernel(env.queue, mine, 1, nullptr, &one, &one, 0, nullptr, nullptr),
              CL_SUCCESS);
      });
    for (std::thread& t : feeders) t.join();
    ASSERT_TRUE(finishes_within(env.queue, kFinishLimit)) << "threaded round " << round;
    EXPECT_EQ(read_int(env, m), 7);
  }
  for (cl_kernel mine : kernels) clReleaseKernel(mine);
  clReleaseKernel(k);
  clReleaseMemObject(m);
}

// Stop 33 takes the scheduler's global lock off the enqueue of an in-order dispatch without a
// wait list or event (the queue's own mutex only, once the queue is active). The tests below
// race that path against what still runs under the global lock; a lost hand-off shows as a
// count short of the dispatches enqueued, or a clFinish that never returns (the watchdog).
namespace {

const char* kCount = "__kernel void count(__global int* p) { atomic_inc(p); }\n"
                     "__kernel void copy(__global int* dst, __global const int* src) {\n"
                     "  dst[0] = src[0];\n"
                     "}\n";

struct Counter {
  Env& env;
  cl_mem m;
  explicit Counter(Env& e) : env(e) {
    cl_int zero = 0;
    m = env.buffer(sizeof(int), &zero);
  }
  ~Counter() { clReleaseMemObject(m); }
  cl_kernel kernel() { // one per feeding thread: clSetKernelArg is not thread-safe on one kernel
    cl_kernel k = env.kernel(kCount, "count");
    clSetKernelArg(k, 0, sizeof m, &m);
    return k;
  }
};

// A second in-order queue on the Env's device (null, and a test failure, if it cannot be made).
cl_command_queue second_queue(Env& env) {
  cl_int err;
  cl_command_queue q = clCreateCommandQueueWithProperties(env.context, env.device, nullptr, &err);
  EXPECT_EQ(err, CL_SUCCESS);
  return q;
}

} // namespace

// Four threads feed one queue with plain dispatches while a fifth calls clFinish over and over:
// every finish returns, and every dispatch ran exactly once.
TEST(Events, PlainEnqueuesRaceWithFinish) {
  Env env;
  ASSERT_TRUE(env.queue);
  Counter counter(env);
  std::array<cl_kernel, 4> kernels{};
  for (cl_kernel& k : kernels) k = counter.kernel();
  size_t one = 1;
  constexpr int kEach = 300;
  std::atomic<bool> feeding = true;
  std::thread finisher([&] {
    while (feeding) EXPECT_TRUE(finishes_within(env.queue, kFinishLimit));
  });
  std::vector<std::thread> feeders;
  for (cl_kernel k : kernels)
    feeders.emplace_back([&, k] {
      for (int i = 0; i < kEach; ++i) {
        EXPECT_EQ(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, &one, &one, 0, nullptr, nullptr),
                  CL_SUCCESS);
        if (i % 97 == 0) std::this_thread::yield(); // let the queue drain now and then
      }
    });
  for (std::thread& t : feeders) t.join();
  feeding = false;
  finisher.join();
  ASSERT_TRUE(finishes_within(env.queue, kFinishLimit));
  EXPECT_EQ(read_int(env, counter.m), int(kernels.size()) * kEach);
  for (cl_kernel k : kernels) clReleaseKernel(k);
}

// A dispatch enqueued just as its queue goes idle (the submission thread retires the last one
// and takes the queue out of the active set): after gaps of 0 to ~3 ms (past the submission
// thread's lingering), each plain dispatch is seen, and an event-carrying marker behind it
// completes with nobody but the runtime pumping (its callback runs).
TEST(Events, PlainEnqueueAsTheQueueGoesIdle) {
  Env env;
  ASSERT_TRUE(env.queue);
  Counter counter(env);
  cl_kernel k = counter.kernel();
  size_t one = 1;
  constexpr int kRounds = 60;
  std::array<Trace, kRounds> traces; // outlive a callback that comes late
  for (int round = 0; round < kRounds; ++round) {
    const auto gap = std::chrono::microseconds((round * 53) % 3000);
    for (int i = 0; i < 3; ++i)
      ASSERT_EQ(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, &one, &one, 0, nullptr, nullptr),
                CL_SUCCESS);
    std::this_thread::sleep_for(gap);
    ASSERT_EQ(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, &one, &one, 0, nullptr, nullptr),
              CL_SUCCESS);
    cl_event e = nullptr;
    ASSERT_EQ(clEnqueueMarkerWithWaitList(env.queue, 0, nullptr, &e), CL_SUCCESS);
    ASSERT_EQ(clSetEventCallback(e, CL_COMPLETE, &Trace::record, &traces[round]), CL_SUCCESS);
    ASSERT_EQ(clFlush(env.queue), CL_SUCCESS);
    EXPECT_EQ(traces[round].after(1), std::vector<cl_int>{CL_COMPLETE}) << "round " << round;
    clReleaseEvent(e);
  }
  ASSERT_TRUE(finishes_within(env.queue, kFinishLimit));
  EXPECT_EQ(read_int(env, counter.m), kRounds * 4);
  clReleaseKernel(k);
}

// Plain dispatches on one queue, a marker behind them, and a copy on a second queue that waits
// for the marker: the copy sees every dispatch's increment. Two threads do this at once on
// queues of their own, the waits crossing between them.
TEST(Events, WaitListsAcrossQueuesSeePlainDispatches) {
  Env env;
  ASSERT_TRUE(env.queue);
  size_t one = 1;
  constexpr int kRounds = 20, kPerRound = 40;
  auto run = [&](int seed) {
    Counter counter(env);
    cl_kernel inc = counter.kernel();
    cl_kernel copy = env.kernel(kCount, "copy");
    cl_int init = -1;
    cl_mem seen = env.buffer(sizeof(int), &init);
    clSetKernelArg(copy, 0, sizeof seen, &seen);
    clSetKernelArg(copy, 1, sizeof counter.m, &counter.m);
    // Each thread's own status variables: one shared by both was a data race (TSan).
    cl_command_queue a = second_queue(env);
    cl_command_queue b = second_queue(env);
    for (int round = 0; round < kRounds; ++round) {
      for (int i = 0; i < kPerRound + (round * seed) % 90; ++i)
        EXPECT_EQ(clEnqueueNDRangeKernel(a, inc, 1, nullptr, &one, &one, 0, nullptr, nullptr),
                  CL_SUCCESS);
      cl_event marker = nullptr;
      EXPECT_EQ(clEnqueueMarkerWithWaitList(a, 0, nullptr, &marker), CL_SUCCESS);
      EXPECT_EQ(clEnqueueNDRangeKernel(b, copy, 1, nullptr, &one, &one, 1, &marker, nullptr),
                CL_SUCCESS);
      int got = -2;
      EXPECT_EQ(clEnqueueReadBuffer(b, seen, CL_TRUE, 0, sizeof got, &got, 0, nullptr, nullptr),
                CL_SUCCESS);
      int want = -3;
      EXPECT_EQ(
          clEnqueueReadBuffer(a, counter.m, CL_TRUE, 0, sizeof want, &want, 0, nullptr, nullptr),
          CL_SUCCESS);
      EXPECT_EQ(got, want) << "round " << round; // nothing was enqueued on `a` since the marker
      clReleaseEvent(marker);
    }
    EXPECT_TRUE(finishes_within(a, kFinishLimit));
    EXPECT_TRUE(finishes_within(b, kFinishLimit));
    clReleaseCommandQueue(a);
    clReleaseCommandQueue(b);
    clReleaseMemObject(seen);
    clReleaseKernel(copy);
    clReleaseKernel(inc);
  };
  std::thread other([&] { run(7); });
  run(13);
  other.join();
}

// Completion callbacks that enqueue plain dispatches on their own queue and on another one (the
// callback may run on the thread that is submitting for the queue): every dispatch runs.
TEST(Events, CallbacksThatEnqueuePlainDispatches) {
  Env env;
  ASSERT_TRUE(env.queue);
  Counter counter(env);
  cl_command_queue other = second_queue(env);
  ASSERT_TRUE(other);
  struct Context {
    cl_command_queue queues[2];
    cl_kernel kernels[2];
    std::mutex mutex; // one callback at a time uses a kernel: clSetKernelArg is not shared
    std::atomic<int> ran{0};
  } ctx;
  ctx.queues[0] = env.queue;
  ctx.queues[1] = other;
  ctx.kernels[0] = counter.kernel();
  ctx.kernels[1] = counter.kernel();
  auto callback = [](cl_event, cl_int status, void* data) {
    auto* c = static_cast<Context*>(data);
    size_t one = 1;
    if (status == CL_COMPLETE) {
      std::lock_guard lock(c->mutex);
      for (int i = 0; i < 4; ++i)
        clEnqueueNDRangeKernel(c->queues[i % 2], c->kernels[i % 2], 1, nullptr, &one, &one, 0,
                               nullptr, nullptr);
    }
    ++c->ran;
  };
  cl_kernel main_kernel = counter.kernel();
  size_t one = 1;
  constexpr int kEvents = 50;
  for (int i = 0; i < kEvents; ++i) {
    for (int j = 0; j < 3; ++j)
      ASSERT_EQ(clEnqueueNDRangeKernel(env.queue, main_kernel, 1, nullptr, &one, &one, 0, nullptr,
                                       nullptr),
                CL_SUCCESS);
    cl_event e = nullptr;
    ASSERT_EQ(
        clEnqueueNDRangeKernel(env.queue, main_kernel, 1, nullptr, &one, &one, 0, nullptr, &e),
        CL_SUCCESS);
    ASSERT_EQ(clSetEventCallback(e, CL_COMPLETE, callback, &ctx), CL_SUCCESS);
    clReleaseEvent(e);
  }
  amcl_test::eventually([&] { return ctx.ran.load() >= kEvents; });
  ASSERT_EQ(ctx.ran.load(), kEvents);
  ASSERT_TRUE(finishes_within(env.queue, kFinishLimit));
  ASSERT_TRUE(finishes_within(other, kFinishLimit));
  ASSERT_TRUE(finishes_within(env.queue, kFinishLimit)); // what `other`'s callbacks added
  EXPECT_EQ(read_int(env, counter.m), kEvents * 4 + kEvents * 4);
  clReleaseKernel(main_kernel);
  clReleaseKernel(ctx.kernels[0]);
  clReleaseKernel(ctx.kernels[1]);
  clReleaseCommandQueue(other);
}

// A retired dispatch that drops a buffer's last reference runs the buffer's destructor callback
// on the retiring thread, and a callback may enqueue (only blocking calls are barred): every
// callback runs once and its dispatches run, while the second queue has finished dispatches
// of its own to retire. (The runtime's threads retire these, so a nested retirement on one
// thread, which release_launches guards, is possible here but not forced.)
TEST(Events, DestructorCallbackThatEnqueuesWhileItsDispatchRetires) {
  Env env;
  ASSERT_TRUE(env.queue);
  Counter counter(env);
  cl_command_queue other = second_queue(env);
  ASSERT_TRUE(other);
  struct Context {
    cl_command_queue queue;
    cl_kernel kernel;
    std::atomic<int> freed{0};
  } ctx{other, counter.kernel()};
  cl_kernel store = env.kernel(kStore, "store");
  cl_kernel count = counter.kernel();
  size_t one = 1;
  constexpr int kRounds = 150;
  for (int round = 0; round < kRounds; ++round) {
    for (int i = 0; i < 8; ++i)
      ASSERT_EQ(clEnqueueNDRangeKernel(other, ctx.kernel, 1, nullptr, &one, &one, 0, nullptr,
                                       nullptr),
                CL_SUCCESS);
    cl_mem m = env.buffer(sizeof(int));
    ASSERT_EQ(clSetMemObjectDestructorCallback(
                  m,
                  [](cl_mem, void* data) {
                    auto* c = static_cast<Context*>(data);
                    size_t n = 1;
                    for (int i = 0; i < 2; ++i)
                      EXPECT_EQ(clEnqueueNDRangeKernel(c->queue, c->kernel, 1, nullptr, &n, &n, 0,
                                                       nullptr, nullptr),
                                CL_SUCCESS);
                    ++c->freed;
                  },
                  &ctx),
              CL_SUCCESS);
    int v = round;
    clSetKernelArg(store, 0, sizeof m, &m);
    clSetKernelArg(store, 1, sizeof v, &v);
    ASSERT_EQ(clEnqueueNDRangeKernel(env.queue, store, 1, nullptr, &one, &one, 0, nullptr, nullptr),
              CL_SUCCESS);
    clReleaseMemObject(m); // the dispatch holds the last reference now
    std::this_thread::sleep_for(std::chrono::microseconds(200 + 50 * (round % 8)));
    // Retires the finished store on this thread, if nobody else has: its buffer goes.
    ASSERT_EQ(clEnqueueNDRangeKernel(env.queue, count, 1, nullptr, &one, &one, 0, nullptr, nullptr),
              CL_SUCCESS);
  }
  ASSERT_TRUE(finishes_within(env.queue, kFinishLimit));
  amcl_test::eventually([&] { return ctx.freed.load() >= kRounds; });
  EXPECT_EQ(ctx.freed.load(), kRounds);
  ASSERT_TRUE(finishes_within(other, kFinishLimit));
  EXPECT_EQ(read_int(env, counter.m), kRounds * 8 + kRounds * 2 + kRounds);
  clReleaseKernel(store);
  clReleaseKernel(count);
  clReleaseKernel(ctx.kernel);
  clReleaseCommandQueue(other);
}
