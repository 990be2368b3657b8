#include "spirv_module.h"
#include "spirv_legalize.h"
#include "spirv_opcodes.h"

#include <algorithm>
#include <cstring>
#include <unordered_map>

namespace amcl::compiler {
namespace {

// SPIR-V 1.5 specification, 2.3 "Physical Layout" and 3.32 "Instructions"
// (SPIRV-Headers include/spirv/unified1/spirv.hpp).
constexpr uint32_t kMagic = 0x07230203;
using namespace spv;
constexpr uint32_t kDecorationSpecId = 1;
constexpr uint32_t kTranslatorMaxVersion = 0x00010400;

uint32_t swap32(uint32_t v) {
  return __builtin_bswap32(v);
}

// The module's words in host (little-endian) order, or nothing if the header is wrong.
std::optional<std::vector<uint32_t>> words_of(std::span<const uint8_t> bytes, std::string* why) {
  auto fail = [&](const std::string& reason) -> std::optional<std::vector<uint32_t>> {
    if (why) *why = reason;
    return std::nullopt;
  };
  if (bytes.size() % 4) return fail("the module's size is not a whole number of 32-bit words");
  if (bytes.size() < kHeaderWords * 4) return fail("the module is shorter than its 5-word header");
  std::vector<uint32_t> words(bytes.size() / 4);
  std::memcpy(words.data(), bytes.data(), bytes.size());
  if (words[0] == swap32(kMagic))
    for (uint32_t& w : words) w = swap32(w);
  else if (words[0] != kMagic)
    return fail("not a SPIR-V module (magic number " + std::to_string(words[0]) + ")");
  if (words[1] < kSpirvMinVersion || words[1] > kSpirvMaxVersion || (words[1] & 0xff0000ffu))
    return fail("SPIR-V version " + std::to_string(words[1] >> 16) + "." +
                std::to_string((words[1] >> 8) & 0xff) + " is not one of 1.0 to 1.5");
  if (words[3] == 0) return fail("the module's id bound is 0");
  if (words[4] != 0) return fail("the module's header schema is not 0");
  return words;
}

// One pass over the instructions; false when a word count is 0 or runs past the end.
template <class Visit> bool each_instruction(std::vector<uint32_t>& words, Visit visit) {
  for (size_t at = kHeaderWords; at < words.size();) {
    const uint32_t count = words[at] >> 16;
    if (count == 0 || at + count > words.size()) return false;
    visit(static_cast<uint16_t>(words[at] & 0xffff), std::span(words).subspan(at, count));
    at += count;
  }
  return true;
}

// What the module says about scalar types and spec constants.
struct Facts {
  std::unordered_map<uint32_t, uint32_t> scalar_bits; // type id -> width (bool: 1)
  std::unordered_map<uint32_t, bool> is_signed;       // integer type id -> signedness
  std::unordered_map<uint32_t, uint32_t> spec_id;     // result id -> SpecId
};

std::optional<Facts> read_facts(std::vector<uint32_t>& words) {
  Facts f;
  const bool ok = each_instruction(words, [&](uint16_t op, std::span<uint32_t> in) {
    if (op == OpTypeBool && in.size() >= 2) f.scalar_bits[in[1]] = 1;
    if ((op == OpTypeInt && in.size() >= 4) || (op == OpTypeFloat && in.size() >= 3)) {
      f.scalar_bits[in[1]] = in[2];
      if (op == OpTypeInt) f.is_signed[in[1]] = in[3] != 0;
    }
    if (op == OpDecorate && in.size() >= 4 && in[2] == kDecorationSpecId) f.spec_id[in[1]] = in[3];
  });
  if (!ok) return std::nullopt;
  return f;
}

} // namespace

bool spirv_header_valid(std::span<const uint8_t> bytes, std::string* why) {
  return words_of(bytes, why).has_value();
}

std::optional<std::map<uint32_t, uint32_t>> spirv_spec_constants(std::span<const uint8_t> bytes) {
  auto words = words_of(bytes, nullptr);
  if (!words) return std::nullopt;
  auto facts = read_facts(*words);
  if (!facts) return std::nullopt;
  std::map<uint32_t, uint32_t> out;
  const bool ok = each_instruction(*words, [&](uint16_t op, std::span<uint32_t> in) {
    if (op != OpSpecConstant && op != OpSpecConstantTrue && op != OpSpecConstantFalse) return;
    if (in.size() < 3) return;
    auto id = facts->spec_id.find(in[2]);
    if (id == facts->spec_id.end()) return;
    auto bits = facts->scalar_bits.find(in[1]);
    if (bits == facts->scalar_bits.end()) return;
    out[id->second] = bits->second == 1 ? 1 : bits->second / 8;
  });
  if (!ok) return std::nullopt;
  return out;
}

std::optional<std::vector<uint8_t>>
prepare_spirv(std::span<const uint8_t> bytes,
              const std::map<uint32_t, std::vector<uint8_t>>& spec_values, std::string& error) {
  auto words = words_of(bytes, &error);
  if (!words) return std::nullopt;
  auto facts = read_facts(*words);
  if (!facts) {
    error = "malformed instruction stream (a word count of 0 or past the end of the module)";
    return std::nullopt;
  }
  std::vector<uint32_t> out(words->begin(), words->begin() + kHeaderWords);
  // Translator 15 knows SPIR-V up to 1.4. What 1.5 added is the Vulkan environment's
  // (SPV_KHR_vulkan_memory_model, SPV_KHR_physical_storage_buffer, descriptor indexing: the
  // extensions it made core, MLIR's SPIRVEnums.cpp V_1_5_IMPLIED_EXTS), so an OpenCL module of
  // 1.5 reads as one of 1.4; anything else it uses still fails the build by name.
  out[1] = std::min(out[1], kTranslatorMaxVersion);
  std::string refused;
  each_instruction(*words, [&](uint16_t op, std::span<uint32_t> in) {
    // SPIR-V 1.5 2.16.1 "Universal Validation Rules": vectors have 2, 3 or 4 components, and
    // 8 or 16 with the Vector16 capability. The translator builds any count it is given, and a
    // vector of 2^26 floats made the back end allocate gigabytes (spirv_fuzzer).
    if (op == OpTypeVector && in.size() >= 4 && refused.empty()) {
      const uint32_t n = in[3];
      if (n != 2 && n != 3 && n != 4 && n != 8 && n != 16)
        refused = "OpTypeVector %" + std::to_string(in[1]) + " has " + std::to_string(n) +
                  " components; OpenCL allows 2, 3, 4, 8 and 16";
    }
    const uint32_t type = in.size() >= 3 ? in[1] : 0;
    auto bits = facts->scalar_bits.find(type);
    const bool scalar = bits != facts->scalar_bits.end();
    // A scalar OpConstantNull is the constant zero of its type.
    if (op == OpConstantNull && in.size() == 3 && scalar) {
      if (bits->second == 1) {
        out.insert(out.end(), {(3u << 16) | OpConstantFalse, in[1], in[2]});
      } else {
        const uint32_t n = bits->second > 32 ? 2 : 1;
        out.insert(out.end(), {((3 + n) << 16) | OpConstant, in[1], in[2]});
        out.insert(out.end(), n, 0u);
      }
      return;
    }
    auto id = in.size() >= 3 ? facts->spec_id.find(in[2]) : facts->spec_id.end();
    auto value = id != facts->spec_id.end() ? spec_values.find(id->second) : spec_values.end();
    if (value != spec_values.end() && scalar &&
        (op == OpSpecConstantTrue || op == OpSpecConstantFalse)) {
      const bool set =
          std::any_of(value->second.begin(), value->second.end(), [](uint8_t b) { return b != 0; });
      out.insert(out.end(),
                 {(3u << 16) | (set ? OpSpecConstantTrue : OpSpecConstantFalse), in[1], in[2]});
      return;
    }
    if (value != spec_values.end() && scalar && op == OpSpecConstant && bits->second > 1) {
      // SPIR-V 1.5 3.32.7 OpConstant: literals narrower than 32 bits fill the low bits of a
      // word, sign-extended for signed integers and zero-extended otherwise.
      uint64_t v = 0;
      std::memcpy(&v, value->second.data(), std::min<size_t>(value->second.size(), 8));
      const uint32_t width = bits->second;
      if (width < 64) v &= (uint64_t(1) << width) - 1;
      if (width < 32 && facts->is_signed.count(type) && facts->is_signed[type] &&
          (v >> (width - 1)) & 1)
        v |= ~((uint64_t(1) << width) - 1) & 0xffffffffu;
      const uint32_t n = width > 32 ? 2 : 1;
      out.insert(out.end(), {((3 + n) << 16) | OpSpecConstant, in[1], in[2], uint32_t(v)});
      if (n == 2) out.push_back(uint32_t(v >> 32));
      return;
    }
    out.insert(out.end(), in.begin(), in.end());
  });
  if (!refused.empty()) {
    error = refused;
    return std::nullopt;
  }
  legalize_for_translator(out);
  std::vector<uint8_t> result(out.size() * 4);
  std::memcpy(result.data(), out.data(), result.size());
  return result;
}

} // namespace amcl::compiler
