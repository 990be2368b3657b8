// Image objects through the ICD loader: the device's image limits, the supported formats,
// clCreateImage and its errors per image type, clGetImageInfo, and a write/read round trip per
// format and per type with host pitches and sub-regions. Runs on gfx1100 and (as
// gfx1201_image_api_test) on gfx1201.
#include "cl_helpers.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <string>
#include <vector>

using namespace amcl_test;

namespace {

bool is_gfx12(cl_device_id d) {
  return device_string(d, CL_DEVICE_NAME).rfind("gfx12", 0) == 0;
}

std::vector<cl_image_format> formats(cl_context c, cl_mem_flags flags,
                                     cl_mem_object_type type = CL_MEM_OBJECT_IMAGE2D) {
  cl_uint n = 0;
  EXPECT_EQ(clGetSupportedImageFormats(c, flags, type, 0, nullptr, &n), CL_SUCCESS);
  std::vector<cl_image_format> out(n);
  EXPECT_EQ(clGetSupportedImageFormats(c, flags, type, n, out.data(), nullptr), CL_SUCCESS);
  return out;
}

bool has(const std::vector<cl_image_format>& list, cl_channel_order o, cl_channel_type t) {
  return std::any_of(list.begin(), list.end(), [&](const cl_image_format& f) {
    return f.image_channel_order == o && f.image_channel_data_type == t;
  });
}

cl_image_desc desc_of(cl_mem_object_type type, size_t w, size_t h = 0, size_t d = 0,
                      size_t array = 0) {
  cl_image_desc desc{};
  desc.image_type = type;
  desc.image_width = w;
  desc.image_height = h;
  desc.image_depth = d;
  desc.image_array_size = array;
  return desc;
}

cl_int create_error(cl_context c, cl_mem_flags flags, const cl_image_format* f,
                    const cl_image_desc* d, void* host = nullptr) {
  cl_int err = CL_SUCCESS;
  cl_mem m = clCreateImage(c, flags, f, d, host, &err);
  if (m) clReleaseMemObject(m);
  return err;
}

std::vector<uint8_t> pattern(size_t n, unsigned seed = 1) {
  std::vector<uint8_t> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = uint8_t(i * 7 + seed * 13 + (i >> 8));
  return v;
}

// Bytes a float, half or normalized channel may hold without a NaN the round trip could change:
// every texel's bytes are kept as written because the copy engine moves bytes, not values.
size_t element_size(cl_mem image) {
  size_t es = 0;
  EXPECT_EQ(clGetImageInfo(image, CL_IMAGE_ELEMENT_SIZE, sizeof es, &es, nullptr), CL_SUCCESS);
  return es;
}

} // namespace

TEST(ImageApi, DeviceReportsImagesAndTheirLimits) {
  Env env;
  ASSERT_NE(env.context, nullptr);
  EXPECT_EQ(device_info<cl_bool>(env.device, CL_DEVICE_IMAGE_SUPPORT), cl_bool(CL_TRUE));
  EXPECT_EQ(device_info<size_t>(env.device, CL_DEVICE_IMAGE2D_MAX_WIDTH), 16384u);
  EXPECT_EQ(device_info<size_t>(env.device, CL_DEVICE_IMAGE2D_MAX_HEIGHT), 16384u);
  EXPECT_EQ(device_info<size_t>(env.device, CL_DEVICE_IMAGE3D_MAX_WIDTH), 16384u);
  EXPECT_EQ(device_info<size_t>(env.device, CL_DEVICE_IMAGE3D_MAX_HEIGHT), 16384u);
  // T# DEPTH is 13 bits on gfx11, 14 on gfx12; BASE_ARRAY 13 bits on both.
  EXPECT_EQ(device_info<size_t>(env.device, CL_DEVICE_IMAGE3D_MAX_DEPTH),
            is_gfx12(env.device) ? 16384u : 8192u);
  EXPECT_EQ(device_info<size_t>(env.device, CL_DEVICE_IMAGE_MAX_ARRAY_SIZE), 8192u);
  EXPECT_EQ(device_info<size_t>(env.device, CL_DEVICE_IMAGE_MAX_BUFFER_SIZE), 16384u * 16384u);
  EXPECT_EQ(device_info<cl_uint>(env.device, CL_DEVICE_IMAGE_PITCH_ALIGNMENT),
            is_gfx12(env.device) ? 128u : 256u);
  EXPECT_EQ(device_info<cl_uint>(env.device, CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT), 256u);
  EXPECT_GE(device_info<cl_uint>(env.device, CL_DEVICE_MAX_READ_IMAGE_ARGS), 128u);
  EXPECT_GE(device_info<cl_uint>(env.device, CL_DEVICE_MAX_WRITE_IMAGE_ARGS), 64u);
  EXPECT_GE(device_info<cl_uint>(env.device, CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS), 64u);
  EXPECT_GE(device_info<cl_uint>(env.device, CL_DEVICE_MAX_SAMPLERS), 16u);
  std::string features;
  for (const cl_name_version& f :
       device_list<cl_name_version>(env.device, CL_DEVICE_OPENCL_C_FEATURES))
    features += std::string(f.name) + " ";
  for (const char* f :
       {"__opencl_c_images ", "__opencl_c_read_write_images ", "__opencl_c_3d_image_writes "})
    EXPECT_NE(features.find(f), std::string::npos) << f;
  const std::string ext = device_string(env.device, CL_DEVICE_EXTENSIONS);
  EXPECT_NE(ext.find("cl_khr_3d_image_writes"), std::string::npos);
  EXPECT_NE(ext.find("cl_khr_image2d_from_buffer"), std::string::npos);
  EXPECT_EQ(ext.find("cl_khr_depth_images"), std::string::npos);
}

