/* Image blur: a 5x5 Gaussian (binomial 1 4 6 4 1, divided by 256) over a synthetic RGBA8
 * picture held in an OpenCL image, read through a sampler that clamps to the edge and written
 * to a second image. The host repeats the filter on the same unorm8 values and accepts one
 * step of rounding difference per channel. With a file name as the third argument the result
 * is written there as a binary PPM. */
#include "sample_common.h"

#include <math.h>

static const char* kSource =
    "__constant sampler_t kEdge = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE |\n"
    "                             CLK_FILTER_NEAREST;\n"
    "__kernel void gauss5(read_only image2d_t src, write_only image2d_t dst) {\n"
    "  const int2 p = (int2)(get_global_id(0), get_global_id(1));\n"
    "  if (p.x >= get_image_width(dst) || p.y >= get_image_height(dst)) return;\n"
    "  const float w[5] = {1.0f, 4.0f, 6.0f, 4.0f, 1.0f};\n"
    "  float4 acc = 0.0f;\n"
    "  for (int dy = -2; dy <= 2; ++dy)\n"
    "    for (int dx = -2; dx <= 2; ++dx)\n"
    "      acc += read_imagef(src, kEdge, p + (int2)(dx, dy)) * (w[dx + 2] * w[dy + 2]);\n"
    "  write_imagef(dst, p, acc * (1.0f / 256.0f));\n"
    "}\n";

static int clampi(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }

/* A picture with edges worth blurring: a checkerboard over a colour gradient. */
static void make_picture(unsigned char* rgba, int width, int height) {
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      unsigned char* p = rgba + ((size_t)y * width + x) * 4;
      const int check = ((x / 16) ^ (y / 16)) & 1;
      p[0] = (unsigned char)(x * 255 / (width > 1 ? width - 1 : 1));
      p[1] = (unsigned char)(y * 255 / (height > 1 ? height - 1 : 1));
      p[2] = check ? 230 : 25;
      p[3] = 255;
    }
}

static int write_ppm(const char* path, const unsigned char* rgba, int width, int height) {
  FILE* f = fopen(path, "wb");
  if (!f) return 1;
  fprintf(f, "P6\n%d %d\n255\n", width, height);
  for (size_t i = 0; i < (size_t)width * height; ++i) fwrite(rgba + i * 4, 1, 3, f);
  return fclose(f) != 0;
}

int main(int argc, char** argv) {
  const int width = argc > 1 ? atoi(argv[1]) : 256, height = argc > 2 ? atoi(argv[2]) : 192;
  const char* out_path = argc > 3 ? argv[3] : NULL;
  struct sample_env env;
  if (sample_open(&env)) return 1;
  cl_bool images = CL_FALSE;
  CHECK(clGetDeviceInfo(env.device, CL_DEVICE_IMAGE_SUPPORT, sizeof images, &images, NULL));
  if (!images) {
    fprintf(stderr, "%s has no image support\n", env.device_name);
    return 1;
  }
  cl_kernel k = sample_kernel(&env, kSource, "", "gauss5");
  if (!k) return 1;
  const size_t pixels = (size_t)width * height;
  unsigned char* src = malloc(pixels * 4);
  unsigned char* dst = malloc(pixels * 4);
  make_picture(src, width, height);

  const cl_image_format format = {CL_RGBA, CL_UNORM_INT8};
  cl_image_desc desc;
  memset(&desc, 0, sizeof desc);
  desc.image_type = CL_MEM_OBJECT_IMAGE2D;
  desc.image_width = (size_t)width;
  desc.image_height = (size_t)height;
  cl_int err;
  cl_mem isrc =
      clCreateImage(env.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &format, &desc, src, &err);
  CHECK(err);
  cl_mem idst = clCreateImage(env.context, CL_MEM_WRITE_ONLY, &format, &desc, NULL, &err);
  CHECK(err);
  CHECK(clSetKernelArg(k, 0, sizeof isrc, &isrc));
  CHECK(clSetKernelArg(k, 1, sizeof idst, &idst));
  const size_t local[2] = {16, 16};
  const size_t global[2] = {(size_t)(width + 15) / 16 * 16, (size_t)(height + 15) / 16 * 16};
  cl_event ev;
  CHECK(clEnqueueNDRangeKernel(env.queue, k, 2, NULL, global, local, 0, NULL, &ev));
  const size_t origin[3] = {0, 0, 0}, region[3] = {(size_t)width, (size_t)height, 1};
  CHECK(clEnqueueReadImage(env.queue, idst, CL_TRUE, origin, region, 0, 0, dst, 0, NULL, NULL));

  /* The host filter on the same values: unorm8 reads are v / 255, the write rounds to nearest. */
  size_t bad = 0;
  const float w[5] = {1.0f, 4.0f, 6.0f, 4.0f, 1.0f};
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x)
      for (int c = 0; c < 4; ++c) {
        float acc = 0.0f;
        for (int dy = -2; dy <= 2; ++dy)
          for (int dx = -2; dx <= 2; ++dx) {
            const int sx = clampi(x + dx, 0, width - 1), sy = clampi(y + dy, 0, height - 1);
            acc += src[((size_t)sy * width + sx) * 4 + c] / 255.0f * (w[dx + 2] * w[dy + 2]);
          }
        const long expect = lrintf(fminf(fmaxf(acc / 256.0f, 0.0f), 1.0f) * 255.0f);
        const long got = dst[((size_t)y * width + x) * 4 + c];
        if (labs(got - expect) > 1) {
          if (bad < 5) fprintf(stderr, "(%d, %d)[%d] = %ld, expected %ld\n", x, y, c, got, expect);
          ++bad;
        }
      }
  const double ms = sample_event_ms(ev);
  if (out_path && write_ppm(out_path, dst, width, height)) {
    fprintf(stderr, "cannot write %s\n", out_path);
    bad = bad ? bad : 1;
  }
  printf("image blur on %s: %dx%d RGBA8, %zu mismatches, kernel %.3f ms (%.1f Mpixel/s)%s%s: %s\n",
         env.device_name, width, height, bad, ms, ms > 0 ? pixels / (ms * 1e3) : 0.0,
         out_path ? ", written to " : "", out_path ? out_path : "", bad ? "FAILED" : "PASSED");
  clReleaseEvent(ev);
  clReleaseMemObject(isrc);
  clReleaseMemObject(idst);
  clReleaseKernel(k);
  sample_close(&env);
  free(src), free(dst);
  return bad ? 1 : 0;
}
