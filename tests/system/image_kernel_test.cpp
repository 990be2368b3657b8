// OpenCL C images in kernels, end to end through the ICD loader (issue 31, kernel half): per
// format a kernel write read back by the host and a host write read by a kernel; sampled reads
// for every filter, addressing mode and coordinate kind against a host reference written from
// OpenCL 3.0 §8 "Image Addressing and Filtering"; program-scope samplers and sampler arguments;
// array layers; image1d_buffer_t past one T# row; get_image_* for every image type; and the
// sampled reads against PoCL when it is installed. Runs on gfx1100, and as gfx1201_... on gfx1201.
// AMCL_IMAGE_TEST_PLATFORM=<name part> runs the same tests on another platform (PoCL), to check
// the host reference itself.
#include "cl_helpers.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace {

using amcl_test::PlatformByName;
using Texel = std::array<double, 4>;

const char* platform_name() {
  const char* p = std::getenv("AMCL_IMAGE_TEST_PLATFORM");
  return p && *p ? p : "amcl";
}

// ---- The host's model of the formats (OpenCL 3.0 §5.3.1.1 "Image Format Descriptor") ----

struct Format {
  cl_channel_order order;
  cl_channel_type type;
};

// The logical component (0 r, 1 g, 2 b, 3 a) memory channel i holds; empty: not modelled.
std::vector<int> memory_layout(cl_channel_order o) {
  switch (o) {
  case CL_R:
  case CL_INTENSITY:
  case CL_LUMINANCE:
    return {0};
  case CL_A:
    return {3};
  case CL_RG:
    return {0, 1};
  case CL_RA:
    return {0, 3};
  case CL_RGBA:
    return {0, 1, 2, 3};
  case CL_BGRA:
    return {2, 1, 0, 3};
  case CL_ARGB:
    return {3, 0, 1, 2};
  case CL_ABGR:
    return {3, 2, 1, 0};
  default:
    return {};
  }
}
bool has_alpha(cl_channel_order o) {
  return o == CL_A || o == CL_RA || o == CL_RGBA || o == CL_BGRA || o == CL_ARGB || o == CL_ABGR ||
         o == CL_INTENSITY;
}
size_t channel_bytes(cl_channel_type t) {
  switch (t) {
  case CL_UNORM_INT8:
  case CL_SNORM_INT8:
  case CL_SIGNED_INT8:
  case CL_UNSIGNED_INT8:
    return 1;
  case CL_UNORM_INT16:
  case CL_SNORM_INT16:
  case CL_SIGNED_INT16:
  case CL_UNSIGNED_INT16:
  case CL_HALF_FLOAT:
    return 2;
  case CL_SIGNED_INT32:
  case CL_UNSIGNED_INT32:
  case CL_FLOAT:
    return 4;
  default:
    return 0;
  }
}
bool modelled(Format f) {
  return !memory_layout(f.order).empty() && channel_bytes(f.type) != 0;
}
size_t texel_bytes(Format f) {
  return memory_layout(f.order).size() * channel_bytes(f.type);
}
enum class Kind { Float, Int, Uint };
Kind kind(cl_channel_type t) {
  switch (t) {
  case CL_SIGNED_INT8:
  case CL_SIGNED_INT16:
  case CL_SIGNED_INT32:
    return Kind::Int;
  case CL_UNSIGNED_INT8:
  case CL_UNSIGNED_INT16:
  case CL_UNSIGNED_INT32:
    return Kind::Uint;
  default:
    return Kind::Float;
  }
}
const char* suffix(Kind k) {
  return k == Kind::Float ? "f" : k == Kind::Int ? "i" : "ui";
}
const char* vector4(Kind k) {
  return k == Kind::Float ? "float4" : k == Kind::Int ? "int4" : "uint4";
}

double half_to_double(uint16_t h) {
  const int e = (h >> 10) & 31, m = h & 1023;
  const double v = e == 0 ? std::ldexp(m, -24) : e == 31 ? INFINITY : std::ldexp(1024 + m, e - 25);
  return h & 0x8000 ? -v : v;
}
// Values used are exact halves; rint rounds to the nearest even like v_cvt_f16_f32.
uint16_t double_to_half(double v) {
  uint16_t sign = std::signbit(v) ? 0x8000 : 0;
  v = std::fabs(v);
  if (v == 0) return sign;
  int e = 0;
  const double m = std::frexp(v, &e); // v = m * 2^e, m in [0.5, 1)
  if (e - 1 < -14) return uint16_t(sign | uint16_t(std::rint(std::ldexp(v, 24))));
  return uint16_t(sign | uint16_t((e - 1 + 15) << 10) | uint16_t(std::rint((m * 2 - 1) * 1024)));
}

double decode_channel(cl_channel_type t, const uint8_t* p) {
  int8_t s8;
  int16_t s16;
  int32_t s32;
  uint16_t u16;
  uint32_t u32;
  float f;
  switch (t) {
  case CL_UNORM_INT8:
    return p[0] / 255.0;
  case CL_UNSIGNED_INT8:
    return p[0];
  case CL_SNORM_INT8:
    std::memcpy(&s8, p, 1);
    return std::max(-1.0, s8 / 127.0);
  case CL_SIGNED_INT8:
    std::memcpy(&s8, p, 1);
    return s8;
  case CL_UNORM_INT16:
    std::memcpy(&u16, p, 2);
    return u16 / 65535.0;
  case CL_UNSIGNED_INT16:
    std::memcpy(&u16, p, 2);
    return u16;
  case CL_SNORM_INT16:
    std::memcpy(&s16, p, 2);
    return std::max(-1.0, s16 / 32767.0);
  case CL_SIGNED_INT16:
    std::memcpy(&s16, p, 2);
    return s16;
  case CL_HALF_FLOAT:
    std::memcpy(&u16, p, 2);
    return half_to_double(u16);
  case CL_SIGNED_INT32:
    std::memcpy(&s32, p, 4);
    return s32;
  case CL_UNSIGNED_INT32:
    std::memcpy(&u32, p, 4);
    return u32;
  case CL_FLOAT:
    std::memcpy(&f, p, 4);
    return f;
  }
  return 0;
}
// Values given are exactly representable (k / 255 and so on), so rounding is to the nearest.
void encode_channel(cl_channel_type t, double v, uint8_t* p) {
  auto put = [&](auto x) { std::memcpy(p, &x, sizeof x); };
  switch (t) {
  case CL_UNORM_INT8:
    return put(uint8_t(std::lround(v * 255)));
  case CL_UNSIGNED_INT8:
    return put(uint8_t(v));
  case CL_SNORM_INT8:
    return put(int8_t(std::lround(v * 127)));
  case CL_SIGNED_INT8:
    return put(int8_t(v));
  case CL_UNORM_INT16:
    return put(uint16_t(std::lround(v * 65535)));
  case CL_UNSIGNED_INT16:
    return put(uint16_t(v));
  case CL_SNORM_INT16:
    return put(int16_t(std::lround(v * 32767)));
  case CL_SIGNED_INT16:
    return put(int16_t(v));
  case CL_HALF_FLOAT:
    return put(double_to_half(v));
  case CL_SIGNED_INT32:
    return put(int32_t(v));
  case CL_UNSIGNED_INT32:
    return put(uint32_t(v));
  case CL_FLOAT:
    return put(float(v));
  }
}
// A random value the channel type holds exactly.
double random_channel(cl_channel_type t, std::mt19937& rng) {
  auto in = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  switch (t) {
  case CL_UNORM_INT8:
    return in(0, 255) / 255.0;
  case CL_UNSIGNED_INT8:
    return in(0, 255);
  case CL_SNORM_INT8:
    return in(-127, 127) / 127.0;
  case CL_SIGNED_INT8:
    return in(-128, 127);
  case CL_UNORM_INT16:
    return in(0, 65535) / 65535.0;
  case CL_UNSIGNED_INT16:
    return in(0, 65535);
  case CL_SNORM_INT16:
    return in(-32767, 32767) / 32767.0;
  case CL_SIGNED_INT16:
    return in(-32768, 32767);
  case CL_HALF_FLOAT:
    return in(-1024, 1024) / 64.0; // |v| < 16: 1/64 steps are exact (10 mantissa bits)
  case CL_SIGNED_INT32:
    return in(-2000000000, 2000000000);
  case CL_UNSIGNED_INT32:
    return double(uint32_t(in(0, 2000000000)) * 2u);
  case CL_FLOAT:
    return float(in(-1000000, 1000000) / 1024.0);
  }
  return 0;
}

