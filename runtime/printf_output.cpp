#include "printf_output.h"

#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace amcl::rt {
namespace {

struct Spec {
  std::string flags_width_precision; // e.g. "-08.3"
  unsigned vector = 0;               // vN; 0 for a scalar
  std::string length;                // hh, h, hl, l (as written)
  char conversion = 0;
};

bool is_conversion(char c) {
  return std::strchr("diouxXcfFeEgGaAsp", c) != nullptr;
}

// Parses the conversion starting after '%' at format[i]; advances i past it.
bool parse_spec(const std::string& format, size_t& i, Spec& s) {
  while (i < format.size() && std::strchr("-+ #0", format[i]))
    s.flags_width_precision += format[i++];
  while (i < format.size() && (std::isdigit(uint8_t(format[i])) || format[i] == '.'))
    s.flags_width_precision += format[i++];
  if (i < format.size() && format[i] == 'v') {
    ++i;
    while (i < format.size() && std::isdigit(uint8_t(format[i])))
      s.vector = s.vector * 10 + unsigned(format[i++] - '0');
    if (s.vector != 2 && s.vector != 3 && s.vector != 4 && s.vector != 8 && s.vector != 16)
      return false;
  }
  while (i < format.size() && (format[i] == 'h' || format[i] == 'l')) s.length += format[i++];
  if (i >= format.size() || !is_conversion(format[i])) return false;
  s.conversion = format[i++];
  return true;
}

uint64_t read_uint(const uint8_t* p, size_t bytes) {
  uint64_t v = 0;
  std::memcpy(&v, p, std::min<size_t>(bytes, 8));
  return v;
}

// IEEE 754 binary16 to double, exactly (every half is a double).
double half_to_double(uint16_t h) {
  const int sign = h >> 15 ? -1 : 1;
  const int exponent = (h >> 10) & 0x1f;
  const int mantissa = h & 0x3ff;
  if (exponent == 0x1f) return mantissa ? std::nan("") : sign * HUGE_VAL;
  if (exponent == 0) return sign * std::ldexp(double(mantissa), -24); // zero and subnormals
  return sign * std::ldexp(double(mantissa | 0x400), exponent - 25);
}

// One scalar value of `bytes` bytes, formatted with the spec's flags and conversion.
std::string format_value(const Spec& s, const uint8_t* p, size_t bytes) {
  char out[512];
  const std::string head = "%" + s.flags_width_precision;
  switch (s.conversion) {
  case 'f':
  case 'F':
  case 'e':
  case 'E':
  case 'g':
  case 'G':
  case 'a':
  case 'A': {
    double v;
    if (bytes == 2) {
      v = half_to_double(uint16_t(read_uint(p, 2))); // an element of a half vector (%v4hf)
    } else if (bytes == 4) {
      float f;
      std::memcpy(&f, p, 4);
      v = f;
    } else {
      std::memcpy(&v, p, 8);
    }
    std::snprintf(out, sizeof out, (head + s.conversion).c_str(), v);
    return out;
  }
  case 'p':
    std::snprintf(out, sizeof out, (head + "p").c_str(),
                  reinterpret_cast<void*>(uintptr_t(read_uint(p, bytes))));
    return out;
  case 'c':
    std::snprintf(out, sizeof out, (head + "c").c_str(), int(int8_t(read_uint(p, bytes))));
    return out;
  default: { // d i o u x X: sign-extend from the stored width, then let the length modifier narrow
    uint64_t u = read_uint(p, bytes);
    const bool is_signed = s.conversion == 'd' || s.conversion == 'i';
    int64_t v = int64_t(u);
    if (bytes < 8) {
      const unsigned shift = unsigned(64 - 8 * bytes);
      v = is_signed ? (int64_t(u << shift) >> shift) : int64_t((u << shift) >> shift);
    }
    std::string length = s.length == "hl" ? "" : s.length == "l" ? "ll" : s.length;
    std::snprintf(out, sizeof out, (head + length + s.conversion).c_str(), (long long)v);
    return out;
  }
  }
}

} // namespace

std::string format_printf_records(const std::vector<compiler::PrintfFormat>& formats,
                                  std::span<const uint8_t> records) {
  std::string text;
  size_t pos = 0;
  while (pos + 4 <= records.size()) {
    const uint32_t id = uint32_t(read_uint(records.data() + pos, 4));
    const compiler::PrintfFormat* f = nullptr;
    for (const auto& candidate : formats)
      if (candidate.id == id) f = &candidate;
    if (!f) break;
    size_t need = 4;
    for (uint32_t s : f->arg_sizes) need += s;
    if (need > records.size() - pos) break;
    const uint8_t* arg = records.data() + pos + 4;
    size_t next_arg = 0;
    const std::string& fmt = f->format;
    for (size_t i = 0; i < fmt.size();) {
      if (fmt[i] != '%') {
        text += fmt[i++];
        continue;
      }
      if (i + 1 < fmt.size() && fmt[i + 1] == '%') {
        text += '%';
        i += 2;
        continue;
      }
      const size_t start = i++;
      Spec s;
      if (!parse_spec(fmt, i, s) || next_arg >= f->arg_sizes.size()) {
        text += fmt.substr(start, i - start); // not a conversion OpenCL defines: as written
        continue;
      }
      const uint32_t size = f->arg_sizes[next_arg++];
      if (s.conversion == 's') {
        // The lowering stores literal strings inline, NUL-padded to 4 bytes; 0xFFFFFF00 marks "".
        const bool empty = size == 4 && read_uint(arg, 4) == 0xFFFFFF00u;
        const std::string str =
            empty ? ""
                  : std::string(reinterpret_cast<const char*>(arg),
                                strnlen(reinterpret_cast<const char*>(arg), size));
        char out[1024];
        std::snprintf(out, sizeof out, ("%" + s.flags_width_precision + "s").c_str(), str.c_str());
        text += out;
      } else if (s.vector) {
        const unsigned stored = s.vector == 3 ? 4 : s.vector; // 3-vectors travel as 4
        const size_t element = size / stored;
        for (unsigned e = 0; e < s.vector && element; ++e) {
          if (e) text += ',';
          text += format_value(s, arg + e * element, element);
        }
      } else {
        text += format_value(s, arg, size);
      }
      arg += size;
    }
    pos += need;
  }
  return text;
}

} // namespace amcl::rt
