// Vector compares (VOPC and their VOP3 forms; v_cmpx writes EXEC): the predicates of each integer
// and float type and V_CMP_CLASS, lane by lane (RDNA3 ISA manual, "VOPC"). valu_fast_path.cpp
// runs the common types a row at a time.
#include "executor.h"
#include "float_ops.h"
#include "int_ops.h"

#include <cmath>

namespace sim::shader {

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
  auto sign_mods = [&](auto bits) {
    using U = decltype(bits);
    const U sign = U(1) << (8 * sizeof(U) - 1);
    if (in.abs & 1) bits &= U(~sign);
    if (in.neg & 1) bits ^= sign;
    return bits;
  };
  uint32_t mask = 0;
  for (unsigned lane = 0; lane < kWaveSize; ++lane) {
    if (!((exec >> lane) & 1)) continue;
    bool r;
    // clang-format off
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
    // The class of the source's bits, abs and neg acting on its sign bit.
    case Op::v_cmp_class_f16:
      r = (half_src(1, lane) >> fp_class(sign_mods(half_src(0, lane)))) & 1; break;
    case Op::v_cmp_class_f32:
      r = (vread(w, in, 1, lane) >> fp_class(sign_mods(vread(w, in, 0, lane)))) & 1; break;
    case Op::v_cmp_class_f64:
      r = (vread(w, in, 1, lane) >> fp_class(sign_mods(vread64(w, in, 0, lane, true)))) & 1; break;
    default: instruction_fault(w, in, "unimplemented comparison");
    }
    // clang-format on
    mask |= uint32_t(r) << lane;
  }
  mask_write(w, in.cmpx ? src::kExecLo : in.sdst, mask);
}

} // namespace sim::shader
