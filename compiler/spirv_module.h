// SPIR-V modules as words, before any translator sees them: the header check, the
// specialization constants a module declares, and the rewrites amcl applies (spec constant
// values, scalar OpConstantNull). No LLVM here: this is the untrusted input's first reader.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace amcl::compiler {

// SPIR-V 1.0 through 1.5, the versions CL_DEVICE_IL_VERSION lists.
inline constexpr uint32_t kSpirvMinVersion = 0x00010000, kSpirvMaxVersion = 0x00010500;

// Whether `bytes` start like a SPIR-V module amcl accepts: a whole number of words, the
// magic number (either byte order), a listed version, a header of five words. `why` says
// what is wrong. clCreateProgramWithIL refuses such input (CL_INVALID_VALUE).
bool spirv_header_valid(std::span<const uint8_t> bytes, std::string* why = nullptr);

// The module's specialization constants: SpecId -> size in bytes of its value (1 for a
// boolean, as clSetProgramSpecializationConstant takes it; 1, 2, 4 or 8 for numbers).
// nullopt when the instruction stream is malformed (a word count of 0 or past the end).
std::optional<std::map<uint32_t, uint32_t>> spirv_spec_constants(std::span<const uint8_t> bytes);

// The module as the translator gets it (little-endian words): each SpecId in `values` given
// its value as the default of its OpSpecConstant{,True,False}, and every OpConstantNull of a
// scalar (integer, float, bool) written as the OpConstant/OpConstantFalse it equals (the
// SPIRV-LLVM translator 15 asserts on a scalar OpConstantNull, which clang 22 emits for every
// zero), and a 1.5 header saying 1.4, the translator's last version. nullopt with `error` set
// for a malformed stream.
std::optional<std::vector<uint8_t>>
prepare_spirv(std::span<const uint8_t> bytes,
              const std::map<uint32_t, std::vector<uint8_t>>& spec_values, std::string& error);

} // namespace amcl::compiler
