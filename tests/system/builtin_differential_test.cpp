// Every overload of the builtin families builtin_kernel_generator writes kernels for runs on
// amcl and on PoCL with the same arguments, through the ICD loader in one process: the integer,
// relational and shuffle results agree bit for bit, the floating-point ones (math, common,
// geometric) within the sum of both implementations' error bounds (OpenCL C 3.0 §7.4); where
// they do not, the host's long double result decides which one is wrong. A file PoCL cannot
// build (half, which it lacks) still has to build and run on amcl, and its floating-point
// results are checked against the host's.
#include "builtin_test_platform.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <sstream>

namespace {

// builtin_kernel_generator.cpp's layout.
constexpr size_t kSlot = 128, kArgBlock = 3 * kSlot, kOutBlock = 2 * kSlot, kItems = 64,
                 kLocal = 32;

// Floating-point overloads amcl gets wrong on both cards: outside the bounds of §7.4 (or the
// exact result) of the host's long double result, where PoCL disagrees too or is the one that
// is right, or stopped by a fault. Each is an emulator or libclc bug to fix elsewhere, listed
// with the first failing argument the test meets. The test fails when one of them is right
// again: then take it off the list. None today: what libclc 22 gets wrong is corrected in
// compiler/math_builtins.cl.
const std::set<std::string> kKnownMismatches = {};
// The same, on RDNA4 (gfx12) only: none today.
const std::set<std::string> kKnownMismatchesRdna4 = {};

// The existing layout's launch: `items` work-items in work-groups of kLocal, out zeroed.
struct Platform : amcl_test::BuiltinPlatform {
  using BuiltinPlatform::BuiltinPlatform;
  std::string run(cl_program prog, const std::string& name, size_t items,
                  const std::vector<uint8_t>& in, std::vector<uint8_t>& out) {
    amcl_test::NdRange range;
    range.global[0] = items, range.local[0] = kLocal;
    std::fill(out.begin(), out.end(), 0);
    return BuiltinPlatform::run(prog, name, range, in, out);
  }
};

// Arguments: the first work-items get byte patterns that are special values for every
// component size (zero, all ones, 0x80.., 0x7f.., 0x01..), the others random bytes.
std::vector<uint8_t> arguments(const std::string& kernel) {
  std::vector<uint8_t> in(kItems * kArgBlock);
  std::mt19937 rng(uint32_t(std::hash<std::string>{}(kernel)));
  const uint8_t patterns[] = {0x00, 0xff, 0x80, 0x7f, 0x01};
  for (size_t i = 0; i < kItems; ++i)
    for (size_t b = 0; b < kArgBlock; ++b)
      in[i * kArgBlock + b] = i < std::size(patterns) ? patterns[i] : uint8_t(rng());
  return in;
}

// ---- The floating-point families (math, common, geometric): values and ULP bounds ----

// An overload's types, read back from its signature ("float4 fract(float4, __global float4 *)").
struct Type {
  char kind = 0; // 'i', 'u', 'f'
  unsigned bits = 0, width = 0;
  size_t bytes() const { return (width == 3 ? 4 : width) * bits / 8; }
};

Type parse_type(std::string name) {
  for (const char* space : {"__generic ", "__global ", "__local ", "__private "})
    if (name.rfind(space, 0) == 0) name.erase(0, std::strlen(space));
  if (const size_t star = name.find(" *"); star != std::string::npos) name.resize(star);
  static const struct {
    const char* name;
    char kind;
    unsigned bits;
  } kScalars[] = {{"char", 'i', 8},  {"uchar", 'u', 8},  {"short", 'i', 16}, {"ushort", 'u', 16},
                  {"int", 'i', 32},  {"uint", 'u', 32},  {"long", 'i', 64},  {"ulong", 'u', 64},
                  {"half", 'f', 16}, {"float", 'f', 32}, {"double", 'f', 64}};
  size_t digits = name.size();
  while (digits > 0 && std::isdigit(static_cast<unsigned char>(name[digits - 1]))) --digits;
  Type t;
  for (const auto& s : kScalars)
    if (name.substr(0, digits) == s.name) {
      t.kind = s.kind;
      t.bits = s.bits;
      t.width = digits == name.size() ? 1 : unsigned(std::stoul(name.substr(digits)));
    }
  return t;
}

struct Overload {
  std::string kernel, signature, fn;
  Type result;
  std::vector<Type> params; // the values
  bool pointer = false;     // a last parameter that points to a `out` value
  Type out;
};

Overload parse_overload(const std::string& kernel, const std::string& signature) {
  Overload o;
  o.kernel = kernel;
  o.signature = signature;
  const size_t space = signature.find(' '), open = signature.find('('),
               close = signature.rfind(')');
  o.result = parse_type(signature.substr(0, space));
  o.fn = signature.substr(space + 1, open - space - 1);
  std::string rest = signature.substr(open + 1, close - open - 1);
  for (size_t from = 0; from <= rest.size();) {
    size_t comma = rest.find(", ", from);
    if (comma == std::string::npos) comma = rest.size();
    const std::string param = rest.substr(from, comma - from);
    if (param.find(" *") != std::string::npos) {
      o.pointer = true;
      o.out = parse_type(param);
    } else {
      o.params.push_back(parse_type(param));
    }
    from = comma + 2;
  }
  return o;
}

// IEEE binary16/32/64: significand bits and the smallest normal exponent.
struct Format {
  unsigned bits, mant;
  int emin, emax;
};
Format format(unsigned bits) {
  return bits == 16   ? Format{16, 10, -14, 15}
         : bits == 32 ? Format{32, 23, -126, 127}
                      : Format{64, 52, -1022, 1023};
}

uint64_t load_bits(const uint8_t* p, unsigned bits) {
  uint64_t v = 0;
  std::memcpy(&v, p, bits / 8);
  return v;
}

double half_to_double(uint64_t h) {
  const double sign = h & 0x8000 ? -1 : 1;
  const int e = int(h >> 10) & 0x1f;
  const unsigned m = h & 0x3ff;
  if (e == 31) return m ? std::numeric_limits<double>::quiet_NaN() : sign * INFINITY;
  return sign * (e ? std::ldexp(1024 + m, e - 25) : std::ldexp(m, -24));
}

uint16_t double_to_half(double v) {
  if (std::isnan(v)) return 0x7e00;
  const uint16_t sign = std::signbit(v) ? 0x8000 : 0;
  const double a = std::fabs(v);
  if (a >= 65520) return sign | 0x7c00;
  if (a < std::ldexp(1, -14)) return sign | uint16_t(std::nearbyint(std::ldexp(a, 24)));
  int e;
  const double m = std::frexp(a, &e);                             // a = m * 2^e, m in [0.5, 1)
  const unsigned q = unsigned(std::nearbyint(std::ldexp(m, 11))); // 1024..2048
  return uint16_t(sign | (((e + 14) << 10) + (q - 1024)));        // q == 2048 carries
}

double load_fp(const uint8_t* p, unsigned bits) {
  if (bits == 16) return half_to_double(load_bits(p, 16));
  if (bits == 32) {
    float f;
    std::memcpy(&f, p, 4);
    return f;
  }
  double d;
  std::memcpy(&d, p, 8);
  return d;
}

void store_value(uint8_t* p, const Type& t, double v) {
  if (t.kind != 'f') {
    const int64_t i = int64_t(v);
    std::memcpy(p, &i, t.bits / 8);
  } else if (t.bits == 16) {
    const uint16_t h = double_to_half(v);
    std::memcpy(p, &h, 2);
  } else if (t.bits == 32) {
    const float f = float(v);
    std::memcpy(p, &f, 4);
  } else {
    std::memcpy(p, &v, 8);
  }
}

double bits_value(uint64_t bits, const Format& f) {
  if (f.bits == 16) return half_to_double(bits);
  uint8_t b[8];
  std::memcpy(b, &bits, 8);
  return load_fp(b, f.bits);
}

// Where a parameter's values come from.
enum class Domain {
  kFull,     // every class of value: the specials first, then random bits and magnitudes
  kModerate, // finite, mostly in [-100, 100], with zeros and a few tiny and large ones
  kRange,    // uniform in [lo, hi]
  kInteger,  // an int argument (pown, rootn, ldexp): small ones and the extremes
  kBits,     // nan's argument: any bits
};
struct Source {
  Domain domain = Domain::kFull;
  double lo = -10, hi = 10; // kRange; kFull's typical range
  bool trig = false;        // kFull: many values near multiples of pi/2
};

bool starts_with(const std::string& s, const char* prefix) {
  return s.rfind(prefix, 0) == 0;
}

Source source(const std::string& family, const std::string& fn, unsigned param) {
  Source s;
  const std::string base = starts_with(fn, "half_")     ? fn.substr(5)
                           : starts_with(fn, "native_") ? fn.substr(7)
                                                        : fn;
  if (base != fn) { // implementation-defined precision: arguments where the result is tame
    s.domain = Domain::kRange;
    if (base == "sin" || base == "cos" || base == "tan")
      s.lo = -1000, s.hi = 1000;
    else if (base == "exp" || base == "exp2" || base == "exp10")
      s.lo = -20, s.hi = 20;
    else if (base == "powr")
      s.lo = param == 0 ? 0.01 : -8, s.hi = param == 0 ? 100 : 8;
    else if (base == "divide")
      s.lo = param == 0 ? -1e6 : 0.5, s.hi = 1e6;
    else if (base == "recip")
      s.lo = 0.01, s.hi = 1e6;
    else
      s.lo = 1e-3, s.hi = 1e6; // log, log2, log10, rsqrt, sqrt
    return s;
  }
  if (fn == "nan") {
    s.domain = Domain::kBits;
  } else if ((fn == "ldexp" || fn == "pown" || fn == "rootn") && param == 1) {
    s.domain = Domain::kInteger;
  } else if (family != "math") { // common and geometric: finite values
    s.domain = Domain::kModerate;
    if (fn == "mix" && param == 2) s.domain = Domain::kRange, s.lo = 0, s.hi = 1;
    if (fn == "smoothstep" && param < 2) // edge0 < 0 < edge1 before the kernel's min and max
      s.domain = Domain::kRange, s.lo = param == 0 ? -10 : 0.5, s.hi = param == 0 ? -0.5 : 10;
    if (fn == "degrees" || fn == "radians" || fn == "sign" || fn == "step")
      s.domain = Domain::kFull;
  } else if (fn == "sin" || fn == "cos" || fn == "tan" || fn == "sincos") {
    s.trig = true, s.lo = -1e4, s.hi = 1e4;
  } else if (fn == "sinpi" || fn == "cospi" || fn == "tanpi") {
    s.lo = -1e3, s.hi = 1e3;
  } else if (fn == "acos" || fn == "asin" || fn == "acospi" || fn == "asinpi" || fn == "atanh") {
    s.lo = -1.1, s.hi = 1.1;
  } else if (fn == "acosh") {
    s.lo = 0.9, s.hi = 20;
  } else if (starts_with(fn, "log") || fn == "sqrt" || fn == "rsqrt" || fn == "powr" ||
             fn == "tgamma" || starts_with(fn, "lgamma")) {
    s.lo = fn == "log1p" ? -1.1 : fn == "tgamma" || starts_with(fn, "lgamma") ? -8 : 0, s.hi = 40;
  } else if (starts_with(fn, "exp") || fn == "sinh" || fn == "cosh" || fn == "tanh") {
    s.lo = -100, s.hi = 100;
  }
  return s;
}

// The specials a parameter starts with (each combination of the parameters' specials comes
// before any random value).
std::vector<double> specials(const Source& s, const Type& t) {
  if (s.domain == Domain::kInteger)
    return {0, 1, -1, 2, -2, 3, -7, 31, 2147483647, -2147483647 - 1};
  if (s.domain == Domain::kBits) return {0, 1, 0x400000};
  if (s.domain == Domain::kRange) return {s.lo, s.hi, (s.lo + s.hi) / 2};
  const Format f = format(t.bits);
  const uint64_t sign = uint64_t(1) << (f.bits - 1), inf = (sign - 1) >> f.mant << f.mant;
  const uint64_t min_normal = uint64_t(1) << f.mant, max_denorm = min_normal - 1;
  if (s.domain == Domain::kModerate)
    return {0, -0.0, 1, -1, 0.5, -3, 100, -100, 1e-3, 7.25, 33.5, -0.125};
  std::vector<double> v;
  for (uint64_t b :
       {uint64_t(0), sign, inf, inf | sign, inf | uint64_t(1) << (f.mant - 1), uint64_t(1),
        uint64_t(1) | sign, max_denorm, min_normal, min_normal | sign, inf - 1, (inf - 1) | sign})
    v.push_back(bits_value(b, f));
  for (double d : {1.0, -1.0, 0.5, -0.5, 2.0, 3.0, -2.5, M_PI, -M_PI, M_PI / 2, 3 * M_PI / 2, 10.0,
                   100.5, -1e-3})
    v.push_back(d);
  return v;
}

// One random value of a parameter.
double random_value(const Source& s, const Type& t, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> unit(0, 1);
  const double sign = rng() & 1 ? -1 : 1;
  switch (s.domain) {
  case Domain::kInteger:
    return double(int(rng() % 81) - 40);
  case Domain::kBits:
    return double(uint32_t(rng()));
  case Domain::kRange:
    return s.lo + (s.hi - s.lo) * unit(rng);
  case Domain::kModerate:
    if (rng() % 8 == 0) return sign * std::ldexp(1 + unit(rng), int(rng() % 61) - 30);
    return -100 + 200 * unit(rng);
  case Domain::kFull:
    break;
  }
  const Format f = format(t.bits);
  switch (rng() % 4) {
  case 0:
    return bits_value(rng() >> (64 - f.bits), f);
  case 1:
    return sign * std::ldexp(1 + unit(rng), int(rng() % 41) - 20);
  case 2:
    if (s.trig) // within a few ulp of k * pi / 2
      return double(int64_t(rng() % 4001) - 2000) * (M_PI / 2) *
             (1 + std::ldexp(unit(rng) - 0.5, -int(f.mant)));
    [[fallthrough]];
  default:
    return s.lo + (s.hi - s.lo) * unit(rng);
  }
}

// Work-items per overload: as many as give every vector width 256 components per parameter.
size_t float_items(const Overload& o) {
  unsigned width = std::max(o.result.width, o.pointer ? o.out.width : 1u);
  for (const Type& p : o.params) width = std::max(width, p.width);
  return std::max<size_t>(kLocal, 256 / (width == 3 ? 4 : width));
}

// Arguments of a floating-point overload: every parameter's values as one stream (component
// after component, work-item after work-item), the same for every vector width of a function.
std::vector<uint8_t> float_arguments(const std::string& family, const Overload& o, size_t items) {
  std::vector<uint8_t> in(items * kArgBlock);
  size_t combos = 1;
  for (unsigned p = 0; p < o.params.size(); ++p) {
    const Type& t = o.params[p];
    const Source src = source(family, o.fn, p);
    const std::vector<double> sp = specials(src, t);
    std::mt19937_64 rng(std::hash<std::string>{}(o.fn + "/" + std::to_string(p)) ^ t.bits);
    const size_t per_item = t.width == 3 ? 4 : t.width;
    for (size_t n = 0; n < items * per_item; ++n) {
      const size_t item = n / per_item, c = n % per_item;
      const double v =
          n < combos * sp.size() ? sp[n / combos % sp.size()] : random_value(src, t, rng);
      store_value(&in[item * kArgBlock + p * kSlot + c * t.bits / 8], t, v);
    }
    combos *= sp.size();
  }
  return in;
}

// OpenCL C 3.0 §7.4 (and the cl_khr_fp16 table): the largest error of a result, in ulp of the
// correctly rounded value, for float, double and half. 0: correctly rounded (both
// implementations then agree exactly). Functions missing here have their own rules (check()).
struct Bounds {
  double f32, f64, f16;
};
const std::map<std::string, Bounds> kUlpBounds = {
    {"acos", {4, 4, 2}},
    {"acospi", {5, 5, 2}},
    {"acosh", {4, 4, 2}},
    {"asin", {4, 4, 2}},
    {"asinpi", {5, 5, 2}},
    {"asinh", {4, 4, 2}},
    {"atan", {5, 5, 2}},
    {"atanh", {5, 5, 2}},
    {"atanpi", {5, 5, 2}},
    {"atan2", {6, 6, 2}},
    {"atan2pi", {6, 6, 2}},
    {"cbrt", {2, 2, 2}},
    {"ceil", {0, 0, 0}},
    {"copysign", {0, 0, 0}},
    {"cos", {4, 4, 2}},
    {"cosh", {4, 4, 2}},
    {"cospi", {4, 4, 2}},
    {"erfc", {16, 16, 4}},
    {"erf", {16, 16, 4}},
    {"exp", {3, 3, 2}},
    {"exp2", {3, 3, 2}},
    {"exp10", {3, 3, 2}},
    {"expm1", {3, 3, 2}},
    {"fabs", {0, 0, 0}},
    {"fdim", {0, 0, 0}},
    {"floor", {0, 0, 0}},
    {"fma", {0, 0, 0}},
    {"fmax", {0, 0, 0}},
    {"fmin", {0, 0, 0}},
    {"fmod", {0, 0, 0}},
    {"fract", {0, 0, 0}},
    {"frexp", {0, 0, 0}},
    {"hypot", {4, 4, 2}},
    {"ldexp", {0, 0, 0}},
    {"log", {3, 3, 2}},
    {"log2", {3, 3, 2}},
    {"log10", {3, 3, 2}},
    {"log1p", {2, 2, 2}},
    {"logb", {0, 0, 0}},
    {"nan", {0, 0, 0}},
    {"maxmag", {0, 0, 0}},
    {"minmag", {0, 0, 0}},
    {"modf", {0, 0, 0}},
    {"nextafter", {0, 0, 0}},
    {"pow", {16, 16, 4}},
    {"pown", {16, 16, 4}},
    {"powr", {16, 16, 4}},
    {"remainder", {0, 0, 0}},
    {"remquo", {0, 0, 0}},
    {"rint", {0, 0, 0}},
    {"rootn", {16, 16, 4}},
    {"round", {0, 0, 0}},
    {"rsqrt", {2, 2, 1}},
    {"sin", {4, 4, 2}},
    {"sincos", {4, 4, 2}},
    {"sinh", {4, 4, 2}},
    {"sinpi", {4, 4, 2}},
    {"sqrt", {3, 0, 1}},
    {"tan", {5, 5, 2}},
    {"tanh", {5, 5, 2}},
    {"tanpi", {6, 6, 2}},
    {"tgamma", {16, 16, 4}},
    {"trunc", {0, 0, 0}},
    // §6.15.4
    {"clamp", {0, 0, 0}},
    {"degrees", {2, 2, 2}},
    {"max", {0, 0, 0}},
    {"min", {0, 0, 0}},
    {"radians", {2, 2, 2}},
    {"sign", {0, 0, 0}},
    {"step", {0, 0, 0}},
};

// The correctly rounded result on the host (long double, then rounded to the result type), for
// the functions whose C counterparts mean the same: it decides who is wrong when amcl and PoCL
// disagree, and is the reference of the half overloads (PoCL has no cl_khr_fp16).
std::optional<long double> host_result(const std::string& fn, const std::vector<long double>& x,
                                       unsigned bits) {
  const long double pi = 3.141592653589793238462643383279502884L;
  const long double a = x.empty() ? 0 : x[0], b = x.size() > 1 ? x[1] : 0,
                    c = x.size() > 2 ? x[2] : 0;
  // sinpi and friends: the argument reduced exactly (x mod 2) before the multiplication by pi.
  const long double r2 = std::fmod(a, 2.0L);
  static const std::map<std::string, long double (*)(long double)> kUnary = {
      {"acos", acosl},   {"acosh", acoshl}, {"asin", asinl}, {"asinh", asinhl}, {"atan", atanl},
      {"atanh", atanhl}, {"cbrt", cbrtl},   {"ceil", ceill}, {"cos", cosl},     {"cosh", coshl},
      {"erfc", erfcl},   {"erf", erfl},     {"exp", expl},   {"exp2", exp2l},   {"expm1", expm1l},
      {"fabs", fabsl},   {"floor", floorl}, {"log", logl},   {"log2", log2l},   {"log10", log10l},
      {"log1p", log1pl}, {"logb", logbl},   {"rint", rintl}, {"round", roundl}, {"sin", sinl},
      {"sinh", sinhl},   {"sqrt", sqrtl},   {"tan", tanl},   {"tanh", tanhl},   {"tgamma", tgammal},
      {"trunc", truncl}};
  if (const auto it = kUnary.find(fn); it != kUnary.end()) return it->second(a);
  if (fn == "sincos") return sinl(a); // the result; the cosine goes through the pointer
  if (fn == "acospi") return acosl(a) / pi;
  if (fn == "asinpi") return asinl(a) / pi;
  if (fn == "atanpi") return atanl(a) / pi;
  if (fn == "atan2") return atan2l(a, b);
  if (fn == "atan2pi") return atan2l(a, b) / pi;
  if (fn == "exp10") return powl(10, a);
  if (fn == "rsqrt") return 1 / sqrtl(a);
  // Their exact zeros have the signs of OpenCL 3.0 §7.5.1, which sinl(pi * r2) and
  // cosl(pi * r2) miss (pi is rounded): copysign(0, a) at the integers for sinpi, +0 at n + 0.5
  // for cospi, copysign(0, a) at even and copysign(0, -a) at odd integers for tanpi.
  const bool integer = std::isfinite(a) && r2 == std::floor(r2);
  if (fn == "sinpi") return std::isinf(a) ? NAN : integer ? copysignl(0, a) : sinl(pi * r2);
  if (fn == "cospi")
    return std::isinf(a) ? NAN : std::fabs(std::fmod(r2, 1.0L)) == 0.5L ? 0.0L : cosl(pi * r2);
  if (fn == "tanpi" && integer) return copysignl(0, r2 != 0 ? -a : a);
  if (fn == "copysign") return copysignl(a, b);
  if (fn == "fdim") return fdiml(a, b);
  if (fn == "fmod") return fmodl(a, b);
  if (fn == "remainder" || fn == "remquo") return remainderl(a, b);
  if (fn == "hypot") return hypotl(a, b);
  if (fn == "pow") return powl(a, b);
  if (fn == "pown") return powl(a, b);
  if (fn == "ldexp") return ldexpl(a, int(std::clamp<long double>(b, -100000, 100000)));
  if (fn == "fma" && bits < 64) return fmal(a, b, c); // a * b is exact in long double
  if (fn == "powr") {
    if (a < 0 || (a == 0 && b == 0) || (a == 1 && std::isinf(b)) || (std::isinf(a) && b == 0))
      return NAN;
    return powl(a, b);
  }
  if (fn == "rootn") {
    if (b == 0 || (a < 0 && std::fmod(b, 2.0L) == 0)) return NAN;
    return a < 0 ? -powl(-a, 1 / b) : powl(a, 1 / b);
  }
  if (fn == "degrees") return a * (180 / pi);
  if (fn == "radians") return a * (pi / 180);
  return std::nullopt;
}

long double round_to(long double v, unsigned bits) {
  if (bits == 16) return half_to_double(double_to_half(double(v)));
  if (bits == 32) return float(v);
  return double(v);
}

// The distance of two results in ulp of the larger (an infinity counts as the next power of two
// past the largest finite value): both lie within their bounds of the same true value, whose
// ulp is at most that. NaN against NaN is 0, a NaN against a number and +0 against -0 infinite.
double ulp_distance(double a, double b, const Format& f) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b) ? 0 : INFINITY;
  if (a == b) return std::signbit(a) == std::signbit(b) ? 0 : INFINITY;
  const double top = std::ldexp(1, f.emax + 1);
  if (std::isinf(a)) a = std::copysign(top, a);
  if (std::isinf(b)) b = std::copysign(top, b);
  const double big = std::max(std::fabs(a), std::fabs(b));
  const int e = std::max(std::ilogb(big), f.emin);
  return std::fabs(a - b) / std::ldexp(1, e - int(f.mant));
}

