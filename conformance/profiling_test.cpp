// Profiling through the ICD loader (the CTS "profiling" suite's ground): times come from the
// GPU's clock for dispatches, are ordered QUEUED <= SUBMIT <= START <= END <= COMPLETE, and
// exist only for completed commands of profiling queues.
#include "cl_helpers.h"

#include <chrono>
#include <thread>

using amcl_test::Env;

namespace {
const char* kStore = "__kernel void store(__global int* p, int v) { p[get_global_id(0)] = v; }";

// An in-order queue with profiling on `env`'s device, or null.
cl_command_queue profiling_queue(const Env& env) {
  cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
  return clCreateCommandQueueWithProperties(env.context, env.device, props, nullptr);
}
} // namespace

// Dispatches queue behind each other on the device: their profiling times come from the GPU's
// clock (START when the CP starts the dispatch, END at end of pipe), so a kernel enqueued
// behind a long one starts after that one ends, and its duration is its own. The slow kernel
// runs for tens of milliseconds on the emulated card (the quick one for about 0.05 ms), so a
// host thread descheduled during the quick one cannot make it look longer.
TEST(Profiling, TimesOfQueuedDispatchesComeFromTheGpu) {
  Env env;
  ASSERT_TRUE(env.queue);
  cl_command_queue q = profiling_queue(env);
  ASSERT_TRUE(q);
  cl_kernel slow = env.kernel("__kernel void slow(__global uint* p) { uint x = p[get_global_id(0)];"
                              " for (uint j = 0; j < 30000u; ++j) x = x * 1664525u + j;"
                              " p[get_global_id(0)] = x; }",
                              "slow");
  cl_kernel quick = env.kernel(kStore, "store");
  cl_mem a = env.buffer(1024 * 4), b = env.buffer(64 * 4);
  int v = 5;
  clSetKernelArg(slow, 0, sizeof a, &a);
  clSetKernelArg(quick, 0, sizeof b, &b);
  clSetKernelArg(quick, 1, sizeof v, &v);
  size_t big = 1024, small = 64;
  cl_event first, second;
  ASSERT_EQ(clEnqueueNDRangeKernel(q, slow, 1, nullptr, &big, nullptr, 0, nullptr, &first),
            CL_SUCCESS);
  ASSERT_EQ(clEnqueueNDRangeKernel(q, quick, 1, nullptr, &small, nullptr, 0, nullptr, &second),
            CL_SUCCESS);
  ASSERT_EQ(clFinish(q), CL_SUCCESS);
  auto times = [](cl_event e) {
    std::array<cl_ulong, 4> t{};
    const cl_profiling_info which[] = {CL_PROFILING_COMMAND_QUEUED, CL_PROFILING_COMMAND_SUBMIT,
                                       CL_PROFILING_COMMAND_START, CL_PROFILING_COMMAND_END};
    for (int i = 0; i < 4; ++i)
      EXPECT_EQ(clGetEventProfilingInfo(e, which[i], sizeof t[i], &t[i], nullptr), CL_SUCCESS);
    EXPECT_LE(t[0], t[1]);
    EXPECT_LE(t[1], t[2]);
    EXPECT_LE(t[2], t[3]);
    return t;
  };
  const auto t1 = times(first), t2 = times(second);
  EXPECT_GE(t2[2], t1[3]) << "the second dispatch cannot start before the first has ended";
  // Its START is when it started, not when it was handed to the GPU: submitted while the slow
  // one still ran, its own time excludes that wait. (Compared with the slow kernel's time
  // instead, as until stop 27, a busy machine that paused the emulator inside the quick kernel
  // made it fail now and then.)
  // Both only when it was submitted before the slow one ended: on a loaded machine the slow
  // one can end first, and then the quick one waits for nothing.
  if (t2[1] < t1[3]) {
    EXPECT_GT(t2[2], t2[1]) << "START is the submission time";
    EXPECT_LT(t2[3] - t2[2], t2[3] - t2[0]) << "the quick kernel's time includes its queueing";
  }
  for (cl_event e : {first, second}) clReleaseEvent(e);
  clReleaseMemObject(a);
  clReleaseMemObject(b);
  clReleaseCommandQueue(q);
}

// On an idle queue a dispatch reaches the GPU after the host submitted it (the emulated MEC
// wakes up for it) and runs for a while, so START > SUBMIT and END > START when the GPU's clock
// is put on the host's right. Calibrated from one clock sample, the offset was microseconds
// early and START came out as SUBMIT (clamped) for most short kernels, END as START.
TEST(Profiling, AnIdleQueuesDispatchStartsAfterItsSubmission) {
  Env env;
  ASSERT_TRUE(env.queue);
  cl_command_queue q = profiling_queue(env);
  ASSERT_TRUE(q);
  cl_kernel k = env.kernel(kStore, "store");
  cl_mem m = env.buffer(64 * 4);
  int v = 1;
  clSetKernelArg(k, 0, sizeof m, &m);
  clSetKernelArg(k, 1, sizeof v, &v);
  const size_t global = 64;
  const int runs = 40;
  int started_later = 0, ran = 0;
  for (int i = 0; i < runs; ++i) {
    cl_event e;
    ASSERT_EQ(clEnqueueNDRangeKernel(q, k, 1, nullptr, &global, nullptr, 0, nullptr, &e),
              CL_SUCCESS);
    ASSERT_EQ(clFinish(q), CL_SUCCESS);
    cl_ulong submit = 0, start = 0, end = 0;
    clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_SUBMIT, sizeof submit, &submit, nullptr);
    clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_START, sizeof start, &start, nullptr);
    clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_END, sizeof end, &end, nullptr);
    clReleaseEvent(e);
    started_later += start > submit;
    ran += end > start;
  }
  // Half, not all: a host clock read delayed by the machine's load can come after the GPU's,
  // and a loaded boot calibrates less closely. With the one-sample calibration 0-1 of 40 did.
  EXPECT_GE(started_later, runs / 2);
  EXPECT_GE(ran, runs / 2);
  clReleaseMemObject(m);
  clReleaseCommandQueue(q);
}