// What a read returns for the texel at `p` (§8.3: missing components read 0, alpha 1).
Texel read_texel(Format f, const uint8_t* p) {
  Texel t = {0, 0, 0, 1};
  const std::vector<int> layout = memory_layout(f.order);
  const size_t cb = channel_bytes(f.type);
  for (size_t i = 0; i < layout.size(); ++i)
    t[size_t(layout[i])] = decode_channel(f.type, p + i * cb);
  if (f.order == CL_INTENSITY) t = {t[0], t[0], t[0], t[0]};
  if (f.order == CL_LUMINANCE) t = {t[0], t[0], t[0], 1.0};
  return t;
}
void write_texel(Format f, const Texel& v, uint8_t* p) {
  const std::vector<int> layout = memory_layout(f.order);
  const size_t cb = channel_bytes(f.type);
  for (size_t i = 0; i < layout.size(); ++i)
    encode_channel(f.type, v[size_t(layout[i])], p + i * cb);
}
Texel border(Format f) {
  return {0, 0, 0, has_alpha(f.order) ? 0.0 : 1.0};
}

std::string format_name(Format f) {
  return "order 0x" +
         [](unsigned v) {
           char b[16];
           std::snprintf(b, sizeof b, "%x", v);
           return std::string(b);
         }(f.order) +
         " type 0x" + [](unsigned v) {
           char b[16];
           std::snprintf(b, sizeof b, "%x", v);
           return std::string(b);
         }(f.type);
}

// ---- The device side ----

struct Device : PlatformByName {
  Device() : PlatformByName(platform_name()) {}
  explicit Device(const char* name) : PlatformByName(name) {}
  ~Device() {
    for (auto& [src, p] : programs) clReleaseProgram(p);
  }
  // Programs by source, built once (the sampler runs share a few sources).
  std::map<std::string, cl_program> programs;
  cl_program program(const std::string& src) {
    if (auto it = programs.find(src); it != programs.end()) return it->second;
    cl_program p = build(src);
    if (p) programs.emplace(src, p);
    return p;
  }
  cl_program build(const std::string& src, const char* options = "-cl-std=CL3.0") {
    const char* p = src.c_str();
    cl_int err;
    cl_program prog = clCreateProgramWithSource(context, 1, &p, nullptr, &err);
    if (clBuildProgram(prog, 1, &device, options, nullptr, nullptr) != CL_SUCCESS) {
      std::vector<char> log(1 << 16);
      clGetProgramBuildInfo(prog, device, CL_PROGRAM_BUILD_LOG, log.size(), log.data(), nullptr);
      ADD_FAILURE() << "build failed: " << log.data() << "\n" << src;
      clReleaseProgram(prog);
      return nullptr;
    }
    return prog;
  }
  std::vector<Format> formats(cl_mem_object_type type, cl_mem_flags flags) {
    cl_uint n = 0;
    clGetSupportedImageFormats(context, flags, type, 0, nullptr, &n);
    std::vector<cl_image_format> f(n);
    clGetSupportedImageFormats(context, flags, type, n, f.data(), nullptr);
    std::vector<Format> out;
    for (auto& x : f) out.push_back({x.image_channel_order, x.image_channel_data_type});
    return out;
  }
  cl_mem image(cl_mem_object_type type, Format f, size_t w, size_t h = 1, size_t d = 1,
               size_t layers = 0, cl_mem buffer = nullptr, cl_mem_flags flags = CL_MEM_READ_WRITE) {
    cl_image_format fmt = {f.order, f.type};
    // Type, sizes, pitches (0: the tight ones), mip levels and samples (0), the buffer.
    cl_image_desc desc = {type, w, h, d, layers, 0, 0, 0, 0, {buffer}};
    cl_int err;
    cl_mem m = clCreateImage(context, flags, &fmt, &desc, nullptr, &err);
    EXPECT_EQ(err, CL_SUCCESS) << format_name(f);
    return m;
  }
  void write(cl_mem img, const std::vector<uint8_t>& bytes, size_t w, size_t h = 1, size_t d = 1) {
    const size_t origin[3] = {0, 0, 0}, region[3] = {w, h, d};
    EXPECT_EQ(clEnqueueWriteImage(queue, img, CL_TRUE, origin, region, 0, 0, bytes.data(), 0,
                                  nullptr, nullptr),
              CL_SUCCESS);
  }
  void read(cl_mem img, std::vector<uint8_t>& bytes, size_t w, size_t h = 1, size_t d = 1) {
    const size_t origin[3] = {0, 0, 0}, region[3] = {w, h, d};
    EXPECT_EQ(clEnqueueReadImage(queue, img, CL_TRUE, origin, region, 0, 0, bytes.data(), 0,
                                 nullptr, nullptr),
              CL_SUCCESS);
  }
  cl_mem buffer(size_t bytes, const void* init = nullptr) {
    return amcl_test::make_buffer(context, bytes, init);
  }
  // Runs `kernel` of `prog` over `global` with `args` (each a cl_mem or a sampler, by value).
  void run(cl_program prog, const char* kernel, std::vector<std::pair<size_t, const void*>> args,
           std::array<size_t, 3> global, cl_uint dims = 2) {
    cl_int err;
    cl_kernel k = clCreateKernel(prog, kernel, &err);
    ASSERT_EQ(err, CL_SUCCESS) << kernel;
    for (cl_uint i = 0; i < args.size(); ++i)
      ASSERT_EQ(clSetKernelArg(k, i, args[i].first, args[i].second), CL_SUCCESS) << kernel << i;
    ASSERT_EQ(clEnqueueNDRangeKernel(queue, k, dims, nullptr, global.data(), nullptr, 0, nullptr,
                                     nullptr),
              CL_SUCCESS);
    ASSERT_EQ(clFinish(queue), CL_SUCCESS);
    clReleaseKernel(k);
  }
};

bool near_enough(double got, double want, double tol) {
  if (std::isnan(want)) return std::isnan(got);
  return std::fabs(got - want) <= tol * std::max(1.0, std::fabs(want));
}

class Images : public ::testing::Test {
protected:
  Device dev;
  void SetUp() override {
    if (!dev.device) GTEST_SKIP() << platform_name() << " is not installed";
    cl_bool images = CL_FALSE;
    clGetDeviceInfo(dev.device, CL_DEVICE_IMAGE_SUPPORT, sizeof images, &images, nullptr);
    ASSERT_TRUE(images);
  }
};

