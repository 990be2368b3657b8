// Writes test kernels for builtin_family_differential_test: the builtin families whose results
// are not a value of one work-item's arguments, or that are many overloads of one shape
// (conversions, reinterpretations, vector loads and stores, work-item functions, async copies,
// synchronisation, atomics, sub-groups). Every overload OpenCL C 3.0 declares for an amcl device
// (compiler/builtin_coverage) under the families' names is called by some kernel (the
// generator fails otherwise); one kernel calls many overloads, each a "case" writing its own
// part of the output.
//
// Layout, shared with the test: kernel(global uchar* out, global const uchar* in, constant
// uchar* cin). Work-item i reads its arguments from in + i * kInBlock (raw bits, then tame
// values of each floating-point type: see kTame*). Case c of work-item i writes
// out + (c * items + i) * case_bytes. Each kernel is announced by comment lines:
//   // run <kernel> <check> global=a,b,c local=a,b,c offset=a,b,c case_bytes=n floats=bits
//   // case <kernel> <c> <what the case calls>
//   // overload <kernel> <signature>
// <check> is "pocl" (the whole output equals PoCL's), "self" (each case's first half is the
// builtin's result, its second half what plain code computed: atomic min/max on float and
// double and the sub-group functions, which PoCL lacks), "convert" (conversions to and from half,
// which PoCL lacks: the test computes them) or "workitem" (the test computes the work-item
// functions' values, also for the non-uniform work-groups PoCL lacks). A file marked twin has a
// "<name>.ref" for PoCL: the same source with half as ushort (for families that only move bits) and
// without casts to the generic address space, which PoCL 3.1 lacks.
#include "builtin_declarations.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <regex>
#include <set>
#include <sstream>

using amcl::compiler::DeclaredBuiltin;
using amcl::compiler::ValueType;