TEST(Profiling, TimesAreOrdered) {
  Env env;
  ASSERT_TRUE(env.queue);
  cl_int err, v = 1;
  cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
  cl_command_queue q = clCreateCommandQueueWithProperties(env.context, env.device, props, &err);
  cl_mem m = env.buffer(4096);
  cl_event e;
  ASSERT_EQ(clEnqueueWriteBuffer(q, m, CL_TRUE, 0, sizeof v, &v, 0, nullptr, &e), CL_SUCCESS);
  cl_ulong t[4];
  const cl_profiling_info which[] = {CL_PROFILING_COMMAND_QUEUED, CL_PROFILING_COMMAND_SUBMIT,
                                     CL_PROFILING_COMMAND_START, CL_PROFILING_COMMAND_END};
  for (int i = 0; i < 4; ++i)
    ASSERT_EQ(clGetEventProfilingInfo(e, which[i], sizeof t[i], &t[i], nullptr), CL_SUCCESS);
  EXPECT_LE(t[0], t[1]);
  EXPECT_LE(t[1], t[2]);
  EXPECT_LE(t[2], t[3]);
  clReleaseEvent(e);
  clReleaseMemObject(m);
  clReleaseCommandQueue(q);
}

// Profiling information exists only for completed commands of profiling queues.
TEST(Profiling, InfoOnlyForCompletedCommandsOfProfilingQueues) {
  Env env;
  ASSERT_TRUE(env.queue);
  cl_int err, zero = 0;
  cl_mem m = env.buffer(sizeof zero, &zero);
  cl_ulong t = 0;
  // A plain queue's command.
  cl_event plain;
  ASSERT_EQ(clEnqueueWriteBuffer(env.queue, m, CL_TRUE, 0, sizeof zero, &zero, 0, nullptr, &plain),
            CL_SUCCESS);
  EXPECT_EQ(clGetEventProfilingInfo(plain, CL_PROFILING_COMMAND_END, sizeof t, &t, nullptr),
            CL_PROFILING_INFO_NOT_AVAILABLE);
  // A user event.
  cl_event gate = clCreateUserEvent(env.context, &err);
  EXPECT_EQ(clGetEventProfilingInfo(gate, CL_PROFILING_COMMAND_QUEUED, sizeof t, &t, nullptr),
            CL_PROFILING_INFO_NOT_AVAILABLE);
  // A profiling queue's command before it completes, after it completes, and after it failed.
  cl_command_queue q =
      clCreateCommandQueue(env.context, env.device, CL_QUEUE_PROFILING_ENABLE, &err);
  cl_event held, failed;
  ASSERT_EQ(clEnqueueWriteBuffer(q, m, CL_FALSE, 0, sizeof zero, &zero, 1, &gate, &held),
            CL_SUCCESS);
  for (cl_profiling_info p :
       {CL_PROFILING_COMMAND_QUEUED, CL_PROFILING_COMMAND_SUBMIT, CL_PROFILING_COMMAND_START,
        CL_PROFILING_COMMAND_END, CL_PROFILING_COMMAND_COMPLETE})
    EXPECT_EQ(clGetEventProfilingInfo(held, p, sizeof t, &t, nullptr),
              CL_PROFILING_INFO_NOT_AVAILABLE)
        << p;
  EXPECT_EQ(clGetEventProfilingInfo(held, 0x7777, sizeof t, &t, nullptr), CL_INVALID_VALUE);
  clSetUserEventStatus(gate, CL_COMPLETE);
  ASSERT_EQ(env.final_status(held), CL_COMPLETE);
  cl_ulong times[5];
  const cl_profiling_info order[] = {CL_PROFILING_COMMAND_QUEUED, CL_PROFILING_COMMAND_SUBMIT,
                                     CL_PROFILING_COMMAND_START, CL_PROFILING_COMMAND_END,
                                     CL_PROFILING_COMMAND_COMPLETE};
  for (int i = 0; i < 5; ++i)
    ASSERT_EQ(clGetEventProfilingInfo(held, order[i], sizeof t, &times[i], nullptr), CL_SUCCESS);
  for (int i = 1; i < 5; ++i) EXPECT_LE(times[i - 1], times[i]) << i;
  EXPECT_EQ(clGetEventProfilingInfo(held, CL_PROFILING_COMMAND_END, 4, &t, nullptr),
            CL_INVALID_VALUE);
  cl_event bad_gate = clCreateUserEvent(env.context, &err);
  ASSERT_EQ(clEnqueueWriteBuffer(q, m, CL_FALSE, 0, sizeof zero, &zero, 1, &bad_gate, &failed),
            CL_SUCCESS);
  clSetUserEventStatus(bad_gate, -1);
  EXPECT_LT(env.final_status(failed), 0);
  EXPECT_EQ(clGetEventProfilingInfo(failed, CL_PROFILING_COMMAND_END, sizeof t, &t, nullptr),
            CL_PROFILING_INFO_NOT_AVAILABLE);
  EXPECT_EQ(clGetEventProfilingInfo(nullptr, CL_PROFILING_COMMAND_END, sizeof t, &t, nullptr),
            CL_INVALID_EVENT);
  clFinish(q);
  for (cl_event e : {plain, gate, held, failed, bad_gate}) clReleaseEvent(e);
  clReleaseCommandQueue(q);
  clReleaseMemObject(m);
}
