// SPIR-V 1.4/1.5 constructs Debian's translator 15 cannot take, rewritten before it sees them
// (compiler/spirv_legalize). Each module here is the shape a Khronos CTS spirv_new sub-test
// uses (written in our words): the rewrite is checked instruction by instruction, and the
// module then builds for gfx1100 (without the rewrite the translator asserts or LLVM 22
// rejects its output). Opcodes from the SPIR-V 1.5 specification, 3.32.
#include "compiler/compiler.h"
#include "compiler/spirv_legalize.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

using namespace amcl::compiler;

namespace {

// A little assembler: ids are handed out in order, instructions are appended as words.
struct Module {
  std::vector<uint32_t> w{0x07230203, 0x00010400, 0, 1, 0};
  uint32_t id() { return w[3]++; }
  void op(uint16_t code, std::vector<uint32_t> operands) {
    w.push_back(uint32_t(operands.size() + 1) << 16 | code);
    w.insert(w.end(), operands.begin(), operands.end());
  }
  static std::vector<uint32_t> str(const std::string& s) {
    std::vector<uint32_t> out((s.size() + 4) / 4, 0);
    std::memcpy(out.data(), s.data(), s.size());
    return out;
  }
  std::vector<uint8_t> bytes() const {
    std::vector<uint8_t> b(w.size() * 4);
    std::memcpy(b.data(), w.data(), b.size());
    return b;
  }
};

enum : uint16_t {
  kCapability = 17,
  kMemoryModel = 14,
  kEntryPoint = 15,
  kDecorate = 71,
  kTypeVoid = 19,
  kTypeBool = 20,
  kTypeInt = 21,
  kTypeFloat = 22,
  kTypeVector = 23,
  kTypeStruct = 30,
  kTypePointer = 32,
  kTypeFunction = 33,
  kConstant = 43,
  kConstantComposite = 44,
  kFunction = 54,
  kFunctionParameter = 55,
  kFunctionEnd = 56,
  kVariable = 59,
  kLoad = 61,
  kStore = 62,
  kCopyMemory = 63,
  kPtrAccessChain = 70,
  kCompositeConstruct = 80,
  kCompositeExtract = 81,
  kConvertPtrToU = 117,
  kConvertUToPtr = 120,
  kBitcast = 124,
  kISub = 130,
  kSDiv = 135,
  kSConvert = 114,
  kSelect = 169,
  kIEqual = 170,
  kINotEqual = 171,
  kLabel = 248,
  kReturn = 253,
  kCopyLogical = 400,
  kPtrEqual = 401,
  kPtrNotEqual = 402,
  kPtrDiff = 403,
  kDecorateString = 5632,
};
constexpr uint32_t kCrossWorkgroup = 5, kFunctionStorage = 7, kVolatile = 1, kAligned = 2;

// The opcodes of a module's instructions, in order.
std::vector<uint16_t> opcodes(const std::vector<uint32_t>& w) {
  std::vector<uint16_t> out;
  for (size_t at = 5; at < w.size() && (w[at] >> 16); at += w[at] >> 16)
    out.push_back(uint16_t(w[at] & 0xffff));
  return out;
}
size_t count(const std::vector<uint16_t>& ops, uint16_t op) {
  return size_t(std::count(ops.begin(), ops.end(), op));
}

// The common start: Addresses + Kernel (+ Int64), Physical64 OpenCL, a kernel "k" taking
// `params` global pointers to uint; returns the ids it made.
struct Start {
  uint32_t uint_t, ulong_t, void_t, ptr_uint, fn_t, kernel, label;
  std::vector<uint32_t> params;
};
Start begin(Module& m, unsigned params) {
  Start s{};
  m.op(kCapability, {4});  // Addresses
  m.op(kCapability, {6});  // Kernel
  m.op(kCapability, {11}); // Int64
  m.op(kMemoryModel, {2, 2});
  s.kernel = m.id();
  std::vector<uint32_t> entry{6, s.kernel}; // Kernel execution model
  for (uint32_t x : Module::str("k")) entry.push_back(x);
  m.op(kEntryPoint, entry);
  s.uint_t = m.id();
  m.op(kTypeInt, {s.uint_t, 32, 0});
  s.ulong_t = m.id();
  m.op(kTypeInt, {s.ulong_t, 64, 0});
  s.void_t = m.id();
  m.op(kTypeVoid, {s.void_t});
  s.ptr_uint = m.id();
  m.op(kTypePointer, {s.ptr_uint, kCrossWorkgroup, s.uint_t});
  s.fn_t = m.id();
  std::vector<uint32_t> fn{s.fn_t, s.void_t};
  for (unsigned i = 0; i < params; ++i) fn.push_back(s.ptr_uint);
  m.op(kTypeFunction, fn);
  return s;
}
void open_kernel(Module& m, Start& s, unsigned params) {
  m.op(kFunction, {s.void_t, s.kernel, 0, s.fn_t});
  for (unsigned i = 0; i < params; ++i) {
    s.params.push_back(m.id());
    m.op(kFunctionParameter, {s.ptr_uint, s.params.back()});
  }
  s.label = m.id();
  m.op(kLabel, {s.label});
}
void close_kernel(Module& m) {
  m.op(kReturn, {});
  m.op(kFunctionEnd, {});
}

// The module builds for gfx1100 (translator 15, lowering, code generation).
void expect_builds(const Module& m) {
  BuildRequest req;
  req.il = m.bytes();
  req.target = "gfx1100";
  const BuildResult r = build_uncached(req);
  EXPECT_TRUE(r.ok) << r.log;
}

} // namespace

