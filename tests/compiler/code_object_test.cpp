// Building OpenCL C in process and reading the resulting code object.
#include "compiler/build_cache.h"
#include "compiler/code_object.h"
#include "compiler/compiler.h"

#include <cstdlib>
#include <cstring>
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

// A __local pointer argument carries its pointee's alignment (.pointee_align), which the
// launcher aligns the argument's LDS to.
TEST(Compiler, LocalPointerArgumentsCarryThePointeeAlignment) {
  auto res = build({"__kernel void k(__local char* a, __local long16* b, __local float3* c) {}", "",
                    "gfx1100"});
  ASSERT_TRUE(res.ok) << res.log;
  std::string err;
  auto co = read_code_object(res.binary, &err);
  ASSERT_TRUE(co) << err;
  const KernelInfo* k = co->find("k");
  ASSERT_TRUE(k);
  ASSERT_GE(k->args.size(), 3u);
  EXPECT_EQ(k->args[0].kind, ArgKind::DynamicSharedPointer);
  EXPECT_EQ(k->args[0].pointee_align, 1u);
  EXPECT_EQ(k->args[1].pointee_align, 128u);
  EXPECT_EQ(k->args[2].pointee_align, 16u);
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

namespace {

// Program-scope variables the kernel reaches through the GOT, and a pointer among them.
const char* kProgramScope = R"(
__constant float table[4] = {1.0f, 2.0f, 3.0f, 4.0f};
__global int counter = 5;
__global int* counter_ptr = &counter;
__global long history[6];
__kernel void k(__global float* out) {
  uint i = get_global_id(0);
  out[i] = table[i & 3] + *counter_ptr + history[i % 6];
}
)";

BuildResult build_program_scope() {
  BuildRequest req{kProgramScope, "-cl-std=CL3.0", "gfx1100"};
  req.features = {"__opencl_c_program_scope_global_variables", "__opencl_c_int64"};
  return build(req);
}

// The allocated SHT_RELA sections' entries of a little-endian ELF64 file, as (file offset of
// r_info, r_info).
std::vector<std::pair<size_t, uint64_t>> dynamic_relocations(const std::vector<uint8_t>& elf) {
  auto u64 = [&](size_t at) {
    uint64_t v;
    std::memcpy(&v, elf.data() + at, 8);
    return v;
  };
  auto u16 = [&](size_t at) {
    uint16_t v;
    std::memcpy(&v, elf.data() + at, 2);
    return v;
  };
  auto u32 = [&](size_t at) {
    uint32_t v;
    std::memcpy(&v, elf.data() + at, 4);
    return v;
  };
  std::vector<std::pair<size_t, uint64_t>> out;
  const uint64_t shoff = u64(0x28);
  for (unsigned i = 0; i < u16(0x3c); ++i) {
    const size_t sh = shoff + size_t(i) * 64;
    if (u32(sh + 4) != 4 /* SHT_RELA */ || !(u64(sh + 8) & 2) /* SHF_ALLOC */) continue;
    for (uint64_t off = u64(sh + 24), end = off + u64(sh + 32); off + 24 <= end; off += 24)
      out.emplace_back(size_t(off + 8), u64(off + 8));
  }
  return out;
}

} // namespace

// AMDGPUUsage "Relocation Records": lld leaves R_AMDGPU_ABS64 for each GOT entry and for a
// pointer initialised with another variable's address; the loader fills them in for the
// address the image is loaded at.
TEST(CodeObject, RelocationsFollowTheLoadAddress) {
  auto res = build_program_scope();
  ASSERT_TRUE(res.ok) << res.log;
  std::string err;
  auto co = read_code_object(res.binary, &err);
  ASSERT_TRUE(co) << err;
  // table (GOT), counter_ptr (GOT), history (GOT) and counter (in counter_ptr's value).
  ASSERT_GE(co->relocations.size(), 4u);
  // counter (4) + counter_ptr (8) + history (48); the __constant table is not global memory.
  EXPECT_EQ(co->global_variable_size, 60u);
  std::vector<uint8_t> low(co->image_size), high(co->image_size);
  const uint64_t a = 0x10000, b = 0x7f1234560000ull;
  co->load(low.data(), a);
  co->load(high.data(), b);
  for (const Relocation& r : co->relocations) {
    ASSERT_EQ(r.field, Relocation::Field::Word64);
    ASSERT_TRUE(r.relative);
    uint64_t at_a, at_b;
    std::memcpy(&at_a, low.data() + r.offset, 8);
    std::memcpy(&at_b, high.data() + r.offset, 8);
    EXPECT_EQ(at_a - a, r.value) << "relocation at " << r.offset;
    EXPECT_EQ(at_b - b, r.value);
    EXPECT_LT(r.value, co->image_size); // every target lies inside the image
  }
}

TEST(CodeObject, AnUnknownRelocationIsRefusedByName) {
  auto res = build_program_scope();
  ASSERT_TRUE(res.ok) << res.log;
  const auto relocs = dynamic_relocations(res.binary);
  ASSERT_FALSE(relocs.empty());
  // R_AMDGPU_REL32 (4) is a static relocation: a loader must not meet it.
  std::vector<uint8_t> bad = res.binary;
  const uint64_t info = (relocs[0].second & ~0xffffffffull) | 4;
  std::memcpy(bad.data() + relocs[0].first, &info, 8);
  std::string err;
  EXPECT_FALSE(read_code_object(bad, &err));
  EXPECT_NE(err.find("R_AMDGPU_REL32"), std::string::npos) << err;
  // A relocation that names no symbol table entry past the table's end is refused too.
  bad = res.binary;
  const uint64_t far = (uint64_t(0xffffff) << 32) | 3;
  std::memcpy(bad.data() + relocs[0].first, &far, 8);
  EXPECT_FALSE(read_code_object(bad, &err));
}

// Every alignment a note section may claim: LLVM walks notes aligned to max(sh_addralign, 4)
// and refuses other values, and the reader must read descriptors with the same alignment
// (sh_addralign 0 once reached an assertion in LLVM's alignToPowerOf2; libFuzzer found it).
TEST(CodeObject, NoteSectionAlignmentsAreReadOrRefused) {
  auto res = build({kVectorAdd, "", "gfx1100"});
  ASSERT_TRUE(res.ok) << res.log;
  auto u64 = [&](const std::vector<uint8_t>& e, size_t at) {
    uint64_t v;
    std::memcpy(&v, e.data() + at, 8);
    return v;
  };
  uint16_t shnum;
  std::memcpy(&shnum, res.binary.data() + 0x3c, 2);
  const uint64_t shoff = u64(res.binary, 0x28);
  size_t note = 0;
  for (unsigned i = 0; i < shnum && !note; ++i) {
    uint32_t type;
    std::memcpy(&type, res.binary.data() + shoff + i * 64 + 4, 4);
    if (type == 7 /* SHT_NOTE */) note = shoff + i * 64;
  }
  ASSERT_NE(note, 0u);
  for (uint64_t align : {0ull, 1ull, 2ull, 3ull, 4ull, 8ull, 16ull, ~0ull}) {
    std::vector<uint8_t> b = res.binary;
    std::memcpy(b.data() + note + 48, &align, 8); // sh_addralign
    std::string err;
    auto co = read_code_object(b, &err);
    if (align == 0 || align == 1 || align == 4)
      EXPECT_TRUE(co) << align << ": " << err; // walked as 4
    if (align == 2 || align == 3 || align > 8) EXPECT_FALSE(co) << align;
  }
}
