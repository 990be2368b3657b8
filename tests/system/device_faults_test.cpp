// Faulting and hanging kernels, through the ICD loader: the event carries an error, the
// context's notify callback gets a readable message, and the same queue keeps working.
#include "cl_helpers.h"

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <thread>

using amcl_test::Env;

namespace {

// A short hang timeout for the infinite-loop test, unless the caller chose one. Set before
// main() because amcl reads it when the platform first comes up.
const int kHangTimeout = setenv("AMCL_HANG_TIMEOUT_MS", "1000", 0);

const char* kScale = "__kernel void scale(__global int* p) { p[get_global_id(0)] *= 3; }";

// The queue still runs real work after a failure.
void expect_queue_usable(Env& env) {
  cl_kernel k = env.kernel(kScale, "scale");
  std::vector<int> v(256);
  for (int i = 0; i < 256; ++i) v[i] = i;
  cl_mem m = env.buffer(v.size() * sizeof(int), v.data());
  clSetKernelArg(k, 0, sizeof m, &m);
  size_t global = 256;
  cl_event e;
  ASSERT_EQ(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, &global, nullptr, 0, nullptr, &e), CL_SUCCESS);
  EXPECT_EQ(env.final_status(e), CL_COMPLETE);
  ASSERT_EQ(clEnqueueReadBuffer(env.queue, m, CL_TRUE, 0, v.size() * sizeof(int), v.data(), 0, nullptr, nullptr),
            CL_SUCCESS);
  for (int i = 0; i < 256; ++i) ASSERT_EQ(v[i], 3 * i);
  clReleaseEvent(e);
  clReleaseMemObject(m);
  clReleaseKernel(k);
}

// A kernel that writes to an address never mapped, and one that triples a buffer of 64 ones.
struct WildAndScale {
  explicit WildAndScale(Env& env)
      : wild(env.kernel("__kernel void wild(ulong a) { *(__global int*)a = 42; }", "wild")),
        scale(env.kernel(kScale, "scale")), v(64, 1),
        m(env.buffer(v.size() * sizeof(int), v.data())) {
    const cl_ulong bad = 0x7000000000ull; // inside the 512 GiB VA, never mapped
    clSetKernelArg(wild, 0, sizeof bad, &bad);
    clSetKernelArg(scale, 0, sizeof m, &m);
  }
  ~WildAndScale() {
    clReleaseMemObject(m);
    clReleaseKernel(wild);
    clReleaseKernel(scale);
  }
  cl_kernel wild, scale;
  std::vector<int> v;
  cl_mem m;
};

} // namespace

TEST(DeviceFaults, WriteToUnmappedAddress) {
  Env env;
  ASSERT_TRUE(env.queue);
  cl_kernel k = env.kernel("__kernel void wild(ulong a) { *(__global int*)a = 42; }", "wild");
  cl_ulong wild = 0x7000000000ull; // inside the 512 GiB VA, never mapped
  clSetKernelArg(k, 0, sizeof wild, &wild);
  size_t global = 64;
  cl_event e;
  ASSERT_EQ(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, &global, nullptr, 0, nullptr, &e), CL_SUCCESS);
  EXPECT_EQ(env.final_status(e), CL_OUT_OF_RESOURCES);
  EXPECT_TRUE(env.noted("page fault (write) at address 0x7000000000"));
  EXPECT_EQ(clWaitForEvents(1, &e), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  clReleaseEvent(e);
  clReleaseKernel(k);
  expect_queue_usable(env);
}

// Dispatches run back to back on the device: a fault among them fails the one that faulted (and
// may fail those on the device with it, which the device cannot tell apart), never silently
// passes it, and work enqueued after them runs.
TEST(DeviceFaults, FaultAmongDispatchesInFlight) {
  Env env;
  ASSERT_TRUE(env.queue);
  WildAndScale k(env);
  size_t global = 64;
  cl_event before, faulting, after;
  ASSERT_EQ(clEnqueueNDRangeKernel(env.queue, k.scale, 1, nullptr, &global, nullptr, 0, nullptr, &before), CL_SUCCESS);
  ASSERT_EQ(clEnqueueNDRangeKernel(env.queue, k.wild, 1, nullptr, &global, nullptr, 0, nullptr, &faulting), CL_SUCCESS);
  ASSERT_EQ(clEnqueueNDRangeKernel(env.queue, k.scale, 1, nullptr, &global, nullptr, 0, nullptr, &after), CL_SUCCESS);
  clFinish(env.queue);
  EXPECT_EQ(env.final_status(faulting), CL_OUT_OF_RESOURCES);
  EXPECT_TRUE(env.noted("page fault (write) at address 0x7000000000"));
  ASSERT_EQ(clEnqueueReadBuffer(env.queue, k.m, CL_TRUE, 0, k.v.size() * sizeof(int), k.v.data(), 0, nullptr, nullptr),
            CL_SUCCESS);
  // A dispatch that reports success has run (one that reports an error may or may not have).
  const bool first = env.final_status(before) == CL_COMPLETE, last = env.final_status(after) == CL_COMPLETE;
  if (first) EXPECT_GE(k.v[0], 3);
  if (first && last) EXPECT_EQ(k.v[0], 9);
  if (last) EXPECT_TRUE(first); // retired in order
  for (cl_event e : {before, faulting, after}) clReleaseEvent(e);
  expect_queue_usable(env);
}

