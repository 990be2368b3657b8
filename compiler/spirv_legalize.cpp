#include "spirv_legalize.h"
#include "spirv_opcodes.h"

#include <algorithm>
#include <optional>
#include <span>
#include <unordered_map>
#include <unordered_set>

namespace amcl::compiler {
namespace {

using namespace spv;
constexpr uint32_t kStorageFunction = 7; // StorageClass Function

// Instructions whose result type and result id are words 1 and 2, among those an operand of the
// rewritten instructions can come from (values, pointers, integers).
const std::unordered_set<uint16_t> kTypedResults = {
    1,   12,  43,  44,  46,  50,  55,  57,  59,  61,  65,  66,  67,  70,  77,
    78,  79,  80,  81,  82,  83,  113, 114, 117, 120, 121, 122, 124, 126, 128,
    130, 132, 134, 135, 137, 138, 139, 169, 194, 195, 196, 197, 198, 199, 200,
    245, 229, 230, 231, 232, 234, 235, 236, 237, 238, 239, 240, 241, 242};

uint32_t word_op(uint32_t w) {
  return w & 0xffff;
}
uint32_t word_count(uint32_t w) {
  return w >> 16;
}
uint32_t head(uint16_t op, size_t count) {
  return uint32_t(count) << 16 | op;
}

// Bits of memory operands after a mask word (MemoryAccess: Aligned takes a literal,
// MakePointerAvailable/Visible an id).
size_t memory_operand_words(uint32_t mask) {
  return 1 + ((mask & 0x2) ? 1 : 0) + ((mask & 0x8) ? 1 : 0) + ((mask & 0x10) ? 1 : 0);
}

struct Facts {
  unsigned pointer_bits = 64;
  std::unordered_map<uint32_t, uint32_t> int_bits, float_bits;         // type -> width
  std::unordered_map<uint32_t, std::pair<uint32_t, uint32_t>> vectors; // type -> (comp, n)
  std::unordered_map<uint32_t, uint32_t> pointee;                      // pointer type -> type
  std::unordered_map<uint32_t, std::pair<uint32_t, uint32_t>> arrays;  // type -> (elem, len id)
  std::unordered_map<uint32_t, std::vector<uint32_t>> structs;         // type -> members
  std::unordered_map<uint32_t, uint64_t> constants;                    // id -> value
  std::unordered_map<uint32_t, uint32_t> type_of;                      // value id -> type
  std::optional<uint32_t> uptr;                                        // int of pointer width
};

Facts read_facts(std::span<const uint32_t> words) {
  Facts f;
  for (size_t at = kHeaderWords; at < words.size();) {
    const uint32_t n = word_count(words[at]);
    if (n == 0 || at + n > words.size()) break;
    const auto in = words.subspan(at, n);
    switch (word_op(in[0])) {
    case OpMemoryModel:
      if (n >= 2) f.pointer_bits = in[1] == 1 ? 32 : 64; // Physical32 : Physical64
      break;
    case OpTypeInt:
      if (n >= 4) f.int_bits[in[1]] = in[2];
      break;
    case OpTypeFloat:
      if (n >= 3) f.float_bits[in[1]] = in[2];
      break;
    case OpTypeVector:
      if (n >= 4) f.vectors[in[1]] = {in[2], in[3]};
      break;
    case OpTypePointer:
      if (n >= 4) f.pointee[in[1]] = in[3];
      break;
    case OpTypeArray:
      if (n >= 4) f.arrays[in[1]] = {in[2], in[3]};
      break;
    case OpTypeStruct:
      if (n >= 2) f.structs[in[1]] = std::vector<uint32_t>(in.begin() + 2, in.end());
      break;
    case OpConstant:
      if (n >= 4) f.constants[in[2]] = n >= 5 ? in[3] | uint64_t(in[4]) << 32 : in[3];
      break;
    default:
      break;
    }
    if (n >= 3 && kTypedResults.count(uint16_t(word_op(in[0])))) f.type_of[in[2]] = in[1];
    at += n;
  }
  for (const auto& [type, bits] : f.int_bits)
    if (bits == f.pointer_bits) f.uptr = type;
  return f;
}

// Size and alignment in bytes of a type (OpenCL C's layout), or nothing if not computable.
std::optional<std::pair<uint64_t, uint64_t>> size_align(const Facts& f, uint32_t type,
                                                        int depth = 0) {
  if (depth > 16) return std::nullopt;
  if (auto i = f.int_bits.find(type); i != f.int_bits.end())
    return {{i->second / 8, i->second / 8}};
  if (auto i = f.float_bits.find(type); i != f.float_bits.end())
    return {{i->second / 8, i->second / 8}};
  if (f.pointee.count(type)) return {{f.pointer_bits / 8, f.pointer_bits / 8}};
  if (auto v = f.vectors.find(type); v != f.vectors.end()) {
    auto c = size_align(f, v->second.first, depth + 1);
    if (!c) return std::nullopt;
    const uint64_t n = v->second.second == 3 ? 4 : v->second.second;
    return {{c->first * n, c->first * n}};
  }
  if (auto a = f.arrays.find(type); a != f.arrays.end()) {
    auto e = size_align(f, a->second.first, depth + 1);
    auto len = f.constants.find(a->second.second);
    if (!e || len == f.constants.end()) return std::nullopt;
    return {{e->first * len->second, e->second}};
  }
  if (auto s = f.structs.find(type); s != f.structs.end()) {
    uint64_t size = 0, align = 1;
    for (uint32_t m : s->second) {
      auto e = size_align(f, m, depth + 1);
      if (!e || e->second == 0) return std::nullopt;
      size = (size + e->second - 1) / e->second * e->second + e->first;
      align = std::max(align, e->second);
    }
    return {{(size + align - 1) / align * align, align}};
  }
  return std::nullopt;
}

// OpCopyLogical of `value` (type `from`) into `result` (type `to`), as extracts of each member
// or element, their copies, and a construct; with `out` null only says whether it can. Types
// that are the same id need no copy below the top.
// `budget` bounds the members visited (nested arrays of a mutated module could ask for
// billions).
template <class Fresh>
bool copy_logical(const Facts& f, uint32_t to, uint32_t result, uint32_t from, uint32_t value,
                  Fresh& fresh, std::vector<uint32_t>* out, unsigned& budget, int depth = 0) {
  if (depth > 16 || budget == 0) return false;
  --budget;
  if (to == from) {
    if (out) out->insert(out->end(), {head(OpCopyObject, 4), to, result, value});
    return true;
  }
  std::vector<std::pair<uint32_t, uint32_t>> parts; // (to member, from member)
  auto ts = f.structs.find(to), fs = f.structs.find(from);
  auto ta = f.arrays.find(to), fa = f.arrays.find(from);
  if (ts != f.structs.end() && fs != f.structs.end() && ts->second.size() == fs->second.size()) {
    for (size_t i = 0; i < ts->second.size(); ++i) parts.push_back({ts->second[i], fs->second[i]});
  } else if (ta != f.arrays.end() && fa != f.arrays.end()) {
    auto tl = f.constants.find(ta->second.second), fl = f.constants.find(fa->second.second);
    if (tl == f.constants.end() || fl == f.constants.end() || tl->second != fl->second ||
        tl->second > 4096)
      return false;
    parts.assign(tl->second, {ta->second.first, fa->second.first});
  } else {
    return false;
  }
  std::vector<uint32_t> members;
  for (size_t i = 0; i < parts.size(); ++i) {
    const auto [t, s] = parts[i];
    if (!out) {
      if (!copy_logical(f, t, 0, s, 0, fresh, nullptr, budget, depth + 1)) return false;
      continue;
    }
    const uint32_t extracted = fresh();
    out->insert(out->end(), {head(OpCompositeExtract, 5), s, extracted, value, uint32_t(i)});
    uint32_t copied = extracted;
    if (t != s) {
      copied = fresh();
      copy_logical(f, t, copied, s, extracted, fresh, out, budget, depth + 1);
    }
    members.push_back(copied);
  }
  if (out) {
    out->insert(out->end(), {head(OpCompositeConstruct, 3 + members.size()), to, result});
    out->insert(out->end(), members.begin(), members.end());
  }
  return true;
}

} // namespace

void legalize_for_translator(std::vector<uint32_t>& words) {
  if (words.size() < kHeaderWords) return;
  Facts f = read_facts(words);
  std::vector<uint32_t> out(words.begin(), words.begin() + kHeaderWords), decls;
  std::optional<size_t> first_function; // where new declarations go, in `out`
  bool at_function_start = false, in_variables = false;
  std::vector<uint32_t> initial_stores;
  auto fresh = [&] { return out[3]++; };
  auto uptr = [&]() -> uint32_t {
    if (!f.uptr) {
      f.uptr = fresh();
      decls.insert(decls.end(), {head(OpTypeInt, 4), *f.uptr, f.pointer_bits, 0});
      f.int_bits[*f.uptr] = f.pointer_bits;
    }
    return *f.uptr;
  };
  auto is_pointer = [&](uint32_t id) {
    auto t = f.type_of.find(id);
    return t != f.type_of.end() && f.pointee.count(t->second);
  };
  // Total bits of an integer scalar or vector type (0: not one).
  auto int_total = [&](uint32_t type) -> uint32_t {
    if (auto i = f.int_bits.find(type); i != f.int_bits.end()) return i->second;
    if (auto v = f.vectors.find(type); v != f.vectors.end())
      if (auto i = f.int_bits.find(v->second.first); i != f.int_bits.end())
        return i->second * v->second.second;
    return 0;
  };

  for (size_t at = kHeaderWords; at < words.size();) {
    const uint32_t n = word_count(words[at]);
    if (n == 0 || at + n > words.size()) { // malformed: the rest as it is, for the translator
      out.insert(out.end(), words.begin() + long(at), words.end());
      break;
    }
    const std::span<const uint32_t> in(words.data() + at, n);
    at += n;
    const uint16_t op = uint16_t(word_op(in[0]));
    if (op == OpFunction && !first_function) first_function = out.size();
    // Function variables with an initializer: translator 15 makes each a private global (one
    // for all work-items, and one AMDGPU cannot select), so the variable loses its initializer
    // and a store after the entry block's variables gives it.
    if (op == OpFunction) at_function_start = true;
    if (op == OpLabel && at_function_start) {
      at_function_start = false;
      in_variables = true;
      out.insert(out.end(), in.begin(), in.end());
      continue;
    }
    if (in_variables && op == OpVariable && n == 5 && in[3] == kStorageFunction) {
      out.insert(out.end(), {head(OpVariable, 4), in[1], in[2], in[3]});
      initial_stores.insert(initial_stores.end(), {head(OpStore, 3), in[2], in[4]});
      continue;
    }
    if (in_variables && op != OpVariable && op != OpLine && op != OpNoLine) {
      in_variables = false;
      out.insert(out.end(), initial_stores.begin(), initial_stores.end());
      initial_stores.clear();
    }
    if (op == OpDecorateString || op == OpMemberDecorateString) continue;
    // OpCopyMemory: translator 15 asserts on it ("Invalid Id") whatever its operands, so it
    // becomes a load and a store. Of two memory-operand sets (SPIR-V 1.4) the first is the
    // target's, the second the source's; one set is both's.
    if (op == OpCopyMemory && n >= 3 && f.type_of.count(in[2]) &&
        f.pointee.count(f.type_of[in[2]])) {
      const std::vector<uint32_t> target_mem(
          in.begin() + 3,
          in.begin() + long(n > 3 ? std::min<size_t>(n, 3 + memory_operand_words(in[3])) : 3));
      std::vector<uint32_t> source_mem(in.begin() + 3 + long(target_mem.size()), in.end());
      if (source_mem.empty()) source_mem = target_mem;
      const uint32_t value = fresh();
      out.push_back(head(OpLoad, 4 + source_mem.size()));
      out.insert(out.end(), {f.pointee[f.type_of[in[2]]], value, in[2]});
      out.insert(out.end(), source_mem.begin(), source_mem.end());
      out.push_back(head(OpStore, 3 + target_mem.size()));
      out.insert(out.end(), {in[1], value});
      out.insert(out.end(), target_mem.begin(), target_mem.end());
      continue;
    }
    if ((op == OpCopyMemory && n > 3) || (op == OpCopyMemorySized && n > 4)) {
      const size_t first = op == OpCopyMemory ? 3 : 4;
      const size_t keep = std::min<size_t>(n, first + memory_operand_words(in[first]));
      out.push_back(head(op, keep));
      out.insert(out.end(), in.begin() + 1, in.begin() + long(keep));
      continue;
    }
    if ((op == OpPtrEqual || op == OpPtrNotEqual || op == OpPtrDiff) && n == 5) {
      const uint32_t type = in[1], result = in[2], a = fresh(), b = fresh(), u = uptr();
      out.insert(out.end(), {head(OpConvertPtrToU, 4), u, a, in[3]});
      out.insert(out.end(), {head(OpConvertPtrToU, 4), u, b, in[4]});
      if (op != OpPtrDiff) {
        out.insert(out.end(),
                   {head(op == OpPtrEqual ? OpIEqual : OpINotEqual, 5), type, result, a, b});
        continue;
      }
      // (a - b) / sizeof(*a), in the result's width.
      auto size = size_align(f, f.pointee[f.type_of[in[3]]]);
      const uint32_t diff = fresh(), quotient = fresh(), size_id = fresh();
      const uint32_t bytes = uint32_t(size ? size->first : 1);
      if (f.pointer_bits == 64)
        decls.insert(decls.end(), {head(OpConstant, 5), u, size_id, bytes, 0});
      else
        decls.insert(decls.end(), {head(OpConstant, 4), u, size_id, bytes});
      out.insert(out.end(), {head(OpISub, 5), u, diff, a, b});
      const bool same = f.int_bits.count(type) && f.int_bits[type] == f.pointer_bits;
      out.insert(out.end(),
                 {head(OpSDiv, 5), same ? type : u, same ? result : quotient, diff, size_id});
      if (!same) out.insert(out.end(), {head(OpSConvert, 4), type, result, quotient});
      continue;
    }
    unsigned check_budget = 4096, copy_budget = 4096;
    if (op == OpCopyLogical && n == 4 && f.type_of.count(in[3]) &&
        copy_logical(f, in[1], in[2], f.type_of[in[3]], in[3], fresh, nullptr, check_budget))
      copy_logical(f, in[1], in[2], f.type_of[in[3]], in[3], fresh, &out, copy_budget);
    else if (op == OpCopyLogical)
      out.insert(out.end(), in.begin(), in.end());
    if (op == OpCopyLogical) continue;
    if (op == OpBitcast && n == 4) {
      const uint32_t type = in[1], result = in[2], value = in[3];
      const bool to_pointer = f.pointee.count(type) != 0, from_pointer = is_pointer(value);
      const uint32_t bits =
          to_pointer ? int_total(f.type_of.count(value) ? f.type_of[value] : 0) : int_total(type);
      if (to_pointer != from_pointer && bits == f.pointer_bits) {
        const bool scalar =
            to_pointer ? f.int_bits.count(f.type_of[value]) != 0 : f.int_bits.count(type) != 0;
        if (from_pointer && scalar) {
          out.insert(out.end(), {head(OpConvertPtrToU, 4), type, result, value});
        } else if (from_pointer) {
          const uint32_t t = fresh(), u = uptr();
          out.insert(out.end(), {head(OpConvertPtrToU, 4), u, t, value});
          out.insert(out.end(), {head(OpBitcast, 4), type, result, t});
        } else if (scalar) {
          out.insert(out.end(), {head(OpConvertUToPtr, 4), type, result, value});
        } else {
          const uint32_t t = fresh(), u = uptr();
          out.insert(out.end(), {head(OpBitcast, 4), u, t, value});
          out.insert(out.end(), {head(OpConvertUToPtr, 4), type, result, t});
        }
        continue;
      }
    }
    out.insert(out.end(), in.begin(), in.end());
  }
  if (!decls.empty() && first_function)
    out.insert(out.begin() + long(*first_function), decls.begin(), decls.end());
  words = std::move(out);
}

} // namespace amcl::compiler
