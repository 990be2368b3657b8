// The compiler's SPIR-V pieces without a device: the module reader (header, specialization
// constants, rewrites), the SPIR -> AMDGPU renaming of builtins, and the translator's helper
// process on bad input.
#include "compiler/compiler.h"
#include "compiler/spir_mangling.h"
#include "compiler/spirv_lowering.h"
#include "compiler/spirv_module.h"
#include "compiler/spirv_translator.h"

#include <gtest/gtest.h>
#include <llvm/AsmParser/Parser.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/SourceMgr.h>

#include <cstring>
#include <fstream>
#include <iterator>

using namespace amcl::compiler;

namespace {

std::vector<uint8_t> bytes(const std::vector<uint32_t>& words) {
  std::vector<uint8_t> b(words.size() * 4);
  std::memcpy(b.data(), words.data(), b.size());
  return b;
}
std::vector<uint32_t> words(const std::vector<uint8_t>& b) {
  std::vector<uint32_t> w(b.size() / 4);
  std::memcpy(w.data(), b.data(), w.size() * 4);
  return w;
}
constexpr uint32_t op(uint32_t count, uint32_t code) {
  return count << 16 | code;
}

// A module (no entry point; the reader does not need one): SpecId 3 on a 32-bit int, SpecId 4
// on a bool, SpecId 5 on an 8-bit signed int, and a scalar OpConstantNull of a 64-bit int.
std::vector<uint32_t> small_module() {
  return {0x07230203, 0x00010200, 0,  20, 0, op(4, 71), 10, 1, 3, // OpDecorate %10 SpecId 3
          op(4, 71),  11,         1,  4,                          // OpDecorate %11 SpecId 4
          op(4, 71),  12,         1,  5,                          // OpDecorate %12 SpecId 5
          op(4, 21),  1,          32, 0,                          // %1 = OpTypeInt 32 0
          op(2, 20),  2,                                          // %2 = OpTypeBool
          op(4, 21),  3,          8,  1,                          // %3 = OpTypeInt 8 1
          op(4, 21),  4,          64, 0,                          // %4 = OpTypeInt 64 0
          op(4, 50),  1,          10, 7,                          // %10 = OpSpecConstant %1 7
          op(3, 48),  2,          11,                             // %11 = OpSpecConstantTrue %2
          op(4, 50),  3,          12, 1,                          // %12 = OpSpecConstant %3 1
          op(3, 46),  4,          13};                            // %13 = OpConstantNull %4
}

TEST(SpirvModule, HeaderChecks) {
  const auto good = bytes(small_module());
  std::string why;
  EXPECT_TRUE(spirv_header_valid(good, &why)) << why;
  auto bad = good;
  bad[0] = 0;
  EXPECT_FALSE(spirv_header_valid(bad, &why));
  EXPECT_NE(why.find("magic"), std::string::npos) << why;
  EXPECT_FALSE(spirv_header_valid({good.data(), 19}));
  EXPECT_FALSE(spirv_header_valid({good.data(), 16}));
  auto w = small_module();
  w[1] = 0x00010600;
  EXPECT_FALSE(spirv_header_valid(bytes(w), &why));
  EXPECT_NE(why.find("1.6"), std::string::npos) << why;
  w[1] = 0x00000100;
  EXPECT_FALSE(spirv_header_valid(bytes(w)));
  // The other byte order is a module too.
  w = small_module();
  for (uint32_t& x : w) x = __builtin_bswap32(x);
  EXPECT_TRUE(spirv_header_valid(bytes(w)));
  EXPECT_EQ(spirv_spec_constants(bytes(w))->size(), 3u);
}

TEST(SpirvModule, ListsSpecConstantsWithTheirSizes) {
  auto spec = spirv_spec_constants(bytes(small_module()));
  ASSERT_TRUE(spec);
  EXPECT_EQ(*spec, (std::map<uint32_t, uint32_t>{{3, 4}, {4, 1}, {5, 1}}));
  auto broken = small_module();
  broken[5] = op(0, 71);
  EXPECT_FALSE(spirv_spec_constants(bytes(broken)));
  broken[5] = op(400, 71);
  EXPECT_FALSE(spirv_spec_constants(bytes(broken)));
}

TEST(SpirvModule, PrepareAppliesValuesAndWritesScalarNulls) {
  std::string error;
  const int32_t v32 = -2;
  const uint8_t no = 0, minus_one = 0xff;
  std::map<uint32_t, std::vector<uint8_t>> values = {
      {3, {reinterpret_cast<const uint8_t*>(&v32), reinterpret_cast<const uint8_t*>(&v32) + 4}},
      {4, {no}},
      {5, {minus_one}}};
  auto out = prepare_spirv(bytes(small_module()), values, error);
  ASSERT_TRUE(out) << error;
  const auto w = words(*out);
  const std::vector<uint32_t> tail = {op(4, 50), 1, 10, 0xfffffffe,     // the new value
                                      op(3, 49), 2, 11,                 // now false
                                      op(4, 50), 3, 12, 0xffffffff,     // -1, sign-extended
                                      op(5, 43), 4, 13, 0,          0}; // OpConstant %4 0
  ASSERT_GE(w.size(), tail.size());
  EXPECT_EQ(std::vector<uint32_t>(w.end() - long(tail.size()), w.end()), tail);
  // Without values only the null changes.
  out = prepare_spirv(bytes(small_module()), {}, error);
  ASSERT_TRUE(out);
  const auto original = small_module(), unspecialised = words(*out);
  EXPECT_EQ(std::vector<uint32_t>(unspecialised.begin(),
                                  unspecialised.begin() + long(original.size()) - 3),
            std::vector<uint32_t>(original.begin(), original.end() - 3));
  // A 1.5 module reaches the translator as 1.4, the last version it knows.
  auto v15 = small_module();
  v15[1] = 0x00010500;
  out = prepare_spirv(bytes(v15), {}, error);
  ASSERT_TRUE(out);
  EXPECT_EQ(words(*out)[1], 0x00010400u);
  auto broken = small_module();
  broken[small_module().size() - 3] = op(9, 46);
  EXPECT_FALSE(prepare_spirv(bytes(broken), {}, error));
  EXPECT_FALSE(error.empty());
}

TEST(SpirMangling, PointerAddressSpacesBecomeAmdgpus) {
  const std::pair<const char*, const char*> cases[] = {
      {"_Z13get_global_idj", "_Z13get_global_idj"},
      {"_Z10atomic_addPU3AS1Vii", "_Z10atomic_addPU3AS1Vii"},
      {"_Z10atomic_addPU3AS3Vjj", "_Z10atomic_addPU3AS3Vjj"},
      {"_Z6vload4mPU3AS2Kf", "_Z6vload4mPU3AS4Kf"},  // constant: 2 -> 4
      {"_Z5fractfPU3AS4f", "_Z5fractfPf"},           // generic: unqualified
      {"_Z5fractfPf", "_Z5fractfPU3AS5f"},           // private: 5
      {"_Z5fractDv4_fPU3AS4S_", "_Z5fractDv4_fPS_"}, // substitutions follow
      {"_Z5fractDv4_fPS_", "_Z5fractDv4_fPU3AS5S_"},
      {"_Z6vload4mPKf", "_Z6vload4mPU3AS5Kf"},
      {"_Z21async_work_group_copyPU3AS3fPU3AS1Kfm9ocl_event",
       "_Z21async_work_group_copyPU3AS3fPU3AS1Kfm9ocl_event"},
      {"_Z6vstore4Dv4_fmPU3AS1f", "_Z6vstore4Dv4_fmPU3AS1f"},
  };
  for (auto [spir, amdgpu] : cases) {
    auto name = spir_to_amdgpu_name(spir);
    ASSERT_TRUE(name) << spir;
    EXPECT_EQ(*name, amdgpu) << spir;
  }
  EXPECT_FALSE(spir_to_amdgpu_name("printf"));
  EXPECT_FALSE(spir_to_amdgpu_name("_Z3fooPU3XYi"));
  EXPECT_FALSE(spir_to_amdgpu_name("_Z3fooS3_"));
}

TEST(SpirvTranslator, HelperIsFoundAndRefusesGarbage) {
  ASSERT_TRUE(spirv_translator_built());
  ASSERT_FALSE(spirv_translator_path().empty());
  std::vector<uint8_t> junk(4096, 0x41);
  auto t = translate_spirv(junk);
  EXPECT_FALSE(t.ok);
  EXPECT_FALSE(t.log.empty());
  EXPECT_TRUE(t.bitcode.empty());
}

TEST(SpirvTranslator, TranslatesAModuleWithinItsOutputBound) {
  std::ifstream f(AMCL_SPIRV_TEST_DIR "/kernels.spv", std::ios::binary);
  const std::vector<uint8_t> spv{std::istreambuf_iterator<char>(f),
                                 std::istreambuf_iterator<char>()};
  ASSERT_GT(spv.size(), 20u);
  std::string error;
  auto prepared = prepare_spirv(spv, {}, error);
  ASSERT_TRUE(prepared) << error;
  auto t = translate_spirv(*prepared);
  ASSERT_TRUE(t.ok) << t.log;
  EXPECT_EQ(t.bitcode[0], 'B'); // LLVM bitcode: "BC\xC0\xDE"
  EXPECT_EQ(t.bitcode[1], 'C');
  // The module as clang wrote it (a scalar OpConstantNull) makes translator 15 assert: the
  // helper dies, the build gets the message, the test process lives on.
  t = translate_spirv(spv);
  EXPECT_FALSE(t.ok);
  EXPECT_NE(t.log.find("crashed"), std::string::npos) << t.log;
  // A bound the bitcode passes kills the helper and fails the translation.
  t = translate_spirv(*prepared, 60000, 64);
  EXPECT_FALSE(t.ok);
  EXPECT_NE(t.log.find("output passed"), std::string::npos) << t.log;
  // And so does a time limit it cannot meet.
  t = translate_spirv(*prepared, 0);
  EXPECT_FALSE(t.ok);
  EXPECT_NE(t.log.find("did not finish"), std::string::npos) << t.log;
}

// A mutated module declared a vector of 67,108,868 floats; the translator built it and
// instruction selection allocated gigabytes for one value (spirv_fuzzer's out-of-memory).
TEST(SpirvModule, VectorsOfACountSpirVDoesNotAllowAreRefused) {
  std::string error;
  for (uint32_t n : {2u, 3u, 4u, 8u, 16u}) {
    auto w = small_module();
    w.insert(w.end(), {op(4, 23), 19, 1, n}); // %19 = OpTypeVector %1 n
    EXPECT_TRUE(prepare_spirv(bytes(w), {}, error)) << n << ": " << error;
  }
  for (uint32_t n : {0u, 1u, 5u, 32u, 67108868u}) {
    auto w = small_module();
    w.insert(w.end(), {op(4, 23), 19, 1, n});
    error.clear();
    EXPECT_FALSE(prepare_spirv(bytes(w), {}, error)) << n;
    EXPECT_NE(error.find("OpTypeVector %19 has " + std::to_string(n) + " components"),
              std::string::npos)
        << error;
  }
}

TEST(SpirvBuild, AMalformedModuleFailsWithAMessage) {
  BuildRequest req;
  auto w = small_module();
  w[5] = op(0, 71);
  req.il = bytes(w);
  BuildResult r = build_uncached(req);
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.log.find("invalid SPIR-V module"), std::string::npos) << r.log;
  req.options = "-cl-no-such-option";
  r = build_uncached(req);
  EXPECT_TRUE(r.bad_options);
}

