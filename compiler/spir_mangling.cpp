#include "spir_mangling.h"

#include <cctype>

namespace amcl::compiler {
namespace {

// Itanium C++ ABI 5.1 "External Names", as clang applies it (ItaniumMangle.cpp mangleType):
// every type but a builtin one is a substitution candidate once mangled, a qualified type
// as a whole (all its qualifiers at once) after the type it qualifies.
struct Reader {
  std::string_view s;
  size_t at = 0;
  std::vector<MangledType> table;
  bool ok = true;

  bool eat(std::string_view p) {
    if (s.substr(at, p.size()) != p) return false;
    at += p.size();
    return true;
  }
  size_t number() {
    size_t n = 0, start = at;
    while (at < s.size() && std::isdigit(static_cast<unsigned char>(s[at])))
      n = n * 10 + size_t(s[at++] - '0');
    if (at == start || n > 4096) ok = false;
    return n;
  }
  std::string source_name() {
    const size_t n = number();
    if (!ok || at + n > s.size()) return ok = false, "";
    std::string name(s.substr(at, n));
    at += n;
    return name;
  }
  MangledType add(MangledType t) {
    table.push_back(t);
    return t;
  }
  MangledType type() {
    if (!ok || at >= s.size()) return ok = false, MangledType{};
    static constexpr std::string_view kBuiltins = "vwbcahstijlmxynofdeg";
    const char c = s[at];
    if (kBuiltins.find(c) != std::string_view::npos)
      return ++at, MangledType{MangledType::Builtin, std::string(1, c)};
    if (eat("Dh")) return {MangledType::Builtin, "Dh"};
    if (eat("Dv")) {
      MangledType v{MangledType::Vector, std::to_string(number())};
      if (!eat("_")) return ok = false, v;
      v.inner.push_back(type());
      return add(v);
    }
    if (eat("P")) {
      MangledType p{MangledType::Pointer};
      p.inner.push_back(type());
      return add(p);
    }
    if (c == 'U' || c == 'r' || c == 'V' || c == 'K') {
      MangledType q{MangledType::Qualified};
      while (ok && eat("U")) {
        const std::string vendor = source_name();
        if (vendor.rfind("AS", 0) != 0 || vendor.size() < 3) return ok = false, q;
        q.address_space = std::stoi(vendor.substr(2));
      }
      while (at < s.size() && (s[at] == 'r' || s[at] == 'V' || s[at] == 'K')) q.cvr += s[at++];
      q.inner.push_back(type());
      return add(q);
    }
    if (std::isdigit(static_cast<unsigned char>(c)))
      return add({MangledType::Named, source_name()});
    if (eat("S")) {
      size_t index = 0;
      if (!eat("_")) {
        // <seq-id>: base 36, digits then upper-case letters; S<n>_ is candidate n + 1.
        size_t n = 0;
        while (at < s.size() && s[at] != '_') {
          const char d = s[at++];
          if (std::isdigit(static_cast<unsigned char>(d)))
            n = n * 36 + size_t(d - '0');
          else if (d >= 'A' && d <= 'Z')
            n = n * 36 + size_t(d - 'A' + 10);
          else
            return ok = false, MangledType{};
        }
        if (!eat("_")) return ok = false, MangledType{};
        index = n + 1;
      }
      if (index >= table.size()) return ok = false, MangledType{};
      return table[index];
    }
    return ok = false, MangledType{};
  }
};

bool same(const MangledType& a, const MangledType& b) {
  if (a.kind != b.kind || a.code != b.code || a.address_space != b.address_space ||
      a.cvr != b.cvr || a.inner.size() != b.inner.size())
    return false;
  for (size_t i = 0; i < a.inner.size(); ++i)
    if (!same(a.inner[i], b.inner[i])) return false;
  return true;
}

struct Writer {
  std::string out;
  std::vector<MangledType> table;

  void type(const MangledType& t) {
    if (t.kind == MangledType::Builtin) {
      out += t.code;
      return;
    }
    for (size_t i = 0; i < table.size(); ++i)
      if (same(table[i], t)) {
        out += i == 0 ? "S_" : "S" + seq_id(i - 1) + "_";
        return;
      }
    switch (t.kind) {
    case MangledType::Named:
      out += std::to_string(t.code.size()) + t.code;
      break;
    case MangledType::Vector:
      out += "Dv" + t.code + "_";
      type(t.inner[0]);
      break;
    case MangledType::Pointer:
      out += "P";
      type(t.inner[0]);
      break;
    case MangledType::Qualified: {
      if (t.address_space >= 0) {
        const std::string as = "AS" + std::to_string(t.address_space);
        out += "U" + std::to_string(as.size()) + as;
      }
      out += t.cvr;
      type(t.inner[0]);
      break;
    }
    case MangledType::Builtin:
      break;
    }
    table.push_back(t);
  }
  static std::string seq_id(size_t n) {
    std::string digits;
    do {
      const size_t d = n % 36;
      digits.insert(digits.begin(), char(d < 10 ? '0' + d : 'A' + d - 10));
      n /= 36;
    } while (n);
    return digits;
  }
};

// SPIR's address space of what a pointer points to -> AMDGPU's (-1: unqualified). SPIR:
// clang's SPIRAddrSpaceMap; AMDGPU: AMDGPUUsage "Address Spaces" (generic is 0, unmangled).
int amdgpu_address_space(int spir) {
  switch (spir) {
  case -1:
    return 5; // private
  case 2:
    return 4; // constant
  case 4:
    return -1; // generic
  default:
    return spir;
  }
}

void remap(MangledType& t) {
  for (MangledType& i : t.inner) remap(i);
  if (t.kind != MangledType::Pointer) return;
  MangledType& pointee = t.inner[0];
  if (pointee.kind != MangledType::Qualified) {
    MangledType q{MangledType::Qualified};
    q.inner.push_back(pointee);
    pointee = q;
  }
  pointee.address_space = amdgpu_address_space(pointee.address_space);
  if (pointee.address_space < 0 && pointee.cvr.empty()) {
    MangledType bare = pointee.inner[0];
    pointee = bare;
  }
}

} // namespace

std::optional<MangledFunction> demangle_builtin(std::string_view mangled) {
  Reader r{mangled};
  if (!r.eat("_Z")) return std::nullopt;
  MangledFunction f;
  f.name = r.source_name();
  while (r.ok && r.at < mangled.size()) f.params.push_back(r.type());
  if (!r.ok || f.params.empty()) return std::nullopt;
  return f;
}

std::string mangle_builtin(const MangledFunction& f) {
  Writer w;
  w.out = "_Z" + std::to_string(f.name.size()) + f.name;
  for (const MangledType& t : f.params) w.type(t);
  return w.out;
}

std::optional<std::string> spir_to_amdgpu_name(std::string_view spir) {
  auto f = demangle_builtin(spir);
  if (!f) return std::nullopt;
  for (MangledType& t : f->params) remap(t);
  return mangle_builtin(*f);
}

} // namespace amcl::compiler
