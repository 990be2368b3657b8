// The vector ALU's general path (VOP1, VOP2, VOP3, VOP3SD): each operation lane by lane with its
// operand modifiers (abs, neg, omod, clamp, op_sel halves), following the RDNA3 and RDNA4 ISA
// manuals' pseudocode (chapter "Instructions"). valu_fast_path.cpp runs the common modifier-free
// operations a row at a time and must agree with this; the rarer operations are in valu_extra.cpp.
#include "executor.h"
#include "division_ops.h"
#include "float_ops.h"
#include "int_ops.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

namespace sim::shader {

namespace {

// 1/x rounded toward zero: the correctly rounded quotient, stepped back when it rounded away
// from zero (the double quotient is exact enough to tell).
float rcp_toward_zero(float x) {
  const float r = 1.0f / x;
  if (!std::isfinite(r) || r == 0.0f) return r;
  return std::fabs(double(r)) > std::fabs(1.0 / double(x)) ? std::nextafter(r, 0.0f) : r;
}

} // namespace

void Executor::exec_valu(Wave& w, const Inst& in, bool try_fast) {
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
    r = apply_omod(r, in.omod);
    if (in.clamp) r = clamp01(r);
    return u32(flush(r, ftz));
  };
  auto dout = [&](double r) AMCL_INLINE {
    r = apply_omod(r, in.omod);
    if (in.clamp) r = clamp01(r);
    return u64(r);
  };

  // Lane-uniform operations first.
  switch (in.op) {
  case Op::v_nop:
    return;
  // clang-format off
  case Op::v_s_exp_f32: case Op::v_s_exp_f16: case Op::v_s_log_f32: case Op::v_s_log_f16:
  case Op::v_s_rcp_f32: case Op::v_s_rcp_f16: case Op::v_s_rsq_f32: case Op::v_s_rsq_f16:
  case Op::v_s_sqrt_f32: case Op::v_s_sqrt_f16:
    // clang-format on
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
  case Op::v_permlane16_b32:
  case Op::v_permlanex16_b32: {
    // Lane l of row r (16 lanes) takes src0 of lane sel[l % 16] of row r, or of the other row of
    // its pair (x16); sel is the 16 4-bit fields of {src2, src1}. A source lane off in EXEC is
    // read anyway with FI (op_sel[0]), else gives 0 with BOUND_CTRL (op_sel[1]), else leaves
    // the destination as it was. Rows never straddle a wave64's passes.
    const uint64_t sel = uint64_t(sread(w, in, in.src[1])) | uint64_t(sread(w, in, in.src[2]))
                                                                 << 32;
    const bool fetch_inactive = in.opsel & 1, bound_ctrl = in.opsel & 2;
    uint32_t from[kWaveSize];
    for (unsigned lane = 0; lane < kWaveSize; ++lane) from[lane] = vread(w, in, 0, lane);
    for (unsigned lane = 0; lane < kWaveSize; ++lane) {
      if (!((exec >> lane) & 1)) continue;
      const unsigned row = (lane / 16) ^ (in.op == Op::v_permlanex16_b32 ? 1u : 0u);
      const unsigned src = row * 16 + unsigned((sel >> (4 * (lane % 16))) & 15);
      if (((exec >> src) & 1) || fetch_inactive)
        vreg(w, in.dst, lane) = from[src];
      else if (bound_ctrl)
        vreg(w, in.dst, lane) = 0;
    }
    return;
  }
  default:
    break;
  }

