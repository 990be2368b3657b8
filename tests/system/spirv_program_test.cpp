// SPIR-V programs through the ICD loader (issue 32): clCreateProgramWithIL with modules clang
// 22 made from tests/system/spirv/kernels.cl, whose results must equal the same kernels built
// from the source; what the device reports for IL; specialization constants; arg info; and
// malformed modules, which fail with an error code or a build log, never a crash.
#include "cl_helpers.h"

#include <CL/cl_ext.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

using amcl_test::Env;

namespace {

std::vector<uint8_t> read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

std::vector<uint8_t> kernels_spv() {
  return read_file(AMCL_SPIRV_TEST_DIR "/kernels.spv");
}
std::string kernels_cl() {
  auto b = read_file(AMCL_SPIRV_SOURCE_DIR "/kernels.cl");
  return {b.begin(), b.end()};
}

std::string build_log(cl_program p, cl_device_id d) {
  size_t n = 0;
  clGetProgramBuildInfo(p, d, CL_PROGRAM_BUILD_LOG, 0, nullptr, &n);
  std::string log(n, '\0');
  clGetProgramBuildInfo(p, d, CL_PROGRAM_BUILD_LOG, n, log.data(), nullptr);
  return log;
}

// Word `index` of a module, and the module with word `index` set to `value`.
uint32_t word(const std::vector<uint8_t>& m, size_t index) {
  uint32_t w;
  std::memcpy(&w, m.data() + 4 * index, 4);
  return w;
}
void set_word(std::vector<uint8_t>& m, size_t index, uint32_t value) {
  std::memcpy(m.data() + 4 * index, &value, 4);
}

// The module with `OpConstant %int 12345` made specialization constant 7 (OpSpecConstant and
// an OpDecorate SpecId placed before the first type declaration).
std::vector<uint8_t> with_spec_constant(std::vector<uint8_t> m) {
  size_t constant = 0, first_type = 0;
  for (size_t at = 5; at < m.size() / 4;) {
    const uint32_t w = word(m, at), op = w & 0xffff, count = w >> 16;
    if (count == 0) break;
    if (!first_type && op >= 19 && op <= 39) first_type = at; // OpTypeVoid .. OpTypeForwardPointer
    if (op == 43 && count == 4 && word(m, at + 3) == 12345) constant = at;
    at += count;
  }
  if (!constant || !first_type) return {};
  const uint32_t id = word(m, constant + 2);
  set_word(m, constant, (4u << 16) | 50); // OpSpecConstant
  const uint32_t decorate[] = {(4u << 16) | 71, id, 1 /* SpecId */, 7};
  m.insert(m.begin() + 4 * first_type, reinterpret_cast<const uint8_t*>(decorate),
           reinterpret_cast<const uint8_t*>(decorate) + sizeof decorate);
  return m;
}

class SpirvProgram : public testing::Test {
protected:
  Env env;
  void SetUp() override {
    ASSERT_TRUE(env.device);
    spv_ = kernels_spv();
    ASSERT_GT(spv_.size(), 20u) << "no " AMCL_SPIRV_TEST_DIR "/kernels.spv";
  }
  cl_program from_il(const std::vector<uint8_t>& m, cl_int* err = nullptr) {
    cl_int e = CL_SUCCESS;
    cl_program p = clCreateProgramWithIL(env.context, m.data(), m.size(), &e);
    if (err) *err = e;
    return p;
  }
  cl_program built_il(const std::vector<uint8_t>& m, const char* options = "") {
    cl_program p = from_il(m);
    EXPECT_TRUE(p);
    if (!p) return nullptr;
    const cl_int err = clBuildProgram(p, 1, &env.device, options, nullptr, nullptr);
    EXPECT_EQ(err, CL_SUCCESS) << build_log(p, env.device);
    if (err != CL_SUCCESS) return clReleaseProgram(p), nullptr;
    return p;
  }
  // Runs kernel `name` of `p` over `items` work-items (groups of 16, or one item) with buffers
  // `bufs` as its arguments, their contents in and out.
  void run(cl_program p, const char* name, std::vector<std::vector<uint8_t>*> bufs, size_t items) {
    cl_int err;
    cl_kernel k = clCreateKernel(p, name, &err);
    ASSERT_EQ(err, CL_SUCCESS) << name;
    std::vector<cl_mem> mems;
    cl_uint arg = 0;
    for (auto* b : bufs) {
      mems.push_back(env.buffer(b->size(), b->data()));
      clSetKernelArg(k, arg++, sizeof(cl_mem), &mems.back());
    }
    const size_t local = items < 16 ? items : 16;
    ASSERT_EQ(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, &items, &local, 0, nullptr, nullptr),
              CL_SUCCESS);
    for (size_t i = 0; i < bufs.size(); ++i)
      clEnqueueReadBuffer(env.queue, mems[i], CL_TRUE, 0, bufs[i]->size(), bufs[i]->data(), 0,
                          nullptr, nullptr);
    for (cl_mem m : mems) clReleaseMemObject(m);
    clReleaseKernel(k);
  }
  std::vector<uint8_t> spv_;
};