// The card has one compute queue under every OpenCL queue: a fault there is reported by
// whichever queue's wait finds it first. The dispatch that faulted must still fail when its own
// queue retires it after another queue took the fault, whichever of the two queues that is.
TEST(DeviceFaults, FaultTakenByAnotherQueueStillFailsTheFaultingDispatch) {
  Env env;
  ASSERT_TRUE(env.queue);
  WildAndScale k(env);
  size_t global = 64;
  cl_int err;
  // Both orders of the two queues: which one a pass over the queues meets first varies.
  for (int round = 0; round < 4; ++round) {
    cl_command_queue a = clCreateCommandQueueWithProperties(env.context, env.device, nullptr, &err);
    cl_command_queue b = clCreateCommandQueueWithProperties(env.context, env.device, nullptr, &err);
    ASSERT_TRUE(a && b);
    cl_command_queue faulty = round % 2 ? a : b, other = round % 2 ? b : a;
    cl_event faulting, innocent;
    ASSERT_EQ(clEnqueueNDRangeKernel(faulty, k.wild, 1, nullptr, &global, nullptr, 0, nullptr, &faulting),
              CL_SUCCESS);
    ASSERT_EQ(clEnqueueNDRangeKernel(other, k.scale, 1, nullptr, &global, nullptr, 0, nullptr, &innocent),
              CL_SUCCESS);
    clFlush(faulty);
    clFlush(other);
    clFinish(other); // its wait may find the fault first
    clFinish(faulty);
    EXPECT_EQ(env.final_status(faulting), CL_OUT_OF_RESOURCES) << "round " << round;
    if (env.final_status(innocent) == CL_COMPLETE) {
      ASSERT_EQ(clEnqueueReadBuffer(other, k.m, CL_TRUE, 0, sizeof(int), k.v.data(), 0, nullptr, nullptr),
                CL_SUCCESS);
      EXPECT_EQ(k.v[0] % 3, 0) << "reported complete but did not run";
    }
    clReleaseEvent(faulting);
    clReleaseEvent(innocent);
    clReleaseCommandQueue(a);
    clReleaseCommandQueue(b);
  }
  expect_queue_usable(env);
}