// ---- Formats: a kernel write read back by the host, a host write read by a kernel ----

TEST_F(Images, EveryFormatWrittenByAKernelReadsBackOnTheHost) {
  constexpr size_t W = 13, H = 7;
  size_t tested = 0;
  for (Format f : dev.formats(CL_MEM_OBJECT_IMAGE2D, CL_MEM_WRITE_ONLY)) {
    if (!modelled(f) || f.order == CL_INTENSITY || f.order == CL_LUMINANCE) continue;
    SCOPED_TRACE(format_name(f));
    const Kind k = kind(f.type);
    const std::string src = std::string("kernel void w(write_only image2d_t img, global const ") +
                            vector4(k) + "* v) { int x = get_global_id(0), y = get_global_id(1);" +
                            " write_image" + suffix(k) + "(img, (int2)(x, y), v[y * " +
                            std::to_string(W) + " + x]); }";
    cl_program p = dev.build(src);
    ASSERT_TRUE(p);
    std::mt19937 rng(uint32_t(f.order * 131 + f.type));
    std::vector<uint8_t> values(W * H * 16), want(W * H * texel_bytes(f)), got(want.size());
    for (size_t i = 0; i < W * H; ++i) {
      Texel t;
      for (auto& c : t) c = random_channel(f.type, rng);
      for (int c = 0; c < 4; ++c) {
        if (k == Kind::Float) {
          const float v = float(t[size_t(c)]);
          std::memcpy(&values[i * 16 + size_t(c) * 4], &v, 4);
        } else {
          const int32_t v =
              k == Kind::Int ? int32_t(t[size_t(c)]) : int32_t(uint32_t(t[size_t(c)]));
          std::memcpy(&values[i * 16 + size_t(c) * 4], &v, 4);
        }
      }
      write_texel(f, t, &want[i * texel_bytes(f)]);
    }
    cl_mem img = dev.image(CL_MEM_OBJECT_IMAGE2D, f, W, H, 1, 0, nullptr, CL_MEM_WRITE_ONLY);
    cl_mem v = dev.buffer(values.size(), values.data());
    dev.run(p, "w", {{sizeof img, &img}, {sizeof v, &v}}, {W, H, 1});
    dev.read(img, got, W, H);
    EXPECT_EQ(got, want);
    clReleaseMemObject(v);
    clReleaseMemObject(img);
    clReleaseProgram(p);
    ++tested;
  }
  EXPECT_GE(tested, 10u);
}

TEST_F(Images, EveryFormatWrittenByTheHostReadsInAKernel) {
  constexpr size_t W = 11, H = 5;
  size_t tested = 0;
  for (Format f : dev.formats(CL_MEM_OBJECT_IMAGE2D, CL_MEM_READ_ONLY)) {
    if (!modelled(f)) continue;
    SCOPED_TRACE(format_name(f));
    const Kind k = kind(f.type);
    const std::string src =
        std::string("kernel void r(read_only image2d_t img, global ") + vector4(k) +
        "* out) { int x = get_global_id(0), y = get_global_id(1);" + " out[y * " +
        std::to_string(W) + " + x] = read_image" + suffix(k) + "(img, (int2)(x, y)); }";
    cl_program p = dev.build(src);
    ASSERT_TRUE(p);
    std::mt19937 rng(uint32_t(f.order * 7 + f.type));
    std::vector<uint8_t> texels(W * H * texel_bytes(f)), out(W * H * 16);
    std::vector<Texel> want(W * H);
    for (size_t i = 0; i < W * H; ++i) {
      Texel t;
      for (auto& c : t) c = random_channel(f.type, rng);
      write_texel(f, t, &texels[i * texel_bytes(f)]);
      want[i] = read_texel(f, &texels[i * texel_bytes(f)]);
    }
    cl_mem img = dev.image(CL_MEM_OBJECT_IMAGE2D, f, W, H, 1, 0, nullptr, CL_MEM_READ_ONLY);
    dev.write(img, texels, W, H);
    cl_mem o = dev.buffer(out.size());
    dev.run(p, "r", {{sizeof img, &img}, {sizeof o, &o}}, {W, H, 1});
    clEnqueueReadBuffer(dev.queue, o, CL_TRUE, 0, out.size(), out.data(), 0, nullptr, nullptr);
    size_t bad = 0;
    for (size_t i = 0; i < W * H && bad < 5; ++i)
      for (size_t c = 0; c < 4; ++c) {
        double g;
        if (k == Kind::Float) {
          float v;
          std::memcpy(&v, &out[i * 16 + c * 4], 4);
          g = v;
        } else if (k == Kind::Int) {
          int32_t v;
          std::memcpy(&v, &out[i * 16 + c * 4], 4);
          g = v;
        } else {
          uint32_t v;
          std::memcpy(&v, &out[i * 16 + c * 4], 4);
          g = v;
        }
        // unorm/snorm to float: OpenCL 3.0 §8.3.1.1 allows 1.5 ulp.
        const double tol = k == Kind::Float ? 2e-7 : 0;
        if (!near_enough(g, want[i][c], tol))
          ADD_FAILURE() << "texel " << i << " component " << c << ": " << g << ", want "
                        << want[i][c] << (++bad, "");
      }
    clReleaseMemObject(o);
    clReleaseMemObject(img);
    clReleaseProgram(p);
    ++tested;
  }
  EXPECT_GE(tested, 10u);
}

// read_imageh / write_imageh convert through float (cl_khr_fp16).
TEST_F(Images, HalfReadsAndWritesConvertThroughFloat) {
  if (amcl_test::device_string(dev.device, CL_DEVICE_EXTENSIONS).find("cl_khr_fp16") ==
      std::string::npos)
    GTEST_SKIP() << "no cl_khr_fp16";
  const Format f = {CL_RGBA, CL_HALF_FLOAT};
  cl_program p = dev.build(R"(
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
kernel void h(read_only image2d_t in, write_only image2d_t out) {
  int2 c = (int2)(get_global_id(0), get_global_id(1));
  write_imageh(out, c, read_imageh(in, c) * (half)2);
})");
  ASSERT_TRUE(p);
  std::mt19937 rng(5);
  std::vector<uint8_t> in(4 * 3 * 8), want(in.size()), got(in.size());
  for (size_t i = 0; i < 12; ++i) {
    Texel t;
    for (auto& c : t) c = random_channel(f.type, rng) / 4;
    write_texel(f, t, &in[i * 8]);
    for (auto& c : t) c *= 2;
    write_texel(f, t, &want[i * 8]);
  }
  cl_mem a = dev.image(CL_MEM_OBJECT_IMAGE2D, f, 4, 3),
         b = dev.image(CL_MEM_OBJECT_IMAGE2D, f, 4, 3);
  dev.write(a, in, 4, 3);
  dev.run(p, "h", {{sizeof a, &a}, {sizeof b, &b}}, {4, 3, 1});
  dev.read(b, got, 4, 3);
  EXPECT_EQ(got, want);
  clReleaseMemObject(a);
  clReleaseMemObject(b);
  clReleaseProgram(p);
}

// ---- Every image type: a kernel write the host reads back, a host write a kernel reads ----

