// The common 32-bit vector operations without operand modifiers, one tight loop per
// operation: operands are resolved once per instruction (a VGPR row, or a scalar broadcast
// into a row) instead of once per lane, and the operation is chosen once instead of once per
// lane. The loops are built twice, for baseline x86-64 and for AVX2+FMA hosts (picked at run
// time), so that on most machines a wave's fma is a few vector instructions. Anything else,
// or any modifier, takes the general path in executor.cpp, which defines the semantics; these
// loops must agree with it (the corpus and conformance tests run both).
#include "executor.h"
#include "float_ops.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdlib>

namespace sim::shader {
namespace {

bool fast_op(Op op) {
  switch (op) {
  case Op::v_mov_b32: case Op::v_add_f32: case Op::v_sub_f32: case Op::v_mul_f32:
  case Op::v_fma_f32: case Op::v_fmac_f32: case Op::v_fmamk_f32: case Op::v_fmaak_f32:
  case Op::v_add_nc_u32: case Op::v_sub_nc_u32: case Op::v_lshlrev_b32: case Op::v_lshrrev_b32:
  case Op::v_ashrrev_i32: case Op::v_and_b32: case Op::v_or_b32: case Op::v_xor_b32:
  case Op::v_mul_lo_u32: case Op::v_min_u32: case Op::v_max_u32: case Op::v_min_i32:
  case Op::v_max_i32: case Op::v_add_co_u32: case Op::v_add_co_ci_u32: case Op::v_cndmask_b32:
    return true;
  default:
    return false;
  }
}

// The rows of one instruction: destination, sources (scalars already broadcast) and K.
struct Rows {
  uint32_t* d;
  const uint32_t *a, *b, *c;
  uint32_t k;
};

// Calls f(lane) for every active lane; a full wave runs as a plain counted loop the compiler
// can vectorise.
template <class F> [[gnu::always_inline]] inline void for_lanes(uint32_t exec, F&& f) {
  if (exec == ~0u) {
    // Lane l reads only lane l of each row and writes lane l of the destination, so rows that
    // alias (v_add_f32 v0, v0, v0) carry no dependence between iterations.
#pragma GCC ivdep
    for (unsigned lane = 0; lane < kWaveSize; ++lane) f(lane);
  } else {
    for (uint32_t m = exec; m; m &= m - 1) f(unsigned(std::countr_zero(m)));
  }
}

// Denormal inputs and results flush to zero in FTZ mode (MODE.FP_DENORM), keeping the sign.
template <bool FTZ> [[gnu::always_inline]] inline float flush(float x) {
  if constexpr (FTZ) return std::fpclassify(x) == FP_SUBNORMAL ? std::copysign(0.0f, x) : x;
  else return x;
}

// The lane loops of the data operations; false when `op` is not one of them.
template <bool FTZ> [[gnu::always_inline]] inline bool loops(Op op, uint32_t exec, const Rows& r) {
  uint32_t* const d = r.d;
  const uint32_t *const a = r.a, *const b = r.b, *const c = r.c;
  auto F = [](uint32_t x) { return flush<FTZ>(f32(x)); };
  auto R = [](float x) { return u32(flush<FTZ>(x)); };
  const float k = f32(r.k);
  switch (op) {
  case Op::v_mov_b32: for_lanes(exec, [&](unsigned l) { d[l] = a[l]; }); break;
  case Op::v_add_f32: for_lanes(exec, [&](unsigned l) { d[l] = R(F(a[l]) + F(b[l])); }); break;
  case Op::v_sub_f32: for_lanes(exec, [&](unsigned l) { d[l] = R(F(a[l]) - F(b[l])); }); break;
  case Op::v_mul_f32: for_lanes(exec, [&](unsigned l) { d[l] = R(F(a[l]) * F(b[l])); }); break;
  case Op::v_fma_f32:
    for_lanes(exec, [&](unsigned l) { d[l] = R(std::fma(F(a[l]), F(b[l]), F(c[l]))); });
    break;
  case Op::v_fmac_f32:
    for_lanes(exec, [&](unsigned l) { d[l] = R(std::fma(F(a[l]), F(b[l]), F(d[l]))); });
    break;
  case Op::v_fmamk_f32: for_lanes(exec, [&](unsigned l) { d[l] = R(std::fma(F(a[l]), k, F(b[l]))); }); break;
  case Op::v_fmaak_f32: for_lanes(exec, [&](unsigned l) { d[l] = R(std::fma(F(a[l]), F(b[l]), k)); }); break;
  case Op::v_add_nc_u32: for_lanes(exec, [&](unsigned l) { d[l] = a[l] + b[l]; }); break;
  case Op::v_sub_nc_u32: for_lanes(exec, [&](unsigned l) { d[l] = a[l] - b[l]; }); break;
  case Op::v_lshlrev_b32: for_lanes(exec, [&](unsigned l) { d[l] = b[l] << (a[l] & 31); }); break;
  case Op::v_lshrrev_b32: for_lanes(exec, [&](unsigned l) { d[l] = b[l] >> (a[l] & 31); }); break;
  case Op::v_ashrrev_i32:
    for_lanes(exec, [&](unsigned l) { d[l] = uint32_t(int32_t(b[l]) >> (a[l] & 31)); });
    break;
  case Op::v_and_b32: for_lanes(exec, [&](unsigned l) { d[l] = a[l] & b[l]; }); break;
  case Op::v_or_b32: for_lanes(exec, [&](unsigned l) { d[l] = a[l] | b[l]; }); break;
  case Op::v_xor_b32: for_lanes(exec, [&](unsigned l) { d[l] = a[l] ^ b[l]; }); break;
  case Op::v_mul_lo_u32: for_lanes(exec, [&](unsigned l) { d[l] = a[l] * b[l]; }); break;
  case Op::v_min_u32: for_lanes(exec, [&](unsigned l) { d[l] = std::min(a[l], b[l]); }); break;
  case Op::v_max_u32: for_lanes(exec, [&](unsigned l) { d[l] = std::max(a[l], b[l]); }); break;
  case Op::v_min_i32:
    for_lanes(exec, [&](unsigned l) { d[l] = uint32_t(std::min(int32_t(a[l]), int32_t(b[l]))); });
    break;
  case Op::v_max_i32:
    for_lanes(exec, [&](unsigned l) { d[l] = uint32_t(std::max(int32_t(a[l]), int32_t(b[l]))); });
    break;
  default: return false;
  }
  return true;
}

bool loops_baseline(Op op, uint32_t exec, const Rows& r, bool ftz) {
  return ftz ? loops<true>(op, exec, r) : loops<false>(op, exec, r);
}
[[gnu::target("avx2,fma")]] bool loops_avx2_fma(Op op, uint32_t exec, const Rows& r, bool ftz) {
  return ftz ? loops<true>(op, exec, r) : loops<false>(op, exec, r);
}
using Loops = bool (*)(Op, uint32_t, const Rows&, bool);
// AMCL_SIM_BASELINE_LOOPS=1 keeps the baseline build on AVX2 hosts too (the tests run both).
Loops pick_loops() {
  if (const char* v = std::getenv("AMCL_SIM_BASELINE_LOOPS"); v && *v == '1') return &loops_baseline;
  __builtin_cpu_init(); // this runs from a static initializer, maybe before libgcc's own
  return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") ? &loops_avx2_fma
                                                                          : &loops_baseline;
}
const Loops kLoops = pick_loops();

// VOPD halves the loops cover (the rest run lane by lane in executor.cpp).
bool fast_dual_op(Op op) {
  switch (op) {
  case Op::v_fmac_f32: case Op::v_fmaak_f32: case Op::v_fmamk_f32: case Op::v_mul_f32:
  case Op::v_add_f32: case Op::v_sub_f32: case Op::v_mov_b32: case Op::v_add_nc_u32:
  case Op::v_lshlrev_b32: case Op::v_and_b32:
    return true;
  default:
    return false;
  }
}

} // namespace

// A dual-issue pair: both halves read their sources before either writes, so each computes
// into a copy of its destination row (which also serves fmac as accumulator) and the rows are
// stored afterwards.
bool Executor::exec_vopd_fast(Wave& w, const Inst& in) {
  if (!fast_dual_op(in.op) || !fast_dual_op(in.op_y)) return false;
  const uint32_t exec = w.exec();
  uint32_t broadcast[2][kWaveSize];
  auto row = [&](uint16_t code, unsigned slot) -> const uint32_t* {
    if (code >= src::kVgpr0) return &vreg(w, code, 0);
    std::fill_n(broadcast[slot], kWaveSize, sread(w, in, code));
    return broadcast[slot];
  };
  uint32_t x[kWaveSize], y[kWaveSize];
  uint32_t* const dx = &vreg(w, in.dst, 0);
  uint32_t* const dy = &vreg(w, in.dst_y, 0);
  std::copy_n(dx, kWaveSize, x);
  std::copy_n(dy, kWaveSize, y);
  const bool ftz = w.flush_f32_denorms;
  if (!kLoops(in.op, exec, Rows{x, row(in.src[0], 0), &vreg(w, in.src[1], 0), nullptr, in.literal}, ftz) ||
      !kLoops(in.op_y, exec, Rows{y, row(in.src_y[0], 1), &vreg(w, in.src_y[1], 0), nullptr, in.literal}, ftz))
    return false; // not reached: fast_dual_op lists only operations the loops cover
  std::copy_n(x, kWaveSize, dx);
  std::copy_n(y, kWaveSize, dy);
  return true;
}

bool Executor::exec_valu_fast(Wave& w, const Inst& in) {
  if (!fast_op(in.op) || in.abs || in.neg || in.omod || in.clamp || in.opsel) return false;
  const uint32_t exec = w.exec();
  const OpInfo& info = op_info(in.op);
  // Sources: a VGPR row (checked against the allocation once) or a scalar broadcast.
  uint32_t broadcast[3][kWaveSize];
  const uint32_t* src[3] = {nullptr, nullptr, nullptr};
  const unsigned nsrc = in.op == Op::v_fma_f32 ? 3 : info.src_dwords[1] ? 2 : 1;
  for (unsigned i = 0; i < nsrc; ++i) {
    if (in.src[i] >= src::kVgpr0) {
      src[i] = &vreg(w, in.src[i], 0);
    } else {
      std::fill_n(broadcast[i], kWaveSize, sread(w, in, in.src[i]));
      src[i] = broadcast[i];
    }
  }
  uint32_t* const d = &vreg(w, in.dst, 0);
  const uint32_t *const a = src[0], *const b = src[1];
  switch (in.op) {
  // Carries and selects: lane masks in SGPRs (VCC for the VOP2 forms); inactive lanes' bits of
  // a carry-out are cleared.
  case Op::v_cndmask_b32: {
    const uint32_t mask = mask_read(w, in, in.src[2]);
    for_lanes(exec, [&](unsigned l) { d[l] = (mask >> l) & 1 ? b[l] : a[l]; });
    return true;
  }
  case Op::v_add_co_u32: case Op::v_add_co_ci_u32: {
    const uint32_t carry_in = in.op == Op::v_add_co_ci_u32 ? mask_read(w, in, in.src[2]) : 0;
    uint32_t carry = 0;
    for_lanes(exec, [&](unsigned l) {
      const uint64_t r = uint64_t(a[l]) + b[l] + ((carry_in >> l) & 1);
      d[l] = uint32_t(r);
      carry |= uint32_t(r >> 32) << l;
    });
    mask_write(w, in.sdst, carry);
    return true;
  }
  default:
    return kLoops(in.op, exec, Rows{d, a, b, src[2], in.literal}, w.flush_f32_denorms);
  }
}

} // namespace sim::shader
