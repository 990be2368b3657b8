// Every RDNA3/RDNA4 target amcl compiles for: whole-program builds and separate compilation
// produce a code object for exactly that processor (ELF e_flags EF_AMDGPU_MACH, LLVM's
// AMDGPUUsage "AMDGPU ELF Header"), with wave32 kernels and readable descriptors.
#include "compiler/code_object.h"
#include "compiler/compiler.h"

#include <gtest/gtest.h>

using namespace amcl::compiler;

namespace {

const char* kSource = R"(
kernel void scale(global float* p, float f) { p[get_global_id(0)] *= f; }
kernel void reduce(global const int* in, global int* out, local int* tmp) {
  size_t l = get_local_id(0);
  tmp[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  if (l == 0) { int s = 0; for (size_t i = 0; i < get_local_size(0); ++i) s += tmp[i]; out[get_group_id(0)] = s; }
}
)";

class Targets : public testing::TestWithParam<const char*> {};

TEST_P(Targets, BuildProducesACodeObjectForTheTarget) {
  const std::string target = GetParam();
  BuildResult r = build_uncached({kSource, "-cl-std=CL3.0", target});
  ASSERT_TRUE(r.ok) << r.log;
  std::string err;
  auto co = read_code_object(r.binary, &err);
  ASSERT_TRUE(co) << err;
  EXPECT_EQ(co->target, target);
  for (const char* name : {"scale", "reduce"}) {
    const KernelInfo* k = co->find(name);
    ASSERT_TRUE(k) << name;
    EXPECT_EQ(k->wavefront_size, 32u) << name;
    EXPECT_EQ(k->max_flat_workgroup_size, 1024u) << name;
  }
}

TEST_P(Targets, CompileAndLinkProduceACodeObjectForTheTarget) {
  const std::string target = GetParam();
  BuildResult obj = compile({kSource, "-cl-std=CL1.2", target});
  ASSERT_TRUE(obj.ok) << obj.log;
  EXPECT_EQ(classify_binary(obj.binary), BinaryKind::Object);
  BuildResult exe = link({{obj.binary}, "", target});
  ASSERT_TRUE(exe.ok) << exe.log;
  auto co = read_code_object(exe.binary, nullptr);
  ASSERT_TRUE(co);
  EXPECT_EQ(co->target, target);
  EXPECT_TRUE(co->find("reduce"));
}

INSTANTIATE_TEST_SUITE_P(Rdna, Targets,
                         testing::Values("gfx1100", "gfx1101", "gfx1102", "gfx1103", "gfx1150",
                                         "gfx1151", "gfx1200", "gfx1201"));

// e_flags values from LLVM's ELF.h (EF_AMDGPU_MACH_AMDGCN_GFX1100 = 0x041 and so on).
TEST(Targets, MachValuesMatchLlvm) {
  EXPECT_EQ(target_from_mach(0x041), "gfx1100");
  EXPECT_EQ(target_from_mach(0x046), "gfx1101");
  EXPECT_EQ(target_from_mach(0x047), "gfx1102");
  EXPECT_EQ(target_from_mach(0x044), "gfx1103");
  EXPECT_EQ(target_from_mach(0x043), "gfx1150");
  EXPECT_EQ(target_from_mach(0x04a), "gfx1151");
  EXPECT_EQ(target_from_mach(0x048), "gfx1200");
  EXPECT_EQ(target_from_mach(0x04e), "gfx1201");
}

TEST(Targets, ObjectsDoNotLinkForAnotherTarget) {
  BuildResult obj = compile({kSource, "", "gfx1100"});
  ASSERT_TRUE(obj.ok) << obj.log;
  BuildResult exe = link({{obj.binary}, "", "gfx1201"});
  EXPECT_FALSE(exe.ok);
  EXPECT_NE(exe.log.find("compiled for gfx1100, not for gfx1201"), std::string::npos) << exe.log;
}

TEST(Targets, UnknownTargetFailsWithALog) {
  BuildResult r = build_uncached({kSource, "", "gfx9999"});
  EXPECT_FALSE(r.ok);
  EXPECT_FALSE(r.log.empty());
}

} // namespace
