/* Vector add through the ordinary OpenCL ICD loader: builds an OpenCL C kernel, copies two
 * vectors to the device, runs the kernel, reads the result back and checks every element. */
#include "sample_common.h"

static const char* kSource =
    "__kernel void vector_add(__global const float* a, __global const float* b,\n"
    "                         __global float* c, uint n) {\n"
    "  size_t i = get_global_id(0);\n"
    "  if (i < n) c[i] = a[i] + b[i];\n"
    "}\n";

int main(int argc, char** argv) {
  const cl_uint n = argc > 1 ? (cl_uint)atoi(argv[1]) : 100000;
  struct sample_env env;
  if (sample_open(&env)) return 1;
  cl_kernel k = sample_kernel(&env, kSource, "", "vector_add");
  if (!k) return 1;
  cl_context ctx = env.context;
  cl_command_queue q = env.queue;
  cl_int err;
  float* a = malloc(n * sizeof(float));
  float* b = malloc(n * sizeof(float));
  float* c = malloc(n * sizeof(float));
  for (cl_uint i = 0; i < n; ++i) a[i] = (float)i * 0.5f, b[i] = (float)(n - i), c[i] = -1.0f;
  size_t bytes = n * sizeof(float);
  cl_mem da = clCreateBuffer(ctx, CL_MEM_READ_ONLY, bytes, NULL, &err);
  CHECK(err);
  cl_mem db = clCreateBuffer(ctx, CL_MEM_READ_ONLY, bytes, NULL, &err);
  CHECK(err);
  cl_mem dc = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, bytes, NULL, &err);
  CHECK(err);
  CHECK(clEnqueueWriteBuffer(q, da, CL_TRUE, 0, bytes, a, 0, NULL, NULL));
  CHECK(clEnqueueWriteBuffer(q, db, CL_TRUE, 0, bytes, b, 0, NULL, NULL));
  CHECK(clSetKernelArg(k, 0, sizeof da, &da));
  CHECK(clSetKernelArg(k, 1, sizeof db, &db));
  CHECK(clSetKernelArg(k, 2, sizeof dc, &dc));
  CHECK(clSetKernelArg(k, 3, sizeof n, &n));
  size_t global = ((n + 255) / 256) * 256, local = 256;
  CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL));
  CHECK(clEnqueueReadBuffer(q, dc, CL_TRUE, 0, bytes, c, 0, NULL, NULL));
  CHECK(clFinish(q));
  cl_uint bad = 0;
  for (cl_uint i = 0; i < n; ++i)
    if (c[i] != a[i] + b[i]) {
      if (bad < 5) fprintf(stderr, "c[%u] = %f, expected %f\n", i, c[i], a[i] + b[i]);
      ++bad;
    }
  printf("vector_add on %s: %u elements, %u mismatches: %s\n", env.device_name, n, bad, bad ? "FAILED" : "PASSED");
  clReleaseMemObject(da);
  clReleaseMemObject(db);
  clReleaseMemObject(dc);
  clReleaseKernel(k);
  sample_close(&env);
  free(a), free(b), free(c);
  return bad ? 1 : 0;
}