// OpenCL 3.0 "Supported Image Formats": the minimum lists for read-only, write-only and
// read-write images, and sRGB for reading only.
TEST(ImageApi, SupportedFormatsCoverTheMinimumLists) {
  Env env;
  ASSERT_NE(env.context, nullptr);
  const cl_channel_type all[] = {
      CL_UNORM_INT8,    CL_UNORM_INT16,    CL_SIGNED_INT8,    CL_SIGNED_INT16, CL_SIGNED_INT32,
      CL_UNSIGNED_INT8, CL_UNSIGNED_INT16, CL_UNSIGNED_INT32, CL_HALF_FLOAT,   CL_FLOAT};
  for (cl_mem_flags flags : {cl_mem_flags(CL_MEM_READ_ONLY), cl_mem_flags(CL_MEM_WRITE_ONLY),
                             cl_mem_flags(CL_MEM_KERNEL_READ_AND_WRITE), cl_mem_flags(0)}) {
    for (cl_mem_object_type type :
         {CL_MEM_OBJECT_IMAGE1D, CL_MEM_OBJECT_IMAGE1D_BUFFER, CL_MEM_OBJECT_IMAGE1D_ARRAY,
          CL_MEM_OBJECT_IMAGE2D, CL_MEM_OBJECT_IMAGE2D_ARRAY, CL_MEM_OBJECT_IMAGE3D}) {
      const auto list = formats(env.context, flags, type);
      for (cl_channel_type t : all) {
        EXPECT_TRUE(has(list, CL_RGBA, t)) << flags << " " << t;
        EXPECT_TRUE(has(list, CL_R, t)) << flags << " " << t;
        EXPECT_TRUE(has(list, CL_RG, t)) << flags << " " << t;
      }
      EXPECT_TRUE(has(list, CL_BGRA, CL_UNORM_INT8));
      EXPECT_TRUE(has(list, CL_RGBA, CL_SNORM_INT8));
      EXPECT_TRUE(has(list, CL_RGBA, CL_SNORM_INT16));
      EXPECT_EQ(has(list, CL_sRGBA, CL_UNORM_INT8), flags == CL_MEM_READ_ONLY) << flags;
      EXPECT_FALSE(has(list, CL_DEPTH, CL_FLOAT));
    }
  }
  // Every listed format can be created, read-only.
  for (const cl_image_format& f : formats(env.context, CL_MEM_READ_ONLY)) {
    cl_image_desc d = desc_of(CL_MEM_OBJECT_IMAGE2D, 5, 3);
    EXPECT_EQ(create_error(env.context, CL_MEM_READ_ONLY, &f, &d), CL_SUCCESS)
        << f.image_channel_order << " " << f.image_channel_data_type;
  }
}

TEST(ImageApi, SupportedFormatsErrors) {
  Env env;
  ASSERT_NE(env.context, nullptr);
  cl_uint n = 0;
  cl_image_format f;
  EXPECT_EQ(
      clGetSupportedImageFormats(env.context, CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D, 0, &f, &n),
      CL_INVALID_VALUE);
  EXPECT_EQ(
      clGetSupportedImageFormats(env.context, CL_MEM_READ_ONLY, CL_MEM_OBJECT_BUFFER, 1, &f, &n),
      CL_INVALID_VALUE);
  EXPECT_EQ(clGetSupportedImageFormats(nullptr, CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D, 1, &f, &n),
            CL_INVALID_CONTEXT);
  EXPECT_EQ(clGetSupportedImageFormats(env.context, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY,
                                       CL_MEM_OBJECT_IMAGE2D, 0, nullptr, &n),
            CL_INVALID_VALUE);
  EXPECT_EQ(clGetSupportedImageFormats(env.context, cl_mem_flags(1) << 40, CL_MEM_OBJECT_IMAGE2D, 0,
                                       nullptr, &n),
            CL_INVALID_VALUE);
  EXPECT_EQ(clGetSupportedImageFormats(env.context,
                                       CL_MEM_READ_WRITE | CL_MEM_KERNEL_READ_AND_WRITE,
                                       CL_MEM_OBJECT_IMAGE2D, 0, nullptr, &n),
            CL_SUCCESS);
  EXPECT_GT(n, 0u);
  // Fewer entries than formats: the first ones, and the whole count.
  const auto all = formats(env.context, CL_MEM_READ_ONLY);
  ASSERT_GT(all.size(), 2u);
  cl_image_format two[3] = {};
  two[2].image_channel_order = 0x1234;
  EXPECT_EQ(
      clGetSupportedImageFormats(env.context, CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D, 2, two, &n),
      CL_SUCCESS);
  EXPECT_EQ(n, all.size());
  EXPECT_EQ(two[1].image_channel_order, all[1].image_channel_order);
  EXPECT_EQ(two[2].image_channel_order, 0x1234u);
}