// The context's callback hears of a fault while the retiring thread has let go of the queue:
// a dispatch another thread enqueues then reaches the card after the fault was taken, so it
// did not run beside the faulting one and must complete (it failed when the retiring thread
// failed everything in flight on its queue once it came back).
struct HoldTheFailureOpen {
  cl_command_queue queue = nullptr;
  cl_kernel scale = nullptr;
  cl_event late = nullptr;
  std::atomic<int> calls{0};
  static void CL_CALLBACK notify(const char*, const void*, size_t, void* self) {
    auto* h = static_cast<HoldTheFailureOpen*>(self);
    if (h->calls++ != 0) return;
    size_t global = 64;
    std::thread other([&] {
      clEnqueueNDRangeKernel(h->queue, h->scale, 1, nullptr, &global, nullptr, 0, nullptr,
                             &h->late);
      clFlush(h->queue);
    });
    other.join();
    // Until it is on its way to the card, and a while for its submission to be recorded.
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    cl_int status = CL_QUEUED;
    while (h->late && std::chrono::steady_clock::now() < until &&
           clGetEventInfo(h->late, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status,
                          nullptr) == CL_SUCCESS &&
           status > CL_RUNNING)
      std::this_thread::yield();
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
};

TEST(DeviceFaults, DispatchEnqueuedAfterTheFaultWasTakenCompletes) {
  Env env;
  ASSERT_TRUE(env.queue);
  HoldTheFailureOpen hold;
  cl_int err;
  cl_context context =
      clCreateContext(nullptr, 1, &env.device, &HoldTheFailureOpen::notify, &hold, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  hold.queue = clCreateCommandQueueWithProperties(context, env.device, nullptr, &err);
  const char* src = "__kernel void wild(ulong a) { *(__global int*)a = 42; }\n"
                    "__kernel void scale(__global int* p) { p[get_global_id(0)] *= 3; }";
  cl_program program = clCreateProgramWithSource(context, 1, &src, nullptr, &err);
  ASSERT_EQ(clBuildProgram(program, 1, &env.device, "", nullptr, nullptr), CL_SUCCESS);
  cl_kernel wild = clCreateKernel(program, "wild", &err);
  hold.scale = clCreateKernel(program, "scale", &err);
  std::vector<int> v(64, 1);
  cl_mem m = amcl_test::make_buffer(context, v.size() * sizeof(int), v.data());
  const cl_ulong bad = 0x7000000000ull; // inside the 512 GiB VA, never mapped
  clSetKernelArg(wild, 0, sizeof bad, &bad);
  clSetKernelArg(hold.scale, 0, sizeof m, &m);
  size_t global = 64;
  cl_event faulting;
  ASSERT_EQ(
      clEnqueueNDRangeKernel(hold.queue, wild, 1, nullptr, &global, nullptr, 0, nullptr, &faulting),
      CL_SUCCESS);
  EXPECT_EQ(env.final_status(faulting), CL_OUT_OF_RESOURCES);
  ASSERT_EQ(hold.calls.load(), 1);
  ASSERT_TRUE(hold.late);
  EXPECT_EQ(env.final_status(hold.late), CL_COMPLETE);
  ASSERT_EQ(
      clEnqueueReadBuffer(hold.queue, m, CL_TRUE, 0, sizeof(int), v.data(), 0, nullptr, nullptr),
      CL_SUCCESS);
  EXPECT_EQ(v[0], 3);
  clReleaseEvent(hold.late);
  clReleaseEvent(faulting);
  clReleaseMemObject(m);
  clReleaseKernel(hold.scale);
  clReleaseKernel(wild);
  clReleaseProgram(program);
  clReleaseCommandQueue(hold.queue);
  clReleaseContext(context);
}

TEST(DeviceFaults, ReadOfFreedBuffer) {
  Env env;
  ASSERT_TRUE(env.queue);
  // `leak` also reads the buffer, so the GPU has its translation cached when it is freed: the
  // driver must invalidate the GPU's TLB for the later read to fault.
  cl_kernel leak = env.kernel("__kernel void leak(__global ulong* out, __global int* v) {"
                              " out[0] = (ulong)v; out[1] = (ulong)v[0]; }", "leak");
  cl_kernel use = env.kernel("__kernel void use(__global ulong* in, __global int* r) {"
                             " r[0] = *(__global int*)in[0]; }", "use");
  cl_mem addr = env.buffer(16), victim = env.buffer(4096), result = env.buffer(4);
  clSetKernelArg(leak, 0, sizeof addr, &addr);
  clSetKernelArg(leak, 1, sizeof victim, &victim);
  size_t one = 1;
  ASSERT_EQ(clEnqueueNDRangeKernel(env.queue, leak, 1, nullptr, &one, &one, 0, nullptr, nullptr), CL_SUCCESS);
  ASSERT_EQ(clFinish(env.queue), CL_SUCCESS); // `leak` no longer holds the buffer
  clReleaseMemObject(victim); // unmapped from the GPU page tables now
  clSetKernelArg(use, 0, sizeof addr, &addr);
  clSetKernelArg(use, 1, sizeof result, &result);
  cl_event e;
  ASSERT_EQ(clEnqueueNDRangeKernel(env.queue, use, 1, nullptr, &one, &one, 0, nullptr, &e), CL_SUCCESS);
  EXPECT_EQ(env.final_status(e), CL_OUT_OF_RESOURCES);
  EXPECT_TRUE(env.noted("page fault (read)"));
  clReleaseEvent(e);
  clReleaseMemObject(addr);
  clReleaseMemObject(result);
  clReleaseKernel(leak);
  clReleaseKernel(use);
  expect_queue_usable(env);
}

// An instruction the device does not execute (an image load, which amcl's emulated shader
// array lacks) fails the command with a message naming it, its PC and its dwords; the queue
// then runs the next kernel.
TEST(DeviceFaults, IllegalInstructionIsNamedInTheError) {
  Env env;
  ASSERT_TRUE(env.queue);
  cl_kernel k = env.kernel(
      "__kernel void img(__global int* p) {"
      "  __asm__ volatile(\"image_load v[4:7], v1, s[8:15] dmask:0xf dim:SQ_RSRC_IMG_1D\""
      "                   ::: \"v4\", \"v5\", \"v6\", \"v7\");"
      "  p[get_global_id(0)] = 1; }",
      "img");
  cl_mem m = env.buffer(64 * sizeof(int));
  clSetKernelArg(k, 0, sizeof m, &m);
  size_t global = 64;
  cl_event e;
  ASSERT_EQ(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, &global, nullptr, 0, nullptr, &e),
            CL_SUCCESS);
  EXPECT_EQ(env.final_status(e), CL_OUT_OF_RESOURCES);
  EXPECT_TRUE(env.noted("shader exception at pc 0x"));
  EXPECT_TRUE(env.noted(": illegal instruction image_load v[4:7], v1, s[8:15] dmask:0xf "
                        "dim:SQ_RSRC_IMG_1D (0x"));
  clReleaseEvent(e);
  clReleaseMemObject(m);
  clReleaseKernel(k);
  expect_queue_usable(env);
}

namespace {

// A kernel that never ends, heard of only through a callback: the runtime's submission thread
// judges the hang. It leaves its wait every few milliseconds to look at other queues, and the
// hang limit must run across those waits rather than start again with each.
void expect_hang_heard_by_callback_alone(Env& env) {
  cl_kernel k =
      env.kernel("__kernel void spin(__global volatile int* p) { while (p[0] == 0) {} }", "spin");
  int zero = 0;
  cl_mem m = env.buffer(4, &zero);
  clSetKernelArg(k, 0, sizeof m, &m);
  size_t one = 1;
  cl_event e;
  ASSERT_EQ(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, &one, &one, 0, nullptr, &e),
            CL_SUCCESS);
  std::atomic<cl_int> heard = 1;
  auto record = [](cl_event, cl_int status, void* to) {
    static_cast<std::atomic<cl_int>*>(to)->store(status);
  };
  ASSERT_EQ(clSetEventCallback(e, CL_COMPLETE, record, &heard), CL_SUCCESS);
  ASSERT_EQ(clFlush(env.queue), CL_SUCCESS);
  // No OpenCL call until the callback has run (the hang limit is 1 s).
  EXPECT_TRUE(amcl_test::eventually([&] { return heard.load() <= CL_COMPLETE; }, 60));
  EXPECT_EQ(heard.load(), CL_OUT_OF_RESOURCES);
  EXPECT_TRUE(env.noted("hung and has been reset"));
  clReleaseEvent(e);
  clReleaseMemObject(m);
  clReleaseKernel(k);
}

} // namespace

