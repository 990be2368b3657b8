/* Vector add through the ordinary OpenCL ICD loader: builds an OpenCL C kernel, copies two
 * vectors to the device, runs the kernel, reads the result back and checks every element. */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(x)                                                                  \
  do {                                                                            \
    cl_int err_ = (x);                                                            \
    if (err_ != CL_SUCCESS) {                                                     \
      fprintf(stderr, "%s:%d: %s failed: %d\n", __FILE__, __LINE__, #x, err_);    \
      return 1;                                                                   \
    }                                                                             \
  } while (0)

static const char* kSource =
    "__kernel void vector_add(__global const float* a, __global const float* b,\n"
    "                         __global float* c, uint n) {\n"
    "  size_t i = get_global_id(0);\n"
    "  if (i < n) c[i] = a[i] + b[i];\n"
    "}\n";

int main(int argc, char** argv) {
  const cl_uint n = argc > 1 ? (cl_uint)atoi(argv[1]) : 100000;
  cl_platform_id platforms[8];
  cl_uint nplat = 0;
  CHECK(clGetPlatformIDs(8, platforms, &nplat));
  cl_platform_id platform = NULL;
  for (cl_uint i = 0; i < nplat; ++i) {
    char name[64] = "";
    clGetPlatformInfo(platforms[i], CL_PLATFORM_NAME, sizeof name, name, NULL);
    if (strcmp(name, "amcl") == 0) platform = platforms[i];
  }
  if (!platform) {
    fprintf(stderr, "the amcl platform is not visible to the ICD loader (set OCL_ICD_VENDORS)\n");
    return 1;
  }
  cl_device_id device;
  CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_GPU, 1, &device, NULL));
  char dev_name[128];
  CHECK(clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof dev_name, dev_name, NULL));
  cl_int err;
  cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
  CHECK(err);
  cl_command_queue q = clCreateCommandQueueWithProperties(ctx, device, NULL, &err);
  CHECK(err);
  cl_program prog = clCreateProgramWithSource(ctx, 1, &kSource, NULL, &err);
  CHECK(err);
  if (clBuildProgram(prog, 1, &device, "", NULL, NULL) != CL_SUCCESS) {
    char log[8192] = "";
    clGetProgramBuildInfo(prog, device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
    fprintf(stderr, "build failed:\n%s\n", log);
    return 1;
  }
  cl_kernel k = clCreateKernel(prog, "vector_add", &err);
  CHECK(err);
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
  printf("vector_add on %s: %u elements, %u mismatches: %s\n", dev_name, n, bad, bad ? "FAILED" : "PASSED");
  clReleaseMemObject(da);
  clReleaseMemObject(db);
  clReleaseMemObject(dc);
  clReleaseKernel(k);
  clReleaseProgram(prog);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
  free(a), free(b), free(c);
  return bad ? 1 : 0;
}