struct TypeCase {
  const char* name; // OpenCL C type
  cl_mem_object_type type;
  size_t w, h, d, layers;
  const char* coord; // int coordinate expression from x, y, z
};
const TypeCase kTypes[] = {
    {"image1d_t", CL_MEM_OBJECT_IMAGE1D, 37, 1, 1, 0, "x"},
    {"image1d_array_t", CL_MEM_OBJECT_IMAGE1D_ARRAY, 9, 1, 1, 3, "(int2)(x, y)"},
    {"image2d_t", CL_MEM_OBJECT_IMAGE2D, 10, 6, 1, 0, "(int2)(x, y)"},
    {"image2d_array_t", CL_MEM_OBJECT_IMAGE2D_ARRAY, 5, 4, 1, 3, "(int4)(x, y, z, 0)"},
    {"image3d_t", CL_MEM_OBJECT_IMAGE3D, 4, 3, 5, 0, "(int4)(x, y, z, 0)"},
};
// The host's region for a type: arrays put their layers in the next dimension.
std::array<size_t, 3> region(const TypeCase& t) {
  if (t.type == CL_MEM_OBJECT_IMAGE1D_ARRAY) return {t.w, t.layers, 1};
  if (t.type == CL_MEM_OBJECT_IMAGE2D_ARRAY) return {t.w, t.h, t.layers};
  return {t.w, t.h, t.d};
}

TEST_F(Images, EveryImageTypeRoundTripsThroughKernels) {
  const Format f = {CL_RGBA, CL_FLOAT};
  for (const TypeCase& t : kTypes) {
    SCOPED_TRACE(t.name);
    const auto r = region(t);
    const size_t n = r[0] * r[1] * r[2];
    const std::string idx =
        "((z * " + std::to_string(r[1]) + " + y) * " + std::to_string(r[0]) + " + x)";
    const std::string src =
        std::string("kernel void w(write_only ") + t.name +
        " img) { int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);"
        " write_imagef(img, " +
        t.coord + ", (float4)(x, y, z, " + idx +
        ")); }\n"
        "kernel void r(read_only " +
        t.name +
        " img, global float4* out) {"
        " int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);"
        " out[" +
        idx + "] = read_imagef(img, " + t.coord + "); }";
    cl_program p = dev.build(src);
    ASSERT_TRUE(p);
    cl_mem img = dev.image(t.type, f, t.w, t.h, t.d, t.layers);
    dev.run(p, "w", {{sizeof img, &img}}, r, 3);
    std::vector<uint8_t> got(n * 16);
    dev.read(img, got, r[0], r[1], r[2]);
    for (size_t i = 0; i < n; ++i) {
      float v[4];
      std::memcpy(v, &got[i * 16], 16);
      const size_t x = i % r[0], y = i / r[0] % r[1], z = i / r[0] / r[1];
      ASSERT_EQ(v[0], float(x)) << i;
      ASSERT_EQ(v[1], float(y)) << i;
      ASSERT_EQ(v[2], float(z)) << i;
      ASSERT_EQ(v[3], float(i)) << i;
    }
    // Host write, kernel read: the texels the host put, in the host's order.
    std::vector<uint8_t> in(n * 16), out(n * 16);
    for (size_t i = 0; i < n * 4; ++i) {
      const float v = float(i) * 0.25f - 3;
      std::memcpy(&in[i * 4], &v, 4);
    }
    dev.write(img, in, r[0], r[1], r[2]);
    cl_mem o = dev.buffer(out.size());
    dev.run(p, "r", {{sizeof img, &img}, {sizeof o, &o}}, r, 3);
    clEnqueueReadBuffer(dev.queue, o, CL_TRUE, 0, out.size(), out.data(), 0, nullptr, nullptr);
    EXPECT_EQ(out, in);
    clReleaseMemObject(o);
    clReleaseMemObject(img);
    clReleaseProgram(p);
  }
}

// write_imagei/ui saturate to the channel type (OpenCL C 3.0 §8.3.2), found by the CTS's
// kernel_read_write: the stored bits are not the low bits of the value.
TEST_F(Images, IntegerWritesSaturateToTheChannelType) {
  cl_program p = dev.build(R"(
kernel void w(write_only image1d_t s8, write_only image1d_t u16) {
  write_imagei(s8, 0, (int4)(-1000, 1000, -128, 127));
  write_imageui(u16, 0, (uint4)(70000, 0xFFFFFFFFu, 65535, 3));
})");
  ASSERT_TRUE(p);
  cl_mem s8 = dev.image(CL_MEM_OBJECT_IMAGE1D, {CL_RGBA, CL_SIGNED_INT8}, 1);
  cl_mem u16 = dev.image(CL_MEM_OBJECT_IMAGE1D, {CL_RGBA, CL_UNSIGNED_INT16}, 1);
  dev.run(p, "w", {{sizeof s8, &s8}, {sizeof u16, &u16}}, {1, 1, 1}, 1);
  std::vector<uint8_t> a(4), b(8);
  dev.read(s8, a, 1);
  dev.read(u16, b, 1);
  EXPECT_EQ(a, (std::vector<uint8_t>{0x80, 0x7F, 0x80, 0x7F}));
  uint16_t u[4];
  std::memcpy(u, b.data(), 8);
  EXPECT_EQ(u[0], 65535);
  EXPECT_EQ(u[1], 65535);
  EXPECT_EQ(u[2], 65535);
  EXPECT_EQ(u[3], 3);
  clReleaseMemObject(s8);
  clReleaseMemObject(u16);
  clReleaseProgram(p);
}

// OpenCL 3.0 §8.3.1.1: write_imagef stores convert_uchar_sat_rte(f * 255.0f) (and the 16-bit
// and signed forms), the product in float: 16/96.0f * 255 is 42.5f, stored as 42, though the
// exact product (42.500002) is nearer 43. The CTS's reference (NORMALIZE) and PoCL round the
// float product; ffmpeg's openclsrc ramps differed from PoCL's by one at such values. A fill
// colour converts the same way.
TEST_F(Images, NormalizedWritesRoundTheFloatProduct) {
  cl_program p = dev.build(R"(
kernel void w(write_only image1d_t img, global const float* v) {
  int i = get_global_id(0);
  write_imagef(img, i, (float4)(v[i], 0.0f, 0.0f, 1.0f));
})");
  ASSERT_TRUE(p);
  struct Case {
    cl_channel_type type;
    float scale;
    bool is_signed;
  };
  for (const Case c : {Case{CL_UNORM_INT8, 255, false}, Case{CL_SNORM_INT8, 127, true},
                       Case{CL_UNORM_INT16, 65535, false}, Case{CL_SNORM_INT16, 32767, true}}) {
    std::vector<float> v;
    for (int x = 0; x <= 96; ++x) v.push_back(x / 96.0f), v.push_back(-x / 96.0f);
    for (int k = 0; k<int(c.scale); k += c.scale> 255 ? 97 : 1) {
      const float tie = float((k + 0.5) / c.scale);
      for (const float f : {tie, std::nextafter(tie, 0.0f), std::nextafter(tie, 2.0f)})
        v.push_back(f), v.push_back(-f);
    }
    const size_t bytes = c.scale > 255 ? 2 : 1;
    // The float product's rounding, and how many values the exact product would round apart.
    std::vector<int32_t> want;
    int apart = 0;
    for (const float f : v) {
      const float x = std::clamp(f, c.is_signed ? -1.0f : 0.0f, 1.0f);
      const float product = x * c.scale;
      want.push_back(int32_t(std::nearbyint(product)));
      apart += std::nearbyint(double(x) * c.scale) != want.back();
    }
    ASSERT_GT(apart, 0) << "no value tells the two roundings apart";
    cl_mem img = dev.image(CL_MEM_OBJECT_IMAGE1D, {CL_R, c.type}, v.size());
    cl_mem vb = dev.buffer(v.size() * sizeof(float), v.data());
    dev.run(p, "w", {{sizeof img, &img}, {sizeof vb, &vb}}, {v.size(), 1, 1}, 1);
    std::vector<uint8_t> got(v.size() * bytes);
    dev.read(img, got, v.size());
    for (size_t i = 0; i < v.size(); ++i) {
      int32_t g = 0;
      if (bytes == 1)
        g = c.is_signed ? int8_t(got[i]) : got[i];
      else {
        uint16_t u;
        std::memcpy(&u, &got[2 * i], 2);
        g = c.is_signed ? int16_t(u) : u;
      }
      EXPECT_EQ(g, want[i]) << std::hexfloat << v[i] << " type " << c.type;
    }
    // The fill colour: 16/96.0f in every channel of one texel.
    const float colour[4] = {16 / 96.0f, 16 / 96.0f, 16 / 96.0f, 16 / 96.0f};
    const size_t origin[3] = {0, 0, 0}, region[3] = {1, 1, 1};
    ASSERT_EQ(clEnqueueFillImage(dev.queue, img, colour, origin, region, 0, nullptr, nullptr),
              CL_SUCCESS);
    std::vector<uint8_t> one(bytes);
    dev.read(img, one, 1);
    uint16_t filled = one[0];
    if (bytes == 2) std::memcpy(&filled, one.data(), 2);
    EXPECT_EQ(filled, uint16_t(std::nearbyint(16 / 96.0f * c.scale))) << "fill, type " << c.type;
    clReleaseMemObject(vb);
    clReleaseMemObject(img);
  }
  clReleaseProgram(p);
}