// Not SPIR-V's alone: OpenCL C clang accepts and LLVM's back end rejects exited the process.
TEST(BackEndErrors, FailTheBuildWithTheirMessage) {
  BuildRequest req;
  req.source = "kernel void f(constant char* format, int x) { printf(format, x); }";
  req.options = "-cl-std=CL3.0";
  BuildResult r = build_uncached(req);
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(r.binary.empty());
  EXPECT_NE(r.log.find("printf format string"), std::string::npos) << r.log;
  req.source = "kernel void f(global int* p) { *p = 1; }";
  EXPECT_TRUE(build_uncached(req).ok) << "a later build in the same process";
}

} // namespace

// An atomic builtin called on an operand no atomic instruction takes (an i24, from a mutated
// module: spirv_fuzzer) reached IRBuilder, whose alignment from the type's size asserted; the
// call is now left alone and the lowering goes on.
TEST(SpirvLowering, AtomicsOnOperandsNoInstructionTakesAreLeftAlone) {
  // A build first: it registers the AMDGPU target the lowering looks up.
  ASSERT_TRUE(amcl::compiler::compile({"kernel void k() {}", "", "gfx1100"}).ok);
  llvm::LLVMContext ctx;
  llvm::SMDiagnostic err;
  const char* ir = R"(
target triple = "spir64-unknown-unknown"
declare spir_func i24 @_Z10atomic_addPU3AS1Vii(ptr addrspace(1), i24)
declare spir_func i32 @_Z10atomic_addPU3AS1Vjj(ptr addrspace(1), i32)
define spir_kernel void @k(ptr addrspace(1) %p) {
  %odd = call spir_func i24 @_Z10atomic_addPU3AS1Vii(ptr addrspace(1) %p, i24 1)
  %ok = call spir_func i32 @_Z10atomic_addPU3AS1Vjj(ptr addrspace(1) %p, i32 1)
  ret void
})";
  std::unique_ptr<llvm::Module> spir = llvm::parseAssemblyString(ir, err, ctx);
  ASSERT_TRUE(spir) << err.getMessage().str();
  std::string log;
  std::unique_ptr<llvm::Module> m =
      amcl::compiler::lower_spir_module(*spir, "gfx1100", "", false, log);
  ASSERT_TRUE(m) << log;
  unsigned rmw = 0, calls = 0;
  for (llvm::Function& f : *m)
    for (llvm::BasicBlock& bb : f)
      for (llvm::Instruction& i : bb) {
        rmw += llvm::isa<llvm::AtomicRMWInst>(i);
        calls += llvm::isa<llvm::CallInst>(i);
      }
  EXPECT_EQ(rmw, 1u) << "the 32-bit atomic becomes an instruction";
  EXPECT_EQ(calls, 1u) << "the 24-bit one stays a call, for the link to refuse";
}

