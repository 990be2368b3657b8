// The builtin families builtin_family_kernel_generator writes kernels for (conversions,
// reinterpretations, vector loads and stores, work-item functions, async copies,
// synchronisation, atomics, sub-groups) run on amcl and on PoCL with the same inputs, through the
// ICD loader in one process: the whole output buffers agree byte for byte (any NaN matching any NaN
// where the outputs are floating-point). Where PoCL cannot be the reference the kernels say so:
// half (PoCL lacks cl_khr_fp16) runs against a twin with half as ushort where the builtin only
// moves bits, and conversions to and from half against the host's exact results; the work-item
// functions (PoCL has no non-uniform work-groups) against the host's values; atomic min/max on
// float and double and the sub-group functions (PoCL lacks them; the sub-group size is the
// device's) against plain code in the same kernel.
#include "builtin_test_platform.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <sstream>

namespace {

// builtin_family_kernel_generator.cpp's layout.
constexpr size_t kInBlock = 1024, kInItems = 64, kConstantBytes = 16 * kInBlock;
constexpr unsigned kTameFloat = 256, kTameDouble = 512, kTameHalf = 768, kTameSigned = 128;
constexpr size_t kWorkItemValues = 36;
constexpr uint8_t kFill = 0x5a;

// Cases amcl gets wrong, by their "// case" text: none today. The test fails when one of them
// is right again: then take it off the list.
const std::set<std::string> kKnownMismatches = {};
// Cases PoCL 3.1 gets wrong, not compared with it: its vstore3 into a private or local ushort
// array (which the half kernels are on PoCL) may write a fourth element, 0xffff where the spec
// writes three.
const std::set<std::string> kPoclWrong = {
    "void vstore3(half3, ulong, __generic half *__private) on private",
    "void vstore3(half3, ulong, __generic half *__private) on local"};

struct Kernel {
  std::string name, check; // "pocl", "self", "workitem"
  amcl_test::NdRange range;
  size_t case_bytes = 0, floats = 0; // floats: bits of the floating-point outputs, if they are
  std::vector<std::string> cases;
  std::set<std::string> overloads;
  size_t items() const { return range.global[0] * range.global[1] * range.global[2]; }
};

// The "// run", "// case" and "// overload" lines of a generated file.
std::vector<Kernel> parse(const std::string& src) {
  std::vector<Kernel> kernels;
  std::map<std::string, size_t> by_name;
  std::istringstream lines(src);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    std::string slashes, what, name;
    words >> slashes >> what >> name;
    if (slashes != "//") continue;
    if (what == "run") {
      Kernel k;
      k.name = name;
      words >> k.check;
      for (std::string w; words >> w;) {
        const size_t eq = w.find('=');
        const std::string key = w.substr(0, eq), value = w.substr(eq + 1);
        size_t v[3] = {0, 0, 0};
        std::sscanf(value.c_str(), "%zu,%zu,%zu", &v[0], &v[1], &v[2]);
        if (key == "dims") k.range.dims = cl_uint(v[0]);
        if (key == "case_bytes") k.case_bytes = v[0];
        if (key == "floats") k.floats = v[0];
        for (int d = 0; d < 3; ++d) {
          if (key == "global") k.range.global[d] = v[d];
          if (key == "local") k.range.local[d] = v[d];
          if (key == "offset") k.range.offset[d] = v[d];
        }
      }
      by_name[name] = kernels.size();
      kernels.push_back(k);
    } else if (what == "case" || what == "overload") {
      std::string rest;
      std::getline(words, rest);
      Kernel& k = kernels.at(by_name.at(name));
      if (what == "overload") {
        k.overloads.insert(rest.substr(1));
      } else {
        const size_t space = rest.find(' ', 1);
        k.cases.push_back(rest.substr(space + 1));
      }
    }
  }
  return kernels;
}

// IEEE binary16 bits of a value that has them exactly (the tame values).
uint16_t half_bits(float v) {
  if (v == 0) return std::signbit(v) ? 0x8000 : 0;
  const uint16_t sign = v < 0 ? 0x8000 : 0;
  int e;
  const float m = std::frexp(std::fabs(v), &e); // [0.5, 1)
  return uint16_t(sign | ((e + 14) << 10) | (uint16_t(std::ldexp(m, 11)) & 0x3ff));
}

