/* Sum of a vector with a work-group tree reduction in local memory: each work-group adds its
 * 256 x 4 elements into one partial sum (the classic barrier-halving pattern), the host adds
 * the partial sums. Checked against a double-precision host sum. */
#include "sample_common.h"

#include <math.h>

#define GROUP 256

static const char* kSource =
    "#define GROUP 256\n"
    "__kernel __attribute__((reqd_work_group_size(GROUP, 1, 1)))\n"
    "void partial_sums(__global const float* in, __global float* out, uint n,\n"
    "                  __local float* scratch) {\n"
    "  const uint lid = get_local_id(0);\n"
    "  const uint base = get_group_id(0) * GROUP * 4 + lid;\n"
    "  float acc = 0.0f;\n"
    "  for (uint k = 0; k < 4; ++k) {\n"
    "    const uint i = base + k * GROUP;\n"
    "    if (i < n) acc += in[i];\n"
    "  }\n"
    "  scratch[lid] = acc;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  for (uint stride = GROUP / 2; stride > 0; stride >>= 1) {\n"
    "    if (lid < stride) scratch[lid] += scratch[lid + stride];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  }\n"
    "  if (lid == 0) out[get_group_id(0)] = scratch[0];\n"
    "}\n";

int main(int argc, char** argv) {
  const cl_uint n = argc > 1 ? (cl_uint)atoi(argv[1]) : 1u << 20;
  struct sample_env env;
  if (sample_open(&env)) return 1;
  cl_kernel k = sample_kernel(&env, kSource, "", "partial_sums");
  if (!k) return 1;
  const size_t groups = (n + GROUP * 4 - 1) / (GROUP * 4);
  float* in = malloc(n * sizeof(float));
  float* partial = malloc(groups * sizeof(float));
  sample_fill(in, n, 7);
  cl_int err;
  cl_mem din = clCreateBuffer(env.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof(float), in, &err);
  CHECK(err);
  cl_mem dout = clCreateBuffer(env.context, CL_MEM_WRITE_ONLY, groups * sizeof(float), NULL, &err);
  CHECK(err);
  CHECK(clSetKernelArg(k, 0, sizeof din, &din));
  CHECK(clSetKernelArg(k, 1, sizeof dout, &dout));
  CHECK(clSetKernelArg(k, 2, sizeof n, &n));
  CHECK(clSetKernelArg(k, 3, GROUP * sizeof(float), NULL));
  const size_t global = groups * GROUP, local = GROUP;
  cl_event ev;
  const double t0 = sample_now_ms();
  CHECK(clEnqueueNDRangeKernel(env.queue, k, 1, NULL, &global, &local, 0, NULL, &ev));
  CHECK(clEnqueueReadBuffer(env.queue, dout, CL_TRUE, 0, groups * sizeof(float), partial, 0, NULL, NULL));
  const double wall = sample_now_ms() - t0;
  double sum = 0.0, expect = 0.0, magnitude = 0.0;
  for (size_t g = 0; g < groups; ++g) sum += partial[g];
  for (cl_uint i = 0; i < n; ++i) expect += in[i], magnitude += fabs(in[i]);
  /* Each element reaches its group's sum through 4 sequential float additions and 8 tree
   * levels; each rounds by at most 2^-24 of what it adds up, so the error is bounded by
   * 12 * 2^-24 * sum|x| (the host adds the partial sums in double). */
  const double tolerance = magnitude * 12 * 0x1p-24;
  const int ok = fabs(sum - expect) <= tolerance;
  printf("reduction on %s: %u floats in %zu work-groups, sum %.6f (host %.6f, |diff| %.3g <= %.3g), "
         "kernel %.3f ms, kernel+read %.3f ms: %s\n",
         env.device_name, n, groups, sum, expect, fabs(sum - expect), tolerance, sample_event_ms(ev),
         wall, ok ? "PASSED" : "FAILED");
  clReleaseEvent(ev);
  clReleaseMemObject(din);
  clReleaseMemObject(dout);
  clReleaseKernel(k);
  sample_close(&env);
  free(in), free(partial);
  return ok ? 0 : 1;
}