// Writes outside the image are dropped, and a sampler-less read outside it returns zeros or the
// format's defaults (CLK_ADDRESS_NONE: undefined, but never a fault).
TEST_F(Images, OutOfRangeWritesAreDropped) {
  const Format f = {CL_R, CL_UNSIGNED_INT32};
  cl_program p = dev.build(R"(
kernel void w(write_only image2d_t img) {
  int x = get_global_id(0) - 2, y = get_global_id(1) - 2;
  write_imageui(img, (int2)(x, y), (uint4)(1000 + y * 100 + x, 0, 0, 0));
})");
  ASSERT_TRUE(p);
  cl_mem img = dev.image(CL_MEM_OBJECT_IMAGE2D, f, 6, 4);
  std::vector<uint8_t> zero(6 * 4 * 4, 0), got(zero.size());
  dev.write(img, zero, 6, 4);
  dev.run(p, "w", {{sizeof img, &img}}, {10, 8, 1});
  dev.read(img, got, 6, 4);
  for (uint32_t y = 0; y < 4; ++y)
    for (uint32_t x = 0; x < 6; ++x) {
      uint32_t v;
      std::memcpy(&v, &got[(y * 6 + x) * 4], 4);
      EXPECT_EQ(v, 1000 + y * 100 + x) << x << "," << y;
    }
  clReleaseMemObject(img);
  clReleaseProgram(p);
}

// image1d_buffer_t: every element of a buffer longer than one T# row (image_abi.h's 16384),
// written and read in kernels; writes past the width are dropped, the buffer beyond untouched.
TEST_F(Images, BufferImagesPastOneRow) {
  const size_t width = 20000, slack = 600;
  size_t max_buffer = 0;
  clGetDeviceInfo(dev.device, CL_DEVICE_IMAGE_MAX_BUFFER_SIZE, sizeof max_buffer, &max_buffer,
                  nullptr);
  if (max_buffer < width) GTEST_SKIP() << "CL_DEVICE_IMAGE_MAX_BUFFER_SIZE " << max_buffer;
  const Format f = {CL_RGBA, CL_UNSIGNED_INT8};
  std::vector<uint8_t> init((width + slack) * 4, 0xEE);
  cl_mem buf = dev.buffer(init.size(), init.data());
  cl_mem img = dev.image(CL_MEM_OBJECT_IMAGE1D_BUFFER, f, width, 1, 1, 0, buf);
  ASSERT_TRUE(img);
  cl_program p = dev.build(R"(
kernel void w(write_only image1d_buffer_t img) {
  int x = get_global_id(0);
  write_imageui(img, x, (uint4)(x & 255, (x >> 8) & 255, x % 251, 7));
}
kernel void r(read_only image1d_buffer_t img, global uint4* out) {
  int x = get_global_id(0);
  out[x] = read_imageui(img, x);
})");
  ASSERT_TRUE(p);
  dev.run(p, "w", {{sizeof img, &img}}, {width + slack, 1, 1}, 1);
  std::vector<uint8_t> got(init.size());
  clEnqueueReadBuffer(dev.queue, buf, CL_TRUE, 0, got.size(), got.data(), 0, nullptr, nullptr);
  for (size_t x = 0; x < width + slack; ++x) {
    const uint8_t* t = &got[x * 4];
    if (x < width) {
      ASSERT_EQ(t[0], x & 255) << x;
      ASSERT_EQ(t[1], (x >> 8) & 255) << x;
      ASSERT_EQ(t[2], x % 251) << x;
      ASSERT_EQ(t[3], 7) << x;
    } else {
      ASSERT_EQ(t[0] & t[1] & t[2] & t[3], 0xEE) << "write past the width landed at " << x;
    }
  }
  std::vector<uint32_t> out(width * 4);
  cl_mem o = dev.buffer(out.size() * 4);
  dev.run(p, "r", {{sizeof img, &img}, {sizeof o, &o}}, {width, 1, 1}, 1);
  clEnqueueReadBuffer(dev.queue, o, CL_TRUE, 0, out.size() * 4, out.data(), 0, nullptr, nullptr);
  for (size_t x = 0; x < width; ++x) {
    ASSERT_EQ(out[x * 4 + 0], x & 255) << x;
    ASSERT_EQ(out[x * 4 + 1], (x >> 8) & 255) << x;
    ASSERT_EQ(out[x * 4 + 2], x % 251) << x;
    ASSERT_EQ(out[x * 4 + 3], 7u) << x;
  }
  clReleaseMemObject(o);
  clReleaseMemObject(img);
  clReleaseMemObject(buf);
  clReleaseProgram(p);
}

// ---- get_image_* for every image type and access qualifier ----

