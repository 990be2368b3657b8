// The window of dispatches a queue keeps on the device (runtime/dispatch.h): each takes a slot
// of the queue's kernel-argument ring sized to its arguments, and the ring must never overtake
// a slot whose dispatch has not run yet. Each kernel here records the arguments it was given
// and takes long enough that the device falls behind the enqueuing thread, so a slot reused too
// early shows up as a dispatch that ran with a later one's arguments.
#include "cl_helpers.h"

#include <cstdio>
#include <vector>

using amcl_test::Env;

namespace {

// A by-value struct argument of most of CL_DEVICE_MAX_PARAMETER_SIZE (4096 bytes): one launch
// takes a slot of about 4.3 KiB where the small kernel takes under 1 KiB.
const char* kKernels = R"(
typedef struct { uint v[1000]; } Big;
uint spin(uint x) { for (uint j = 0; j < 512u; ++j) x = x * 1664525u + 1013904223u; return x; }
__kernel void small(__global uint* out, uint at, uint v) {
  out[at] = spin(v) == spin(at * 7u + 1u) ? at : 0xdead0000u | at;
}
__kernel void big(__global uint* out, uint at, Big b) {
  uint sum = 0;
  for (uint j = 0; j < 1000u; j += 37u) sum += b.v[j] ^ j;
  uint want = 0;
  for (uint j = 0; j < 1000u; j += 37u) want += (at * 3u + j) ^ j;
  out[at] = spin(sum) == spin(want) ? at : 0xbeef0000u | at;
}
__kernel void told(__global uint* out, uint at) {
  if (get_global_id(0) == 0) printf("dispatch_window: %u\n", at);
  out[at] = at;
}
)";

struct Big {
  cl_uint v[1000];
};

// Enqueues `count` single-work-item dispatches on `q`, big ones (every `big_every`-th) among
// small ones, without events or waits; with `told_at`, the printing kernel (run to completion
// as host work) at that position. Then checks that every dispatch saw its own arguments.
void run_window(Env& env, cl_command_queue q, size_t count, size_t big_every, size_t told_at) {
  cl_program p = env.program(kKernels);
  ASSERT_TRUE(p);
  cl_kernel small = clCreateKernel(p, "small", nullptr);
  cl_kernel big = clCreateKernel(p, "big", nullptr);
  cl_kernel told = clCreateKernel(p, "told", nullptr);
  std::vector<cl_uint> out(count, 0);
  cl_mem m = env.buffer(count * sizeof(cl_uint), out.data());
  for (cl_kernel k : {small, big, told}) clSetKernelArg(k, 0, sizeof m, &m);
  auto b = std::make_unique<Big>();
  const size_t one = 1;
  for (size_t n = 0; n < count; ++n) {
    const cl_uint at = cl_uint(n);
    cl_kernel k = n == told_at ? told : n % big_every == 0 ? big : small;
    clSetKernelArg(k, 1, sizeof at, &at);
    if (k == small) {
      const cl_uint v = at * 7u + 1u;
      clSetKernelArg(k, 2, sizeof v, &v);
    } else if (k == big) {
      for (cl_uint j = 0; j < 1000; ++j) b->v[j] = at * 3u + j;
      clSetKernelArg(k, 2, sizeof(Big), b.get());
    }
    ASSERT_EQ(clEnqueueNDRangeKernel(q, k, 1, nullptr, &one, &one, 0, nullptr, nullptr),
              CL_SUCCESS);
  }
  ASSERT_EQ(clFinish(q), CL_SUCCESS);
  ASSERT_EQ(clEnqueueReadBuffer(q, m, CL_TRUE, 0, count * sizeof(cl_uint), out.data(), 0, nullptr,
                                nullptr),
            CL_SUCCESS);
  size_t wrong = 0;
  for (size_t n = 0; n < count; ++n)
    if (out[n] != n && wrong++ < 8)
      ADD_FAILURE() << "dispatch " << n << " wrote 0x" << std::hex << out[n];
  EXPECT_EQ(wrong, 0u);
  clReleaseMemObject(m);
  for (cl_kernel k : {small, big, told}) clReleaseKernel(k);
  clReleaseProgram(p);
}

} // namespace

// Several times round the ring (1 MiB): 5,000 dispatches, one in four with 4 KiB of arguments.
TEST(DispatchWindow, ArgumentSlotsOfMixedSizesWrapTheRing) {
  Env env;
  ASSERT_TRUE(env.queue);
  run_window(env, env.queue, 5000, 4, ~size_t(0));
}

// Mostly big slots: the ring, not the count of dispatches, limits the window, and a slot that
// does not fit before the ring's end starts at its beginning.
TEST(DispatchWindow, BigArgumentSlotsFillTheRingBeforeTheCount) {
  Env env;
  ASSERT_TRUE(env.queue);
  run_window(env, env.queue, 1500, 1, ~size_t(0));
}

// Out of order, a printing kernel runs as host work while the ring may be full of dispatches
// that have not run: it must take a slot none of them holds.
TEST(DispatchWindow, APrintingKernelAmongAFullRingOutOfOrder) {
  Env env;
  ASSERT_TRUE(env.queue);
  const cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE,
                                       0};
  cl_command_queue q = clCreateCommandQueueWithProperties(env.context, env.device, props, nullptr);
  ASSERT_TRUE(q);
  run_window(env, q, 1500, 1, 1400);
  std::fflush(stdout);
  clReleaseCommandQueue(q);
}
