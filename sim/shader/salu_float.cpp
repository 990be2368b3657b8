// gfx12's scalar float ALU (SOP1/SOP2/SOPC *_f32 and *_f16), following the RDNA4 ISA manual's
// pseudocode: uniform float math the compiler keeps in SGPRs. f32 operations honour the MODE
// register's single-precision denormal setting like their vector counterparts; f16 operands
// and results are the low half of an SGPR (results clear the high half).
#include "executor.h"
#include "float_ops.h"

namespace sim::shader {

bool Executor::exec_salu_float(Wave& w, const Inst& in) {
  const bool ftz = w.flush_f32_denorms;
  auto f = [&](unsigned i) { return flush(f32(sread(w, in, in.src[i])), ftz); };
  auto h = [&](unsigned i) { return h2f(read_half(w, in, i, 0)); }; // inline constants as f16
  auto k = [&] { return flush(f32(in.literal), ftz); };
  auto setf = [&](float r) { swrite(w, in.dst, u32(flush(r, ftz))); };
  auto seth = [&](double r) { swrite(w, in.dst, f2h(r)); };
  auto seth_exact = [&](long double r) { swrite(w, in.dst, f2h_exact(r)); };
  const float dst = in.dst < 128 ? flush(f32(w.sgpr[in.dst]), ftz) : 0.0f; // s_fmac accumulator
  // One operation per line: it reads as the ISA table it is.
  // clang-format off
  switch (in.op) {
  case Op::s_ceil_f32: setf(std::ceil(f(0))); break;
  case Op::s_floor_f32: setf(std::floor(f(0))); break;
  case Op::s_trunc_f32: setf(std::trunc(f(0))); break;
  case Op::s_rndne_f32: setf(std::nearbyint(f(0))); break;
  case Op::s_cvt_f32_i32: setf(float(int32_t(sread(w, in, in.src[0])))); break;
  case Op::s_cvt_f32_u32: setf(float(sread(w, in, in.src[0]))); break;
  case Op::s_cvt_i32_f32: swrite(w, in.dst, uint32_t(cvt_f32_to_i32(f(0)))); break;
  case Op::s_cvt_u32_f32: swrite(w, in.dst, cvt_f32_to_u32(f(0))); break;
  case Op::s_cvt_f16_f32: seth(f(0)); break;
  case Op::s_cvt_f32_f16: setf(h(0)); break;
  case Op::s_cvt_hi_f32_f16: setf(h2f(uint16_t(sread(w, in, in.src[0]) >> 16))); break;
  case Op::s_ceil_f16: seth(std::ceil(h(0))); break;
  case Op::s_floor_f16: seth(std::floor(h(0))); break;
  case Op::s_trunc_f16: seth(std::trunc(h(0))); break;
  case Op::s_rndne_f16: seth(std::nearbyint(h(0))); break;
  case Op::s_add_f32: setf(f(0) + f(1)); break;
  case Op::s_sub_f32: setf(f(0) - f(1)); break;
  case Op::s_mul_f32: setf(f(0) * f(1)); break;
  case Op::s_min_num_f32: setf(fmin_ieee(f(0), f(1))); break;
  case Op::s_max_num_f32: setf(fmax_ieee(f(0), f(1))); break;
  case Op::s_minimum_f32: setf(fminimum(f(0), f(1))); break;
  case Op::s_maximum_f32: setf(fmaximum(f(0), f(1))); break;
  case Op::s_fmaak_f32: setf(std::fma(f(0), f(1), k())); break;
  case Op::s_fmamk_f32: setf(std::fma(f(0), k(), f(1))); break;
  case Op::s_fmac_f32: setf(std::fma(f(0), f(1), dst)); break;
  case Op::s_cvt_pk_rtz_f16_f32: swrite(w, in.dst, uint32_t(f2h_rtz(f(0))) | (uint32_t(f2h_rtz(f(1))) << 16)); break;
  // A sum, difference or product of two halves is exact in double, so rounding it to half
  // once gives the correctly rounded result.
  case Op::s_add_f16: seth(double(h(0)) + h(1)); break;
  case Op::s_sub_f16: seth(double(h(0)) - h(1)); break;
  case Op::s_mul_f16: seth(double(h(0)) * h(1)); break;
  case Op::s_min_num_f16: seth(fmin_ieee(h(0), h(1))); break;
  case Op::s_max_num_f16: seth(fmax_ieee(h(0), h(1))); break;
  case Op::s_minimum_f16: seth(fminimum(h(0), h(1))); break;
  case Op::s_maximum_f16: seth(fmaximum(h(0), h(1))); break;
  case Op::s_fmac_f16: seth_exact(fma_exact(h(0), h(1), h2f(uint16_t(in.dst < 128 ? w.sgpr[in.dst] : 0)))); break;
  // clang-format on
  default: {
    // S_CMP_<pred>_F32 / _F16: the predicate code is the opcode's offset from the family base
    // (lt = 1 ... nlt = 14, V_CMP's numbering).
    const auto code = op_code(in.op, in.gfx);
    if (in.format != Format::SOPC || !code) return false;
    if (*code >= 65 && *code <= 78) {
      w.scc = compare_f(*code - 64, f(0), f(1));
      return true;
    }
    if (*code >= 81 && *code <= 94) {
      w.scc = compare_f(*code - 80, h(0), h(1));
      return true;
    }
    return false;
  }
  }
  return true;
}

} // namespace sim::shader
