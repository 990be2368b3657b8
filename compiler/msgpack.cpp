#include "msgpack.h"

#include <cstring>

namespace amcl::compiler {
namespace {

class Reader {
public:
  explicit Reader(std::span<const uint8_t> b) : b_(b) {}
  bool value(MsgValue& out, int depth = 0) {
    if (depth > 64) return false;
    uint8_t t;
    if (!u8(t)) return false;
    if (t <= 0x7f) return set_int(out, t);
    if (t >= 0xe0) return set_int(out, int8_t(t));
    if ((t & 0xf0) == 0x80) return map(out, t & 0x0f, depth);
    if ((t & 0xf0) == 0x90) return array(out, t & 0x0f, depth);
    if ((t & 0xe0) == 0xa0) return str(out, t & 0x1f);
    uint64_t n;
    switch (t) {
    case 0xc0: out.kind = MsgValue::Kind::Nil; return true;
    case 0xc2: case 0xc3: out.kind = MsgValue::Kind::Bool; out.b = t == 0xc3; return true;
    case 0xcc: return be(1, n) && set_int(out, int64_t(n));
    case 0xcd: return be(2, n) && set_int(out, int64_t(n));
    case 0xce: return be(4, n) && set_int(out, int64_t(n));
    case 0xcf: return be(8, n) && set_int(out, int64_t(n));
    case 0xd0: return be(1, n) && set_int(out, int8_t(n));
    case 0xd1: return be(2, n) && set_int(out, int16_t(n));
    case 0xd2: return be(4, n) && set_int(out, int32_t(n));
    case 0xd3: return be(8, n) && set_int(out, int64_t(n));
    case 0xca: { if (!be(4, n)) return false; float f; uint32_t v = uint32_t(n); std::memcpy(&f, &v, 4);
                 out.kind = MsgValue::Kind::Float; out.f = f; return true; }
    case 0xcb: { if (!be(8, n)) return false; double d; std::memcpy(&d, &n, 8);
                 out.kind = MsgValue::Kind::Float; out.f = d; return true; }
    case 0xd9: case 0xc4: return be(1, n) && str(out, n);
    case 0xda: case 0xc5: return be(2, n) && str(out, n);
    case 0xdb: case 0xc6: return be(4, n) && str(out, n);
    case 0xdc: return be(2, n) && array(out, n, depth);
    case 0xdd: return be(4, n) && array(out, n, depth);
    case 0xde: return be(2, n) && map(out, n, depth);
    case 0xdf: return be(4, n) && map(out, n, depth);
    default: return false;
    }
  }

private:
  bool u8(uint8_t& v) {
    if (pos_ >= b_.size()) return false;
    v = b_[pos_++];
    return true;
  }
  bool be(unsigned bytes, uint64_t& v) {
    v = 0;
    for (unsigned i = 0; i < bytes; ++i) {
      uint8_t x;
      if (!u8(x)) return false;
      v = (v << 8) | x;
    }
    return true;
  }
  static bool set_int(MsgValue& out, int64_t v) {
    out.kind = MsgValue::Kind::Int;
    out.i = v;
    return true;
  }
  bool str(MsgValue& out, uint64_t n) {
    if (n > b_.size() - pos_) return false;
    out.kind = MsgValue::Kind::String;
    out.s.assign(reinterpret_cast<const char*>(b_.data() + pos_), n);
    pos_ += n;
    return true;
  }
  bool array(MsgValue& out, uint64_t n, int depth) {
    if (n > b_.size() - pos_) return false; // each element takes at least one byte
    out.kind = MsgValue::Kind::Array;
    // Grown element by element: a forged count must not allocate before the bytes back it.
    for (uint64_t i = 0; i < n; ++i)
      if (!value(out.array.emplace_back(), depth + 1)) return false;
    return true;
  }
  bool map(MsgValue& out, uint64_t n, int depth) {
    if (n > (b_.size() - pos_) / 2) return false;
    out.kind = MsgValue::Kind::Map;
    for (uint64_t i = 0; i < n; ++i) {
      auto& [k, v] = out.map.emplace_back();
      if (!value(k, depth + 1) || !value(v, depth + 1)) return false;
    }
    return true;
  }
  std::span<const uint8_t> b_;
  size_t pos_ = 0;
};

} // namespace

const MsgValue* MsgValue::get(const std::string& key) const {
  if (kind != Kind::Map) return nullptr;
  for (auto& [k, v] : map)
    if (k.kind == Kind::String && k.s == key) return &v;
  return nullptr;
}

int64_t MsgValue::int_or(const std::string& key, int64_t dflt) const {
  const MsgValue* v = get(key);
  return v && v->kind == Kind::Int ? v->i : dflt;
}

std::string MsgValue::str_or(const std::string& key, const std::string& dflt) const {
  const MsgValue* v = get(key);
  return v && v->kind == Kind::String ? v->s : dflt;
}

std::optional<MsgValue> parse_msgpack(std::span<const uint8_t> bytes) {
  Reader r(bytes);
  MsgValue v;
  if (!r.value(v)) return std::nullopt;
  return v;
}

} // namespace amcl::compiler
