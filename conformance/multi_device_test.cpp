// Contexts with several devices, through the ICD loader: run with two emulated cards of
// different generations (AMCL_DEVICES=sim:gfx1100,sim:gfx1201). One program is built for both
// targets, buffers are usable from either card's queues, binaries come back per device and
// build again, and a kernel runs only where its program was built.
#include "cl_helpers.h"

#include <atomic>
#include <mutex>
#include <numeric>
#include <thread>
#include <vector>

namespace {

const char* kAdd = "__kernel void add(__global uint* p, uint v) { p[get_global_id(0)] += v; }";

struct TwoCards : amcl_test::TwoCards {
  std::string name(cl_device_id d) { return amcl_test::device_string(d, CL_DEVICE_NAME); }
  void callbacks_while_the_other_card_runs(bool waiter);
  void add(cl_kernel k, int card, cl_mem m, size_t n, cl_uint v, cl_event* done = nullptr) {
    ASSERT_EQ(clSetKernelArg(k, 0, sizeof m, &m), CL_SUCCESS);
    ASSERT_EQ(clSetKernelArg(k, 1, sizeof v, &v), CL_SUCCESS);
    ASSERT_EQ(clEnqueueNDRangeKernel(queues[card], k, 1, nullptr, &n, nullptr, 0, nullptr, done),
              CL_SUCCESS);
  }
};

} // namespace

