// Image fills and maps through the ICD loader: clEnqueueFillImage converts the colour on the
// host and fills only the region, clEnqueueMapImage returns the region at its pitches (on the
// application's memory for CL_MEM_USE_HOST_PTR) and unmapping writes it back. Runs on gfx1100
// and (as gfx1201_image_transfer_test) on gfx1201.
#include "cl_helpers.h"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

using namespace amcl_test;

namespace {

cl_mem image2d(Env& env, cl_image_format f, size_t w, size_t h, cl_mem_flags flags = 0,
               void* host = nullptr, size_t row_pitch = 0) {
  cl_image_desc d{};
  d.image_type = CL_MEM_OBJECT_IMAGE2D;
  d.image_width = w;
  d.image_height = h;
  d.image_row_pitch = row_pitch;
  cl_int err = 1;
  cl_mem m = clCreateImage(env.context, flags, &f, &d, host, &err);
  EXPECT_EQ(err, CL_SUCCESS);
  return m;
}

std::vector<uint8_t> read_all(Env& env, cl_mem m, size_t w, size_t h, size_t es) {
  std::vector<uint8_t> out(w * h * es);
  const size_t o[3] = {0, 0, 0}, r[3] = {w, h, 1};
  EXPECT_EQ(clEnqueueReadImage(env.queue, m, CL_TRUE, o, r, 0, 0, out.data(), 0, nullptr, nullptr),
            CL_SUCCESS);
  return out;
}

} // namespace

TEST(ImageTransfer, FillConvertsTheColourAndKeepsTheRest) {
  Env env;
  ASSERT_NE(env.context, nullptr);
  const size_t w = 9, h = 7;
  std::vector<uint8_t> init(w * h * 4, 0x11);
  cl_mem m = image2d(env, {CL_BGRA, CL_UNORM_INT8}, w, h, CL_MEM_COPY_HOST_PTR, init.data());
  const float colour[4] = {1.0f, 0.5f, 0.0f, 0.25f}; // r g b a
  const size_t o[3] = {2, 1, 0}, r[3] = {5, 4, 1};
  cl_event e = nullptr;
  ASSERT_EQ(clEnqueueFillImage(env.queue, m, colour, o, r, 0, nullptr, &e), CL_SUCCESS);
  EXPECT_EQ(env.final_status(e), CL_COMPLETE);
  cl_command_type type = 0;
  clGetEventInfo(e, CL_EVENT_COMMAND_TYPE, sizeof type, &type, nullptr);
  EXPECT_EQ(type, cl_command_type(CL_COMMAND_FILL_IMAGE));
  clReleaseEvent(e);
  const std::vector<uint8_t> got = read_all(env, m, w, h, 4);
  const uint8_t inside[4] = {0, 128, 255, 64}; // b g r a in memory
  for (size_t y = 0; y < h; ++y)
    for (size_t x = 0; x < w; ++x) {
      const bool in = x >= 2 && x < 7 && y >= 1 && y < 5;
      for (int c = 0; c < 4; ++c)
        ASSERT_EQ(got[(y * w + x) * 4 + c], in ? inside[c] : 0x11) << x << "," << y << " " << c;
    }
  clReleaseMemObject(m);
}