template <class T> std::vector<uint8_t> bytes_of(const std::vector<T>& v) {
  std::vector<uint8_t> b(v.size() * sizeof(T));
  std::memcpy(b.data(), v.data(), b.size());
  return b;
}

TEST_F(SpirvProgram, DeviceAndPlatformReportSpirv15) {
  const std::string il = amcl_test::device_string(env.device, CL_DEVICE_IL_VERSION);
  EXPECT_EQ(il, "SPIR-V_1.0 SPIR-V_1.1 SPIR-V_1.2 SPIR-V_1.3 SPIR-V_1.4 SPIR-V_1.5");
  auto ils = amcl_test::device_list<cl_name_version>(env.device, CL_DEVICE_ILS_WITH_VERSION);
  ASSERT_EQ(ils.size(), 6u);
  EXPECT_STREQ(ils[5].name, "SPIR-V");
  EXPECT_EQ(ils[5].version, CL_MAKE_VERSION(1, 5, 0));
  EXPECT_NE(amcl_test::device_string(env.device, CL_DEVICE_EXTENSIONS).find("cl_khr_il_program"),
            std::string::npos);
  EXPECT_NE(
      amcl_test::platform_string(env.platform, CL_PLATFORM_EXTENSIONS).find("cl_khr_il_program"),
      std::string::npos);
  auto khr = reinterpret_cast<clCreateProgramWithILKHR_fn>(
      clGetExtensionFunctionAddressForPlatform(env.platform, "clCreateProgramWithILKHR"));
  ASSERT_TRUE(khr);
  cl_int err;
  cl_program p = khr(env.context, spv_.data(), spv_.size(), &err);
  ASSERT_EQ(err, CL_SUCCESS);
  clReleaseProgram(p);
}