TEST_F(TwoCards, OneProgramForBothTargetsAndBuffersSharedBetweenThem) {
  EXPECT_NE(name(devices[0]), name(devices[1])) << "the test wants two targets";
  cl_int err;
  cl_program p = clCreateProgramWithSource(context, 1, &kAdd, nullptr, &err);
  ASSERT_EQ(clBuildProgram(p, 0, nullptr, "", nullptr, nullptr), CL_SUCCESS);
  cl_uint num = 0;
  clGetProgramInfo(p, CL_PROGRAM_NUM_DEVICES, sizeof num, &num, nullptr);
  EXPECT_EQ(num, 2u);
  for (cl_device_id d : devices) {
    cl_build_status status = CL_BUILD_NONE;
    clGetProgramBuildInfo(p, d, CL_PROGRAM_BUILD_STATUS, sizeof status, &status, nullptr);
    EXPECT_EQ(status, CL_BUILD_SUCCESS) << name(d);
  }
  cl_kernel k = clCreateKernel(p, "add", &err);
  ASSERT_EQ(err, CL_SUCCESS);
  size_t wg = 0;
  EXPECT_EQ(
      clGetKernelWorkGroupInfo(k, nullptr, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, nullptr),
      CL_INVALID_DEVICE)
      << "NULL device with two devices";
  for (cl_device_id d : devices)
    EXPECT_EQ(clGetKernelWorkGroupInfo(k, d, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, nullptr),
              CL_SUCCESS);

  // A buffer (living on the first card) used by kernels and transfers on both.
  const size_t n = 4096;
  std::vector<cl_uint> init(n);
  std::iota(init.begin(), init.end(), 0);
  cl_mem m = clCreateBuffer(context, CL_MEM_COPY_HOST_PTR, n * 4, init.data(), &err);
  ASSERT_EQ(err, CL_SUCCESS);
  cl_event first;
  add(k, 0, m, n, 1, &first);
  ASSERT_EQ(clFinish(queues[0]), CL_SUCCESS);
  add(k, 1, m, n, 10);
  std::vector<cl_uint> out(n);
  ASSERT_EQ(clEnqueueReadBuffer(queues[1], m, CL_TRUE, 0, n * 4, out.data(), 0, nullptr, nullptr),
            CL_SUCCESS);
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(out[i], i + 11) << i;
  // Written by the second card's queue, read by the first's.
  cl_uint word = 0xabcdef;
  ASSERT_EQ(clEnqueueWriteBuffer(queues[1], m, CL_TRUE, 64, 4, &word, 0, nullptr, nullptr),
            CL_SUCCESS);
  cl_uint back = 0;
  ASSERT_EQ(clEnqueueReadBuffer(queues[0], m, CL_TRUE, 64, 4, &back, 0, nullptr, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(back, word);
  // Copies and fills on the second card's SDMA engine, into a buffer of the first.
  cl_mem other = clCreateBuffer(context, CL_MEM_READ_WRITE, n * 4, nullptr, &err);
  cl_uint pattern = 5;
  ASSERT_EQ(clEnqueueFillBuffer(queues[1], other, &pattern, 4, 0, n * 4, 0, nullptr, nullptr),
            CL_SUCCESS);
  cl_event copied;
  ASSERT_EQ(clEnqueueCopyBuffer(queues[1], other, m, 0, 0, 16, 0, nullptr, &copied), CL_SUCCESS);
  // Queues are independent: the read on the first card waits for the copy on the second.
  ASSERT_EQ(clEnqueueReadBuffer(queues[0], m, CL_TRUE, 0, 4, &back, 1, &copied, nullptr),
            CL_SUCCESS);
  clReleaseEvent(copied);
  EXPECT_EQ(back, 5u);
  clReleaseEvent(first);
  clReleaseMemObject(other);
  clReleaseMemObject(m);
  clReleaseKernel(k);
  clReleaseProgram(p);
}

TEST_F(TwoCards, BinariesPerDeviceBuildAgain) {
  cl_int err;
  cl_program p = clCreateProgramWithSource(context, 1, &kAdd, nullptr, &err);
  ASSERT_EQ(clBuildProgram(p, 0, nullptr, "", nullptr, nullptr), CL_SUCCESS);
  size_t sizes[2] = {};
  ASSERT_EQ(clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof sizes, sizes, nullptr), CL_SUCCESS);
  ASSERT_GT(sizes[0], 0u);
  ASSERT_GT(sizes[1], 0u);
  std::vector<unsigned char> b0(sizes[0]), b1(sizes[1]);
  unsigned char* ptrs[2] = {b0.data(), b1.data()};
  ASSERT_EQ(clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof ptrs, ptrs, nullptr), CL_SUCCESS);
  EXPECT_NE(b0, b1) << "two targets, two code objects";
  clReleaseProgram(p);

  // The binaries, given back per device, make a program that runs on both.
  const unsigned char* bins[2] = {b0.data(), b1.data()};
  cl_int status[2] = {1, 1};
  p = clCreateProgramWithBinary(context, 2, devices, sizes, bins, status, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  EXPECT_EQ(status[0], CL_SUCCESS);
  EXPECT_EQ(status[1], CL_SUCCESS);
  ASSERT_EQ(clBuildProgram(p, 0, nullptr, "", nullptr, nullptr), CL_SUCCESS);
  cl_kernel k = clCreateKernel(p, "add", &err);
  ASSERT_EQ(err, CL_SUCCESS);
  cl_uint zero = 0;
  cl_mem m = clCreateBuffer(context, CL_MEM_COPY_HOST_PTR, 4, &zero, &err);
  add(k, 0, m, 1, 3);
  ASSERT_EQ(clFinish(queues[0]), CL_SUCCESS);
  add(k, 1, m, 1, 4);
  cl_uint got = 0;
  ASSERT_EQ(clEnqueueReadBuffer(queues[1], m, CL_TRUE, 0, 4, &got, 0, nullptr, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(got, 7u);
  clReleaseKernel(k);
  clReleaseProgram(p);

  // A binary for one target given for the other card is refused for that card only.
  const unsigned char* swapped[2] = {b1.data(), b0.data()};
  size_t swapped_sizes[2] = {sizes[1], sizes[0]};
  p = clCreateProgramWithBinary(context, 2, devices, swapped_sizes, swapped, status, &err);
  EXPECT_EQ(p, nullptr);
  EXPECT_EQ(err, CL_INVALID_BINARY);
  EXPECT_EQ(status[0], CL_INVALID_BINARY);
  EXPECT_EQ(status[1], CL_INVALID_BINARY);
  clReleaseMemObject(m);
}

TEST_F(TwoCards, KernelRunsOnlyWhereItsProgramWasBuilt) {
  cl_int err;
  cl_program p = clCreateProgramWithSource(context, 1, &kAdd, nullptr, &err);
  ASSERT_EQ(clBuildProgram(p, 1, &devices[1], "", nullptr, nullptr), CL_SUCCESS);
  cl_build_status status = CL_BUILD_SUCCESS;
  clGetProgramBuildInfo(p, devices[0], CL_PROGRAM_BUILD_STATUS, sizeof status, &status, nullptr);
  EXPECT_EQ(status, CL_BUILD_NONE);
  cl_kernel k = clCreateKernel(p, "add", &err);
  ASSERT_EQ(err, CL_SUCCESS);
  cl_uint zero = 0, v = 1;
  cl_mem m = clCreateBuffer(context, CL_MEM_COPY_HOST_PTR, 4, &zero, &err);
  clSetKernelArg(k, 0, sizeof m, &m);
  clSetKernelArg(k, 1, sizeof v, &v);
  size_t one = 1;
  EXPECT_EQ(clEnqueueNDRangeKernel(queues[0], k, 1, nullptr, &one, nullptr, 0, nullptr, nullptr),
            CL_INVALID_PROGRAM_EXECUTABLE);
  EXPECT_EQ(clEnqueueNDRangeKernel(queues[1], k, 1, nullptr, &one, nullptr, 0, nullptr, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(clFinish(queues[1]), CL_SUCCESS);
  // A device that is not the context's.
  cl_device_id stranger = nullptr;
  EXPECT_EQ(clBuildProgram(p, 1, &stranger, "", nullptr, nullptr), CL_INVALID_DEVICE);
  clReleaseMemObject(m);
  clReleaseKernel(k);
  clReleaseProgram(p);
  // From a type: both cards.
  const cl_context_properties props[] = {CL_CONTEXT_PLATFORM, cl_context_properties(platform), 0};
  cl_context all = clCreateContextFromType(props, CL_DEVICE_TYPE_GPU, nullptr, nullptr, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  cl_uint n = 0;
  clGetContextInfo(all, CL_CONTEXT_NUM_DEVICES, sizeof n, &n, nullptr);
  EXPECT_EQ(n, 2u);
  clReleaseContext(all);
  // Duplicates in the device list are ignored.
  cl_device_id twice[3] = {devices[0], devices[1], devices[0]};
  cl_context dup = clCreateContext(nullptr, 3, twice, nullptr, nullptr, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  clGetContextInfo(dup, CL_CONTEXT_NUM_DEVICES, sizeof n, &n, nullptr);
  EXPECT_EQ(n, 2u);
  clReleaseContext(dup);
}

// Program-scope variables live in each card's own copy of the executable: the loader fixes up
// each copy's GOT and pointers for where that card loaded it, and a kernel on one card changes
// only that card's variables.
TEST_F(TwoCards, ProgramScopeVariablesPerCard) {
  const char* src = R"CL(
__constant uint table[4] = {10, 20, 30, 40};
__global uint total = 1;
__global uint* total_ptr = &total;
kernel void add_row(global uint* out, uint row) {
  *total_ptr += table[row & 3];
  out[0] = total;
}
)CL";
  cl_int err;
  cl_program p = clCreateProgramWithSource(context, 1, &src, nullptr, &err);
  ASSERT_EQ(clBuildProgram(p, 0, nullptr, "-cl-std=CL3.0", nullptr, nullptr), CL_SUCCESS);
  cl_kernel k = clCreateKernel(p, "add_row", &err);
  ASSERT_EQ(err, CL_SUCCESS);
  cl_mem out[2];
  for (cl_mem& m : out) m = clCreateBuffer(context, CL_MEM_READ_WRITE, 4, nullptr, &err);
  auto run = [&](int card, cl_uint row) {
    size_t one = 1;
    clSetKernelArg(k, 0, sizeof out[card], &out[card]);
    clSetKernelArg(k, 1, sizeof row, &row);
    EXPECT_EQ(
        clEnqueueNDRangeKernel(queues[card], k, 1, nullptr, &one, nullptr, 0, nullptr, nullptr),
        CL_SUCCESS);
    cl_uint v = 0;
    EXPECT_EQ(clEnqueueReadBuffer(queues[card], out[card], CL_TRUE, 0, 4, &v, 0, nullptr, nullptr),
              CL_SUCCESS);
    return v;
  };
  EXPECT_EQ(run(0, 1), 21u) << name(devices[0]);
  EXPECT_EQ(run(0, 2), 51u);
  EXPECT_EQ(run(1, 3), 41u) << name(devices[1]) << " has its own variables";
  EXPECT_EQ(run(1, 0), 51u);
  EXPECT_EQ(run(0, 0), 61u);
  for (cl_mem m : out) clReleaseMemObject(m);
  clReleaseKernel(k);
  clReleaseProgram(p);
}

// The runtime's submission thread watches dispatches nobody waits for. Here it is inside its
// wait for a kernel on one card that runs until the host lets it go (and, with `waiter`, a
// thread is blocked in clFinish for that kernel too) when dispatches with callbacks go to the
// other card without a clFlush. It must leave that wait, ring the other card's dispatches (the
// second of each pair waits on the ring for its batch's doorbell) and retire them: their
// callbacks come while the first card's kernel still runs. It used to stay in the wait until
// the kernel ended.
void TwoCards::callbacks_while_the_other_card_runs(bool waiter) {
  const char* src = R"CL(
__kernel void spin(volatile __global int* flag) { while (atomic_add(flag, 0) == 0) {} }
__kernel void store(__global int* p, int v) { p[get_global_id(0)] = v; }
)CL";
  cl_int err;
  cl_program p = clCreateProgramWithSource(context, 1, &src, nullptr, &err);
  ASSERT_EQ(clBuildProgram(p, 0, nullptr, "", nullptr, nullptr), CL_SUCCESS);
  cl_kernel spin = clCreateKernel(p, "spin", &err);
  cl_kernel store = clCreateKernel(p, "store", &err);
  ASSERT_EQ(err, CL_SUCCESS);
  // The flag in fine-grained SVM: the host's store reaches the spinning kernel.
  auto* flag = static_cast<cl_int*>(
      clSVMAlloc(context, CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER, sizeof(cl_int), 0));
  ASSERT_NE(flag, nullptr);
  std::atomic_ref(*flag).store(0);
  ASSERT_EQ(clSetKernelArgSVMPointer(spin, 0, flag), CL_SUCCESS);
  size_t one = 1;
  ASSERT_EQ(clEnqueueNDRangeKernel(queues[0], spin, 1, nullptr, &one, &one, 0, nullptr, nullptr),
            CL_SUCCESS);
  // Nobody waits yet: the submission thread takes the kernel and waits for it.
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  std::thread blocked([&] {
    if (waiter) EXPECT_EQ(clFinish(queues[0]), CL_SUCCESS);
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));

  cl_mem out = clCreateBuffer(context, CL_MEM_READ_WRITE, sizeof(cl_int), nullptr, &err);
  ASSERT_EQ(clSetKernelArg(store, 0, sizeof out, &out), CL_SUCCESS);
  std::mutex mutex;
  std::vector<cl_int> seen;
  auto record = [](cl_event, cl_int status, void* self) {
    auto* t = static_cast<std::pair<std::mutex*, std::vector<cl_int>*>*>(self);
    std::lock_guard lock(*t->first);
    t->second->push_back(status);
  };
  std::pair<std::mutex*, std::vector<cl_int>*> trace{&mutex, &seen};
  constexpr int kRounds = 4;
  for (cl_int v = 1; v <= kRounds; ++v) {
    ASSERT_EQ(clSetKernelArg(store, 1, sizeof v, &v), CL_SUCCESS);
    for (int pair = 0; pair < 2; ++pair) {
      cl_event e = nullptr;
      ASSERT_EQ(clEnqueueNDRangeKernel(queues[1], store, 1, nullptr, &one, &one, 0, nullptr, &e),
                CL_SUCCESS);
      ASSERT_EQ(clSetEventCallback(e, CL_COMPLETE, record, &trace), CL_SUCCESS);
      clReleaseEvent(e);
    }
    const bool called = amcl_test::eventually([&] {
      std::lock_guard lock(mutex);
      return seen.size() == size_t(2 * v);
    });
    EXPECT_TRUE(called) << "dispatches " << v << " on " << name(devices[1])
                        << " did not complete while a kernel ran on " << name(devices[0])
                        << (waiter ? " and a thread waited for it" : "");
    if (!called) break;
  }
  std::atomic_ref(*flag).store(1); // the spinning kernel ends, and with it the blocked clFinish
  blocked.join();
  ASSERT_EQ(clFinish(queues[1]), CL_SUCCESS);
  {
    std::lock_guard lock(mutex);
    EXPECT_EQ(seen, std::vector<cl_int>(2 * kRounds, CL_COMPLETE));
  }
  ASSERT_EQ(clFinish(queues[0]), CL_SUCCESS);
  clReleaseMemObject(out);
  clSVMFree(context, flag);
  clReleaseKernel(spin);
  clReleaseKernel(store);
  clReleaseProgram(p);
}

TEST_F(TwoCards, DispatchesNobodyWaitsForCompleteWhileAThreadWaitsOnTheOtherCard) {
  callbacks_while_the_other_card_runs(true);
}
TEST_F(TwoCards, DispatchesNobodyWaitsForCompleteWhileTheOtherCardRuns) {
  callbacks_while_the_other_card_runs(false);
}
