// compiler/image_builtins.cl: OpenCL C image functions and samplers build for gfx11 and gfx12
// into the image instructions expected (read back by disassembling the kernel), the program-scope
// sampler table holds what am/hw/cl_sampler.h maps each value to, and __IMAGE_SUPPORT__ follows
// the device's __opencl_c_images feature.
#include "am/hw/cl_sampler.h"
#include "compiler/builtin_coverage.h"
#include "compiler/code_object.h"
#include "compiler/compiler.h"
#include "compiler/disassembler.h"
#include "compiler/image_abi.h"
#include "compiler/sampler_table.h"
#include "runtime/device_caps.h"

#include <gtest/gtest.h>

#include <cstring>

using namespace amcl::compiler;
namespace img = am::hw::image;

namespace {

const std::vector<std::string> kImageFeatures = {
    "__opencl_c_images", "__opencl_c_read_write_images", "__opencl_c_3d_image_writes"};
const std::vector<std::string> kImageExtensions = {"cl_khr_3d_image_writes", "cl_khr_fp16"};

BuildResult build_images(const std::string& source, const std::string& target,
                         const std::string& options = "-cl-std=CL3.0") {
  BuildRequest req{source, options, target};
  req.features = kImageFeatures;
  req.extensions = kImageExtensions;
  return build_uncached(req);
}

// The kernel's instructions as text, from its entry to s_endpgm.
std::vector<std::string> kernel_instructions(const std::vector<uint8_t>& binary,
                                             const std::string& kernel) {
  std::string err;
  auto co = read_code_object(binary, &err);
  EXPECT_TRUE(co) << err;
  if (!co) return {};
  std::vector<uint8_t> image(co->image_size);
  co->load(image.data(), 0);
  const KernelInfo* k = co->find(kernel);
  EXPECT_TRUE(k) << kernel;
  if (!k) return {};
  std::vector<std::string> out;
  uint64_t pc = k->descriptor_offset + uint64_t(k->entry_offset);
  while (pc + 4 <= image.size() && out.size() < 4096) {
    uint32_t words[4] = {};
    std::memcpy(words, image.data() + pc, std::min<size_t>(16, image.size() - pc));
    const auto d = disassemble_one(co->target, words);
    if (!d.valid) break;
    out.push_back(d.text);
    if (d.text == "s_endpgm") break;
    pc += d.size;
  }
  return out;
}

// `kernel` of `source` built with image support for `target`, as instructions; empty (and a
// failure) when the build fails.
std::vector<std::string> image_kernel_code(const std::string& source, const std::string& target,
                                           const std::string& kernel,
                                           const std::string& options = "-cl-std=CL3.0") {
  BuildResult r = build_images(source, target, options);
  EXPECT_TRUE(r.ok) << r.log;
  return r.ok ? kernel_instructions(r.binary, kernel) : std::vector<std::string>{};
}

size_t count_starting(const std::vector<std::string>& code, const std::string& prefix) {
  size_t n = 0;
  for (const auto& i : code) n += i.rfind(prefix, 0) == 0;
  return n;
}
bool has(const std::vector<std::string>& code, const std::string& text) {
  for (const auto& i : code)
    if (i.find(text) != std::string::npos) return true;
  return false;
}

// Whether an image instruction has exactly this dim (SQ_RSRC_IMG_1D is not 1D_ARRAY).
bool has_dim(const std::vector<std::string>& code, const std::string& dim) {
  const std::string key = "dim:" + dim;
  for (const auto& i : code) {
    const size_t at = i.find(key);
    if (at == std::string::npos) continue;
    const size_t end = at + key.size();
    if (end == i.size() || i[end] == ' ') return true;
  }
  return false;
}

class ImageBuiltins : public testing::TestWithParam<const char*> {};

TEST_P(ImageBuiltins, SamplerlessReadsAreImageLoadsAndWritesImageStores) {
  const char* src = R"(
kernel void copy(read_only image2d_t in, write_only image2d_t out) {
  int2 p = (int2)(get_global_id(0), get_global_id(1));
  write_imagef(out, p, read_imagef(in, p));
})";
  const auto code = image_kernel_code(src, GetParam(), "copy");
  EXPECT_EQ(count_starting(code, "image_load "), 1u);
  EXPECT_EQ(count_starting(code, "image_store "), 1u);
  EXPECT_TRUE(has(code, "dim:SQ_RSRC_IMG_2D")) << code.size();
  EXPECT_EQ(count_starting(code, "image_sample"), 0u);
  // The descriptors come from kernel arguments, uniform: scalar loads, no loop that gathers a
  // descriptor lane by lane (v_readfirstlane).
  EXPECT_GE(count_starting(code, "s_load_b256 "), 1u);
  EXPECT_EQ(count_starting(code, "v_readfirstlane"), 0u);
}

