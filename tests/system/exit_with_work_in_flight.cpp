// A program that returns from main while its commands still run must exit cleanly: the last
// commands free their buffers on amcl's threads while the process runs its exit handlers.
// `release` releases every object first (the frees then happen during exit); `keep` leaves them
// all to the process's end, as many programs do. To make "during exit" certain, the last copy
// waits for a user event that an exit handler completes: registered before amcl is first
// called, that handler runs after amcl's own static objects are destroyed.
#include "amcl_platform.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

namespace {
cl_event gate = nullptr;
void open_gate_during_exit() {
  if (gate) clSetUserEventStatus(gate, CL_COMPLETE);
  std::this_thread::sleep_for(std::chrono::milliseconds(200)); // let amcl's threads run the copy
}
} // namespace

int main(int argc, char** argv) {
  const bool release = argc > 1 && std::strcmp(argv[1], "release") == 0;
  std::atexit(open_gate_during_exit);
  cl_platform_id platform = amcl_test::amcl_platform();
  if (!platform) return 2;
  cl_device_id device;
  cl_int err;
  clGetDeviceIDs(platform, CL_DEVICE_TYPE_GPU, 1, &device, nullptr);
  cl_context context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
  cl_command_queue queue = clCreateCommandQueueWithProperties(context, device, nullptr, &err);
  const char* src = "__kernel void inc(__global uint* b) { b[get_global_id(0)] += 1; }";
  cl_program program = clCreateProgramWithSource(context, 1, &src, nullptr, &err);
  if (clBuildProgram(program, 1, &device, "", nullptr, nullptr) != CL_SUCCESS) return 3;
  cl_kernel kernel = clCreateKernel(program, "inc", &err);
  std::vector<cl_mem> buffers;
  for (int i = 0; i < 16; ++i) {
    const size_t bytes = 1 << 20, words = bytes / 4;
    cl_uint zero = 0;
    cl_mem a = clCreateBuffer(context, CL_MEM_READ_WRITE, bytes, nullptr, &err);
    cl_mem b = clCreateBuffer(context, CL_MEM_READ_WRITE, bytes, nullptr, &err);
    clEnqueueFillBuffer(queue, a, &zero, 4, 0, bytes, 0, nullptr, nullptr);
    clSetKernelArg(kernel, 0, sizeof a, &a);
    clEnqueueNDRangeKernel(queue, kernel, 1, nullptr, &words, nullptr, 0, nullptr, nullptr);
    clEnqueueCopyBuffer(queue, a, b, 0, 0, bytes, 0, nullptr, nullptr);
    buffers.push_back(a);
    buffers.push_back(b);
  }
  gate = clCreateUserEvent(context, &err);
  cl_mem last = clCreateBuffer(context, CL_MEM_READ_WRITE, 4096, nullptr, &err);
  clEnqueueCopyBuffer(queue, buffers[0], last, 0, 0, 4096, 1, &gate, nullptr);
  buffers.push_back(last);
  clFlush(queue);
  if (release) {
    for (cl_mem m : buffers) clReleaseMemObject(m);
    clReleaseKernel(kernel);
    clReleaseProgram(program);
    clReleaseCommandQueue(queue);
    clReleaseContext(context);
  }
  std::printf("exit_with_work_in_flight (%s): returning with commands in flight\n",
              release ? "release" : "keep");
  return 0;
}
