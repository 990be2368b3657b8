// Sampler objects and image and sampler kernel arguments through the ICD loader: creation with
// and without properties, every error, clGetSamplerInfo, reference counts, and clSetKernelArg /
// clGetKernelArgInfo for image and sampler arguments. Runs on gfx1100 and gfx1201.
#include "cl_helpers.h"

#include <cstring>
#include <vector>

using namespace amcl_test;

TEST(Sampler, CreateAndQuery) {
  Env env;
  ASSERT_NE(env.context, nullptr);
  cl_int err = 1;
  cl_sampler s = clCreateSampler(env.context, CL_FALSE, CL_ADDRESS_REPEAT, CL_FILTER_LINEAR, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  auto info = [&](cl_sampler x, cl_sampler_info p) {
    return info_value<cl_uint>(clGetSamplerInfo, x, p);
  };
  EXPECT_EQ(info(s, CL_SAMPLER_NORMALIZED_COORDS), cl_uint(CL_FALSE));
  EXPECT_EQ(info(s, CL_SAMPLER_ADDRESSING_MODE), cl_uint(CL_ADDRESS_REPEAT));
  EXPECT_EQ(info(s, CL_SAMPLER_FILTER_MODE), cl_uint(CL_FILTER_LINEAR));
  EXPECT_EQ(info(s, CL_SAMPLER_REFERENCE_COUNT), 1u);
  EXPECT_EQ(info_value<cl_context>(clGetSamplerInfo, s, CL_SAMPLER_CONTEXT), env.context);
  size_t n = 99;
  EXPECT_EQ(clGetSamplerInfo(s, CL_SAMPLER_PROPERTIES, 0, nullptr, &n), CL_SUCCESS);
  EXPECT_EQ(n, 0u); // not made from a property list
  EXPECT_EQ(clRetainSampler(s), CL_SUCCESS);
  EXPECT_EQ(info(s, CL_SAMPLER_REFERENCE_COUNT), 2u);
  EXPECT_EQ(clReleaseSampler(s), CL_SUCCESS);
  EXPECT_EQ(clReleaseSampler(s), CL_SUCCESS);

  const cl_sampler_properties props[] = {CL_SAMPLER_FILTER_MODE, CL_FILTER_LINEAR,
                                         CL_SAMPLER_ADDRESSING_MODE, CL_ADDRESS_CLAMP_TO_EDGE, 0};
  cl_sampler p = clCreateSamplerWithProperties(env.context, props, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  EXPECT_EQ(info(p, CL_SAMPLER_NORMALIZED_COORDS), cl_uint(CL_TRUE)); // the default
  EXPECT_EQ(info(p, CL_SAMPLER_ADDRESSING_MODE), cl_uint(CL_ADDRESS_CLAMP_TO_EDGE));
  EXPECT_EQ(info(p, CL_SAMPLER_FILTER_MODE), cl_uint(CL_FILTER_LINEAR));
  const std::vector<char> got = info_bytes(clGetSamplerInfo, p, CL_SAMPLER_PROPERTIES);
  ASSERT_EQ(got.size(), sizeof props);
  EXPECT_EQ(std::memcmp(got.data(), props, sizeof props), 0);
  EXPECT_EQ(clGetSamplerInfo(p, 0x7777, sizeof n, &n, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clGetSamplerInfo(p, CL_SAMPLER_FILTER_MODE, 1, &n, nullptr), CL_INVALID_VALUE);
  clReleaseSampler(p);
  // No properties at all: the defaults (normalized, clamp, nearest).
  cl_sampler d = clCreateSamplerWithProperties(env.context, nullptr, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  EXPECT_EQ(info(d, CL_SAMPLER_ADDRESSING_MODE), cl_uint(CL_ADDRESS_CLAMP));
  EXPECT_EQ(info(d, CL_SAMPLER_FILTER_MODE), cl_uint(CL_FILTER_NEAREST));
  clReleaseSampler(d);
}

TEST(Sampler, Errors) {
  Env env;
  ASSERT_NE(env.context, nullptr);
  cl_int err = 1;
  EXPECT_EQ(clCreateSampler(nullptr, CL_TRUE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_CONTEXT);
  EXPECT_EQ(clCreateSampler(env.context, 7, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_VALUE);
  EXPECT_EQ(clCreateSampler(env.context, CL_TRUE, 0x7777, CL_FILTER_NEAREST, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_VALUE);
  EXPECT_EQ(clCreateSampler(env.context, CL_TRUE, CL_ADDRESS_CLAMP, 0x7777, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_VALUE);
  const cl_sampler_properties unknown[] = {0x7777, 1, 0};
  EXPECT_EQ(clCreateSamplerWithProperties(env.context, unknown, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_VALUE);
  const cl_sampler_properties twice[] = {CL_SAMPLER_FILTER_MODE, CL_FILTER_LINEAR,
                                         CL_SAMPLER_FILTER_MODE, CL_FILTER_NEAREST, 0};
  EXPECT_EQ(clCreateSamplerWithProperties(env.context, twice, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_VALUE);
  // Mip-map properties (cl_khr_mipmap_image) are not offered.
  const cl_sampler_properties mip[] = {CL_SAMPLER_MIP_FILTER_MODE, CL_FILTER_LINEAR, 0};
  EXPECT_EQ(clCreateSamplerWithProperties(env.context, mip, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_VALUE);
  const cl_sampler_properties bad_value[] = {CL_SAMPLER_ADDRESSING_MODE, 0x7777, 0};
  EXPECT_EQ(clCreateSamplerWithProperties(env.context, bad_value, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_VALUE);
  EXPECT_EQ(clCreateSamplerWithProperties(nullptr, nullptr, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_CONTEXT);
  size_t v = 0;
  EXPECT_EQ(clRetainSampler(nullptr), CL_INVALID_SAMPLER);
  EXPECT_EQ(clReleaseSampler(nullptr), CL_INVALID_SAMPLER);
  EXPECT_EQ(clGetSamplerInfo(nullptr, CL_SAMPLER_REFERENCE_COUNT, sizeof v, &v, nullptr),
            CL_INVALID_SAMPLER);
  // Another object's handle is not a sampler.
  cl_sampler not_sampler = reinterpret_cast<cl_sampler>(env.context);
  EXPECT_EQ(clGetSamplerInfo(not_sampler, CL_SAMPLER_REFERENCE_COUNT, sizeof v, &v, nullptr),
            CL_INVALID_SAMPLER);
}

namespace {

const char* kImageKernel = R"(
__kernel void k(read_only image2d_t src, write_only image3d_t dst, sampler_t s,
                read_write image1d_buffer_t rw, __global int* out) {
  out[0] = 1;
}
)";

} // namespace

TEST(Sampler, ImageAndSamplerKernelArguments) {
  Env env;
  ASSERT_NE(env.context, nullptr);
  cl_program p = env.program(kImageKernel, "-cl-std=CL3.0 -cl-kernel-arg-info");
  ASSERT_NE(p, nullptr);
  cl_int err = 1;
  cl_kernel k = clCreateKernel(p, "k", &err);
  ASSERT_EQ(err, CL_SUCCESS);
  const cl_image_format f{CL_RGBA, CL_FLOAT};
  cl_image_desc d2{}, d3{}, db{};
  d2.image_type = CL_MEM_OBJECT_IMAGE2D;
  d2.image_width = d2.image_height = 4;
  d3 = d2;
  d3.image_type = CL_MEM_OBJECT_IMAGE3D;
  d3.image_depth = 2;
  cl_mem buffer = env.buffer(4 * 16);
  db.image_type = CL_MEM_OBJECT_IMAGE1D_BUFFER;
  db.image_width = 4;
  db.buffer = buffer;
  cl_mem i2 = clCreateImage(env.context, CL_MEM_READ_ONLY, &f, &d2, nullptr, &err);
  cl_mem i3 = clCreateImage(env.context, CL_MEM_WRITE_ONLY, &f, &d3, nullptr, &err);
  cl_mem ib = clCreateImage(env.context, CL_MEM_READ_WRITE, &f, &db, nullptr, &err);
  cl_sampler s = clCreateSampler(env.context, CL_TRUE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  // Images where images go, of their declared type; samplers where samplers go.
  EXPECT_EQ(clSetKernelArg(k, 0, sizeof i3, &i3), CL_INVALID_MEM_OBJECT);
  EXPECT_EQ(clSetKernelArg(k, 0, sizeof buffer, &buffer), CL_INVALID_MEM_OBJECT);
  EXPECT_EQ(clSetKernelArg(k, 0, sizeof(cl_mem), nullptr), CL_INVALID_MEM_OBJECT);
  EXPECT_EQ(clSetKernelArg(k, 0, 4, &i2), CL_INVALID_ARG_SIZE);
  EXPECT_EQ(clSetKernelArg(k, 0, sizeof i2, &i2), CL_SUCCESS);
  EXPECT_EQ(clSetKernelArg(k, 1, sizeof i3, &i3), CL_SUCCESS);
  EXPECT_EQ(clSetKernelArg(k, 2, sizeof i2, &i2), CL_INVALID_SAMPLER);
  EXPECT_EQ(clSetKernelArg(k, 2, sizeof(cl_sampler), nullptr), CL_INVALID_SAMPLER);
  EXPECT_EQ(clSetKernelArg(k, 2, sizeof s, &s), CL_SUCCESS);
  EXPECT_EQ(clSetKernelArg(k, 3, sizeof i2, &i2), CL_INVALID_MEM_OBJECT);
  EXPECT_EQ(clSetKernelArg(k, 3, sizeof ib, &ib), CL_SUCCESS);
  EXPECT_EQ(clSetKernelArg(k, 4, sizeof i2, &i2), CL_INVALID_MEM_OBJECT); // a buffer argument
  EXPECT_EQ(clSetKernelArg(k, 4, sizeof buffer, &buffer), CL_SUCCESS);
  // The launch holds its images and sampler until it has run.
  size_t one = 1;
  ASSERT_EQ(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, &one, nullptr, 0, nullptr, nullptr),
            CL_SUCCESS);
  clReleaseSampler(s);
  clReleaseMemObject(i2);
  ASSERT_EQ(clFinish(env.queue), CL_SUCCESS);
  int out = 0;
  ASSERT_EQ(clEnqueueReadBuffer(env.queue, buffer, CL_TRUE, 0, 4, &out, 0, nullptr, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(out, 1);
  // A released sampler or image argument is refused at the next launch.
  EXPECT_EQ(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, &one, nullptr, 0, nullptr, nullptr),
            CL_INVALID_KERNEL_ARGS);

  // clGetKernelArgInfo: images are global with their access qualifier, samplers private.
  struct Want {
    cl_kernel_arg_address_qualifier address;
    cl_kernel_arg_access_qualifier access;
    const char* type;
  };
  const Want want[] = {
      {CL_KERNEL_ARG_ADDRESS_GLOBAL, CL_KERNEL_ARG_ACCESS_READ_ONLY, "image2d_t"},
      {CL_KERNEL_ARG_ADDRESS_GLOBAL, CL_KERNEL_ARG_ACCESS_WRITE_ONLY, "image3d_t"},
      {CL_KERNEL_ARG_ADDRESS_PRIVATE, CL_KERNEL_ARG_ACCESS_NONE, "sampler_t"},
      {CL_KERNEL_ARG_ADDRESS_GLOBAL, CL_KERNEL_ARG_ACCESS_READ_WRITE, "image1d_buffer_t"}};
  for (cl_uint i = 0; i < 4; ++i) {
    cl_kernel_arg_address_qualifier a = 0;
    cl_kernel_arg_access_qualifier q = 0;
    ASSERT_EQ(clGetKernelArgInfo(k, i, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof a, &a, nullptr),
              CL_SUCCESS);
    ASSERT_EQ(clGetKernelArgInfo(k, i, CL_KERNEL_ARG_ACCESS_QUALIFIER, sizeof q, &q, nullptr),
              CL_SUCCESS);
    char type[64] = "";
    ASSERT_EQ(clGetKernelArgInfo(k, i, CL_KERNEL_ARG_TYPE_NAME, sizeof type, type, nullptr),
              CL_SUCCESS);
    EXPECT_EQ(a, want[i].address) << i;
    EXPECT_EQ(q, want[i].access) << i;
    EXPECT_STREQ(type, want[i].type) << i;
  }
  clReleaseKernel(k);
  clReleaseProgram(p);
  for (cl_mem m : {i3, ib, buffer}) clReleaseMemObject(m);
}