TEST_F(Images, QueriesReportEveryImageType) {
  const Format f = {CL_RGBA, CL_UNORM_INT16};
  struct Q {
    const char* type;
    cl_mem_object_type ctype;
    size_t w, h, d, layers;
    const char* extra; // the type's own queries into q[3..]
    std::vector<int> want_extra;
  };
  const Q cases[] = {
      {"image1d_t", CL_MEM_OBJECT_IMAGE1D, 17, 1, 1, 0, "", {}},
      {"image1d_buffer_t", CL_MEM_OBJECT_IMAGE1D_BUFFER, 33, 1, 1, 0, "", {}},
      {"image1d_array_t",
       CL_MEM_OBJECT_IMAGE1D_ARRAY,
       9,
       1,
       1,
       3,
       "q[3] = (int)get_image_array_size(i);",
       {3}},
      {"image2d_t",
       CL_MEM_OBJECT_IMAGE2D,
       11,
       6,
       1,
       0,
       "q[3] = get_image_height(i); q[4] = get_image_dim(i).x; q[5] = get_image_dim(i).y;",
       {6, 11, 6}},
      {"image2d_array_t",
       CL_MEM_OBJECT_IMAGE2D_ARRAY,
       5,
       4,
       1,
       7,
       "q[3] = get_image_height(i); q[4] = (int)get_image_array_size(i); q[5] = "
       "get_image_dim(i).y;",
       {4, 7, 4}},
      {"image3d_t",
       CL_MEM_OBJECT_IMAGE3D,
       4,
       3,
       2,
       0,
       "q[3] = get_image_height(i); q[4] = get_image_depth(i); int4 d = get_image_dim(i);"
       " q[5] = d.x; q[6] = d.y; q[7] = d.z; q[8] = d.w;",
       {3, 2, 4, 3, 2, 0}},
  };
  for (const Q& c : cases) {
    for (const char* access : {"read_only", "write_only", "read_write"}) {
      SCOPED_TRACE(std::string(access) + " " + c.type);
      const std::string src = std::string("kernel void k(") + access + " " + c.type +
                              " i, global int* q) { q[0] = get_image_width(i);"
                              " q[1] = get_image_channel_order(i);"
                              " q[2] = get_image_channel_data_type(i); " +
                              c.extra + " }";
      cl_program p = dev.build(src);
      ASSERT_TRUE(p);
      cl_mem buf = nullptr;
      if (c.ctype == CL_MEM_OBJECT_IMAGE1D_BUFFER) buf = dev.buffer(c.w * 8);
      cl_mem img = dev.image(c.ctype, f, c.w, c.h, c.d, c.layers, buf);
      std::vector<int> q(16, -1);
      cl_mem o = dev.buffer(q.size() * 4, q.data());
      dev.run(p, "k", {{sizeof img, &img}, {sizeof o, &o}}, {1, 1, 1}, 1);
      clEnqueueReadBuffer(dev.queue, o, CL_TRUE, 0, q.size() * 4, q.data(), 0, nullptr, nullptr);
      EXPECT_EQ(q[0], int(c.w));
      EXPECT_EQ(q[1], CL_RGBA);
      EXPECT_EQ(q[2], CL_UNORM_INT16);
      for (size_t i = 0; i < c.want_extra.size(); ++i) EXPECT_EQ(q[3 + i], c.want_extra[i]) << i;
      clReleaseMemObject(o);
      clReleaseMemObject(img);
      if (buf) clReleaseMemObject(buf);
      clReleaseProgram(p);
    }
  }
}

// ---- Sampled reads against the spec's addressing and filtering (OpenCL 3.0 §8.2) ----

struct SamplerCase {
  bool normalized;
  cl_addressing_mode address;
  cl_filter_mode filter;
};
std::string sampler_name(const SamplerCase& s) {
  const char* a = s.address == CL_ADDRESS_NONE            ? "NONE"
                  : s.address == CL_ADDRESS_CLAMP_TO_EDGE ? "CLAMP_TO_EDGE"
                  : s.address == CL_ADDRESS_CLAMP         ? "CLAMP"
                  : s.address == CL_ADDRESS_REPEAT        ? "REPEAT"
                                                          : "MIRRORED_REPEAT";
  return std::string(s.normalized ? "CLK_NORMALIZED_COORDS_TRUE" : "CLK_NORMALIZED_COORDS_FALSE") +
         " | CLK_ADDRESS_" + a + " | CLK_FILTER_" +
         (s.filter == CL_FILTER_LINEAR ? "LINEAR" : "NEAREST");
}
std::vector<SamplerCase> every_sampler() {
  std::vector<SamplerCase> out;
  for (bool n : {false, true})
    for (cl_addressing_mode a : {CL_ADDRESS_NONE, CL_ADDRESS_CLAMP_TO_EDGE, CL_ADDRESS_CLAMP,
                                 CL_ADDRESS_REPEAT, CL_ADDRESS_MIRRORED_REPEAT})
      for (cl_filter_mode f : {CL_FILTER_NEAREST, CL_FILTER_LINEAR})
        if (n || (a != CL_ADDRESS_REPEAT && a != CL_ADDRESS_MIRRORED_REPEAT))
          out.push_back({n, a, f});
  return out;
}

// The taps along one axis for coordinate s over `n` texels: indices (-1: border) and weights.
struct Taps {
  int i[2] = {0, 0};
  double w[2] = {1, 0};
  int count = 1;
};
Taps axis(double s, int n, const SamplerCase& sc) {
  Taps t;
  const bool linear = sc.filter == CL_FILTER_LINEAR;
  if (sc.address == CL_ADDRESS_REPEAT) {
    const double u = (s - std::floor(s)) * n;
    if (!linear) {
      t.i[0] = int(std::floor(u));
      if (t.i[0] > n - 1) t.i[0] -= n;
      return t;
    }
    int i0 = int(std::floor(u - 0.5)), i1 = i0 + 1;
    const double a = (u - 0.5) - std::floor(u - 0.5);
    if (i0 < 0) i0 += n;
    if (i1 > n - 1) i1 -= n;
    t = {{i0, i1}, {1 - a, a}, 2};
    return t;
  }
  if (sc.address == CL_ADDRESS_MIRRORED_REPEAT) {
    double sp = 2.0 * std::rint(0.5 * s);
    sp = std::fabs(s - sp);
    const double u = sp * n;
    if (!linear) {
      t.i[0] = std::min(int(std::floor(u)), n - 1);
      return t;
    }
    const int i0 = std::max(int(std::floor(u - 0.5)), 0),
              i1 = std::min(int(std::floor(u - 0.5)) + 1, n - 1);
    const double a = (u - 0.5) - std::floor(u - 0.5);
    t = {{i0, i1}, {1 - a, a}, 2};
    return t;
  }
  const double u = sc.normalized ? s * n : s;
  auto address = [&](int i) {
    if (sc.address == CL_ADDRESS_CLAMP) return i < 0 || i >= n ? -1 : i;
    return std::clamp(i, 0, n - 1); // CLAMP_TO_EDGE, and NONE inside the image
  };
  if (!linear) {
    t.i[0] = address(int(std::floor(u)));
    return t;
  }
  const int i0 = int(std::floor(u - 0.5));
  const double a = (u - 0.5) - std::floor(u - 0.5);
  t = {{address(i0), address(i0 + 1)}, {1 - a, a}, 2};
  return t;
}

// A 2D image of W x H texels and coordinates to sample it at.
struct SampleSetup {
  static constexpr int W = 7, H = 5;
  Format format;
  std::vector<uint8_t> texels;
  std::vector<float> coords; // x, y pairs
  std::vector<int> icoords;  // x, y pairs, for the integer-coordinate reads
};

// The filtered value, and in `spread` how far the taps differ per component.
Texel reference(const SampleSetup& s, const SamplerCase& sc, double x, double y, Texel& spread) {
  const Taps tx = axis(x, SampleSetup::W, sc), ty = axis(y, SampleSetup::H, sc);
  Texel out = {0, 0, 0, 0}, lo, hi;
  lo.fill(INFINITY);
  hi.fill(-INFINITY);
  for (int j = 0; j < ty.count; ++j)
    for (int i = 0; i < tx.count; ++i) {
      Texel t =
          tx.i[i] < 0 || ty.i[j] < 0
              ? border(s.format)
              : read_texel(
                    s.format,
                    &s.texels[size_t(ty.i[j] * SampleSetup::W + tx.i[i]) * texel_bytes(s.format)]);
      for (size_t c = 0; c < 4; ++c) {
        out[c] += tx.w[i] * ty.w[j] * t[c];
        lo[c] = std::min(lo[c], t[c]);
        hi[c] = std::max(hi[c], t[c]);
      }
    }
  for (size_t c = 0; c < 4; ++c) spread[c] = hi[c] - lo[c];
  return out;
}

