// The common 32-bit vector operations without operand modifiers, one tight loop per
// operation: operands are resolved once per instruction (a VGPR row or a broadcast scalar)
// instead of once per lane, and the operation is chosen once instead of once per lane. Anything
// else, or any modifier, takes the general path in executor.cpp, which defines the semantics;
// these loops must agree with it (the corpus and conformance tests run both).
#include "executor.h"

#include <bit>
#include <cmath>

namespace sim::shader {
namespace {

float f32(uint32_t v) { return std::bit_cast<float>(v); }
uint32_t u32(float f) { return std::bit_cast<uint32_t>(f); }
float flush(float x, bool on) {
  return on && std::fpclassify(x) == FP_SUBNORMAL ? std::copysign(0.0f, x) : x;
}

// Calls f(lane) for every active lane; a full wave runs as a plain counted loop.
template <class F> inline void for_lanes(uint32_t exec, F&& f) {
  if (exec == ~0u) {
    for (unsigned lane = 0; lane < kWaveSize; ++lane) f(lane);
  } else {
    for (uint32_t m = exec; m; m &= m - 1) f(unsigned(std::countr_zero(m)));
  }
}

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

} // namespace

// flatten: the per-lane lambdas and loops inline into one function per operation.
[[gnu::flatten]] bool Executor::exec_valu_fast(Wave& w, const Inst& in) {
  if (!fast_op(in.op) || in.abs || in.neg || in.omod || in.clamp || in.opsel) return false;
  const uint32_t exec = w.exec();
  const bool ftz = w.flush_f32_denorms;
  const OpInfo& info = op_info(in.op);
  // Sources: a VGPR row (checked against the allocation once) or one value for all lanes.
  const uint32_t* row[2] = {nullptr, nullptr};
  uint32_t value[2] = {0, 0};
  for (unsigned i = 0; i < 2; ++i) {
    if (!info.src_dwords[i]) continue;
    if (in.src[i] >= src::kVgpr0) row[i] = &vreg(w, in.src[i], 0);
    else value[i] = sread(w, in, in.src[i]);
  }
  uint32_t* const d = &vreg(w, in.dst, 0);
  const uint32_t* const ra = row[0];
  const uint32_t* const rb = row[1];
  const uint32_t va = value[0], vb = value[1], k = in.literal;
  auto A = [&](unsigned l) { return ra ? ra[l] : va; };
  auto B = [&](unsigned l) { return rb ? rb[l] : vb; };
  auto F = [&](uint32_t x) { return flush(f32(x), ftz); };
  auto R = [&](float r) { return u32(flush(r, ftz)); };
  switch (in.op) {
  case Op::v_mov_b32: for_lanes(exec, [&](unsigned l) { d[l] = A(l); }); break;
  case Op::v_add_f32: for_lanes(exec, [&](unsigned l) { d[l] = R(F(A(l)) + F(B(l))); }); break;
  case Op::v_sub_f32: for_lanes(exec, [&](unsigned l) { d[l] = R(F(A(l)) - F(B(l))); }); break;
  case Op::v_mul_f32: for_lanes(exec, [&](unsigned l) { d[l] = R(F(A(l)) * F(B(l))); }); break;
  case Op::v_fma_f32: {
    // The third source of the VOP3 form.
    const uint32_t* rc = in.src[2] >= src::kVgpr0 ? &vreg(w, in.src[2], 0) : nullptr;
    const uint32_t vc = rc ? 0 : sread(w, in, in.src[2]);
    for_lanes(exec, [&](unsigned l) {
      d[l] = R(std::fma(F(A(l)), F(B(l)), F(rc ? rc[l] : vc)));
    });
    break;
  }
  case Op::v_fmac_f32:
    for_lanes(exec, [&](unsigned l) { d[l] = R(std::fma(F(A(l)), F(B(l)), F(d[l]))); });
    break;
  case Op::v_fmamk_f32:
    for_lanes(exec, [&](unsigned l) { d[l] = R(std::fma(F(A(l)), f32(k), F(B(l)))); });
    break;
  case Op::v_fmaak_f32:
    for_lanes(exec, [&](unsigned l) { d[l] = R(std::fma(F(A(l)), F(B(l)), f32(k))); });
    break;
  case Op::v_add_nc_u32: for_lanes(exec, [&](unsigned l) { d[l] = A(l) + B(l); }); break;
  case Op::v_sub_nc_u32: for_lanes(exec, [&](unsigned l) { d[l] = A(l) - B(l); }); break;
  case Op::v_lshlrev_b32: for_lanes(exec, [&](unsigned l) { d[l] = B(l) << (A(l) & 31); }); break;
  case Op::v_lshrrev_b32: for_lanes(exec, [&](unsigned l) { d[l] = B(l) >> (A(l) & 31); }); break;
  case Op::v_ashrrev_i32:
    for_lanes(exec, [&](unsigned l) { d[l] = uint32_t(int32_t(B(l)) >> (A(l) & 31)); });
    break;
  case Op::v_and_b32: for_lanes(exec, [&](unsigned l) { d[l] = A(l) & B(l); }); break;
  case Op::v_or_b32: for_lanes(exec, [&](unsigned l) { d[l] = A(l) | B(l); }); break;
  case Op::v_xor_b32: for_lanes(exec, [&](unsigned l) { d[l] = A(l) ^ B(l); }); break;
  case Op::v_mul_lo_u32: for_lanes(exec, [&](unsigned l) { d[l] = A(l) * B(l); }); break;
  case Op::v_min_u32: for_lanes(exec, [&](unsigned l) { d[l] = std::min(A(l), B(l)); }); break;
  case Op::v_max_u32: for_lanes(exec, [&](unsigned l) { d[l] = std::max(A(l), B(l)); }); break;
  case Op::v_min_i32:
    for_lanes(exec, [&](unsigned l) { d[l] = uint32_t(std::min(int32_t(A(l)), int32_t(B(l)))); });
    break;
  case Op::v_max_i32:
    for_lanes(exec, [&](unsigned l) { d[l] = uint32_t(std::max(int32_t(A(l)), int32_t(B(l)))); });
    break;
  // Carries and selects: lane masks in SGPRs (VCC for the VOP2 forms); inactive lanes' bits of
  // a carry-out are cleared.
  case Op::v_cndmask_b32: {
    const uint32_t mask = sread(w, in, in.src[2]);
    for_lanes(exec, [&](unsigned l) { d[l] = (mask >> l) & 1 ? B(l) : A(l); });
    break;
  }
  case Op::v_add_co_u32: case Op::v_add_co_ci_u32: {
    const uint32_t carry_in = in.op == Op::v_add_co_ci_u32 ? sread(w, in, in.src[2]) : 0;
    uint32_t carry = 0;
    for_lanes(exec, [&](unsigned l) {
      const uint64_t r = uint64_t(A(l)) + B(l) + ((carry_in >> l) & 1);
      d[l] = uint32_t(r);
      carry |= uint32_t(r >> 32) << l;
    });
    swrite(w, in.sdst, carry);
    break;
  }
  default: return false;
  }
  return true;
}

} // namespace sim::shader