// One component that disagrees, described.
struct Mismatch {
  size_t item = 0, component = 0;
  bool out_slot = false; // the pointer's value
  double ours = 0, ref = 0, ulps = 0, allowed = 0;
  bool host = false; // ref is the host's result: PoCL disagreed too, or there is no PoCL
};

double fp_component(const std::vector<uint8_t>& v, size_t at, const Type& t, size_t c) {
  return load_fp(&v[at + c * t.bits / 8], t.bits);
}

int64_t int_component(const std::vector<uint8_t>& v, size_t at, const Type& t, size_t c) {
  int32_t x;
  std::memcpy(&x, &v[at + c * 4], 4);
  (void)t;
  return x;
}

// Compares one overload's results with PoCL's (or, for mad, with the two results §7.4
// allows): within the sum of both bounds, or else within amcl's own bound of the host's result
// (then PoCL is the one that erred: counted in `pocl_errors`). Without PoCL (`ref` empty: half)
// only the host's result is the reference. The first component outside its bound, if any.
std::optional<Mismatch> check(const Overload& o, const std::vector<uint8_t>& in, size_t items,
                              const std::vector<uint8_t>& ours, const std::vector<uint8_t>& ref,
                              size_t& components, size_t& pocl_errors) {
  const bool has_ref = !ref.empty();
  const Type& r = o.result;
  const Format f = format(r.bits);
  const unsigned n = r.width;
  const double eps = std::ldexp(1, -int(f.mant));
  const std::string base = starts_with(o.fn, "half_")     ? o.fn.substr(5)
                           : starts_with(o.fn, "native_") ? o.fn.substr(7)
                           : starts_with(o.fn, "fast_")   ? o.fn.substr(5)
                                                          : o.fn;
  const bool f64 = r.bits == 64;
  auto arg = [&](size_t item, unsigned p, size_t c) {
    const Type& t = o.params[p];
    const size_t at = item * kArgBlock + p * kSlot, k = t.width == 1 ? 0 : c;
    return t.kind == 'f' ? fp_component(in, at, t, k) : double(int_component(in, at, t, k));
  };
  for (size_t item = 0; item < items; ++item) {
    const size_t at = item * kOutBlock;
    // The largest magnitude among the arguments, for the absolute bounds of dot and cross.
    double max_in = 0;
    for (unsigned p = 0; p < o.params.size(); ++p)
      if (o.params[p].kind == 'f')
        for (size_t c = 0; c < o.params[p].width; ++c)
          max_in = std::max(max_in, std::fabs(arg(item, p, c)));
    for (size_t c = 0; c < n; ++c) {
      ++components;
      Mismatch m;
      m.item = item, m.component = c;
      if (r.kind != 'f') { // ilogb
        if (!has_ref) continue;
        const int64_t a = int_component(ours, at, r, c), b = int_component(ref, at, r, c);
        if (a != b) {
          m.ours = double(a), m.ref = double(b), m.ulps = INFINITY;
          return m;
        }
        continue;
      }
      const double a = fp_component(ours, at, r, c),
                   b = has_ref ? fp_component(ref, at, r, c) : NAN;
      m.ours = a, m.ref = b;
      if (o.fn == "mad") {
        // A correctly rounded fma, or a correctly rounded multiply and add (§7.4).
        const double x = arg(item, 0, c), y = arg(item, 1, c), z = arg(item, 2, c);
        const double fused = f64 ? std::fma(x, y, z) : double(round_to(fmal(x, y, z), r.bits));
        const double separate = double(round_to(round_to(x * y, r.bits) + z, r.bits));
        if (ulp_distance(a, fused, f) != 0 && ulp_distance(a, separate, f) != 0) {
          m.ref = fused, m.ulps = ulp_distance(a, fused, f), m.host = true;
          return m;
        }
        continue;
      }
      if (!has_ref && !host_result(o.fn, {}, r.bits)) continue; // nothing to compare with
      if (base != o.fn && o.fn.rfind("half_", 0) != 0 && o.fn.rfind("fast_", 0) != 0) {
        // native_: implementation-defined precision; a number where the reference has one.
        if (std::isfinite(b) && std::isnan(a)) return m;
        continue;
      }
      if (o.fn == "lgamma" || o.fn == "lgamma_r") { // §7.4: undefined precision
        if (std::isfinite(b) && std::isnan(a)) return m;
        continue;
      }
      if (o.fn == "dot" || o.fn == "cross" || o.fn == "mix" || o.fn == "smoothstep") {
        // Absolute bounds (§7.4), for each implementation.
        const unsigned w = o.params[0].width;
        const double bound = o.fn == "dot"     ? max_in * max_in * (2 * w - 1) * eps
                             : o.fn == "cross" ? max_in * max_in * 3 * eps
                             : o.fn == "mix"   ? 1e-3
                                               : 1e-5;
        m.allowed = 2 * bound;
        m.ulps = ulp_distance(a, b, f);
        if (m.ulps != 0 && !(std::fabs(a - b) <= m.allowed)) return m;
        continue;
      }
      double allowed;
      if (starts_with(o.fn, "half_")) {
        allowed = 8192;
      } else if (base == "length" || base == "distance" || base == "normalize") {
        const double w = o.params[0].width;
        allowed = base == "length"     ? (f64 ? 5.5 + w : 2.75 + 0.5 * w)
                  : base == "distance" ? (f64 ? 5.5 + 2 * w : 2.5 + 2 * w)
                                       : (f64 ? 4.5 + w : 2 + w);
        if (base != o.fn) allowed += 8192; // fast_: half_sqrt's or half_rsqrt's precision
      } else {
        const auto it = kUlpBounds.find(o.fn);
        if (it == kUlpBounds.end()) {
          m.ulps = INFINITY; // a function the table lacks: a bug of this test
          return m;
        }
        const Bounds& bounds = it->second;
        allowed = f64 ? bounds.f64 : r.bits == 16 ? bounds.f16 : bounds.f32;
      }
      m.allowed = 2 * allowed;
      m.ulps = ulp_distance(a, b, f);
      if (m.ulps <= m.allowed) continue;
      // max, min and their kin may return either zero for -0 and +0 (IEEE 754 maxNum).
      static const std::set<std::string> kEitherZero = {"fmax",   "fmin",   "max",  "min",
                                                        "maxmag", "minmag", "clamp"};
      if (kEitherZero.count(o.fn) && a == 0 && b == 0) continue;
      // The host decides who is wrong (one ulp more for its own rounding).
      std::vector<long double> args;
      for (unsigned p = 0; p < o.params.size(); ++p) args.push_back(arg(item, p, c));
      const std::optional<long double> h = host_result(o.fn, args, r.bits);
      if (!h) {
        if (!has_ref) continue;
        return m;
      }
      const double exact = double(round_to(*h, r.bits));
      const double own = ulp_distance(a, exact, f), slack = allowed == 0 ? 0 : 1;
      if (own <= allowed + slack || (kEitherZero.count(o.fn) && a == 0 && exact == 0)) {
        pocl_errors += has_ref;
        continue;
      }
      m.ref = exact, m.ulps = own, m.allowed = allowed + slack, m.host = true;
      return m;
    }
    if (!o.pointer || !has_ref) continue;
    // What the pointer received.
    const Type& t = o.out;
    for (size_t c = 0; c < t.width; ++c) {
      Mismatch m;
      m.item = item, m.component = c, m.out_slot = true;
      const double x = arg(item, 0, c);
      if (t.kind != 'f') {
        const int64_t a = int_component(ours, at + kSlot, t, c),
                      b = int_component(ref, at + kSlot, t, c);
        m.ours = double(a), m.ref = double(b), m.ulps = INFINITY;
        if (o.fn == "frexp") { // the exponent of an infinity or a NaN is unspecified
          int e = 0;
          std::frexp(x, &e);
          if (std::isfinite(x) && a != b) {
            if (a != e) return m.ref = e, m.host = true, m;
            ++pocl_errors;
          }
        } else if (o.fn == "remquo") {
          // The sign of x / y and the low n >= 3 bits of its integral quotient's magnitude.
          auto agree = [](int64_t p, int64_t q) {
            return std::llabs(p) % 8 == std::llabs(q) % 8 &&
                   (p == 0 || q == 0 || (p < 0) == (q < 0));
          };
          int q = 0;
          remquol(x, arg(item, 1, c), &q); // the host decides, as above
          if (!std::isnan(fp_component(ref, at, r, c)) && !agree(a, b)) {
            if (!agree(a, q)) return m.ref = q, m.host = true, m;
            ++pocl_errors;
          }
        } // lgamma_r's sign: lgamma_r's precision is undefined
        continue;
      }
      const double a = fp_component(ours, at + kSlot, t, c),
                   b = fp_component(ref, at + kSlot, t, c);
      m.ours = a, m.ref = b;
      m.ulps = ulp_distance(a, b, f);
      const Bounds& sincos = kUlpBounds.at("sincos");
      const double own = o.fn != "sincos" ? 0 : r.bits == 16 ? sincos.f16 : sincos.f32;
      m.allowed = 2 * own; // fract, modf: exact
      if (m.ulps <= m.allowed) continue;
      if (o.fn == "sincos") { // the host decides, as above
        const double exact = double(round_to(cosl(x), r.bits));
        if (ulp_distance(a, exact, f) <= own + 1) {
          ++pocl_errors;
          continue;
        }
        m.ref = exact, m.ulps = ulp_distance(a, exact, f), m.allowed = own + 1, m.host = true;
      }
      return m;
    }
  }
  return std::nullopt;
}

