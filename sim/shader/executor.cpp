// Semantics of the implemented gfx11 instructions, following the RDNA3 ISA manual's
// pseudocode (chapter "Instructions"). Vector operations honour EXEC; comparisons and carries
// write lane masks with inactive lanes cleared.
#include "executor.h"

#include "am/hw/gc_regs.h"
#include "aperture_ports.h"
#include "atomic_ops.h"
#include "float_ops.h"

#include <algorithm>
#include <atomic>
#include <bit>
#include <type_traits>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

// The per-lane operand readers and result writers of the ALU paths are small lambdas called
// once per lane; GCC would otherwise keep them out of line in the big switch functions.
#define AMCL_INLINE __attribute__((always_inline))

namespace sim::shader {

std::string hex(uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

void instruction_fault(const Wave& w, const Inst& in, const std::string& what) {
  throw ShaderFault(what + " at pc " + hex(w.pc) + " (" + disassemble(in) + ")");
}

namespace {


// S_CLS_I32 / V_CLS_I32 (RDNA3 ISA manual): the position, counted from the most significant
// bit, of the first bit that differs from the sign bit; -1 (all ones) when none does.
template <class T> uint32_t leading_sign_bits(T v) {
  using S = std::make_signed_t<T>;
  const T same = v ^ T(S(v) >> (8 * sizeof(T) - 1)); // bits equal to the sign become 0
  return same ? uint32_t(std::countl_zero(same)) : ~0u;
}

[[noreturn]] void fault(const Wave& w, const Inst& in, const std::string& what) {
  instruction_fault(w, in, what);
}

// Inline float constants (codes 240..248) as f32 and f64 bit patterns.
constexpr float kInlineF32[] = {0.5f, -0.5f, 1.0f, -1.0f, 2.0f, -2.0f, 4.0f, -4.0f,
                                0.15915494f};
constexpr double kInlineF64[] = {0.5, -0.5, 1.0, -1.0, 2.0, -2.0, 4.0, -4.0,
                                 0.15915494309189532};


template <class T> T clamp01(T x) { return x < T(0) ? T(0) : x > T(1) ? T(1) : x; }

// Inline float constants as halves (codes 240..248).
constexpr uint16_t kInlineF16[] = {0x3800, 0xB800, 0x3C00, 0xBC00, 0x4000,
                                   0xC000, 0x4400, 0xC400, 0x3118};

// V_CMP_CLASS mask bits: 0 sNaN, 1 qNaN, 2 -inf, 3 -normal, 4 -denormal, 5 -0, 6 +0,
// 7 +denormal, 8 +normal, 9 +inf.
template <class T> unsigned fp_class(T x, bool signaling) {
  const bool neg = std::signbit(x);
  switch (std::fpclassify(x)) {
  case FP_NAN: return signaling ? 0 : 1;
  case FP_INFINITE: return neg ? 2 : 9;
  case FP_NORMAL: return neg ? 3 : 8;
  case FP_SUBNORMAL: return neg ? 4 : 7;
  default: return neg ? 5 : 6;
  }
}
bool snan32(uint32_t b) { return (b & 0x7f800000) == 0x7f800000 && (b & 0x7fffff) && !(b & 0x400000); }
bool snan64(uint64_t b) {
  return (b & 0x7ff0000000000000ull) == 0x7ff0000000000000ull && (b & 0xfffffffffffffull) &&
         !(b & 0x8000000000000ull);
}
bool snan16(uint16_t b) { return (b & 0x7c00) == 0x7c00 && (b & 0x3ff) && !(b & 0x200); }

int exponent_of(float x) { return std::fpclassify(x) == FP_ZERO ? 0 : int((std::bit_cast<uint32_t>(x) >> 23) & 0xff); }
int exponent_of(double x) { return std::fpclassify(x) == FP_ZERO ? 0 : int((std::bit_cast<uint64_t>(x) >> 52) & 0x7ff); }

// V_DIV_SCALE (AMD ISA pseudocode): scale an operand of a division so that the Newton-Raphson
// steps see no subnormals; VCC says whether the quotient needs post-scaling (V_DIV_FMAS).
// One case departs from the manual's text: when both 1/S1 and S2/S1 are subnormal (a
// denominator near the top of the range and a quotient below the normals), the manual scales
// the denominator up by 2^scale, which overflows it to infinity and would make 1.0 / DBL_MAX
// infinite. The denominator has to go down, as in the plain "1/S1 is subnormal" case below,
// with VCC set so that V_DIV_FMAS scales the (now normal) quotient back down into the
// subnormals in its one rounding: that is the only reading under which LLVM's division
// sequence (SITargetLowering::LowerFDIV64) is correctly rounded there, as OpenCL requires.
template <class T> T div_scale(T s0, T s1, T s2, bool& vcc, int big, int scale, int tiny_exp) {
  vcc = false;
  auto denorm = [](auto v) { return std::fpclassify(v) == FP_SUBNORMAL; };
  if (s2 == T(0) || s1 == T(0)) return std::numeric_limits<T>::quiet_NaN();
  if (exponent_of(s2) - exponent_of(s1) >= big) {
    vcc = true;
    return s0 == s1 ? std::ldexp(s0, scale) : s0;
  }
  if (denorm(s1)) return std::ldexp(s0, scale);
  const bool rcp_denorm = denorm(1.0 / double(s1)); // in double for f32 too, as the manual has it
  if (rcp_denorm && denorm(T(s2 / s1))) {
    vcc = true;
    return s0 == s1 ? std::ldexp(s0, -scale) : s0;
  }
  if (rcp_denorm) return std::ldexp(s0, -scale);
  if (denorm(T(s2 / s1))) {
    vcc = true;
    return s0 == s2 ? std::ldexp(s0, scale) : s0;
  }
  if (exponent_of(s2) <= tiny_exp) return std::ldexp(s0, scale);
  return s0;
}

// A float with at least binary128's 113-bit significand, where the host has one.
#if defined(__SIZEOF_FLOAT128__)
__extension__ typedef __float128 Quad;
#else
typedef long double Quad;
#endif

// V_DIV_FIXUP: special cases of a quotient s0 = s2 / s1. A quotient whose exponent is below
// the smallest subnormal's by more than a rounding can reach is zero (f32: exponent difference
// under -150, f64: under -1075; the f16 form has no such case): V_DIV_SCALE may have pushed a
// huge denominator of a tiny numerator to infinity, leaving s0 meaningless.
template <class T> T div_fixup(T s0, T s1, T s2, int underflow = std::numeric_limits<int>::min()) {
  const bool sign = std::signbit(s1) != std::signbit(s2);
  const T inf = std::numeric_limits<T>::infinity();
  if (std::isnan(s2)) return std::numeric_limits<T>::quiet_NaN();
  if (std::isnan(s1)) return std::numeric_limits<T>::quiet_NaN();
  if (s1 == T(0) && s2 == T(0)) return -std::numeric_limits<T>::quiet_NaN();
  if (std::isinf(s1) && std::isinf(s2)) return -std::numeric_limits<T>::quiet_NaN();
  if (s1 == T(0) || std::isinf(s2)) return sign ? -inf : inf;
  if (std::isinf(s1) || s2 == T(0)) return sign ? -T(0) : T(0);
  if (exponent_of(s2) - exponent_of(s1) < underflow) return sign ? -T(0) : T(0);
  if (std::isnan(s0)) return sign ? -inf : inf; // overflowed quotient
  return sign ? -std::fabs(s0) : std::fabs(s0);
}


// V_FREXP_*: NaN and infinity give 0 exponent and the input itself as mantissa.
int32_t frexp_exp(float x) {
  if (std::isnan(x) || std::isinf(x)) return 0;
  int e;
  std::frexp(x, &e);
  return e;
}
float frexp_mant(float x) {
  if (std::isnan(x) || std::isinf(x)) return x;
  int e;
  return std::frexp(x, &e);
}

// 1/x rounded toward zero: the correctly rounded quotient, stepped back when it rounded away
// from zero (the double quotient is exact enough to tell).
float rcp_toward_zero(float x) {
  const float r = 1.0f / x;
  if (!std::isfinite(r) || r == 0.0f) return r;
  return std::fabs(double(r)) > std::fabs(1.0 / double(x)) ? std::nextafter(r, 0.0f) : r;
}

// DX9 multiply: a zero operand gives +0 even against infinity or NaN.
float fmul_dx9_zero(float a, float b) { return a == 0.0f || b == 0.0f ? 0.0f : a * b; }


// Set bits of a lane mask, inline (std::popcount is a libgcc call on baseline x86-64).
constexpr uint64_t lane_count(uint64_t x) {
  x = x - ((x >> 1) & 0x5555555555555555ull);
  x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
  x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
  return (x * 0x0101010101010101ull) >> 56;
}
static_assert(lane_count(0) == 0 && lane_count(~0ull) == 64 && lane_count(0x8000000100000011ull) == 4);

template <class T> bool compare_i(unsigned code, T a, T b) {
  switch (code & 7) {
  case 0: return false;
  case 1: return a < b;
  case 2: return a == b;
  case 3: return a <= b;
  case 4: return a > b;
  case 5: return a != b;
  case 6: return a >= b;
  default: return true;
  }
}

} // namespace

bool Program::revalidate(MemoryPort& memory) {
  for (const auto& [page, bytes] : pages_) {
    try {
      if (std::memcmp(memory.translate(page, 4096, false, true), bytes.data(), 4096) != 0) return false;
    } catch (const MemoryFault&) {
      return false;
    }
  }
  memory_ = &memory;
  return true;
}

// Keeps the bytes of a code page the program decodes from, for revalidate.
void Program::snapshot_page(uint64_t page_va) {
  if (pages_.count(page_va)) return;
  const uint8_t* p = memory_->translate(page_va, 4096, false, true);
  pages_.emplace(page_va, std::vector<uint8_t>(p, p + 4096));
}

const Inst& Program::decode_at(uint64_t pc) {
  if (pc & 3) throw ShaderFault("misaligned program counter " + hex(pc));
  // An instruction is at most 3 dwords (64-bit encoding + literal); read what is mapped.
  uint32_t words[3] = {};
  size_t n = 0;
  for (; n < 3; ++n) {
    try {
      std::memcpy(&words[n], memory_->translate(pc + 4 * n, 4, false, true), 4);
      snapshot_page((pc + 4 * n) & ~uint64_t(4095));
    } catch (const MemoryFault&) {
      if (n == 0) throw;
      break;
    }
  }
  std::string why;
  auto inst = decode(std::span<const uint32_t>(words, n), gfx_, &why);
  if (!inst) throw ShaderFault(why + " at pc " + hex(pc));
  const uint64_t slot = (pc - base_) / 4;
  if (pc >= base_ && slot < kMaxIndexed) {
    if (slot >= index_.size()) index_.resize(size_t(slot) + 1, nullptr);
    insts_.push_back(*inst);
    index_[slot] = &insts_.back();
    return insts_.back();
  }
  return far_.emplace(pc, *inst).first->second; // code before the entry or far away
}

uint64_t Executor::run(Wave& w, uint64_t& lane_instructions, uint64_t budget) {
  uint64_t count = 0;
  budget_ = budget;
  while (!w.done && !w.at_barrier && count < budget_) {
    const Inst& in = program_.at(w.pc);
    const bool scalar = in.format <= Format::SMEM;
    // A full EXEC skips the count; lane_count avoids libgcc's __popcountdi2 (baseline x86-64
    // has no popcnt instruction), which showed in the profiles of sparse-EXEC loops.
    const uint64_t exec = w.exec_mask();
    lane_instructions += scalar ? 1 : exec == ~0ull >> (64 - w.lanes()) ? w.lanes() : lane_count(exec);
    step(w, in);
    // Checking the abort flag every 64K instructions keeps it off the hot path.
    if ((++count & 0xffff) == 0) {
      if (abort_ && abort_->load(std::memory_order_relaxed))
        throw ShaderFault("dispatch aborted by a queue reset at pc " + hex(w.pc));
      if (stop_ && stop_->load(std::memory_order_relaxed)) {
        w.done = true; // another work-group faulted: the dispatch is over
        break;
      }
    }
  }
  return count;
}

// Inlined into step: an extra call level per vector instruction costs the ALU-bound kernels
// several percent.
AMCL_INLINE inline void Executor::exec_vector(Wave& w, const Inst& in) {
  switch (in.format) {
  case Format::VOPC: case Format::VOP1: case Format::VOP2: case Format::VOP3: case Format::VOP3SD:
    if (in.dpp.kind != DppKind::None) [[unlikely]] exec_dpp(w, in);
    else if (in.format == Format::VOPC) exec_vopc(w, in);
    else exec_valu(w, in);
    return;
  case Format::FLAT: exec_flat(w, in); return;
  case Format::DS: exec_ds(w, in); return;
  case Format::VOPD: exec_vopd(w, in); return;
  case Format::VOP3P:
    if (in.dpp.kind != DppKind::None) [[unlikely]] exec_dpp(w, in);
    else exec_vop3p(w, in);
    return;
  default: fault(w, in, "not a vector instruction");
  }
}

void Executor::step(Wave& w, const Inst& in) {
  const uint64_t next = w.pc + in.size;
  w.pc = next; // branches overwrite it; they are relative to the next instruction
  switch (in.format) {
  case Format::SOP1: case Format::SOP2: case Format::SOPC: case Format::SOPK:
    w.pc -= in.size;
    exec_salu(w, in);
    if (w.pc == next - in.size) w.pc = next;
    return;
  case Format::SOPP: {
    uint64_t here = next - in.size;
    w.pc = here;
    exec_sopp(w, in);
    if (w.pc == here) w.pc = next;
    return;
  }
  case Format::SMEM: w.pc -= in.size; exec_smem(w, in); w.pc = next; return;
  case Format::MUBUF: // gl0/gl1 invalidates: caches are coherent in the model
    if (in.op != Op::buffer_gl0_inv && in.op != Op::buffer_gl1_inv) {
      w.pc -= in.size;
      fault(w, in, "unimplemented buffer instruction");
    }
    return;
  default:
    w.pc -= in.size;
    if (w.wave64) [[unlikely]] exec_wave64(w, in);
    else exec_vector(w, in);
    w.pc = next;
    return;
  }
}

void Executor::exec_wave64(Wave& w, const Inst& in) {
  // The operations on one lane of the whole wave run once, on the half holding that lane.
  auto on_lane = [&](unsigned lane, auto&& f) {
    w.select_half(lane / kWaveSize);
    f(lane % kWaveSize);
    w.select_half(0);
  };
  switch (in.op) {
  case Op::v_readfirstlane_b32: {
    const uint64_t exec = w.exec_mask();
    on_lane(exec ? unsigned(std::countr_zero(exec)) : 0,
            [&](unsigned l) { swrite(w, in.dst, vread(w, in, 0, l)); });
    return;
  }
  case Op::v_readlane_b32:
    on_lane(sread(w, in, in.src[1]) & 63, [&](unsigned l) { swrite(w, in.dst, vread(w, in, 0, l)); });
    return;
  case Op::v_writelane_b32: {
    const uint32_t value = sread(w, in, in.src[0]);
    on_lane(sread(w, in, in.src[1]) & 63, [&](unsigned l) { vreg(w, in.dst, l) = value; });
    return;
  }
  case Op::ds_swizzle_b32: case Op::ds_permute_b32: case Op::ds_bpermute_b32:
    exec_ds_cross_lane(w, in);
    return;
  case Op::v_s_exp_f32: case Op::v_s_exp_f16: case Op::v_s_log_f32: case Op::v_s_log_f16:
  case Op::v_s_rcp_f32: case Op::v_s_rcp_f16: case Op::v_s_rsq_f32: case Op::v_s_rsq_f16:
  case Op::v_s_sqrt_f32: case Op::v_s_sqrt_f16:
    exec_valu_scalar(w, in); // one scalar result for the wave, computed once
    return;
  case Op::v_permlane64_b32: {
    // Lane l takes lane l ^ 32's src0 (RDNA3 ISA manual); both halves read before either writes.
    uint32_t from[2][kWaveSize];
    for (unsigned h = 0; h < 2; ++h) {
      w.select_half(h);
      for (unsigned l = 0; l < kWaveSize; ++l) from[h][l] = vread(w, in, 0, l);
    }
    for (unsigned h = 0; h < 2; ++h) {
      w.select_half(h);
      for (unsigned l = 0; l < kWaveSize; ++l)
        if ((w.exec() >> l) & 1) vreg(w, in.dst, l) = from[h ^ 1][l];
    }
    w.select_half(0);
    return;
  }
  default: break;
  }
  held_mask_.held = false;
  try {
    exec_vector(w, in);
    w.select_half(1);
    exec_vector(w, in);
  } catch (...) {
    w.select_half(0);
    throw;
  }
  w.select_half(0);
  if (held_mask_.held) swrite(w, held_mask_.code, held_mask_.value);
}

// ---------------------------------------------------------------- operand access

// A 16-bit source: the op_sel-selected half of a VGPR, or the low half of anything else
// (inline float constants in their f16 encodings).
uint16_t Executor::read_half(Wave& w, const Inst& in, unsigned i, unsigned lane) const {
  const uint16_t code = in.src[i];
  if (code >= src::kVgpr0) {
    const uint32_t v = vreg(w, code, lane);
    return uint16_t((in.opsel >> i) & 1 ? v >> 16 : v);
  }
  if (code >= src::kFloatHalf && code <= src::kFloatInv2Pi) return kInlineF16[code - 240];
  return uint16_t(sread(w, in, code));
}

// SRC_{SHARED,PRIVATE}_{BASE,LIMIT}: an aperture's first and last address. The aperture is
// every address whose bits [63:48] equal the base's; 32-bit reads see the high half.
uint64_t Executor::aperture(const Wave& w, uint16_t code) {
  const uint64_t base = code <= src::kSharedLimit ? w.shared_aperture : w.private_aperture;
  return code == src::kSharedBase || code == src::kPrivateBase ? base : base | 0xffffffffffffull;
}

uint32_t Executor::sread(const Wave& w, const Inst& in, uint16_t code) const {
  if (code < 128) {
    if (code == src::kNull) return 0;
    if (code > 105 && code != src::kVccLo && code != src::kVccHi && code != src::kM0 &&
        code != src::kExecLo && code != src::kExecHi &&
        !(code >= src::kTtmp0 && code <= src::kTtmp15))
      fault(w, in, "read of unsupported scalar operand " + std::to_string(code));
    return w.sgpr[code];
  }
  if (code <= src::kConstPos64) return code - src::kConstZero;
  if (code <= src::kConstNeg16) return uint32_t(-int32_t(code - src::kConstNeg1 + 1));
  if (code >= src::kFloatHalf && code <= src::kFloatInv2Pi) return u32(kInlineF32[code - 240]);
  if (code == src::kScc) return w.scc;
  if (code == src::kLiteral) return in.literal;
  if (code >= src::kSharedBase && code <= src::kPrivateLimit) return uint32_t(aperture(w, code) >> 32);
  fault(w, in, "unsupported scalar operand " + std::to_string(code));
}

uint64_t Executor::sread64(const Wave& w, const Inst& in, uint16_t code, bool as_double) const {
  if (code < 128) {
    if (code == src::kNull) return 0;
    return uint64_t(w.sgpr[code]) | (uint64_t(w.sgpr[code + 1]) << 32);
  }
  if (code <= src::kConstPos64) return code - src::kConstZero;
  if (code <= src::kConstNeg16) return uint64_t(-int64_t(code - src::kConstNeg1 + 1));
  // The float inline constants of a 64-bit operand are doubles whatever the operand's type:
  // LLVM encodes the i64 0x3fe0000000000000 of v_cmp_gt_u64 as 0.5 (AMDGPU::isInlinableLiteral64
  // serves OPERAND_REG_INLINE_C_INT64 and _FP64 alike), and libclc's double acos and acospi
  // compare |x| with it so.
  if (code >= src::kFloatHalf && code <= src::kFloatInv2Pi) return u64(kInlineF64[code - 240]);
  // A 32-bit literal feeding a 64-bit operand: the high half for doubles, zero-extended
  // for integers.
  if (code == src::kLiteral) return as_double ? uint64_t(in.literal) << 32 : in.literal;
  if (code == src::kScc) return w.scc;
  if (code >= src::kSharedBase && code <= src::kPrivateLimit) return aperture(w, code);
  fault(w, in, "unsupported 64-bit scalar operand " + std::to_string(code));
}

void Executor::swrite(Wave& w, uint16_t code, uint32_t v) {
  if (code == src::kNull) return;
  if (code >= src::kTtmp0 && code <= src::kTtmp15)
    throw ShaderFault("write to trap temporary ttmp" + std::to_string(code - src::kTtmp0) +
                      " outside a trap handler");
  if (code > 127 || (code > 105 && code < src::kM0 && code != src::kVccHi && code != src::kVccLo))
    throw ShaderFault("write to unsupported scalar destination " + std::to_string(code));
  w.sgpr[code] = v;
}

void Executor::swrite64(Wave& w, uint16_t code, uint64_t v) {
  swrite(w, code, uint32_t(v));
  if (code != src::kNull) swrite(w, uint16_t(code + 1), uint32_t(v >> 32));
}

void Executor::vgpr_fault(const Wave& w, unsigned reg) {
  throw ShaderFault("access to v" + std::to_string(reg) + " beyond the " +
                    std::to_string(w.num_vgprs) + " VGPRs allocated at pc " + hex(w.pc));
}

uint32_t Executor::vread(Wave& w, const Inst& in, unsigned i, unsigned lane) const {
  uint16_t code = in.src[i];
  return code >= src::kVgpr0 ? vreg(w, code, lane) : sread(w, in, code);
}

uint64_t Executor::vread64(Wave& w, const Inst& in, unsigned i, unsigned lane,
                           bool as_double) const {
  uint16_t code = in.src[i];
  if (code >= src::kVgpr0)
    return uint64_t(vreg(w, code, lane)) | (uint64_t(vreg(w, code, lane, 1)) << 32);
  return sread64(w, in, code, as_double);
}

// ---------------------------------------------------------------- scalar ALU

void Executor::exec_salu(Wave& w, const Inst& in) {
  auto s0 = [&] { return sread(w, in, in.src[0]); };
  auto s1 = [&] { return sread(w, in, in.src[1]); };
  auto s0_64 = [&] { return sread64(w, in, in.src[0], false); };
  auto s1_64 = [&] { return sread64(w, in, in.src[1], false); };
  auto set = [&](uint32_t v) { swrite(w, in.dst, v); };
  auto set_nz = [&](uint32_t v) { swrite(w, in.dst, v), w.scc = v != 0; };
  auto set64_nz = [&](uint64_t v) { swrite64(w, in.dst, v), w.scc = v != 0; };
  auto saveexec = [&](uint32_t newexec) {
    uint32_t old = w.exec();
    w.sgpr[src::kExecLo] = newexec;
    w.scc = newexec != 0;
    swrite(w, in.dst, old);
  };
  // The wave64 forms: the old EXEC is read before the destination (which may overlap the
  // source) is written.
  const uint64_t exec64 = uint64_t(w.sgpr[src::kExecLo]) | uint64_t(w.sgpr[src::kExecHi]) << 32;
  auto set_exec64 = [&](uint64_t v) {
    w.sgpr[src::kExecLo] = uint32_t(v);
    w.sgpr[src::kExecHi] = uint32_t(v >> 32);
  };
  auto saveexec64 = [&](uint64_t newexec) {
    set_exec64(newexec);
    w.scc = newexec != 0;
    swrite64(w, in.dst, exec64);
  };
  switch (in.op) {
  case Op::s_add_u32: { uint64_t r = uint64_t(s0()) + s1(); set(uint32_t(r)); w.scc = r >> 32; break; }
  case Op::s_sub_u32: { uint32_t a = s0(), b = s1(); set(a - b); w.scc = b > a; break; }
  case Op::s_add_i32: {
    int32_t a = int32_t(s0()), b = int32_t(s1()), r = int32_t(uint32_t(a) + uint32_t(b));
    set(uint32_t(r)); w.scc = ((a >= 0) == (b >= 0)) && ((r >= 0) != (a >= 0)); break;
  }
  case Op::s_sub_i32: {
    int32_t a = int32_t(s0()), b = int32_t(s1()), r = int32_t(uint32_t(a) - uint32_t(b));
    set(uint32_t(r)); w.scc = ((a >= 0) != (b >= 0)) && ((r >= 0) != (a >= 0)); break;
  }
  case Op::s_addc_u32: { uint64_t r = uint64_t(s0()) + s1() + w.scc; set(uint32_t(r)); w.scc = r >> 32; break; }
  case Op::s_subb_u32: {
    uint64_t a = s0(), b = uint64_t(s1()) + w.scc; set(uint32_t(a - b)); w.scc = b > a; break;
  }
  case Op::s_absdiff_i32: {
    int64_t d = int64_t(int32_t(s0())) - int32_t(s1()); set_nz(uint32_t(d < 0 ? -d : d)); break;
  }
  case Op::s_lshl_b32: set_nz(s0() << (s1() & 31)); break;
  case Op::s_lshl_b64: set64_nz(s0_64() << (s1() & 63)); break;
  case Op::s_lshr_b32: set_nz(s0() >> (s1() & 31)); break;
  case Op::s_lshr_b64: set64_nz(s0_64() >> (s1() & 63)); break;
  case Op::s_ashr_i32: set_nz(uint32_t(int32_t(s0()) >> (s1() & 31))); break;
  case Op::s_ashr_i64: set64_nz(uint64_t(int64_t(s0_64()) >> (s1() & 63))); break;
  case Op::s_lshl1_add_u32: case Op::s_lshl2_add_u32:
  case Op::s_lshl3_add_u32: case Op::s_lshl4_add_u32: {
    unsigned sh = 1 + unsigned(in.op) - unsigned(Op::s_lshl1_add_u32);
    uint64_t r = (uint64_t(s0()) << sh) + s1();
    set(uint32_t(r)); w.scc = r >> 32; break;
  }
  case Op::s_min_i32: { int32_t a = int32_t(s0()), b = int32_t(s1()); w.scc = a < b; set(uint32_t(a < b ? a : b)); break; }
  case Op::s_min_u32: { uint32_t a = s0(), b = s1(); w.scc = a < b; set(a < b ? a : b); break; }
  case Op::s_max_i32: { int32_t a = int32_t(s0()), b = int32_t(s1()); w.scc = a > b; set(uint32_t(a > b ? a : b)); break; }
  case Op::s_max_u32: { uint32_t a = s0(), b = s1(); w.scc = a > b; set(a > b ? a : b); break; }
  case Op::s_and_b32: set_nz(s0() & s1()); break;
  case Op::s_and_b64: set64_nz(s0_64() & s1_64()); break;
  case Op::s_or_b32: set_nz(s0() | s1()); break;
  case Op::s_or_b64: set64_nz(s0_64() | s1_64()); break;
  case Op::s_xor_b32: set_nz(s0() ^ s1()); break;
  case Op::s_xor_b64: set64_nz(s0_64() ^ s1_64()); break;
  case Op::s_and_not1_b64: set64_nz(s0_64() & ~s1_64()); break;
  case Op::s_or_not1_b64: set64_nz(s0_64() | ~s1_64()); break;
  case Op::s_nand_b64: set64_nz(~(s0_64() & s1_64())); break;
  case Op::s_nor_b64: set64_nz(~(s0_64() | s1_64())); break;
  case Op::s_xnor_b64: set64_nz(~(s0_64() ^ s1_64())); break;
  case Op::s_nand_b32: set_nz(~(s0() & s1())); break;
  case Op::s_nor_b32: set_nz(~(s0() | s1())); break;
  case Op::s_xnor_b32: set_nz(~(s0() ^ s1())); break;
  case Op::s_and_not1_b32: set_nz(s0() & ~s1()); break;
  case Op::s_or_not1_b32: set_nz(s0() | ~s1()); break;
  case Op::s_bfe_u32: {
    uint32_t off = s1() & 31, width = (s1() >> 16) & 0x7f;
    uint32_t r = width == 0 ? 0 : width >= 32 ? s0() >> off : (s0() >> off) & ((1u << width) - 1);
    set_nz(r); break;
  }
  case Op::s_bfe_i32: {
    uint32_t off = s1() & 31, width = (s1() >> 16) & 0x7f;
    int32_t r = 0;
    if (width) {
      uint32_t field = width >= 32 ? s0() >> off : (s0() >> off) & ((1u << width) - 1);
      r = width >= 32 ? int32_t(field) : int32_t(field << (32 - width)) >> (32 - width);
    }
    set_nz(uint32_t(r)); break;
  }
  case Op::s_bfm_b32: set(((1u << (s0() & 31)) - 1) << (s1() & 31)); break;
  case Op::s_mul_i32: set(s0() * s1()); break;
  case Op::s_mul_hi_u32: set(uint32_t((uint64_t(s0()) * s1()) >> 32)); break;
  case Op::s_mul_hi_i32: set(uint32_t(uint64_t(int64_t(int32_t(s0())) * int32_t(s1())) >> 32)); break;
  case Op::s_cselect_b32: set(w.scc ? s0() : s1()); break;
  case Op::s_cselect_b64: swrite64(w, in.dst, w.scc ? s0_64() : s1_64()); break;
  case Op::s_pack_ll_b32_b16: set((s0() & 0xffff) | (s1() << 16)); break;
  // gfx12's 64-bit scalar arithmetic: no carry out, SCC unchanged (RDNA4 ISA manual).
  case Op::s_add_nc_u64: swrite64(w, in.dst, s0_64() + s1_64()); break;
  case Op::s_sub_nc_u64: swrite64(w, in.dst, s0_64() - s1_64()); break;
  case Op::s_mul_u64: swrite64(w, in.dst, s0_64() * s1_64()); break;
  case Op::s_barrier_signal:
    // -1 names the work-group barrier, the only one compute code uses (named barriers are not
    // modelled).
    if (int32_t(s0()) != -1) fault(w, in, "s_barrier_signal of a named barrier is not implemented");
    w.barrier_signalled = true;
    break;
  // SOP1
  case Op::s_mov_b32: set(s0()); break;
  case Op::s_mov_b64: swrite64(w, in.dst, s0_64()); break;
  case Op::s_cmov_b32: if (w.scc) set(s0()); break;
  case Op::s_brev_b32: {
    uint32_t v = s0(), r = 0;
    for (int i = 0; i < 32; ++i) r |= ((v >> i) & 1u) << (31 - i);
    set(r); break;
  }
  case Op::s_ctz_i32_b32: { uint32_t v = s0(); set(v ? uint32_t(std::countr_zero(v)) : ~0u); break; }
  case Op::s_clz_i32_u32: { uint32_t v = s0(); set(v ? uint32_t(std::countl_zero(v)) : ~0u); break; }
  case Op::s_cls_i32: set(leading_sign_bits(s0())); break;
  case Op::s_sext_i32_i8: set(uint32_t(int32_t(int8_t(s0())))); break;
  case Op::s_sext_i32_i16: set(uint32_t(int32_t(int16_t(s0())))); break;
  case Op::s_abs_i32: { int32_t v = int32_t(s0()); set_nz(uint32_t(v < 0 ? -int64_t(v) : v)); break; }
  case Op::s_bcnt1_i32_b32: set_nz(uint32_t(std::popcount(s0()))); break;
  case Op::s_not_b32: set_nz(~s0()); break;
  case Op::s_and_saveexec_b32: saveexec(s0() & w.exec()); break;
  case Op::s_or_saveexec_b32: saveexec(s0() | w.exec()); break;
  case Op::s_xor_saveexec_b32: saveexec(s0() ^ w.exec()); break;
  case Op::s_and_not1_saveexec_b32: saveexec(s0() & ~w.exec()); break;
  case Op::s_and_saveexec_b64: saveexec64(s0_64() & exec64); break;
  case Op::s_or_saveexec_b64: saveexec64(s0_64() | exec64); break;
  case Op::s_xor_saveexec_b64: saveexec64(s0_64() ^ exec64); break;
  case Op::s_and_not1_saveexec_b64: saveexec64(s0_64() & ~exec64); break;
  case Op::s_or_not1_saveexec_b64: saveexec64(s0_64() | ~exec64); break;
  case Op::s_and_not0_saveexec_b64: saveexec64(~s0_64() & exec64); break;
  case Op::s_or_not0_saveexec_b64: saveexec64(~s0_64() | exec64); break;
  // The wrexec forms write the new EXEC to the destination too (RDNA3 ISA manual).
  case Op::s_and_not1_wrexec_b32: {
    const uint32_t r = s0() & ~w.exec();
    w.sgpr[src::kExecLo] = r;
    w.scc = r != 0;
    swrite(w, in.dst, r);
    break;
  }
  case Op::s_and_not1_wrexec_b64: {
    const uint64_t r = s0_64() & ~exec64;
    set_exec64(r);
    w.scc = r != 0;
    swrite64(w, in.dst, r);
    break;
  }
  case Op::s_not_b64: set64_nz(~s0_64()); break;
  case Op::s_cmov_b64: if (w.scc) swrite64(w, in.dst, s0_64()); break;
  case Op::s_bcnt1_i32_b64: set_nz(uint32_t(std::popcount(s0_64()))); break;
  case Op::s_ctz_i32_b64: { uint64_t v = s0_64(); set(v ? uint32_t(std::countr_zero(v)) : ~0u); break; }
  case Op::s_clz_i32_u64: { uint64_t v = s0_64(); set(v ? uint32_t(std::countl_zero(v)) : ~0u); break; }
  case Op::s_cls_i32_i64: set(leading_sign_bits(s0_64())); break;
  case Op::s_bitset0_b32: swrite(w, in.dst, sread(w, in, in.dst) & ~(1u << (s0() & 31))); break;
  case Op::s_bitset1_b32: swrite(w, in.dst, sread(w, in, in.dst) | (1u << (s0() & 31))); break;
  case Op::s_getpc_b64: swrite64(w, in.dst, w.pc + in.size); break;
  case Op::s_setpc_b64: w.pc = s0_64(); break;
  case Op::s_swappc_b64: { uint64_t target = s0_64(); swrite64(w, in.dst, w.pc + in.size); w.pc = target; break; }
  // SOPC
  case Op::s_cmp_eq_i32: case Op::s_cmp_eq_u32: w.scc = s0() == s1(); break;
  case Op::s_cmp_lg_i32: case Op::s_cmp_lg_u32: w.scc = s0() != s1(); break;
  case Op::s_cmp_gt_i32: w.scc = int32_t(s0()) > int32_t(s1()); break;
  case Op::s_cmp_ge_i32: w.scc = int32_t(s0()) >= int32_t(s1()); break;
  case Op::s_cmp_lt_i32: w.scc = int32_t(s0()) < int32_t(s1()); break;
  case Op::s_cmp_le_i32: w.scc = int32_t(s0()) <= int32_t(s1()); break;
  case Op::s_cmp_gt_u32: w.scc = s0() > s1(); break;
  case Op::s_cmp_ge_u32: w.scc = s0() >= s1(); break;
  case Op::s_cmp_lt_u32: w.scc = s0() < s1(); break;
  case Op::s_cmp_le_u32: w.scc = s0() <= s1(); break;
  case Op::s_bitcmp0_b32: w.scc = !((s0() >> (s1() & 31)) & 1); break;
  case Op::s_bitcmp1_b32: w.scc = (s0() >> (s1() & 31)) & 1; break;
  case Op::s_cmp_eq_u64: w.scc = s0_64() == s1_64(); break;
  case Op::s_bitcmp0_b64: w.scc = !((s0_64() >> (s1() & 63)) & 1); break;
  case Op::s_bitcmp1_b64: w.scc = (s0_64() >> (s1() & 63)) & 1; break;
  case Op::s_cmp_lg_u64: w.scc = s0_64() != s1_64(); break;
  // SOPK
  case Op::s_movk_i32: set(uint32_t(in.imm)); break;
  case Op::s_cmovk_i32:
    if (w.scc) set(uint32_t(in.imm));
    break;
  // The compares take the 16-bit constant sign-extended (_i32) or zero-extended (_u32).
  case Op::s_cmpk_eq_i32: w.scc = int32_t(sread(w, in, in.dst)) == in.imm; break;
  case Op::s_cmpk_lg_i32: w.scc = int32_t(sread(w, in, in.dst)) != in.imm; break;
  case Op::s_cmpk_gt_i32: w.scc = int32_t(sread(w, in, in.dst)) > in.imm; break;
  case Op::s_cmpk_ge_i32: w.scc = int32_t(sread(w, in, in.dst)) >= in.imm; break;
  case Op::s_cmpk_lt_i32: w.scc = int32_t(sread(w, in, in.dst)) < in.imm; break;
  case Op::s_cmpk_le_i32: w.scc = int32_t(sread(w, in, in.dst)) <= in.imm; break;
  case Op::s_cmpk_eq_u32: w.scc = sread(w, in, in.dst) == uint32_t(in.imm & 0xffff); break;
  case Op::s_cmpk_lg_u32: w.scc = sread(w, in, in.dst) != uint32_t(in.imm & 0xffff); break;
  case Op::s_cmpk_ge_u32: w.scc = sread(w, in, in.dst) >= uint32_t(in.imm & 0xffff); break;
  case Op::s_cmpk_lt_u32: w.scc = sread(w, in, in.dst) < uint32_t(in.imm & 0xffff); break;
  case Op::s_cmpk_le_u32: w.scc = sread(w, in, in.dst) <= uint32_t(in.imm & 0xffff); break;
  case Op::s_addk_i32: {
    int32_t a = int32_t(sread(w, in, in.dst)), b = in.imm, r = int32_t(uint32_t(a) + uint32_t(b));
    set(uint32_t(r)); w.scc = ((a >= 0) == (b >= 0)) && ((r >= 0) != (a >= 0)); break;
  }
  case Op::s_mulk_i32: set(sread(w, in, in.dst) * uint32_t(in.imm)); break;
  case Op::s_cmpk_gt_u32: w.scc = sread(w, in, in.dst) > uint32_t(in.imm & 0xffff); break;
  case Op::s_waitcnt_vscnt: break; // stores complete in program order in the model
  default:
    if (!exec_salu_extra(w, in) && !exec_salu_float(w, in))
      fault(w, in, "unimplemented scalar instruction");
  }
}

void Executor::exec_sopp(Wave& w, const Inst& in) {
  auto branch = [&](bool taken) {
    if (taken) w.pc = w.pc + 4 + int64_t(in.imm) * 4;
  };
  switch (in.op) {
  case Op::s_nop: case Op::s_clause: case Op::s_delay_alu: case Op::s_waitcnt:
  case Op::s_sendmsg: case Op::s_waitcnt_depctr: case Op::s_set_inst_prefetch_distance:
    break; // no caches or prefetcher to steer; memory is performed in program order here, so waits are already satisfied
  case Op::s_code_end: fault(w, in, "executed s_code_end padding");
  case Op::s_trap: fault(w, in, "s_trap " + std::to_string(in.imm) + " with no trap handler");
  case Op::s_endpgm: w.done = true; break;
  case Op::s_barrier: w.at_barrier = true; w.pc += 4; break;
  // gfx12 splits the barrier: the wave signals its arrival, may run on, and waits for the
  // others at s_barrier_wait. Waiting at the wait is one valid schedule of that.
  case Op::s_barrier_wait:
    if (!w.barrier_signalled) fault(w, in, "s_barrier_wait without s_barrier_signal (the wave would hang)");
    w.barrier_signalled = false;
    w.at_barrier = true;
    w.pc += 4;
    break;
  case Op::s_wait_loadcnt: case Op::s_wait_storecnt: case Op::s_wait_samplecnt: case Op::s_wait_bvhcnt:
  case Op::s_wait_expcnt: case Op::s_wait_dscnt: case Op::s_wait_kmcnt: case Op::s_wait_loadcnt_dscnt:
  case Op::s_wait_storecnt_dscnt:
    break; // gfx12's per-counter waits: memory is performed in program order here
  case Op::s_branch: branch(true); break;
  case Op::s_cbranch_scc0: branch(!w.scc); break;
  case Op::s_cbranch_scc1: branch(w.scc); break;
  case Op::s_cbranch_vccz: branch(w.vcc_mask() == 0); break;
  case Op::s_cbranch_vccnz: branch(w.vcc_mask() != 0); break;
  case Op::s_cbranch_execz: branch(w.exec_mask() == 0); break;
  case Op::s_cbranch_execnz: branch(w.exec_mask() != 0); break;
  default:
    if (!exec_sopp_extra(w, in)) fault(w, in, "unimplemented program-control instruction");
  }
}

// ---------------------------------------------------------------- vector ALU

void Executor::exec_valu(Wave& w, const Inst& in) {
  const uint32_t exec = w.exec();
  const bool ftz = w.flush_f32_denorms;
  auto fin = [&](uint32_t bits, unsigned i) AMCL_INLINE {
    float x = f32(bits);
    if (in.abs & (1u << i)) x = std::fabs(x);
    if (in.neg & (1u << i)) x = -x;
    return flush(x, ftz);
  };
  auto dfin = [&](uint64_t bits, unsigned i) AMCL_INLINE {
    double x = f64(bits);
    if (in.abs & (1u << i)) x = std::fabs(x);
    if (in.neg & (1u << i)) x = -x;
    return x;
  };
  auto bitmods = [&](uint32_t v, unsigned i) AMCL_INLINE {
    if (in.abs & (1u << i)) v &= 0x7fffffffu;
    if (in.neg & (1u << i)) v ^= 0x80000000u;
    return v;
  };
  auto fout = [&](float r) AMCL_INLINE {
    if (in.omod == 1) r *= 2.0f; else if (in.omod == 2) r *= 4.0f; else if (in.omod == 3) r *= 0.5f;
    if (in.clamp) r = clamp01(r);
    return u32(flush(r, ftz));
  };
  auto dout = [&](double r) AMCL_INLINE {
    if (in.omod == 1) r *= 2.0; else if (in.omod == 2) r *= 4.0; else if (in.omod == 3) r *= 0.5;
    if (in.clamp) r = clamp01(r);
    return u64(r);
  };

  // Lane-uniform operations first.
  switch (in.op) {
  case Op::v_nop: return;
  case Op::v_s_exp_f32: case Op::v_s_exp_f16: case Op::v_s_log_f32: case Op::v_s_log_f16:
  case Op::v_s_rcp_f32: case Op::v_s_rcp_f16: case Op::v_s_rsq_f32: case Op::v_s_rsq_f16:
  case Op::v_s_sqrt_f32: case Op::v_s_sqrt_f16:
    exec_valu_scalar(w, in);
    return;
  case Op::v_readfirstlane_b32: {
    unsigned lane = exec ? unsigned(std::countr_zero(exec)) : 0;
    swrite(w, in.dst, vread(w, in, 0, lane));
    return;
  }
  case Op::v_readlane_b32:
    swrite(w, in.dst, vread(w, in, 0, sread(w, in, in.src[1]) & 31));
    return;
  case Op::v_writelane_b32:
    vreg(w, in.dst, sread(w, in, in.src[1]) & 31) = sread(w, in, in.src[0]);
    return;
  case Op::v_permlane16_b32: case Op::v_permlanex16_b32: {
    // Lane l of row r (16 lanes) takes src0 of lane sel[l % 16] of row r, or of the other row of
    // its pair (x16); sel is the 16 4-bit fields of {src2, src1}. A source lane off in EXEC is
    // read anyway with FI (op_sel[0]), else gives 0 with BOUND_CTRL (op_sel[1]), else leaves
    // the destination as it was. Rows never straddle a wave64's passes.
    const uint64_t sel = uint64_t(sread(w, in, in.src[1])) | uint64_t(sread(w, in, in.src[2])) << 32;
    const bool fetch_inactive = in.opsel & 1, bound_ctrl = in.opsel & 2;
    uint32_t from[kWaveSize];
    for (unsigned lane = 0; lane < kWaveSize; ++lane) from[lane] = vread(w, in, 0, lane);
    for (unsigned lane = 0; lane < kWaveSize; ++lane) {
      if (!((exec >> lane) & 1)) continue;
      const unsigned row = (lane / 16) ^ (in.op == Op::v_permlanex16_b32 ? 1u : 0u);
      const unsigned src = row * 16 + unsigned((sel >> (4 * (lane % 16))) & 15);
      if (((exec >> src) & 1) || fetch_inactive) vreg(w, in.dst, lane) = from[src];
      else if (bound_ctrl) vreg(w, in.dst, lane) = 0;
    }
    return;
  }
  default: break;
  }

  if (fast_paths && exec_valu_fast(w, in)) return;
  const OpInfo& info = op_info(in.op);
  auto half_src = [&](unsigned i, unsigned lane) AMCL_INLINE { return read_half(w, in, i, lane); };
  auto hf = [&](unsigned i, unsigned lane) AMCL_INLINE {
    float x = h2f(half_src(i, lane));
    if (in.abs & (1u << i)) x = std::fabs(x);
    if (in.neg & (1u << i)) x = -x;
    return x;
  };
  // Writing a 16-bit result keeps the other half of the VGPR.
  auto half_dst = [&](uint32_t& d, uint16_t v) AMCL_INLINE {
    d = (in.opsel & 8) ? (d & 0xffffu) | (uint32_t(v) << 16) : (d & 0xffff0000u) | v;
  };
  auto hout = [&](double r) AMCL_INLINE {
    if (in.clamp) r = clamp01(r);
    return f2h(r);
  };
  auto hout_exact = [&](long double r) AMCL_INLINE {
    if (in.clamp) r = clamp01(r);
    return f2h_exact(r);
  };
  // The destination's own half (fmac's accumulator).
  auto dst_half = [&](uint32_t d) AMCL_INLINE { return h2f(uint16_t(in.opsel & 8 ? d >> 16 : d)); };

  uint32_t carry_mask = 0;
  // The lane mask an operation reads: src2 of the selects and carry-ins (VCC in their VOP2
  // forms), VCC itself for v_div_fmas (its src2 is the addend).
  uint32_t carry_in = 0;
  switch (in.op) {
  case Op::v_cndmask_b32: case Op::v_cndmask_b16: case Op::v_add_co_ci_u32: case Op::v_sub_co_ci_u32:
  case Op::v_subrev_co_ci_u32:
    carry_in = mask_read(w, in, in.src[2]);
    break;
  case Op::v_div_fmas_f32: case Op::v_div_fmas_f64: carry_in = w.vcc(); break;
  default: break;
  }
  // 32-bit operands resolved once per instruction: a VGPR row of 32 lanes (bounds-checked
  // here) or a value broadcast to all lanes.
  const uint32_t* row[3] = {nullptr, nullptr, nullptr};
  uint32_t value[3] = {0, 0, 0};
  for (unsigned i = 0; i < 3; ++i) {
    const uint8_t width = info.src_dwords[i];
    if (!width) continue;
    if (in.src[i] >= src::kVgpr0) row[i] = &vreg(w, in.src[i], 0);
    else if (width == 1 || is_half(width)) value[i] = sread(w, in, in.src[i]);
  }
  uint32_t* const drow = &vreg(w, in.dst, 0);
  for (unsigned lane = 0; lane < kWaveSize; ++lane) {
    if (!((exec >> lane) & 1)) continue;
    auto a = [&]() AMCL_INLINE { return row[0] ? row[0][lane] : value[0]; };
    auto b = [&]() AMCL_INLINE { return row[1] ? row[1][lane] : value[1]; };
    auto c = [&]() AMCL_INLINE { return row[2] ? row[2][lane] : value[2]; };
    auto fa = [&]() AMCL_INLINE { return fin(a(), 0); };
    auto fb = [&]() AMCL_INLINE { return fin(b(), 1); };
    auto fc = [&]() AMCL_INLINE { return fin(c(), 2); };
    uint32_t& d = drow[lane];
    switch (in.op) {
    // Moves and selects still honour VOP3's abs/neg, as operations on the sign bit.
    case Op::v_mov_b32: d = bitmods(a(), 0); break;
    case Op::v_cndmask_b32: d = (carry_in >> lane) & 1 ? bitmods(b(), 1) : bitmods(a(), 0); break;
    case Op::v_add_f32: d = fout(fa() + fb()); break;
    case Op::v_sub_f32: d = fout(fa() - fb()); break;
    case Op::v_subrev_f32: d = fout(fb() - fa()); break;
    case Op::v_mul_f32: d = fout(fa() * fb()); break;
    case Op::v_mul_dx9_zero_f32: d = fout(fmul_dx9_zero(fa(), fb())); break;
    // 16-bit operations (true16 halves)
    case Op::v_add_f16: half_dst(d, hout(double(hf(0, lane)) + hf(1, lane))); break;
    case Op::v_sub_f16: half_dst(d, hout(double(hf(0, lane)) - hf(1, lane))); break;
    case Op::v_mul_f16: half_dst(d, hout(double(hf(0, lane)) * hf(1, lane))); break;
    case Op::v_max_f16: half_dst(d, hout(fmax_ieee(hf(0, lane), hf(1, lane)))); break;
    case Op::v_min_f16: half_dst(d, hout(fmin_ieee(hf(0, lane), hf(1, lane)))); break;
    case Op::v_fma_f16: half_dst(d, hout_exact(fma_exact(hf(0, lane), hf(1, lane), hf(2, lane)))); break;
    case Op::v_fmac_f16: half_dst(d, hout_exact(fma_exact(hf(0, lane), hf(1, lane), dst_half(d)))); break;
    case Op::v_fmamk_f16: half_dst(d, hout_exact(fma_exact(hf(0, lane), h2f(uint16_t(in.literal)), hf(1, lane)))); break;
    case Op::v_fmaak_f16: half_dst(d, hout_exact(fma_exact(hf(0, lane), hf(1, lane), h2f(uint16_t(in.literal))))); break;
    case Op::v_ldexp_f16: half_dst(d, hout(std::ldexp(double(hf(0, lane)), int16_t(half_src(1, lane))))); break;
    case Op::v_min3_f16: half_dst(d, hout(fmin_ieee(fmin_ieee(hf(0, lane), hf(1, lane)), hf(2, lane)))); break;
    case Op::v_max3_f16: half_dst(d, hout(fmax_ieee(fmax_ieee(hf(0, lane), hf(1, lane)), hf(2, lane)))); break;
    case Op::v_med3_f16: {
      const float x = hf(0, lane), y = hf(1, lane), z = hf(2, lane);
      half_dst(d, hout(fmax_ieee(fmin_ieee(x, y), fmin_ieee(fmax_ieee(x, y), z)))); break;
    }
    case Op::v_maxmin_f16: half_dst(d, hout(fmin_ieee(fmax_ieee(hf(0, lane), hf(1, lane)), hf(2, lane)))); break;
    case Op::v_minmax_f16: half_dst(d, hout(fmax_ieee(fmin_ieee(hf(0, lane), hf(1, lane)), hf(2, lane)))); break;
    case Op::v_cvt_f16_u16: half_dst(d, hout(double(half_src(0, lane)))); break;
    case Op::v_cvt_f16_i16: half_dst(d, hout(double(int16_t(half_src(0, lane))))); break;
    case Op::v_cvt_u16_f16: {
      const float x = hf(0, lane);
      half_dst(d, std::isnan(x) ? 0 : uint16_t(std::clamp(x, 0.0f, 65535.0f))); break;
    }
    case Op::v_cvt_i16_f16: {
      const float x = hf(0, lane);
      half_dst(d, std::isnan(x) ? 0 : uint16_t(int16_t(std::clamp(x, -32768.0f, 32767.0f)))); break;
    }
    case Op::v_rcp_f16: half_dst(d, hout(1.0 / hf(0, lane))); break;
    case Op::v_sqrt_f16: half_dst(d, hout(std::sqrt(double(hf(0, lane))))); break;
    case Op::v_rsq_f16: half_dst(d, hout(1.0 / std::sqrt(double(hf(0, lane))))); break;
    case Op::v_log_f16: half_dst(d, hout(std::log2(double(hf(0, lane))))); break;
    case Op::v_exp_f16: half_dst(d, hout(std::exp2(double(hf(0, lane))))); break;
    case Op::v_frexp_mant_f16: half_dst(d, hout(frexp_mant(hf(0, lane)))); break;
    case Op::v_frexp_exp_i16_f16: half_dst(d, uint16_t(int16_t(frexp_exp(hf(0, lane))))); break;
    case Op::v_floor_f16: half_dst(d, hout(std::floor(hf(0, lane)))); break;
    case Op::v_ceil_f16: half_dst(d, hout(std::ceil(hf(0, lane)))); break;
    case Op::v_trunc_f16: half_dst(d, hout(std::trunc(hf(0, lane)))); break;
    case Op::v_rndne_f16: half_dst(d, hout(std::nearbyint(hf(0, lane)))); break;
    case Op::v_fract_f16: {
      const float x = hf(0, lane);
      half_dst(d, hout(std::isinf(x) ? std::numeric_limits<float>::quiet_NaN()
                                     : std::fmin(x - std::floor(x), 0x1.ffcp-1f)));
      break;
    }
    case Op::v_sin_f16: half_dst(d, hout(std::sin(double(hf(0, lane)) * 6.283185307179586))); break;
    case Op::v_cos_f16: half_dst(d, hout(std::cos(double(hf(0, lane)) * 6.283185307179586))); break;
    case Op::v_not_b16: half_dst(d, uint16_t(~half_src(0, lane))); break;
    case Op::v_cvt_i32_i16: d = uint32_t(int32_t(int16_t(half_src(0, lane)))); break;
    case Op::v_cvt_u32_u16: d = half_src(0, lane); break;
    case Op::v_mad_u16: {
      const uint32_t r = uint32_t(half_src(0, lane)) * half_src(1, lane) + half_src(2, lane);
      half_dst(d, uint16_t(in.clamp && r > 0xffff ? 0xffff : r)); break;
    }
    case Op::v_mad_i16: {
      int32_t r = int32_t(int16_t(half_src(0, lane))) * int16_t(half_src(1, lane)) + int16_t(half_src(2, lane));
      if (in.clamp) r = std::clamp(r, -32768, 32767);
      half_dst(d, uint16_t(r)); break;
    }
    case Op::v_mad_u32_u16: d = uint32_t(half_src(0, lane)) * half_src(1, lane) + c(); break;
    case Op::v_mad_i32_i16:
      d = uint32_t(int32_t(int16_t(half_src(0, lane))) * int16_t(half_src(1, lane)) + int32_t(c())); break;
    case Op::v_mul_lo_u16: half_dst(d, uint16_t(half_src(0, lane) * half_src(1, lane))); break;
    case Op::v_max_u16: half_dst(d, std::max(half_src(0, lane), half_src(1, lane))); break;
    case Op::v_min_u16: half_dst(d, std::min(half_src(0, lane), half_src(1, lane))); break;
    case Op::v_max_i16: half_dst(d, uint16_t(std::max(int16_t(half_src(0, lane)), int16_t(half_src(1, lane))))); break;
    case Op::v_min_i16: half_dst(d, uint16_t(std::min(int16_t(half_src(0, lane)), int16_t(half_src(1, lane))))); break;
    // Three-operand 16-bit integer min/max/median (RDNA3 ISA manual, V_MED3_I16: the median is
    // max(min(a, b), min(max(a, b), c))).
    case Op::v_min3_i16:
    case Op::v_max3_i16:
    case Op::v_med3_i16: {
      const int16_t x = int16_t(half_src(0, lane)), y = int16_t(half_src(1, lane)),
                    z = int16_t(half_src(2, lane));
      const int16_t r = in.op == Op::v_min3_i16 ? std::min({x, y, z})
                        : in.op == Op::v_max3_i16
                            ? std::max({x, y, z})
                            : std::max(std::min(x, y), std::min(std::max(x, y), z));
      half_dst(d, uint16_t(r));
      break;
    }
    case Op::v_min3_u16:
    case Op::v_max3_u16:
    case Op::v_med3_u16: {
      const uint16_t x = half_src(0, lane), y = half_src(1, lane), z = half_src(2, lane);
      half_dst(d, in.op == Op::v_min3_u16 ? std::min({x, y, z})
                  : in.op == Op::v_max3_u16
                      ? std::max({x, y, z})
                      : std::max(std::min(x, y), std::min(std::max(x, y), z)));
      break;
    }
    case Op::v_add_nc_i16: case Op::v_sub_nc_i16: {
      const int32_t x = int16_t(half_src(0, lane)), y = int16_t(half_src(1, lane));
      int32_t r = in.op == Op::v_add_nc_i16 ? x + y : x - y;
      if (in.clamp) r = std::clamp(r, -32768, 32767);
      half_dst(d, uint16_t(r)); break;
    }
    // Two halves into one VGPR; the float modifiers act on each half's sign.
    case Op::v_pack_b32_f16: {
      auto part = [&](unsigned i) AMCL_INLINE {
        uint16_t h = half_src(i, lane);
        if (in.abs & (1u << i)) h &= 0x7fff;
        if (in.neg & (1u << i)) h ^= 0x8000;
        return uint32_t(h);
      };
      d = part(0) | (part(1) << 16); break;
    }
    case Op::v_cvt_pk_norm_i16_f16: {
      auto norm = [&](unsigned i) AMCL_INLINE {
        const float x = hf(i, lane);
        return std::isnan(x) ? 0u : uint32_t(uint16_t(int16_t(std::nearbyint(std::clamp(x, -1.0f, 1.0f) * 32767.0f))));
      };
      d = norm(0) | (norm(1) << 16); break;
    }
    case Op::v_cvt_pk_u16_u32: d = std::min(a(), 0xffffu) | (std::min(b(), 0xffffu) << 16); break;
    case Op::v_cvt_pk_i16_i32: {
      auto sat = [](uint32_t v) { return uint32_t(uint16_t(int16_t(std::clamp(int32_t(v), -32768, 32767)))); };
      d = sat(a()) | (sat(b()) << 16); break;
    }
    case Op::v_pk_fmac_f16: {
      auto part = [&](uint32_t v, bool hi) AMCL_INLINE { return h2f(uint16_t(hi ? v >> 16 : v)); };
      const uint32_t x = a(), y = b();
      uint32_t r = 0;
      for (int hi = 0; hi < 2; ++hi)
        r |= uint32_t(f2h_exact(fma_exact(part(x, hi), part(y, hi), part(d, hi)))) << (16 * hi);
      d = r; break;
    }
    case Op::v_div_fixup_f16: half_dst(d, hout(div_fixup(hf(0, lane), hf(1, lane), hf(2, lane)))); break;
    case Op::v_cvt_f16_f32: half_dst(d, hout(fa())); break;
    case Op::v_cvt_f32_f16: d = fout(hf(0, lane)); break;
    case Op::v_cvt_pk_rtz_f16_f32: d = uint32_t(f2h_rtz(fa())) | (uint32_t(f2h_rtz(fb())) << 16); break;
    case Op::v_mov_b16: half_dst(d, half_src(0, lane)); break;
    case Op::v_add_nc_u16: {
      uint32_t r = uint32_t(half_src(0, lane)) + half_src(1, lane);
      half_dst(d, uint16_t(in.clamp && r > 0xffff ? 0xffff : r)); break;
    }
    case Op::v_sub_nc_u16: {
      uint16_t x = half_src(0, lane), y = half_src(1, lane);
      half_dst(d, uint16_t(in.clamp && y > x ? 0 : x - y)); break;
    }
    case Op::v_and_b16: half_dst(d, half_src(0, lane) & half_src(1, lane)); break;
    case Op::v_or_b16: half_dst(d, half_src(0, lane) | half_src(1, lane)); break;
    case Op::v_xor_b16: half_dst(d, half_src(0, lane) ^ half_src(1, lane)); break;
    case Op::v_lshlrev_b16: half_dst(d, uint16_t(half_src(1, lane) << (half_src(0, lane) & 15))); break;
    case Op::v_lshrrev_b16: half_dst(d, uint16_t(half_src(1, lane) >> (half_src(0, lane) & 15))); break;
    case Op::v_ashrrev_i16: half_dst(d, uint16_t(int16_t(half_src(1, lane)) >> (half_src(0, lane) & 15))); break;
    case Op::v_cndmask_b16: {
      const uint32_t mask = carry_in;
      half_dst(d, (mask >> lane) & 1 ? half_src(1, lane) : half_src(0, lane));
      break;
    }
    // 32-bit additions
    case Op::v_mad_i32_i24:
      d = uint32_t(int32_t(a() << 8) >> 8) * uint32_t(int32_t(b() << 8) >> 8) + c(); break;
    case Op::v_alignbyte_b32: d = uint32_t(((uint64_t(a()) << 32) | b()) >> (8 * (c() & 3))); break;
    case Op::v_med3_i32: {
      int32_t x = int32_t(a()), y = int32_t(b()), z = int32_t(c());
      d = uint32_t(std::max(std::min(x, y), std::min(std::max(x, y), z))); break;
    }
    case Op::v_med3_u32: {
      uint32_t x = a(), y = b(), z = c();
      d = std::max(std::min(x, y), std::min(std::max(x, y), z)); break;
    }
    // Three-operand integer min/max (RDNA3 ISA manual: maxmin = min(max(a, b), c)).
    case Op::v_min3_i32: d = uint32_t(std::min({int32_t(a()), int32_t(b()), int32_t(c())})); break;
    case Op::v_max3_i32: d = uint32_t(std::max({int32_t(a()), int32_t(b()), int32_t(c())})); break;
    case Op::v_min3_u32: d = std::min({a(), b(), c()}); break;
    case Op::v_max3_u32: d = std::max({a(), b(), c()}); break;
    case Op::v_maxmin_i32: d = uint32_t(std::min(std::max(int32_t(a()), int32_t(b())), int32_t(c()))); break;
    case Op::v_minmax_i32: d = uint32_t(std::max(std::min(int32_t(a()), int32_t(b())), int32_t(c()))); break;
    case Op::v_maxmin_u32: d = std::min(std::max(a(), b()), c()); break;
    case Op::v_minmax_u32: d = std::max(std::min(a(), b()), c()); break;
    case Op::v_maxmin_f32: d = fout(fmin_ieee(fmax_ieee(fa(), fb()), fc())); break;
    case Op::v_minmax_f32: d = fout(fmax_ieee(fmin_ieee(fa(), fb()), fc())); break;
    case Op::v_xor3_b32: d = a() ^ b() ^ c(); break;
    case Op::v_bcnt_u32_b32: d = uint32_t(std::popcount(a())) + b(); break;
    // Bits of the mask below this lane's number (mbcnt_lo: of mask bits 0..31, mbcnt_hi: 32..63).
    case Op::v_mbcnt_lo_u32_b32:
      d = uint32_t(std::popcount(w.half ? a() : a() & ((1u << lane) - 1u))) + b(); break;
    case Op::v_mbcnt_hi_u32_b32:
      d = (w.half ? uint32_t(std::popcount(a() & ((1u << lane) - 1u))) : 0u) + b(); break;
    case Op::v_add_nc_i32: case Op::v_sub_nc_i32: {
      int64_t r = in.op == Op::v_add_nc_i32 ? int64_t(int32_t(a())) + int32_t(b())
                                            : int64_t(int32_t(a())) - int32_t(b());
      if (in.clamp) r = std::clamp<int64_t>(r, INT32_MIN, INT32_MAX);
      d = uint32_t(r); break;
    }
    case Op::v_frexp_exp_i32_f32: d = uint32_t(frexp_exp(fa())); break;
    case Op::v_frexp_mant_f32: d = fout(frexp_mant(fa())); break;
    case Op::v_cvt_f32_ubyte1: d = fout(float((a() >> 8) & 0xff)); break;
    case Op::v_cvt_f32_ubyte2: d = fout(float((a() >> 16) & 0xff)); break;
    case Op::v_cvt_f32_ubyte3: d = fout(float(a() >> 24)); break;
    case Op::v_div_fixup_f32: d = fout(div_fixup(fa(), fb(), fc(), -150)); break;
    case Op::v_div_fmas_f32: {
      // VCC (from v_div_scale) undoes its operand scaling: up by 2^64 for a large quotient
      // (S2 is the quotient estimate), down by 2^64 for a small one. The scaling is part of the
      // one rounding (a quotient scaled into the denormals must not be rounded twice), so the
      // fma is taken in double first. Without VCC it is a plain fma, rounded once.
      if (!((carry_in >> lane) & 1)) {
        d = fout(std::fma(fa(), fb(), fc()));
        break;
      }
      double r = std::fma(double(fa()), double(fb()), double(fc()));
      if ((carry_in >> lane) & 1) r = std::ldexp(r, exponent_of(fc()) >= 127 ? 64 : -64);
      d = fout(float(r));
      break;
    }
    case Op::v_div_scale_f32: {
      bool v;
      d = u32(div_scale(fa(), fb(), fc(), v, 96, 64, 23));
      carry_mask |= uint32_t(v) << lane;
      break;
    }
    // 64-bit floating point
    case Op::v_div_fixup_f64: case Op::v_div_fmas_f64: case Op::v_div_scale_f64:
    case Op::v_ldexp_f64: case Op::v_trunc_f64: case Op::v_ceil_f64: case Op::v_rndne_f64:
    case Op::v_floor_f64: case Op::v_rcp_f64: case Op::v_rsq_f64: case Op::v_cvt_f64_i32:
    case Op::v_cvt_f64_u32: {
      auto D = [&](unsigned i) AMCL_INLINE { return dfin(vread64(w, in, i, lane, true), i); };
      double r;
      switch (in.op) {
      case Op::v_div_fixup_f64: r = div_fixup(D(0), D(1), D(2), -1075); break;
      case Op::v_div_fmas_f64: {
        // As for f32, one rounding for fma and scaling. Without VCC a plain fma: x87's 64-bit
        // long double would round twice (fma(0x1p-53, 1 + 0x1p-27, 1) gave 1, not 1 + 2^-52).
        // With it, the product is exact in binary128 and the sum is rounded to 113 bits before
        // the one rounding to double, after the (exact) scaling.
        if (!((carry_in >> lane) & 1)) {
          r = std::fma(D(0), D(1), D(2));
          break;
        }
        Quad f = Quad(D(0)) * Quad(D(1)) + Quad(D(2));
        f *= exponent_of(D(2)) >= 1023 ? Quad(0x1p128) : Quad(0x1p-128);
        r = double(f);
        break;
      }
      case Op::v_div_scale_f64: {
        bool v;
        r = div_scale(D(0), D(1), D(2), v, 768, 128, 53);
        carry_mask |= uint32_t(v) << lane;
        break;
      }
      case Op::v_ldexp_f64: r = std::ldexp(D(0), int32_t(b())); break;
      case Op::v_trunc_f64: r = std::trunc(D(0)); break;
      case Op::v_ceil_f64: r = std::ceil(D(0)); break;
      case Op::v_rndne_f64: r = std::nearbyint(D(0)); break;
      case Op::v_floor_f64: r = std::floor(D(0)); break;
      case Op::v_rcp_f64: r = 1.0 / D(0); break;
      case Op::v_rsq_f64: r = 1.0 / std::sqrt(D(0)); break;
      case Op::v_cvt_f64_i32: r = double(int32_t(a())); break;
      default: r = double(a()); break; // v_cvt_f64_u32
      }
      uint64_t bits = dout(r);
      d = uint32_t(bits);
      vreg(w, in.dst, lane, 1) = uint32_t(bits >> 32);
      break;
    }
    case Op::v_cvt_i32_f64: case Op::v_cvt_u32_f64: {
      double x = dfin(vread64(w, in, 0, lane, true), 0);
      if (in.op == Op::v_cvt_i32_f64)
        d = std::isnan(x) ? 0 : uint32_t(int32_t(std::clamp(x, -2147483648.0, 2147483647.0)));
      else
        d = std::isnan(x) ? 0 : uint32_t(std::clamp(x, 0.0, 4294967295.0));
      break;
    }
    case Op::v_fma_f32: d = fout(std::fma(fa(), fb(), fc())); break;
    case Op::v_fmac_f32: d = fout(std::fma(fa(), fb(), flush(f32(d), ftz))); break;
    case Op::v_fmamk_f32: d = fout(std::fma(fa(), f32(in.literal), fin(b(), 1))); break;
    case Op::v_fmaak_f32: d = fout(std::fma(fa(), fb(), f32(in.literal))); break;
    case Op::v_min_f32: d = fout(fmin_ieee(fa(), fb())); break;
    case Op::v_max_f32: d = fout(fmax_ieee(fa(), fb())); break;
    case Op::v_min3_f32: d = fout(fmin_ieee(fmin_ieee(fa(), fb()), fc())); break;
    case Op::v_max3_f32: d = fout(fmax_ieee(fmax_ieee(fa(), fb()), fc())); break;
    case Op::v_med3_f32: {
      float x = fa(), y = fb(), z = fc();
      d = fout(fmax_ieee(fmin_ieee(x, y), fmin_ieee(fmax_ieee(x, y), z)));
      break;
    }
    case Op::v_ldexp_f32: d = fout(std::ldexp(fa(), int32_t(b()))); break;
    case Op::v_mul_i32_i24:
      d = uint32_t(int32_t(a() << 8) >> 8) * uint32_t(int32_t(b() << 8) >> 8); break;
    case Op::v_mul_u32_u24: d = (a() & 0xffffff) * (b() & 0xffffff); break;
    case Op::v_mad_u32_u24: d = (a() & 0xffffff) * (b() & 0xffffff) + c(); break;
    case Op::v_min_i32: d = uint32_t(std::min(int32_t(a()), int32_t(b()))); break;
    case Op::v_max_i32: d = uint32_t(std::max(int32_t(a()), int32_t(b()))); break;
    case Op::v_min_u32: d = std::min(a(), b()); break;
    case Op::v_max_u32: d = std::max(a(), b()); break;
    case Op::v_lshlrev_b32: d = b() << (a() & 31); break;
    case Op::v_lshrrev_b32: d = b() >> (a() & 31); break;
    case Op::v_ashrrev_i32: d = uint32_t(int32_t(b()) >> (a() & 31)); break;
    case Op::v_and_b32: d = a() & b(); break;
    case Op::v_or_b32: d = a() | b(); break;
    case Op::v_xor_b32: d = a() ^ b(); break;
    case Op::v_xnor_b32: d = ~(a() ^ b()); break;
    case Op::v_not_b32: d = ~a(); break;
    case Op::v_bfrev_b32: {
      uint32_t v = a(), r = 0;
      for (int i = 0; i < 32; ++i) r |= ((v >> i) & 1u) << (31 - i);
      d = r; break;
    }
    case Op::v_clz_i32_u32: { uint32_t v = a(); d = v ? uint32_t(std::countl_zero(v)) : ~0u; break; }
    case Op::v_cls_i32: d = leading_sign_bits(a()); break;
    case Op::v_ctz_i32_b32: { uint32_t v = a(); d = v ? uint32_t(std::countr_zero(v)) : ~0u; break; }
    // With VOP3's clamp bit the unsigned add/sub saturate.
    case Op::v_add_nc_u32: {
      uint64_t r = uint64_t(a()) + b();
      d = in.clamp && r > 0xffffffffu ? 0xffffffffu : uint32_t(r); break;
    }
    case Op::v_sub_nc_u32: case Op::v_subrev_nc_u32: {
      uint32_t x = a(), y = b();
      if (in.op == Op::v_subrev_nc_u32) std::swap(x, y);
      d = in.clamp && y > x ? 0 : x - y; break;
    }
    case Op::v_add_co_u32: {
      uint64_t r = uint64_t(a()) + b(); d = uint32_t(r);
      carry_mask |= uint32_t(r >> 32) << lane; break;
    }
    case Op::v_sub_co_u32: {
      uint32_t x = a(), y = b(); d = x - y; carry_mask |= uint32_t(y > x) << lane; break;
    }
    case Op::v_subrev_co_u32: {
      uint32_t x = b(), y = a(); d = x - y; carry_mask |= uint32_t(y > x) << lane; break;
    }
    case Op::v_add_co_ci_u32: {
      uint64_t r = uint64_t(a()) + b() + ((carry_in >> lane) & 1); d = uint32_t(r);
      carry_mask |= uint32_t(r >> 32) << lane; break;
    }
    case Op::v_sub_co_ci_u32: {
      uint64_t x = a(), y = uint64_t(b()) + ((carry_in >> lane) & 1);
      d = uint32_t(x - y); carry_mask |= uint32_t(y > x) << lane; break;
    }
    case Op::v_subrev_co_ci_u32: {
      uint64_t x = b(), y = uint64_t(a()) + ((carry_in >> lane) & 1);
      d = uint32_t(x - y); carry_mask |= uint32_t(y > x) << lane; break;
    }
    case Op::v_mad_u64_u32: case Op::v_mad_i64_i32: {
      uint64_t acc = vread64(w, in, 2, lane, false);
      bool carry;
      uint64_t r;
      if (in.op == Op::v_mad_u64_u32) {
        uint64_t p = uint64_t(a()) * uint64_t(b());
        r = p + acc;
        carry = r < p;
      } else {
        int64_t p = int64_t(int32_t(a())) * int64_t(int32_t(b()));
        int64_t sr;
        carry = __builtin_add_overflow(p, int64_t(acc), &sr);
        r = uint64_t(sr);
      }
      d = uint32_t(r); vreg(w, in.dst, lane, 1) = uint32_t(r >> 32);
      carry_mask |= uint32_t(carry) << lane; break;
    }
    case Op::v_mul_lo_u32: d = a() * b(); break;
    case Op::v_mul_hi_u32: d = uint32_t((uint64_t(a()) * b()) >> 32); break;
    case Op::v_mul_hi_i32: d = uint32_t(uint64_t(int64_t(int32_t(a())) * int32_t(b())) >> 32); break;
    case Op::v_bfe_u32: {
      uint32_t off = b() & 31, width = c() & 31;
      d = width ? (a() >> off) & ((1u << width) - 1) : 0; break;
    }
    case Op::v_bfe_i32: {
      uint32_t off = b() & 31, width = c() & 31;
      d = width ? uint32_t(int32_t(((a() >> off) & ((1u << width) - 1)) << (32 - width)) >> (32 - width)) : 0;
      break;
    }
    case Op::v_bfi_b32: d = (a() & b()) | (~a() & c()); break;
    case Op::v_alignbit_b32: d = uint32_t(((uint64_t(a()) << 32) | b()) >> (c() & 31)); break;
    case Op::v_perm_b32: {
      uint64_t bytes = (uint64_t(a()) << 32) | b();
      uint32_t sel = c(), r = 0;
      for (int i = 0; i < 4; ++i) {
        uint32_t s = (sel >> (8 * i)) & 0xff, v;
        if (s < 8) v = uint32_t(bytes >> (8 * s)) & 0xff;
        else if (s == 12) v = 0;
        else if (s >= 13) v = 0xff;
        else { // sign-replicate bytes 1,3,5,7
          unsigned src_byte = 2 * (s - 8) + 1;
          v = ((bytes >> (8 * src_byte + 7)) & 1) ? 0xff : 0;
        }
        r |= v << (8 * i);
      }
      d = r; break;
    }
    case Op::v_xad_u32: d = (a() ^ b()) + c(); break;
    case Op::v_lshl_add_u32: d = (a() << (b() & 31)) + c(); break;
    case Op::v_add_lshl_u32: d = (a() + b()) << (c() & 31); break;
    case Op::v_add3_u32: d = a() + b() + c(); break;
    case Op::v_lshl_or_b32: d = (a() << (b() & 31)) | c(); break;
    case Op::v_and_or_b32: d = (a() & b()) | c(); break;
    case Op::v_or3_b32: d = a() | b() | c(); break;
    case Op::v_lshlrev_b64: case Op::v_lshrrev_b64: case Op::v_ashrrev_i64: {
      unsigned sh = a() & 63;
      uint64_t v = vread64(w, in, 1, lane, false), r;
      r = in.op == Op::v_lshlrev_b64 ? v << sh
        : in.op == Op::v_lshrrev_b64 ? v >> sh : uint64_t(int64_t(v) >> sh);
      d = uint32_t(r); vreg(w, in.dst, lane, 1) = uint32_t(r >> 32); break;
    }
    case Op::v_add_f64: case Op::v_mul_f64: case Op::v_min_f64: case Op::v_max_f64:
    case Op::v_fma_f64: {
      double x = dfin(vread64(w, in, 0, lane, true), 0), y = dfin(vread64(w, in, 1, lane, true), 1);
      double r;
      switch (in.op) {
      case Op::v_add_f64: r = x + y; break;
      case Op::v_mul_f64: r = x * y; break;
      case Op::v_min_f64: r = fmin_ieee(x, y); break;
      case Op::v_max_f64: r = fmax_ieee(x, y); break;
      default: r = std::fma(x, y, dfin(vread64(w, in, 2, lane, true), 2)); break;
      }
      uint64_t bits = dout(r);
      d = uint32_t(bits); vreg(w, in.dst, lane, 1) = uint32_t(bits >> 32); break;
    }
    case Op::v_cvt_f32_i32: d = fout(float(int32_t(a()))); break;
    case Op::v_cvt_f32_u32: d = fout(float(a())); break;
    case Op::v_cvt_u32_f32: d = cvt_f32_to_u32(fa()); break;
    case Op::v_cvt_i32_f32: d = uint32_t(cvt_f32_to_i32(fa())); break;
    case Op::v_cvt_f32_ubyte0: d = fout(float(a() & 0xff)); break;
    case Op::v_cvt_f32_f64: d = fout(float(dfin(vread64(w, in, 0, lane, true), 0))); break;
    case Op::v_cvt_f64_f32: {
      uint64_t bits = dout(double(fa()));
      d = uint32_t(bits); vreg(w, in.dst, lane, 1) = uint32_t(bits >> 32); break;
    }
    case Op::v_fract_f32: {
      float x = fa();
      d = fout(std::isinf(x) ? std::numeric_limits<float>::quiet_NaN()
                             : std::fmin(x - std::floor(x), 0x1.fffffep-1f));
      break;
    }
    case Op::v_trunc_f32: d = fout(std::trunc(fa())); break;
    case Op::v_ceil_f32: d = fout(std::ceil(fa())); break;
    case Op::v_rndne_f32: d = fout(std::nearbyint(fa())); break;
    case Op::v_floor_f32: d = fout(std::floor(fa())); break;
    case Op::v_exp_f32: d = fout(std::exp2(fa())); break;
    case Op::v_log_f32: d = fout(std::log2(fa())); break;
    case Op::v_rcp_f32: d = fout(1.0f / fa()); break;
    // The manual gives both reciprocals 1 ULP; which way the hardware errs is not public. LLVM's
    // integer division by a float reciprocal (AMDGPUCodeGenPrepare's 24-bit expansion: q =
    // trunc(a * rcp(b)), corrected only upwards) needs v_rcp_iflag never above 1/b: correctly
    // rounded, 16390079 % 48 comes out as -1. Modelled as rounded toward zero.
    case Op::v_rcp_iflag_f32: d = fout(rcp_toward_zero(fa())); break;
    case Op::v_rsq_f32: d = fout(1.0f / std::sqrt(fa())); break;
    case Op::v_sqrt_f32: d = fout(std::sqrt(fa())); break;
    // v_sin/v_cos take their input in revolutions (x * 2pi radians).
    case Op::v_sin_f32: d = fout(float(std::sin(double(fa()) * 6.283185307179586))); break;
    case Op::v_cos_f32: d = fout(float(std::cos(double(fa()) * 6.283185307179586))); break;
    default: exec_valu_extra(w, in); return; // every lane, or a fault naming the operation
    }
  }
  const bool writes_carry = in.format == Format::VOP3SD || in.op == Op::v_add_co_ci_u32 ||
                            in.op == Op::v_div_scale_f32 || in.op == Op::v_div_scale_f64 ||
                            in.op == Op::v_sub_co_ci_u32 || in.op == Op::v_subrev_co_ci_u32;
  if (writes_carry) mask_write(w, in.sdst, carry_mask);
}

// DPP (RDNA3 ISA manual, "Data Parallel Processing"): lane l reads src0 from a source lane of
// its row of 16 (DPP16) or group of 8 (DPP8). A DPP16 source lane outside the row, or disabled
// in EXEC without FI, is invalid: BOUND_CTRL makes it read 0, else the lane is not written;
// ROW_MASK and BANK_MASK (rows of 16, banks of 4 lanes) also leave lanes unwritten. DPP8 reads a
// disabled lane as 0 unless FI. Model: the sources land in a staging VGPR past the wave's own,
// and the plain instruction runs with EXEC limited to the lanes DPP writes.
void Executor::exec_dpp(Wave& w, const Inst& in) {
  const uint32_t exec = w.exec();
  const Dpp& d = in.dpp;
  const unsigned staging = w.num_vgprs; // the row allocate_vgprs keeps past the wave's own
  const bool dpp8 = d.kind != DppKind::Dpp16;
  uint32_t write = 0;
  for (unsigned lane = 0; lane < kWaveSize; ++lane) {
    if (!((exec >> lane) & 1)) continue;
    unsigned src = lane;
    bool valid = true;
    if (dpp8) {
      src = (lane & ~7u) | ((d.sel8 >> (3 * (lane & 7))) & 7);
    } else {
      if (!((d.row_mask >> (w.lane_id(lane) >> 4)) & 1) || !((d.bank_mask >> ((lane >> 2) & 3)) & 1))
        continue;
      const unsigned c = d.ctrl, n = c & 15, row = lane & ~15u, in_row = lane & 15;
      if (c <= 0xff) src = (lane & ~3u) | ((c >> (2 * (lane & 3))) & 3);
      else if ((c & ~15u) == 0x100 && n) valid = in_row + n < 16, src = lane + n;   // row_shl
      else if ((c & ~15u) == 0x110 && n) valid = in_row >= n, src = lane - n;       // row_shr
      else if ((c & ~15u) == 0x120 && n) src = row | ((in_row - n) & 15);           // row_ror
      else if (c == 0x140) src = row | (15 - in_row);                               // row_mirror
      else if (c == 0x141) src = (lane & ~7u) | (7 - (lane & 7));                   // row_half_mirror
      else if ((c & ~15u) == 0x150) src = row | n;                                  // row_share
      else if ((c & ~15u) == 0x160) src = row | (in_row ^ n);                       // row_xmask
      else fault(w, in, "DPP control " + hex(c) + " does not exist on gfx11");
    }
    if (valid && !((exec >> src) & 1) && !(dpp8 ? d.kind == DppKind::Dpp8Fi : d.fi)) valid = false;
    uint32_t value = 0;
    if (valid) value = vreg(w, in.src[0], src);
    else if (!dpp8 && !d.bound_ctrl) continue;
    w.vrow[staging * kWaveSize + lane] = value;
    write |= 1u << lane;
  }
  Inst plain = in;
  plain.dpp = Dpp{};
  plain.src[0] = uint16_t(src::kVgpr0 + staging);
  uint32_t& exec_reg = w.sgpr[src::kExecLo + w.half];
  w.num_vgprs = staging + 1;
  exec_reg = write;
  try {
    if (in.format == Format::VOPC) exec_vopc(w, plain);
    else if (in.format == Format::VOP3P) exec_vop3p(w, plain);
    else exec_valu(w, plain);
  } catch (...) {
    w.num_vgprs = staging;
    exec_reg = exec;
    throw;
  }
  w.num_vgprs = staging;
  if (!(in.format == Format::VOPC && in.cmpx)) exec_reg = exec; // v_cmpx sets EXEC
}

void Executor::exec_vopc(Wave& w, const Inst& in) {
  if (fast_paths && exec_vopc_fast(w, in)) return;
  const unsigned pred = unsigned(in.imm);
  const uint32_t exec = w.exec();
  auto half_src = [&](unsigned i, unsigned lane) { return read_half(w, in, i, lane); };
  auto mods = [&](auto x, unsigned i) {
    if (in.abs & (1u << i)) x = std::fabs(x);
    if (in.neg & (1u << i)) x = -x;
    return x;
  };
  uint32_t mask = 0;
  for (unsigned lane = 0; lane < kWaveSize; ++lane) {
    if (!((exec >> lane) & 1)) continue;
    bool r;
    switch (in.op) {
    case Op::v_cmp_f16:
      r = compare_f(pred, mods(h2f(half_src(0, lane)), 0), mods(h2f(half_src(1, lane)), 1)); break;
    case Op::v_cmp_f32:
      r = compare_f(pred, mods(f32(vread(w, in, 0, lane)), 0), mods(f32(vread(w, in, 1, lane)), 1)); break;
    case Op::v_cmp_f64:
      r = compare_f(pred, mods(f64(vread64(w, in, 0, lane, true)), 0),
                    mods(f64(vread64(w, in, 1, lane, true)), 1));
      break;
    case Op::v_cmp_i16: r = compare_i(pred, int16_t(half_src(0, lane)), int16_t(half_src(1, lane))); break;
    case Op::v_cmp_u16: r = compare_i(pred, half_src(0, lane), half_src(1, lane)); break;
    case Op::v_cmp_i32: r = compare_i(pred, int32_t(vread(w, in, 0, lane)), int32_t(vread(w, in, 1, lane))); break;
    case Op::v_cmp_u32: r = compare_i(pred, vread(w, in, 0, lane), vread(w, in, 1, lane)); break;
    case Op::v_cmp_i64:
      r = compare_i(pred, int64_t(vread64(w, in, 0, lane, false)), int64_t(vread64(w, in, 1, lane, false)));
      break;
    case Op::v_cmp_u64: r = compare_i(pred, vread64(w, in, 0, lane, false), vread64(w, in, 1, lane, false)); break;
    case Op::v_cmp_class_f16: {
      uint16_t x = half_src(0, lane);
      r = (half_src(1, lane) >> fp_class(mods(h2f(x), 0), snan16(x))) & 1;
      break;
    }
    case Op::v_cmp_class_f32: {
      uint32_t x = vread(w, in, 0, lane);
      r = (vread(w, in, 1, lane) >> fp_class(mods(f32(x), 0), snan32(x))) & 1;
      break;
    }
    case Op::v_cmp_class_f64: {
      uint64_t x = vread64(w, in, 0, lane, true);
      r = (vread(w, in, 1, lane) >> fp_class(mods(f64(x), 0), snan64(x))) & 1;
      break;
    }
    default: fault(w, in, "unimplemented comparison");
    }
    mask |= uint32_t(r) << lane;
  }
  mask_write(w, in.cmpx ? src::kExecLo : in.sdst, mask);
}

// VOP3P: packed 16-bit math (op_sel / op_sel_hi pick each half's sources) and mixed
// precision FMA (op_sel_hi says which sources are f16, op_sel which half).
void Executor::exec_vop3p(Wave& w, const Inst& in) {
  if (fast_paths && exec_vop3p_fast(w, in)) return;
  const uint32_t exec = w.exec();
  const bool mix = in.op == Op::v_fma_mix_f32 || in.op == Op::v_fma_mixlo_f16 ||
                   in.op == Op::v_fma_mixhi_f16;
  for (unsigned lane = 0; lane < kWaveSize; ++lane) {
    if (!((exec >> lane) & 1)) continue;
    uint32_t v[3];
    for (unsigned i = 0; i < 3; ++i) {
      uint16_t code = in.src[i];
      // Inline float constants are packed halves, except where the operand is an f32 (the
      // mixed-precision forms, and dot2's accumulator).
      const bool int_dot = in.op == Op::v_dot4_i32_iu8 || in.op == Op::v_dot4_u32_u8 ||
                           in.op == Op::v_dot8_i32_iu4 || in.op == Op::v_dot8_u32_u4;
      const bool f32_operand = mix || int_dot ||
                               ((in.op == Op::v_dot2_f32_f16 || in.op == Op::v_dot2_f32_bf16) && i == 2);
      if (code >= src::kFloatHalf && code <= src::kFloatInv2Pi && !f32_operand)
        v[i] = kInlineF16[code - 240] | (uint32_t(kInlineF16[code - 240]) << 16);
      else
        v[i] = vread(w, in, i, lane);
    }
    uint32_t& d = vreg(w, in.dst, lane);
    if (mix) {
      auto arg = [&](unsigned i) {
        double x = (in.opsel_hi >> i) & 1 ? h2f(uint16_t((in.opsel >> i) & 1 ? v[i] >> 16 : v[i]))
                                          : f32(v[i]);
        if (in.neg_hi & (1u << i)) x = std::fabs(x);
        if (in.neg & (1u << i)) x = -x;
        return x;
      };
      double r = std::fma(arg(0), arg(1), arg(2));
      if (in.clamp) r = clamp01(r);
      if (in.op == Op::v_fma_mix_f32) d = u32(float(r));
      else if (in.op == Op::v_fma_mixlo_f16) d = (d & 0xffff0000u) | f2h(r);
      else d = (d & 0xffffu) | (uint32_t(f2h(r)) << 16);
      continue;
    }
    auto half = [&](unsigned i, bool hi) {
      bool sel = hi ? (in.opsel_hi >> i) & 1 : (in.opsel >> i) & 1;
      return uint16_t(sel ? v[i] >> 16 : v[i]);
    };
    auto fhalf = [&](unsigned i, bool hi) {
      float x = h2f(half(i, hi));
      if (((hi ? in.neg_hi : in.neg) >> i) & 1) x = -x;
      return x;
    };
    // Integer dot products of bytes or nibbles (RDNA3 ISA manual, V_DOT4_I32_IU8 ...): the iu
    // forms' neg_lo[0] and neg_lo[1] say whether src0's and src1's elements are signed; clamp
    // saturates the 32-bit sum.
    if (in.op == Op::v_dot4_i32_iu8 || in.op == Op::v_dot4_u32_u8 || in.op == Op::v_dot8_i32_iu4 ||
        in.op == Op::v_dot8_u32_u4) {
      const bool nibbles = in.op == Op::v_dot8_i32_iu4 || in.op == Op::v_dot8_u32_u4;
      const bool iu = in.op == Op::v_dot4_i32_iu8 || in.op == Op::v_dot8_i32_iu4;
      const unsigned bits = nibbles ? 4 : 8, n = 32 / bits;
      auto elem = [&](uint32_t word, unsigned k, bool sign) {
        const uint32_t e = (word >> (k * bits)) & ((1u << bits) - 1);
        return sign ? int64_t(int32_t(e << (32 - bits)) >> (32 - bits)) : int64_t(e);
      };
      int64_t sum = iu ? int64_t(int32_t(v[2])) : int64_t(v[2]);
      for (unsigned k = 0; k < n; ++k)
        sum += elem(v[0], k, iu && (in.neg & 1)) * elem(v[1], k, iu && (in.neg & 2));
      if (in.clamp)
        sum = iu ? std::clamp<int64_t>(sum, INT32_MIN, INT32_MAX) : std::clamp<int64_t>(sum, 0, UINT32_MAX);
      d = uint32_t(sum);
      continue;
    }
    if (in.op == Op::v_dot2_f32_bf16) { // bf16 pairs (the high halves of f32s) into an f32
      auto bf = [&](unsigned i, bool hi) {
        float x = f32(uint32_t(half(i, hi)) << 16);
        if (((hi ? in.neg_hi : in.neg) >> i) & 1) x = -x;
        return x;
      };
      const long double r = (long double)bf(0, false) * bf(1, false) +
                            (long double)bf(0, true) * bf(1, true) + f32(v[2]);
      d = u32(float(in.clamp ? clamp01(r) : r));
      continue;
    }
    if (in.op == Op::v_dot2_f32_f16) { // f16 pairs multiplied and summed into an f32
      const long double r = (long double)fhalf(0, false) * fhalf(1, false) +
                            (long double)fhalf(0, true) * fhalf(1, true) + f32(v[2]);
      d = u32(float(in.clamp ? clamp01(r) : r));
      continue;
    }
    uint16_t out[2];
    for (int hi = 0; hi < 2; ++hi) {
      uint16_t x = half(0, hi), y = half(1, hi);
      switch (in.op) {
      case Op::v_pk_mul_lo_u16: out[hi] = uint16_t(x * y); break;
      // With the clamp bit, additions and subtractions saturate.
      case Op::v_pk_add_u16: {
        const uint32_t r = uint32_t(x) + y;
        out[hi] = uint16_t(in.clamp && r > 0xffff ? 0xffff : r); break;
      }
      case Op::v_pk_sub_u16: out[hi] = uint16_t(in.clamp && y > x ? 0 : x - y); break;
      case Op::v_pk_add_i16: case Op::v_pk_sub_i16: {
        int32_t r = in.op == Op::v_pk_add_i16 ? int32_t(int16_t(x)) + int16_t(y) : int32_t(int16_t(x)) - int16_t(y);
        if (in.clamp) r = std::clamp(r, -32768, 32767);
        out[hi] = uint16_t(r); break;
      }
      case Op::v_pk_max_i16: out[hi] = uint16_t(std::max(int16_t(x), int16_t(y))); break;
      case Op::v_pk_min_i16: out[hi] = uint16_t(std::min(int16_t(x), int16_t(y))); break;
      case Op::v_pk_max_u16: out[hi] = std::max(x, y); break;
      case Op::v_pk_min_u16: out[hi] = std::min(x, y); break;
      case Op::v_pk_mad_u16: {
        const uint32_t r = uint32_t(x) * y + half(2, hi);
        out[hi] = uint16_t(in.clamp && r > 0xffff ? 0xffff : r); break;
      }
      case Op::v_pk_mad_i16: {
        int32_t r = int32_t(int16_t(x)) * int16_t(y) + int16_t(half(2, hi));
        if (in.clamp) r = std::clamp(r, -32768, 32767);
        out[hi] = uint16_t(r); break;
      }
      case Op::v_pk_max_f16: out[hi] = f2h(fmax_ieee(fhalf(0, hi), fhalf(1, hi))); break;
      // gfx12: IEEE 754-2019 minimum/maximum (NaN in, NaN out; -0 below +0).
      case Op::v_pk_minimum_f16: out[hi] = f2h(fminimum(fhalf(0, hi), fhalf(1, hi))); break;
      case Op::v_pk_maximum_f16: out[hi] = f2h(fmaximum(fhalf(0, hi), fhalf(1, hi))); break;
      case Op::v_pk_min_f16: out[hi] = f2h(fmin_ieee(fhalf(0, hi), fhalf(1, hi))); break;
      case Op::v_pk_lshlrev_b16: out[hi] = uint16_t(y << (x & 15)); break;
      case Op::v_pk_lshrrev_b16: out[hi] = uint16_t(y >> (x & 15)); break;
      case Op::v_pk_ashrrev_i16: out[hi] = uint16_t(int16_t(y) >> (x & 15)); break;
      case Op::v_pk_add_f16: out[hi] = f2h(double(fhalf(0, hi)) + fhalf(1, hi)); break;
      case Op::v_pk_mul_f16: out[hi] = f2h(double(fhalf(0, hi)) * fhalf(1, hi)); break;
      case Op::v_pk_fma_f16: out[hi] = f2h_exact(fma_exact(fhalf(0, hi), fhalf(1, hi), fhalf(2, hi))); break;
      default: fault(w, in, "unimplemented packed instruction");
      }
    }
    d = out[0] | (uint32_t(out[1]) << 16);
  }
}

// One half of a VOPD pair for one lane; `acc` is the destination's old value (fmac).
static uint32_t dual_lane(Op op, uint32_t a, uint32_t b, uint32_t acc, uint32_t literal,
                          bool vcc, bool ftz) {
  auto F = [&](uint32_t x) { return flush(f32(x), ftz); };
  auto R = [&](float r) { return u32(flush(r, ftz)); };
  switch (op) {
  case Op::v_fmac_f32: return R(std::fma(F(a), F(b), F(acc)));
  case Op::v_fmaak_f32: return R(std::fma(F(a), F(b), f32(literal)));
  case Op::v_fmamk_f32: return R(std::fma(F(a), f32(literal), F(b)));
  case Op::v_mul_f32: return R(F(a) * F(b));
  case Op::v_add_f32: return R(F(a) + F(b));
  case Op::v_sub_f32: return R(F(a) - F(b));
  case Op::v_subrev_f32: return R(F(b) - F(a));
  case Op::v_mul_dx9_zero_f32: return R(fmul_dx9_zero(F(a), F(b)));
  case Op::v_mov_b32: return a;
  case Op::v_cndmask_b32: return vcc ? b : a;
  case Op::v_max_f32: return R(fmax_ieee(F(a), F(b)));
  case Op::v_min_f32: return R(fmin_ieee(F(a), F(b)));
  case Op::v_add_nc_u32: return a + b;
  case Op::v_lshlrev_b32: return b << (a & 31);
  case Op::v_and_b32: return a & b;
  // D.f32 += S0[15:0] * S1[15:0] + S0[31:16] * S1[31:16] on f16 or bf16 halves: the products
  // are exact in double; their sum with the accumulator is taken in long double, then rounded
  // to f32 (as the VOP2 form in valu_extra.cpp).
  case Op::v_dot2acc_f32_f16: case Op::v_dot2acc_f32_bf16: {
    const bool bf = op == Op::v_dot2acc_f32_bf16;
    auto half = [&](uint32_t v, bool hi) {
      const uint16_t h = uint16_t(hi ? v >> 16 : v);
      return bf ? double(f32(uint32_t(h) << 16)) : double(h2f(h));
    };
    const long double r = (long double)(half(a, false) * half(b, false)) +
                          (long double)(half(a, true) * half(b, true)) + F(acc);
    return R(float(r));
  }
  default: throw ShaderFault("unimplemented VOPD operation " + std::string(op_info(op).name));
  }
}

void Executor::exec_vopd(Wave& w, const Inst& in) {
  if (fast_paths && exec_vopd_fast(w, in)) return;
  const uint32_t exec = w.exec(), vcc = w.vcc();
  auto src = [&](uint16_t code, unsigned lane) {
    return code >= src::kVgpr0 ? vreg(w, code, lane) : sread(w, in, code);
  };
  for (unsigned lane = 0; lane < kWaveSize; ++lane) {
    if (!((exec >> lane) & 1)) continue;
    const bool v = (vcc >> lane) & 1;
    // Both halves read their sources before either writes.
    uint32_t x = dual_lane(in.op, src(in.src[0], lane), src(in.src[1], lane), vreg(w, in.dst, lane),
                           in.literal, v, w.flush_f32_denorms);
    uint32_t y = dual_lane(in.op_y, src(in.src_y[0], lane), src(in.src_y[1], lane),
                           vreg(w, in.dst_y, lane), in.literal, v, w.flush_f32_denorms);
    vreg(w, in.dst, lane) = x;
    vreg(w, in.dst_y, lane) = y;
  }
}

// ---------------------------------------------------------------- memory

// Private (scratch) memory is swizzled: dword k of a lane's private space lives at
// wave base + (k * wave size + lane) * 4, so the lanes' same dword is contiguous (PrivatePort).
void Executor::exec_scratch(Wave& w, const Inst& in) {
  const uint32_t exec = w.exec();
  const uint32_t sbase = in.soffset != src::kNull ? sread(w, in, in.soffset) : 0;
  PrivatePort lane_memory(memory_, w);
  for (unsigned lane = 0; lane < kWaveSize; ++lane) {
    if (!((exec >> lane) & 1)) continue;
    const uint32_t off =
        sbase + uint32_t(in.imm) + (in.src[0] != src::kNull ? vreg(w, in.src[0], lane) : 0);
    lane_memory.lane = w.lane_id(lane);
    try {
      flat_lane(w, in, lane_memory, off, lane);
    } catch (const ApertureFault& f) {
      fault(w, in, f.what());
    } catch (const MemoryFault& f) {
      throw ShaderFault(std::string(f.what()) + " at pc " + hex(w.pc) + " (" + disassemble(in) + ")",
                        f.address, f.write);
    }
  }
}

void Executor::exec_flat(Wave& w, const Inst& in) {
  if (in.op == Op::inv || in.op == Op::wb) return; // gfx12 cache control: coherent in the model
  if (in.segment == Segment::Scratch) return exec_scratch(w, in);
  const OpInfo& info = op_info(in.op);
  const uint32_t exec = w.exec();
  const bool saddr = in.segment == Segment::Global && in.soffset != src::kNull;
  const uint64_t sbase =
      saddr ? uint64_t(w.sgpr[in.soffset]) | (uint64_t(w.sgpr[in.soffset + 1]) << 32) : 0;
  if (fast_paths && in.segment == Segment::Global && exec_global_dwords(w, in, exec, saddr, sbase))
    return;
  if (fast_paths && exec_vmem_fast(w, in, exec, saddr, sbase)) return;
  const unsigned align_unit = std::min(flat_access_bytes(in.op, info), 4u);
  LdsPort lds(lds_);
  PrivatePort lane_private(memory_, w);
  for (unsigned lane = 0; lane < kWaveSize; ++lane) {
    if (!((exec >> lane) & 1)) continue;
    uint64_t addr = saddr ? sbase + vreg(w, in.src[0], lane)
                          : uint64_t(vreg(w, in.src[0], lane)) |
                                (uint64_t(vreg(w, in.src[0], lane, 1)) << 32);
    addr += uint64_t(int64_t(in.imm));
    if (addr & (align_unit - 1)) addr = misaligned_address(w, in, addr, align_unit);
    // A flat address in the shared or private aperture reaches LDS or the lane's private memory.
    MemoryPort* mem = &memory_;
    if (in.segment == Segment::Flat) {
      if (w.shared_aperture && (addr >> 48) == (w.shared_aperture >> 48)) {
        mem = &lds;
        addr = uint32_t(addr);
      } else if (w.private_aperture && (addr >> 48) == (w.private_aperture >> 48)) {
        lane_private.lane = w.lane_id(lane);
        mem = &lane_private;
        addr = uint32_t(addr);
      }
    }
    try {
      flat_lane(w, in, *mem, addr, lane);
    } catch (const ApertureFault& f) {
      fault(w, in, f.what());
    } catch (const MemoryFault& f) {
      throw ShaderFault(std::string(f.what()) + " at pc " + hex(w.pc) + " (" + disassemble(in) + ")",
                        f.address, f.write);
    }
  }
}

// One lane's FLAT/GLOBAL/SCRATCH access at `addr` of `mem` (global memory, the LDS or the lane's
// private memory).
void Executor::flat_lane(Wave& w, const Inst& in, MemoryPort& mem, uint64_t addr, unsigned lane) {
  const OpInfo& info = op_info(in.op);
  switch (in.op) {
  case Op::load_u8:
  case Op::load_i8: {
    uint8_t v;
    mem.read(addr, &v, 1);
    vreg(w, in.dst, lane) = in.op == Op::load_i8 ? uint32_t(int32_t(int8_t(v))) : v;
    break;
  }
  case Op::load_u16:
  case Op::load_i16: {
    uint16_t v;
    mem.read(addr, &v, 2);
    vreg(w, in.dst, lane) = in.op == Op::load_i16 ? uint32_t(int32_t(int16_t(v))) : v;
    break;
  }
  // d16 loads fill the low half (the _hi forms: the high half) and keep the other half; bytes
  // are zero- or sign-extended to 16 bits.
  case Op::load_d16_u8:
  case Op::load_d16_i8:
  case Op::load_d16_b16:
  case Op::load_d16_hi_u8:
  case Op::load_d16_hi_i8:
  case Op::load_d16_hi_b16: {
    uint16_t v = 0;
    if (in.op == Op::load_d16_b16 || in.op == Op::load_d16_hi_b16)
      mem.read(addr, &v, 2);
    else {
      uint8_t b;
      mem.read(addr, &b, 1);
      v = in.op == Op::load_d16_i8 || in.op == Op::load_d16_hi_i8 ? uint16_t(int16_t(int8_t(b)))
                                                                  : b;
    }
    const bool hi =
        in.op == Op::load_d16_hi_u8 || in.op == Op::load_d16_hi_i8 || in.op == Op::load_d16_hi_b16;
    uint32_t& d = vreg(w, in.dst, lane);
    d = hi ? (d & 0xffffu) | (uint32_t(v) << 16) : (d & 0xffff0000u) | v;
    break;
  }
  case Op::load_b32:
  case Op::load_b64:
  case Op::load_b96:
  case Op::load_b128: {
    uint32_t v[4];
    const unsigned n = regs_of(info.dst_dwords);
    mem.read(addr, v, 4 * n);
    for (unsigned i = 0; i < n; ++i) vreg(w, in.dst, lane, i) = v[i];
    break;
  }
  case Op::store_b8: {
    uint8_t v = uint8_t(vreg(w, in.src[1], lane));
    mem.write(addr, &v, 1);
    break;
  }
  case Op::store_b16: {
    uint16_t v = uint16_t(vreg(w, in.src[1], lane));
    mem.write(addr, &v, 2);
    break;
  }
  case Op::store_d16_hi_b8: {
    uint8_t v = uint8_t(vreg(w, in.src[1], lane) >> 16);
    mem.write(addr, &v, 1);
    break;
  }
  case Op::store_d16_hi_b16: {
    uint16_t v = uint16_t(vreg(w, in.src[1], lane) >> 16);
    mem.write(addr, &v, 2);
    break;
  }
  case Op::store_b32:
  case Op::store_b64:
  case Op::store_b96:
  case Op::store_b128: {
    uint32_t v[4];
    const unsigned n = regs_of(info.src_dwords[0]);
    for (unsigned i = 0; i < n; ++i) v[i] = vreg(w, in.src[1], lane, i);
    mem.write(addr, v, 4 * n);
    break;
  }
  default: {
    // Atomics: naturally aligned elements (whatever the alignment mode); the second data
    // operand (cmpswap's compared value) follows the first in the data VGPRs.
    const AtomicOp atomic = flat_atomic(in.op);
    if (atomic.rmw == Rmw::None) fault(w, in, "unimplemented memory instruction");
    if (addr & (atomic.bytes - 1)) fault(w, in, "misaligned atomic address " + hex(addr));
    const bool two = regs_of(info.src_dwords[0]) * 4 == 2u * atomic.bytes;
    uint8_t* p = mem.translate(addr, atomic.bytes, true);
    if (atomic.bytes == 8) {
      auto data = [&](unsigned k) {
        return uint64_t(vreg(w, in.src[1], lane, 2 * k)) |
               (uint64_t(vreg(w, in.src[1], lane, 2 * k + 1)) << 32);
      };
      const uint64_t old = atomic_rmw<uint64_t>(p, atomic.rmw, data(0), two ? data(1) : 0);
      if (in.has_vdst_data)
        vreg(w, in.dst, lane) = uint32_t(old), vreg(w, in.dst, lane, 1) = uint32_t(old >> 32);
    } else {
      const uint32_t old = atomic_rmw<uint32_t>(p, atomic.rmw, vreg(w, in.src[1], lane),
                                                two ? vreg(w, in.src[1], lane, 1) : 0);
      if (in.has_vdst_data) vreg(w, in.dst, lane) = old;
    }
    break;
  }
  }
}

// Bytes a flat/global load or store moves per lane; 1 for atomics, whose own rule (natural
// alignment, checked where they run) is not the alignment mode's.
unsigned Executor::flat_access_bytes(Op op, const OpInfo& info) {
  switch (op) {
  case Op::load_u16:
  case Op::load_i16:
  case Op::load_d16_b16:
  case Op::load_d16_hi_b16:
  case Op::store_b16:
  case Op::store_d16_hi_b16:
    return 2;
  case Op::load_b32:
  case Op::load_b64:
  case Op::load_b96:
  case Op::load_b128:
    return 4 * regs_of(info.dst_dwords);
  case Op::store_b32:
  case Op::store_b64:
  case Op::store_b96:
  case Op::store_b128:
    return 4 * regs_of(info.src_dwords[0]);
  default:
    return 1;
  }
}

// A vector memory access whose address is not a multiple of `unit` (its size, at most a dword)
// does what SH_MEM_CONFIG.ALIGNMENT_MODE of the wave's VMID says (ISA manuals, "Alignment"):
// UNALIGNED accesses the bytes asked for, DWORD silently rounds the address down, DWORD_STRICT
// and STRICT are memory violations.
uint64_t Executor::misaligned_address(const Wave& w, const Inst& in, uint64_t addr, unsigned unit) {
  switch (w.alignment_mode) {
  case am::hw::kAlignUnaligned:
    return addr;
  case am::hw::kAlignDword:
    return addr & ~uint64_t(unit - 1);
  default:
    fault(w, in,
          "misaligned address " + hex(addr) + " for a " + std::to_string(unit) +
              "-byte unit with SH_MEM_CONFIG.ALIGNMENT_MODE " + std::to_string(w.alignment_mode) +
              " (strict)");
  }
}

// The common case of the global segment: dword loads and stores whose every lane's access is
// dword aligned and inside one page. One translation and relaxed word moves per lane instead
// of the general path's splitting; anything else returns false before touching memory.
bool Executor::exec_global_dwords(Wave& w, const Inst& in, uint32_t exec, bool saddr,
                                  uint64_t sbase) {
  const bool load = in.op == Op::load_b32 || in.op == Op::load_b64 || in.op == Op::load_b96 ||
                    in.op == Op::load_b128;
  const bool store = in.op == Op::store_b32 || in.op == Op::store_b64 ||
                     in.op == Op::store_b96 || in.op == Op::store_b128;
  if (!load && !store) return false;
  const OpInfo& info = op_info(in.op);
  const unsigned n = regs_of(load ? info.dst_dwords : info.src_dwords[0]);
  uint64_t addr[kWaveSize];
  for (uint32_t m = exec; m; m &= m - 1) {
    const unsigned lane = unsigned(std::countr_zero(m));
    const uint64_t a = (saddr ? sbase + vreg(w, in.src[0], lane)
                              : uint64_t(vreg(w, in.src[0], lane)) |
                                    (uint64_t(vreg(w, in.src[0], lane, 1)) << 32)) +
                       uint64_t(int64_t(in.imm));
    if ((a & 3) || (a & 4095) + 4 * n > 4096) return false;
    addr[lane] = a;
  }
  try {
    // Neighbouring lanes mostly share a page: translate each page once.
    uint64_t page = ~0ull;
    uint8_t* host_page = nullptr;
    for (uint32_t m = exec; m; m &= m - 1) {
      const unsigned lane = unsigned(std::countr_zero(m));
      if ((addr[lane] >> 12) != page) {
        page = addr[lane] >> 12;
        host_page = memory_.translate(addr[lane] & ~uint64_t(4095), 4096, store);
      }
      auto* p = reinterpret_cast<uint32_t*>(host_page + (addr[lane] & 4095));
      for (unsigned i = 0; i < n; ++i) {
        std::atomic_ref<uint32_t> word(p[i]);
        if (load) vreg(w, in.dst, lane, i) = word.load(std::memory_order_relaxed);
        else word.store(vreg(w, in.src[1], lane, i), std::memory_order_relaxed);
      }
    }
  } catch (const MemoryFault& f) {
    throw ShaderFault(std::string(f.what()) + " at pc " + hex(w.pc) + " (" + disassemble(in) + ")",
                      f.address, f.write);
  }
  return true;
}

// The DS crossbar moves (RDNA3 ISA manual, DS_SWIZZLE_B32 / DS_PERMUTE_B32 / DS_BPERMUTE_B32):
// lanes exchange a VGPR without touching LDS, over the whole wave (both passes of a wave64).
// EXEC applies to the lanes read (an inactive source gives 0) and to the lanes written.
void Executor::exec_ds_cross_lane(Wave& w, const Inst& in) {
  const unsigned n = w.lanes();
  const uint64_t exec = w.exec_mask();
  const bool swizzle = in.op == Op::ds_swizzle_b32;
  const uint16_t data_reg = swizzle ? in.src[0] : in.src[1]; // swizzle's data sits in ADDR
  uint32_t addr[64] = {}, data[64] = {}, out[64] = {};
  for (unsigned l = 0; l < n; ++l) {
    w.select_half(l / kWaveSize);
    data[l] = vreg(w, data_reg, l % kWaveSize);
    if (!swizzle) addr[l] = vreg(w, in.src[0], l % kWaveSize);
  }
  w.select_half(0);
  auto active = [&](unsigned l) { return ((exec >> l) & 1) != 0; };
  const uint32_t offset = uint32_t(in.imm | (in.offset1 << 8));
  switch (in.op) {
  case Op::ds_swizzle_b32: {
    const uint32_t off = uint32_t(in.imm) & 0xffff;
    for (unsigned l = 0; l < n; ++l) {
      unsigned src;
      if ((off & 0xff00) == 0x8000) // QDMode: within each group of 4 lanes
        src = (l & ~3u) | ((off >> (2 * (l & 3))) & 3);
      else if (!(off & 0x8000)) // BitMode: and, or, xor masks on the lane's id within 32
        src = (l & ~31u) | ((((l & 31) & (off & 31)) | ((off >> 5) & 31)) ^ ((off >> 10) & 31));
      else
        fault(w, in, "ds_swizzle_b32 offset " + hex(off) + " (rotate/FFT mode) is not implemented");
      out[l] = active(src) ? data[src] : 0;
    }
    break;
  }
  case Op::ds_bpermute_b32: // each lane reads the lane its byte address names
    for (unsigned l = 0; l < n; ++l) {
      const unsigned src = ((addr[l] + offset) / 4) % n;
      out[l] = active(src) ? data[src] : 0;
    }
    break;
  default: // ds_permute_b32: each active lane writes the lane its byte address names
    for (unsigned l = 0; l < n; ++l)
      if (active(l)) out[((addr[l] + offset) / 4) % n] = data[l];
    break;
  }
  for (unsigned l = 0; l < n; ++l) {
    if (!active(l)) continue;
    w.select_half(l / kWaveSize);
    vreg(w, in.dst, l % kWaveSize) = out[l];
  }
  w.select_half(0);
}

void Executor::exec_ds(Wave& w, const Inst& in) {
  if (in.op == Op::ds_nop) return;
  if (in.op == Op::ds_swizzle_b32 || in.op == Op::ds_permute_b32 || in.op == Op::ds_bpermute_b32)
    return exec_ds_cross_lane(w, in);
  const OpInfo& info = op_info(in.op);
  const uint32_t exec = w.exec();
  // The plain 32-bit load and store carry most LDS traffic: their rows are resolved once and
  // the lanes run without the per-lane dispatch below (same lane order, same semantics).
  if (in.op == Op::ds_load_b32 || in.op == Op::ds_store_b32) {
    const uint32_t* address = &vreg(w, in.src[0], 0);
    const uint32_t offset = uint32_t(in.imm | (in.offset1 << 8));
    const uint64_t size = lds_.size();
    if (in.op == Op::ds_load_b32) {
      uint32_t* d = &vreg(w, in.dst, 0);
      for (uint32_t m = exec; m; m &= m - 1) {
        const unsigned lane = unsigned(std::countr_zero(m));
        uint32_t a = address[lane] + offset;
        if (a & 3) a = uint32_t(misaligned_address(w, in, a, 4));
        uint32_t v = 0; // out of range reads zero
        if (uint64_t(a) + 4 <= size) std::memcpy(&v, &lds_[a], 4);
        d[lane] = v;
      }
    } else {
      const uint32_t* data = &vreg(w, in.src[1], 0);
      for (uint32_t m = exec; m; m &= m - 1) {
        const unsigned lane = unsigned(std::countr_zero(m));
        uint32_t a = address[lane] + offset;
        if (a & 3) a = uint32_t(misaligned_address(w, in, a, 4));
        if (uint64_t(a) + 4 <= size) std::memcpy(&lds_[a], &data[lane], 4); // else discarded
      }
    }
    return;
  }
  if (fast_paths && exec_ds_atomic_fast(w, in, exec)) return;
  // Out-of-range LDS accesses are discarded (reads return zero), as on hardware. An address
  // that is not a multiple of the element's size (at most a dword) follows SH_MEM_CONFIG's
  // alignment mode, as the vector memory accesses do.
  auto at = [&](uint32_t& a, unsigned bytes) -> uint8_t* {
    const unsigned unit = std::min(bytes, 4u);
    if (a & (unit - 1)) a = uint32_t(misaligned_address(w, in, a, unit));
    return uint64_t(a) + bytes <= lds_.size() ? &lds_[a] : nullptr;
  };
  auto load = [&](uint32_t a, void* v, unsigned bytes) {
    if (uint8_t* p = at(a, bytes)) std::memcpy(v, p, bytes);
    else std::memset(v, 0, bytes);
  };
  auto store = [&](uint32_t a, const void* v, unsigned bytes) {
    if (uint8_t* p = at(a, bytes)) std::memcpy(p, v, bytes);
  };
  const bool stride64 = in.op == Op::ds_store_2addr_stride64_b32 ||
                        in.op == Op::ds_store_2addr_stride64_b64 ||
                        in.op == Op::ds_load_2addr_stride64_b32 ||
                        in.op == Op::ds_load_2addr_stride64_b64;
  for (unsigned lane = 0; lane < kWaveSize; ++lane) {
    if (!((exec >> lane) & 1)) continue;
    const uint32_t base = vreg(w, in.src[0], lane);
    const uint32_t addr = base + uint32_t(in.imm | (in.offset1 << 8));
    switch (in.op) {
    case Op::ds_store_b8: { uint8_t v = uint8_t(vreg(w, in.src[1], lane)); store(addr, &v, 1); break; }
    case Op::ds_store_b16: { uint16_t v = uint16_t(vreg(w, in.src[1], lane)); store(addr, &v, 2); break; }
    case Op::ds_store_b32: case Op::ds_store_b64: case Op::ds_store_b96: case Op::ds_store_b128: {
      uint32_t v[4];
      const unsigned n = regs_of(info.src_dwords[0]);
      for (unsigned i = 0; i < n; ++i) v[i] = vreg(w, in.src[1], lane, i);
      store(addr, v, 4 * n);
      break;
    }
    case Op::ds_load_u8: case Op::ds_load_i8: {
      uint8_t v; load(addr, &v, 1);
      vreg(w, in.dst, lane) = in.op == Op::ds_load_i8 ? uint32_t(int32_t(int8_t(v))) : v; break;
    }
    case Op::ds_load_u16: case Op::ds_load_i16: {
      uint16_t v; load(addr, &v, 2);
      vreg(w, in.dst, lane) = in.op == Op::ds_load_i16 ? uint32_t(int32_t(int16_t(v))) : v; break;
    }
    case Op::ds_load_b32: case Op::ds_load_b64: case Op::ds_load_b96: case Op::ds_load_b128: {
      uint32_t v[4];
      const unsigned n = regs_of(info.dst_dwords);
      load(addr, v, 4 * n);
      for (unsigned i = 0; i < n; ++i) vreg(w, in.dst, lane, i) = v[i];
      break;
    }
    // Two addresses: offset0/offset1 count elements (times 64 for the stride64 forms).
    case Op::ds_store_2addr_b32: case Op::ds_store_2addr_stride64_b32:
    case Op::ds_store_2addr_b64: case Op::ds_store_2addr_stride64_b64: {
      const unsigned n = regs_of(info.src_dwords[0]); // dwords per element
      const uint32_t unit = 4 * n * (stride64 ? 64 : 1);
      uint32_t v0[2], v1[2];
      for (unsigned i = 0; i < n; ++i) v0[i] = vreg(w, in.src[1], lane, i), v1[i] = vreg(w, in.src[2], lane, i);
      store(base + unit * uint32_t(in.imm), v0, 4 * n);
      store(base + unit * in.offset1, v1, 4 * n);
      break;
    }
    case Op::ds_load_2addr_b32: case Op::ds_load_2addr_stride64_b32:
    case Op::ds_load_2addr_b64: case Op::ds_load_2addr_stride64_b64: {
      const unsigned n = regs_of(info.dst_dwords) / 2;
      const uint32_t unit = 4 * n * (stride64 ? 64 : 1);
      uint32_t v[4];
      load(base + unit * uint32_t(in.imm), v, 4 * n);
      load(base + unit * in.offset1, v + n, 4 * n);
      for (unsigned i = 0; i < 2 * n; ++i) vreg(w, in.dst, lane, i) = v[i];
      break;
    }
    // Half-VGPR accesses: the stores take bits [23:16] / [31:16], the loads fill the low (or
    // high) half with the byte zero- or sign-extended to 16 bits, or the short, keeping the other.
    case Op::ds_store_b8_d16_hi: {
      uint8_t v = uint8_t(vreg(w, in.src[1], lane) >> 16);
      store(addr, &v, 1);
      break;
    }
    case Op::ds_store_b16_d16_hi: {
      uint16_t v = uint16_t(vreg(w, in.src[1], lane) >> 16);
      store(addr, &v, 2);
      break;
    }
    case Op::ds_load_u8_d16:
    case Op::ds_load_u8_d16_hi:
    case Op::ds_load_i8_d16:
    case Op::ds_load_i8_d16_hi:
    case Op::ds_load_u16_d16:
    case Op::ds_load_u16_d16_hi: {
      uint16_t v;
      if (in.op == Op::ds_load_u16_d16 || in.op == Op::ds_load_u16_d16_hi)
        load(addr, &v, 2);
      else {
        uint8_t b;
        load(addr, &b, 1);
        v = in.op == Op::ds_load_i8_d16 || in.op == Op::ds_load_i8_d16_hi
                ? uint16_t(int16_t(int8_t(b)))
                : b;
      }
      const bool hi = in.op == Op::ds_load_u8_d16_hi || in.op == Op::ds_load_i8_d16_hi ||
                      in.op == Op::ds_load_u16_d16_hi;
      uint32_t& d = vreg(w, in.dst, lane);
      d = hi ? (d & 0xffffu) | (uint32_t(v) << 16) : (d & 0xffff0000u) | v;
      break;
    }
    // Exchanges at two addresses (counted in elements as for ds_store_2addr): the old values of
    // the first and then the second go to VDST.
    case Op::ds_storexchg_2addr_rtn_b32:
    case Op::ds_storexchg_2addr_stride64_rtn_b32:
    case Op::ds_storexchg_2addr_rtn_b64:
    case Op::ds_storexchg_2addr_stride64_rtn_b64: {
      const unsigned n = regs_of(info.src_dwords[0]);
      const bool st64 = in.op == Op::ds_storexchg_2addr_stride64_rtn_b32 ||
                        in.op == Op::ds_storexchg_2addr_stride64_rtn_b64;
      const uint32_t unit = 4 * n * (st64 ? 64 : 1);
      uint32_t v0[2], v1[2], old[4];
      for (unsigned i = 0; i < n; ++i)
        v0[i] = vreg(w, in.src[1], lane, i), v1[i] = vreg(w, in.src[2], lane, i);
      load(base + unit * uint32_t(in.imm), old, 4 * n);
      store(base + unit * uint32_t(in.imm), v0, 4 * n);
      load(base + unit * in.offset1, old + n, 4 * n);
      store(base + unit * in.offset1, v1, 4 * n);
      for (unsigned i = 0; i < 2 * n; ++i) vreg(w, in.dst, lane, i) = old[i];
      break;
    }
    // Two dwords, each replaced by its data dword with bit 31 cleared when that bit is set
    // (RDNA3 ISA manual, DS_CONDXCHG32_RTN_B64); both old dwords are returned.
    case Op::ds_condxchg32_rtn_b64: {
      uint32_t old[2], now[2];
      load(addr, old, 8);
      for (unsigned i = 0; i < 2; ++i) {
        const uint32_t x = vreg(w, in.src[1], lane, i);
        now[i] = x >> 31 ? x & 0x7fffffffu : old[i];
      }
      store(addr, now, 8);
      vreg(w, in.dst, lane) = old[0], vreg(w, in.dst, lane, 1) = old[1];
      break;
    }
    default: {
      // A work-group's waves run on one host thread, one lane after another: each lane's
      // read-modify-write of the LDS is atomic without host atomics.
      const AtomicOp atomic = ds_atomic(in.op);
      if (atomic.rmw == Rmw::None) fault(w, in, "unimplemented LDS instruction");
      const bool two = info.src_dwords[1] != 0; // DATA1: the compared value, mskor's OR bits
      if (atomic.bytes == 8) {
        auto data = [&](uint16_t reg) {
          return uint64_t(vreg(w, reg, lane)) | (uint64_t(vreg(w, reg, lane, 1)) << 32);
        };
        uint64_t old;
        load(addr, &old, 8);
        const uint64_t now =
            rmw_result<uint64_t>(atomic.rmw, old, data(in.src[1]), two ? data(in.src[2]) : 0);
        store(addr, &now, 8);
        if (atomic.rtn)
          vreg(w, in.dst, lane) = uint32_t(old), vreg(w, in.dst, lane, 1) = uint32_t(old >> 32);
      } else {
        uint32_t old;
        load(addr, &old, 4);
        const uint32_t now = rmw_result<uint32_t>(atomic.rmw, old, vreg(w, in.src[1], lane),
                                                  two ? vreg(w, in.src[2], lane) : 0);
        store(addr, &now, 4);
        if (atomic.rtn) vreg(w, in.dst, lane) = old;
      }
      break;
    }
    }
  }
}

} // namespace sim::shader