TEST_F(SpirvProgram, ResultsEqualTheSameKernelsBuiltFromSource) {
  const std::string src = kernels_cl();
  cl_program from_source = env.program(src.c_str(), "-cl-std=CL3.0");
  cl_program from_spirv = built_il(spv_);
  ASSERT_TRUE(from_source && from_spirv);
  const size_t items = 64;
  std::vector<float> consts(8);
  for (size_t i = 0; i < consts.size(); ++i) consts[i] = 0.37f * float(i) + 1.25f;
  std::vector<float> va(items * 4), vb(items * 4);
  for (size_t i = 0; i < va.size(); ++i) va[i] = float(i) * 0.5f - 7, vb[i] = float(i % 13) + 0.25f;
  std::vector<std::vector<uint8_t>> results[2];
  cl_program programs[2] = {from_source, from_spirv};
  for (int which = 0; which < 2; ++which) {
    auto& r = results[which];
    std::vector<uint8_t> out(items * 4, 0), c = bytes_of(consts);
    const int n = 1000;
    // mix takes (out, tmp, c, n): local memory and a scalar beside the buffers.
    cl_int err;
    cl_kernel k = clCreateKernel(programs[which], "mix", &err);
    ASSERT_EQ(err, CL_SUCCESS);
    cl_mem dout = env.buffer(out.size()), dc = env.buffer(c.size(), c.data());
    clSetKernelArg(k, 0, sizeof dout, &dout);
    clSetKernelArg(k, 1, 16 * sizeof(int), nullptr);
    clSetKernelArg(k, 2, sizeof dc, &dc);
    clSetKernelArg(k, 3, sizeof n, &n);
    const size_t local = 16;
    ASSERT_EQ(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, &items, &local, 0, nullptr, nullptr),
              CL_SUCCESS);
    clEnqueueReadBuffer(env.queue, dout, CL_TRUE, 0, out.size(), out.data(), 0, nullptr, nullptr);
    clReleaseMemObject(dout), clReleaseMemObject(dc), clReleaseKernel(k);
    r.push_back(out);

    std::vector<uint8_t> acc(8, 0), mx(4, 0);
    run(programs[which], "atomics", {&acc, &mx}, items);
    std::vector<uint8_t> counter(4, 0);
    run(programs[which], "read_counter", {&counter}, 1);
    r.insert(r.end(), {acc, mx, counter});

    std::vector<uint8_t> a = bytes_of(va), b = bytes_of(vb);
    run(programs[which], "vec", {&a, &b}, items);
    r.push_back(a);

    // Scattered quotients: an exact division and a 2.5-ulp one differ on some of them.
    std::vector<float> num(items * 4), den(items * 4);
    for (size_t i = 0; i < num.size(); ++i)
      num[i] = float((i * 2654435761u) % 100003) / 37.0f,
      den[i] = float((i * 40503u) % 997 + 1) / 13.0f;
    a = bytes_of(num), b = bytes_of(den);
    run(programs[which], "divide", {&a, &b}, items * 4);
    r.push_back(a);
  }
  ASSERT_EQ(results[0].size(), results[1].size());
  const char* names[] = {"mix", "atomics acc", "atomics max", "counter", "vec", "divide"};
  for (size_t i = 0; i < results[0].size(); ++i)
    EXPECT_EQ(results[0][i], results[1][i]) << names[i];
  // The atomics' values themselves: 64 adds of 1, 64 of 2, the largest id, 5 + 64.
  int acc[2], counter;
  std::memcpy(acc, results[1][1].data(), 8);
  std::memcpy(&counter, results[1][3].data(), 4);
  EXPECT_EQ(acc[0], 64);
  EXPECT_EQ(acc[1], 128);
  EXPECT_EQ(counter, 5 + 64);
  clReleaseProgram(from_source), clReleaseProgram(from_spirv);
}

TEST_F(SpirvProgram, ProgramIlIsTheModule) {
  cl_program p = from_il(spv_);
  ASSERT_TRUE(p);
  size_t n = 0;
  ASSERT_EQ(clGetProgramInfo(p, CL_PROGRAM_IL, 0, nullptr, &n), CL_SUCCESS);
  std::vector<uint8_t> il(n);
  ASSERT_EQ(clGetProgramInfo(p, CL_PROGRAM_IL, n, il.data(), nullptr), CL_SUCCESS);
  EXPECT_EQ(il, spv_);
  clReleaseProgram(p);
}

TEST_F(SpirvProgram, KernelArgInfoNamesAddressSpaces) {
  cl_program p = built_il(spv_, "-cl-kernel-arg-info");
  ASSERT_TRUE(p);
  cl_kernel k = clCreateKernel(p, "mix", nullptr);
  ASSERT_TRUE(k);
  const cl_kernel_arg_address_qualifier want[] = {
      CL_KERNEL_ARG_ADDRESS_GLOBAL, CL_KERNEL_ARG_ADDRESS_LOCAL, CL_KERNEL_ARG_ADDRESS_CONSTANT,
      CL_KERNEL_ARG_ADDRESS_PRIVATE};
  for (cl_uint i = 0; i < 4; ++i) {
    cl_kernel_arg_address_qualifier q = 0;
    ASSERT_EQ(clGetKernelArgInfo(k, i, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof q, &q, nullptr),
              CL_SUCCESS);
    EXPECT_EQ(q, want[i]) << "argument " << i;
  }
  char type[64] = "";
  ASSERT_EQ(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_TYPE_NAME, sizeof type, type, nullptr),
            CL_SUCCESS);
  EXPECT_STREQ(type, "int*");
  cl_uint args = 0;
  clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof args, &args, nullptr);
  EXPECT_EQ(args, 4u);
  clReleaseKernel(k), clReleaseProgram(p);
}