TEST(ImageTransfer, FillEveryTypeOf3DAndArrays) {
  Env env;
  ASSERT_NE(env.context, nullptr);
  const cl_image_format f{CL_RGBA, CL_SIGNED_INT16};
  cl_image_desc d{};
  d.image_type = CL_MEM_OBJECT_IMAGE2D_ARRAY;
  d.image_width = 5;
  d.image_height = 3;
  d.image_array_size = 4;
  cl_int err = 1;
  cl_mem m = clCreateImage(env.context, 0, &f, &d, nullptr, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  const int32_t zero[4] = {0, 0, 0, 0}, colour[4] = {-1, 40000, -40000, 7};
  const size_t o[3] = {0, 0, 0}, all[3] = {5, 3, 4}, o2[3] = {1, 1, 2}, r2[3] = {3, 2, 1};
  ASSERT_EQ(clEnqueueFillImage(env.queue, m, zero, o, all, 0, nullptr, nullptr), CL_SUCCESS);
  ASSERT_EQ(clEnqueueFillImage(env.queue, m, colour, o2, r2, 0, nullptr, nullptr), CL_SUCCESS);
  std::vector<int16_t> got(5 * 3 * 4 * 4);
  ASSERT_EQ(
      clEnqueueReadImage(env.queue, m, CL_TRUE, o, all, 0, 0, got.data(), 0, nullptr, nullptr),
      CL_SUCCESS);
  const int16_t want[4] = {-1, 32767, -32768, 7};
  for (size_t z = 0; z < 4; ++z)
    for (size_t y = 0; y < 3; ++y)
      for (size_t x = 0; x < 5; ++x) {
        const bool in = z == 2 && y >= 1 && y < 3 && x >= 1 && x < 4;
        for (int c = 0; c < 4; ++c)
          ASSERT_EQ(got[((z * 3 + y) * 5 + x) * 4 + c], in ? want[c] : 0) << x << y << z << c;
      }
  // Errors.
  EXPECT_EQ(clEnqueueFillImage(env.queue, m, nullptr, o, all, 0, nullptr, nullptr),
            CL_INVALID_VALUE);
  const size_t over[3] = {5, 3, 5};
  EXPECT_EQ(clEnqueueFillImage(env.queue, m, colour, o, over, 0, nullptr, nullptr),
            CL_INVALID_VALUE);
  cl_mem buffer = env.buffer(64);
  EXPECT_EQ(clEnqueueFillImage(env.queue, buffer, colour, o, all, 0, nullptr, nullptr),
            CL_INVALID_MEM_OBJECT);
  EXPECT_EQ(clEnqueueFillImage(nullptr, m, colour, o, all, 0, nullptr, nullptr),
            CL_INVALID_COMMAND_QUEUE);
  clReleaseMemObject(buffer);
  clReleaseMemObject(m);
}

// Reads and writes of whole rows of an image whose pitch is its row are one span on both sides
// and move as one bulk copy (by DMA of the host's pages from 1 MiB); rows a pitch pads, and
// parts of rows, move row by row. Each kind lands where the other reads it.
TEST(ImageTransfer, WholeRowsMoveAsOneSpanAndPaddedRowsByRow) {
  Env env;
  ASSERT_NE(env.context, nullptr);
  for (const size_t w : {size_t{1024}, size_t{1000}}) { // 4,096-byte rows: the pitch; 4,000: padded
    const size_t h = 300, es = 4;
    std::vector<uint8_t> src(w * h * es);
    uint32_t x = uint32_t(w);
    for (uint8_t& b : src) b = uint8_t((x = x * 1664525u + 1013904223u) >> 24);
    cl_mem m = image2d(env, {CL_RGBA, CL_UNORM_INT8}, w, h);
    const size_t o[3] = {0, 0, 0}, r[3] = {w, h, 1};
    ASSERT_EQ(
        clEnqueueWriteImage(env.queue, m, CL_TRUE, o, r, 0, 0, src.data(), 0, nullptr, nullptr),
        CL_SUCCESS);
    EXPECT_EQ(read_all(env, m, w, h, es), src) << "width " << w;
    // Rows 100..199 whole (one span on the device), then a part of each row (never one).
    for (const size_t x0 : {size_t{0}, size_t{3}}) {
      const size_t o2[3] = {x0, 100, 0}, r2[3] = {w - x0, 100, 1};
      std::vector<uint8_t> part((w - x0) * 100 * es, 0xee);
      ASSERT_EQ(
          clEnqueueReadImage(env.queue, m, CL_TRUE, o2, r2, 0, 0, part.data(), 0, nullptr, nullptr),
          CL_SUCCESS);
      for (size_t y = 0; y < 100; ++y)
        ASSERT_EQ(
            std::memcmp(&part[y * (w - x0) * es], &src[((100 + y) * w + x0) * es], (w - x0) * es),
            0)
            << "width " << w << " x0 " << x0 << " row " << y;
    }
    // A write of rows 10..19 whole leaves the rest.
    std::vector<uint8_t> rows(w * 10 * es, 0x5a);
    const size_t o3[3] = {0, 10, 0}, r3[3] = {w, 10, 1};
    ASSERT_EQ(
        clEnqueueWriteImage(env.queue, m, CL_TRUE, o3, r3, 0, 0, rows.data(), 0, nullptr, nullptr),
        CL_SUCCESS);
    std::vector<uint8_t> want = src;
    std::memset(&want[10 * w * es], 0x5a, rows.size());
    EXPECT_EQ(read_all(env, m, w, h, es), want) << "width " << w;
    clReleaseMemObject(m);
  }
  // A 3D image of 256-byte rows (the pitch on both generations): slices 2..5 in one span.
  cl_image_desc d{};
  d.image_type = CL_MEM_OBJECT_IMAGE3D;
  d.image_width = 256;
  d.image_height = 64;
  d.image_depth = 80;
  const cl_image_format f{CL_R, CL_UNSIGNED_INT8};
  cl_int err = 1;
  cl_mem m3 = clCreateImage(env.context, 0, &f, &d, nullptr, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  std::vector<uint8_t> all(256 * 64 * 80);
  for (size_t i = 0; i < all.size(); ++i) all[i] = uint8_t(i * 7 + i / 4099);
  const size_t o[3] = {0, 0, 0}, r[3] = {256, 64, 80};
  ASSERT_EQ(
      clEnqueueWriteImage(env.queue, m3, CL_TRUE, o, r, 0, 0, all.data(), 0, nullptr, nullptr),
      CL_SUCCESS);
  std::vector<uint8_t> slices(256 * 64 * 4);
  const size_t o2[3] = {0, 0, 2}, r2[3] = {256, 64, 4};
  ASSERT_EQ(
      clEnqueueReadImage(env.queue, m3, CL_TRUE, o2, r2, 0, 0, slices.data(), 0, nullptr, nullptr),
      CL_SUCCESS);
  EXPECT_EQ(std::memcmp(slices.data(), &all[2 * 256 * 64], slices.size()), 0);
  clReleaseMemObject(m3);
}

// A 1D buffer image may be far wider than a 2D one: a fill of a row longer than the queue's
// 4 MiB staging memory (CTS cl_fill_images 1Dbuffer at 5,294,588 texels) wrote past it and
// the copy engine then read unmapped memory.
TEST(ImageTransfer, FillOfARowLongerThanTheStagingMemory) {
  Env env;
  ASSERT_NE(env.context, nullptr);
  const size_t w = (5u << 20) + 3; // texels of one byte: 5 MiB and a bit
  cl_mem buffer = env.buffer(w);
  const cl_image_format f{CL_R, CL_SIGNED_INT8};
  cl_image_desc d{};
  d.image_type = CL_MEM_OBJECT_IMAGE1D_BUFFER;
  d.image_width = w;
  d.buffer = buffer;
  cl_int err = 1;
  cl_mem m = clCreateImage(env.context, 0, &f, &d, nullptr, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  const uint8_t zero = 0;
  ASSERT_EQ(clEnqueueFillBuffer(env.queue, buffer, &zero, 1, 0, w, 0, nullptr, nullptr),
            CL_SUCCESS);
  const int32_t colour[4] = {-7, 0, 0, 0};
  const size_t o[3] = {1, 0, 0}, r[3] = {w - 2, 1, 1};
  cl_event e = nullptr;
  ASSERT_EQ(clEnqueueFillImage(env.queue, m, colour, o, r, 0, nullptr, &e), CL_SUCCESS);
  EXPECT_EQ(env.final_status(e), CL_COMPLETE);
  clReleaseEvent(e);
  std::vector<int8_t> got(w, 1);
  ASSERT_EQ(clEnqueueReadBuffer(env.queue, buffer, CL_TRUE, 0, w, got.data(), 0, nullptr, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(got[0], 0);
  EXPECT_EQ(got[w - 1], 0);
  for (size_t x = 1; x + 1 < w; ++x) ASSERT_EQ(got[x], -7) << x;
  clReleaseMemObject(m);
  clReleaseMemObject(buffer);
}

TEST(ImageTransfer, MapReadsAndUnmapWritesBack) {
  Env env;
  ASSERT_NE(env.context, nullptr);
  const size_t w = 12, h = 6, es = 8;
  std::vector<uint8_t> init(w * h * es);
  for (size_t i = 0; i < init.size(); ++i) init[i] = uint8_t(i);
  cl_mem m = image2d(env, {CL_RGBA, CL_HALF_FLOAT}, w, h, CL_MEM_COPY_HOST_PTR, init.data());
  const size_t o[3] = {3, 2, 0}, r[3] = {6, 3, 1};
  size_t row = 0, slice = 99;
  cl_int err = 1;
  auto* p =
      static_cast<uint8_t*>(clEnqueueMapImage(env.queue, m, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, o,
                                              r, &row, &slice, 0, nullptr, nullptr, &err));
  ASSERT_EQ(err, CL_SUCCESS);
  ASSERT_NE(p, nullptr);
  EXPECT_GE(row, r[0] * es);
  EXPECT_EQ(slice, 0u); // a 2D image
  EXPECT_EQ(mem_info<cl_uint>(m, CL_MEM_MAP_COUNT), 1u);
  for (size_t y = 0; y < r[1]; ++y)
    ASSERT_EQ(std::memcmp(p + y * row, &init[((o[1] + y) * w + o[0]) * es], r[0] * es), 0) << y;
  for (size_t y = 0; y < r[1]; ++y) std::memset(p + y * row, int(0xa0 + y), r[0] * es);
  ASSERT_EQ(clEnqueueUnmapMemObject(env.queue, m, p, 0, nullptr, nullptr), CL_SUCCESS);
  const std::vector<uint8_t> got = read_all(env, m, w, h, es);
  for (size_t y = 0; y < h; ++y)
    for (size_t x = 0; x < w; ++x) {
      const bool in = x >= o[0] && x < o[0] + r[0] && y >= o[1] && y < o[1] + r[1];
      const size_t at = (y * w + x) * es;
      ASSERT_EQ(got[at], in ? uint8_t(0xa0 + (y - o[1])) : init[at]) << x << "," << y;
    }
  EXPECT_EQ(mem_info<cl_uint>(m, CL_MEM_MAP_COUNT), 0u);
  // A 3D map has a slice pitch; without somewhere to put it, CL_INVALID_VALUE.
  cl_image_desc d{};
  d.image_type = CL_MEM_OBJECT_IMAGE3D;
  d.image_width = 4;
  d.image_height = 4;
  d.image_depth = 3;
  const cl_image_format f{CL_R, CL_FLOAT};
  cl_mem m3 = clCreateImage(env.context, 0, &f, &d, nullptr, &err);
  const size_t o3[3] = {0, 0, 1}, r3[3] = {4, 4, 2};
  EXPECT_EQ(clEnqueueMapImage(env.queue, m3, CL_TRUE, CL_MAP_READ, o3, r3, &row, nullptr, 0,
                              nullptr, nullptr, &err),
            nullptr);
  EXPECT_EQ(err, CL_INVALID_VALUE);
  void* p3 = clEnqueueMapImage(env.queue, m3, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION, o3, r3, &row,
                               &slice, 0, nullptr, nullptr, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  EXPECT_GE(slice, row * 4);
  for (size_t z = 0; z < 2; ++z)
    for (size_t y = 0; y < 4; ++y)
      for (size_t x = 0; x < 4; ++x)
        reinterpret_cast<float*>(static_cast<uint8_t*>(p3) + z * slice + y * row)[x] =
            float(100 * z + 10 * y + x);
  ASSERT_EQ(clEnqueueUnmapMemObject(env.queue, m3, p3, 0, nullptr, nullptr), CL_SUCCESS);
  std::vector<float> back(4 * 4 * 2);
  ASSERT_EQ(
      clEnqueueReadImage(env.queue, m3, CL_TRUE, o3, r3, 0, 0, back.data(), 0, nullptr, nullptr),
      CL_SUCCESS);
  for (size_t i = 0; i < back.size(); ++i)
    ASSERT_EQ(back[i], float(100 * (i / 16) + 10 * (i / 4 % 4) + i % 4)) << i;
  // Errors: no row pitch, bad flags, host access, a buffer.
  EXPECT_EQ(clEnqueueMapImage(env.queue, m, CL_TRUE, CL_MAP_READ, o, r, nullptr, nullptr, 0,
                              nullptr, nullptr, &err),
            nullptr);
  EXPECT_EQ(err, CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueMapImage(env.queue, m, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE_INVALIDATE_REGION,
                              o, r, &row, nullptr, 0, nullptr, nullptr, &err),
            nullptr);
  EXPECT_EQ(err, CL_INVALID_VALUE);
  cl_mem no_host = image2d(env, {CL_R, CL_FLOAT}, 4, 4, CL_MEM_HOST_NO_ACCESS);
  EXPECT_EQ(clEnqueueMapImage(env.queue, no_host, CL_TRUE, CL_MAP_READ, o3, o3, &row, nullptr, 0,
                              nullptr, nullptr, &err),
            nullptr);
  EXPECT_EQ(err, CL_INVALID_VALUE); // region 0 first
  const size_t one[3] = {1, 1, 1}, origin0[3] = {0, 0, 0};
  EXPECT_EQ(clEnqueueMapImage(env.queue, no_host, CL_TRUE, CL_MAP_READ, origin0, one, &row, nullptr,
                              0, nullptr, nullptr, &err),
            nullptr);
  EXPECT_EQ(err, CL_INVALID_OPERATION);
  cl_mem buffer = env.buffer(64);
  EXPECT_EQ(clEnqueueMapImage(env.queue, buffer, CL_TRUE, CL_MAP_READ, origin0, one, &row, nullptr,
                              0, nullptr, nullptr, &err),
            nullptr);
  EXPECT_EQ(err, CL_INVALID_MEM_OBJECT);
  for (cl_mem x : {m, m3, no_host, buffer}) clReleaseMemObject(x);
}

// CL_MEM_USE_HOST_PTR: the map is the application's memory at its own pitch.
TEST(ImageTransfer, MapOfAHostPointerImageIsThatMemory) {
  Env env;
  ASSERT_NE(env.context, nullptr);
  const size_t w = 8, h = 4, pitch = 8 * 4 + 16;
  std::vector<uint8_t> host(pitch * h, 0x5a);
  cl_mem m = image2d(env, {CL_RGBA, CL_UNORM_INT8}, w, h, CL_MEM_USE_HOST_PTR, host.data(), pitch);
  const size_t o[3] = {2, 1, 0}, r[3] = {3, 2, 1};
  const float colour[4] = {0, 0, 0, 0};
  ASSERT_EQ(clEnqueueFillImage(env.queue, m, colour, o, r, 0, nullptr, nullptr), CL_SUCCESS);
  size_t row = 0;
  cl_int err = 1;
  auto* p = static_cast<uint8_t*>(clEnqueueMapImage(env.queue, m, CL_TRUE, CL_MAP_READ, o, r, &row,
                                                    nullptr, 0, nullptr, nullptr, &err));
  ASSERT_EQ(err, CL_SUCCESS);
  EXPECT_EQ(p, host.data() + 1 * pitch + 2 * 4);
  EXPECT_EQ(row, pitch);
  // The device's fill shows in the application's memory once mapped.
  EXPECT_EQ(p[0], 0);
  EXPECT_EQ(p[row + 3 * 4 - 1], 0);
  EXPECT_EQ(host[0], 0x5a);
  ASSERT_EQ(clEnqueueUnmapMemObject(env.queue, m, p, 0, nullptr, nullptr), CL_SUCCESS);
  ASSERT_EQ(clFinish(env.queue), CL_SUCCESS);
  clReleaseMemObject(m);
}

// An image without host memory maps onto a host copy that the next map of it reuses (no fresh
// pages for a test that maps a large image over and over), yet every map shows the texels the
// device holds then, and only a written map is written back.
TEST(ImageTransfer, MapsReuseTheHostCopyAndShowTheCurrentTexels) {
  Env env;
  ASSERT_NE(env.context, nullptr);
  const size_t w = 32, h = 8, bytes = w * h * 4;
  cl_mem m = image2d(env, {CL_RGBA, CL_UNSIGNED_INT8}, w, h);
  const size_t o[3] = {0, 0, 0}, r[3] = {w, h, 1}, part[3] = {4, 2, 1};
  auto fill = [&](uint8_t seed) {
    std::vector<uint8_t> v(bytes);
    for (size_t i = 0; i < bytes; ++i) v[i] = uint8_t(i * 3 + seed);
    return v;
  };
  auto map = [&](cl_map_flags flags, const size_t* region) {
    cl_int err = 1;
    size_t row = 0;
    void* p = clEnqueueMapImage(env.queue, m, CL_TRUE, flags, o, region, &row, nullptr, 0, nullptr,
                                nullptr, &err);
    EXPECT_EQ(err, CL_SUCCESS);
    EXPECT_EQ(row, region[0] * 4);
    return static_cast<uint8_t*>(p);
  };
  auto unmap = [&](void* p) {
    ASSERT_EQ(clEnqueueUnmapMemObject(env.queue, m, p, 0, nullptr, nullptr), CL_SUCCESS);
    ASSERT_EQ(clFinish(env.queue), CL_SUCCESS);
  };
  const std::vector<uint8_t> a = fill(1), b = fill(2), c = fill(3);
  ASSERT_EQ(clEnqueueWriteImage(env.queue, m, CL_TRUE, o, r, 0, 0, a.data(), 0, nullptr, nullptr),
            CL_SUCCESS);
  uint8_t* first = map(CL_MAP_READ | CL_MAP_WRITE, r);
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(std::memcmp(first, a.data(), bytes), 0);
  std::memcpy(first, c.data(), bytes);
  unmap(first);
  EXPECT_EQ(read_all(env, m, w, h, 4), c);

  ASSERT_EQ(clEnqueueWriteImage(env.queue, m, CL_TRUE, o, r, 0, 0, b.data(), 0, nullptr, nullptr),
            CL_SUCCESS);
  uint8_t* again = map(CL_MAP_READ, r);
  EXPECT_EQ(again, first); // the same host copy, holding the device's new texels
  EXPECT_EQ(std::memcmp(again, b.data(), bytes), 0);
  std::memset(again, 0, bytes); // a read map is not written back
  // A second, smaller map while the first is live gets memory of its own.
  uint8_t* corner = map(CL_MAP_READ, part);
  EXPECT_NE(corner, again);
  for (size_t y = 0; y < part[1]; ++y)
    EXPECT_EQ(std::memcmp(corner + y * part[0] * 4, b.data() + y * w * 4, part[0] * 4), 0) << y;
  unmap(again);
  unmap(corner);
  EXPECT_EQ(read_all(env, m, w, h, 4), b);
  // The smaller map's region fits the kept copy.
  uint8_t* small = map(CL_MAP_READ, part);
  EXPECT_EQ(small, first);
  EXPECT_EQ(std::memcmp(small, b.data(), part[0] * 4), 0);
  unmap(small);
  clReleaseMemObject(m);
}

namespace {

// One image of any type, its texels modelled on the host (packed, x fastest, then rows or
// layers, then slices or layers), and the transfers of stop 33's padded-image checks.
struct Padded {
  cl_mem_object_type type;
  cl_image_format format;
  size_t es, w, h, d; // h: a 1D array's layers; d: a 3D image's slices or a 2D array's layers
};

cl_mem make_image(Env& env, const Padded& c, cl_mem& buffer) {
  cl_image_desc d{};
  d.image_type = c.type;
  d.image_width = c.w;
  d.image_height = c.type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? 0 : c.h;
  d.image_depth = c.type == CL_MEM_OBJECT_IMAGE3D ? c.d : 0;
  d.image_array_size = c.type == CL_MEM_OBJECT_IMAGE1D_ARRAY   ? c.h
                       : c.type == CL_MEM_OBJECT_IMAGE2D_ARRAY ? c.d
                                                               : 0;
  buffer = nullptr;
  if (c.type == CL_MEM_OBJECT_IMAGE1D_BUFFER) d.buffer = buffer = env.buffer(c.w * c.es);
  cl_int err = 1;
  cl_mem m = clCreateImage(env.context, 0, &c.format, &d, nullptr, &err);
  EXPECT_EQ(err, CL_SUCCESS);
  return m;
}

// Where texel (x, y, z) of the model is.
size_t at(const Padded& c, size_t x, size_t y, size_t z) {
  return ((z * c.h + y) * c.w + x) * c.es;
}

// The host pitches a transfer of `r` uses: padded past the region's rows and slices (a 1D
// array's layers take the slice pitch), none for a type without slices.
struct HostPitch {
  size_t row, slice;
};
HostPitch padded_pitch(const Padded& c, const size_t* r) {
  const size_t row = r[0] * c.es + 40;
  switch (c.type) {
  case CL_MEM_OBJECT_IMAGE1D_ARRAY:
    return {row, row + 24};
  case CL_MEM_OBJECT_IMAGE2D_ARRAY:
  case CL_MEM_OBJECT_IMAGE3D:
    return {row, row * r[1] + 72};
  default:
    return {row, 0};
  }
}
// The host offset of texel (x, y, z) of a region at pitches `p`.
size_t host_at(const Padded& c, const HostPitch& p, size_t x, size_t y, size_t z) {
  return c.type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? y * p.slice + x * c.es
                                               : z * p.slice + y * p.row + x * c.es;
}

void check_region(const Padded& c, const std::vector<uint8_t>& model, const size_t* o,
                  const size_t* r, const uint8_t* host, const HostPitch& p, const char* what) {
  for (size_t z = 0; z < r[2]; ++z)
    for (size_t y = 0; y < r[1]; ++y)
      ASSERT_EQ(std::memcmp(host + host_at(c, p, 0, y, z), &model[at(c, o[0], o[1] + y, o[2] + z)],
                            r[0] * c.es),
                0)
          << what << ": row " << y << " slice " << z;
}

void store_region(const Padded& c, std::vector<uint8_t>& model, const size_t* o, const size_t* r,
                  const uint8_t* host, const HostPitch& p) {
  for (size_t z = 0; z < r[2]; ++z)
    for (size_t y = 0; y < r[1]; ++y)
      std::memcpy(&model[at(c, o[0], o[1] + y, o[2] + z)], host + host_at(c, p, 0, y, z),
                  r[0] * c.es);
}

std::vector<uint8_t> noise(size_t n, uint32_t seed) {
  std::vector<uint8_t> v(n);
  for (uint8_t& b : v) b = uint8_t((seed = seed * 1664525u + 1013904223u) >> 24);
  return v;
}

// Reads, writes and maps (read/write, then write-invalidate) of regions at odd origins, with
// padded host pitches, blocking and not; then the whole image is read back against the model.
void padded_transfers(Env& env, const Padded& c, const size_t* o, const size_t* r) {
  SCOPED_TRACE(testing::Message() << "type " << std::hex << c.type << std::dec << " " << c.w << "x"
                                  << c.h << "x" << c.d << " origin " << o[0] << "," << o[1] << ","
                                  << o[2] << " region " << r[0] << "," << r[1] << "," << r[2]);
  cl_mem buffer = nullptr;
  cl_mem m = make_image(env, c, buffer);
  ASSERT_NE(m, nullptr);
  std::vector<uint8_t> model = noise(c.w * c.h * c.d * c.es, uint32_t(c.w * 31 + c.type));
  const size_t zero[3] = {0, 0, 0};
  const size_t all[3] = {c.w, c.h, c.d};
  ASSERT_EQ(clEnqueueWriteImage(env.queue, m, CL_TRUE, zero, all, 0, 0, model.data(), 0, nullptr,
                                nullptr),
            CL_SUCCESS);
  const HostPitch p = padded_pitch(c, r);
  const size_t count = c.type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? r[1] : r[2];
  const size_t host_bytes =
      (c.type == CL_MEM_OBJECT_IMAGE1D_ARRAY || p.slice) ? p.slice * count : p.row * r[1];
  // A read into padded host rows, not blocking; the padding keeps its bytes.
  std::vector<uint8_t> host(host_bytes, 0xc3);
  cl_event e = nullptr;
  ASSERT_EQ(
      clEnqueueReadImage(env.queue, m, CL_FALSE, o, r, p.row, p.slice, host.data(), 0, nullptr, &e),
      CL_SUCCESS);
  ASSERT_EQ(clWaitForEvents(1, &e), CL_SUCCESS);
  clReleaseEvent(e);
  check_region(c, model, o, r, host.data(), p, "read");
  EXPECT_EQ(host[r[0] * c.es], 0xc3) << "the padding after the first row changed";
  EXPECT_EQ(host.back(), 0xc3);
  // A blocking write of other bytes from padded rows.
  host = noise(host_bytes, uint32_t(c.h * 7 + c.d));
  ASSERT_EQ(clEnqueueWriteImage(env.queue, m, CL_TRUE, o, r, p.row, p.slice, host.data(), 0,
                                nullptr, nullptr),
            CL_SUCCESS);
  store_region(c, model, o, r, host.data(), p);
  // A map for reading and writing shows the region at its pitches; the unmap writes it back.
  const bool sliced = c.type == CL_MEM_OBJECT_IMAGE3D || c.type == CL_MEM_OBJECT_IMAGE1D_ARRAY ||
                      c.type == CL_MEM_OBJECT_IMAGE2D_ARRAY;
  for (const cl_map_flags flags :
       {cl_map_flags(CL_MAP_READ | CL_MAP_WRITE), cl_map_flags(CL_MAP_WRITE_INVALIDATE_REGION)}) {
    size_t row = 0, slice = 0;
    cl_int err = 1;
    auto* mapped =
        static_cast<uint8_t*>(clEnqueueMapImage(env.queue, m, CL_FALSE, flags, o, r, &row,
                                                sliced ? &slice : nullptr, 0, nullptr, &e, &err));
    ASSERT_EQ(err, CL_SUCCESS);
    ASSERT_EQ(clWaitForEvents(1, &e), CL_SUCCESS);
    clReleaseEvent(e);
    const HostPitch mp{row, slice};
    if (flags & CL_MAP_READ) check_region(c, model, o, r, mapped, mp, "map");
    const std::vector<uint8_t> fresh = noise(r[0] * c.es, uint32_t(flags));
    for (size_t z = 0; z < r[2]; ++z)
      for (size_t y = 0; y < r[1]; ++y) {
        uint8_t* line = mapped + host_at(c, mp, 0, y, z);
        std::memcpy(line, fresh.data(), fresh.size());
        line[0] = uint8_t(y), line[fresh.size() - 1] = uint8_t(z);
      }
    store_region(c, model, o, r, mapped, mp);
    ASSERT_EQ(clEnqueueUnmapMemObject(env.queue, m, mapped, 0, nullptr, nullptr), CL_SUCCESS);
  }
  ASSERT_EQ(clFinish(env.queue), CL_SUCCESS);
  std::vector<uint8_t> back(model.size(), 0x11);
  ASSERT_EQ(
      clEnqueueReadImage(env.queue, m, CL_TRUE, zero, all, 0, 0, back.data(), 0, nullptr, nullptr),
      CL_SUCCESS);
  for (size_t i = 0; i < model.size(); i += c.es)
    ASSERT_EQ(std::memcmp(&back[i], &model[i], c.es), 0)
        << "texel " << i / c.es % c.w << "," << i / c.es / c.w % c.h << "," << i / c.es / c.w / c.h;
  clReleaseMemObject(m);
  if (buffer) clReleaseMemObject(buffer);
}

} // namespace

// Every image type, with rows the pitch alignment pads, transfers regions at odd origins:
// small ones (staged) and ones of a megabyte and more (the application's pages by DMA).
TEST(ImageTransfer, PaddedImagesMoveOddRegionsOfEveryType) {
  Env env;
  ASSERT_NE(env.context, nullptr);
  struct Case {
    Padded c;
    size_t o[3], r[3];
  };
  const Case cases[] = {
      {{CL_MEM_OBJECT_IMAGE1D, {CL_RGBA, CL_FLOAT}, 16, 16001, 1, 1}, {3, 0, 0}, {15990, 1, 1}},
      {{CL_MEM_OBJECT_IMAGE1D_BUFFER, {CL_RG, CL_HALF_FLOAT}, 4, 300007, 1, 1},
       {5, 0, 0},
       {300000, 1, 1}},
      {{CL_MEM_OBJECT_IMAGE1D_ARRAY, {CL_R, CL_UNSIGNED_INT8}, 1, 37, 9, 1}, {1, 2, 0}, {33, 5, 1}},
      {{CL_MEM_OBJECT_IMAGE1D_ARRAY, {CL_RGBA, CL_FLOAT}, 16, 1001, 83, 1},
       {7, 3, 0},
       {993, 79, 1}},
      {{CL_MEM_OBJECT_IMAGE2D, {CL_R, CL_UNSIGNED_INT16}, 2, 23, 11, 1}, {1, 3, 0}, {21, 7, 1}},
      {{CL_MEM_OBJECT_IMAGE2D, {CL_RGBA, CL_UNORM_INT8}, 4, 1013, 613, 1},
       {3, 5, 0},
       {1001, 600, 1}},
      {{CL_MEM_OBJECT_IMAGE2D, {CL_R, CL_UNSIGNED_INT8}, 1, 16001, 97, 1},
       {13, 1, 0},
       {15987, 95, 1}},
      {{CL_MEM_OBJECT_IMAGE2D_ARRAY, {CL_RGBA, CL_UNSIGNED_INT8}, 4, 13, 7, 5},
       {2, 1, 1},
       {9, 5, 3}},
      {{CL_MEM_OBJECT_IMAGE2D_ARRAY, {CL_RG, CL_FLOAT}, 8, 211, 101, 9}, {1, 2, 1}, {209, 97, 7}},
      {{CL_MEM_OBJECT_IMAGE3D, {CL_R, CL_FLOAT}, 4, 9, 5, 4}, {1, 1, 1}, {7, 3, 2}},
      {{CL_MEM_OBJECT_IMAGE3D, {CL_RGBA, CL_UNORM_INT8}, 4, 203, 67, 41}, {1, 3, 2}, {199, 61, 37}},
      {{CL_MEM_OBJECT_IMAGE3D, {CL_RGBA, CL_UNSIGNED_INT32}, 16, 67, 33, 71},
       {3, 0, 5},
       {61, 33, 63}},
  };
  for (const Case& k : cases) {
    padded_transfers(env, k.c, k.o, k.r);
    if (testing::Test::HasFatalFailure()) return;
  }
}

// A map of an image nothing has written yet copies nothing out (its texels are undefined), so
// every command that writes an image must count as writing it: a map after each shows its
// texels.
TEST(ImageTransfer, MapsAfterEveryKindOfWriteShowTheTexels) {
  Env env;
  ASSERT_NE(env.context, nullptr);
  const size_t w = 16, h = 8, es = 4;
  const cl_image_format f{CL_RGBA, CL_UNSIGNED_INT8};
  const size_t o[3] = {0, 0, 0}, r[3] = {w, h, 1};
  std::vector<uint8_t> texels(w * h * es);
  for (size_t i = 0; i < texels.size(); ++i) texels[i] = uint8_t(i * 5 + 1);
  // The texels a map of all of `m` shows.
  auto mapped = [&](cl_mem m) {
    size_t row = 0;
    cl_int err = 1;
    auto* p = static_cast<uint8_t*>(clEnqueueMapImage(env.queue, m, CL_TRUE, CL_MAP_READ, o, r,
                                                      &row, nullptr, 0, nullptr, nullptr, &err));
    EXPECT_EQ(err, CL_SUCCESS);
    std::vector<uint8_t> got(w * h * es);
    if (p)
      for (size_t y = 0; y < h; ++y) std::memcpy(&got[y * w * es], p + y * row, w * es);
    EXPECT_EQ(clEnqueueUnmapMemObject(env.queue, m, p, 0, nullptr, nullptr), CL_SUCCESS);
    EXPECT_EQ(clFinish(env.queue), CL_SUCCESS);
    return got;
  };
  // A fill.
  cl_mem filled = image2d(env, f, w, h);
  const cl_uint colour[4] = {1, 2, 3, 4};
  ASSERT_EQ(clEnqueueFillImage(env.queue, filled, colour, o, r, 0, nullptr, nullptr), CL_SUCCESS);
  std::vector<uint8_t> ones(w * h * es);
  for (size_t i = 0; i < ones.size(); ++i) ones[i] = uint8_t(1 + i % 4);
  EXPECT_EQ(mapped(filled), ones);
  // A copy from an image, and from a buffer.
  cl_mem copied = image2d(env, f, w, h);
  ASSERT_EQ(clEnqueueCopyImage(env.queue, filled, copied, o, o, r, 0, nullptr, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(mapped(copied), ones);
  cl_mem buffer = env.buffer(texels.size(), texels.data());
  cl_mem from_buffer = image2d(env, f, w, h);
  ASSERT_EQ(
      clEnqueueCopyBufferToImage(env.queue, buffer, from_buffer, 0, o, r, 0, nullptr, nullptr),
      CL_SUCCESS);
  EXPECT_EQ(mapped(from_buffer), texels);
  // A map for writing, its unmap, then a map for reading.
  cl_mem by_map = image2d(env, f, w, h);
  size_t row = 0;
  cl_int err = 1;
  auto* p = static_cast<uint8_t*>(clEnqueueMapImage(env.queue, by_map, CL_TRUE, CL_MAP_WRITE, o, r,
                                                    &row, nullptr, 0, nullptr, nullptr, &err));
  ASSERT_EQ(err, CL_SUCCESS);
  for (size_t y = 0; y < h; ++y) std::memcpy(p + y * row, &texels[y * w * es], w * es);
  ASSERT_EQ(clEnqueueUnmapMemObject(env.queue, by_map, p, 0, nullptr, nullptr), CL_SUCCESS);
  EXPECT_EQ(mapped(by_map), texels);
  // A kernel's writes.
  cl_program prog = env.program("__kernel void paint(write_only image2d_t im) {\n"
                                "  int2 p = (int2)(get_global_id(0), get_global_id(1));\n"
                                "  write_imageui(im, p, (uint4)(p.x, p.y, 7, 9));\n"
                                "}\n");
  ASSERT_NE(prog, nullptr);
  cl_kernel k = clCreateKernel(prog, "paint", &err);
  ASSERT_EQ(err, CL_SUCCESS);
  cl_mem painted = image2d(env, f, w, h);
  ASSERT_EQ(clSetKernelArg(k, 0, sizeof painted, &painted), CL_SUCCESS);
  const size_t global[2] = {w, h};
  ASSERT_EQ(clEnqueueNDRangeKernel(env.queue, k, 2, nullptr, global, nullptr, 0, nullptr, nullptr),
            CL_SUCCESS);
  const std::vector<uint8_t> got = mapped(painted);
  for (size_t y = 0; y < h; ++y)
    for (size_t x = 0; x < w; ++x)
      ASSERT_EQ(std::memcmp(&got[(y * w + x) * es],
                            std::vector<uint8_t>{uint8_t(x), uint8_t(y), 7, 9}.data(), es),
                0)
          << x << "," << y;
  clReleaseKernel(k);
  clReleaseProgram(prog);
  for (cl_mem m : {filled, copied, buffer, from_buffer, by_map, painted}) clReleaseMemObject(m);
}

// The host copy of a released image's last map serves the next image's map in the context:
// the CTS image suites make and map image after image, each map otherwise faulting in fresh
// pages. The reused copy shows the new image's texels.
TEST(ImageTransfer, ANewImageMapsIntoTheHostCopyOfAReleasedOne) {
  Env env;
  ASSERT_NE(env.context, nullptr);
  const size_t w = 64, h = 32, es = 4;
  const size_t o[3] = {0, 0, 0}, r[3] = {w, h, 1};
  auto map = [&](cl_mem m) {
    size_t row = 0;
    cl_int err = 1;
    void* p = clEnqueueMapImage(env.queue, m, CL_TRUE, CL_MAP_READ, o, r, &row, nullptr, 0, nullptr,
                                nullptr, &err);
    EXPECT_EQ(err, CL_SUCCESS);
    return static_cast<uint8_t*>(p);
  };
  std::vector<uint8_t> texels(w * h * es);
  for (size_t i = 0; i < texels.size(); ++i) texels[i] = uint8_t(i * 3 + 7);
  cl_mem first = image2d(env, {CL_RGBA, CL_UNORM_INT8}, w, h);
  uint8_t* p = map(first);
  ASSERT_NE(p, nullptr);
  ASSERT_EQ(clEnqueueUnmapMemObject(env.queue, first, p, 0, nullptr, nullptr), CL_SUCCESS);
  ASSERT_EQ(clFinish(env.queue), CL_SUCCESS);
  clReleaseMemObject(first);
  // Memory of the copy's size, which takes the copy's address if the release freed it.
  std::vector<uint8_t> decoy(w * h * es, 1);
  // A smaller image of another format.
  cl_mem second = image2d(env, {CL_R, CL_FLOAT}, w, h / 2, CL_MEM_COPY_HOST_PTR, texels.data());
  const size_t r2[3] = {w, h / 2, 1};
  size_t row = 0;
  cl_int err = 1;
  auto* q = static_cast<uint8_t*>(clEnqueueMapImage(env.queue, second, CL_TRUE, CL_MAP_READ, o, r2,
                                                    &row, nullptr, 0, nullptr, nullptr, &err));
  ASSERT_EQ(err, CL_SUCCESS);
  EXPECT_EQ(q, p) << "the released image's host copy was not reused";
  EXPECT_EQ(std::memcmp(q, texels.data(), w * h / 2 * 4), 0);
  ASSERT_EQ(clEnqueueUnmapMemObject(env.queue, second, q, 0, nullptr, nullptr), CL_SUCCESS);
  ASSERT_EQ(clFinish(env.queue), CL_SUCCESS);
  clReleaseMemObject(second);
}

namespace {

// Whether the kernel marked the mapping holding `p` for transparent huge pages (MADV_HUGEPAGE
// shows as "hg" among its VmFlags in /proc/self/smaps).
bool advised_huge(const void* p) {
  FILE* f = std::fopen("/proc/self/smaps", "r");
  if (!f) return false;
  const auto at = reinterpret_cast<uintptr_t>(p);
  char line[512];
  bool inside = false, huge = false;
  while (std::fgets(line, sizeof line, f)) {
    unsigned long lo = 0, hi = 0;
    if (std::sscanf(line, "%lx-%lx ", &lo, &hi) == 2) // a mapping's first line
      inside = at >= lo && at < hi;
    else if (inside && std::strncmp(line, "VmFlags:", 8) == 0)
      huge = std::strstr(line, " hg") != nullptr;
  }
  std::fclose(f);
  return huge;
}

bool kernel_has_huge_pages() {
  FILE* f = std::fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
  if (f) std::fclose(f);
  return f != nullptr;
}

} // namespace

// The CTS's image suites map images of hundreds of MiB for reading; the copy engine's first
// touch of a fresh host copy faulted once per 4 KiB page (a third of cl_fill_images 3D's page
// faults). Large map copies are now 2 MiB-aligned and advised as huge pages.
TEST(ImageTransfer, LargeMapCopiesComeInHugePages) {
  if (!kernel_has_huge_pages()) GTEST_SKIP() << "no transparent huge pages in this kernel";
  Env env;
  ASSERT_NE(env.context, nullptr);
  const size_t w = 1024, h = 1024, es = 4, o[3] = {0, 0, 0}, r[3] = {w, h, 1};
  std::vector<uint8_t> texels(w * h * es);
  for (size_t i = 0; i < texels.size(); ++i) texels[i] = uint8_t(i * 7 + i / 4096);
  cl_mem img = image2d(env, {CL_RGBA, CL_UNSIGNED_INT8}, w, h, CL_MEM_COPY_HOST_PTR, texels.data());
  size_t row = 0;
  cl_int err = 1;
  auto* p = static_cast<uint8_t*>(clEnqueueMapImage(env.queue, img, CL_TRUE, CL_MAP_READ, o, r,
                                                    &row, nullptr, 0, nullptr, nullptr, &err));
  ASSERT_EQ(err, CL_SUCCESS);
  ASSERT_EQ(row, w * es);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % (2u << 20), 0u);
  EXPECT_TRUE(advised_huge(p));
  EXPECT_EQ(std::memcmp(p, texels.data(), texels.size()), 0);
  ASSERT_EQ(clEnqueueUnmapMemObject(env.queue, img, p, 0, nullptr, nullptr), CL_SUCCESS);

  cl_mem buf =
      clCreateBuffer(env.context, CL_MEM_COPY_HOST_PTR, texels.size(), texels.data(), &err);
  ASSERT_EQ(err, CL_SUCCESS);
  auto* b = static_cast<uint8_t*>(clEnqueueMapBuffer(env.queue, buf, CL_TRUE, CL_MAP_READ, 0,
                                                     texels.size(), 0, nullptr, nullptr, &err));
  ASSERT_EQ(err, CL_SUCCESS);
  EXPECT_TRUE(advised_huge(b));
  EXPECT_EQ(std::memcmp(b, texels.data(), texels.size()), 0);
  ASSERT_EQ(clEnqueueUnmapMemObject(env.queue, buf, b, 0, nullptr, nullptr), CL_SUCCESS);
  ASSERT_EQ(clFinish(env.queue), CL_SUCCESS);
  clReleaseMemObject(buf);
  clReleaseMemObject(img);
}
