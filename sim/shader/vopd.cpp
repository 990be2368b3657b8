// VOPD: two VOP2-like operations issued as one instruction (RDNA3 ISA manual, "VOPD"), lane by
// lane; valu_fast_path.cpp runs the pairs its loops cover.
#include "executor.h"
#include "float_ops.h"

#include <cmath>
#include <string>

namespace sim::shader {

namespace {

// One half of a VOPD pair for one lane; `acc` is the destination's old value (fmac).
uint32_t dual_lane(Op op, uint32_t a, uint32_t b, uint32_t acc, uint32_t literal, bool vcc,
                   bool ftz) {
  auto F = [&](uint32_t x) { return flush(f32(x), ftz); };
  auto R = [&](float r) { return u32(flush(r, ftz)); };
  // One operation per line: it reads as the ISA table it is.
  // clang-format off
  switch (op) {
  case Op::v_fmac_f32: return R(isa_fma(F(a), F(b), F(acc)));
  case Op::v_fmaak_f32: return R(isa_fma(F(a), F(b), f32(literal)));
  case Op::v_fmamk_f32: return R(isa_fma(F(a), f32(literal), F(b)));
  case Op::v_mul_f32: return R(isa_mul(F(a), F(b)));
  case Op::v_add_f32: return R(isa_add(F(a), F(b)));
  case Op::v_sub_f32: return R(isa_sub(F(a), F(b)));
  case Op::v_subrev_f32: return R(isa_subrev(F(a), F(b)));
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
  // clang-format on
}

} // namespace

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

} // namespace sim::shader
