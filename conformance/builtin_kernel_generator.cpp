// Writes test kernels for builtin_differential_test: from the builtin functions OpenCL C 3.0
// declares for an amcl device (compiler/builtin_coverage), one program per family below with
// one kernel per overload, which calls it on arguments read from memory (one kernel per
// overload, not per function, so that an instruction the emulator lacks costs only the
// overloads whose code has it). Overloads taking or returning half go to a separate file
// (PoCL, the reference, has no cl_khr_fp16).
//
// Layout, shared with the test: work-item i reads parameter p from in + i * kArgBlock + p *
// kSlot and stores the result at out + i * kSlot. Each kernel is preceded by a comment line
// "// overload <kernel> <signature>".
#include "compiler/builtin_coverage.h"
#include "runtime/device_caps.h"

#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

using amcl::compiler::DeclaredBuiltin;
using amcl::compiler::ValueType;

namespace {

constexpr unsigned kSlot = 128; // bytes: the largest value type (long16, double16)
constexpr unsigned kMaxParams = 3;

// Families of OpenCL C 3.0 §6.15 whose results are exact (compared bit for bit).
struct Family {
  const char* file;
  std::set<std::string> functions;
  bool integer_only; // only the overloads on integer types (max, min, clamp: §6.15.4's)
};
const Family kFamilies[] = {
    {"integer",
     {"abs", "abs_diff", "add_sat", "hadd", "rhadd", "clamp", "clz", "ctz", "mad_hi", "mad_sat",
      "max", "min", "mul_hi", "rotate", "sub_sat", "upsample", "popcount", "mad24", "mul24"},
     true},
    {"relational",
     {"isequal", "isnotequal", "isgreater", "isgreaterequal", "isless", "islessequal",
      "islessgreater", "isfinite", "isinf", "isnan", "isnormal", "isordered", "isunordered",
      "signbit", "any", "all", "bitselect", "select"},
     false},
    {"vector_misc", {"shuffle", "shuffle2"}, false},
};

bool callable(const DeclaredBuiltin& b) {
  if (b.result.name.empty() || b.variadic || b.params.empty() || b.params.size() > kMaxParams)
    return false;
  for (const ValueType& p : b.params)
    if (p.name.empty()) return false;
  return true;
}

bool uses_half(const DeclaredBuiltin& b) {
  if (b.result.kind == 'f' && b.result.bits == 16) return true;
  for (const ValueType& p : b.params)
    if (p.kind == 'f' && p.bits == 16) return true;
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

std::string store(const ValueType& t, const std::string& value) {
  const std::string at = "(out + i * " + std::to_string(kSlot) + ")";
  if (t.width == 3) return "vstore3(" + value + ", 0, (global " + scalar_name(t) + "*)" + at + ");";
  return "*(global " + t.name + "*)" + at + " = " + value + ";";
}

// A kernel calling one overload, with its arguments brought into the domain where the
// specification defines the result.
std::string kernel(const DeclaredBuiltin& b, const std::string& name) {
  std::ostringstream s;
  s << "// overload " << name << " " << b.signature << "\n"
    << "kernel void " << name << "(global uchar* out, global const uchar* in) {\n"
    << "  const size_t i = get_global_id(0);\n"
    << "  global const uchar* args = in + i * " << kMaxParams * kSlot << ";\n";
  for (unsigned p = 0; p < b.params.size(); ++p)
    s << "  " << b.params[p].name << " x" << p << " = " << load(b.params[p], p) << ";\n";
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
  else
    for (unsigned p = 1; p < b.params.size(); ++p) args += ", x" + std::to_string(p);
  s << "  " << store(b.result, b.name + "(" + args + ")") << "\n}\n";
  return s.str();
}

void write_file(const std::filesystem::path& path, bool half,
                const std::map<std::string, std::vector<const DeclaredBuiltin*>>& by_name) {
  std::ofstream f(path);
  f << "// Generated by builtin_kernel_generator from clang's OpenCL C declarations.\n";
  if (half) f << "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n";
  for (const auto& [name, overloads] : by_name)
    for (size_t k = 0; k < overloads.size(); ++k)
      f << kernel(*overloads[k], "test_" + name + "_" + std::to_string(k));
}

} // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s <output directory>\n", argv[0]);
    return 2;
  }
  amcl::compiler::DeclarationRequest req;
  req.target = "gfx1100";
  req.c_versions = {"CL3.0"};
  req.extensions = amcl::rt::names(amcl::rt::device_extensions());
  req.features = amcl::rt::names(amcl::rt::opencl_c_features());
  const auto declared = amcl::compiler::declared_builtins(req);
  if (!declared.ok) {
    std::fprintf(stderr, "%s", declared.log.c_str());
    return 1;
  }
  const std::filesystem::path dir = argv[1];
  std::filesystem::create_directories(dir);
  size_t written = 0;
  for (const Family& family : kFamilies) {
    std::map<std::string, std::vector<const DeclaredBuiltin*>> plain, half;
    for (const DeclaredBuiltin& b : declared.functions) {
      if (!family.functions.count(b.name) || !callable(b)) continue;
      if (family.integer_only && !integer_only(b)) continue;
      (uses_half(b) ? half : plain)[b.name].push_back(&b);
      ++written;
    }
    write_file(dir / (std::string(family.file) + ".cl"), false, plain);
    if (!half.empty()) write_file(dir / (std::string(family.file) + "_half.cl"), true, half);
  }
  std::printf("%zu overloads written to %s\n", written, dir.c_str());
  return 0;
}