// Inputs: raw bits (special byte patterns in the first work-items, then random), then tame
// values of each floating-point type, multiples of 1/4 in [0, 127.75] and [-128, 126.75].
std::vector<uint8_t> inputs(const std::string& kernel) {
  std::vector<uint8_t> in(kInItems * kInBlock);
  std::mt19937 rng(uint32_t(std::hash<std::string>{}(kernel)));
  const uint8_t patterns[] = {0x00, 0xff, 0x80, 0x7f, 0x01};
  for (size_t i = 0; i < kInItems; ++i) {
    uint8_t* block = &in[i * kInBlock];
    for (size_t b = 0; b < kInBlock; ++b)
      block[b] = i < std::size(patterns) ? patterns[i] : uint8_t(rng());
    for (unsigned sign = 0; sign < 2; ++sign) {
      // Up to 126.75 when signed: rounded up, still a char.
      auto tame = [&] {
        return sign ? float(int(rng() % 1020) - 512) / 4 : float(rng() % 512) / 4;
      };
      for (size_t k = 0; k < 32; ++k) {
        const float f = tame();
        std::memcpy(block + kTameFloat + sign * kTameSigned + 4 * k, &f, 4);
      }
      for (size_t k = 0; k < 16; ++k) {
        const double d = tame();
        std::memcpy(block + kTameDouble + sign * kTameSigned + 8 * k, &d, 8);
      }
      for (size_t k = 0; k < 64; ++k) {
        const uint16_t h = half_bits(tame());
        std::memcpy(block + kTameHalf + sign * kTameSigned + 2 * k, &h, 2);
      }
    }
  }
  return in;
}

// What the work-item functions return for every work-item of `range` (OpenCL C 3.0 §6.15.1;
// beyond the dimensions used, the defaults the spec gives), in the generator's order.
std::vector<uint8_t> work_item_values(const amcl_test::NdRange& r, size_t items) {
  std::vector<uint8_t> out(items * kWorkItemValues * 8, kFill);
  size_t g[3];
  for (g[2] = 0; g[2] < r.global[2]; ++g[2])
    for (g[1] = 0; g[1] < r.global[1]; ++g[1])
      for (g[0] = 0; g[0] < r.global[0]; ++g[0]) {
        const size_t at = (g[2] * r.global[1] + g[1]) * r.global[0] + g[0];
        uint64_t v[kWorkItemValues];
        v[0] = r.dims;
        size_t local_size[3], local_id[3];
        for (unsigned d = 0; d < 4; ++d) {
          const bool used = d < r.dims;
          const size_t G = used ? r.global[d] : 1, L = used ? r.local[d] : 1,
                       O = used ? r.offset[d] : 0, id = d < 3 ? g[d] : 0;
          const size_t group = id / L, groups = (G + L - 1) / L;
          const size_t size = group == groups - 1 && G % L ? G % L : L;
          if (d < 3) local_size[d] = size, local_id[d] = id % L;
          uint64_t* f = &v[1 + 8 * d];
          f[0] = G, f[1] = id + O, f[2] = size, f[3] = L, f[4] = id % L, f[5] = groups,
          f[6] = group, f[7] = O;
        }
        v[33] = at;
        v[34] = (local_id[2] * local_size[1] + local_id[1]) * local_size[0] + local_id[0];
        v[35] = 1;
        std::memcpy(&out[at * kWorkItemValues * 8], v, sizeof v);
      }
  return out;
}

// ---- Conversions to and from half, which PoCL lacks: computed exactly on the host ----

struct Scalar {
  char kind = 0; // 'i', 'u', 'f'
  unsigned bits = 0;
};
Scalar scalar(const std::string& name) {
  static const std::map<std::string, Scalar> kScalars = {
      {"char", {'i', 8}},  {"uchar", {'u', 8}},  {"short", {'i', 16}}, {"ushort", {'u', 16}},
      {"int", {'i', 32}},  {"uint", {'u', 32}},  {"long", {'i', 64}},  {"ulong", {'u', 64}},
      {"half", {'f', 16}}, {"float", {'f', 32}}, {"double", {'f', 64}}};
  return kScalars.at(name);
}

// A number read exactly: (-1)^negative * m * 2^e, or a NaN or an infinity.
struct Exact {
  bool negative = false, nan = false, inf = false;
  uint64_t m = 0;
  int e = 0;
};
Exact read_exact(const uint8_t* p, Scalar t) {
  uint64_t v = 0;
  std::memcpy(&v, p, t.bits / 8);
  Exact x;
  if (t.kind != 'f') {
    const bool neg = t.kind == 'i' && (v >> (t.bits - 1)) & 1;
    if (neg && t.bits < 64) v |= ~uint64_t(0) << t.bits; // sign-extend
    x.negative = neg;
    x.m = neg ? uint64_t(0) - v : v;
    return x;
  }
  const unsigned mant = t.bits == 16 ? 10 : t.bits == 32 ? 23 : 52, exp_bits = t.bits - 1 - mant;
  const int bias = (1 << (exp_bits - 1)) - 1;
  const uint64_t field = (v >> mant) & ((uint64_t(1) << exp_bits) - 1),
                 frac = v & ((uint64_t(1) << mant) - 1);
  x.negative = (v >> (t.bits - 1)) & 1;
  if (field == (uint64_t(1) << exp_bits) - 1) {
    x.nan = frac != 0, x.inf = frac == 0;
    return x;
  }
  x.m = field ? frac | uint64_t(1) << mant : frac;
  x.e = (field ? int(field) : 1) - bias - int(mant);
  return x;
}