TEST_F(SpirvProgram, SpecializationConstantsTakeTheirValueAtBuild) {
  const std::vector<uint8_t> m = with_spec_constant(spv_);
  ASSERT_FALSE(m.empty()) << "no OpConstant 12345 in the module";
  cl_program p = from_il(m);
  ASSERT_TRUE(p);
  const int value = 100;
  EXPECT_EQ(clSetProgramSpecializationConstant(p, 8, sizeof value, &value), CL_INVALID_SPEC_ID);
  EXPECT_EQ(clSetProgramSpecializationConstant(p, 7, 2, &value), CL_INVALID_VALUE);
  EXPECT_EQ(clSetProgramSpecializationConstant(p, 7, sizeof value, nullptr), CL_INVALID_VALUE);
  ASSERT_EQ(clBuildProgram(p, 1, &env.device, "", nullptr, nullptr), CL_SUCCESS)
      << build_log(p, env.device);
  std::vector<uint8_t> out(16 * 4);
  run(p, "spec", {&out}, 16);
  int first[2];
  std::memcpy(first, out.data() + 4, 8);
  EXPECT_EQ(first[0], 12345 + 1) << "the default value";
  ASSERT_EQ(clSetProgramSpecializationConstant(p, 7, sizeof value, &value), CL_SUCCESS);
  ASSERT_EQ(clBuildProgram(p, 1, &env.device, "", nullptr, nullptr), CL_SUCCESS)
      << build_log(p, env.device);
  run(p, "spec", {&out}, 16);
  std::memcpy(first, out.data() + 4, 8);
  EXPECT_EQ(first[0], value + 1);
  EXPECT_EQ(first[1], value + 2);
  clReleaseProgram(p);
  // Only programs made from IL have specialization constants.
  cl_program source = env.program("kernel void f() {}");
  ASSERT_TRUE(source);
  EXPECT_EQ(clSetProgramSpecializationConstant(source, 7, sizeof value, &value),
            CL_INVALID_PROGRAM);
  clReleaseProgram(source);
}