TEST_P(ImageBuiltins, SampledReadsAreImageSampleLz) {
  const char* src = R"(
kernel void sample(read_only image2d_t in, sampler_t s, global float4* out, float2 c) {
  out[0] = read_imagef(in, s, c);
  out[1] = read_imagef(in, s, (int2)(1, 2));
})";
  const auto code = image_kernel_code(src, GetParam(), "sample");
  EXPECT_EQ(count_starting(code, "image_sample_lz "), 2u);
  // Integer coordinates are unnormalized whatever the sampler says: the instruction's unorm bit.
  size_t unorm = 0;
  for (const auto& i : code)
    if (i.rfind("image_sample_lz ", 0) == 0 && i.find(" unorm") != std::string::npos) ++unorm;
  EXPECT_EQ(unorm, 1u);
}

TEST_P(ImageBuiltins, EveryImageTypeAndAccessBuilds) {
  const char* src = R"(
#ifndef __IMAGE_SUPPORT__
#error no __IMAGE_SUPPORT__
#endif
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
constant sampler_t ps = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_MIRRORED_REPEAT | CLK_FILTER_LINEAR;
kernel void all(read_only image1d_t a, write_only image1d_buffer_t b, read_write image1d_array_t c,
                read_only image2d_array_t d, read_write image3d_t e, write_only image3d_t f,
                read_write image1d_buffer_t g, sampler_t s, global float4* o, global int* q) {
  int i = get_global_id(0);
  o[0] = read_imagef(a, s, i) + read_imagef(a, ps, 0.5f) + read_imagef(a, i);
  write_imageui(b, i, (uint4)(1, 2, 3, 4));
  write_imagei(c, (int2)(i, 1), read_imagei(c, (int2)(i, 0)));
  o[1] = convert_float4(read_imagei(d, s, (float4)(0.5f, 0.5f, 1.0f, 0.0f)));
  o[2] = convert_float4(read_imageui(d, ps, (int4)(i, 0, 1, 0)));
  write_imageh(e, (int4)(i, 1, 2, 0), read_imageh(e, (int4)(i, 0, 0, 0)));
  write_imagef(f, (int4)(i, 0, 0, 0), o[3]);
  write_imagef(g, i, read_imagef(g, i + 1));
  q[0] = get_image_width(a) + get_image_width(b) + get_image_width(c) + get_image_height(d) +
         get_image_depth(e) + get_image_dim(e).y + get_image_dim(d).x + (int)get_image_array_size(c) +
         (int)get_image_array_size(d) + get_image_channel_order(f) + get_image_channel_data_type(g);
})";
  const auto code = image_kernel_code(src, GetParam(), "all");
  EXPECT_GE(count_starting(code, "image_load "), 4u);
  EXPECT_GE(count_starting(code, "image_store "), 5u);
  EXPECT_GE(count_starting(code, "image_sample_lz "), 4u);
  for (const char* dim : {"SQ_RSRC_IMG_1D", "SQ_RSRC_IMG_1D_ARRAY", "SQ_RSRC_IMG_2D",
                          "SQ_RSRC_IMG_2D_ARRAY", "SQ_RSRC_IMG_3D"})
    EXPECT_TRUE(has_dim(code, dim)) << dim;
}

TEST_P(ImageBuiltins, OpenCl12ProgramsUseImagesToo) {
  const char* src = R"(
const sampler_t s = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST;
kernel void k(read_only image2d_t in, global uint4* out) {
  out[0] = read_imageui(in, s, (int2)(0, 0)) + read_imageui(in, (int2)(1, 1));
})";
  const auto code = image_kernel_code(src, GetParam(), "k", "-cl-std=CL1.2");
  EXPECT_EQ(count_starting(code, "image_sample_lz "), 1u);
  EXPECT_EQ(count_starting(code, "image_load "), 1u);
}

INSTANTIATE_TEST_SUITE_P(Rdna, ImageBuiltins, testing::Values("gfx1100", "gfx1201"));