// m * 2^e rounded to an integer by `mode` ("rte", "rtz", "rtp", "rtn"), as a magnitude that
// saturates at 2^64 (flagged in `big`).
uint64_t round_integer(const Exact& x, const std::string& mode, bool& big) {
  big = false;
  if (x.e >= 0) {
    if (x.e > 0 && x.m && (x.e >= 64 || x.m >> (64 - x.e))) big = true;
    return big ? ~uint64_t(0) : x.m << x.e;
  }
  const int shift = -x.e;
  const unsigned __int128 m = x.m;
  const uint64_t q = shift >= 64 ? 0 : uint64_t(m >> shift);
  const unsigned __int128 rest = shift >= 64 ? m : m & ((unsigned __int128)1 << shift) - 1;
  const unsigned __int128 half =
      shift > 100 ? ~(unsigned __int128)0 : (unsigned __int128)1 << (shift - 1);
  bool up = false;
  if (mode == "rte") up = rest > half || (rest == half && (q & 1));
  if (mode == "rtp") up = rest && !x.negative;
  if (mode == "rtn") up = rest && x.negative;
  if (up && q == ~uint64_t(0)) big = true;
  return q + up;
}

// x rounded to binary16 by `mode`.
uint16_t round_half(const Exact& x, const std::string& mode) {
  const uint16_t sign = x.negative ? 0x8000 : 0;
  if (x.nan) return 0x7e00;
  if (x.inf) return sign | 0x7c00;
  if (x.m == 0) return sign;
  const bool up_inf =
      mode == "rte" || (mode == "rtp" && !x.negative) || (mode == "rtn" && x.negative);
  const uint16_t overflow = sign | (up_inf ? 0x7c00 : 0x7bff);
  int p = 63;
  while (!((x.m >> p) & 1)) --p;
  const int E = p + x.e; // the value is in [2^E, 2^(E+1))
  if (E > 15) return overflow;
  Exact scaled = x; // x / quantum, quantum 2^(E-10) for a normal, 2^-24 for a denormal
  scaled.e = x.e - (E >= -14 ? E - 10 : -24);
  bool big;
  const uint64_t q = round_integer(scaled, mode, big);
  const uint64_t h = E >= -14 ? (uint64_t(E + 14) << 10) + q : q;
  return h >= 0x7c00 ? overflow : uint16_t(sign | h);
}

// The expected output of a conversion case (its "// case" text is the overload's signature).
void expected_conversion(const std::string& signature, const std::vector<uint8_t>& in, size_t items,
                         size_t case_bytes, uint8_t* out) {
  const size_t space = signature.find(' '), open = signature.find('('),
               close = signature.rfind(')');
  const std::string dst_name = signature.substr(0, space),
                    fn = signature.substr(space + 1, open - space - 1),
                    src_name = signature.substr(open + 1, close - open - 1);
  auto split = [](const std::string& name, unsigned& width) {
    size_t d = name.size();
    while (d > 0 && std::isdigit(static_cast<unsigned char>(name[d - 1]))) --d;
    width = d == name.size() ? 1 : unsigned(std::stoul(name.substr(d)));
    return name.substr(0, d);
  };
  unsigned width;
  const std::string dst_scalar = split(dst_name, width), src_scalar = split(src_name, width);
  const Scalar dst = scalar(dst_scalar), src = scalar(src_scalar);
  const bool sat = fn.find("_sat") != std::string::npos;
  std::string mode = dst.kind == 'f' ? "rte" : "rtz";
  for (const char* m : {"rte", "rtz", "rtp", "rtn"})
    if (fn.find(std::string("_") + m) != std::string::npos) mode = m;
  size_t from = 0; // the generator's choice of input: tame values for a float to an integer
  if (src.kind == 'f' && dst.kind != 'f' && !sat)
    from = (src.bits == 32   ? kTameFloat
            : src.bits == 64 ? kTameDouble
                             : kTameHalf) +
           (dst.kind == 'u' ? 0 : kTameSigned);
  for (size_t i = 0; i < items; ++i)
    for (unsigned c = 0; c < width; ++c) {
      const Exact x = read_exact(&in[i * kInBlock + from + c * src.bits / 8], src);
      uint8_t* o = out + i * case_bytes + c * dst.bits / 8;
      uint64_t v = 0;
      if (dst.kind == 'f' && dst.bits == 16) {
        v = round_half(x, mode);
      } else if (dst.kind == 'f') { // from half: exact
        const double d = x.nan ? NAN : x.inf ? INFINITY : std::ldexp(double(x.m), x.e);
        const double s = x.negative ? -d : d;
        if (dst.bits == 32) {
          const float f = float(s);
          std::memcpy(&v, &f, 4);
        } else {
          std::memcpy(&v, &s, 8);
        }
      } else { // from half to an integer type
        bool big;
        const uint64_t mag = x.nan || x.inf ? 0 : round_integer(x, mode, big);
        const __int128 value = x.negative ? -(__int128)mag : (__int128)mag;
        const __int128 lo = dst.kind == 'u' ? 0 : -((__int128)1 << (dst.bits - 1)),
                       hi = dst.kind == 'u' ? ((__int128)1 << dst.bits) - 1
                                            : ((__int128)1 << (dst.bits - 1)) - 1;
        __int128 r = value;
        if (sat) r = x.nan ? 0 : x.inf ? (x.negative ? lo : hi) : std::clamp(value, lo, hi);
        v = uint64_t(r);
      }
      std::memcpy(o, &v, dst.bits / 8);
    }
}

