/* Image-free blur: a 3x3 binomial filter (1 2 1 / 2 4 2 / 1 2 1, divided by 16) over a float
 * image held in a plain buffer, edges clamped. Every weight is a power of two, so each product
 * is exact and the device result must equal the host's bit for bit when both add in the same
 * order (which they do, fused or not). */
#include "sample_common.h"

static const char* kSource =
    "__kernel void blur3x3(__global const float* src, __global float* dst, int width, int height) {\n"
    "  const int x = get_global_id(0), y = get_global_id(1);\n"
    "  if (x >= width || y >= height) return;\n"
    "  const float w[3] = {1.0f, 2.0f, 1.0f};\n"
    "  float acc = 0.0f;\n"
    "  for (int dy = -1; dy <= 1; ++dy)\n"
    "    for (int dx = -1; dx <= 1; ++dx) {\n"
    "      const int sx = clamp(x + dx, 0, width - 1), sy = clamp(y + dy, 0, height - 1);\n"
    "      acc += src[sy * width + sx] * (w[dx + 1] * w[dy + 1]);\n"
    "    }\n"
    "  dst[y * width + x] = acc * 0.0625f;\n"
    "}\n";

static int clampi(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }

int main(int argc, char** argv) {
  const int width = argc > 1 ? atoi(argv[1]) : 333, height = argc > 2 ? atoi(argv[2]) : 200;
  struct sample_env env;
  if (sample_open(&env)) return 1;
  cl_kernel k = sample_kernel(&env, kSource, "", "blur3x3");
  if (!k) return 1;
  const size_t pixels = (size_t)width * height, bytes = pixels * sizeof(float);
  float* src = malloc(bytes);
  float* dst = malloc(bytes);
  sample_fill(src, pixels, 3);
  cl_int err;
  cl_mem dsrc = clCreateBuffer(env.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, src, &err);
  CHECK(err);
  cl_mem ddst = clCreateBuffer(env.context, CL_MEM_WRITE_ONLY, bytes, NULL, &err);
  CHECK(err);
  CHECK(clSetKernelArg(k, 0, sizeof dsrc, &dsrc));
  CHECK(clSetKernelArg(k, 1, sizeof ddst, &ddst));
  CHECK(clSetKernelArg(k, 2, sizeof width, &width));
  CHECK(clSetKernelArg(k, 3, sizeof height, &height));
  /* 16 x 16 groups; the NDRange is rounded up and the kernel ignores the overhang. */
  const size_t local[2] = {16, 16};
  const size_t global[2] = {(size_t)(width + 15) / 16 * 16, (size_t)(height + 15) / 16 * 16};
  cl_event ev;
  CHECK(clEnqueueNDRangeKernel(env.queue, k, 2, NULL, global, local, 0, NULL, &ev));
  CHECK(clEnqueueReadBuffer(env.queue, ddst, CL_TRUE, 0, bytes, dst, 0, NULL, NULL));
  size_t bad = 0;
  const float w[3] = {1.0f, 2.0f, 1.0f};
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      float acc = 0.0f;
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx)
          acc += src[clampi(y + dy, 0, height - 1) * width + clampi(x + dx, 0, width - 1)] *
                 (w[dx + 1] * w[dy + 1]);
      const float expect = acc * 0.0625f;
      if (dst[(size_t)y * width + x] != expect) {
        if (bad < 5) fprintf(stderr, "(%d, %d) = %.9g, expected %.9g\n", x, y, dst[(size_t)y * width + x], expect);
        ++bad;
      }
    }
  const double ms = sample_event_ms(ev);
  printf("blur on %s: %dx%d, %zu mismatches, kernel %.3f ms (%.1f Mpixel/s): %s\n", env.device_name, width,
         height, bad, ms, ms > 0 ? pixels / (ms * 1e3) : 0.0, bad ? "FAILED" : "PASSED");
  clReleaseEvent(ev);
  clReleaseMemObject(dsrc);
  clReleaseMemObject(ddst);
  clReleaseKernel(k);
  sample_close(&env);
  free(src), free(dst);
  return bad ? 1 : 0;
}
