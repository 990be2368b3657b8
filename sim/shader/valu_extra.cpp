// The vector ALU operations beyond the ones LLVM emits for everyday OpenCL C (cube-map math,
// sums of absolute differences, byte interpolation, packing conversions, dot products, M0-relative
// moves and swaps, f64 fraction/frexp/sqrt, the 2/pi table, gfx12's IEEE 754-2019 minimum and
// maximum and the VALU's scalar transcendentals). Semantics follow the pseudocode of AMD's
// "RDNA3 Instruction Set Architecture" and "RDNA4 Instruction Set Architecture" manuals,
// chapter "Instructions" (VOP1, VOP2, VOP3 and VOP3P opcode descriptions). exec_valu hands an
// operation here when its own switch does not know it; what is not here faults by name.
#include "executor.h"

#include "float_ops.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <limits>

namespace sim::shader {
namespace {

// Float -> 16-bit normalised integers (V_CVT_*NORM*: clamp to [-1, 1] or [0, 1], scale, round
// to nearest even; NaN gives 0).
uint16_t snorm16(double x) {
  return std::isnan(x) ? 0 : uint16_t(int16_t(std::nearbyint(std::clamp(x, -1.0, 1.0) * 32767.0)));
}
uint16_t unorm16(double x) {
  return std::isnan(x) ? 0 : uint16_t(std::nearbyint(std::clamp(x, 0.0, 1.0) * 65535.0));
}
// Float -> 16-bit integers with saturation, rounding toward zero as every V_CVT_*_F32 to an
// integer does (V_CVT_PK_I16_F32, V_CVT_PK_U16_F32); NaN gives 0.
uint16_t sat_i16(float x) {
  return std::isnan(x) ? 0 : uint16_t(int16_t(std::trunc(std::clamp(x, -32768.0f, 32767.0f))));
}
uint16_t sat_u16(float x) {
  return std::isnan(x) ? 0 : uint16_t(std::trunc(std::clamp(x, 0.0f, 65535.0f)));
}

// Sums of absolute differences of the four bytes (V_SAD_U8); V_MSAD_U8 skips the bytes whose
// reference (S1) byte is 0.
uint32_t sad_bytes(uint32_t a, uint32_t b, bool masked) {
  uint32_t s = 0;
  for (int i = 0; i < 32; i += 8) {
    const int x = int((a >> i) & 0xff), y = int((b >> i) & 0xff);
    if (masked && y == 0) continue;
    s += uint32_t(std::abs(x - y));
  }
  return s;
}

// 2/pi's first 1201 fractional bits, most significant first, padded with zeros to 19 words
// (V_TRIG_PREOP_F64's table). Computed exactly with integer arithmetic (Machin's formula); the
// first word is the well-known 0xa2f9836e4e441529.
constexpr uint64_t kTwoOverPi[19] = {
    0xa2f9836e4e441529ull, 0xfc2757d1f534ddc0ull, 0xdb6295993c439041ull, 0xfe5163abdebbc561ull,
    0xb7246e3a424dd2e0ull, 0x06492eea09d1921cull, 0xfe1deb1cb129a73eull, 0xe88235f52ebb4484ull,
    0xe99c7026b45f7e41ull, 0x3991d639835339f4ull, 0x9c845f8bbdf9283bull, 0x1ff897ffde05980full,
    0xef2f118b5a0a6d1full, 0x6d367ecf27cb09b7ull, 0x4f463f669e5fea2dull, 0x7527bac7ebe5f17bull,
    0x3d0739f78a5292eaull, 0x6bfb5fb11f8d5d08ull, 0x56033046fc7b0000ull};

// V_TRIG_PREOP_F64: the 53 bits of 2/pi that start `shift` bits below its binary point,
// scaled by 2^(-53 - shift) (+128 for huge inputs, whose reduction works in a scaled domain).
double trig_preop(double x, uint32_t segment) {
  const int exp = int((u64(x) >> 52) & 0x7ff);
  unsigned shift = (segment & 31) * 53;
  if (exp > 1077) shift += unsigned(exp - 1077);
  uint64_t r = 0;
  for (unsigned i = 0; i < 53; ++i) {
    const unsigned p = shift + i; // bit position from the top
    const uint64_t bit = p < 19 * 64 ? (kTwoOverPi[p / 64] >> (63 - p % 64)) & 1 : 0;
    r = r << 1 | bit;
  }
  int scale = -53 - int(shift);
  if (exp >= 1968) scale += 128;
  return std::ldexp(double(r), scale);
}

// V_CUBE*: which axis of (x, y, z) has the largest magnitude, z winning ties, then y.
enum class CubeAxis { X, Y, Z };
CubeAxis cube_axis(float x, float y, float z) {
  if (std::fabs(z) >= std::fabs(x) && std::fabs(z) >= std::fabs(y)) return CubeAxis::Z;
  if (std::fabs(y) >= std::fabs(x)) return CubeAxis::Y;
  return CubeAxis::X;
}

// IEEE 754-2019 minimum/maximum on halves (gfx12 V_MINIMUM_F16 ...), through float.
uint16_t hmin(float a, float b) {
  return f2h(fminimum(a, b));
}
uint16_t hmax(float a, float b) {
  return f2h(fmaximum(a, b));
}

} // namespace

// The VALU operations whose result is an SGPR and which run once per wave (gfx12's
// V_S_EXP_F32 ...): a scalar source, an optional abs/neg, clamp and omod.
bool Executor::exec_valu_scalar(Wave& w, const Inst& in) {
  const bool half = in.op == Op::v_s_exp_f16 || in.op == Op::v_s_log_f16 ||
                    in.op == Op::v_s_rcp_f16 || in.op == Op::v_s_rsq_f16 ||
                    in.op == Op::v_s_sqrt_f16;
  switch (in.op) {
  case Op::v_s_exp_f32:
  case Op::v_s_log_f32:
  case Op::v_s_rcp_f32:
  case Op::v_s_rsq_f32:
  case Op::v_s_sqrt_f32:
  case Op::v_s_exp_f16:
  case Op::v_s_log_f16:
  case Op::v_s_rcp_f16:
  case Op::v_s_rsq_f16:
  case Op::v_s_sqrt_f16:
    break;
  default:
    return false;
  }
  const uint32_t raw = sread(w, in, in.src[0]);
  double x = half ? double(h2f(in.src[0] >= src::kFloatHalf && in.src[0] <= src::kFloatInv2Pi
                                   ? f2h(f32(raw))
                                   : uint16_t(raw)))
                  : double(flush(f32(raw), w.flush_f32_denorms));
  if (in.abs & 1) x = std::fabs(x);
  if (in.neg & 1) x = -x;
  double r;
  switch (in.op) {
  case Op::v_s_exp_f32:
  case Op::v_s_exp_f16:
    r = std::exp2(x);
    break;
  case Op::v_s_log_f32:
  case Op::v_s_log_f16:
    r = std::log2(x);
    break;
  case Op::v_s_rcp_f32:
  case Op::v_s_rcp_f16:
    r = 1.0 / x;
    break;
  case Op::v_s_rsq_f32:
  case Op::v_s_rsq_f16:
    r = 1.0 / std::sqrt(x);
    break;
  default:
    r = std::sqrt(x);
    break;
  }
  r = apply_omod(r, in.omod);
  if (in.clamp) r = clamp01(r);
  // f16 results fill the low half and clear the high one (as the scalar float ALU's).
  swrite(w, in.dst, half ? uint32_t(f2h(r)) : u32(flush(float(r), w.flush_f32_denorms)));
  return true;
}

void Executor::exec_valu_extra(Wave& w, const Inst& in) {
  if (is_f8_conversion(in.op)) return exec_valu_f8(w, in);
  const uint32_t exec = w.exec();
  const bool ftz = w.flush_f32_denorms;
  auto a = [&](unsigned lane) { return vread(w, in, 0, lane); };
  auto b = [&](unsigned lane) { return vread(w, in, 1, lane); };
  auto c = [&](unsigned lane) { return vread(w, in, 2, lane); };
  // Float sources with VOP3's abs and neg; denormals per the MODE register.
  auto fsrc = [&](unsigned i, unsigned lane) {
    float x = f32(vread(w, in, i, lane));
    if (in.abs & (1u << i)) x = std::fabs(x);
    if (in.neg & (1u << i)) x = -x;
    return flush(x, ftz);
  };
  auto dsrc = [&](unsigned i, unsigned lane) {
    double x = f64(vread64(w, in, i, lane, true));
    if (in.abs & (1u << i)) x = std::fabs(x);
    if (in.neg & (1u << i)) x = -x;
    return x;
  };
  auto hsrc = [&](unsigned i, unsigned lane) {
    float x = h2f(read_half(w, in, i, lane));
    if (in.abs & (1u << i)) x = std::fabs(x);
    if (in.neg & (1u << i)) x = -x;
    return x;
  };
  // The two halves of a packed 32-bit source, float modifiers on both.
  auto packed = [&](unsigned i, unsigned lane, bool hi, bool bf16) {
    const uint32_t v = vread(w, in, i, lane);
    const uint16_t h = uint16_t(hi ? v >> 16 : v);
    float x = bf16 ? bf2f(h) : h2f(h);
    if (in.abs & (1u << i)) x = std::fabs(x);
    if (in.neg & (1u << i)) x = -x;
    return x;
  };
  auto omod = [&](double r) {
    if (in.omod == 1)
      r *= 2.0;
    else if (in.omod == 2)
      r *= 4.0;
    else if (in.omod == 3)
      r *= 0.5;
    return in.clamp ? clamp01(r) : r;
  };
  auto fout = [&](double r) { return u32(flush(float(omod(r)), ftz)); };
  auto hout = [&](double r) { return f2h(omod(r)); };
  auto half_dst = [&](unsigned lane, uint16_t v) {
    uint32_t& d = vreg(w, in.dst, lane);
    d = (in.opsel & 8) ? (d & 0xffffu) | (uint32_t(v) << 16) : (d & 0xffff0000u) | v;
  };
  auto dst64 = [&](unsigned lane, uint64_t v) {
    vreg(w, in.dst, lane) = uint32_t(v);
    vreg(w, in.dst, lane, 1) = uint32_t(v >> 32);
  };
  auto dout = [&](unsigned lane, double r) { dst64(lane, u64(omod(r))); };
  const uint32_t m0 = w.sgpr[src::kM0];
  const uint16_t vdst = in.dst;

  // The row gathers with per-lane selects read every lane's source before writing.
  if (in.op == Op::v_permlane16_var_b32 || in.op == Op::v_permlanex16_var_b32) {
    // Lane l of row r takes src0 of lane vsrc1[l][3:0] of row r (x16: of the other row of
    // its pair); FI (op_sel[0]) and BOUND_CTRL (op_sel[1]) as for v_permlane16_b32.
    const bool fetch_inactive = in.opsel & 1, bound_ctrl = in.opsel & 2;
    uint32_t from[kWaveSize], sel[kWaveSize];
    for (unsigned lane = 0; lane < kWaveSize; ++lane) {
      from[lane] = vread(w, in, 0, lane);
      sel[lane] = vread(w, in, 1, lane);
    }
    for (unsigned lane = 0; lane < kWaveSize; ++lane) {
      if (!((exec >> lane) & 1)) continue;
      const unsigned row = (lane / 16) ^ (in.op == Op::v_permlanex16_var_b32 ? 1u : 0u);
      const unsigned from_lane = row * 16 + (sel[lane] & 15);
      if (((exec >> from_lane) & 1) || fetch_inactive)
        vreg(w, vdst, lane) = from[from_lane];
      else if (bound_ctrl)
        vreg(w, vdst, lane) = 0;
    }
    return;
  }

  for (unsigned lane = 0; lane < kWaveSize; ++lane) {
    if (!((exec >> lane) & 1)) continue;
    switch (in.op) {
    case Op::v_pipeflush:
      break;
    // ---- conversions
    case Op::v_cvt_nearest_i32_f32:
      vreg(w, vdst, lane) = uint32_t(cvt_f32_to_i32(std::floor(fsrc(0, lane) + 0.5f)));
      break;
    case Op::v_cvt_floor_i32_f32:
      vreg(w, vdst, lane) = uint32_t(cvt_f32_to_i32(std::floor(fsrc(0, lane))));
      break;
    case Op::v_cvt_off_f32_i4: // a signed 4-bit value in sixteenths: 8 is -0.5, 7 is 0.4375
      vreg(w, vdst, lane) = fout(double(int((a(lane) & 15) ^ 8) - 8) / 16.0);
      break;
    case Op::v_sat_pk_u8_i16: {
      const uint32_t v = a(lane);
      auto sat = [](uint16_t h) { return uint16_t(std::clamp(int(int16_t(h)), 0, 255)); };
      half_dst(lane, uint16_t(sat(uint16_t(v)) | sat(uint16_t(v >> 16)) << 8));
      break;
    }
    case Op::v_cvt_norm_i16_f16:
      half_dst(lane, snorm16(omod(hsrc(0, lane))));
      break;
    case Op::v_cvt_norm_u16_f16:
      half_dst(lane, unorm16(omod(hsrc(0, lane))));
      break;
    case Op::v_cvt_pk_i16_f32:
      vreg(w, vdst, lane) = sat_i16(fsrc(0, lane)) | uint32_t(sat_i16(fsrc(1, lane))) << 16;
      break;
    case Op::v_cvt_pk_u16_f32:
      vreg(w, vdst, lane) = sat_u16(fsrc(0, lane)) | uint32_t(sat_u16(fsrc(1, lane))) << 16;
      break;
    case Op::v_cvt_pk_norm_i16_f32:
      vreg(w, vdst, lane) = snorm16(fsrc(0, lane)) | uint32_t(snorm16(fsrc(1, lane))) << 16;
      break;
    case Op::v_cvt_pk_norm_u16_f32:
      vreg(w, vdst, lane) = unorm16(fsrc(0, lane)) | uint32_t(unorm16(fsrc(1, lane))) << 16;
      break;
    case Op::v_cvt_pk_norm_u16_f16:
      vreg(w, vdst, lane) = unorm16(hsrc(0, lane)) | uint32_t(unorm16(hsrc(1, lane))) << 16;
      break;
    // V_CVT_PK_U8_F32: S0 converted to an unsigned byte (rounded to nearest even, saturated,
    // NaN as 0) replaces byte S1[1:0] of S2.
    case Op::v_cvt_pk_u8_f32: {
      const float x = fsrc(0, lane);
      const uint32_t byte =
          std::isnan(x) ? 0 : uint32_t(std::nearbyint(std::clamp(x, 0.0f, 255.0f)));
      const unsigned sh = (b(lane) & 3) * 8;
      vreg(w, vdst, lane) = (c(lane) & ~(0xffu << sh)) | byte << sh;
      break;
    }
    // ---- f64
    case Op::v_sqrt_f64:
      dout(lane, std::sqrt(dsrc(0, lane)));
      break;
    case Op::v_fract_f64: {
      const double x = dsrc(0, lane);
      dout(lane, std::isinf(x) || std::isnan(x)
                     ? std::numeric_limits<double>::quiet_NaN()
                     : std::fmin(x - std::floor(x), 0x1.fffffffffffffp-1));
      break;
    }
    case Op::v_frexp_exp_i32_f64: {
      const double x = dsrc(0, lane);
      int e = 0;
      if (std::isfinite(x)) std::frexp(x, &e);
      vreg(w, vdst, lane) = uint32_t(e);
      break;
    }
    case Op::v_frexp_mant_f64: {
      const double x = dsrc(0, lane);
      int e = 0;
      dout(lane, std::isfinite(x) ? std::frexp(x, &e) : x);
      break;
    }
    case Op::v_trig_preop_f64:
      dout(lane, trig_preop(dsrc(0, lane), b(lane)));
      break;
    // ---- M0-relative moves (the index is a register count added to the operand's register)
    case Op::v_movrels_b32:
      vreg(w, vdst, lane) = vreg(w, uint16_t(in.src[0] + m0), lane);
      break;
    case Op::v_movreld_b32:
      vreg(w, uint16_t(vdst + m0), lane) = a(lane);
      break;
    case Op::v_movrelsd_b32:
      vreg(w, uint16_t(vdst + m0), lane) = vreg(w, uint16_t(in.src[0] + m0), lane);
      break;
    case Op::v_movrelsd_2_b32: // source index M0[9:0], destination index M0[25:16]
      vreg(w, uint16_t(vdst + ((m0 >> 16) & 0x3ff)), lane) =
          vreg(w, uint16_t(in.src[0] + (m0 & 0x3ff)), lane);
      break;
    case Op::v_swap_b32:
      std::swap(vreg(w, vdst, lane), vreg(w, in.src[0], lane));
      break;
    case Op::v_swaprel_b32:
      std::swap(vreg(w, uint16_t(vdst + ((m0 >> 16) & 0x3ff)), lane),
                vreg(w, uint16_t(in.src[0] + (m0 & 0x3ff)), lane));
      break;
    case Op::v_swap_b16: {
      uint32_t& d = vreg(w, vdst, lane);
      uint32_t& s = vreg(w, in.src[0], lane);
      const unsigned dsh = in.opsel & 8 ? 16 : 0, ssh = in.opsel & 1 ? 16 : 0;
      const uint32_t dv = (d >> dsh) & 0xffff, sv = (s >> ssh) & 0xffff;
      d = (d & ~(0xffffu << dsh)) | sv << dsh;
      s = (s & ~(0xffffu << ssh)) | dv << ssh;
      break;
    }
    // ---- integer
    case Op::v_mul_hi_i32_i24:
      vreg(w, vdst, lane) = uint32_t(
          uint64_t(int64_t(int32_t(a(lane) << 8) >> 8) * int64_t(int32_t(b(lane) << 8) >> 8)) >>
          32);
      break;
    case Op::v_mul_hi_u32_u24:
      vreg(w, vdst, lane) = uint32_t((uint64_t(a(lane) & 0xffffff) * (b(lane) & 0xffffff)) >> 32);
      break;
    case Op::v_bfm_b32:
      vreg(w, vdst, lane) = ((1u << (a(lane) & 31)) - 1u) << (b(lane) & 31);
      break;
    case Op::v_lerp_u8: { // per byte: the rounded average, the rounding bit from S2's byte
      const uint32_t x = a(lane), y = b(lane), z = c(lane);
      uint32_t r = 0;
      for (int i = 0; i < 32; i += 8)
        r |= (((x >> i) & 0xff) + ((y >> i) & 0xff) + ((z >> i) & 1)) >> 1 << i;
      vreg(w, vdst, lane) = r;
      break;
    }
    case Op::v_sad_u8:
      vreg(w, vdst, lane) = sad_bytes(a(lane), b(lane), false) + c(lane);
      break;
    case Op::v_msad_u8:
      vreg(w, vdst, lane) = sad_bytes(a(lane), b(lane), true) + c(lane);
      break;
    case Op::v_sad_hi_u8:
      vreg(w, vdst, lane) = (sad_bytes(a(lane), b(lane), false) << 16) + c(lane);
      break;
    case Op::v_sad_u16: {
      const uint32_t x = a(lane), y = b(lane);
      vreg(w, vdst, lane) = uint32_t(std::abs(int(x & 0xffff) - int(y & 0xffff)) +
                                     std::abs(int(x >> 16) - int(y >> 16))) +
                            c(lane);
      break;
    }
    case Op::v_sad_u32: {
      const uint32_t x = a(lane), y = b(lane);
      vreg(w, vdst, lane) = (x > y ? x - y : y - x) + c(lane);
      break;
    }
    // Four SADs of S1 against the byte windows of S0 at offsets 0..3, accumulated into the
    // 16-bit (qsad/mqsad_pk) or 32-bit (mqsad_u32) fields of S2.
    case Op::v_qsad_pk_u16_u8:
    case Op::v_mqsad_pk_u16_u8: {
      const uint64_t x = vread64(w, in, 0, lane, false), acc = vread64(w, in, 2, lane, false);
      const uint32_t ref = b(lane);
      uint64_t r = 0;
      for (unsigned k = 0; k < 4; ++k) {
        const uint32_t s = sad_bytes(uint32_t(x >> (8 * k)), ref, in.op == Op::v_mqsad_pk_u16_u8) +
                           uint32_t((acc >> (16 * k)) & 0xffff);
        r |= uint64_t(s & 0xffff) << (16 * k);
      }
      dst64(lane, r);
      break;
    }
    case Op::v_mqsad_u32_u8: {
      const uint64_t x = vread64(w, in, 0, lane, false);
      const uint32_t ref = b(lane);
      uint32_t acc[4];
      for (unsigned k = 0; k < 4; ++k)
        acc[k] = in.src[2] >= src::kVgpr0
                     ? vreg(w, in.src[2], lane, k)
                     : sread(w, in, uint16_t(in.src[2] + (in.src[2] < 106 ? k : 0)));
      for (unsigned k = 0; k < 4; ++k)
        vreg(w, vdst, lane, k) = sad_bytes(uint32_t(x >> (8 * k)), ref, true) + acc[k];
      break;
    }
    // ---- float
    case Op::v_fma_dx9_zero_f32:
    case Op::v_fmac_dx9_zero_f32: {
      // A zero factor gives the addend, even against infinity or NaN (DX9 rules).
      const float x = fsrc(0, lane), y = fsrc(1, lane);
      const float z =
          in.op == Op::v_fma_dx9_zero_f32 ? fsrc(2, lane) : flush(f32(vreg(w, vdst, lane)), ftz);
      vreg(w, vdst, lane) = fout(x == 0.0f || y == 0.0f ? z : std::fma(x, y, z));
      break;
    }
    case Op::v_mullit_f32: { // legacy lighting: -FLT_MAX unless S1 and S2 are usable
      const float x = fsrc(0, lane), y = fsrc(1, lane), z = fsrc(2, lane);
      const bool bad = y == -std::numeric_limits<float>::max() || y == -INFINITY || std::isnan(y) ||
                       z <= 0.0f || std::isnan(z);
      vreg(w, vdst, lane) = fout(bad ? -std::numeric_limits<float>::max() : x * y);
      break;
    }
    case Op::v_cubeid_f32:
    case Op::v_cubesc_f32:
    case Op::v_cubetc_f32:
    case Op::v_cubema_f32: {
      const float x = fsrc(0, lane), y = fsrc(1, lane), z = fsrc(2, lane);
      const CubeAxis axis = cube_axis(x, y, z);
      float r;
      if (in.op == Op::v_cubeid_f32)
        r = axis == CubeAxis::Z   ? (z < 0 ? 5.0f : 4.0f)
            : axis == CubeAxis::Y ? (y < 0 ? 3.0f : 2.0f)
                                  : (x < 0 ? 1.0f : 0.0f);
      else if (in.op == Op::v_cubesc_f32)
        r = axis == CubeAxis::Z ? (z < 0 ? -x : x) : axis == CubeAxis::Y ? x : (x < 0 ? z : -z);
      else if (in.op == Op::v_cubetc_f32)
        r = axis == CubeAxis::Y ? (y < 0 ? -z : z) : -y;
      else
        r = 2.0f * (axis == CubeAxis::Z ? z : axis == CubeAxis::Y ? y : x);
      vreg(w, vdst, lane) = fout(r);
      break;
    }
    case Op::v_subrev_f16:
      half_dst(lane, hout(double(hsrc(1, lane)) - hsrc(0, lane)));
      break;
    case Op::v_dot2acc_f32_f16: { // D.f32 += S0.f16[0] * S1.f16[0] + S0.f16[1] * S1.f16[1]
      const long double r =
          (long double)packed(0, lane, false, false) * packed(1, lane, false, false) +
          (long double)packed(0, lane, true, false) * packed(1, lane, true, false) +
          f32(vreg(w, vdst, lane));
      vreg(w, vdst, lane) = u32(flush(float(in.clamp ? clamp01(r) : r), ftz));
      break;
    }
    case Op::v_dot2_f16_f16:
    case Op::v_dot2_bf16_bf16: {
      const bool bf = in.op == Op::v_dot2_bf16_bf16;
      const uint16_t acc = read_half(w, in, 2, lane);
      double z = bf ? bf2f(acc) : h2f(acc);
      if (in.abs & 4) z = std::fabs(z);
      if (in.neg & 4) z = -z;
      const long double r = (long double)packed(0, lane, false, bf) * packed(1, lane, false, bf) +
                            (long double)packed(0, lane, true, bf) * packed(1, lane, true, bf) + z;
      const double s = double(in.clamp ? clamp01(r) : r);
      half_dst(lane, bf ? f2bf(s) : f2h_exact(in.clamp ? clamp01(r) : r));
      break;
    }
    // ---- gfx12: IEEE 754-2019 minimum and maximum (NaN in, NaN out; -0 below +0)
    case Op::v_minimum_f32:
      vreg(w, vdst, lane) = fout(fminimum(fsrc(0, lane), fsrc(1, lane)));
      break;
    case Op::v_maximum_f32:
      vreg(w, vdst, lane) = fout(fmaximum(fsrc(0, lane), fsrc(1, lane)));
      break;
    case Op::v_minimum3_f32:
      vreg(w, vdst, lane) = fout(fminimum(fminimum(fsrc(0, lane), fsrc(1, lane)), fsrc(2, lane)));
      break;
    case Op::v_maximum3_f32:
      vreg(w, vdst, lane) = fout(fmaximum(fmaximum(fsrc(0, lane), fsrc(1, lane)), fsrc(2, lane)));
      break;
    case Op::v_minimummaximum_f32:
      vreg(w, vdst, lane) = fout(fmaximum(fminimum(fsrc(0, lane), fsrc(1, lane)), fsrc(2, lane)));
      break;
    case Op::v_maximumminimum_f32:
      vreg(w, vdst, lane) = fout(fminimum(fmaximum(fsrc(0, lane), fsrc(1, lane)), fsrc(2, lane)));
      break;
    case Op::v_minimum_f64:
      dout(lane, fminimum(dsrc(0, lane), dsrc(1, lane)));
      break;
    case Op::v_maximum_f64:
      dout(lane, fmaximum(dsrc(0, lane), dsrc(1, lane)));
      break;
    case Op::v_minimum_f16:
      half_dst(lane, hout(h2f(hmin(hsrc(0, lane), hsrc(1, lane)))));
      break;
    case Op::v_maximum_f16:
      half_dst(lane, hout(h2f(hmax(hsrc(0, lane), hsrc(1, lane)))));
      break;
    case Op::v_minimum3_f16:
      half_dst(lane, hout(fminimum(fminimum(hsrc(0, lane), hsrc(1, lane)), hsrc(2, lane))));
      break;
    case Op::v_maximum3_f16:
      half_dst(lane, hout(fmaximum(fmaximum(hsrc(0, lane), hsrc(1, lane)), hsrc(2, lane))));
      break;
    case Op::v_minimummaximum_f16:
      half_dst(lane, hout(fmaximum(fminimum(hsrc(0, lane), hsrc(1, lane)), hsrc(2, lane))));
      break;
    case Op::v_maximumminimum_f16:
      half_dst(lane, hout(fminimum(fmaximum(hsrc(0, lane), hsrc(1, lane)), hsrc(2, lane))));
      break;
    default:
      instruction_fault(w, in, "unimplemented vector instruction");
    }
  }
}

} // namespace sim::shader
