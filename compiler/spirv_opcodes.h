// The SPIR-V opcodes amcl's word-level readers and rewriters use (compiler/spirv_module,
// compiler/spirv_legalize), and the header's size. SPIR-V 1.5 specification, 2.3 "Physical
// Layout" and 3.32 "Instructions" (SPIRV-Headers include/spirv/unified1/spirv.hpp).
#pragma once
#include <cstddef>
#include <cstdint>

namespace amcl::compiler::spv {

inline constexpr size_t kHeaderWords = 5;

enum Op : uint16_t {
  OpLine = 8,
  OpMemoryModel = 14,
  OpTypeBool = 20,
  OpTypeInt = 21,
  OpTypeFloat = 22,
  OpTypeVector = 23,
  OpTypeArray = 28,
  OpTypeStruct = 30,
  OpTypePointer = 32,
  OpConstantTrue = 41,
  OpConstantFalse = 42,
  OpConstant = 43,
  OpConstantNull = 46,
  OpSpecConstantTrue = 48,
  OpSpecConstantFalse = 49,
  OpSpecConstant = 50,
  OpFunction = 54,
  OpVariable = 59,
  OpLoad = 61,
  OpStore = 62,
  OpCopyMemory = 63,
  OpCopyMemorySized = 64,
  OpDecorate = 71,
  OpCompositeConstruct = 80,
  OpCompositeExtract = 81,
  OpCopyObject = 83,
  OpSConvert = 114,
  OpConvertPtrToU = 117,
  OpConvertUToPtr = 120,
  OpBitcast = 124,
  OpISub = 130,
  OpSDiv = 135,
  OpIEqual = 170,
  OpINotEqual = 171,
  OpLabel = 248,
  OpNoLine = 317,
  OpCopyLogical = 400,
  OpPtrEqual = 401,
  OpPtrNotEqual = 402,
  OpPtrDiff = 403,
  OpDecorateString = 5632,
  OpMemberDecorateString = 5633,
};

} // namespace amcl::compiler::spv
