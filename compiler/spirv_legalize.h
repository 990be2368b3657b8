// SPIR-V 1.4 and 1.5 instructions of the OpenCL environment that the SPIRV-LLVM translator 15
// (Debian's) asserts on or translates into IR LLVM 22 rejects, rewritten into SPIR-V 1.3
// equivalents before it sees the module. No LLVM here: words in, words out.
#pragma once
#include <cstdint>
#include <vector>

namespace amcl::compiler {

// Rewrites, in place (the header's id bound grows when new ids are needed):
// - OpPtrEqual / OpPtrNotEqual / OpPtrDiff: pointers converted to integers, then compared or
//   subtracted (and divided by the pointee's size);
// - OpBitcast between a pointer and an integer scalar or vector: OpConvertPtrToU /
//   OpConvertUToPtr (and an integer bitcast for vectors);
// - OpCopyMemory (translator 15 asserts on any): a load and a store, each with its memory
//   operands; OpCopyMemorySized with a second set of memory operands: the first set kept;
// - OpVariable of the Function storage class with an initializer: a store of the initializer
//   after the entry block's variables (translator 15 makes such variables private globals);
// - OpCopyLogical (structs and arrays of the same shape): extracts, copies and a construct;
// - OpDecorateString / OpMemberDecorateString: dropped (UserSemantic and the like are
//   annotations with no effect on what a kernel computes).
// What it cannot type (an operand whose type it does not know) is left for the translator.
void legalize_for_translator(std::vector<uint32_t>& words);

} // namespace amcl::compiler
