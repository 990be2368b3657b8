// Building OpenCL C in process and reading the resulting code object.
#include "compiler/build_cache.h"
#include "compiler/code_object.h"
#include "compiler/compiler.h"

#include <cstdlib>
#include <filesystem>

#include <gtest/gtest.h>

#include <map>

using namespace amcl::compiler;

namespace {
const char* kVectorAdd =
    "__kernel void vector_add(__global const float* a, __global const float* b,"
    " __global float* c, uint n) { size_t i = get_global_id(0); if (i < n) c[i] = a[i] + b[i]; }";
}

TEST(Compiler, BuildsAndReadsVectorAdd) {
  auto res = build({kVectorAdd, "", "gfx1100"});
  ASSERT_TRUE(res.ok) << res.log;
  std::string err;
  auto co = read_code_object(res.binary, &err);
  ASSERT_TRUE(co) << err;
  EXPECT_EQ(co->target, "gfx1100");
  const KernelInfo* k = co->find("vector_add");
  ASSERT_TRUE(k);
  EXPECT_EQ(k->wavefront_size, 32u);
  EXPECT_EQ(k->max_flat_workgroup_size, 1024u); // not LLVM's default of 256
  EXPECT_TRUE(k->uses_kernarg_ptr());
  std::vector<std::string> explicit_kinds;
  for (auto& a : k->args)
    if (!a.hidden()) explicit_kinds.push_back(a.value_kind);
  EXPECT_EQ(explicit_kinds, (std::vector<std::string>{"global_buffer", "global_buffer",
                                                      "global_buffer", "by_value"}));
  EXPECT_EQ(k->args[3].offset, 24u);
  EXPECT_EQ((int64_t(k->descriptor_offset) + k->entry_offset) % 256, 0);
  // The value kinds decode once into what the launcher fills in.
  EXPECT_EQ(k->args[0].kind, ArgKind::GlobalBuffer);
  EXPECT_EQ(k->args[3].kind, ArgKind::ByValue);
  std::map<std::string, std::pair<ArgKind, int>> hidden;
  for (auto& a : k->args)
    if (a.hidden()) hidden[a.value_kind] = {a.kind, a.dim};
  EXPECT_EQ(hidden["hidden_block_count_y"], std::make_pair(ArgKind::HiddenBlockCount, 1));
  EXPECT_EQ(hidden["hidden_group_size_z"], std::make_pair(ArgKind::HiddenGroupSize, 2));
  EXPECT_EQ(hidden["hidden_remainder_x"], std::make_pair(ArgKind::HiddenRemainder, 0));
  EXPECT_EQ(hidden["hidden_global_offset_y"], std::make_pair(ArgKind::HiddenGlobalOffset, 1));
  EXPECT_EQ(hidden["hidden_grid_dims"], std::make_pair(ArgKind::HiddenGridDims, 0));
  for (auto& [kind_name, decoded] : hidden)
    if (kind_name.find("_count_") == std::string::npos &&
        kind_name.find("_size_") == std::string::npos &&
        kind_name.find("_remainder_") == std::string::npos &&
        kind_name.find("_offset_") == std::string::npos && kind_name != "hidden_grid_dims")
      EXPECT_EQ(decoded.first, ArgKind::HiddenOther) << kind_name;
}

TEST(Compiler, BadSourceFillsTheLog) {
  auto res = build({"__kernel void k(__global int* p) { p[0] = undefined_name; }", "", "gfx1100"});
  EXPECT_FALSE(res.ok);
  EXPECT_NE(res.log.find("input.cl:1:"), std::string::npos) << res.log;
  EXPECT_NE(res.log.find("undefined_name"), std::string::npos);
}

TEST(Compiler, BadOptionIsReported) {
  auto res = build({kVectorAdd, "-not-an-option", "gfx1100"});
  EXPECT_FALSE(res.ok);
  EXPECT_TRUE(res.bad_options);
}

TEST(CodeObject, RejectsMalformedInput) {
  auto res = build({kVectorAdd, "", "gfx1100"});
  ASSERT_TRUE(res.ok);
  std::string err;
  EXPECT_FALSE(read_code_object(std::vector<uint8_t>{1, 2, 3}, &err));
  // Every truncation of a valid object is rejected without crashing.
  for (size_t n = 0; n < res.binary.size(); n += 97) {
    std::vector<uint8_t> cut(res.binary.begin(), res.binary.begin() + long(n));
    EXPECT_FALSE(read_code_object(cut, &err)) << n;
  }
}

TEST(Compiler, SecondIdenticalBuildComesFromTheCache) {
  char dir[] = "/tmp/amcl-cache-XXXXXX";
  ASSERT_TRUE(mkdtemp(dir));
  // A private cache directory for this process (the cache reads the environment once).
  ASSERT_EQ(setenv("AMCL_CACHE_DIR", dir, 1), 0);
  BuildRequest req{std::string(kVectorAdd) + "\n// cache test", "-cl-std=CL1.2", "gfx1100"};
  auto first = build(req);
  auto second = build(req);
  ASSERT_TRUE(first.ok && second.ok);
  if (BuildCache::process().directory() != dir) GTEST_SKIP() << "cache was opened before this test";
  EXPECT_FALSE(first.cached);
  EXPECT_TRUE(second.cached);
  EXPECT_EQ(first.binary, second.binary);
  req.options = "-cl-std=CL1.2 -DX=1"; // any option change is a different entry
  EXPECT_FALSE(build(req).cached);
  std::filesystem::remove_all(dir);
}