  if (try_fast && fast_paths && exec_valu_fast(w, in)) return;
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
  case Op::v_cndmask_b32:
  case Op::v_cndmask_b16:
  case Op::v_add_co_ci_u32:
  case Op::v_sub_co_ci_u32:
  case Op::v_subrev_co_ci_u32:
    carry_in = mask_read(w, in, in.src[2]);
    break;
  case Op::v_div_fmas_f32:
  case Op::v_div_fmas_f64:
    carry_in = w.vcc();
    break;
  default:
    break;
  }
  // 32-bit operands resolved once per instruction: a VGPR row of 32 lanes (bounds-checked
  // here) or a value broadcast to all lanes.
  const uint32_t* row[3] = {nullptr, nullptr, nullptr};
  uint32_t value[3] = {0, 0, 0};
  for (unsigned i = 0; i < 3; ++i) {
    const uint8_t width = info.src_dwords[i];
    if (!width) continue;
    if (in.src[i] >= src::kVgpr0)
      row[i] = &vreg(w, in.src[i], 0);
    else if (width == 1 || is_half(width))
      value[i] = sread(w, in, in.src[i]);
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
    // One operation per line: it reads as the ISA table it is.
    // clang-format off
    switch (in.op) {
    // Moves and selects still honour VOP3's abs/neg, as operations on the sign bit.
    case Op::v_mov_b32: d = bitmods(a(), 0); break;
    case Op::v_cndmask_b32: d = (carry_in >> lane) & 1 ? bitmods(b(), 1) : bitmods(a(), 0); break;
    case Op::v_add_f32: d = fout(isa_add(fa(), fb())); break;
    case Op::v_sub_f32: d = fout(isa_sub(fa(), fb())); break;
    case Op::v_subrev_f32: d = fout(isa_subrev(fa(), fb())); break;
    case Op::v_mul_f32: d = fout(isa_mul(fa(), fb())); break;
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
    case Op::v_mul_lo_u16: half_dst(d, uint16_t(uint32_t(half_src(0, lane)) * half_src(1, lane))); break;
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
      case Op::v_div_fmas_f64: r = div_fmas_f64(D(0), D(1), D(2), (carry_in >> lane) & 1); break;
      case Op::v_div_scale_f64: {
        bool v;
        r = div_scale(D(0), D(1), D(2), v, 768, 128, 53);
        carry_mask |= uint32_t(v) << lane;
        break;
      }
      case Op::v_ldexp_f64: r = std::ldexp(D(0), int32_t(b())); break;
      case Op::v_trunc_f64: r = isa_trunc(D(0)); break;
      case Op::v_ceil_f64: r = isa_ceil(D(0)); break;
      case Op::v_rndne_f64: r = isa_rndne(D(0)); break;
      case Op::v_floor_f64: r = isa_floor(D(0)); break;
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
    case Op::v_fma_f32: d = fout(isa_fma(fa(), fb(), fc())); break;
    case Op::v_fmac_f32: d = fout(isa_fma(fa(), fb(), flush(f32(d), ftz))); break;
    case Op::v_fmamk_f32: d = fout(isa_fma(fa(), f32(in.literal), fin(b(), 1))); break;
    case Op::v_fmaak_f32: d = fout(isa_fma(fa(), fb(), f32(in.literal))); break;
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
      case Op::v_add_f64: r = isa_add(x, y); break;
      case Op::v_mul_f64: r = isa_mul(x, y); break;
      case Op::v_min_f64: r = fmin_ieee(x, y); break;
      case Op::v_max_f64: r = fmax_ieee(x, y); break;
      default: r = isa_fma(x, y, dfin(vread64(w, in, 2, lane, true), 2)); break;
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
    case Op::v_trunc_f32: d = fout(isa_trunc(fa())); break;
    case Op::v_ceil_f32: d = fout(isa_ceil(fa())); break;
    case Op::v_rndne_f32: d = fout(isa_rndne(fa())); break;
    case Op::v_floor_f32: d = fout(isa_floor(fa())); break;
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
    // clang-format on
  }
  const bool writes_carry = in.format == Format::VOP3SD || in.op == Op::v_add_co_ci_u32 ||
                            in.op == Op::v_div_scale_f32 || in.op == Op::v_div_scale_f64 ||
                            in.op == Op::v_sub_co_ci_u32 || in.op == Op::v_subrev_co_ci_u32;
  if (writes_carry) mask_write(w, in.sdst, carry_mask);
}

} // namespace sim::shader