TEST_F(SpirvProgram, CompileAndLinkAnIlProgram) {
  cl_program p = from_il(spv_);
  ASSERT_TRUE(p);
  ASSERT_EQ(clCompileProgram(p, 1, &env.device, "", 0, nullptr, nullptr, nullptr, nullptr),
            CL_SUCCESS)
      << build_log(p, env.device);
  cl_int err;
  cl_program linked = clLinkProgram(env.context, 1, &env.device, "", 1, &p, nullptr, nullptr, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  std::vector<uint8_t> counter(4, 0);
  run(linked, "read_counter", {&counter}, 1);
  int c;
  std::memcpy(&c, counter.data(), 4);
  EXPECT_EQ(c, 5);
  clReleaseProgram(linked), clReleaseProgram(p);
}

TEST_F(SpirvProgram, BadHeadersAreInvalidValue) {
  cl_int err = CL_SUCCESS;
  EXPECT_FALSE(clCreateProgramWithIL(env.context, nullptr, 20, &err));
  EXPECT_EQ(err, CL_INVALID_VALUE);
  EXPECT_FALSE(clCreateProgramWithIL(env.context, spv_.data(), 0, &err));
  EXPECT_EQ(err, CL_INVALID_VALUE);
  std::vector<uint8_t> bad = spv_;
  bad[0] ^= 0xff; // magic
  EXPECT_FALSE(from_il(bad, &err));
  EXPECT_EQ(err, CL_INVALID_VALUE);
  EXPECT_FALSE(from_il({spv_.begin(), spv_.begin() + 21}, &err)); // not whole words
  EXPECT_EQ(err, CL_INVALID_VALUE);
  EXPECT_FALSE(from_il({spv_.begin(), spv_.begin() + 12}, &err)); // shorter than the header
  EXPECT_EQ(err, CL_INVALID_VALUE);
  bad = spv_;
  set_word(bad, 1, 0x00010600); // SPIR-V 1.6
  EXPECT_FALSE(from_il(bad, &err));
  EXPECT_EQ(err, CL_INVALID_VALUE);
  EXPECT_FALSE(clCreateProgramWithIL(nullptr, spv_.data(), spv_.size(), &err));
  EXPECT_EQ(err, CL_INVALID_CONTEXT);
}

TEST_F(SpirvProgram, MalformedModulesFailTheBuildWithALog) {
  std::vector<std::vector<uint8_t>> modules;
  modules.emplace_back(spv_.begin(), spv_.begin() + (spv_.size() / 8) * 4); // truncated
  std::vector<uint8_t> zero_count = spv_;
  set_word(zero_count, 5, word(zero_count, 5) & 0xffff); // first instruction: word count 0
  modules.push_back(zero_count);
  std::vector<uint8_t> long_count = spv_;
  set_word(long_count, 5, word(long_count, 5) | 0xffff0000u); // past the end
  modules.push_back(long_count);
  std::vector<uint8_t> garbage = spv_;
  for (size_t i = 40; i < garbage.size(); i += 7) garbage[i] ^= 0x5a;
  modules.push_back(garbage);
  for (size_t i = 0; i < modules.size(); ++i) {
    cl_int err;
    cl_program p = from_il(modules[i], &err);
    ASSERT_EQ(err, CL_SUCCESS) << i;
    const cl_int built = clBuildProgram(p, 1, &env.device, "", nullptr, nullptr);
    if (i < 3) {
      EXPECT_EQ(built, CL_BUILD_PROGRAM_FAILURE) << i;
      EXPECT_FALSE(build_log(p, env.device).empty()) << i;
    } else {
      // Flipped bits may still make a module the translator takes; never a crash.
      EXPECT_TRUE(built == CL_SUCCESS || built == CL_BUILD_PROGRAM_FAILURE) << i << ": " << built;
    }
    cl_build_status status;
    clGetProgramBuildInfo(p, env.device, CL_PROGRAM_BUILD_STATUS, sizeof status, &status, nullptr);
    EXPECT_EQ(status, built == CL_SUCCESS ? CL_BUILD_SUCCESS : CL_BUILD_ERROR) << i;
    clReleaseProgram(p);
  }
}

TEST_F(SpirvProgram, ABackEndErrorFailsTheBuildNotTheProcess) {
  const auto m = read_file(AMCL_SPIRV_TEST_DIR "/printf_format_argument.spv");
  ASSERT_GT(m.size(), 20u);
  cl_program p = from_il(m);
  ASSERT_TRUE(p);
  EXPECT_EQ(clBuildProgram(p, 1, &env.device, "", nullptr, nullptr), CL_BUILD_PROGRAM_FAILURE);
  EXPECT_NE(build_log(p, env.device).find("printf format string"), std::string::npos)
      << build_log(p, env.device);
  clReleaseProgram(p);
  // The process goes on building.
  cl_program again = built_il(spv_);
  EXPECT_TRUE(again);
  if (again) clReleaseProgram(again);
}

} // namespace