std::string hex(const uint8_t* p, size_t n) {
  std::string s;
  char buf[4];
  for (size_t i = 0; i < n; ++i) std::snprintf(buf, sizeof buf, "%02x", p[i]), s += buf;
  return s;
}

bool is_nan(const uint8_t* p, size_t bits) {
  uint64_t v = 0;
  std::memcpy(&v, p, bits / 8);
  const unsigned mant = bits == 16 ? 10 : bits == 32 ? 23 : 52;
  const uint64_t exp_mask = ((uint64_t(1) << (bits - 1 - mant)) - 1) << mant;
  return (v & exp_mask) == exp_mask && (v & ((uint64_t(1) << mant) - 1)) != 0;
}

// Whether two outputs agree: the same bytes, or NaN where the other has a NaN when the outputs
// are floating-point values.
bool agree(const uint8_t* a, const uint8_t* b, size_t n, size_t floats) {
  if (std::memcmp(a, b, n) == 0) return true;
  if (!floats) return false;
  const size_t step = floats / 8;
  for (size_t at = 0; at + step <= n; at += step)
    if (std::memcmp(a + at, b + at, step) != 0 &&
        !(is_nan(a + at, floats) && is_nan(b + at, floats)))
      return false;
  return true;
}

// The cases whose slots differ between `ours` and `ref` (self: between each slot's halves),
// each with its first differing work-item.
std::vector<std::pair<size_t, std::string>>
differences(const Kernel& k, const std::vector<uint8_t>& ours, const std::vector<uint8_t>* ref) {
  std::vector<std::pair<size_t, std::string>> out;
  const size_t items = k.items(), n = ref ? k.case_bytes : k.case_bytes / 2;
  for (size_t c = 0; c * items * k.case_bytes < ours.size(); ++c)
    for (size_t i = 0; i < items; ++i) {
      const size_t at = (c * items + i) * k.case_bytes;
      const uint8_t* want = ref ? &(*ref)[at] : &ours[at + n];
      if (agree(&ours[at], want, n, k.floats)) continue;
      const std::string what = c < k.cases.size() ? k.cases[c] : "case " + std::to_string(c);
      out.emplace_back(c, what + ", work-item " + std::to_string(i) + ": amcl " +
                              hex(&ours[at], std::min<size_t>(n, 64)) +
                              (!ref                ? " plain code "
                               : k.check == "pocl" ? " PoCL "
                                                   : " host ") +
                              hex(want, std::min<size_t>(n, 64)));
      break;
    }
  return out;
}

std::string read(const std::filesystem::path& path) {
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

} // namespace