namespace {

// Bytes of one work-item's input block: raw bits at 0 and kSlot, then small exactly
// representable values (multiples of 1/4) of float, double and half, non-negative in
// [0, 127.75] and signed in [-128, 126.75]: a conversion to an integer type without _sat is
// defined only in range (OpenCL C 3.0 §6.4.3.3).
constexpr unsigned kSlot = 128, kInBlock = 1024;
constexpr unsigned kTameFloat = 256, kTameDouble = 512, kTameHalf = 768, kTameSigned = 128;
constexpr unsigned kItems = 64, kLocal = 32;

const char* const kScalars[] = {"char", "uchar", "short", "ushort", "int", "uint",
                                "long", "ulong", "float", "double", "half"};
const unsigned kWidths[] = {1, 2, 3, 4, 8, 16};

unsigned scalar_bits(const std::string& s) {
  if (s == "char" || s == "uchar") return 8;
  if (s == "short" || s == "ushort" || s == "half") return 16;
  if (s == "int" || s == "uint" || s == "float") return 32;
  return 64;
}
bool is_float(const std::string& s) {
  return s == "float" || s == "double" || s == "half";
}
std::string vec(const std::string& scalar, unsigned width) {
  return width == 1 ? scalar : scalar + std::to_string(width);
}
// Bytes a value occupies in memory (a 3-vector as a 4-vector).
unsigned bytes(const std::string& scalar, unsigned width) {
  return (width == 3 ? 4 : width) * scalar_bits(scalar) / 8;
}
std::string scalar_of(const ValueType& t) {
  std::string n = t.name;
  while (!n.empty() && std::isdigit(static_cast<unsigned char>(n.back()))) n.pop_back();
  return n;
}

// The parameters of a signature as clang prints them, "const __generic float *".
std::vector<std::string> param_texts(const std::string& signature) {
  std::vector<std::string> out;
  const size_t open = signature.find('('), close = signature.rfind(')');
  const std::string rest = signature.substr(open + 1, close - open - 1);
  for (size_t from = 0; from < rest.size();) {
    size_t comma = rest.find(", ", from);
    if (comma == std::string::npos) comma = rest.size();
    out.push_back(rest.substr(from, comma - from));
    from = comma + 2;
  }
  return out;
}
// The address space a pointer parameter names ("global", "generic"...), "" if none.
std::string space_of(const std::string& param) {
  for (const char* s : {"generic", "global", "local", "private", "constant"})
    if (param.find(std::string("__") + s + " ") != std::string::npos) return s;
  return param.find('*') != std::string::npos ? "private" : "";
}
// The pointee type of a pointer parameter, without qualifiers ("float4", "atomic_int").
std::string pointee_of(std::string param) {
  param = param.substr(0, param.find(" *"));
  for (const char* q :
       {"const ", "volatile ", "__generic ", "__global ", "__local ", "__private ", "__constant "})
    for (size_t at; (at = param.find(q)) != std::string::npos;) param.erase(at, std::strlen(q));
  return param;
}

// A load of a value of `type` from `at` (aligned to kSlot), as one load of an integer carrier
// reinterpreted, so that how a value reaches the builtin is not what is tested.
std::string load(const std::string& scalar, unsigned width, const std::string& at) {
  const unsigned n = bytes(scalar, width);
  const char* carrier = n <= 4    ? "uint"
                        : n == 8  ? "uint2"
                        : n == 16 ? "uint4"
                        : n == 32 ? "uint8"
                        : n == 64 ? "uint16"
                                  : "ulong16";
  std::string word = "*(global const " + std::string(carrier) + "*)(" + at + ")";
  if (n == 1) word = "(uchar)" + word;
  if (n == 2) word = "(ushort)" + word;
  return "as_" + vec(scalar, width) + "(" + word + ")";
}
std::string store(const std::string& scalar, unsigned width, const std::string& value,
                  const std::string& at) {
  if (width == 3) return "vstore3(" + value + ", 0, (global " + scalar + "*)(" + at + "));";
  return "*(global " + vec(scalar, width) + "*)(" + at + ") = " + value + ";";
}

struct Kernel {
  std::string name, check = "pocl";
  unsigned global[3] = {kItems, 1, 1}, local[3] = {kLocal, 1, 1}, offset[3] = {0, 0, 0};
  unsigned case_bytes = kSlot;
  // The outputs are floating-point values of this many bits (0: anything else): any NaN
  // matches any NaN, the spec leaves payloads open.
  unsigned floats = 0;
  std::vector<std::string> cases; // what each case does
  std::vector<std::string> overloads;
  std::string body; // statements; `i` is the work-item, `items` the work-items
  // Local memory the cases share, `lmem` (OpenCL C declares local variables only at kernel
  // scope, and one array per case would not fit).
  unsigned local_bytes = 0;
  unsigned items() const { return global[0] * global[1] * global[2]; }
  // Where case `c` of this work-item writes.
  std::string at(size_t c) const {
    return "out + (" + std::to_string(c) + " * items + i) * " + std::to_string(case_bytes);
  }
};

struct Program {
  std::string file;
  bool fp16 = false, fp64 = true, twin = false; // twin: write <file>.ref with half as ushort
  std::string prelude;
  std::vector<Kernel> kernels;
};

std::string text(const Program& p) {
  std::ostringstream s;
  s << "// Generated by builtin_family_kernel_generator from clang's OpenCL C declarations.\n";
  if (p.fp16) s << "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n";
  if (p.fp64) s << "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n";
  s << p.prelude;
  for (const Kernel& k : p.kernels) {
    s << "// run " << k.name << " " << k.check << " global=" << k.global[0] << "," << k.global[1]
      << "," << k.global[2] << " local=" << k.local[0] << "," << k.local[1] << "," << k.local[2]
      << " offset=" << k.offset[0] << "," << k.offset[1] << "," << k.offset[2]
      << " case_bytes=" << k.case_bytes << " floats=" << k.floats << "\n";
    for (size_t c = 0; c < k.cases.size(); ++c)
      s << "// case " << k.name << " " << c << " " << k.cases[c] << "\n";
    for (const std::string& o : k.overloads) s << "// overload " << k.name << " " << o << "\n";
    s << "kernel void " << k.name
      << "(global uchar* out, global const uchar* in, constant uchar* cin) {\n"
      << "  const size_t items = get_global_size(0) * get_global_size(1) * get_global_size(2);\n"
      << "  const size_t i = get_global_linear_id();\n"
      << "  global const uchar* args = in + i % " << kItems << " * " << kInBlock << ";\n";
    if (k.local_bytes) s << "  local ulong lmem[" << k.local_bytes / 8 << "];\n";
    s << k.body << "}\n";
  }
  return s.str();
}

void write(const std::filesystem::path& dir, const Program& p) {
  std::ofstream(dir / (p.file + ".cl")) << text(p);
  if (!p.twin) return;
  // PoCL's twin: half as the 16-bit integer type whose bits it moves, and pointers to the object
  // itself where amcl's kernel passes them as generic ones (PoCL has no generic address space).
  std::string t = std::regex_replace(
      text(p), std::regex("#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"), "");
  t = std::regex_replace(t, std::regex("\\b(as_)?half([0-9]*)\\b"), "$1ushort$2");
  t = std::regex_replace(t, std::regex("\\(volatile generic [a-z_0-9]+\\*\\)q\\b"), "q");
  t = std::regex_replace(t, std::regex("\\bgeneric ([a-z0-9]+)\\* e = &ev"), "$1* e = &ev");
  std::ofstream(dir / (p.file + ".ref")) << t;
}

// ---- The families ----

using Overloads = std::vector<const DeclaredBuiltin*>;

// convert_<dst>[_sat][_rte|_rtz|_rtp|_rtn](<src>): one kernel per pair of scalar types, a case
// per overload. A float source converted to an integer without _sat reads the tame values, in
// range of every destination (signed ones the signed values); everything else the raw bits.
void conversions(const Overloads& all, std::vector<Program>& out) {
  std::map<std::pair<std::string, std::string>, Overloads> pairs;
  for (const DeclaredBuiltin* b : all)
    pairs[{scalar_of(b->result), scalar_of(b->params[0])}].push_back(b);
  Program plain{"conversions"}, half{"conversions_half"};
  half.fp16 = true;
  for (const auto& [types, overloads] : pairs) {
    const auto& [dst, src] = types;
    Kernel k;
    k.name = "convert_" + dst + "_from_" + src;
    k.floats = is_float(dst) ? scalar_bits(dst) : 0;
    for (const DeclaredBuiltin* b : overloads) {
      const size_t c = k.cases.size();
      const unsigned w = b->params[0].width;
      const bool tame =
          is_float(src) && !is_float(dst) && b->name.find("_sat") == std::string::npos;
      std::string at = "args";
      if (tame) {
        const unsigned base = src == "float"    ? kTameFloat
                              : src == "double" ? kTameDouble
                                                : kTameHalf;
        at += " + " + std::to_string(base + (dst[0] == 'u' ? 0 : kTameSigned));
      }
      k.cases.push_back(b->signature);
      k.overloads.push_back(b->signature);
      k.body += "  " + store(dst, w, b->name + "(" + load(src, w, at) + ")", k.at(c)) + "\n";
    }
    // PoCL lacks half: the test computes those conversions itself.
    if (dst == "half" || src == "half") k.check = "convert";
    (dst == "half" || src == "half" ? half : plain).kernels.push_back(k);
  }
  out.push_back(plain);
  out.push_back(half);
}

// as_<type>(<value>): every pair of types of the same size (a 4-vector to a 3-vector too,
// OpenCL C 3.0 §6.4.4.2). Not functions, so not in clang's declarations: listed here.
void reinterpretations(std::vector<Program>& out) {
  Program plain{"reinterpret"}, half{"reinterpret_half"};
  half.fp16 = half.twin = true;
  for (const char* dst : kScalars)
    for (unsigned dw : kWidths) {
      Kernel k;
      k.name = "reinterpret_as_" + vec(dst, dw);
      bool uses_half = std::string(dst) == "half";
      for (const char* src : kScalars)
        for (unsigned sw : kWidths) {
          // A 3-vector only from a 3-vector or a 4-vector of its component size.
          if (bytes(dst, dw) != bytes(src, sw) || (sw == 3 && dw != 3)) continue;
          if (dw == 3 && sw != 3 && (sw != 4 || scalar_bits(src) != scalar_bits(dst))) continue;
          const size_t c = k.cases.size();
          k.cases.push_back(vec(dst, dw) + " as_" + vec(dst, dw) + "(" + vec(src, sw) + ")");
          k.body +=
              "  " +
              store(dst, dw, "as_" + vec(dst, dw) + "(" + load(src, sw, "args") + ")", k.at(c)) +
              "\n";
          uses_half |= std::string(src) == "half";
        }
      if (!k.cases.empty()) (uses_half ? half : plain).kernels.push_back(k);
    }
  out.push_back(plain);
  out.push_back(half);
}

// A region of `elems` elements for this work-item: private, or its part of local memory.
// Half elements are copied as ushort: without cl_khr_fp16 only the vload/vstore functions may
// touch a half.
std::string declare_row(std::string& s, const std::string& target, const std::string& element,
                        const std::string& elems, Kernel& k) {
  const std::string t = element == "half" ? "ushort" : element;
  if (target != "local") {
    s += "    " + t + " row[" + elems + "];\n";
    return "row";
  }
  k.local_bytes = kLocal * 512;
  s += "    local " + t + "* row = (local " + t + "*)lmem + get_local_linear_id() * " + elems +
       ";\n";
  return "row";
}

// vload<n>, vstore<n>, vload_half<n>, vloada_half<n>, vstore[a]_half<n>[_rtX]: every overload
// through every address space its pointer may point to (a generic one: global, local and
// private), at an element offset and from a pointer one element past an aligned address (a
// vloada/vstorea pointer is aligned, as it must be). Kernels per function and element type.
void vector_memory(const Overloads& all, std::vector<Program>& out) {
  std::map<std::pair<std::string, std::string>, Overloads> groups; // (function, element type)
  for (const DeclaredBuiltin* b : all) {
    const auto params = param_texts(b->signature);
    const std::string element = pointee_of(params.back());
    groups[{b->name, element}].push_back(b);
  }
  Program plain{"vector_memory"}, half{"vector_memory_half"};
  half.fp16 = half.twin = true;
  // The element region each case uses: 64 elements of at most 8 bytes.
  constexpr unsigned kRegion = 512;
  for (const auto& [key, overloads] : groups) {
    const auto& [fn, element] = key;
    Kernel k;
    k.name = "test_" + fn + "_" + element;
    k.case_bytes = kRegion;
    const bool store_fn = fn.rfind("vstore", 0) == 0;
    const bool aligned = fn.find("vloada") == 0 || fn.find("vstorea") == 0;
    const bool half_fn = fn.find("_half") != std::string::npos;
    if (half_fn) k.floats = store_fn ? 16 : 32;
    bool uses_half = false;
    for (const DeclaredBuiltin* b : overloads) {
      const auto params = param_texts(b->signature);
      const std::string space = space_of(params.back());
      // n: components per call; the data type moved.
      const ValueType& value = store_fn ? b->params[0] : b->result;
      const unsigned n = value.width, step = aligned && n == 3 ? 4 : n;
      const std::string vt = scalar_of(value);
      uses_half |= vt == "half" || element == "half";
      std::vector<std::string> targets =
          space == "generic" ? std::vector<std::string>{"global", "local", "private"}
                             : std::vector<std::string>{space};
      k.overloads.push_back(b->signature);
      for (const std::string& target : targets) {
        const size_t c = k.cases.size();
        k.cases.push_back(b->signature + " on " + target);
        const std::string offset = "(i % 3)";
        const std::string skew = aligned ? std::to_string(step) : "1";
        std::string& s = k.body;
        s += "  { // case " + std::to_string(c) + "\n";
        const std::string elems = "64"; // enough for an offset of 2 vectors of 16 and a skew
        const std::string copied = element == "half" ? "ushort" : element;
        if (!store_fn) {
          std::string src;
          if (target == "global") {
            src = "(global const " + element + "*)args + " + skew;
          } else if (target == "constant") {
            src = "(constant " + element + "*)(cin + (i % 16) * " + std::to_string(kInBlock) +
                  ") + " + skew;
          } else {
            const std::string row = declare_row(s, target, element, elems, k);
            s += "    for (int e = 0; e < " + elems + "; ++e) " + row + "[e] = ((global const " +
                 copied + "*)args)[e];\n";
            src = "(" + target + " " + element + "*)" + row + " + " + skew;
          }
          s += "    " + store(vt, n, fn + "(" + offset + ", " + src + ")", k.at(c)) + "\n";
        } else {
          const std::string v = load(vt, n, "args");
          if (target == "global") {
            // Zeros around the stored values, as in local and private memory: vstorea_half3 may
            // write the fourth half, its alignment padding (PoCL writes zero there).
            s += "    for (int e = 0; e < " + elems + "; ++e) ((global " + copied + "*)(" +
                 k.at(c) + "))[e] = 0;\n";
            s += "    " + fn + "(" + v + ", " + offset + ", (global " + element + "*)(" + k.at(c) +
                 ") + " + skew + ");\n";
          } else {
            const std::string row = declare_row(s, target, element, elems, k);
            s += "    for (int e = 0; e < " + elems + "; ++e) " + row + "[e] = 0;\n";
            s += "    " + fn + "(" + v + ", " + offset + ", (" + target + " " + element + "*)" +
                 row + " + " + skew + ");\n";
            s += "    for (int e = 0; e < " + elems + "; ++e) ((global " + copied + "*)(" +
                 k.at(c) + "))[e] = " + row + "[e];\n";
          }
        }
        s += "  }\n";
      }
    }
    (uses_half && !half_fn ? half : plain).kernels.push_back(k);
  }
  out.push_back(plain);
  out.push_back(half);
}

// The work-item functions of every dimension (and one past the last: the spec's defaults), in
// 1, 2 and 3 dimensions, with global offsets and work-groups that do not divide the NDRange.
// Each work-item writes at the position its ids give, so that a wrong linear id is seen.
constexpr unsigned kWorkItemValues = 36;
void work_items(const Overloads& all, std::vector<Program>& out) {
  Program p{"work_items"};
  p.fp64 = false;
  struct Shape {
    unsigned dims, global[3], local[3], offset[3];
  };
  const Shape shapes[] = {
      {1, {64, 1, 1}, {32, 1, 1}, {0, 0, 0}}, {1, {70, 1, 1}, {32, 1, 1}, {5, 0, 0}},
      {1, {37, 1, 1}, {8, 1, 1}, {3, 0, 0}},  {2, {16, 6, 1}, {8, 4, 1}, {2, 3, 0}},
      {2, {10, 7, 1}, {4, 2, 1}, {0, 0, 0}},  {3, {6, 5, 4}, {4, 2, 3}, {1, 2, 3}},
      {3, {8, 4, 2}, {4, 2, 2}, {0, 0, 0}},   {3, {3, 9, 5}, {2, 4, 4}, {7, 0, 1}},
  };
  static const char* const kPerDim[] = {
      "get_global_size", "get_global_id",  "get_local_size", "get_enqueued_local_size",
      "get_local_id",    "get_num_groups", "get_group_id",   "get_global_offset"};
  std::vector<std::string> signatures;
  for (const DeclaredBuiltin* b : all) signatures.push_back(b->signature);
  for (size_t n = 0; n < std::size(shapes); ++n) {
    const Shape& sh = shapes[n];
    Kernel k;
    k.name = "work_items_" + std::to_string(n);
    k.check = "workitem dims=" + std::to_string(sh.dims);
    for (unsigned d = 0; d < 3; ++d)
      k.global[d] = sh.global[d], k.local[d] = sh.local[d], k.offset[d] = sh.offset[d];
    k.case_bytes = kWorkItemValues * 8;
    k.cases.push_back("the work-item functions, in the order of kWorkItemFunctions");
    k.overloads = signatures;
    std::string& s = k.body;
    // The position from get_global_id, get_global_offset and get_global_size alone.
    s += "  const size_t at = ((get_global_id(2) - get_global_offset(2)) * get_global_size(1) +\n"
         "      (get_global_id(1) - get_global_offset(1))) * get_global_size(0) +\n"
         "      (get_global_id(0) - get_global_offset(0));\n"
         "  global ulong* v = (global ulong*)(out + at * " +
         std::to_string(k.case_bytes) +
         ");\n"
         "  v[0] = get_work_dim();\n";
    unsigned slot = 1;
    for (unsigned d = 0; d < 4; ++d)
      for (const char* f : kPerDim)
        s += "  v[" + std::to_string(slot++) + "] = " + f + "(" + std::to_string(d) + ");\n";
    s += "  v[" + std::to_string(slot++) + "] = get_global_linear_id();\n";
    s += "  v[" + std::to_string(slot++) + "] = get_local_linear_id();\n";
    s += "  v[" + std::to_string(slot++) + "] = i == get_global_linear_id();\n";
    p.kernels.push_back(k);
  }
  out.push_back(p);
}

// async_work_group_copy and async_work_group_strided_copy both ways, wait_group_events and
// prefetch, for every element type: a work-group copies global to local (from one element past
// an aligned address), local to global, and strided both ways, with events shared and waited
// on together. Case c is one vector width; work-group g writes its own part of it.
void async_copies(const Overloads& all, std::vector<Program>& out) {
  std::map<std::string, Overloads> by_type; // element type of the copies
  Overloads common;
  for (const DeclaredBuiltin* b : all) {
    if (b->name == "wait_group_events") {
      common.push_back(b);
      continue;
    }
    by_type[pointee_of(param_texts(b->signature)[0])].push_back(b);
  }
  Program plain{"async_copies"}, half{"async_copies_half"};
  half.fp16 = half.twin = true;
  constexpr unsigned kCaseBytes = 512, kCopied = 40, kStrided = 20, kStride = 3;
  std::map<std::string, Kernel> kernels; // by scalar type
  for (const auto& [type, overloads] : by_type) {
    std::string scalar = type;
    while (!scalar.empty() && std::isdigit(static_cast<unsigned char>(scalar.back())))
      scalar.pop_back();
    Kernel& k = kernels[scalar];
    k.name = "async_copies_" + scalar;
    k.case_bytes = kCaseBytes;
    k.local_bytes = (kCopied + kStrided) * 128;
    for (const DeclaredBuiltin* b : overloads) k.overloads.push_back(b->signature);
    const size_t c = k.cases.size();
    k.cases.push_back("async copies of " + type);
    const std::string T = type, n = std::to_string(kCopied), m = std::to_string(kStrided),
                      stride = std::to_string(kStride);
    const std::string region =
        "(" + k.at(c) + " - get_local_linear_id() * " + std::to_string(kCaseBytes) + ")";
    k.body += "  { // case " + std::to_string(c) +
              "\n"
              "    local " +
              T + "* a = (local " + T +
              "*)lmem;\n"
              "    local " +
              T + "* b = a + " + n +
              ";\n"
              "    global const " +
              T + "* src = (global const " + T +
              "*)(in + get_group_id(0) * 16384) + 1;\n"
              "    global " +
              T + "* dst = (global " + T + "*)" + region +
              ";\n"
              "    event_t e = async_work_group_copy(a, src, " +
              n +
              ", 0);\n"
              "    wait_group_events(1, &e);\n"
              "    event_t f[2];\n"
              "    f[0] = async_work_group_copy(dst, a, " +
              n +
              ", 0);\n"
              "    f[1] = async_work_group_strided_copy(b, src + 1, " +
              m + ", " + stride +
              ", 0);\n"
              "    prefetch(src, " +
              n +
              ");\n"
              "    wait_group_events(2, f);\n"
              "    e = async_work_group_strided_copy(dst + " +
              n + ", b, " + m + ", " + stride +
              ", 0);\n"
              "    wait_group_events(1, &e);\n"
              "  }\n";
  }
  for (auto& [scalar, k] : kernels) {
    for (const DeclaredBuiltin* b : common) k.overloads.push_back(b->signature);
    (scalar == "half" ? half : plain).kernels.push_back(k);
  }
  out.push_back(plain);
  out.push_back(half);
}

// barrier, work_group_barrier, mem_fence, read_mem_fence, write_mem_fence: each work-item
// writes local and global memory, synchronises, and reads what its neighbour wrote.
void synchronisation(const Overloads& all, std::vector<Program>& out) {
  Program p{"synchronisation"};
  p.fp64 = false;
  p.prelude = "#ifndef __opencl_c_subgroups\n#define memory_scope_sub_group "
              "memory_scope_work_group\n#endif\n";
  Kernel k;
  k.name = "synchronisation";
  for (const DeclaredBuiltin* b : all) k.overloads.push_back(b->signature);
  const std::vector<std::string> syncs = {
      "barrier(CLK_LOCAL_MEM_FENCE)",
      "barrier(CLK_GLOBAL_MEM_FENCE)",
      "barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE)",
      "work_group_barrier(CLK_LOCAL_MEM_FENCE)",
      "work_group_barrier(CLK_GLOBAL_MEM_FENCE, memory_scope_work_group)",
      "work_group_barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE, memory_scope_device)",
      "mem_fence(CLK_LOCAL_MEM_FENCE); barrier(CLK_LOCAL_MEM_FENCE)",
      "read_mem_fence(CLK_GLOBAL_MEM_FENCE); barrier(CLK_GLOBAL_MEM_FENCE)",
      "write_mem_fence(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE); barrier(CLK_LOCAL_MEM_FENCE | "
      "CLK_GLOBAL_MEM_FENCE)"};
  k.body += "  local uint l[" + std::to_string(kLocal) +
            "];\n"
            "  const size_t lid = get_local_id(0), next = (lid + 1) % get_local_size(0);\n";
  for (size_t n = 0; n < syncs.size(); ++n) {
    k.cases.push_back(syncs[n]);
    k.body += "  { // case " + std::to_string(n) +
              "\n"
              "    global uint* g = (global uint*)(" +
              k.at(n) +
              ");\n"
              "    l[lid] = *(global const uint*)args + " +
              std::to_string(n) +
              ";\n"
              "    g[1] = l[lid] ^ 0x5555;\n"
              "    " +
              syncs[n] +
              ";\n"
              "    g[2] = l[next];\n"
              "    g[3] = ((global uint*)(out + (" +
              std::to_string(n) + " * items + i - lid + next) * " + std::to_string(kSlot) +
              "))[1];\n"
              "    barrier(CLK_LOCAL_MEM_FENCE);\n"
              "  }\n";
  }
  p.kernels.push_back(k);
  out.push_back(p);
}

// The atomic functions: OpenCL 1.x's atomic_* and atom_* on int, uint, long and ulong (and
// atomic_xchg on float), OpenCL C 3.0's atomic_* on the atomic types with every memory order
// each allows and every scope amcl reports. Each overload runs on a location of its own per
// work-item (the returned and final values are exact), in every address space its pointer may
// point to (a generic one: global and local storage), and, for the commutative operations, all
// work-items on one location of the NDRange or the work-group (the final value is exact).
// Case bytes: the location (or its final value) at 0, the result at 8, cmpxchg's expected
// value at 16.
constexpr unsigned kAtomicCase = 32;

struct AtomicShape {
  std::string object, value;  // the pointee ("atomic_int", "int"), its value type
  std::string space;          // of the object pointer
  std::string expected_space; // compare-exchange's expected pointer
  bool c11 = false, flag = false;
  unsigned orders = 0, scopes = 0, values = 0; // parameters of each kind
};

AtomicShape atomic_shape(const DeclaredBuiltin& b) {
  AtomicShape a;
  const auto params = param_texts(b.signature);
  a.object = pointee_of(params[0]);
  a.space = space_of(params[0]);
  a.c11 = a.object.rfind("atomic_", 0) == 0 || a.object.rfind("_Atomic", 0) == 0;
  a.flag = a.object == "atomic_flag";
  a.value = a.object;
  if (a.c11 && !a.flag) {
    a.value = a.object.rfind("_Atomic(", 0) == 0 ? a.object.substr(8, a.object.size() - 9)
                                                 : a.object.substr(7);
    if (a.value == "intptr_t" || a.value == "ptrdiff_t") a.value = "long";
    if (a.value == "uintptr_t" || a.value == "size_t") a.value = "ulong";
  }
  for (size_t k = 1; k < params.size(); ++k) {
    if (params[k].find("memory_order") != std::string::npos)
      ++a.orders;
    else if (params[k].find("memory_scope") != std::string::npos)
      ++a.scopes;
    else if (params[k].find('*') != std::string::npos)
      a.expected_space = space_of(params[k]);
    else
      ++a.values;
  }
  return a;
}

const char* const kCommutative[] = {"add", "sub", "and", "or", "xor", "min", "max", "inc", "dec"};

bool commutative(const std::string& fn) {
  for (const char* op : kCommutative)
    if (fn == std::string("atomic_") + op || fn == std::string("atom_") + op ||
        fn == std::string("atomic_fetch_") + op ||
        fn == std::string("atomic_fetch_") + op + "_explicit")
      return true;
  return false;
}

// The memory-order arguments an overload may take (OpenCL C 3.0 §6.15.12.3; compare-exchange's
// failure order is no release and no stronger than the success order).
std::vector<std::string> order_choices(const std::string& fn, unsigned orders) {
  if (orders == 0) return {""};
  if (orders == 2)
    return {
        "memory_order_relaxed, memory_order_relaxed", "memory_order_acquire, memory_order_acquire",
        "memory_order_release, memory_order_relaxed", "memory_order_acq_rel, memory_order_acquire",
        "memory_order_seq_cst, memory_order_seq_cst", "memory_order_seq_cst, memory_order_relaxed"};
  if (fn.find("load") != std::string::npos)
    return {"memory_order_relaxed", "memory_order_acquire", "memory_order_seq_cst"};
  if (fn.find("store") != std::string::npos || fn.find("clear") != std::string::npos)
    return {"memory_order_relaxed", "memory_order_release", "memory_order_seq_cst"};
  return {"memory_order_relaxed", "memory_order_acquire", "memory_order_release",
          "memory_order_acq_rel", "memory_order_seq_cst"};
}
// The scopes amcl reports (__opencl_c_atomic_scope_device, __opencl_c_subgroups).
const std::vector<std::string> kScopes = {"memory_scope_work_group", "memory_scope_device",
                                          "memory_scope_sub_group"};

// One call of `b` on a location in `storage` ("global" or "local"), per work-item or shared.
std::string atomic_case(const DeclaredBuiltin& b, const AtomicShape& a, const std::string& storage,
                        const std::string& orders, const std::string& scope, bool shared,
                        const Kernel& k, size_t c) {
  const std::string A = a.object, V = a.value, at = k.at(c);
  const std::string q_space = storage == "global" ? "global" : "local";
  std::ostringstream s;
  s << "  { // case " << c << "\n";
  if (storage == "global") {
    const std::string where =
        shared ? "out + (" + std::to_string(c) + " * items) * " + std::to_string(kAtomicCase) : at;
    s << "    volatile global " << A << "* q = (volatile global " << A << "*)(" << where << ");\n";
  } else if (shared) {
    s << "    volatile local " << A << "* q = (volatile local " << A << "*)(lmem + " << kLocal
      << ");\n";
  } else {
    s << "    volatile local " << A << "* q = (volatile local " << A
      << "*)(lmem + get_local_linear_id());\n";
  }
  const std::string ptr = a.space == "generic" ? "(volatile generic " + A + "*)q" : "q";
  auto x = [&](unsigned n) { return load(V, 1, "args + " + std::to_string(8 * n)); };
  // The initial value: a plain store (1.x), atomic_init or a clear (3.0).
  const std::string init = a.flag  ? "atomic_flag_clear_explicit(q, memory_order_relaxed);"
                           : a.c11 ? "atomic_init(q, " + x(0) + ");"
                                   : "*q = " + x(0) + ";";
  if (!shared || storage == "local") {
    if (shared)
      s << "    if (get_local_linear_id() == 0) ";
    else
      s << "    ";
    if (b.name == "atomic_init")
      s << "{}\n";
    else
      s << init << "\n";
    if (shared) s << "    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);\n";
  }
  std::string args = ptr;
  std::string expected_decl;
  if (!a.expected_space.empty()) {
    // The expected value: equal to the location on odd work-items, so both outcomes are seen.
    const std::string e0 = "(i & 1) ? " + x(0) + " : " + x(1);
    // PoCL's compare-exchange takes the expected value only in private memory, and PoCL has no
    // generic address space: it uses a private one.
    if (a.expected_space == "global" || a.expected_space == "local") {
      s << "#ifdef __opencl_c_generic_address_space\n";
      if (a.expected_space == "global")
        s << "    global " << V << "* e = (global " << V << "*)(" << at << " + 16);\n";
      else
        s << "    local " << V << "* e = (local " << V << "*)(lmem + " << kLocal + 1
          << " + get_local_linear_id());\n";
      s << "#else\n    " << V << " ev;\n    " << V << "* e = &ev;\n#endif\n    *e = " << e0
        << ";\n";
    } else {
      s << "    " << V << " ev = " << e0 << ";\n    "
        << (a.expected_space == "generic" ? "generic " : "") << V << "* e = &ev;\n";
    }
    args += ", e";
  }
  for (unsigned n = 0; n < a.values; ++n) args += ", " + x(n + 1);
  if (b.name == "atomic_init") args = ptr + ", " + x(0);
  if (!orders.empty()) args += ", " + orders;
  if (!scope.empty()) args += ", " + scope;
  const std::string call = b.name + "(" + args + ")";
  const bool returns = b.result.name.size() > 0 || b.signature.rfind("bool ", 0) == 0;
  const std::string rtype = b.signature.rfind("bool ", 0) == 0 ? "int" : b.result.name;
  if (shared) {
    s << "    " << call << ";\n";
    if (storage == "local") {
      s << "    barrier(CLK_LOCAL_MEM_FENCE);\n"
        << "    if (get_local_linear_id() == 0) *(global " << V << "*)(" << at
        << ") = " << (a.c11 ? "atomic_load_explicit(q, memory_order_relaxed)" : "*q") << ";\n"
        << "    barrier(CLK_LOCAL_MEM_FENCE);\n";
    }
  } else {
    if (returns)
      s << "    *(global " << rtype << "*)(" << at << " + 8) = " << call << ";\n";
    else
      s << "    " << call << ";\n";
    if (a.flag) // the flag is set now, whatever it was
      s << "    *(global int*)(" << at
        << " + 4) = atomic_flag_test_and_set_explicit(q, memory_order_relaxed);\n";
    else if (storage == "local")
      s << "    *(global " << V << "*)(" << at
        << ") = " << (a.c11 ? "atomic_load_explicit(q, memory_order_relaxed)" : "*q") << ";\n";
    if (!a.expected_space.empty()) s << "    *(global " << V << "*)(" << at << " + 16) = *e;\n";
  }
  s << "  }\n";
  return s.str();
}

void atomics(const Overloads& all, std::vector<Program>& out) {
  const std::string prelude =
      "#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable\n"
      "#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable\n"
      "#pragma OPENCL EXTENSION cl_khr_global_int32_base_atomics : enable\n"
      "#pragma OPENCL EXTENSION cl_khr_global_int32_extended_atomics : enable\n"
      "#pragma OPENCL EXTENSION cl_khr_local_int32_base_atomics : enable\n"
      "#pragma OPENCL EXTENSION cl_khr_local_int32_extended_atomics : enable\n"
      "#ifndef __opencl_c_subgroups\n#define memory_scope_sub_group "
      "memory_scope_work_group\n#endif\n";
  Program p{"atomics"}, floats{"atomics_float_min_max"};
  p.prelude = floats.prelude = prelude;
  p.twin = true;
  std::map<std::string, Kernel> kernels;
  Kernel fence;
  fence.name = "test_atomic_work_item_fence";
  fence.case_bytes = kAtomicCase;
  for (const DeclaredBuiltin* b : all) {
    if (b->name == "atomic_work_item_fence") {
      fence.overloads.push_back(b->signature);
      const std::pair<const char*, const char*> flags_scopes[] = {
          {"CLK_GLOBAL_MEM_FENCE", "memory_scope_work_group"},
          {"CLK_LOCAL_MEM_FENCE", "memory_scope_device"},
          {"CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE", "memory_scope_sub_group"},
          {"CLK_IMAGE_MEM_FENCE", "memory_scope_work_item"}};
      for (const auto& [flags, scope] : flags_scopes)
        for (const char* order : {"memory_order_acquire", "memory_order_release",
                                  "memory_order_acq_rel", "memory_order_seq_cst"}) {
          const size_t c = fence.cases.size();
          fence.cases.push_back(std::string("atomic_work_item_fence(") + flags + ", " + order +
                                ", " + scope + ")");
          fence.body += "  *(global uint*)(" + fence.at(c) +
                        ") = *(global const uint*)args;\n"
                        "  atomic_work_item_fence(" +
                        std::string(flags) + ", " + order + ", " + scope +
                        ");\n"
                        "  *(global uint*)(" +
                        fence.at(c) + " + 4) = " + std::to_string(c) + ";\n";
        }
      continue;
    }
    const AtomicShape a = atomic_shape(*b);
    const bool float_min_max =
        a.c11 && (a.value == "float" || a.value == "double") &&
        (b->name.find("_min") != std::string::npos || b->name.find("_max") != std::string::npos);
    if (float_min_max) continue; // below, checked against plain code: PoCL lacks them
    Kernel& k = kernels[b->name];
    k.name = "test_" + b->name;
    k.case_bytes = kAtomicCase;
    k.local_bytes = (2 * kLocal + 1) * 8;
    k.overloads.push_back(b->signature);
    const std::vector<std::string> storages = a.space == "generic"
                                                  ? std::vector<std::string>{"global", "local"}
                                                  : std::vector<std::string>{a.space};
    for (const std::string& storage : storages) {
      // Every order with one scope, every scope with one order.
      std::vector<std::pair<std::string, std::string>> choices;
      for (const std::string& orders : order_choices(b->name, a.orders))
        choices.emplace_back(orders, a.scopes ? kScopes[0] : "");
      for (size_t sc = 1; a.scopes && sc < kScopes.size(); ++sc)
        choices.emplace_back(order_choices(b->name, a.orders).back(), kScopes[sc]);
      for (const auto& [orders, scope] : choices) {
        const size_t c = k.cases.size();
        k.cases.push_back(b->signature + " on " + storage + (orders.empty() ? "" : " " + orders) +
                          (scope.empty() ? "" : " " + scope));
        k.body += atomic_case(*b, a, storage, orders, scope, false, k, c);
      }
      if (commutative(b->name)) {
        const std::string orders = a.orders ? order_choices(b->name, a.orders).back() : "";
        const std::string scope = a.scopes ? std::string("memory_scope_device") : "";
        const size_t c = k.cases.size();
        k.cases.push_back(b->signature + " on one " + storage + " location");
        k.body += atomic_case(*b, a, storage, orders,
                              storage == "local" && a.scopes ? "memory_scope_work_group" : scope,
                              true, k, c);
      }
    }
  }
  for (auto& [name, k] : kernels) p.kernels.push_back(k);
  p.kernels.push_back(fence);
  out.push_back(p);
  // atomic_fetch_min/max on atomic_float and atomic_double: against plain code.
  Kernel k;
  k.name = "atomic_fetch_min_max_float";
  k.check = "self";
  k.case_bytes = 2 * 16;
  k.local_bytes = kLocal * 8;
  for (const DeclaredBuiltin* b : all) {
    const AtomicShape a = atomic_shape(*b);
    if (!a.c11 || (a.value != "float" && a.value != "double") ||
        (b->name.find("_min") == std::string::npos && b->name.find("_max") == std::string::npos))
      continue;
    k.overloads.push_back(b->signature);
    const bool is_min = b->name.find("_min") != std::string::npos;
    const std::string V = a.value, A = "atomic_" + a.value; // _Atomic(T) is not OpenCL C
    const unsigned tame = V == "float" ? kTameFloat : kTameDouble;
    for (const std::string& storage : a.space == "generic"
                                          ? std::vector<std::string>{"global", "local"}
                                          : std::vector<std::string>{a.space}) {
      const size_t c = k.cases.size();
      k.cases.push_back(b->signature + " on " + storage);
      const std::string x0 = load(V, 1, "args + " + std::to_string(tame + kTameSigned)),
                        x1 = load(V, 1, "args + " + std::to_string(tame + kTameSigned + 8));
      std::string args = "q";
      if (a.space == "generic") args = "(volatile generic " + A + "*)q";
      args += ", x1";
      if (a.orders) args += ", memory_order_relaxed";
      if (a.scopes) args += ", memory_scope_device";
      k.body += "  { // case " + std::to_string(c) +
                "\n"
                "    const " +
                V + " x0 = " + x0 + ", x1 = " + x1 +
                ";\n"
                "    global " +
                V + "* r = (global " + V + "*)(" + k.at(c) + ");\n";
      if (storage == "global")
        k.body += "    r[1] = x0;\n"
                  "    volatile global " +
                  A + "* q = (volatile global " + A + "*)(r + 1);\n";
      else
        k.body += "    local " + V + "* l = (local " + V +
                  "*)(lmem + get_local_linear_id());\n"
                  "    l[0] = x0;\n"
                  "    volatile local " +
                  A + "* q = (volatile local " + A + "*)l;\n";
      k.body += "    r[0] = " + b->name + "(" + args + ");\n" +
                (storage == "global" ? "" : "    r[1] = l[0];\n") + "    r[16 / sizeof(" + V +
                ")] = x0;\n"
                "    r[16 / sizeof(" +
                V + ") + 1] = x1 " + (is_min ? "<" : ">") +
                " x0 ? x1 : x0;\n"
                "  }\n";
    }
  }
  floats.kernels.push_back(k);
  out.push_back(floats);
}

// ---- Sub-groups (cl_khr_subgroups and the cl_khr_subgroup_* extensions amcl reports) ----
// PoCL has none, and the sub-group size is the device's: each case computes what the builtin
// must return from a table in local memory that every work-item fills at (sub-group id, local
// id), and writes both ("self"). Work-groups of 48 make the second sub-group of each a partial
// one on wave32 cards. The non-uniform functions run in work-items whose local id is not 1
// mod 3. Values are chosen so that any order of a floating-point reduction is exact.
constexpr unsigned kSubGroupLocal = 48, kSubGroupCase = 2 * kSlot;

// The value of `op` combining a and b, in type T (integer arithmetic through the unsigned type:
// wrapping, as the hardware does, where a signed overflow would be undefined in OpenCL C).
std::string combine(const std::string& op, const std::string& T, const std::string& a,
                    const std::string& b) {
  const bool fp = is_float(T);
  const std::string U = T[0] == 'u' || fp ? T : "u" + T;
  if (op == "add" || op == "mul") {
    const char* o = op == "add" ? " + " : " * ";
    if (fp) return "(" + a + o + b + ")";
    return "(" + T + ")((" + U + ")" + a + o + "(" + U + ")" + b + ")";
  }
  if (op == "min") return "(" + a + " < " + b + " ? " + a + " : " + b + ")";
  if (op == "max") return "(" + a + " > " + b + " ? " + a + " : " + b + ")";
  if (op == "and") return "(" + T + ")(" + a + " & " + b + ")";
  if (op == "or") return "(" + T + ")(" + a + " | " + b + ")";
  if (op == "xor") return "(" + T + ")(" + a + " ^ " + b + ")";
  if (op == "logical_and") return "(" + a + " && " + b + ")";
  if (op == "logical_or") return "(" + a + " || " + b + ")";
  return "((" + a + " != 0) != (" + b + " != 0))"; // logical_xor
}
// The identity of `op` in type T (the exclusive scans' first value).
std::string identity(const std::string& op, const std::string& T) {
  static const std::map<std::string, std::pair<const char*, const char*>> kLimits = {
      {"char", {"CHAR_MAX", "CHAR_MIN"}},   {"uchar", {"UCHAR_MAX", "0"}},
      {"short", {"SHRT_MAX", "SHRT_MIN"}},  {"ushort", {"USHRT_MAX", "0"}},
      {"int", {"INT_MAX", "INT_MIN"}},      {"uint", {"UINT_MAX", "0"}},
      {"long", {"LONG_MAX", "LONG_MIN"}},   {"ulong", {"ULONG_MAX", "0"}},
      {"float", {"INFINITY", "-INFINITY"}}, {"double", {"INFINITY", "-INFINITY"}},
      {"half", {"INFINITY", "-INFINITY"}}};
  if (op == "add" || op == "or" || op == "xor" || op == "logical_or" || op == "logical_xor")
    return "(" + T + ")0";
  if (op == "mul" || op == "logical_and") return "(" + T + ")1";
  if (op == "and") return "(" + T + ")~0";
  return "(" + T + ")" + (op == "min" ? kLimits.at(T).first : kLimits.at(T).second);
}

// Sets bit k of the uint4 `want`, naming the component (a component indexed at run time is a
// v_movrels_b32, which the emulator does not implement yet).
const std::string kSetBit =
    "{ const uint b = 1u << (k % 32); if (k < 32) want.x |= b; else if "
    "(k < 64) want.y |= b; else if (k < 96) want.z |= b; else want.w |= b; }";

void sub_groups(const Overloads& all, std::vector<Program>& out) {
  Program p{"sub_groups"};
  p.fp16 = true;
  std::map<std::string, Kernel> kernels; // by function
  for (const DeclaredBuiltin* b : all) {
    Kernel& k = kernels[b->name];
    k.name = "test_" + b->name;
    k.check = "self";
    k.global[0] = 2 * kSubGroupLocal, k.local[0] = kSubGroupLocal;
    k.case_bytes = kSubGroupCase;
    k.local_bytes = kSubGroupLocal * kSlot;
    k.overloads.push_back(b->signature);
    const size_t c = k.cases.size();
    k.cases.push_back(b->signature);
    const std::string& fn = b->name;
    // The value type: the first parameter's, else the result's (uint for void).
    const ValueType& vt =
        !b->params.empty() && !b->params[0].name.empty() ? b->params[0] : b->result;
    const std::string T = vt.name.empty() ? "uint" : vt.name,
                      S = vt.name.empty() ? "uint" : scalar_of(vt);
    const unsigned width = vt.name.empty() ? 1 : vt.width;
    const std::string R = b->result.name.empty() ? "uint" : b->result.name;
    const unsigned rwidth = b->result.name.empty() ? 1 : b->result.width;
    const std::string RS = b->result.name.empty() ? "uint" : scalar_of(b->result);
    std::ostringstream s;
    s << "  { // case " << c << "\n"
      << "    const uint sgl = get_sub_group_local_id(), sgs = get_sub_group_size();\n"
      << "    const uint base = get_sub_group_id() * get_max_sub_group_size();\n"
      << "    const bool first_group = get_group_id(0) == 0, active = sgl % 3 != 1;\n"
      << "    const uint r = *(global const uint*)(args + " << (c % 16) * 8 << ");\n";
    // The work-item's value.
    std::string make;
    const bool pred = fn.find("logical") != std::string::npos || fn == "sub_group_all" ||
                      fn == "sub_group_any" || fn.find("non_uniform_all") != std::string::npos ||
                      fn.find("non_uniform_any") != std::string::npos || fn == "sub_group_ballot";
    const bool mul = fn.find("_mul") != std::string::npos;
    if (fn == "sub_group_all" || fn == "sub_group_non_uniform_all")
      make = "(" + T + ")(first_group || sgl != 5)";
    else if (fn == "sub_group_any" || fn == "sub_group_non_uniform_any")
      make = "(" + T + ")(!first_group && sgl == 5)";
    else if (fn == "sub_group_non_uniform_all_equal")
      make = "(" + T + ")(first_group || sgl != 5 ? 1 : 2)";
    else if (pred)
      make = "(" + T + ")(r & 1)";
    else if (is_float(S) && mul)
      make = S == "half"
                 ? "(" + T + ")((r & 1) ? -1 : 1)"
                 : "(" + T +
                       ")(((r & 1) ? -1 : 1) * ((r & 6) == 2 ? 2.0f : (r & 6) == 4 ? 0.5f : 1.0f))";
    else if (is_float(S))
      make = "(" + T + ")((int)(r & 15) - 8)";
    else
      make = load(S, width, "args + " + std::to_string((c % 4) * 8)); // raw bits
    s << "    local " << S << "* lt = (local " << S << "*)lmem;\n"
      << "    const " << T << " x = " << make << ";\n";
    if (width == 1)
      s << "    lt[base + sgl] = x;\n";
    else if (width == 3)
      s << "    vstore3(x, base + sgl, lt);\n";
    else
      s << "    vstore" << width << "(x, base + sgl, lt);\n";
    s << "    barrier(CLK_LOCAL_MEM_FENCE);\n";
    auto at = [&](const std::string& lane) { // the table's value of a lane
      return width == 1 ? "lt[base + " + lane + "]"
                        : "vload" + std::to_string(width) + "(base + " + lane + ", lt)";
    };
    s << "    " << R << " got = (" << R << ")0, want = (" << R << ")0;\n";
    std::string body; // statements setting got and want
    auto fold = [&](const std::string& op, const std::string& from, const std::string& to,
                    const std::string& cond, const std::string& init) {
      return "      { " + T + " acc = " + init + "; for (uint k = " + from + "; k < " + to +
             "; ++k) if (" + cond + ") acc = " + combine(op, T, "acc", at("k")) +
             "; want = acc; }\n";
    };
    std::string op;
    for (const char* o : {"logical_and", "logical_or", "logical_xor", "add", "mul", "min", "max",
                          "and", "or", "xor"}) {
      const std::string suffix = std::string("_") + o;
      if (fn.size() > suffix.size() &&
          fn.compare(fn.size() - suffix.size(), suffix.size(), suffix) == 0 && op.empty())
        op = o;
    }
    const bool non_uniform = fn.find("non_uniform") != std::string::npos;
    const std::string cond = non_uniform ? "k % 3 != 1" : "true";
    if (fn.rfind("get_", 0) == 0) {
      const std::string lid = "(uint)get_local_linear_id()", max = "get_max_sub_group_size()";
      body += "      got = " + fn + "();\n";
      if (fn == "get_sub_group_size")
        body += "      want = min(" + max + ", (uint)get_local_size(0) - get_sub_group_id() * " +
                max + ");\n";
      else if (fn == "get_max_sub_group_size")
        body += "      want = got == 32 || got == 64 ? got : 0;\n";
      else if (fn == "get_num_sub_groups")
        body += "      want = ((uint)get_local_size(0) + " + max + " - 1) / " + max + ";\n";
      else if (fn == "get_enqueued_num_sub_groups")
        body +=
            "      want = ((uint)get_enqueued_local_size(0) + " + max + " - 1) / " + max + ";\n";
      else if (fn == "get_sub_group_id")
        body += "      want = " + lid + " / " + max + ";\n";
      else if (fn == "get_sub_group_local_id")
        body += "      want = " + lid + " % " + max + ";\n";
      else { // the masks, over the sub-group's bits
        const std::string rel = fn == "get_sub_group_eq_mask"   ? "=="
                                : fn == "get_sub_group_ge_mask" ? ">="
                                : fn == "get_sub_group_gt_mask" ? ">"
                                : fn == "get_sub_group_le_mask" ? "<="
                                                                : "<";
        body += "      for (uint k = 0; k < sgs; ++k) if (k " + rel + " sgl) " + kSetBit +
                "\n"
                "      const uint4 in_group = (uint4)(sgs > 0 ? (sgs >= 32 ? ~0u : (1u << sgs) - "
                "1) : 0, sgs >= 64 ? ~0u : sgs > 32 ? (1u << (sgs - 32)) - 1 : 0, 0, 0);\n"
                "      got &= in_group;\n"
                "";
      }
    } else if (fn == "sub_group_barrier") {
      const std::string call =
          b->params.size() == 2 ? "sub_group_barrier(CLK_LOCAL_MEM_FENCE, memory_scope_sub_group)"
                                : "sub_group_barrier(CLK_LOCAL_MEM_FENCE)";
      body += "      lt[base + sgl] = x + 1;\n      " + call +
              ";\n"
              "      got = lt[base + (sgl + 1) % sgs];\n"
              "      want = ((uint)*(global const uint*)(in + (i - sgl + (sgl + 1) % sgs) % 64 * " +
              std::to_string(kInBlock) + " + " + std::to_string((c % 4) * 8) + ")) + 1;\n";
    } else if (fn == "sub_group_broadcast") {
      body += "      const uint id = (sgs - 1) / 2;\n      got = sub_group_broadcast(x, id);\n     "
              " want = " +
              at("id") + ";\n";
    } else if (fn == "sub_group_non_uniform_broadcast" || fn == "sub_group_broadcast_first") {
      body += std::string("      got = ") +
              (fn == "sub_group_broadcast_first" ? "sub_group_broadcast_first(x)"
                                                 : "sub_group_non_uniform_broadcast(x, 0)") +
              ";\n      want = " + at("0") + ";\n";
    } else if (fn == "sub_group_shuffle") {
      body += "      const uint id = (sgl * 5 + 3) % sgs;\n      got = sub_group_shuffle(x, id);\n "
              "     want = " +
              at("id") + ";\n";
    } else if (fn == "sub_group_shuffle_xor") {
      body += "      got = sub_group_shuffle_xor(x, 3);\n      want = " + at("(sgl ^ 3)") + ";\n";
    } else if (fn == "sub_group_shuffle_up") {
      body += "      got = sub_group_shuffle_up(x, 2);\n      want = sgl >= 2 ? " +
              at("(sgl - 2)") + " : got;\n";
    } else if (fn == "sub_group_shuffle_down") {
      body += "      got = sub_group_shuffle_down(x, 3);\n      want = sgl + 3 < sgs ? " +
              at("(sgl + 3)") + " : got;\n";
    } else if (fn == "sub_group_rotate") {
      body +=
          "      got = sub_group_rotate(x, 5);\n      want = " + at("((sgl + 5) % sgs)") + ";\n";
    } else if (fn == "sub_group_clustered_rotate") {
      body += "      got = sub_group_clustered_rotate(x, 3, 4);\n      want = " +
              at("(sgl - sgl % 4 + (sgl % 4 + 3) % 4)") + ";\n";
    } else if (fn == "sub_group_elect") {
      body += "      got = sub_group_elect();\n      want = sgl == 0;\n";
    } else if (fn == "sub_group_all" || fn == "sub_group_any" ||
               fn == "sub_group_non_uniform_all" || fn == "sub_group_non_uniform_any" ||
               fn == "sub_group_non_uniform_all_equal") {
      const bool all_fn = fn.find("_all") != std::string::npos;
      body += "      got = " + fn + "(x);\n      want = " + (all_fn ? "1" : "0") +
              ";\n"
              "      for (uint k = 0; k < sgs; ++k) if (" +
              cond + ") want = want " + (all_fn ? "&&" : "||") + " (" +
              (fn == "sub_group_non_uniform_all_equal" ? at("k") + " == " + at("0")
                                                       : at("k") + " != 0") +
              ");\n";
    } else if (fn == "sub_group_ballot") {
      body += "      got = sub_group_ballot(x);\n"
              "      for (uint k = 0; k < sgs; ++k) if (" +
              at("k") + ") " + kSetBit + "\n";
    } else if (fn.find("ballot") != std::string::npos) { // on a uniform mask
      const std::string bit =
          "((k < 32 ? v.x : k < 64 ? v.y : k < 96 ? v.z : v.w) >> (k % 32) & 1)";
      // Count and find consider the bits up to the largest sub-group's size, also in a partial
      // one (as the CTS's subgroup_functions_ballot counts them).
      body += "      const uint4 v = (uint4)(0x9abcdef0u, 0x12345678u, 0x0f0f0f0fu, 0xf0f0f0f0u);\n"
              "      const uint bits = get_max_sub_group_size();\n";
      if (fn == "sub_group_inverse_ballot")
        body +=
            "      got = sub_group_inverse_ballot(v);\n      { const uint k = sgl; want = " + bit +
            "; }\n";
      else if (fn == "sub_group_ballot_bit_extract")
        body += "      got = sub_group_ballot_bit_extract(v, sgl);\n      { const uint k = sgl; "
                "want = " +
                bit + "; }\n";
      else if (fn == "sub_group_ballot_bit_count")
        body += "      got = sub_group_ballot_bit_count(v);\n      for (uint k = 0; k < bits; ++k) "
                "want += " +
                bit + ";\n";
      else if (fn == "sub_group_ballot_inclusive_scan")
        body += "      got = sub_group_ballot_inclusive_scan(v);\n      for (uint k = 0; k <= sgl; "
                "++k) want += " +
                bit + ";\n";
      else if (fn == "sub_group_ballot_exclusive_scan")
        body += "      got = sub_group_ballot_exclusive_scan(v);\n      for (uint k = 0; k < sgl; "
                "++k) want += " +
                bit + ";\n";
      else if (fn == "sub_group_ballot_find_lsb")
        body += "      got = sub_group_ballot_find_lsb(v);\n      want = ~0u;\n      for (uint k = "
                "bits; k-- > 0;) if (" +
                bit + ") want = k;\n";
      else
        body += "      got = sub_group_ballot_find_msb(v);\n      want = ~0u;\n      for (uint k = "
                "0; k < bits; ++k) if (" +
                bit + ") want = k;\n";
    } else if (fn.find("clustered_reduce") != std::string::npos) {
      body += "      got = " + fn + "(x, 4);\n" +
              fold(op, "sgl - sgl % 4", "sgl - sgl % 4 + 4", "true", identity(op, T));
    } else if (fn.find("reduce") != std::string::npos) {
      body += "      got = " + fn + "(x);\n" + fold(op, "0", "sgs", cond, identity(op, T));
    } else if (fn.find("scan_inclusive") != std::string::npos) {
      body += "      got = " + fn + "(x);\n" + fold(op, "0", "sgl + 1", cond, identity(op, T));
    } else if (fn.find("scan_exclusive") != std::string::npos) {
      body += "      got = " + fn + "(x);\n" + fold(op, "0", "sgl", cond, identity(op, T));
    } else {
      std::fprintf(stderr, "sub-groups: no reference for %s\n", b->signature.c_str());
      body += "      got = (" + R + ")1;\n"; // fails the test: want stays 0
    }
    if (non_uniform || fn == "sub_group_elect" || fn == "sub_group_broadcast_first")
      s << "    if (active) {\n" << body << "    }\n";
    else
      s << "    {\n" << body << "    }\n";
    s << "    " << store(RS, rwidth, "got", k.at(c)) << "\n"
      << "    " << store(RS, rwidth, "want", k.at(c) + " + " + std::to_string(kSubGroupCase / 2))
      << "\n"
      << "    barrier(CLK_LOCAL_MEM_FENCE);\n  }\n";
    k.body += s.str();
  }
  for (auto& [name, k] : kernels) p.kernels.push_back(k);
  out.push_back(p);
}
} // namespace