// Whether coordinate c on an axis of n texels is far enough from where the spec's answer changes
// (texel edges for nearest, the image's edges for NONE) that rounding cannot decide it.
bool well_inside(double c, int n, const SamplerCase& sc) {
  const double u = sc.normalized ? c * n : c;
  double frac = u - std::floor(u);
  if (sc.address == CL_ADDRESS_REPEAT || sc.address == CL_ADDRESS_MIRRORED_REPEAT) {
    const double m = sc.address == CL_ADDRESS_REPEAT ? (c - std::floor(c)) * n
                                                     : std::fabs(c - 2 * std::rint(0.5 * c)) * n;
    frac = m - std::floor(m);
    if (std::fabs(c - std::rint(c)) < 1e-3) return false;
    if (sc.address == CL_ADDRESS_MIRRORED_REPEAT && std::fabs(c - std::rint(c * 2) / 2) < 1e-3)
      return false;
  }
  if (sc.filter == CL_FILTER_NEAREST && (frac < 1e-3 || frac > 1 - 1e-3)) return false;
  if (sc.filter == CL_FILTER_LINEAR && (std::fabs(frac - 0.5) < 1e-3)) return false;
  if (sc.address == CL_ADDRESS_NONE) {
    const double lo = sc.filter == CL_FILTER_LINEAR ? 0.5 : 0.0;
    if (u < lo + 1e-3 || u > n - lo - 1e-3) return false;
  }
  return true;
}

SampleSetup make_setup(Format f, uint32_t seed) {
  SampleSetup s;
  s.format = f;
  std::mt19937 rng(seed);
  s.texels.resize(size_t(SampleSetup::W * SampleSetup::H) * texel_bytes(f));
  for (int i = 0; i < SampleSetup::W * SampleSetup::H; ++i) {
    Texel t;
    for (auto& c : t) c = random_channel(f.type, rng);
    write_texel(f, t, &s.texels[size_t(i) * texel_bytes(f)]);
  }
  std::uniform_real_distribution<float> u(-2.0f, 3.0f);
  for (int i = 0; i < 96; ++i) s.coords.push_back(u(rng));
  // Some in-range, some outside on each side.
  std::uniform_int_distribution<int> ix(-3, SampleSetup::W + 2), iy(-3, SampleSetup::H + 2);
  for (int i = 0; i < 48; ++i) s.icoords.push_back(ix(rng)), s.icoords.push_back(iy(rng));
  return s;
}

// The coordinate a run uses for setup coordinate c: CLK_ADDRESS_NONE leaves reads outside the
// image undefined, so its runs keep to the image.
float coordinate(const SamplerCase& sc, float c, int n) {
  if (sc.address == CL_ADDRESS_NONE) c -= std::floor(c);
  return sc.normalized ? c : c * float(n);
}
int coordinate(const SamplerCase& sc, int c, int n) {
  return sc.address == CL_ADDRESS_NONE ? ((c % n) + n) % n : c;
}

// Runs the sampled reads of `s` with sampler `sc` (float coordinates, scaled to texels when
// unnormalized, and integer ones when the sampler allows them) on `dev`, with the sampler as a
// kernel argument or as a program-scope constant. Results: float4 per coordinate.
std::vector<float> sample_on(Device& dev, const SampleSetup& s, const SamplerCase& sc,
                             bool program_scope, bool integer_coords) {
  const Kind k = kind(s.format.type);
  const std::string ret = vector4(k);
  const std::string coord =
      integer_coords ? "(int2)(c[2 * i], c[2 * i + 1])" : "(float2)(c[2 * i], c[2 * i + 1])";
  const std::string ctype = integer_coords ? "int" : "float";
  std::string src;
  if (program_scope) src = "constant sampler_t ps = " + sampler_name(sc) + ";\n";
  src += "kernel void s(read_only image2d_t img, global const " + ctype +
         "* c, global float4* out" + (program_scope ? "" : ", sampler_t smp") +
         ") { int i = get_global_id(0);" + " out[i] = convert_float4(read_image" + suffix(k) +
         "(img, " + (program_scope ? "ps" : "smp") + ", " + coord + ")); }";
  cl_program p = dev.program(src);
  if (!p) return {};
  cl_mem img = dev.image(CL_MEM_OBJECT_IMAGE2D, s.format, SampleSetup::W, SampleSetup::H, 1, 0,
                         nullptr, CL_MEM_READ_ONLY);
  dev.write(img, s.texels, SampleSetup::W, SampleSetup::H);
  std::vector<float> fc = s.coords;
  std::vector<int> ic = s.icoords;
  for (size_t i = 0; i < fc.size(); ++i)
    fc[i] = coordinate(sc, fc[i], i % 2 ? SampleSetup::H : SampleSetup::W);
  for (size_t i = 0; i < ic.size(); ++i)
    ic[i] = coordinate(sc, ic[i], i % 2 ? SampleSetup::H : SampleSetup::W);
  const size_t n = integer_coords ? ic.size() / 2 : fc.size() / 2;
  cl_mem c =
      integer_coords ? dev.buffer(ic.size() * 4, ic.data()) : dev.buffer(fc.size() * 4, fc.data());
  std::vector<float> out(n * 4);
  cl_mem o = dev.buffer(out.size() * 4);
  cl_int err;
  const cl_sampler_properties props[] = {CL_SAMPLER_NORMALIZED_COORDS,
                                         sc.normalized,
                                         CL_SAMPLER_ADDRESSING_MODE,
                                         sc.address,
                                         CL_SAMPLER_FILTER_MODE,
                                         sc.filter,
                                         0};
  cl_sampler smp =
      program_scope ? nullptr : clCreateSamplerWithProperties(dev.context, props, &err);
  std::vector<std::pair<size_t, const void*>> args = {
      {sizeof img, &img}, {sizeof c, &c}, {sizeof o, &o}};
  if (!program_scope) args.push_back({sizeof smp, &smp});
  dev.run(p, "s", args, {n, 1, 1}, 1);
  clEnqueueReadBuffer(dev.queue, o, CL_TRUE, 0, out.size() * 4, out.data(), 0, nullptr, nullptr);
  if (smp) clReleaseSampler(smp);
  clReleaseMemObject(o);
  clReleaseMemObject(c);
  clReleaseMemObject(img);
  return out;
}

// The reference for coordinate i of a run, or nothing where the spec leaves it open; `tol`
// gets the absolute tolerance per component.
std::optional<Texel> expected(const SampleSetup& s, const SamplerCase& sc, bool integer_coords,
                              size_t i, Texel& tol) {
  double x, y;
  if (integer_coords) {
    // Integer coordinates name texels (their centres), unnormalized, nearest.
    x = coordinate(sc, s.icoords[2 * i], SampleSetup::W) + 0.5;
    y = coordinate(sc, s.icoords[2 * i + 1], SampleSetup::H) + 0.5;
  } else {
    x = coordinate(sc, s.coords[2 * i], SampleSetup::W);
    y = coordinate(sc, s.coords[2 * i + 1], SampleSetup::H);
    if (!well_inside(x, SampleSetup::W, sc) || !well_inside(y, SampleSetup::H, sc))
      return std::nullopt;
  }
  Texel spread;
  const Texel want = reference(s, sc, x, y, spread);
  // Linear filtering: the hardware's weights have 8 fractional bits (RDNA3 ISA "Texture
  // filtering"), an error of up to 1/512 of the taps' spread per axis; unorm and snorm
  // conversions 1.5 ulp (OpenCL 3.0 §8.3.1.1).
  for (size_t c = 0; c < 4; ++c)
    tol[c] = (sc.filter == CL_FILTER_LINEAR ? spread[c] / 256 : 0) +
             2e-7 * std::max(1.0, std::fabs(want[c]));
  return want;
}

