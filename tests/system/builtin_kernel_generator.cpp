// Writes test kernels for builtin_differential_test: from the builtin functions OpenCL C 3.0
// declares for an amcl device (compiler/builtin_coverage), one program per family below with
// one kernel per overload, which calls it on arguments read from memory (one kernel per
// overload, not per function, so that an instruction the emulator lacks costs only the
// overloads whose code has it). Overloads taking or returning half go to a separate file
// (PoCL, the reference, has no cl_khr_fp16), and so do the floating-point families' double
// ones (smaller programs).
//
// Layout, shared with the test: work-item i reads parameter p from in + i * kArgBlock + p *
// kSlot and stores the result at out + i * kOutBlock, and what a pointer parameter received
// (fract, frexp, modf, sincos, lgamma_r, remquo) at out + i * kOutBlock + kSlot. Each kernel is
// preceded by a comment line "// overload <kernel> <signature>".
#include "builtin_declarations.h"

#include <cctype>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

using amcl::compiler::DeclaredBuiltin;
using amcl::compiler::ValueType;

namespace {

constexpr unsigned kSlot = 128; // bytes: the largest value type (long16, double16)
constexpr unsigned kMaxParams = 3, kOutBlock = 2 * kSlot;
constexpr unsigned kLocal = 32; // the test's work-group size

// Families of OpenCL C 3.0 §6.15: the integer, relational and shuffle ones have exact results
// (compared bit for bit), the floating-point ones (§6.15.2 math, §6.15.4 common, §6.15.5
// geometric) are compared within the test's ULP bounds.
enum class Types { kAll, kInteger, kFloat };
struct Family {
  const char* file;
  std::set<std::string> functions;
  Types types; // only the overloads on integer types or those with a floating-point value
};
const Family kFamilies[] = {
    {"integer",
     {"abs", "abs_diff", "add_sat", "hadd", "rhadd", "clamp", "clz", "ctz", "mad_hi", "mad_sat",
      "max", "min", "mul_hi", "rotate", "sub_sat", "upsample", "popcount", "mad24", "mul24"},
     Types::kInteger},
    {"relational",
     {"isequal", "isnotequal", "isgreater", "isgreaterequal", "isless", "islessequal",
      "islessgreater", "isfinite", "isinf", "isnan", "isnormal", "isordered", "isunordered",
      "signbit", "any", "all", "bitselect", "select"},
     Types::kAll},
    {"vector_misc", {"shuffle", "shuffle2"}, Types::kAll},
    {"math",
     {"acos",         "acosh",        "acospi",      "asin",        "asinh",         "asinpi",
      "atan",         "atan2",        "atanh",       "atanpi",      "atan2pi",       "cbrt",
      "ceil",         "copysign",     "cos",         "cosh",        "cospi",         "erfc",
      "erf",          "exp",          "exp2",        "exp10",       "expm1",         "fabs",
      "fdim",         "floor",        "fma",         "fmax",        "fmin",          "fmod",
      "fract",        "frexp",        "hypot",       "ilogb",       "ldexp",         "lgamma",
      "lgamma_r",     "log",          "log2",        "log10",       "log1p",         "logb",
      "mad",          "maxmag",       "minmag",      "modf",        "nan",           "nextafter",
      "pow",          "pown",         "powr",        "remainder",   "remquo",        "rint",
      "rootn",        "round",        "rsqrt",       "sin",         "sincos",        "sinh",
      "sinpi",        "sqrt",         "tan",         "tanh",        "tanpi",         "tgamma",
      "trunc",        "half_cos",     "half_divide", "half_exp",    "half_exp2",     "half_exp10",
      "half_log",     "half_log2",    "half_log10",  "half_powr",   "half_recip",    "half_rsqrt",
      "half_sin",     "half_sqrt",    "half_tan",    "native_cos",  "native_divide", "native_exp",
      "native_exp2",  "native_exp10", "native_log",  "native_log2", "native_log10",  "native_powr",
      "native_recip", "native_rsqrt", "native_sin",  "native_sqrt", "native_tan"},
     Types::kFloat},
    {"common",
     {"clamp", "degrees", "max", "min", "mix", "radians", "step", "smoothstep", "sign"},
     Types::kFloat},
    {"geometric",
     {"cross", "dot", "distance", "length", "normalize", "fast_distance", "fast_length",
      "fast_normalize"},
     Types::kFloat},
};

// A value type by its OpenCL C name ("float4", "int"); an empty name if it is none.
ValueType named_type(const std::string& name) {
  static const struct {
    const char* name;
    char kind;
    unsigned bits;
  } kScalars[] = {{"char", 'i', 8},  {"uchar", 'u', 8},  {"short", 'i', 16}, {"ushort", 'u', 16},
                  {"int", 'i', 32},  {"uint", 'u', 32},  {"long", 'i', 64},  {"ulong", 'u', 64},
                  {"half", 'f', 16}, {"float", 'f', 32}, {"double", 'f', 64}};
  ValueType t;
  size_t digits = name.size();
  while (digits > 0 && std::isdigit(static_cast<unsigned char>(name[digits - 1]))) --digits;
  for (const auto& s : kScalars)
    if (name.substr(0, digits) == s.name) {
      t.name = name;
      t.kind = s.kind;
      t.bits = s.bits;
      t.width = digits == name.size() ? 1 : unsigned(std::stoul(name.substr(digits)));
    }
  return t;
}

// The pointer parameter of an overload (its last, after the values), as the signature spells
// it: "__global float4 *" gives the address space "global" and the pointee float4,
// "__generic float4 *__private" (OpenCL C 3.0 declares only those) "generic". False if the
// overload has no such parameter.
bool pointer_param(const DeclaredBuiltin& b, std::string& space, ValueType& pointee) {
  if (b.params.empty() || !b.params.back().name.empty()) return false;
  const size_t open = b.signature.find('('), close = b.signature.rfind(')');
  const size_t comma = b.signature.rfind(", ", close);
  const size_t from = comma == std::string::npos || comma < open ? open + 1 : comma + 2;
  std::string text = b.signature.substr(from, close - from);
  const size_t star = text.find(" *");
  if (star == std::string::npos) return false;
  text.resize(star);
  space = "private";
  for (const char* s : {"generic", "global", "local", "private"})
    if (text.rfind(std::string("__") + s + " ", 0) == 0) {
      space = s;
      text.erase(0, std::strlen(s) + 3);
    }
  pointee = named_type(text);
  return !pointee.name.empty();
}

// Values in, a value out, and at most one pointer, the last parameter.
bool callable(const DeclaredBuiltin& b) {
  if (b.result.name.empty() || b.variadic || b.params.empty()) return false;
  std::string space;
  ValueType pointee;
  const size_t values = b.params.size() - (pointer_param(b, space, pointee) ? 1 : 0);
  if (values == 0 || values > kMaxParams) return false;
  for (size_t p = 0; p < values; ++p)
    if (b.params[p].name.empty()) return false;
  return true;
}

bool uses_float(const DeclaredBuiltin& b, unsigned bits) {
  if (b.result.kind == 'f' && b.result.bits == bits) return true;
  for (const ValueType& p : b.params)
    if (p.kind == 'f' && p.bits == bits) return true;
  return false;
}

bool integer_only(const DeclaredBuiltin& b) {
  if (b.result.kind == 'f') return false;
  for (const ValueType& p : b.params)
    if (p.kind == 'f') return false;
  return true;
}

std::string scalar_name(const ValueType& t) {
  std::string n = t.name;
  while (!n.empty() && std::isdigit(static_cast<unsigned char>(n.back()))) n.pop_back();
  return n;
}

// An argument, read as one load of an integer type of its size (of a dword for the narrower
// ones), then reinterpreted: how the argument reaches the builtin is not what is tested.
std::string load(const ValueType& t, unsigned slot) {
  const std::string at = "(args + " + std::to_string(slot * kSlot) + ")";
  const unsigned bytes = (t.width == 3 ? 4 : t.width) * t.bits / 8;
  const char* carrier = bytes <= 4    ? "uint"
                        : bytes == 8  ? "uint2"
                        : bytes == 16 ? "uint4"
                        : bytes == 32 ? "uint8"
                        : bytes == 64 ? "uint16"
                                      : "ulong16";
  std::string word = "*(global const " + std::string(carrier) + "*)" + at;
  if (bytes == 1) word = "(uchar)" + word;
  if (bytes == 2) word = "(ushort)" + word;
  return "as_" + t.name + "(" + word + ")";
}

std::string store(const ValueType& t, const std::string& value, unsigned slot = 0) {
  const std::string at =
      "(out + i * " + std::to_string(kOutBlock) + " + " + std::to_string(slot * kSlot) + ")";
  if (t.width == 3) return "vstore3(" + value + ", 0, (global " + scalar_name(t) + "*)" + at + ");";
  return "*(global " + t.name + "*)" + at + " = " + value + ";";
}

// A kernel calling one overload, with its arguments brought into the domain where the
// specification defines the result. A generic pointer parameter points to a variable in
// `target_space` (its name follows the signature in the comment line).
std::string kernel(const DeclaredBuiltin& b, const std::string& name,
                   const std::string& target_space) {
  std::ostringstream s;
  s << "// overload " << name << " " << b.signature
    << (target_space.empty() ? "" : " to " + target_space) << "\n"
    << "kernel void " << name << "(global uchar* out, global const uchar* in) {\n"
    << "  const size_t i = get_global_id(0);\n"
    << "  global const uchar* args = in + i * " << kMaxParams * kSlot << ";\n";
  std::string space;
  ValueType pointee;
  const bool pointer = pointer_param(b, space, pointee);
  if (space == "generic") space = target_space;
  const size_t values = b.params.size() - (pointer ? 1 : 0);
  for (unsigned p = 0; p < values; ++p)
    s << "  " << b.params[p].name << " x" << p << " = " << load(b.params[p], p) << ";\n";
  // What the pointer parameter points to: a variable in its address space, stored to the second
  // output slot after the call.
  std::string target;
  if (pointer) {
    if (space == "local") {
      s << "  local " << pointee.name << " tmp[" << kLocal << "];\n";
      target = "tmp[get_local_id(0)]";
    } else if (space == "global") {
      s << "  global " << pointee.name << "* tmp = (global " << pointee.name << "*)(out + i * "
        << kOutBlock << " + " << kSlot << ");\n";
      target = "*tmp";
    } else {
      s << "  " << pointee.name << " tmp;\n";
      target = "tmp";
    }
  }
  if (b.name == "mad24" || b.name == "mul24") {
    // Defined for 24-bit operands only (§6.15.4): the low 24 bits, sign-extended if signed.
    for (unsigned p = 0; p < 2; ++p) {
      const std::string x = "x" + std::to_string(p), type = b.params[p].name;
      s << "  " << x << " = "
        << (b.params[p].kind == 'u' ? x + " & 0xffffffu"
                                    : "as_" + type + "(as_u" + type + "(" + x + ") << 8) >> 8")
        << ";\n";
    }
  }
  std::string args = "x0";
  if (b.name == "clamp")
    args = "x0, min(x1, x2), max(x1, x2)"; // minval <= maxval
  else if (b.name == "smoothstep")
    args = "min(x0, x1), max(x0, x1), x2"; // edge0 <= edge1 (the test keeps them apart)
  else
    for (unsigned p = 1; p < values; ++p) args += ", x" + std::to_string(p);
  if (pointer) args += ", &" + target;
  s << "  " << store(b.result, b.name + "(" + args + ")") << "\n";
  if (pointer && space != "global") s << "  " << store(pointee, target, 1) << "\n";
  s << "}\n";
  return s.str();
}

void write_file(const std::filesystem::path& path, bool half, bool fp64,
                const std::map<std::string, std::vector<const DeclaredBuiltin*>>& by_name) {
  std::ofstream f(path);
  f << "// Generated by builtin_kernel_generator from clang's OpenCL C declarations.\n";
  if (half) f << "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n";
  if (fp64) f << "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n";
  for (const auto& [name, overloads] : by_name)
    for (size_t k = 0; k < overloads.size(); ++k) {
      std::string space;
      ValueType pointee;
      const std::string kernel_name = "test_" + name + "_" + std::to_string(k);
      if (pointer_param(*overloads[k], space, pointee) && space == "generic") {
        for (const char* target : {"private", "global", "local"})
          f << kernel(*overloads[k], kernel_name + "_" + target, target);
      } else {
        f << kernel(*overloads[k], kernel_name, "");
      }
    }
}

} // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s <output directory>\n", argv[0]);
    return 2;
  }
  const auto declared = amcl_device_builtins();
  if (!declared.ok) {
    std::fprintf(stderr, "%s", declared.log.c_str());
    return 1;
  }
  const std::filesystem::path dir = argv[1];
  std::filesystem::create_directories(dir);
  size_t written = 0;
  for (const Family& family : kFamilies) {
    std::map<std::string, std::vector<const DeclaredBuiltin*>> plain, half, fp64;
    for (const DeclaredBuiltin& b : declared.functions) {
      if (!family.functions.count(b.name) || !callable(b)) continue;
      if (family.types == Types::kInteger && !integer_only(b)) continue;
      if (family.types == Types::kFloat && integer_only(b)) continue;
      const bool split_fp64 = family.types == Types::kFloat && uses_float(b, 64);
      (uses_float(b, 16) ? half : split_fp64 ? fp64 : plain)[b.name].push_back(&b);
      ++written;
    }
    write_file(dir / (std::string(family.file) + ".cl"), false, false, plain);
    if (!half.empty()) write_file(dir / (std::string(family.file) + "_half.cl"), true, false, half);
    if (!fp64.empty())
      write_file(dir / (std::string(family.file) + "_double.cl"), false, true, fp64);
  }
  std::printf("%zu overloads written to %s\n", written, dir.c_str());
  return 0;
}