// CTS spirv_new spirv14_ptrops: OpPtrEqual, OpPtrNotEqual, OpPtrDiff.
TEST(SpirvLegalize, PointerComparisonsAndDifferencesBecomeIntegerOnes) {
  Module m;
  Start s = begin(m, 2);
  const uint32_t bool_t = m.id();
  m.op(kTypeBool, {bool_t});
  const uint32_t one = m.id(), zero = m.id();
  m.op(kConstant, {s.uint_t, one, 1});
  m.op(kConstant, {s.uint_t, zero, 0});
  open_kernel(m, s, 2);
  const uint32_t eq = m.id(), sel = m.id(), ne = m.id(), diff = m.id();
  m.op(kPtrEqual, {bool_t, eq, s.params[0], s.params[1]});
  m.op(kSelect, {s.uint_t, sel, eq, one, zero});
  m.op(kStore, {s.params[0], sel});
  m.op(kPtrNotEqual, {bool_t, ne, s.params[0], s.params[1]});
  m.op(kPtrDiff, {s.uint_t, diff, s.params[0], s.params[1]});
  m.op(kStore, {s.params[1], diff});
  close_kernel(m);
  std::vector<uint32_t> w = m.w;
  legalize_for_translator(w);
  const auto ops = opcodes(w);
  EXPECT_EQ(count(ops, kPtrEqual) + count(ops, kPtrNotEqual) + count(ops, kPtrDiff), 0u);
  EXPECT_EQ(count(ops, kConvertPtrToU), 6u);
  EXPECT_EQ(count(ops, kIEqual), 1u);
  EXPECT_EQ(count(ops, kINotEqual), 1u);
  EXPECT_EQ(count(ops, kISub), 1u);
  EXPECT_EQ(count(ops, kSDiv), 1u);     // by sizeof(uint), a new constant
  EXPECT_EQ(count(ops, kSConvert), 1u); // the 64-bit quotient into the uint result
  EXPECT_GT(w[3], m.w[3]) << "new ids raise the bound";
  expect_builds(m);
}

// CTS spirv_new spirv15_ptr_bitcast: a Function variable with an initializer, bitcast to ulong
// and to uint2.
TEST(SpirvLegalize, PointerBitcastsAndInitialisedFunctionVariables) {
  Module m;
  Start s = begin(m, 2);
  const uint32_t uint2_t = m.id(), fptr = m.id(), c42 = m.id();
  m.op(kTypeVector, {uint2_t, s.uint_t, 2});
  m.op(kTypePointer, {fptr, kFunctionStorage, s.uint_t});
  m.op(kConstant, {s.uint_t, c42, 42});
  open_kernel(m, s, 2);
  const uint32_t var = m.id(), as_ulong = m.id(), as_uint2 = m.id(), p = m.id();
  m.op(kVariable, {fptr, var, kFunctionStorage, c42});
  m.op(kBitcast, {s.ulong_t, as_ulong, var});
  m.op(kBitcast, {uint2_t, as_uint2, var});
  m.op(kConvertUToPtr, {s.ptr_uint, p, as_ulong}); // uses both, so nothing is dead
  m.op(kStore, {s.params[0], c42});
  close_kernel(m);
  std::vector<uint32_t> w = m.w;
  legalize_for_translator(w);
  const auto ops = opcodes(w);
  EXPECT_EQ(count(ops, kConvertPtrToU), 2u);
  EXPECT_EQ(count(ops, kBitcast), 1u) << "ulong -> uint2 only";
  // The variable keeps no initializer; a store right after the entry block's variables sets it.
  const auto var_at = std::find(ops.begin(), ops.end(), kVariable);
  ASSERT_NE(var_at, ops.end());
  EXPECT_EQ(*(var_at + 1), kStore);
  expect_builds(m);
}