TEST(BuiltinFamilyDifferential, AmclAgreesWithPoclOnEveryOverload) {
  amcl_test::BuiltinPlatform amcl("amcl"), pocl("Portable Computing Language");
  ASSERT_TRUE(amcl.device) << "amcl platform missing";
  if (!pocl.device) GTEST_SKIP() << "PoCL (pocl-opencl-icd) is not installed";
  // AMCL_FAMILY_KERNELS_DIR in the environment runs another directory (a subset, by hand).
  const char* dir = std::getenv("AMCL_FAMILY_KERNELS_DIR");
  if (!dir) dir = AMCL_FAMILY_KERNELS_DIR;
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    if (entry.path().extension() == ".cl") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  ASSERT_FALSE(files.empty()) << "no generated kernels in " << dir;
  size_t compared = 0, amcl_only = 0, known = 0;
  std::vector<std::string> failures;
  for (const auto& path : files) {
    const auto started = std::chrono::steady_clock::now();
    const std::string src = read(path), file = path.filename().string();
    std::filesystem::path twin = path;
    twin.replace_extension(".ref");
    const std::string ref_src = std::filesystem::exists(twin) ? read(twin) : src;
    const std::vector<Kernel> kernels = parse(src);
    std::string log;
    cl_program pa = amcl.build(src, log);
    if (!pa) {
      failures.push_back(file + ": amcl cannot build it: " + log.substr(0, 2000));
      continue;
    }
    cl_program pp = nullptr;
    const bool needs_pocl = std::any_of(kernels.begin(), kernels.end(),
                                        [](const Kernel& k) { return k.check == "pocl"; });
    if (needs_pocl && !(pp = pocl.build(ref_src, log)))
      std::printf("families: %s has no reference (PoCL cannot build it: %s)\n", file.c_str(),
                  log.substr(0, log.find('\n')).c_str());
    std::set<std::string> file_overloads, file_compared;
    size_t cases = 0;
    for (const Kernel& k : kernels) {
      file_overloads.insert(k.overloads.begin(), k.overloads.end());
      cases += k.cases.size();
      const std::vector<uint8_t> in = inputs(k.name);
      std::vector<uint8_t> ours(k.cases.size() * k.items() * k.case_bytes, kFill), ref = ours;
      if (std::string err = amcl.run(pa, k.name, k.range, in, ours, kConstantBytes); !err.empty()) {
        failures.push_back(file + ": " + k.name + ": amcl " + err);
        continue;
      }
      std::vector<std::pair<size_t, std::string>> wrong;
      if (k.check == "self") {
        wrong = differences(k, ours, nullptr);
      } else if (k.check == "workitem") {
        ref = work_item_values(k.range, k.items());
        wrong = differences(k, ours, &ref);
      } else if (k.check == "convert") {
        for (size_t c = 0; c < k.cases.size(); ++c)
          expected_conversion(k.cases[c], in, k.items(), k.case_bytes,
                              &ref[c * k.items() * k.case_bytes]);
        wrong = differences(k, ours, &ref);
      } else if (!pp) {
        amcl_only += k.overloads.size();
        continue;
      } else if (std::string err = pocl.run(pp, k.name, k.range, in, ref, kConstantBytes);
                 !err.empty()) {
        failures.push_back(file + ": " + k.name + ": PoCL " + err);
        continue;
      } else {
        wrong = differences(k, ours, &ref);
      }
      file_compared.insert(k.overloads.begin(), k.overloads.end());
      std::set<size_t> wrong_cases;
      for (const auto& [c, what] : wrong) {
        if (k.check == "pocl" && kPoclWrong.count(k.cases.at(c))) {
          std::printf("families: PoCL is wrong: %s\n", what.c_str());
          continue;
        }
        wrong_cases.insert(c);
        if (kKnownMismatches.count(k.cases.at(c)))
          ++known, std::printf("families: known mismatch: %s\n", what.c_str());
        else
          failures.push_back(file + ": " + what);
      }
      for (size_t c = 0; c < k.cases.size(); ++c)
        if (kKnownMismatches.count(k.cases[c]) && !wrong_cases.count(c))
          failures.push_back(k.cases[c] + " is right now: take it off kKnownMismatches");
    }
    compared += file_compared.size();
    clReleaseProgram(pa);
    if (pp) clReleaseProgram(pp);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    std::printf("families: %s: %zu overloads in %zu kernels (%zu cases), %zu compared, %.1f s\n",
                file.c_str(), file_overloads.size(), kernels.size(), cases, file_compared.size(),
                seconds);
  }
  std::string all;
  for (size_t i = 0; i < failures.size(); ++i) {
    std::printf("families: failure: %s\n", failures[i].c_str());
    if (i < 100) all += "  " + failures[i] + "\n";
  }
  std::printf("families: %zu files, %zu overloads compared, %zu run on amcl only, %zu known "
              "mismatches, %zu failures\n",
              files.size(), compared, amcl_only, known, failures.size());
  EXPECT_GT(compared, 7000u);
  EXPECT_TRUE(failures.empty()) << all;
}