// Images in a SPIR-V module: the translator's image handles (address space 1 in its LLVM 15
// output) reach amcl's image builtins, whose ABI is OpenCL C's; samplers in program scope and as
// arguments; sampler-less reads of an integer format.
TEST_F(SpirvProgram, ImageKernelsReadSampleAndWrite) {
  cl_program p = built_il(read_file(AMCL_SPIRV_TEST_DIR "/images.spv"));
  ASSERT_TRUE(p);
  constexpr size_t w = 8, h = 4;
  std::vector<float> texels(w * h * 4);
  for (size_t i = 0; i < texels.size(); ++i) texels[i] = float(i);
  const cl_image_format rgba_float{CL_RGBA, CL_FLOAT};
  cl_image_desc desc{};
  desc.image_type = CL_MEM_OBJECT_IMAGE2D, desc.image_width = w, desc.image_height = h;
  cl_int err;
  cl_mem src = clCreateImage(env.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &rgba_float,
                             &desc, texels.data(), &err);
  ASSERT_EQ(err, CL_SUCCESS);
  cl_mem dst = clCreateImage(env.context, CL_MEM_WRITE_ONLY, &rgba_float, &desc, nullptr, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  cl_kernel scale = clCreateKernel(p, "scale_image", &err);
  ASSERT_EQ(err, CL_SUCCESS);
  clSetKernelArg(scale, 0, sizeof src, &src);
  clSetKernelArg(scale, 1, sizeof dst, &dst);
  const size_t grid[2] = {w, h}, origin[3] = {0, 0, 0}, region[3] = {w, h, 1};
  ASSERT_EQ(
      clEnqueueNDRangeKernel(env.queue, scale, 2, nullptr, grid, nullptr, 0, nullptr, nullptr),
      CL_SUCCESS);
  std::vector<float> out(texels.size());
  ASSERT_EQ(clEnqueueReadImage(env.queue, dst, CL_TRUE, origin, region, 0, 0, out.data(), 0,
                               nullptr, nullptr),
            CL_SUCCESS);
  for (size_t i = 0; i < out.size(); ++i) {
    const float add = i % 4 == 0 ? float(w) : i % 4 == 1 ? float(h) : 0.0f;
    ASSERT_EQ(out[i], texels[i] * 2 + add) << "component " << i;
  }

  cl_sampler s =
      clCreateSampler(env.context, CL_FALSE, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_NEAREST, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  cl_mem row = env.buffer(w * 16, nullptr);
  cl_kernel sample = clCreateKernel(p, "sample_row", &err);
  ASSERT_EQ(err, CL_SUCCESS);
  clSetKernelArg(sample, 0, sizeof src, &src);
  clSetKernelArg(sample, 1, sizeof s, &s);
  clSetKernelArg(sample, 2, sizeof row, &row);
  ASSERT_EQ(clEnqueueNDRangeKernel(env.queue, sample, 1, nullptr, &w, nullptr, 0, nullptr, nullptr),
            CL_SUCCESS);
  std::vector<float> sampled(w * 4);
  ASSERT_EQ(
      clEnqueueReadBuffer(env.queue, row, CL_TRUE, 0, w * 16, sampled.data(), 0, nullptr, nullptr),
      CL_SUCCESS);
  for (size_t i = 0; i < sampled.size(); ++i) ASSERT_EQ(sampled[i], texels[w * 4 + i]) << i;

  const cl_image_format rgba_uint{CL_RGBA, CL_UNSIGNED_INT8};
  const uint8_t bytes[w * 4] = {1, 2, 3, 4, 250, 251, 252, 253, 9, 8, 7, 6};
  cl_image_desc line{};
  line.image_type = CL_MEM_OBJECT_IMAGE2D, line.image_width = w, line.image_height = 1;
  cl_mem u8 = clCreateImage(env.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &rgba_uint, &line,
                            const_cast<uint8_t*>(bytes), &err);
  ASSERT_EQ(err, CL_SUCCESS);
  cl_mem words = env.buffer(w * 16, nullptr);
  cl_kernel read_uint = clCreateKernel(p, "read_uint", &err);
  ASSERT_EQ(err, CL_SUCCESS);
  clSetKernelArg(read_uint, 0, sizeof u8, &u8);
  clSetKernelArg(read_uint, 1, sizeof words, &words);
  ASSERT_EQ(
      clEnqueueNDRangeKernel(env.queue, read_uint, 1, nullptr, &w, nullptr, 0, nullptr, nullptr),
      CL_SUCCESS);
  std::vector<uint32_t> got(w * 4);
  ASSERT_EQ(
      clEnqueueReadBuffer(env.queue, words, CL_TRUE, 0, w * 16, got.data(), 0, nullptr, nullptr),
      CL_SUCCESS);
  for (size_t i = 0; i < got.size(); ++i) ASSERT_EQ(got[i], bytes[i]) << i;

  for (cl_kernel k : {scale, sample, read_uint}) clReleaseKernel(k);
  for (cl_mem m : {src, dst, row, u8, words}) clReleaseMemObject(m);
  clReleaseSampler(s);
  clReleaseProgram(p);
}