// CTS spirv_new spirv14_copymemory_memory_operands and spirv14_usersemantic_*.
TEST(SpirvLegalize, CopyMemoryBecomesALoadAndAStoreAndStringDecorationsGo) {
  Module m;
  Start s = begin(m, 1);
  const uint32_t fptr = m.id(), c42 = m.id();
  m.op(kTypePointer, {fptr, kFunctionStorage, s.uint_t});
  m.op(kConstant, {s.uint_t, c42, 42});
  m.op(kDecorateString, [&] {
    std::vector<uint32_t> v{c42, 5635}; // UserSemantic
    for (uint32_t x : Module::str("foo")) v.push_back(x);
    return v;
  }());
  open_kernel(m, s, 1);
  const uint32_t var = m.id();
  m.op(kVariable, {fptr, var, kFunctionStorage});
  m.op(kStore, {var, c42});
  m.op(kCopyMemory, {s.params[0], var});
  m.op(kCopyMemory, {s.params[0], var, kVolatile});
  m.op(kCopyMemory, {s.params[0], var, kAligned, 4, kVolatile});
  close_kernel(m);
  std::vector<uint32_t> w = m.w;
  legalize_for_translator(w);
  const auto ops = opcodes(w);
  EXPECT_EQ(count(ops, kCopyMemory), 0u);
  EXPECT_EQ(count(ops, kDecorateString), 0u);
  EXPECT_EQ(count(ops, kLoad), 3u);
  EXPECT_EQ(count(ops, kStore), 4u);
  // The last copy: the store (target) takes Aligned 4, the load (source) Volatile.
  size_t last_load = 0, last_store = 0;
  for (size_t at = 5; at < w.size(); at += w[at] >> 16) {
    if ((w[at] & 0xffff) == kLoad) last_load = at;
    if ((w[at] & 0xffff) == kStore) last_store = at;
  }
  EXPECT_EQ(w[last_load] >> 16, 5u);
  EXPECT_EQ(w[last_load + 4], kVolatile);
  EXPECT_EQ(w[last_store] >> 16, 5u);
  EXPECT_EQ(w[last_store + 3], kAligned);
  EXPECT_EQ(w[last_store + 4], 4u);
  expect_builds(m);
}

// CTS spirv_new spirv14_copylogical: a constant struct copied into a struct of the same shape.
TEST(SpirvLegalize, CopyLogicalBecomesExtractsAndAConstruct) {
  Module m;
  Start s = begin(m, 1);
  const uint32_t float_t = m.id(), a_t = m.id(), b_t = m.id(), ptr_b = m.id(), c1 = m.id(),
                 c2 = m.id(), src = m.id();
  m.op(kTypeFloat, {float_t, 32});
  m.op(kTypeStruct, {a_t, s.uint_t, float_t});
  m.op(kTypeStruct, {b_t, s.uint_t, float_t});
  m.op(kTypePointer, {ptr_b, kCrossWorkgroup, b_t});
  m.op(kConstant, {s.uint_t, c1, 1024});
  m.op(kConstant, {float_t, c2, 0x40490e56}); // 3.1415
  m.op(kConstantComposite, {a_t, src, c1, c2});
  open_kernel(m, s, 1);
  const uint32_t copy = m.id(), p = m.id();
  m.op(kCopyLogical, {b_t, copy, src});
  m.op(124, {ptr_b, p, s.params[0]}); // OpBitcast pointer -> pointer stays
  m.op(kStore, {p, copy});
  close_kernel(m);
  std::vector<uint32_t> w = m.w;
  legalize_for_translator(w);
  const auto ops = opcodes(w);
  EXPECT_EQ(count(ops, kCopyLogical), 0u);
  EXPECT_EQ(count(ops, kCompositeExtract), 2u);
  EXPECT_EQ(count(ops, kCompositeConstruct), 1u);
  expect_builds(m);
}
