// Vector compares (VOPC and their VOP3 forms; v_cmpx writes EXEC): the predicates of each integer
// and float type and V_CMP_CLASS, lane by lane (RDNA3 ISA manual, "VOPC"). valu_fast_path.cpp
// runs the common types a row at a time.
#include "executor.h"
#include "float_ops.h"
#include "int_ops.h"

#include <cmath>

namespace sim::shader {

namespace {

// V_CMP_CLASS mask bits: 0 sNaN, 1 qNaN, 2 -inf, 3 -normal, 4 -denormal, 5 -0, 6 +0,
// 7 +denormal, 8 +normal, 9 +inf.
template <class T> unsigned fp_class(T x, bool signaling) {
  const bool neg = std::signbit(x);
  // One operation per line: it reads as the ISA table it is.
  // clang-format off
  switch (std::fpclassify(x)) {
  case FP_NAN: return signaling ? 0 : 1;
  case FP_INFINITE: return neg ? 2 : 9;
  case FP_NORMAL: return neg ? 3 : 8;
  case FP_SUBNORMAL: return neg ? 4 : 7;
  default: return neg ? 5 : 6;
  }
  // clang-format on
}
bool snan32(uint32_t b) {
  return (b & 0x7f800000) == 0x7f800000 && (b & 0x7fffff) && !(b & 0x400000);
}
bool snan64(uint64_t b) {
  return (b & 0x7ff0000000000000ull) == 0x7ff0000000000000ull && (b & 0xfffffffffffffull) &&
         !(b & 0x8000000000000ull);
}
bool snan16(uint16_t b) {
  return (b & 0x7c00) == 0x7c00 && (b & 0x3ff) && !(b & 0x200);
}
// A half's class from its own bits (abs and neg already applied): the float it widens to is
// normal where the half is denormal.
unsigned fp_class16(uint16_t b) {
  const bool neg = b >> 15;
  const unsigned e = (b >> 10) & 0x1f, f = b & 0x3ff;
  if (e == 0x1f) return f ? (snan16(b) ? 0 : 1) : (neg ? 2 : 9);
  if (e == 0) return f ? (neg ? 4 : 7) : (neg ? 5 : 6);
  return neg ? 3 : 8;
}

} // namespace

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
    case Op::v_cmp_class_f16: {
      uint16_t x = half_src(0, lane);
      if (in.abs & 1) x &= 0x7fff;
      if (in.neg & 1) x ^= 0x8000;
      r = (half_src(1, lane) >> fp_class16(x)) & 1;
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
    default: instruction_fault(w, in, "unimplemented comparison");
    }
    // clang-format on
    mask |= uint32_t(r) << lane;
  }
  mask_write(w, in.cmpx ? src::kExecLo : in.sdst, mask);
}

} // namespace sim::shader