TEST(ImageApi, CreateEveryTypeAndQueryIt) {
  Env env;
  ASSERT_NE(env.context, nullptr);
  const cl_image_format f{CL_RGBA, CL_UNORM_INT8};
  cl_mem buffer = env.buffer(4096 * 4);
  struct Case {
    cl_image_desc d;
    size_t height, depth, array;
  };
  cl_image_desc buf1d = desc_of(CL_MEM_OBJECT_IMAGE1D_BUFFER, 4096);
  buf1d.buffer = buffer;
  const Case cases[] = {
      {desc_of(CL_MEM_OBJECT_IMAGE1D, 100), 0, 0, 0},
      {buf1d, 0, 0, 0},
      {desc_of(CL_MEM_OBJECT_IMAGE1D_ARRAY, 100, 0, 0, 7), 0, 0, 7},
      {desc_of(CL_MEM_OBJECT_IMAGE2D, 100, 9), 9, 0, 0},
      {desc_of(CL_MEM_OBJECT_IMAGE2D_ARRAY, 100, 9, 0, 3), 9, 0, 3},
      {desc_of(CL_MEM_OBJECT_IMAGE3D, 100, 9, 5), 9, 5, 0},
  };
  for (const Case& c : cases) {
    cl_int err = 1;
    cl_mem m = clCreateImage(env.context, CL_MEM_READ_WRITE, &f, &c.d, nullptr, &err);
    ASSERT_EQ(err, CL_SUCCESS) << c.d.image_type;
    EXPECT_EQ(mem_info<cl_mem_object_type>(m, CL_MEM_TYPE), c.d.image_type);
    EXPECT_EQ(mem_info<cl_mem>(m, CL_MEM_ASSOCIATED_MEMOBJECT), c.d.buffer);
    EXPECT_EQ(mem_info<cl_context>(m, CL_MEM_CONTEXT), env.context);
    EXPECT_EQ(mem_info<cl_mem_flags>(m, CL_MEM_FLAGS), cl_mem_flags(CL_MEM_READ_WRITE));
    auto img = [&](cl_image_info p) { return info_value<size_t>(clGetImageInfo, m, p); };
    cl_image_format got{};
    EXPECT_EQ(clGetImageInfo(m, CL_IMAGE_FORMAT, sizeof got, &got, nullptr), CL_SUCCESS);
    EXPECT_EQ(got.image_channel_order, cl_channel_order(CL_RGBA));
    EXPECT_EQ(got.image_channel_data_type, cl_channel_type(CL_UNORM_INT8));
    EXPECT_EQ(img(CL_IMAGE_ELEMENT_SIZE), 4u);
    EXPECT_EQ(img(CL_IMAGE_WIDTH), c.d.image_width);
    EXPECT_EQ(img(CL_IMAGE_HEIGHT), c.height);
    EXPECT_EQ(img(CL_IMAGE_DEPTH), c.depth);
    EXPECT_EQ(img(CL_IMAGE_ARRAY_SIZE), c.array);
    // The pitches the host sees: tightly packed without a host pointer (the device's padding
    // stays amcl's own), slices one row apart in a 1D array.
    EXPECT_EQ(img(CL_IMAGE_ROW_PITCH), c.d.image_width * 4);
    const bool sliced = c.depth || c.array;
    if (sliced)
      EXPECT_EQ(img(CL_IMAGE_SLICE_PITCH), img(CL_IMAGE_ROW_PITCH) * std::max<size_t>(1, c.height));
    else
      EXPECT_EQ(img(CL_IMAGE_SLICE_PITCH), 0u);
    cl_mem b = nullptr;
    EXPECT_EQ(clGetImageInfo(m, CL_IMAGE_BUFFER, sizeof b, &b, nullptr), CL_SUCCESS);
    EXPECT_EQ(b, c.d.buffer);
    cl_uint mips = 9, samples = 9;
    EXPECT_EQ(clGetImageInfo(m, CL_IMAGE_NUM_MIP_LEVELS, sizeof mips, &mips, nullptr), CL_SUCCESS);
    EXPECT_EQ(clGetImageInfo(m, CL_IMAGE_NUM_SAMPLES, sizeof samples, &samples, nullptr),
              CL_SUCCESS);
    EXPECT_EQ(mips + samples, 0u);
    EXPECT_EQ(clGetImageInfo(m, 0x7777, sizeof b, &b, nullptr), CL_INVALID_VALUE);
    EXPECT_EQ(clGetImageInfo(m, CL_IMAGE_WIDTH, 1, &b, nullptr), CL_INVALID_VALUE);
    EXPECT_EQ(clRetainMemObject(m), CL_SUCCESS);
    EXPECT_EQ(mem_info<cl_uint>(m, CL_MEM_REFERENCE_COUNT), 2u);
    EXPECT_EQ(clReleaseMemObject(m), CL_SUCCESS);
    EXPECT_EQ(clReleaseMemObject(m), CL_SUCCESS);
  }
  size_t w = 0;
  EXPECT_EQ(clGetImageInfo(buffer, CL_IMAGE_WIDTH, sizeof w, &w, nullptr), CL_INVALID_MEM_OBJECT);
  EXPECT_EQ(clGetImageInfo(nullptr, CL_IMAGE_WIDTH, sizeof w, &w, nullptr), CL_INVALID_MEM_OBJECT);
  // The deprecated creators describe the same images.
  cl_int err = 1;
  cl_mem m2 = clCreateImage2D(env.context, CL_MEM_READ_ONLY, &f, 8, 4, 0, nullptr, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  EXPECT_EQ(mem_info<cl_mem_object_type>(m2, CL_MEM_TYPE),
            cl_mem_object_type(CL_MEM_OBJECT_IMAGE2D));
  cl_mem m3 = clCreateImage3D(env.context, CL_MEM_READ_ONLY, &f, 8, 4, 2, 0, 0, nullptr, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  EXPECT_EQ(info_value<size_t>(clGetImageInfo, m3, CL_IMAGE_DEPTH), 2u);
  const cl_mem_properties none[] = {0};
  cl_image_desc d2 = desc_of(CL_MEM_OBJECT_IMAGE2D, 8, 8);
  cl_mem m4 =
      clCreateImageWithProperties(env.context, none, CL_MEM_READ_WRITE, &f, &d2, nullptr, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  EXPECT_EQ(info_bytes(clGetMemObjectInfo, m4, CL_MEM_PROPERTIES).size(),
            sizeof(cl_mem_properties));
  for (cl_mem m : {m2, m3, m4}) clReleaseMemObject(m);
  clReleaseMemObject(buffer);
}

TEST(ImageApi, CreationErrors) {
  Env env;
  ASSERT_NE(env.context, nullptr);
  const cl_image_format f{CL_RGBA, CL_UNORM_INT8};
  cl_image_desc d = desc_of(CL_MEM_OBJECT_IMAGE2D, 16, 16);
  cl_int err = 1;
  EXPECT_EQ(clCreateImage(nullptr, CL_MEM_READ_WRITE, &f, &d, nullptr, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_CONTEXT);
  const cl_mem_properties props[] = {0x4242, 1, 0};
  EXPECT_EQ(
      clCreateImageWithProperties(env.context, props, CL_MEM_READ_WRITE, &f, &d, nullptr, &err),
      nullptr);
  EXPECT_EQ(err, CL_INVALID_PROPERTY);
  EXPECT_EQ(create_error(env.context, CL_MEM_READ_WRITE | CL_MEM_READ_ONLY, &f, &d),
            CL_INVALID_VALUE);
  // Formats: invalid pairs and unknown values, then valid ones amcl does not offer.
  EXPECT_EQ(create_error(env.context, 0, nullptr, &d), CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
  const cl_image_format bad[] = {{CL_BGRA, CL_FLOAT},     {CL_INTENSITY, CL_UNSIGNED_INT8},
                                 {CL_RGB, CL_UNORM_INT8}, {CL_sRGBA, CL_FLOAT},
                                 {0x1234, CL_FLOAT},      {CL_RGBA, 0x1234}};
  for (const cl_image_format& b : bad)
    EXPECT_EQ(create_error(env.context, 0, &b, &d), CL_INVALID_IMAGE_FORMAT_DESCRIPTOR)
        << b.image_channel_order << " " << b.image_channel_data_type;
  const cl_image_format unoffered[] = {{CL_RGB, CL_UNORM_SHORT_565}, {CL_DEPTH, CL_FLOAT}};
  for (const cl_image_format& u : unoffered)
    EXPECT_EQ(create_error(env.context, 0, &u, &d), CL_IMAGE_FORMAT_NOT_SUPPORTED);
  // sRGB is read-only.
  const cl_image_format srgb{CL_sRGBA, CL_UNORM_INT8};
  EXPECT_EQ(create_error(env.context, CL_MEM_READ_ONLY, &srgb, &d), CL_SUCCESS);
  EXPECT_EQ(create_error(env.context, CL_MEM_WRITE_ONLY, &srgb, &d), CL_IMAGE_FORMAT_NOT_SUPPORTED);
  // Descriptions.
  EXPECT_EQ(create_error(env.context, 0, &f, nullptr), CL_INVALID_IMAGE_DESCRIPTOR);
  cl_image_desc x = d;
  x.image_type = CL_MEM_OBJECT_BUFFER;
  EXPECT_EQ(create_error(env.context, 0, &f, &x), CL_INVALID_IMAGE_DESCRIPTOR);
  x = d;
  x.image_height = 0;
  EXPECT_EQ(create_error(env.context, 0, &f, &x), CL_INVALID_IMAGE_DESCRIPTOR);
  x = desc_of(CL_MEM_OBJECT_IMAGE3D, 4, 4, 0);
  EXPECT_EQ(create_error(env.context, 0, &f, &x), CL_INVALID_IMAGE_DESCRIPTOR);
  x = desc_of(CL_MEM_OBJECT_IMAGE2D_ARRAY, 4, 4, 0, 0);
  EXPECT_EQ(create_error(env.context, 0, &f, &x), CL_INVALID_IMAGE_DESCRIPTOR);
  x = d;
  x.num_mip_levels = 2;
  EXPECT_EQ(create_error(env.context, 0, &f, &x), CL_INVALID_IMAGE_DESCRIPTOR);
  x = d;
  x.num_samples = 4;
  EXPECT_EQ(create_error(env.context, 0, &f, &x), CL_INVALID_IMAGE_DESCRIPTOR);
  x = d;
  x.image_row_pitch = 64; // a pitch without host memory
  EXPECT_EQ(create_error(env.context, 0, &f, &x), CL_INVALID_IMAGE_DESCRIPTOR);
  x = desc_of(CL_MEM_OBJECT_IMAGE1D_BUFFER, 16); // no buffer
  EXPECT_EQ(create_error(env.context, 0, &f, &x), CL_INVALID_IMAGE_DESCRIPTOR);
  // Sizes beyond the device's limits.
  x = desc_of(CL_MEM_OBJECT_IMAGE2D, 16385, 4);
  EXPECT_EQ(create_error(env.context, 0, &f, &x), CL_INVALID_IMAGE_SIZE);
  x = desc_of(CL_MEM_OBJECT_IMAGE2D_ARRAY, 4, 4, 0, 8193);
  EXPECT_EQ(create_error(env.context, 0, &f, &x), CL_INVALID_IMAGE_SIZE);
  x = desc_of(CL_MEM_OBJECT_IMAGE3D, 4, 4, 16385);
  EXPECT_EQ(create_error(env.context, 0, &f, &x), CL_INVALID_IMAGE_SIZE);
  // Host pointers and their pitches.
  std::vector<uint8_t> host(16 * 16 * 4 * 4);
  EXPECT_EQ(create_error(env.context, CL_MEM_COPY_HOST_PTR, &f, &d), CL_INVALID_HOST_PTR);
  EXPECT_EQ(create_error(env.context, CL_MEM_USE_HOST_PTR, &f, &d), CL_INVALID_HOST_PTR);
  EXPECT_EQ(create_error(env.context, CL_MEM_READ_WRITE, &f, &d, host.data()), CL_INVALID_HOST_PTR);
  x = d;
  x.image_row_pitch = 16 * 4 - 4; // shorter than a row
  EXPECT_EQ(create_error(env.context, CL_MEM_COPY_HOST_PTR, &f, &x, host.data()),
            CL_INVALID_IMAGE_DESCRIPTOR);
  x.image_row_pitch = 16 * 4 + 2; // not a whole number of texels
  EXPECT_EQ(create_error(env.context, CL_MEM_COPY_HOST_PTR, &f, &x, host.data()),
            CL_INVALID_IMAGE_DESCRIPTOR);
  x = desc_of(CL_MEM_OBJECT_IMAGE3D, 16, 4, 2);
  x.image_slice_pitch = 16 * 4 * 4 - 64; // shorter than a slice
  EXPECT_EQ(create_error(env.context, CL_MEM_COPY_HOST_PTR, &f, &x, host.data()),
            CL_INVALID_IMAGE_DESCRIPTOR);
}

TEST(ImageApi, ImagesFromBuffers) {
  Env env;
  ASSERT_NE(env.context, nullptr);
  const cl_image_format f{CL_R, CL_UNSIGNED_INT8};
  const cl_uint align = device_info<cl_uint>(env.device, CL_DEVICE_IMAGE_PITCH_ALIGNMENT);
  const size_t pitch = 2 * align, height = 5;
  std::vector<uint8_t> bytes = pattern(pitch * height);
  cl_mem buffer = env.buffer(bytes.size(), bytes.data());
  // A 2D image over the buffer's rows at the given pitch reads what the buffer holds.
  cl_image_desc d = desc_of(CL_MEM_OBJECT_IMAGE2D, align + 3, height);
  d.image_row_pitch = pitch;
  d.buffer = buffer;
  cl_int err = 1;
  cl_mem image = clCreateImage(env.context, CL_MEM_READ_ONLY, &f, &d, nullptr, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  EXPECT_EQ(info_value<size_t>(clGetImageInfo, image, CL_IMAGE_ROW_PITCH), pitch);
  // Host-pointer flags come from the buffer.
  EXPECT_EQ(mem_info<cl_mem_flags>(image, CL_MEM_FLAGS),
            cl_mem_flags(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR));
  std::vector<uint8_t> got(d.image_width * height);
  size_t origin[3] = {0, 0, 0}, region[3] = {d.image_width, height, 1};
  ASSERT_EQ(clEnqueueReadImage(env.queue, image, CL_TRUE, origin, region, 0, 0, got.data(), 0,
                               nullptr, nullptr),
            CL_SUCCESS);
  for (size_t y = 0; y < height; ++y)
    for (size_t x = 0; x < d.image_width; ++x)
      ASSERT_EQ(got[y * d.image_width + x], bytes[y * pitch + x]) << x << "," << y;
  // The image keeps the buffer alive.
  EXPECT_EQ(mem_info<cl_uint>(buffer, CL_MEM_REFERENCE_COUNT), 2u);
  clReleaseMemObject(image);
  EXPECT_EQ(mem_info<cl_uint>(buffer, CL_MEM_REFERENCE_COUNT), 1u);

  // The pitch must be a multiple of the alignment, cover a row and fit the buffer.
  cl_image_desc x = d;
  x.image_row_pitch = pitch + 1;
  EXPECT_EQ(create_error(env.context, CL_MEM_READ_ONLY, &f, &x), CL_INVALID_IMAGE_DESCRIPTOR);
  x.image_row_pitch = align;
  EXPECT_EQ(create_error(env.context, CL_MEM_READ_ONLY, &f, &x), CL_INVALID_IMAGE_DESCRIPTOR);
  x = d;
  x.image_height = height + 1;
  EXPECT_EQ(create_error(env.context, CL_MEM_READ_ONLY, &f, &x), CL_INVALID_IMAGE_DESCRIPTOR);
  // Host-pointer flags and host pointers do not go with a buffer; access may not widen it.
  EXPECT_EQ(create_error(env.context, CL_MEM_COPY_HOST_PTR, &f, &d, bytes.data()),
            CL_INVALID_HOST_PTR);
  EXPECT_EQ(create_error(env.context, CL_MEM_ALLOC_HOST_PTR, &f, &d), CL_INVALID_VALUE);
  cl_mem ro = clCreateBuffer(env.context, CL_MEM_READ_ONLY, pitch * height, nullptr, &err);
  x = d;
  x.buffer = ro;
  EXPECT_EQ(create_error(env.context, CL_MEM_READ_WRITE, &f, &x), CL_INVALID_VALUE);
  cl_mem inherits = clCreateImage(env.context, 0, &f, &x, nullptr, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  EXPECT_EQ(mem_info<cl_mem_flags>(inherits, CL_MEM_FLAGS), cl_mem_flags(CL_MEM_READ_ONLY));
  clReleaseMemObject(inherits);
  // An image is no buffer to make images from; nor is a released buffer.
  cl_image_desc plain = desc_of(CL_MEM_OBJECT_IMAGE2D, 4, 4);
  cl_mem img2 = clCreateImage(env.context, 0, &f, &plain, nullptr, &err);
  x = d;
  x.buffer = img2;
  EXPECT_EQ(create_error(env.context, 0, &f, &x), CL_INVALID_IMAGE_DESCRIPTOR);
  x = desc_of(CL_MEM_OBJECT_IMAGE3D, 4, 4, 4);
  x.buffer = buffer;
  EXPECT_EQ(create_error(env.context, 0, &f, &x), CL_INVALID_IMAGE_DESCRIPTOR);
  // A sub-buffer starts wherever its offset puts it: only on the base alignment.
  const size_t sub_align = env.sub_buffer_align();
  cl_buffer_region r{sub_align, pitch * 2};
  cl_mem sub = clCreateSubBuffer(buffer, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  x = desc_of(CL_MEM_OBJECT_IMAGE1D_BUFFER, 16);
  x.buffer = sub;
  const cl_uint base_align =
      device_info<cl_uint>(env.device, CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT);
  EXPECT_EQ(create_error(env.context, 0, &f, &x),
            sub_align % base_align ? CL_INVALID_IMAGE_DESCRIPTOR : CL_SUCCESS);
  // A 1D buffer image wider than its buffer.
  x = desc_of(CL_MEM_OBJECT_IMAGE1D_BUFFER, pitch * height + 1);
  x.buffer = buffer;
  EXPECT_EQ(create_error(env.context, 0, &f, &x), CL_INVALID_IMAGE_SIZE);
  // Buffer entry points refuse images.
  uint8_t byte = 0;
  EXPECT_EQ(clEnqueueReadBuffer(env.queue, img2, CL_TRUE, 0, 1, &byte, 0, nullptr, nullptr),
            CL_INVALID_MEM_OBJECT);
  EXPECT_EQ(clCreateSubBuffer(img2, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_MEM_OBJECT);
  for (cl_mem m : {sub, img2, ro, buffer}) clReleaseMemObject(m);
}

// A 1D buffer image and its buffer are the same bytes, beyond one T# row (16384 texels).
TEST(ImageApi, OneDBufferImageSharesTheBuffer) {
  Env env;
  ASSERT_NE(env.context, nullptr);
  const size_t n = 16384 + 100;
  const cl_image_format f{CL_RGBA, CL_UNSIGNED_INT16};
  cl_mem buffer = env.buffer(n * 8);
  cl_image_desc d = desc_of(CL_MEM_OBJECT_IMAGE1D_BUFFER, n);
  d.buffer = buffer;
  cl_int err = 1;
  cl_mem image = clCreateImage(env.context, CL_MEM_READ_WRITE, &f, &d, nullptr, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  const std::vector<uint8_t> bytes = pattern(40 * 8, 3);
  size_t origin[3] = {16384 - 20, 0, 0}, region[3] = {40, 1, 1};
  ASSERT_EQ(clEnqueueWriteImage(env.queue, image, CL_TRUE, origin, region, 0, 0, bytes.data(), 0,
                                nullptr, nullptr),
            CL_SUCCESS);
  std::vector<uint8_t> got(bytes.size());
  ASSERT_EQ(clEnqueueReadBuffer(env.queue, buffer, CL_TRUE, (16384 - 20) * 8, got.size(),
                                got.data(), 0, nullptr, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(got, bytes);
  clReleaseMemObject(image);
  clReleaseMemObject(buffer);
}

// Every offered format: a written sub-region with host pitches reads back byte for byte, and
// the texels around it keep the image's initial (COPY_HOST_PTR) contents.
TEST(ImageApi, WriteReadRoundTripPerFormat) {
  Env env;
  ASSERT_NE(env.context, nullptr);
  const size_t w = 37, h = 11;
  for (const cl_image_format& f : formats(env.context, CL_MEM_READ_ONLY)) {
    cl_image_desc d = desc_of(CL_MEM_OBJECT_IMAGE2D, w, h);
    std::vector<uint8_t> init = pattern(w * h * 16, 5);
    cl_int err = 1;
    cl_mem image = clCreateImage(env.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &f, &d,
                                 init.data(), &err);
    ASSERT_EQ(err, CL_SUCCESS) << f.image_channel_order << " " << f.image_channel_data_type;
    const size_t es = element_size(image);
    init.resize(w * h * es);
    const size_t origin[3] = {3, 2, 0}, region[3] = {20, 7, 1};
    const size_t host_pitch = region[0] * es + 24;
    std::vector<uint8_t> data = pattern(host_pitch * region[1], 9);
    ASSERT_EQ(clEnqueueWriteImage(env.queue, image, CL_FALSE, origin, region, host_pitch, 0,
                                  data.data(), 0, nullptr, nullptr),
              CL_SUCCESS);
    std::vector<uint8_t> all(w * h * es);
    const size_t zero[3] = {0, 0, 0}, whole[3] = {w, h, 1};
    ASSERT_EQ(clEnqueueReadImage(env.queue, image, CL_TRUE, zero, whole, 0, 0, all.data(), 0,
                                 nullptr, nullptr),
              CL_SUCCESS);
    for (size_t y = 0; y < h; ++y)
      for (size_t x = 0; x < w; ++x) {
        const bool inside = x >= origin[0] && x < origin[0] + region[0] && y >= origin[1] &&
                            y < origin[1] + region[1];
        const uint8_t* want = inside ? &data[(y - origin[1]) * host_pitch + (x - origin[0]) * es]
                                     : &init[(y * w + x) * es];
        ASSERT_EQ(std::memcmp(&all[(y * w + x) * es], want, es), 0)
            << f.image_channel_order << " " << f.image_channel_data_type << " at " << x << "," << y;
      }
    clReleaseMemObject(image);
  }
}

// Each image type: the whole image written with host row and slice pitches, and a sub-region
// read back with other pitches.
TEST(ImageApi, RoundTripPerTypeWithPitches) {
  Env env;
  ASSERT_NE(env.context, nullptr);
  const cl_image_format f{CL_RG, CL_FLOAT}; // 8 bytes a texel
  const size_t es = 8;
  const cl_image_desc descs[] = {
      desc_of(CL_MEM_OBJECT_IMAGE1D, 70),       desc_of(CL_MEM_OBJECT_IMAGE1D_ARRAY, 70, 0, 0, 5),
      desc_of(CL_MEM_OBJECT_IMAGE2D, 70, 6),    desc_of(CL_MEM_OBJECT_IMAGE2D_ARRAY, 70, 6, 0, 4),
      desc_of(CL_MEM_OBJECT_IMAGE3D, 70, 6, 4),
  };
  for (const cl_image_desc& d : descs) {
    const bool a1 = d.image_type == CL_MEM_OBJECT_IMAGE1D_ARRAY;
    const size_t ext[3] = {d.image_width,
                           a1 ? d.image_array_size : std::max<size_t>(1, d.image_height),
                           d.image_type == CL_MEM_OBJECT_IMAGE3D         ? d.image_depth
                           : d.image_type == CL_MEM_OBJECT_IMAGE2D_ARRAY ? d.image_array_size
                                                                         : 1};
    // USE_HOST_PTR with padded host rows and slices (a 1D array's layers are its slices).
    const size_t row = ext[0] * es + 16;
    // A slice pitch is a whole number of rows.
    const size_t slice = a1 ? 2 * row : row * (ext[1] + 1);
    std::vector<uint8_t> host = pattern(slice * (a1 ? ext[1] : ext[2]), 11);
    cl_image_desc hd = d;
    hd.image_row_pitch = row;
    hd.image_slice_pitch = (a1 || ext[2] > 1) ? slice : 0;
    cl_int err = 1;
    cl_mem image = clCreateImage(env.context, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, &f, &hd,
                                 host.data(), &err);
    ASSERT_EQ(err, CL_SUCCESS) << d.image_type;
    EXPECT_EQ(mem_info<void*>(image, CL_MEM_HOST_PTR), host.data());
    EXPECT_EQ(info_value<size_t>(clGetImageInfo, image, CL_IMAGE_ROW_PITCH), row);
    auto host_texel = [&](size_t x, size_t y, size_t z) {
      return a1 ? &host[y * slice + x * es] : &host[z * slice + y * row + x * es];
    };
    // A sub-region, read tightly packed.
    const size_t origin[3] = {5, ext[1] > 1 ? 1u : 0u, ext[2] > 1 ? 1u : 0u};
    const size_t region[3] = {60, ext[1] > 1 ? ext[1] - 1 : 1, ext[2] > 1 ? ext[2] - 1 : 1};
    std::vector<uint8_t> got(region[0] * region[1] * region[2] * es);
    ASSERT_EQ(clEnqueueReadImage(env.queue, image, CL_TRUE, origin, region, 0, 0, got.data(), 0,
                                 nullptr, nullptr),
              CL_SUCCESS);
    for (size_t z = 0; z < region[2]; ++z)
      for (size_t y = 0; y < region[1]; ++y)
        ASSERT_EQ(std::memcmp(&got[((z * region[1]) + y) * region[0] * es],
                              host_texel(origin[0], origin[1] + y, origin[2] + z), region[0] * es),
                  0)
            << d.image_type << " row " << y << " slice " << z;
    // Written from padded host rows, read back the same way.
    const size_t hp = region[0] * es + 32, hs = a1 ? hp + 16 : hp * region[1] + 64;
    std::vector<uint8_t> src = pattern(hs * (a1 ? region[1] : region[2]), 17);
    ASSERT_EQ(clEnqueueWriteImage(env.queue, image, CL_TRUE, origin, region, hp, hs, src.data(), 0,
                                  nullptr, nullptr),
              CL_SUCCESS);
    std::vector<uint8_t> back(src.size());
    ASSERT_EQ(clEnqueueReadImage(env.queue, image, CL_TRUE, origin, region, hp, hs, back.data(), 0,
                                 nullptr, nullptr),
              CL_SUCCESS);
    for (size_t z = 0; z < region[2]; ++z)
      for (size_t y = 0; y < region[1]; ++y) {
        const size_t at = a1 ? y * hs : z * hs + y * hp;
        ASSERT_EQ(std::memcmp(&back[at], &src[at], region[0] * es), 0) << d.image_type;
      }
    clReleaseMemObject(image);
  }
}

TEST(ImageApi, TransferErrors) {
  Env env;
  ASSERT_NE(env.context, nullptr);
  const cl_image_format f{CL_RGBA, CL_UNORM_INT8};
  cl_image_desc d = desc_of(CL_MEM_OBJECT_IMAGE2D, 8, 8);
  cl_int err = 1;
  cl_mem image = clCreateImage(env.context, CL_MEM_READ_WRITE, &f, &d, nullptr, &err);
  cl_mem buffer = env.buffer(1024);
  std::vector<uint8_t> host(1024);
  size_t o[3] = {0, 0, 0}, r[3] = {8, 8, 1};
  auto read = [&](cl_command_queue q, cl_mem m, const size_t* origin, const size_t* region,
                  size_t rp = 0, void* p = nullptr) {
    return clEnqueueReadImage(q, m, CL_TRUE, origin, region, rp, 0, p ? p : host.data(), 0, nullptr,
                              nullptr);
  };
  EXPECT_EQ(read(env.queue, image, o, r), CL_SUCCESS);
  EXPECT_EQ(read(nullptr, image, o, r), CL_INVALID_COMMAND_QUEUE);
  EXPECT_EQ(read(env.queue, buffer, o, r), CL_INVALID_MEM_OBJECT);
  EXPECT_EQ(read(env.queue, image, nullptr, r), CL_INVALID_VALUE);
  EXPECT_EQ(read(env.queue, image, o, nullptr), CL_INVALID_VALUE);
  size_t big[3] = {9, 8, 1}, deep[3] = {8, 8, 2}, zero[3] = {0, 8, 1}, off[3] = {1, 0, 0},
         z1[3] = {0, 0, 1};
  EXPECT_EQ(read(env.queue, image, o, big), CL_INVALID_VALUE);
  EXPECT_EQ(read(env.queue, image, o, deep), CL_INVALID_VALUE);
  EXPECT_EQ(read(env.queue, image, o, zero), CL_INVALID_VALUE);
  EXPECT_EQ(read(env.queue, image, off, r), CL_INVALID_VALUE);
  EXPECT_EQ(read(env.queue, image, z1, off), CL_INVALID_VALUE);
  EXPECT_EQ(read(env.queue, image, o, r, 31), CL_INVALID_VALUE); // pitch shorter than a row
  EXPECT_EQ(clEnqueueReadImage(env.queue, image, CL_TRUE, o, r, 0, 0, nullptr, 0, nullptr, nullptr),
            CL_INVALID_VALUE);
  cl_event e = nullptr;
  EXPECT_EQ(clEnqueueReadImage(env.queue, image, CL_TRUE, o, r, 0, 0, host.data(), 1, nullptr, &e),
            CL_INVALID_EVENT_WAIT_LIST);
  // Host access flags.
  cl_mem no_host = clCreateImage(env.context, CL_MEM_HOST_NO_ACCESS, &f, &d, nullptr, &err);
  EXPECT_EQ(read(env.queue, no_host, o, r), CL_INVALID_OPERATION);
  EXPECT_EQ(clEnqueueWriteImage(env.queue, no_host, CL_TRUE, o, r, 0, 0, host.data(), 0, nullptr,
                                nullptr),
            CL_INVALID_OPERATION);
  cl_mem host_reads = clCreateImage(env.context, CL_MEM_HOST_READ_ONLY, &f, &d, nullptr, &err);
  EXPECT_EQ(read(env.queue, host_reads, o, r), CL_SUCCESS);
  EXPECT_EQ(clEnqueueWriteImage(env.queue, host_reads, CL_TRUE, o, r, 0, 0, host.data(), 0, nullptr,
                                nullptr),
            CL_INVALID_OPERATION);
  // A queue of another context.
  cl_context other = clCreateContext(nullptr, 1, &env.device, nullptr, nullptr, &err);
  cl_command_queue other_q = clCreateCommandQueueWithProperties(other, env.device, nullptr, &err);
  EXPECT_EQ(read(other_q, image, o, r), CL_INVALID_CONTEXT);
  // An event for the command, of the right type.
  ASSERT_EQ(
      clEnqueueWriteImage(env.queue, image, CL_FALSE, o, r, 0, 0, host.data(), 0, nullptr, &e),
      CL_SUCCESS);
  EXPECT_EQ(env.final_status(e), CL_COMPLETE);
  cl_command_type type = 0;
  clGetEventInfo(e, CL_EVENT_COMMAND_TYPE, sizeof type, &type, nullptr);
  EXPECT_EQ(type, cl_command_type(CL_COMMAND_WRITE_IMAGE));
  clReleaseEvent(e);
  clReleaseCommandQueue(other_q);
  clReleaseContext(other);
  for (cl_mem m : {image, buffer, no_host, host_reads}) clReleaseMemObject(m);
}

// One 3D image's extent per dimension: origin + region may reach each edge, never pass it;
// 1D arrays address layers with y.
TEST(ImageApi, RegionRulesPerType) {
  Env env;
  ASSERT_NE(env.context, nullptr);
  const cl_image_format f{CL_R, CL_UNSIGNED_INT8};
  std::vector<uint8_t> host(4096);
  auto read = [&](cl_mem m, std::array<size_t, 3> o, std::array<size_t, 3> r) {
    return clEnqueueReadImage(env.queue, m, CL_TRUE, o.data(), r.data(), 0, 0, host.data(), 0,
                              nullptr, nullptr);
  };
  cl_int err = 1;
  cl_image_desc d1 = desc_of(CL_MEM_OBJECT_IMAGE1D, 16);
  cl_mem one = clCreateImage(env.context, 0, &f, &d1, nullptr, &err);
  EXPECT_EQ(read(one, {15, 0, 0}, {1, 1, 1}), CL_SUCCESS);
  EXPECT_EQ(read(one, {0, 1, 0}, {1, 1, 1}), CL_INVALID_VALUE);
  EXPECT_EQ(read(one, {0, 0, 0}, {1, 2, 1}), CL_INVALID_VALUE);
  cl_image_desc da = desc_of(CL_MEM_OBJECT_IMAGE1D_ARRAY, 16, 0, 0, 4);
  cl_mem arr = clCreateImage(env.context, 0, &f, &da, nullptr, &err);
  EXPECT_EQ(read(arr, {0, 3, 0}, {16, 1, 1}), CL_SUCCESS);
  EXPECT_EQ(read(arr, {0, 3, 0}, {16, 2, 1}), CL_INVALID_VALUE);
  EXPECT_EQ(read(arr, {0, 0, 1}, {16, 1, 1}), CL_INVALID_VALUE);
  cl_image_desc d3 = desc_of(CL_MEM_OBJECT_IMAGE3D, 8, 4, 3);
  cl_mem three = clCreateImage(env.context, 0, &f, &d3, nullptr, &err);
  EXPECT_EQ(read(three, {0, 0, 2}, {8, 4, 1}), CL_SUCCESS);
  EXPECT_EQ(read(three, {0, 0, 2}, {8, 4, 2}), CL_INVALID_VALUE);
  EXPECT_EQ(read(three, {0, 1, 0}, {8, 4, 1}), CL_INVALID_VALUE);
  for (cl_mem m : {one, arr, three}) clReleaseMemObject(m);
}

TEST(ImageApi, CopiesBetweenImagesAndBuffers) {
  Env env;
  ASSERT_NE(env.context, nullptr);
  const cl_image_format f{CL_RGBA, CL_SIGNED_INT32}; // 16 bytes a texel
  const size_t w = 24, h = 10, es = 16;
  const std::vector<uint8_t> init = pattern(w * h * es, 23);
  cl_image_desc d = desc_of(CL_MEM_OBJECT_IMAGE2D, w, h);
  cl_int err = 1;
  cl_mem a = clCreateImage(env.context, CL_MEM_COPY_HOST_PTR, &f, &d,
                           const_cast<uint8_t*>(init.data()), &err);
  ASSERT_EQ(err, CL_SUCCESS);
  cl_image_desc d3 = desc_of(CL_MEM_OBJECT_IMAGE3D, w, h, 3);
  cl_mem b = clCreateImage(env.context, 0, &f, &d3, nullptr, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  // 2D -> slice 2 of a 3D image at an offset, then out to a buffer, packed.
  const size_t so[3] = {4, 3, 0}, dst[3] = {1, 2, 2}, r[3] = {10, 5, 1};
  ASSERT_EQ(clEnqueueCopyImage(env.queue, a, b, so, dst, r, 0, nullptr, nullptr), CL_SUCCESS);
  cl_mem buf = env.buffer(64 + r[0] * r[1] * es);
  ASSERT_EQ(clEnqueueCopyImageToBuffer(env.queue, b, buf, dst, r, 64, 0, nullptr, nullptr),
            CL_SUCCESS);
  std::vector<uint8_t> got(r[0] * r[1] * es);
  ASSERT_EQ(
      clEnqueueReadBuffer(env.queue, buf, CL_TRUE, 64, got.size(), got.data(), 0, nullptr, nullptr),
      CL_SUCCESS);
  for (size_t y = 0; y < r[1]; ++y)
    ASSERT_EQ(std::memcmp(&got[y * r[0] * es], &init[((so[1] + y) * w + so[0]) * es], r[0] * es), 0)
        << y;
  // And back into the 2D image at the origin.
  const size_t zero[3] = {0, 0, 0};
  ASSERT_EQ(clEnqueueCopyBufferToImage(env.queue, buf, a, 64, zero, r, 0, nullptr, nullptr),
            CL_SUCCESS);
  std::vector<uint8_t> back(got.size());
  ASSERT_EQ(
      clEnqueueReadImage(env.queue, a, CL_TRUE, zero, r, 0, 0, back.data(), 0, nullptr, nullptr),
      CL_SUCCESS);
  EXPECT_EQ(back, got);
  // Errors: mismatched formats, overlap within one image, out-of-range regions and buffers.
  const cl_image_format g{CL_RGBA, CL_UNSIGNED_INT32};
  cl_mem c = clCreateImage(env.context, 0, &g, &d, nullptr, &err);
  EXPECT_EQ(clEnqueueCopyImage(env.queue, a, c, zero, zero, r, 0, nullptr, nullptr),
            CL_IMAGE_FORMAT_MISMATCH);
  const size_t near[3] = {5, 2, 0};
  EXPECT_EQ(clEnqueueCopyImage(env.queue, a, a, zero, near, r, 0, nullptr, nullptr),
            CL_MEM_COPY_OVERLAP);
  const size_t far[3] = {12, 0, 0};
  EXPECT_EQ(clEnqueueCopyImage(env.queue, a, a, zero, far, r, 0, nullptr, nullptr), CL_SUCCESS);
  const size_t wide[3] = {w + 1, 1, 1};
  EXPECT_EQ(clEnqueueCopyImage(env.queue, a, b, zero, zero, wide, 0, nullptr, nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueCopyImage(env.queue, a, buf, zero, zero, r, 0, nullptr, nullptr),
            CL_INVALID_MEM_OBJECT);
  EXPECT_EQ(clEnqueueCopyImageToBuffer(env.queue, a, buf, zero, r, 65, 0, nullptr, nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueCopyImageToBuffer(env.queue, a, c, zero, r, 0, 0, nullptr, nullptr),
            CL_INVALID_MEM_OBJECT);
  EXPECT_EQ(clEnqueueCopyBufferToImage(env.queue, buf, buf, 0, zero, r, 0, nullptr, nullptr),
            CL_INVALID_MEM_OBJECT);
  EXPECT_EQ(clEnqueueCopyBufferToImage(nullptr, buf, a, 0, zero, r, 0, nullptr, nullptr),
            CL_INVALID_COMMAND_QUEUE);
  for (cl_mem m : {a, b, c, buf}) clReleaseMemObject(m);
}
