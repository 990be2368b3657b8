// A small MessagePack reader for the AMDGPU code-object metadata note (NT_AMDGPU_METADATA).
// Malformed input yields nothing instead of throwing or reading out of bounds.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace amcl::compiler {

struct MsgEntry;

struct MsgValue {
  enum class Kind { Nil, Bool, Int, Float, String, Array, Map } kind = Kind::Nil;
  bool b = false;
  int64_t i = 0;
  double f = 0;
  std::string s;
  std::vector<MsgValue> array;
  std::vector<MsgEntry> map; // in stream order; keys need not be strings

  const MsgValue* get(const std::string& key) const;
  int64_t int_or(const std::string& key, int64_t dflt) const;
  std::string str_or(const std::string& key, const std::string& dflt) const;
};

// A map entry is its own type, not std::pair, because pair may not be instantiated with the
// still-incomplete MsgValue (clang's libstdc++ checks reject it).
struct MsgEntry {
  MsgValue key, value;
};

std::optional<MsgValue> parse_msgpack(std::span<const uint8_t> bytes);

} // namespace amcl::compiler
