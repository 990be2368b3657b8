/* What every sample does before and around its kernel: find the amcl platform through the ICD
 * loader, make a context and a profiling queue, build a program (printing the build log when it
 * fails), and time things. Header-only so each sample stays one file plus this. */
#ifndef AMCL_SAMPLE_COMMON_H
#define AMCL_SAMPLE_COMMON_H

#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CHECK(x)                                                                  \
  do {                                                                            \
    cl_int err_ = (x);                                                            \
    if (err_ != CL_SUCCESS) {                                                     \
      fprintf(stderr, "%s:%d: %s failed: %d\n", __FILE__, __LINE__, #x, err_);    \
      return 1;                                                                   \
    }                                                                             \
  } while (0)

struct sample_env {
  cl_platform_id platform;
  cl_device_id device;
  cl_context context;
  cl_command_queue queue; /* in order, with profiling */
  char device_name[128];
};

/* The platform named "amcl", or NULL with a message saying how to make it visible. */
static inline cl_platform_id sample_find_amcl(void) {
  cl_platform_id platforms[16];
  cl_uint n = 0;
  if (clGetPlatformIDs(16, platforms, &n) != CL_SUCCESS) n = 0;
  for (cl_uint i = 0; i < n && i < 16; ++i) {
    char name[64] = "";
    clGetPlatformInfo(platforms[i], CL_PLATFORM_NAME, sizeof name, name, NULL);
    if (strcmp(name, "amcl") == 0) return platforms[i];
  }
  fprintf(stderr, "the amcl platform is not visible to the ICD loader (set OCL_ICD_VENDORS)\n");
  return NULL;
}

/* Returns 0 on success. */
static inline int sample_open(struct sample_env* env) {
  memset(env, 0, sizeof *env);
  env->platform = sample_find_amcl();
  if (!env->platform) return 1;
  CHECK(clGetDeviceIDs(env->platform, CL_DEVICE_TYPE_GPU, 1, &env->device, NULL));
  CHECK(clGetDeviceInfo(env->device, CL_DEVICE_NAME, sizeof env->device_name, env->device_name, NULL));
  cl_int err;
  env->context = clCreateContext(NULL, 1, &env->device, NULL, NULL, &err);
  CHECK(err);
  const cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
  env->queue = clCreateCommandQueueWithProperties(env->context, env->device, props, &err);
  CHECK(err);
  return 0;
}

static inline void sample_close(struct sample_env* env) {
  if (env->queue) clReleaseCommandQueue(env->queue);
  if (env->context) clReleaseContext(env->context);
}

/* Builds `source` and returns the kernel `name`, or NULL after printing the build log. The
 * program is released once the kernel holds it. */
static inline cl_kernel sample_kernel(const struct sample_env* env, const char* source, const char* options,
                               const char* name) {
  cl_int err;
  cl_program prog = clCreateProgramWithSource(env->context, 1, &source, NULL, &err);
  if (err != CL_SUCCESS) return NULL;
  if (clBuildProgram(prog, 1, &env->device, options, NULL, NULL) != CL_SUCCESS) {
    char log[16384] = "";
    clGetProgramBuildInfo(prog, env->device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
    fprintf(stderr, "build failed:\n%s\n", log);
    clReleaseProgram(prog);
    return NULL;
  }
  cl_kernel k = clCreateKernel(prog, name, &err);
  clReleaseProgram(prog);
  return err == CL_SUCCESS ? k : NULL;
}

/* Wall-clock milliseconds. */
static inline double sample_now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Device time of a finished command from its profiling timestamps, in milliseconds. */
static inline double sample_event_ms(cl_event e) {
  cl_ulong start = 0, end = 0;
  clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_START, sizeof start, &start, NULL);
  clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_END, sizeof end, &end, NULL);
  return (double)(end - start) / 1e6;
}

/* Deterministic pseudo-random floats in [-1, 1) (a 32-bit LCG), so runs are comparable. */
static inline void sample_fill(float* v, size_t n, unsigned seed) {
  for (size_t i = 0; i < n; ++i) {
    seed = seed * 1664525u + 1013904223u;
    v[i] = (float)(seed >> 8) / (float)(1u << 23) - 1.0f;
  }
}

#endif
