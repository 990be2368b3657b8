// The LDS (DS) and FLAT/GLOBAL atomics, the d16 loads and stores, and the 16-bit integer
// min3/max3/med3, on gfx1100 and gfx1201, in wave32 and wave64: programs are assembled with
// llvm-mc-22 from the text below and run on a flat fake memory. Every lane operates on its own
// element with operands drawn at random but salted with the edge cases (0, -1, INT_MIN,
// INT_MAX, the inc/dec bound and wrap-around, compare-swap hits and misses, -0/+0 and NaN for
// the float forms); the expected memory and returned old values are computed here from the ISA
// manuals' descriptions of each operation, independently of the emulator's tables. A last test
// has the work-groups of a dispatch, spread over host threads, hammer one address each with
// add, inc and max, and checks totals and the returned values.
#include "am/hw/sh_regs.h"
#include "tests/sim/flat_memory.h"
#include "tests/sim/shader_runner.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#ifdef AMCL_LLVM_MC
namespace {

using namespace sim::shader;

constexpr uint64_t kCode = 0x10000, kArgs = 0x1f000, kIn = 0x20000, kOut = 0x24000,
                   kScratch = 0x2c000;
using Memory = sim::test::FlatMemory<0x10000, 0x20000>;

// Input block (s[4:5]): the LDS image, each lane's DATA0 and DATA1 (8 bytes per lane) and
// the 16-bit min/max operands. Output block (s[6:7]): the LDS image after, or the global
// atomics' target elements, and each lane's returned VDST (16 bytes per lane).
constexpr uint32_t kImage = 0, kData0 = 2048, kData1 = 2560, kRet = 3072;
constexpr unsigned kLanes = 64;

struct Target {
  Gfx gfx;
  bool wave64;
  const char* cpu() const { return gfx == Gfx::v11 ? "gfx1100" : "gfx1201"; }
  std::string name() const { return std::string(cpu()) + (wave64 ? " wave64" : " wave32"); }
  // Waits for loads and for LDS, the work-group barrier, and an atomic's return bit.
  std::string wait_vm() const {
    return gfx == Gfx::v11 ? "s_waitcnt vmcnt(0)" : "s_wait_loadcnt 0";
  }
  std::string wait_lds() const {
    return gfx == Gfx::v11 ? "s_waitcnt lgkmcnt(0)" : "s_wait_dscnt 0";
  }
  std::string wait_sm() const {
    return gfx == Gfx::v11 ? "s_waitcnt lgkmcnt(0)" : "s_wait_kmcnt 0";
  }
  std::string barrier() const {
    return gfx == Gfx::v11 ? "s_barrier" : "s_barrier_signal -1\ns_barrier_wait -1";
  }
  std::string glc() const { return gfx == Gfx::v11 ? " glc" : " th:TH_ATOMIC_RETURN"; }
};

// Assembles `text` with llvm-mc-22 for the target; the words of every instruction in order.
std::vector<uint32_t> assemble(const Target& t, const std::string& text, std::string& error) {
  char path[] = "/tmp/amcl-atomics-XXXXXX";
  const int fd = mkstemp(path);
  if (write(fd, text.data(), text.size()) != ssize_t(text.size()))
    error = "cannot write " + std::string(path);
  close(fd);
  const std::string cmd =
      std::string(AMCL_LLVM_MC) + " -triple=amdgcn-amd-amdhsa -mcpu=" + t.cpu() +
      (t.wave64 ? " -mattr=+wavefrontsize64" : "") + " -show-encoding " + path + " 2>&1";
  std::vector<uint8_t> bytes;
  if (FILE* p = popen(cmd.c_str(), "r")) {
    char line[1024];
    while (fgets(line, sizeof line, p)) {
      const std::string s(line);
      if (s.find("error") != std::string::npos) error += s;
      const size_t at = s.find("encoding: [");
      if (at == std::string::npos) continue;
      for (size_t i = at + 11; i < s.size() && s[i] != ']';) {
        bytes.push_back(uint8_t(std::strtoul(s.c_str() + i, nullptr, 16)));
        i = s.find_first_of(",]", i);
        if (s[i] == ',') ++i;
      }
    }
    pclose(p);
  }
  unlink(path);
  std::vector<uint32_t> words(bytes.size() / 4);
  std::memcpy(words.data(), bytes.data(), words.size() * 4);
  return words;
}

// Runs `body` (the per-test instructions) between a prologue that loads the argument block
// (s[4:5] inputs, s[6:7] outputs) and sets v1 = lane * 8, and s_endpgm. One work-group of 64
// work-items: two waves in wave32, one in wave64. Two KiB of LDS.
// With `scratch`, each wave has a 4 KiB private slot.
DispatchResult run(const Target& t, Memory& mem, const std::string& body, unsigned groups = 1,
                   bool scratch = false) {
  const std::string text = "s_load_b128 s[4:7], s[0:1], 0x0\n" + t.wait_sm() +
                           "\nv_lshlrev_b32 v1, 3, v0\n" + body + "\ns_endpgm\n";
  std::string error;
  const std::vector<uint32_t> words = assemble(t, text, error);
  EXPECT_TRUE(error.empty()) << error << "\n" << text;
  sim::test::put_words(mem, kCode, words);
  mem.put<uint64_t>(kArgs, kIn);
  mem.put<uint64_t>(kArgs + 8, kOut);
  LaunchState L = sim::test::one_group(kCode, kArgs, kLanes, !t.wave64, t.gfx);
  L.rsrc2 |= 1u << 7 | 4u << 15; // group id x, 4 x 512 bytes of LDS
  L.grid_groups[0] = groups;
  if (scratch) {
    L.rsrc2 |= 1; // SCRATCH_EN
    L.scratch_base = kScratch;
    L.tmpring_size = am::hw::sh::tmpring_size(4, 4096, t.gfx == Gfx::v12);
  }
  return sim::test::dispatch(L, mem);
}

// ---------------------------------------------------------------- reference semantics

// What an atomic leaves in memory, from the RDNA3/RDNA4 ISA manuals' descriptions. `kind` is
// the mnemonic without its prefix, _rtn_ and type ("add", "min_num", "cmpstore", ...), `type`
// its last part ("u32", "i64", "f32", "b64", ...).
uint64_t reference(const std::string& kind, const std::string& type, uint64_t old, uint64_t d0,
                   uint64_t d1) {
  const bool wide = type.ends_with("64");
  const uint64_t mask = wide ? ~0ull : 0xffffffffull;
  old &= mask, d0 &= mask, d1 &= mask;
  auto sx = [&](uint64_t v) { return wide ? int64_t(v) : int64_t(int32_t(uint32_t(v))); };
  auto fl = [&](uint64_t v) {
    if (wide) {
      double d;
      std::memcpy(&d, &v, 8);
      return d;
    }
    float f;
    const uint32_t u = uint32_t(v);
    std::memcpy(&f, &u, 4);
    return double(f);
  };
  auto bits = [&](double d) {
    if (wide) {
      uint64_t v;
      std::memcpy(&v, &d, 8);
      return v;
    }
    const float f = float(d);
    uint32_t u;
    std::memcpy(&u, &f, 4);
    return uint64_t(u);
  };
  const bool is_float = type[0] == 'f', is_signed = type[0] == 'i';
  if (kind == "add" && is_float) return bits(fl(old) + fl(d0));
  if (kind == "add") return (old + d0) & mask;
  if (kind == "sub") return (old - d0) & mask;
  if (kind == "rsub") return (d0 - old) & mask;
  if (kind == "inc") return old >= d0 ? 0 : old + 1;             // wraps to 0 at the bound
  if (kind == "dec") return old == 0 || old > d0 ? d0 : old - 1; // back to the bound below 0
  if (kind == "and") return old & d0;
  if (kind == "or") return old | d0;
  if (kind == "xor") return old ^ d0;
  if (kind == "mskor") return (old & ~d0) | d1;
  if (kind == "storexchg" || kind == "swap") return d0;
  if (kind == "wrap") return old >= d0 ? old - d0 : (old + d1) & mask;
  if ((kind == "cmpstore" || kind == "cmpswap") && is_float) return fl(old) == fl(d1) ? d0 : old;
  if (kind == "cmpstore" || kind == "cmpswap") return old == d1 ? d0 : old;
  if (kind == "min" || kind == "max" || kind == "min_num" || kind == "max_num") {
    const bool min = kind[1] == 'i';
    if (is_float) {
      const double x = fl(old), y = fl(d0); // a NaN operand gives the other one
      if (std::isnan(x)) return d0;
      if (std::isnan(y)) return old;
      return (min ? y < x : y > x) ? d0 : old;
    }
    if (is_signed) return (min ? sx(d0) < sx(old) : sx(d0) > sx(old)) ? d0 : old;
    return (min ? d0 < old : d0 > old) ? d0 : old;
  }
  ADD_FAILURE() << "no reference for " << kind << "_" << type;
  return old;
}

// Splits "ds_min_num_rtn_f32" into kind "min_num", type "f32", returns true.
void parse(const std::string& mnemonic, std::string& kind, std::string& type, bool& rtn) {
  std::string m = mnemonic;
  for (const char* prefix : {"ds_", "global_atomic_", "flat_atomic_"})
    if (m.starts_with(prefix)) m = m.substr(std::strlen(prefix));
  rtn = m.find("rtn_") != std::string::npos;
  if (rtn) m.erase(m.find("rtn_"), 4);
  type = m.substr(m.rfind('_') + 1);
  kind = m.substr(0, m.rfind('_'));
}

// Per-lane operands: random, with lanes salted with the edge cases. `bound`-style operations
// (inc/dec/wrap) get small bounds so wrap-around happens; compare forms hit on every third lane.
struct Operands {
  std::vector<uint64_t> old, d0, d1;
};
Operands operands(const std::string& kind, const std::string& type, uint32_t seed) {
  std::mt19937_64 rng(seed);
  const bool wide = type.ends_with("64"), is_float = type[0] == 'f';
  const uint64_t mask = wide ? ~0ull : 0xffffffffull;
  const uint64_t int_min = wide ? 0x8000000000000000ull : 0x80000000ull;
  auto flt = [&](double d) {
    uint64_t v;
    if (wide)
      std::memcpy(&v, &d, 8);
    else {
      const float f = float(d);
      uint32_t u;
      std::memcpy(&u, &f, 4);
      v = u;
    }
    return v;
  };
  const uint64_t nan = wide ? 0x7ff8000000000000ull : 0x7fc00000ull;
  const uint64_t neg0 = wide ? 0x8000000000000000ull : 0x80000000ull;
  Operands o;
  std::uniform_real_distribution<double> real(-1000.0, 1000.0);
  for (unsigned l = 0; l < kLanes; ++l) {
    uint64_t old = rng() & mask, a = rng() & mask, b = rng() & mask;
    if (is_float) old = flt(real(rng)), a = flt(real(rng)), b = flt(real(rng));
    if (!is_float) switch (l % 8) {
      case 0:
        old = 0, a = 0;
        break;
      case 1:
        old = mask, a = mask;
        break;
      case 2:
        old = int_min, a = int_min - 1;
        break; // INT_MIN against INT_MAX
      case 3:
        old = int_min - 1, a = int_min;
        break;
      case 4:
        a = old;
        break; // inc: at the bound; dec: old == bound
      case 5:
        if (!is_float) a = old - 1;
        break; // inc/dec: old past the bound
      default:
        break;
      }
    if ((kind == "inc" || kind == "dec" || kind == "wrap") && l % 8 >= 6) { // small bounds
      a = rng() % 8;
      old = rng() % 10;
    }
    if (is_float && l % 8 == 0 && (kind.starts_with("cmp") || kind == "add"))
      old = 0, a = neg0, b = neg0;          // -0 == +0 compares equal
    if (is_float && l % 16 == 6) old = nan; // min/max: the other operand
    if (is_float && l % 16 == 7) a = nan;
    if (is_float && l % 16 == 14) old = nan, b = nan; // NaN never compares equal
    if (!is_float && l % 8 == 0 && kind != "inc" && kind != "dec") old = 0, a = mask;
    if (kind.starts_with("cmp") && l % 3 == 0 && !(is_float && l % 16 == 14)) b = old; // a hit
    o.old.push_back(old & mask);
    o.d0.push_back(a & mask);
    o.d1.push_back(b & mask);
  }
  return o;
}

// VGPR operand text: v<n> or v[n:m].
std::string reg(unsigned first, unsigned dwords) {
  if (dwords == 1) return "v" + std::to_string(first);
  return "v[" + std::to_string(first) + ":" + std::to_string(first + dwords - 1) + "]";
}

// Loads each lane's DATA0 into v4 (v[4:5]) and DATA1 into v5 (v[6:7]); VDST v[8:11] is
// filled with a sentinel so that a form without return can be seen not to write it.
std::string load_data(const Target& t, bool wide) {
  std::string s;
  if (wide)
    s += "global_load_b64 v[4:5], v1, s[4:5] offset:" + std::to_string(kData0) +
         "\nglobal_load_b64 v[6:7], v1, s[4:5] offset:" + std::to_string(kData1) + "\n";
  else
    s += "global_load_b32 v4, v1, s[4:5] offset:" + std::to_string(kData0) +
         "\nglobal_load_b32 v5, v1, s[4:5] offset:" + std::to_string(kData1) + "\n";
  for (unsigned r = 8; r < 12; ++r) s += "v_mov_b32 v" + std::to_string(r) + ", 0x5e471e1\n";
  return s + t.wait_vm() + "\n";
}

constexpr uint32_t kSentinel = 0x5e471e1;

void put_operands(Memory& mem, const Operands& o) {
  for (unsigned l = 0; l < kLanes; ++l) {
    mem.put<uint64_t>(kIn + kData0 + 8 * l, o.d0[l]);
    mem.put<uint64_t>(kIn + kData1 + 8 * l, o.d1[l]);
  }
}

// ---------------------------------------------------------------- LDS

// Copies the 2 KiB LDS image in (each lane 32 bytes), runs `op`, copies it out.
std::string lds_program(const Target& t, const std::string& setup, const std::string& op) {
  const std::string image = "v_lshlrev_b32 v12, 5, v0\n"
                            "global_load_b128 v[4:7], v12, s[4:5]\n"
                            "global_load_b128 v[8:11], v12, s[4:5] offset:16\n" +
                            t.wait_vm() +
                            "\n"
                            "ds_store_b128 v12, v[4:7]\n"
                            "ds_store_b128 v12, v[8:11] offset:16\n" +
                            t.wait_lds() + "\n" + t.barrier() + "\n";
  const std::string back = t.wait_lds() + "\n" + t.barrier() +
                           "\n"
                           "ds_load_b128 v[4:7], v12\n"
                           "ds_load_b128 v[8:11], v12 offset:16\n" +
                           t.wait_lds() +
                           "\n"
                           "global_store_b128 v12, v[4:7], s[6:7]\n"
                           "global_store_b128 v12, v[8:11], s[6:7] offset:16\n";
  return image + setup + op + "\n" + back;
}

const char* const kDsAtomics[] = {
    "ds_add_u32",
    "ds_sub_u32",
    "ds_rsub_u32",
    "ds_inc_u32",
    "ds_dec_u32",
    "ds_min_i32",
    "ds_max_i32",
    "ds_min_u32",
    "ds_max_u32",
    "ds_and_b32",
    "ds_or_b32",
    "ds_xor_b32",
    "ds_mskor_b32",
    "ds_cmpstore_b32",
    "ds_add_f32",
    "ds_add_rtn_u32",
    "ds_sub_rtn_u32",
    "ds_rsub_rtn_u32",
    "ds_inc_rtn_u32",
    "ds_dec_rtn_u32",
    "ds_min_rtn_i32",
    "ds_max_rtn_i32",
    "ds_min_rtn_u32",
    "ds_max_rtn_u32",
    "ds_and_rtn_b32",
    "ds_or_rtn_b32",
    "ds_xor_rtn_b32",
    "ds_mskor_rtn_b32",
    "ds_storexchg_rtn_b32",
    "ds_cmpstore_rtn_b32",
    "ds_add_rtn_f32",
    "ds_add_u64",
    "ds_sub_u64",
    "ds_rsub_u64",
    "ds_inc_u64",
    "ds_dec_u64",
    "ds_min_i64",
    "ds_max_i64",
    "ds_min_u64",
    "ds_max_u64",
    "ds_and_b64",
    "ds_or_b64",
    "ds_xor_b64",
    "ds_mskor_b64",
    "ds_cmpstore_b64",
    "ds_add_rtn_u64",
    "ds_sub_rtn_u64",
    "ds_rsub_rtn_u64",
    "ds_inc_rtn_u64",
    "ds_dec_rtn_u64",
    "ds_min_rtn_i64",
    "ds_max_rtn_i64",
    "ds_min_rtn_u64",
    "ds_max_rtn_u64",
    "ds_and_rtn_b64",
    "ds_or_rtn_b64",
    "ds_xor_rtn_b64",
    "ds_mskor_rtn_b64",
    "ds_storexchg_rtn_b64",
    "ds_cmpstore_rtn_b64",
};
// The float min/max took IEEE 754-2019's names on gfx12; the float compare-stores and
// ds_wrap_rtn_b32 are gfx11 only.
const char* const kDsFloatMinMax11[] = {"ds_min_f32",     "ds_max_f32",    "ds_min_rtn_f32",
                                        "ds_max_rtn_f32", "ds_min_f64",    "ds_max_f64",
                                        "ds_min_rtn_f64", "ds_max_rtn_f64"};
const char* const kDsFloatMinMax12[] = {
    "ds_min_num_f32", "ds_max_num_f32", "ds_min_num_rtn_f32", "ds_max_num_rtn_f32",
    "ds_min_num_f64", "ds_max_num_f64", "ds_min_num_rtn_f64", "ds_max_num_rtn_f64"};
const char* const kDsGfx11Only[] = {"ds_cmpstore_f32", "ds_cmpstore_rtn_f32", "ds_cmpstore_f64",
                                    "ds_cmpstore_rtn_f64", "ds_wrap_rtn_b32"};

class AtomicExecution : public testing::TestWithParam<Target> {};

// Every DS atomic: lane l's element at LDS byte 8 * l.
TEST_P(AtomicExecution, EveryLdsAtomic) {
  const Target t = GetParam();
  std::vector<std::string> ops(std::begin(kDsAtomics), std::end(kDsAtomics));
  for (const char* m : t.gfx == Gfx::v11 ? kDsFloatMinMax11 : kDsFloatMinMax12) ops.push_back(m);
  if (t.gfx == Gfx::v11) ops.insert(ops.end(), std::begin(kDsGfx11Only), std::end(kDsGfx11Only));
  uint32_t seed = 1;
  for (const std::string& m : ops) {
    SCOPED_TRACE(t.name() + " " + m);
    std::string kind, type;
    bool rtn;
    parse(m, kind, type, rtn);
    const bool wide = type.ends_with("64");
    const unsigned n = wide ? 2 : 1;
    const bool two = kind == "mskor" || kind == "cmpstore" || kind == "wrap";
    const Operands o = operands(kind, type, seed++);
    Memory mem;
    put_operands(mem, o);
    for (unsigned l = 0; l < kLanes; ++l) mem.put<uint64_t>(kIn + kImage + 8 * l, o.old[l]);
    std::string op = m + " " + (rtn ? reg(8, n) + ", " : "") + "v1, " + reg(4, n);
    if (two) op += ", " + reg(wide ? 6 : 5, n);
    op += "\n" + t.wait_lds() +
          "\nglobal_store_b64 v1, v[8:9], s[6:7] offset:" + std::to_string(kRet) + "\n";
    const DispatchResult r = run(t, mem, lds_program(t, load_data(t, wide), op));
    ASSERT_TRUE(r.ok) << r.fault;
    for (unsigned l = 0; l < kLanes; ++l) {
      const uint64_t mask = wide ? ~0ull : 0xffffffffull;
      const uint64_t want = reference(kind, type, o.old[l], o.d0[l], o.d1[l]);
      EXPECT_EQ(mem.get<uint64_t>(kOut + kImage + 8 * l) & mask, want)
          << "lane " << l << " old " << o.old[l] << " data " << o.d0[l] << ", " << o.d1[l];
      if (!wide) // the other half of the 8-byte slot is untouched
        EXPECT_EQ(mem.get<uint32_t>(kOut + kImage + 8 * l + 4), uint32_t(o.old[l] >> 32)) << l;
    }
    for (unsigned l = 0; l < kLanes; ++l) {
      const uint64_t got = mem.get<uint64_t>(kOut + kRet + 8 * l);
      const uint64_t old = wide ? o.old[l] : (o.old[l] & 0xffffffffu);
      if (!rtn)
        EXPECT_EQ(uint32_t(got), kSentinel) << "lane " << l << " wrote VDST";
      else if (wide)
        EXPECT_EQ(got, old) << "lane " << l;
      else
        EXPECT_EQ(uint32_t(got), uint32_t(old)) << "lane " << l;
    }
  }
}

// The exchanges at two addresses: lane l's elements at ADDR + offset0/1 elements (times 64 for
// stride64), both old values returned, first element first.
TEST_P(AtomicExecution, LdsExchangesAtTwoAddresses) {
  const Target t = GetParam();
  struct Case {
    const char* m;
    unsigned bytes, lane_stride, offset0, offset1, unit;
  };
  const Case cases[] = {
      {"ds_storexchg_2addr_rtn_b32", 4, 8, 0, 1, 4},
      {"ds_storexchg_2addr_stride64_rtn_b32", 4, 4, 1, 2, 256},
      {"ds_storexchg_2addr_rtn_b64", 8, 16, 0, 1, 8},
      {"ds_storexchg_2addr_stride64_rtn_b64", 8, 8, 1, 2, 512},
  };
  std::mt19937_64 rng(7);
  for (const Case& c : cases) {
    SCOPED_TRACE(t.name() + " " + c.m);
    Memory mem;
    std::vector<uint8_t> image(2048);
    for (auto& b : image) b = uint8_t(rng());
    for (unsigned i = 0; i < 2048; ++i) mem.put<uint8_t>(kIn + kImage + i, image[i]);
    Operands o{{}, {}, {}};
    for (unsigned l = 0; l < kLanes; ++l) o.d0.push_back(rng()), o.d1.push_back(rng());
    put_operands(mem, o);
    const bool wide = c.bytes == 8;
    const unsigned n = wide ? 2 : 1;
    const std::string addr = "v_mul_u32_u24 v3, " + std::to_string(c.lane_stride) + ", v0\n";
    std::string op =
        std::string(c.m) + " " + reg(8, 2 * n) + ", v3, " + reg(4, n) + ", " + reg(wide ? 6 : 5, n);
    if (c.offset0) op += " offset0:" + std::to_string(c.offset0);
    op += " offset1:" + std::to_string(c.offset1);
    op += "\nv_lshlrev_b32 v3, 4, v0\n" + t.wait_lds() +
          "\nglobal_store_b128 v3, v[8:11], s[6:7] offset:" + std::to_string(kRet) + "\n";
    const DispatchResult r = run(t, mem, lds_program(t, load_data(t, wide) + addr, op));
    ASSERT_TRUE(r.ok) << r.fault;
    std::vector<uint8_t> want = image;
    for (unsigned l = 0; l < kLanes; ++l) {
      const uint32_t a0 = c.lane_stride * l + c.unit * c.offset0,
                     a1 = c.lane_stride * l + c.unit * c.offset1;
      uint64_t old0 = 0, old1 = 0;
      std::memcpy(&old0, &want[a0], c.bytes);
      std::memcpy(&want[a0], &o.d0[l], c.bytes);
      std::memcpy(&old1, &want[a1], c.bytes);
      std::memcpy(&want[a1], &o.d1[l], c.bytes);
      const uint64_t ret_at = kOut + kRet + 16 * l;
      if (wide) {
        EXPECT_EQ(mem.get<uint64_t>(ret_at), old0) << "lane " << l;
        EXPECT_EQ(mem.get<uint64_t>(ret_at + 8), old1) << "lane " << l;
      } else {
        EXPECT_EQ(mem.get<uint32_t>(ret_at), uint32_t(old0)) << "lane " << l;
        EXPECT_EQ(mem.get<uint32_t>(ret_at + 4), uint32_t(old1)) << "lane " << l;
        EXPECT_EQ(mem.get<uint32_t>(ret_at + 8), kSentinel) << "lane " << l;
      }
    }
    for (unsigned i = 0; i < 2048; ++i)
      ASSERT_EQ(mem.get<uint8_t>(kOut + kImage + i), want[i]) << "LDS byte " << i;
  }
}

// ds_condxchg32_rtn_b64: each dword is replaced by its data dword, bit 31 cleared, when that
// bit is set; both old dwords come back.
TEST_P(AtomicExecution, LdsConditionalExchange) {
  const Target t = GetParam();
  std::mt19937_64 rng(11);
  Memory mem;
  Operands o = operands("swap", "b64", 3);
  for (unsigned l = 0; l < kLanes; ++l) {
    o.d0[l] = rng();
    if (l % 4 == 1) o.d0[l] &= ~(1ull << 31);
    if (l % 4 == 2) o.d0[l] &= ~(1ull << 63);
    mem.put<uint64_t>(kIn + kImage + 8 * l, o.old[l]);
  }
  put_operands(mem, o);
  const std::string op = "ds_condxchg32_rtn_b64 v[8:9], v1, v[4:5]\n" + t.wait_lds() +
                         "\nglobal_store_b64 v1, v[8:9], s[6:7] offset:" + std::to_string(kRet) +
                         "\n";
  const DispatchResult r = run(t, mem, lds_program(t, load_data(t, true), op));
  ASSERT_TRUE(r.ok) << r.fault;
  for (unsigned l = 0; l < kLanes; ++l) {
    uint64_t want = o.old[l];
    for (unsigned i = 0; i < 2; ++i) {
      const uint32_t x = uint32_t(o.d0[l] >> (32 * i));
      if (x >> 31)
        want = (want & ~(0xffffffffull << (32 * i))) | (uint64_t(x & 0x7fffffffu) << (32 * i));
    }
    EXPECT_EQ(mem.get<uint64_t>(kOut + kImage + 8 * l), want) << "lane " << l;
    EXPECT_EQ(mem.get<uint64_t>(kOut + kRet + 8 * l), o.old[l]) << "lane " << l;
  }
}

// The DS accesses of one half of a VGPR: loads into the low or high half (the other kept),
// bytes zero- or sign-extended to 16 bits; stores of bits [23:16] / [31:16].
TEST_P(AtomicExecution, LdsHalfRegisterLoadsAndStores) {
  const Target t = GetParam();
  struct Case {
    const char* m;
    unsigned bytes;
    bool is_signed, hi;
  };
  const Case loads[] = {
      {"ds_load_u8_d16", 1, false, false},  {"ds_load_u8_d16_hi", 1, false, true},
      {"ds_load_i8_d16", 1, true, false},   {"ds_load_i8_d16_hi", 1, true, true},
      {"ds_load_u16_d16", 2, false, false}, {"ds_load_u16_d16_hi", 2, false, true}};
  std::mt19937 rng(5);
  for (const Case& c : loads) {
    SCOPED_TRACE(t.name() + " " + c.m);
    Memory mem;
    std::vector<uint8_t> image(2048);
    for (auto& b : image) b = uint8_t(rng());
    image[8 * 2] = 0xff, image[8 * 3 + 1] = 0x80, image[8 * 5 + 1] = 0x7f; // sign edges
    for (unsigned i = 0; i < 2048; ++i) mem.put<uint8_t>(kIn + kImage + i, image[i]);
    // Lane l loads from byte 8 * l + (l & 1) * bytes: odd addresses for bytes.
    const std::string op =
        "v_and_b32 v3, 1, v0\nv_mul_u32_u24 v3, " + std::to_string(c.bytes) +
        ", v3\nv_add_nc_u32 v3, v1, v3\nv_mov_b32 v8, 0x12345678\n" + c.m + " v8, v3\n" +
        t.wait_lds() + "\nglobal_store_b32 v1, v8, s[6:7] offset:" + std::to_string(kRet) + "\n";
    const DispatchResult r = run(t, mem, lds_program(t, "", op));
    ASSERT_TRUE(r.ok) << r.fault;
    for (unsigned l = 0; l < kLanes; ++l) {
      const unsigned a = 8 * l + (l & 1) * c.bytes;
      uint16_t v = c.bytes == 2 ? uint16_t(image[a] | image[a + 1] << 8) : image[a];
      if (c.is_signed) v = uint16_t(int16_t(int8_t(image[a])));
      const uint32_t want = c.hi ? (0x5678u | uint32_t(v) << 16) : (0x12340000u | v);
      EXPECT_EQ(mem.get<uint32_t>(kOut + kRet + 8 * l), want) << "lane " << l;
    }
  }
  for (const char* m : {"ds_store_b8_d16_hi", "ds_store_b16_d16_hi"}) {
    SCOPED_TRACE(t.name() + " " + m);
    const unsigned bytes = std::string(m).find("b8") != std::string::npos ? 1 : 2;
    Memory mem;
    for (unsigned i = 0; i < 2048; ++i) mem.put<uint8_t>(kIn + kImage + i, uint8_t(i));
    const std::string op = "v_mul_lo_u32 v3, 0x1010101, v0\nv_xor_b32 v3, 0xa5c3f00f, v3\n" +
                           std::string(m) + " v1, v3 offset:2\n";
    const DispatchResult r = run(t, mem, lds_program(t, "", op));
    ASSERT_TRUE(r.ok) << r.fault;
    for (unsigned l = 0; l < kLanes; ++l) {
      const uint32_t x = (0x1010101u * l) ^ 0xa5c3f00fu;
      EXPECT_EQ(mem.get<uint8_t>(kOut + kImage + 8 * l + 1), uint8_t(8 * l + 1)) << l;
      EXPECT_EQ(mem.get<uint8_t>(kOut + kImage + 8 * l + 2), uint8_t(x >> 16)) << l;
      EXPECT_EQ(mem.get<uint8_t>(kOut + kImage + 8 * l + 3),
                bytes == 2 ? uint8_t(x >> 24) : uint8_t(8 * l + 3))
          << l;
    }
  }
}

// ---------------------------------------------------------------- FLAT / GLOBAL

const char* const kGlobalAtomics[] = {
    "swap_b32", "cmpswap_b32", "add_u32", "sub_u32", "min_i32", "min_u32", "max_i32",
    "max_u32",  "and_b32",     "or_b32",  "xor_b32", "inc_u32", "dec_u32", "add_f32",
    "swap_b64", "cmpswap_b64", "add_u64", "sub_u64", "min_i64", "min_u64", "max_i64",
    "max_u64",  "and_b64",     "or_b64",  "xor_b64", "inc_u64", "dec_u64",
};

// Every FLAT/GLOBAL atomic, with and without return, in the global segment (SGPR base + lane
// offset) and the flat one (a 64-bit VGPR address): lane l's element at out + 8 * l.
TEST_P(AtomicExecution, EveryGlobalAndFlatAtomic) {
  const Target t = GetParam();
  std::vector<std::string> ops(std::begin(kGlobalAtomics), std::end(kGlobalAtomics));
  if (t.gfx == Gfx::v11)
    ops.insert(ops.end(), {"cmpswap_f32", "min_f32", "max_f32"});
  else
    ops.insert(ops.end(), {"min_num_f32", "max_num_f32"});
  uint32_t seed = 100;
  for (const std::string& base : ops)
    for (const char* segment : {"global_atomic_", "flat_atomic_"})
      for (bool rtn : {true, false}) {
        const std::string m = segment + base;
        SCOPED_TRACE(t.name() + " " + m + (rtn ? " returning" : ""));
        std::string kind, type;
        bool unused;
        parse(m, kind, type, unused);
        const bool wide = type.ends_with("64");
        const unsigned n = wide ? 2 : 1;
        const Operands o = operands(kind, type, seed++);
        Memory mem;
        put_operands(mem, o);
        for (unsigned l = 0; l < kLanes; ++l) mem.put<uint64_t>(kOut + 8 * l, o.old[l]);
        const unsigned data = kind == "cmpswap" ? 2 * n : n;
        std::string body = load_data(t, wide);
        const std::string dst = rtn ? reg(8, n) + ", " : "";
        const std::string vcc = t.wave64 ? "vcc" : "vcc_lo";
        if (std::string(segment) == "flat_atomic_")
          body += "v_add_co_u32 v2, " + vcc + ", s6, v1\nv_add_co_ci_u32 v3, " + vcc + ", s7, 0, " +
                  vcc + "\n" + m + " " + dst + "v[2:3], " + reg(4, data);
        else
          body += m + " " + dst + "v1, " + reg(4, data) + ", s[6:7]";
        body += (rtn ? t.glc() : "") + "\n" + t.wait_vm() +
                "\nglobal_store_b64 v1, v[8:9], s[6:7] offset:" + std::to_string(kRet) + "\n";
        const DispatchResult r = run(t, mem, body);
        ASSERT_TRUE(r.ok) << r.fault;
        const uint64_t mask = wide ? ~0ull : 0xffffffffull;
        for (unsigned l = 0; l < kLanes; ++l) {
          EXPECT_EQ(mem.get<uint64_t>(kOut + 8 * l) & mask,
                    reference(kind, type, o.old[l], o.d0[l], o.d1[l]))
              << "lane " << l << " old " << o.old[l] << " data " << o.d0[l] << ", " << o.d1[l];
          const uint64_t got = mem.get<uint64_t>(kOut + kRet + 8 * l);
          if (!rtn)
            EXPECT_EQ(uint32_t(got), kSentinel) << "lane " << l << " wrote VDST";
          else
            EXPECT_EQ(got & mask, o.old[l] & mask) << "lane " << l;
        }
      }
}

// The d16 loads of all three segments: into the low or high half of the VGPR, the other half
// kept (the CTS's astype test runs global_load_d16_hi_b16).
TEST_P(AtomicExecution, HalfRegisterLoadsOfEverySegment) {
  const Target t = GetParam();
  struct Case {
    const char* m;
    unsigned bytes;
    bool is_signed, hi;
  };
  const Case cases[] = {{"load_d16_u8", 1, false, false},  {"load_d16_i8", 1, true, false},
                        {"load_d16_b16", 2, false, false}, {"load_d16_hi_u8", 1, false, true},
                        {"load_d16_hi_i8", 1, true, true}, {"load_d16_hi_b16", 2, false, true}};
  std::mt19937 rng(9);
  for (const Case& c : cases)
    for (const char* segment : {"global_", "flat_", "scratch_"}) {
      SCOPED_TRACE(t.name() + " " + segment + c.m);
      Memory mem;
      std::vector<uint8_t> bytes(1024);
      for (auto& b : bytes) b = uint8_t(rng());
      bytes[8 * 2 + 1] = 0x80, bytes[8 * 3] = 0xff;
      for (unsigned i = 0; i < bytes.size(); ++i) mem.put<uint8_t>(kIn + i, bytes[i]);
      // Lane l reads byte 8 * l + (l & 1) (the d16 bytes), 8 * l for shorts.
      std::string body = "v_and_b32 v3, 1, v0\nv_add_nc_u32 v2, v1, v3\n";
      if (c.bytes == 2) body = "v_mov_b32 v2, v1\n";
      body += "v_mov_b32 v8, 0x12345678\n";
      const std::string name = segment + std::string(c.m);
      if (std::string(segment) == "global_") {
        body += name + " v8, v2, s[4:5]\n";
      } else if (std::string(segment) == "flat_") {
        const std::string vcc = t.wave64 ? "vcc" : "vcc_lo";
        body += "v_add_co_u32 v2, " + vcc + ", s4, v2\nv_add_co_ci_u32 v3, " + vcc + ", s5, 0, " +
                vcc + "\n" + name + " v8, v[2:3]\n";
      } else {
        // Through private memory: lane l's dwords 0, 1 at private offsets 0, 4 hold its 8
        // bytes (stored with scratch_store_b64), then the d16 load reads them back.
        body += "global_load_b64 v[4:5], v1, s[4:5]\n" + t.wait_vm() +
                "\nv_mov_b32 v6, 0\nscratch_store_b64 v6, v[4:5], off\n";
        body += c.bytes == 2 ? name + " v8, v6, off\n"
                             : "v_and_b32 v3, 1, v0\n" + name + " v8, v3, off\n";
      }
      body += t.wait_vm() + "\nglobal_store_b32 v1, v8, s[6:7]\n";
      const DispatchResult r = run(t, mem, body, 1, true);
      ASSERT_TRUE(r.ok) << r.fault;
      for (unsigned l = 0; l < kLanes; ++l) {
        const unsigned a = 8 * l + (c.bytes == 1 ? (l & 1) : 0);
        uint16_t v = c.bytes == 2 ? uint16_t(bytes[a] | bytes[a + 1] << 8) : bytes[a];
        if (c.is_signed) v = uint16_t(int16_t(int8_t(bytes[a])));
        const uint32_t want = c.hi ? (0x5678u | uint32_t(v) << 16) : (0x12340000u | v);
        EXPECT_EQ(mem.get<uint32_t>(kOut + 8 * l), want) << "lane " << l;
      }
    }
}

// v_min3/max3/med3 on signed and unsigned shorts (clamp() on char and short): lane l's three
// operands, with the edge values, in the low halves; results in the low and, with op_sel, the
// high half.
TEST_P(AtomicExecution, SixteenBitMinMaxMedian) {
  const Target t = GetParam();
  std::mt19937 rng(13);
  const uint16_t edges[] = {0, 0xffff, 0x8000, 0x7fff, 1, 0xfffe};
  for (const char* m :
       {"v_min3_i16", "v_max3_i16", "v_med3_i16", "v_min3_u16", "v_max3_u16", "v_med3_u16"}) {
    SCOPED_TRACE(t.name() + " " + m);
    Memory mem;
    std::vector<uint16_t> x(kLanes), y(kLanes), z(kLanes);
    for (unsigned l = 0; l < kLanes; ++l) {
      x[l] = uint16_t(rng()), y[l] = uint16_t(rng()), z[l] = uint16_t(rng());
      if (l < 36) x[l] = edges[l % 6], y[l] = edges[(l / 6) % 6];
      mem.put<uint32_t>(kIn + kData0 + 8 * l, x[l] | uint32_t(y[l]) << 16);
      mem.put<uint32_t>(kIn + kData1 + 8 * l, z[l] | 0xabcd0000u);
    }
    const bool t16 = t.gfx == Gfx::v11; // true16 register halves on gfx11
    const std::string lo = t16 ? ".l" : "", hi = t16 ? ".h" : "";
    std::string body = load_data(t, false);
    body += "v_mov_b32 v9, v4\nv_mov_b32 v10, v5\n";
    body += std::string(m) + " v8" + lo + ", v4" + lo + ", v4" + hi + ", v5" + lo +
            " op_sel:[0,1,0,0]\n";
    body += std::string(m) + " v10" + hi + ", v9" + lo + ", v9" + hi + ", v10" + lo +
            " op_sel:[0,1,0,1]\n";
    body += "global_store_b64 v1, v[8:9], s[6:7]\nglobal_store_b32 v1, v10, s[6:7] offset:" +
            std::to_string(kRet) + "\n";
    const DispatchResult r = run(t, mem, body);
    ASSERT_TRUE(r.ok) << r.fault;
    const std::string name = m;
    for (unsigned l = 0; l < kLanes; ++l) {
      const bool sgn = name.ends_with("i16");
      auto key = [&](uint16_t v) { return sgn ? int32_t(int16_t(v)) : int32_t(v); };
      std::vector<uint16_t> s = {x[l], y[l], z[l]};
      std::sort(s.begin(), s.end(), [&](uint16_t a, uint16_t b) { return key(a) < key(b); });
      const uint16_t want = name.starts_with("v_min3")   ? s[0]
                            : name.starts_with("v_max3") ? s[2]
                                                         : s[1];
      EXPECT_EQ(mem.get<uint32_t>(kOut + 8 * l), kSentinel & 0xffff0000u | want)
          << "lane " << l << ": " << x[l] << ", " << y[l] << ", " << z[l];
      EXPECT_EQ(mem.get<uint32_t>(kOut + kRet + 8 * l), uint32_t(want) << 16 | z[l])
          << "lane " << l;
    }
  }
}

// Work-groups on several host threads, every lane on one address: global add (32 and 64 bit),
// inc with a bound and max, each returning the old value; LDS add and inc per work-group.
TEST_P(AtomicExecution, ContendedAtomicsAreAtomicAcrossWorkGroups) {
  const Target t = GetParam();
  constexpr unsigned kGroups = 32, kItems = kGroups * kLanes, kBound = 999, kLdsBound = 40,
                     kLoop = 1000;
  Memory mem;
  // Targets at out + 0 (add 1), 8 (add_u64 of 2^32 + 1), 16 (inc), 24 (max of the global
  // id); LDS 0 (add 1) and 8 (inc). Each lane's old values go to five arrays indexed by its
  // global id, at out + 0x1000, 0x3000, ... (bases in s[10:11], s[12:13], ...).
  const std::string tgid = t.gfx == Gfx::v11 ? "s2" : "ttmp9";
  std::string body = "s_lshl_b32 s8, " + tgid +
                     ", 6\nv_add_nc_u32 v2, s8, v0\nv_lshlrev_b32 v3, 2, v2\n"
                     "v_mov_b32 v4, 1\nv_mov_b32 v5, 1\nv_mov_b32 v6, 0\nv_mov_b32 v7, " +
                     std::to_string(kBound) + "\nv_mov_b32 v9, " + std::to_string(kLdsBound) + "\n";
  for (unsigned i = 0; i < 5; ++i) {
    const std::string lo = "s" + std::to_string(10 + 2 * i), hi = "s" + std::to_string(11 + 2 * i);
    const std::string off = std::to_string(0x1000 + 0x2000 * i);
    body +=
        t.gfx == Gfx::v11
            ? "s_add_u32 " + lo + ", s6, " + off + "\ns_addc_u32 " + hi + ", s7, 0\n"
            : "s_add_nc_u64 s[" + lo.substr(1) + ":" + hi.substr(1) + "], s[6:7], " + off + "\n";
  }
  body += "ds_store_b32 v6, v6\nds_store_b32 v6, v6 offset:8\n" + t.wait_lds() + "\n" +
          t.barrier() + "\n";
  body += "global_atomic_add_u32 v8, v6, v4, s[6:7]" + t.glc() + "\n";
  body += "global_atomic_add_u64 v[10:11], v6, v[4:5], s[6:7] offset:8" + t.glc() + "\n";
  body += "global_atomic_inc_u32 v12, v6, v7, s[6:7] offset:16" + t.glc() + "\n";
  body += "global_atomic_max_u32 v6, v2, s[6:7] offset:24\n";
  body += "ds_add_rtn_u32 v13, v6, v4\nds_inc_rtn_u32 v14, v6, v9 offset:8\n";
  // And a loop of adds without return (32 and 64 bit), long enough for the work-groups of
  // different host threads to overlap (the branch back is 7 dwords on gfx11, 9 on gfx12).
  body += "s_movk_i32 s20, " + std::to_string(kLoop) +
          "\nglobal_atomic_add_u32 v6, v4, s[6:7] offset:32\n"
          "global_atomic_add_u64 v6, v[4:5], s[6:7] offset:40\n"
          "s_add_i32 s20, s20, -1\ns_cmp_lg_u32 s20, 0\ns_cbranch_scc1 " +
          std::string(t.gfx == Gfx::v11 ? "-7" : "-9") + "\n";
  body += t.wait_vm() + "\n" + t.wait_lds() + "\n";
  body += "global_store_b32 v3, v8, s[10:11]\nglobal_store_b32 v3, v10, s[12:13]\n"
          "global_store_b32 v3, v12, s[14:15]\nglobal_store_b32 v3, v13, s[16:17]\n"
          "global_store_b32 v3, v14, s[18:19]\n";
  const DispatchResult r = run(t, mem, body, kGroups);
  ASSERT_TRUE(r.ok) << r.fault;
  EXPECT_EQ(mem.get<uint32_t>(kOut), kItems);
  EXPECT_EQ(mem.get<uint64_t>(kOut + 8), uint64_t(kItems) * 0x100000001ull);
  EXPECT_EQ(mem.get<uint32_t>(kOut + 16), kItems % (kBound + 1));
  EXPECT_EQ(mem.get<uint32_t>(kOut + 24), kItems - 1);
  EXPECT_EQ(mem.get<uint32_t>(kOut + 32), kItems * kLoop);
  EXPECT_EQ(mem.get<uint64_t>(kOut + 40), uint64_t(kItems) * kLoop * 0x100000001ull);
  auto olds = [&](unsigned array, unsigned first, unsigned count) {
    std::vector<uint32_t> v;
    for (unsigned i = first; i < first + count; ++i)
      v.push_back(mem.get<uint32_t>(kOut + 0x1000 + 0x2000 * array + 4 * i));
    std::sort(v.begin(), v.end());
    return v;
  };
  auto wrapped = [](unsigned count, unsigned bound) { // 0..bound, 0..bound, ... sorted
    std::vector<uint32_t> v;
    for (unsigned i = 0; i < count; ++i) v.push_back(i % (bound + 1));
    std::sort(v.begin(), v.end());
    return v;
  };
  const std::vector<uint32_t> ids = wrapped(kItems, kItems);
  EXPECT_EQ(olds(0, 0, kItems), ids); // every lane got its own old value
  EXPECT_EQ(olds(1, 0, kItems), ids); // (the low dwords of i * (2^32 + 1))
  EXPECT_EQ(olds(2, 0, kItems), wrapped(kItems, kBound));
  for (unsigned g = 0; g < kGroups; ++g) {
    EXPECT_EQ(olds(3, g * kLanes, kLanes), wrapped(kLanes, kLanes)) << "group " << g;
    EXPECT_EQ(olds(4, g * kLanes, kLanes), wrapped(kLanes, kLdsBound)) << "group " << g;
  }
}

// 64-bit LDS atomics whose lanes share elements, as OpenCL's atomic_long compare-exchange loops
// on __local memory have them (the CTS's c11_atomics): lane l of each 32 stores (j + 1) * K
// where it finds j * K (j = l % 32, K = 2^32 + 1), so every lane succeeds only if the lanes run
// in order; then every lane adds K at a dword-aligned (not 8-aligned) element, and at an
// element past the LDS (reads zero, writes nothing). The general path and the row path agree.
TEST_P(AtomicExecution, WideLdsAtomicsOnSharedElementsRunInLaneOrder) {
  const Target t = GetParam();
  constexpr uint64_t K = 0x100000001ull;
  std::vector<uint64_t> lds_after[2], ret[2][3];
  for (const bool fast : {true, false}) {
    SCOPED_TRACE(t.name() + (fast ? " row path" : " general path"));
    Memory mem;
    for (unsigned l = 0; l < kLanes; ++l) {
      const unsigned j = l % 32;
      mem.put<uint64_t>(kIn + kData0 + 8 * l, (j + 1) * K);
      mem.put<uint64_t>(kIn + kData1 + 8 * l, j * K);
    }
    // v2: 8 * (l / 32), this lane's chain's element; v3: 1024 + 4, dword-aligned; v14: past
    // the 2 KiB of LDS.
    const std::string op =
        "v_lshrrev_b32 v2, 5, v0\nv_lshlrev_b32 v2, 3, v2\n"
        "ds_cmpstore_rtn_b64 v[8:9], v2, v[4:5], v[6:7]\n" +
        t.wait_lds() +
        "\nv_mov_b32 v6, 1\nv_mov_b32 v7, 1\nv_mov_b32 v3, 0x404\n"
        "ds_add_rtn_u64 v[10:11], v3, v[6:7]\n"
        "v_mov_b32 v14, 0xfff8\nds_add_rtn_u64 v[14:15], v14, v[6:7]\n" +
        t.wait_lds() + "\nglobal_store_b64 v1, v[8:9], s[6:7] offset:" + std::to_string(kRet) +
        "\nv_lshlrev_b32 v13, 4, v0\nv_add_nc_u32 v13, 0x1000, v13\n"
        "global_store_b64 v13, v[10:11], s[6:7]\nglobal_store_b64 v13, v[14:15], s[6:7] offset:8\n";
    Executor::fast_paths = fast;
    const DispatchResult r = run(t, mem, lds_program(t, load_data(t, true), op));
    Executor::fast_paths = true;
    ASSERT_TRUE(r.ok) << r.fault;
    for (unsigned l = 0; l < kLanes; ++l) {
      const uint64_t got = mem.get<uint64_t>(kOut + kRet + 8 * l);
      EXPECT_EQ(got, (l % 32) * K) << "lane " << l << " compared out of order";
      ret[fast][0].push_back(got);
      ret[fast][1].push_back(mem.get<uint64_t>(kOut + 0x1000 + 16 * l));
      ret[fast][2].push_back(mem.get<uint64_t>(kOut + 0x1008 + 16 * l));
      EXPECT_EQ(ret[fast][2].back(), 0u) << "lane " << l << " read past the LDS";
    }
    for (unsigned e = 0; e < kLanes / 32; ++e)
      EXPECT_EQ(mem.get<uint64_t>(kOut + kImage + 8 * e), 32 * K) << "element " << e;
    // The adds at byte 1028 (image: lane 32's bytes 4..11): the old values are the element
    // before each lane's add, K apart, and the element ends kLanes * K above where it began.
    std::vector<uint64_t> olds = ret[fast][1];
    std::sort(olds.begin(), olds.end());
    for (unsigned l = 1; l < kLanes; ++l) EXPECT_EQ(olds[l] - olds[l - 1], K) << l;
    EXPECT_EQ(mem.get<uint64_t>(kOut + 0x404), olds[0] + kLanes * K);
    for (uint32_t a = 0; a < 2048; a += 8) lds_after[fast].push_back(mem.get<uint64_t>(kOut + a));
  }
  EXPECT_EQ(lds_after[0], lds_after[1]);
  for (unsigned k = 0; k < 3; ++k) EXPECT_EQ(ret[0][k], ret[1][k]) << k;
}

// Global and flat atomics whose lanes share elements, as OpenCL's atomic_long loops on __global
// memory have them (the CTS's c11_atomics): runs of lanes on one element, an element taken up
// again after others, lone lanes, and lanes off in EXEC. The compare-swaps chain (each lane
// finds what the one before it on its element stored, a few miss on purpose), the other
// operations draw random operands with the edge values; memory and every lane's returned value
// are computed here by applying the lanes in lane order. Inactive lanes keep VDST. Row path and
// general path both; lanes in another order fail (the olds and chains differ).
TEST_P(AtomicExecution, WideGlobalAtomicsOnSharedElementsRunInLaneOrder) {
  const Target t = GetParam();
  // Lane l's element (of 4, at out + 8 * e) and whether it is active.
  auto element = [](unsigned l) -> unsigned {
    if (l < 16) return 0;
    if (l < 20) return 1;
    if (l == 20) return 2;
    if (l < 28) return 0;
    if (l < 32) return 3;
    if (l < 48) return 1;
    return 2 + l % 2;
  };
  auto active = [](unsigned l) { return l % 7 != 3 && l != 16 && l != 33; };
  const char* const ops[] = {"cmpswap_b64", "add_u64", "sub_u64",  "min_i64",     "max_i64",
                             "min_u64",     "max_u64", "swap_b64", "cmpswap_b32", "add_u32"};
  uint32_t seed = 500;
  for (const std::string base : ops)
    for (const char* segment : {"global_atomic_", "flat_atomic_"}) {
      const std::string m = segment + base;
      std::string kind, type;
      bool unused;
      parse(m, kind, type, unused);
      const bool wide = type.ends_with("64");
      const uint64_t mask = wide ? ~0ull : 0xffffffffull;
      const unsigned n = wide ? 2 : 1;
      Operands o = operands(kind, type, seed++);
      uint64_t init[4];
      for (unsigned e = 0; e < 4; ++e) init[e] = o.old[e] ^ (e * 0x0123456789abcdefull & mask);
      if (kind == "cmpswap") { // the chain: each active lane compares with its element's value
        uint64_t cur[4];
        std::copy(init, init + 4, cur);
        for (unsigned l = 0; l < kLanes; ++l) {
          const unsigned e = element(l);
          o.d1[l] = l % 5 == 4 ? ~cur[e] & mask : cur[e]; // every fifth misses
          if (active(l) && l % 5 != 4) cur[e] = o.d0[l];
        }
      }
      // The reference: active lanes one after another, in lane order.
      uint64_t want[4], want_ret[kLanes];
      std::copy(init, init + 4, want);
      for (unsigned l = 0; l < kLanes; ++l) {
        want_ret[l] = uint64_t(kSentinel) | (wide ? uint64_t(kSentinel) << 32 : 0);
        if (!active(l)) continue;
        uint64_t& x = want[element(l)];
        want_ret[l] = x;
        x = reference(kind, type, x, o.d0[l], o.d1[l]);
      }
      std::vector<uint64_t> mem_after[2], ret_after[2];
      for (const bool fast : {true, false}) {
        SCOPED_TRACE(t.name() + " " + m + (fast ? " row path" : " general path"));
        Memory mem;
        put_operands(mem, o);
        for (unsigned l = 0; l < kLanes; ++l) {
          mem.put<uint32_t>(kIn + kImage + 8 * l, 8 * element(l));
          mem.put<uint32_t>(kIn + kImage + 8 * l + 4, active(l));
        }
        for (unsigned e = 0; e < 4; ++e) mem.put<uint64_t>(kOut + 8 * e, init[e]);
        const unsigned data = kind == "cmpswap" ? 2 * n : n;
        const std::string vcc = t.wave64 ? "vcc" : "vcc_lo";
        const std::string exec = t.wave64 ? "exec" : "exec_lo";
        const std::string saved = t.wave64 ? "s[20:21]" : "s20";
        std::string body = "global_load_b64 v[2:3], v1, s[4:5] offset:" + std::to_string(kImage) +
                           "\n" + load_data(t, wide);
        body += std::string(t.wave64 ? "s_mov_b64 " : "s_mov_b32 ") + saved + ", " + exec +
                "\nv_cmpx_ne_u32_e32 0, v3\n";
        if (std::string(segment) == "flat_atomic_")
          body += "v_add_co_u32 v2, " + vcc + ", s6, v2\nv_add_co_ci_u32 v3, " + vcc + ", s7, 0, " +
                  vcc + "\n" + m + " " + reg(8, n) + ", v[2:3], " + reg(4, data);
        else
          body += m + " " + reg(8, n) + ", v2, " + reg(4, data) + ", s[6:7]";
        body += t.glc() + "\n" + t.wait_vm() + "\n" + (t.wave64 ? "s_mov_b64 " : "s_mov_b32 ") +
                exec + ", " + saved +
                "\nglobal_store_b64 v1, v[8:9], s[6:7] offset:" + std::to_string(kRet) + "\n";
        Executor::fast_paths = fast;
        const DispatchResult r = run(t, mem, body);
        Executor::fast_paths = true;
        ASSERT_TRUE(r.ok) << r.fault;
        for (unsigned e = 0; e < 4; ++e) {
          mem_after[fast].push_back(mem.get<uint64_t>(kOut + 8 * e) & mask);
          EXPECT_EQ(mem_after[fast].back(), want[e]) << "element " << e;
        }
        for (unsigned l = 0; l < kLanes; ++l) {
          const uint64_t got = mem.get<uint64_t>(kOut + kRet + 8 * l);
          ret_after[fast].push_back(got);
          EXPECT_EQ(wide ? got : got & mask, want_ret[l])
              << "lane " << l << (active(l) ? "" : " (inactive)") << " on element " << element(l);
        }
      }
      EXPECT_EQ(mem_after[0], mem_after[1]) << m;
      EXPECT_EQ(ret_after[0], ret_after[1]) << m;
    }
}

// A 64-bit global atomic whose lanes reach an unmapped page part way through the wave: the
// fault names the instruction and the address; the row path leaves memory and the registers as
// the general path does (the lanes before the faulting one done, as one at a time).
TEST_P(AtomicExecution, WideGlobalAtomicWithAFaultingLane) {
  const Target t = GetParam();
  constexpr uint64_t K = 0x100000001ull;
  constexpr unsigned kFaulting = 40; // wave32: lane 8 of the second wave
  std::vector<uint64_t> after[2];
  std::string fault[2];
  for (const bool fast : {true, false}) {
    SCOPED_TRACE(t.name() + (fast ? " row path" : " general path"));
    Memory mem;
    for (unsigned l = 0; l < kLanes; ++l) {
      // Lanes below 36 on element 0, 36..39 on element 1, the faulting lane 1 MiB past the
      // memory, the lanes after it on element 2.
      const uint32_t off = l < 36 ? 0 : l < kFaulting ? 8 : l == kFaulting ? 0x100000 : 16;
      mem.put<uint32_t>(kIn + kImage + 8 * l, off);
      mem.put<uint64_t>(kIn + kData0 + 8 * l, K * (l + 1));
    }
    std::string body =
        "global_load_b32 v2, v1, s[4:5] offset:" + std::to_string(kImage) + "\n" +
        load_data(t, true) + "global_atomic_add_u64 v[8:9], v2, v[4:5], s[6:7]" + t.glc() + "\n" +
        t.wait_vm() + "\nglobal_store_b64 v1, v[8:9], s[6:7] offset:" + std::to_string(kRet) + "\n";
    Executor::fast_paths = fast;
    const DispatchResult r = run(t, mem, body);
    Executor::fast_paths = true;
    ASSERT_FALSE(r.ok);
    EXPECT_NE(r.fault.find("global_atomic_add_u64"), std::string::npos) << r.fault;
    EXPECT_EQ(r.fault_address, kOut + 0x100000) << r.fault;
    fault[fast] = r.fault;
    for (unsigned e = 0; e < 3; ++e) after[fast].push_back(mem.get<uint64_t>(kOut + 8 * e));
    for (unsigned l = 0; l < kLanes; ++l)
      after[fast].push_back(mem.get<uint64_t>(kOut + kRet + 8 * l));
    // Element 2's lanes come after the faulting one in its wave: none applied.
    EXPECT_EQ(mem.get<uint64_t>(kOut + 16), 0u);
  }
  EXPECT_EQ(after[0], after[1]);
  EXPECT_EQ(fault[0], fault[1]);
}

// A FLAT atomic's element must be naturally aligned whatever the alignment mode: a dword at
// byte 4 of an 8-byte atomic faults and names the instruction.
TEST_P(AtomicExecution, MisalignedGlobalAtomicFaults) {
  const Target t = GetParam();
  Memory mem;
  const DispatchResult r = run(t, mem,
                               "v_mov_b32 v2, 4\nv_mov_b32 v4, 1\nv_mov_b32 v5, "
                               "0\nglobal_atomic_add_u64 v2, v[4:5], s[6:7]\n");
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.fault.find("misaligned atomic"), std::string::npos) << r.fault;
  EXPECT_NE(r.fault.find("global_atomic_add_u64"), std::string::npos) << r.fault;
}

INSTANTIATE_TEST_SUITE_P(Targets, AtomicExecution,
                         testing::Values(Target{Gfx::v11, false}, Target{Gfx::v11, true},
                                         Target{Gfx::v12, false}, Target{Gfx::v12, true}),
                         [](const auto& info) {
                           return std::string(info.param.gfx == Gfx::v11 ? "gfx1100" : "gfx1201") +
                                  (info.param.wave64 ? "_wave64" : "_wave32");
                         });

} // namespace
#endif