int main(int argc, char** argv) {
  const bool dump = argc == 3 && std::string(argv[2]) == "--dump";
  if (argc != 2 && !dump) {
    std::fprintf(stderr, "usage: %s <output directory> [--dump]\n", argv[0]);
    return 2;
  }
  const auto declared = amcl_device_builtins();
  if (!declared.ok) {
    std::fprintf(stderr, "%s", declared.log.c_str());
    return 1;
  }
  if (dump) {
    for (const DeclaredBuiltin& b : declared.functions) std::printf("%s\n", b.signature.c_str());
    return 0;
  }
  // The families by their functions' names.
  static const std::set<std::string> kWorkItem = {
      "get_work_dim",      "get_global_size",         "get_global_id",      "get_local_size",
      "get_local_id",      "get_enqueued_local_size", "get_num_groups",     "get_group_id",
      "get_global_offset", "get_global_linear_id",    "get_local_linear_id"};
  static const std::set<std::string> kAsync = {
      "async_work_group_copy", "async_work_group_strided_copy", "wait_group_events", "prefetch"};
  static const std::set<std::string> kSync = {"barrier", "work_group_barrier", "mem_fence",
                                              "read_mem_fence", "write_mem_fence"};
  auto starts = [](const std::string& s, const char* p) { return s.rfind(p, 0) == 0; };
  const std::vector<std::pair<std::string, std::function<bool(const std::string&)>>> kFamilies = {
      {"conversions", [&](const std::string& n) { return starts(n, "convert_"); }},
      {"vector_memory",
       [&](const std::string& n) { return starts(n, "vload") || starts(n, "vstore"); }},
      {"work_items", [&](const std::string& n) { return kWorkItem.count(n) > 0; }},
      {"async_copies", [&](const std::string& n) { return kAsync.count(n) > 0; }},
      {"synchronisation", [&](const std::string& n) { return kSync.count(n) > 0; }},
      {"atomics", [&](const std::string& n) { return starts(n, "atomic_") || starts(n, "atom_"); }},
      {"sub_groups",
       [&](const std::string& n) { return n.find("sub_group") != std::string::npos; }},
  };
  std::map<std::string, Overloads> family;
  for (const DeclaredBuiltin& b : declared.functions)
    for (const auto& [name, member] : kFamilies)
      if (member(b.name)) family[name].push_back(&b);
  std::vector<Program> programs;
  conversions(family["conversions"], programs);
  reinterpretations(programs);
  vector_memory(family["vector_memory"], programs);
  work_items(family["work_items"], programs);
  async_copies(family["async_copies"], programs);
  synchronisation(family["synchronisation"], programs);
  atomics(family["atomics"], programs);
  sub_groups(family["sub_groups"], programs);
  // Every declared overload of a family is called somewhere.
  std::set<std::string> called;
  size_t kernels = 0, cases = 0;
  for (const Program& p : programs)
    for (const Kernel& k : p.kernels) {
      called.insert(k.overloads.begin(), k.overloads.end());
      ++kernels, cases += k.cases.size();
    }
  int status = 0;
  for (const auto& [name, overloads] : family) {
    size_t n = 0;
    for (const DeclaredBuiltin* b : overloads)
      if (!called.count(b->signature)) {
        std::fprintf(stderr, "%s: no kernel calls %s\n", name.c_str(), b->signature.c_str());
        status = 1;
      } else {
        ++n;
      }
    std::printf("%s: %zu overloads\n", name.c_str(), n);
  }
  const std::filesystem::path dir = argv[1];
  std::filesystem::create_directories(dir);
  for (const Program& p : programs)
    if (!p.kernels.empty()) write(dir, p);
  std::printf("%zu kernels, %zu cases written to %s\n", kernels, cases, dir.c_str());
  return status;
}