std::string number(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g (%a)", v, v);
  return buf;
}

std::string describe(const Overload& o, const std::vector<uint8_t>& in, const Mismatch& m) {
  std::string s = o.signature + ", work-item " + std::to_string(m.item) + " component " +
                  std::to_string(m.component) + ": " + o.fn + "(";
  for (unsigned p = 0; p < o.params.size(); ++p) {
    const Type& t = o.params[p];
    const size_t at = m.item * kArgBlock + p * kSlot, c = t.width == 1 ? 0 : m.component;
    s += (p ? ", " : "") + (t.kind == 'f' ? number(fp_component(in, at, t, c))
                                          : std::to_string(int_component(in, at, t, c)));
  }
  s += std::string(")") + (m.out_slot ? " pointer result" : "") + ": amcl " + number(m.ours) +
       (m.host ? ", host " : ", PoCL ") + number(m.ref);
  if (std::isfinite(m.ulps)) {
    char buf[96];
    std::snprintf(buf, sizeof buf, ", %.3g ulp apart (%.4g allowed)", m.ulps, m.allowed);
    s += buf;
  }
  return s;
}

std::string hex(const uint8_t* p, size_t n) {
  std::string s;
  char buf[4];
  for (size_t i = 0; i < n; ++i) std::snprintf(buf, sizeof buf, "%02x", p[i]), s += buf;
  return s;
}

} // namespace

