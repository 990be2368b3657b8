/* Tiled matrix multiply C = A x B (square, n a multiple of 16): each 16 x 16 work-group stages
 * one tile of A and one of B in local memory per step, so every loaded element is used 16
 * times. Checked element by element against a host multiply in double precision. */
#include "sample_common.h"

#include <math.h>

#define TILE 16

static const char* kSource =
    "#define TILE 16\n"
    "__kernel __attribute__((reqd_work_group_size(TILE, TILE, 1)))\n"
    "void matmul(__global const float* a, __global const float* b, __global float* c, uint n) {\n"
    "  __local float ta[TILE][TILE], tb[TILE][TILE];\n"
    "  const uint col = get_global_id(0), row = get_global_id(1);\n"
    "  const uint lx = get_local_id(0), ly = get_local_id(1);\n"
    "  float acc = 0.0f;\n"
    "  for (uint t = 0; t < n; t += TILE) {\n"
    "    ta[ly][lx] = a[row * n + t + lx];\n"
    "    tb[ly][lx] = b[(t + ly) * n + col];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    for (uint k = 0; k < TILE; ++k) acc = fma(ta[ly][k], tb[k][lx], acc);\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  }\n"
    "  c[row * n + col] = acc;\n"
    "}\n";

int main(int argc, char** argv) {
  cl_uint n = argc > 1 ? (cl_uint)atoi(argv[1]) : 128;
  n = (n + TILE - 1) / TILE * TILE;
  struct sample_env env;
  if (sample_open(&env)) return 1;
  cl_kernel k = sample_kernel(&env, kSource, "", "matmul");
  if (!k) return 1;
  const size_t elems = (size_t)n * n, bytes = elems * sizeof(float);
  float* a = malloc(bytes);
  float* b = malloc(bytes);
  float* c = malloc(bytes);
  sample_fill(a, elems, 1);
  sample_fill(b, elems, 2);
  cl_int err;
  cl_mem da = clCreateBuffer(env.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, a, &err);
  CHECK(err);
  cl_mem db = clCreateBuffer(env.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, b, &err);
  CHECK(err);
  cl_mem dc = clCreateBuffer(env.context, CL_MEM_WRITE_ONLY, bytes, NULL, &err);
  CHECK(err);
  CHECK(clSetKernelArg(k, 0, sizeof da, &da));
  CHECK(clSetKernelArg(k, 1, sizeof db, &db));
  CHECK(clSetKernelArg(k, 2, sizeof dc, &dc));
  CHECK(clSetKernelArg(k, 3, sizeof n, &n));
  const size_t global[2] = {n, n}, local[2] = {TILE, TILE};
  cl_event ev;
  CHECK(clEnqueueNDRangeKernel(env.queue, k, 2, NULL, global, local, 0, NULL, &ev));
  CHECK(clEnqueueReadBuffer(env.queue, dc, CL_TRUE, 0, bytes, c, 0, NULL, NULL));
  size_t bad = 0;
  double worst = 0.0;
  for (cl_uint r = 0; r < n; ++r)
    for (cl_uint col = 0; col < n; ++col) {
      double expect = 0.0, magnitude = 0.0;
      for (cl_uint i = 0; i < n; ++i) {
        expect += (double)a[r * n + i] * b[i * n + col];
        magnitude += fabs((double)a[r * n + i] * b[i * n + col]);
      }
      const double diff = fabs(c[r * n + col] - expect);
      if (diff > worst) worst = diff;
      /* n fused multiply-adds in float, each rounding by at most half an ulp of the running sum */
      if (diff > magnitude * n * 0x1p-24) {
        if (bad < 5) fprintf(stderr, "c[%u][%u] = %f, expected %f\n", r, col, c[r * n + col], expect);
        ++bad;
      }
    }
  const double ms = sample_event_ms(ev);
  printf("matmul on %s: %ux%u, %zu mismatches (worst |diff| %.3g), kernel %.3f ms (%.3f GFLOP/s): %s\n",
         env.device_name, n, n, bad, worst, ms, ms > 0 ? 2.0 * n * n * n / (ms * 1e6) : 0.0,
         bad ? "FAILED" : "PASSED");
  clReleaseEvent(ev);
  clReleaseMemObject(da);
  clReleaseMemObject(db);
  clReleaseMemObject(dc);
  clReleaseKernel(k);
  sample_close(&env);
  free(a), free(b), free(c);
  return bad ? 1 : 0;
}