const Format kSampledFormats[] = {{CL_RGBA, CL_FLOAT},        {CL_RGBA, CL_UNORM_INT8},
                                  {CL_BGRA, CL_UNORM_INT8},   {CL_R, CL_UNORM_INT16},
                                  {CL_RGBA, CL_SIGNED_INT16}, {CL_RG, CL_UNSIGNED_INT8}};

bool supported(Device& dev, Format f) {
  for (Format g : dev.formats(CL_MEM_OBJECT_IMAGE2D, CL_MEM_READ_ONLY))
    if (g.order == f.order && g.type == f.type) return true;
  return false;
}

TEST_F(Images, SampledReadsFollowTheSpecForEverySampler) {
  for (Format f : kSampledFormats) {
    if (!supported(dev, f)) continue;
    const SampleSetup s = make_setup(f, f.order + f.type);
    for (const SamplerCase& sc : every_sampler()) {
      // Integer formats are read with nearest filtering only (§8.2).
      if (kind(f.type) != Kind::Float && sc.filter == CL_FILTER_LINEAR) continue;
      for (bool program_scope : {false, true})
        for (bool ints : {false, true}) {
          if (ints && (sc.normalized || sc.filter != CL_FILTER_NEAREST)) continue;
          SCOPED_TRACE(format_name(f) + " " + sampler_name(sc) +
                       (program_scope ? " program-scope" : " argument") +
                       (ints ? " int coords" : " float coords"));
          const std::vector<float> got = sample_on(dev, s, sc, program_scope, ints);
          ASSERT_FALSE(got.empty());
          size_t checked = 0, bad = 0;
          for (size_t i = 0; i < got.size() / 4 && bad < 4; ++i) {
            Texel tol;
            const auto want = expected(s, sc, ints, i, tol);
            if (!want) continue;
            ++checked;
            for (size_t c = 0; c < 4; ++c)
              if (std::fabs(got[i * 4 + c] - (*want)[c]) > tol[c]) {
                ADD_FAILURE() << "coordinate " << i << " ("
                              << (ints ? s.icoords[2 * i] : s.coords[2 * i]) << ", "
                              << (ints ? s.icoords[2 * i + 1] : s.coords[2 * i + 1])
                              << ") component " << c << ": " << got[i * 4 + c] << ", want "
                              << (*want)[c];
                ++bad;
              }
          }
          EXPECT_GE(checked, 20u);
        }
    }
  }
}

// §8.4: an array coordinate selects layer clamp(rint(c), 0, layers - 1), ties to even.
TEST_F(Images, ArrayLayersRoundToNearestEvenAndClamp) {
  const Format f = {CL_R, CL_FLOAT};
  constexpr int layers = 4;
  std::vector<uint8_t> texels(2 * 2 * layers * 4);
  for (int l = 0; l < layers; ++l)
    for (int i = 0; i < 4; ++i) {
      const float v = float(l + 1);
      std::memcpy(&texels[size_t(l * 4 + i) * 4], &v, 4);
    }
  cl_mem img =
      dev.image(CL_MEM_OBJECT_IMAGE2D_ARRAY, f, 2, 2, 1, layers, nullptr, CL_MEM_READ_ONLY);
  dev.write(img, texels, 2, 2, layers);
  cl_program p = dev.build(R"(
constant sampler_t s = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;
kernel void k(read_only image2d_array_t img, global const float* layer, global float* out) {
  int i = get_global_id(0);
  out[i] = read_imagef(img, s, (float4)(0.5f, 0.5f, layer[i], 0.0f)).x;
  out[i + 8] = read_imagef(img, s, (int4)(0, 0, (int)layer[i], 0)).x;
})");
  ASSERT_TRUE(p);
  const float layer[8] = {-3.0f, -0.4f, 0.5f, 1.5f, 2.5f, 2.6f, 3.5f, 99.0f};
  const float want[8] = {1, 1, 1, 3, 3, 4, 4, 4};
  const float want_int[8] = {1, 1, 1, 2, 3, 3, 4, 4}; // (int) truncates, then clamps
  cl_mem l = dev.buffer(sizeof layer, layer);
  float out[16] = {};
  cl_mem o = dev.buffer(sizeof out);
  dev.run(p, "k", {{sizeof img, &img}, {sizeof l, &l}, {sizeof o, &o}}, {8, 1, 1}, 1);
  clEnqueueReadBuffer(dev.queue, o, CL_TRUE, 0, sizeof out, out, 0, nullptr, nullptr);
  for (int i = 0; i < 8; ++i) {
    EXPECT_EQ(out[i], want[i]) << "layer coordinate " << layer[i];
    EXPECT_EQ(out[i + 8], want_int[i]) << "integer layer " << int(layer[i]);
  }
  clReleaseMemObject(o);
  clReleaseMemObject(l);
  clReleaseMemObject(img);
  clReleaseProgram(p);
}

// ---- Against PoCL: formats x filters x addressing modes, when PoCL is installed ----

TEST_F(Images, SampledReadsAgreeWithPocl) {
  Device pocl("Portable Computing Language");
  if (!pocl.device) GTEST_SKIP() << "PoCL (pocl-opencl-icd) is not installed";
  size_t compared = 0, pocl_wrong = 0;
  for (Format f : kSampledFormats) {
    if (!supported(dev, f) || !supported(pocl, f)) continue;
    const SampleSetup s = make_setup(f, 7 * f.order + f.type);
    for (const SamplerCase& sc : every_sampler()) {
      if (kind(f.type) != Kind::Float && sc.filter == CL_FILTER_LINEAR) continue;
      SCOPED_TRACE(format_name(f) + " " + sampler_name(sc));
      const std::vector<float> mine = sample_on(dev, s, sc, false, false);
      const std::vector<float> theirs = sample_on(pocl, s, sc, false, false);
      ASSERT_EQ(mine.size(), theirs.size());
      size_t bad = 0;
      for (size_t i = 0; i < mine.size() / 4 && bad < 4; ++i) {
        Texel tol;
        const auto want = expected(s, sc, false, i, tol); // only where the spec decides
        if (!want) continue;
        for (size_t c = 0; c < 4; ++c, ++compared) {
          if (std::fabs(mine[i * 4 + c] - theirs[i * 4 + c]) <= 2 * tol[c]) continue;
          // Where they differ the spec's result decides: PoCL 6 reads alpha 0 from the border
          // of an order without alpha (the spec says 1), and rounds array layers half up.
          if (std::fabs(mine[i * 4 + c] - (*want)[c]) <= tol[c]) {
            ++pocl_wrong;
            continue;
          }
          ADD_FAILURE() << "coordinate " << i << " component " << c << ": amcl " << mine[i * 4 + c]
                        << ", PoCL " << theirs[i * 4 + c] << ", spec " << (*want)[c];
          ++bad;
        }
      }
    }
  }
  std::printf("image sampling against PoCL: %zu components compared, %zu where PoCL is the one "
              "that differs from the spec\n",
              compared, pocl_wrong);
  EXPECT_GT(compared, 1000u);
}

} // namespace