TEST(BuiltinDifferential, AmclAgreesWithPoclOnEveryOverload) {
  Platform amcl("amcl"), pocl("Portable Computing Language");
  ASSERT_TRUE(amcl.device) << "amcl platform missing";
  if (!pocl.device) GTEST_SKIP() << "PoCL (pocl-opencl-icd) is not installed";
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(AMCL_BUILTIN_KERNELS_DIR))
    if (entry.path().extension() == ".cl") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  ASSERT_FALSE(files.empty()) << "no generated kernels in " << AMCL_BUILTIN_KERNELS_DIR;
  std::set<std::string> known_wrong = kKnownMismatches;
  if (amcl_test::device_string(amcl.device, CL_DEVICE_NAME).find("gfx12") != std::string::npos)
    known_wrong.insert(kKnownMismatchesRdna4.begin(), kKnownMismatchesRdna4.end());
  size_t compared = 0, amcl_only = 0, known = 0, pocl_errors = 0;
  std::vector<std::string> failures;
  for (const auto& path : files) {
    const auto started = std::chrono::steady_clock::now();
    std::ifstream f(path);
    std::stringstream ss;
    ss << f.rdbuf();
    const std::string src = ss.str(), file = path.filename().string();
    const std::string family = file.substr(0, file.find_first_of("_."));
    const bool floating = family == "math" || family == "common" || family == "geometric";
    // "// overload <kernel> <signature>"
    std::vector<std::pair<std::string, std::string>> kernels;
    std::istringstream lines(src);
    for (std::string line; std::getline(lines, line);) {
      if (line.rfind("// overload ", 0) != 0) continue;
      const size_t space = line.find(' ', 12);
      kernels.emplace_back(line.substr(12, space - 12), line.substr(space + 1));
    }
    std::string log;
    cl_program pa = amcl.build(src, log);
    if (!pa) {
      failures.push_back(file + ": amcl cannot build it: " + log.substr(0, 2000));
      continue;
    }
    cl_program pp = pocl.build(src, log);
    if (!pp) std::printf("builtins: %s has no reference (PoCL cannot build it)\n", file.c_str());
    size_t file_compared = 0, components = 0;
    for (const auto& [kernel, signature] : kernels) {
      const Overload o = floating ? parse_overload(kernel, signature) : Overload{};
      const size_t items = floating ? float_items(o) : kItems;
      const std::vector<uint8_t> in =
          floating ? float_arguments(family, o, items) : arguments(kernel);
      std::vector<uint8_t> ours(items * kOutBlock), ref(items * kOutBlock);
      if (std::string err = amcl.run(pa, kernel, items, in, ours); !err.empty()) {
        // The emulator stops a wave at an instruction it does not implement (it names it on
        // stderr); known cases are listed, anything else fails.
        if (known_wrong.count(signature))
          ++known,
              std::printf("builtins: known failure: %s: amcl %s\n", signature.c_str(), err.c_str());
        else
          failures.push_back(file + ": " + signature + ": amcl " + err);
        continue;
      }
      if (!pp) { // a floating-point overload still has the host's results
        ++amcl_only;
        if (!floating) continue;
        ref.clear();
      } else if (std::string err = pocl.run(pp, kernel, items, in, ref); !err.empty()) {
        failures.push_back(file + ": " + signature + ": PoCL " + err);
        continue;
      } else {
        ++compared, ++file_compared;
      }
      std::string mismatch;
      if (floating) {
        if (const auto m = check(o, in, items, ours, ref, components, pocl_errors))
          mismatch = describe(o, in, *m);
      } else {
        for (size_t i = 0; i < items && mismatch.empty(); ++i) {
          const size_t at = i * kOutBlock;
          if (std::memcmp(&ours[at], &ref[at], kOutBlock) == 0) continue;
          size_t n = kOutBlock;
          while (n > 0 && ours[at + n - 1] == 0 && ref[at + n - 1] == 0) --n;
          // one work-item per overload is enough to see it
          mismatch = signature + ", work-item " + std::to_string(i) + " (arguments " +
                     hex(&in[i * kArgBlock], 16) + "...): amcl " + hex(&ours[at], n) + " PoCL " +
                     hex(&ref[at], n);
        }
      }
      if (known_wrong.count(signature)) {
        if (mismatch.empty())
          failures.push_back(signature + " is right now: take it off kKnownMismatches");
        else
          ++known, std::printf("builtins: known mismatch: %s\n", mismatch.c_str());
      } else if (!mismatch.empty()) {
        failures.push_back(mismatch);
      }
    }
    clReleaseProgram(pa);
    if (pp) clReleaseProgram(pp);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    std::printf("builtins: %s: %zu of %zu overloads compared with PoCL", file.c_str(),
                file_compared, kernels.size());
    if (floating)
      std::printf(" (%zu result components%s)", components, pp ? "" : " against the host");
    std::printf(", %.1f s\n", seconds);
  }
  std::string all;
  for (size_t i = 0; i < failures.size(); ++i) {
    std::printf("builtins: failure: %s\n", failures[i].c_str());
    if (i < 100) all += "  " + failures[i] + "\n";
  }
  std::printf("builtins: %zu files, %zu overloads compared with PoCL, %zu run on amcl only, %zu "
              "known mismatches, %zu results where PoCL erred, %zu failures\n",
              files.size(), compared, amcl_only, known, pocl_errors, failures.size());
  EXPECT_GT(compared, 1000u);
  EXPECT_TRUE(failures.empty()) << all;
}