TEST(ImageBuiltins, KernelsWithoutImagesLinkNoImageCode) {
  BuildRequest req{"kernel void k(global int* p) { p[get_global_id(0)] = 1; }", "", "gfx1100"};
  req.features = kImageFeatures;
  BuildResult r = build_uncached(req);
  ASSERT_TRUE(r.ok) << r.log;
  const auto code = kernel_instructions(r.binary, "k");
  EXPECT_EQ(count_starting(code, "image_"), 0u);
  EXPECT_FALSE(code.empty());
}

TEST(ImageBuiltins, ImageSupportMacroFollowsTheImageFeature) {
  const char* src = R"(
#ifdef __IMAGE_SUPPORT__
#error images
#endif
kernel void k(global int* p) { *p = 1; })";
  BuildRequest without{src, "-cl-std=CL3.0", "gfx1100"};
  EXPECT_TRUE(build_uncached(without).ok);
  EXPECT_FALSE(build_images(src, "gfx1100").ok);
  // An OpenCL C 3.0 program cannot name image types on a device without the feature.
  BuildRequest typed{"kernel void k(read_only image2d_t i) {}", "-cl-std=CL3.0", "gfx1100"};
  EXPECT_FALSE(build_uncached(typed).ok);
}

// With image support, every image function OpenCL C declares for the device (every version
// amcl offers, the device's extensions and the image features) is defined.
TEST(ImageBuiltins, EveryDeclaredImageFunctionIsDefined) {
  for (const char* target : {"gfx1100", "gfx1201"}) {
    DeclarationRequest req;
    req.target = target;
    req.c_versions = amcl::rt::cl_std_values();
    req.extensions = amcl::rt::names(amcl::rt::device_extensions());
    req.extensions.push_back("cl_khr_3d_image_writes");
    req.features = amcl::rt::names(amcl::rt::opencl_c_features());
    req.features.insert(req.features.end(), kImageFeatures.begin(), kImageFeatures.end());
    req.images = true;
    const BuiltinDeclarations declared = declared_builtins(req);
    ASSERT_TRUE(declared.ok) << declared.log;
    std::vector<DeclaredBuiltin> image_functions;
    for (const DeclaredBuiltin& b : declared.functions)
      if (b.mangled.find("ocl_image") != std::string::npos ||
          b.mangled.find("ocl_sampler") != std::string::npos)
        image_functions.push_back(b);
    // Reads, writes and queries of 8 image types and 3 accesses: 262 overloads in clang 22.
    EXPECT_GE(image_functions.size(), 250u) << target;
    const BuiltinCoverage coverage = builtin_coverage(image_functions, target, false);
    ASSERT_TRUE(coverage.ok) << coverage.log;
    std::string missing;
    for (const DeclaredBuiltin& b : coverage.missing) missing += "  " + b.signature + "\n";
    EXPECT_TRUE(coverage.missing.empty())
        << target << ": " << coverage.missing.size() << " image functions undefined:\n"
        << missing;
  }
}

// The table's block i holds cl_sampler(i) packed for the generation, then i; invalid values
// are zero blocks.
TEST(SamplerTable, BlocksArePackedClSamplersPerGeneration) {
  for (const auto& [target, gen] :
       {std::pair{"gfx1100", img::Gen::gfx11}, std::pair{"gfx1201", img::Gen::gfx12}}) {
    const std::string src = sampler_table_source(target);
    const size_t open = src.find('{');
    ASSERT_NE(open, std::string::npos);
    std::vector<uint32_t> words;
    for (size_t p = open + 1; (p = src.find("0x", p)) != std::string::npos; p += 2)
      words.push_back(uint32_t(std::stoul(src.substr(p, 10), nullptr, 16)));
    constexpr unsigned kDwords = AMCL_SAMPLER_BLOCK_BYTES / 4;
    ASSERT_EQ(words.size(), 64u * kDwords) << target;
    for (uint32_t bits = 0; bits < 64; ++bits) {
      const uint32_t* block = &words[bits * kDwords];
      if (!img::valid_cl_sampler_bits(bits)) {
        for (unsigned i = 0; i < kDwords; ++i) EXPECT_EQ(block[i], 0u) << bits;
        continue;
      }
      const auto sharp = img::pack(gen, img::cl_sampler(bits));
      for (unsigned i = 0; i < 4; ++i) EXPECT_EQ(block[AMCL_SAMPLER_SSHARP + i], sharp[i]) << bits;
      EXPECT_EQ(block[AMCL_SAMPLER_BITS], bits);
    }
  }
}

} // namespace