TEST(DeviceFaults, InfiniteLoopNobodyWaitsForIsResetAfterTheHangTimeout) {
  Env env;
  ASSERT_TRUE(env.queue);
  expect_hang_heard_by_callback_alone(env);
  expect_queue_usable(env);
}

// The same while another thread is blocked in clWaitForEvents on a user event. The submission
// thread leaves what the device has just finished to waiting threads; that waiter waits for
// something else, so the hang is still the submission thread's to judge.
TEST(DeviceFaults, InfiniteLoopNobodyWaitsForIsResetWhileAnotherThreadWaits) {
  Env env;
  ASSERT_TRUE(env.queue);
  cl_int err = CL_SUCCESS;
  cl_event gate = clCreateUserEvent(env.context, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  std::thread blocked([&] { EXPECT_EQ(clWaitForEvents(1, &gate), CL_SUCCESS); });
  expect_hang_heard_by_callback_alone(env);
  ASSERT_EQ(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
  blocked.join();
  clReleaseEvent(gate);
  expect_queue_usable(env);
}

// Runs with AMCL_HANG_TIMEOUT_MS=1000 (kHangTimeout above).
TEST(DeviceFaults, InfiniteLoopIsResetAfterTheHangTimeout) {
  Env env;
  ASSERT_TRUE(env.queue);
  cl_kernel k = env.kernel("__kernel void spin(__global volatile int* p) { while (p[0] == 0) {} }",
                           "spin");
  int zero = 0;
  cl_mem m = env.buffer(4, &zero);
  clSetKernelArg(k, 0, sizeof m, &m);
  size_t one = 1;
  cl_event e;
  ASSERT_EQ(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, &one, &one, 0, nullptr, &e), CL_SUCCESS);
  EXPECT_EQ(env.final_status(e), CL_OUT_OF_RESOURCES);
  EXPECT_TRUE(env.noted("hung and has been reset"));
  clReleaseEvent(e);
  clReleaseMemObject(m);
  clReleaseKernel(k);
  expect_queue_usable(env);
}