// The same bound for what the words do not show: an array of 2^40 elements, or a vector LLVM
// IR allows, loaded as one value. The lowering refuses it before instruction selection builds
// a register per scalar.
TEST(SpirvLowering, ValuesOfMoreScalarsThanRegistersCanHoldAreRefused) {
  ASSERT_TRUE(amcl::compiler::compile({"kernel void k() {}", "", "gfx1100"}).ok);
  const char* bodies[] = {
      "%v = load [1099511627776 x float], ptr addrspace(1) %p\n",
      "%v = load <65536 x float>, ptr addrspace(1) %p\n",
      "%v = load {[16 x i32], [20000 x i8]}, ptr addrspace(1) %p\n",
  };
  for (const char* body : bodies) {
    llvm::LLVMContext ctx;
    llvm::SMDiagnostic err;
    const std::string ir = std::string("target triple = \"spir64-unknown-unknown\"\n"
                                       "define spir_kernel void @k(ptr addrspace(1) %p) {\n") +
                           body + "ret void\n}\n";
    std::unique_ptr<llvm::Module> spir = llvm::parseAssemblyString(ir, err, ctx);
    ASSERT_TRUE(spir) << err.getMessage().str();
    std::string log;
    EXPECT_FALSE(amcl::compiler::lower_spir_module(*spir, "gfx1100", "", false, log)) << body;
    EXPECT_NE(log.find("more than 16384 scalars"), std::string::npos) << log;
  }
  // A value at the bound is an ordinary one.
  llvm::LLVMContext ctx;
  llvm::SMDiagnostic err;
  std::unique_ptr<llvm::Module> spir = llvm::parseAssemblyString(
      "target triple = \"spir64-unknown-unknown\"\n"
      "define spir_kernel void @k(ptr addrspace(1) %p) {\n"
      "%v = load [16384 x i32], ptr addrspace(1) %p\nret void\n}\n",
      err, ctx);
  ASSERT_TRUE(spir) << err.getMessage().str();
  std::string log;
  EXPECT_TRUE(amcl::compiler::lower_spir_module(*spir, "gfx1100", "", false, log)) << log;
}
