// The common 32-bit vector operations without operand modifiers, one tight loop per
// operation: operands are resolved once per instruction (a VGPR row, or a scalar broadcast
// into a row) instead of once per lane, and the operation is chosen once instead of once per
// lane. The loops are built twice, for baseline x86-64 and for AVX2+FMA hosts (picked at run
// time), so that on most machines a wave's fma is a few vector instructions. Anything else,
// or any modifier, takes the general path (valu.cpp, vopc.cpp, vop3p.cpp, vopd.cpp), which
// defines the semantics; these loops must agree with it (the corpus and conformance tests run
// both).
#include "division_ops.h"
#include "executor.h"
#include "float_ops.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdlib>
#include <iterator>
#include <utility>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace sim::shader {
namespace {

// Three-source 32-bit integer operations (every source a 32-bit operand).
bool fast_op3(Op op) {
  switch (op) {
  case Op::v_bfe_u32: case Op::v_bfe_i32: case Op::v_bfi_b32: case Op::v_perm_b32:
  case Op::v_lshl_add_u32: case Op::v_add3_u32: case Op::v_lshl_or_b32: case Op::v_and_or_b32:
  case Op::v_or3_b32: case Op::v_xad_u32: case Op::v_mad_u32_u24: case Op::v_alignbit_b32:
  case Op::v_xor3_b32: case Op::v_med3_i32: case Op::v_med3_u32: case Op::v_min3_i32:
  case Op::v_max3_i32: case Op::v_min3_u32: case Op::v_max3_u32: case Op::v_mad_i32_i24:
    return true;
  default:
    return false;
  }
}

// The operations of loops_on (below), each compiled on its own (kRowLoops): the operation is a
// constant there, so its switch folds away and the call has a small frame.
constexpr Op kRowOps[] = {
    Op::v_mov_b32,        Op::v_add_f32,           Op::v_sub_f32,     Op::v_subrev_f32,
    Op::v_mul_f32,        Op::v_fma_f32,           Op::v_fmac_f32,    Op::v_fmamk_f32,
    Op::v_fmaak_f32,      Op::v_add_nc_u32,        Op::v_sub_nc_u32,  Op::v_lshlrev_b32,
    Op::v_lshrrev_b32,    Op::v_ashrrev_i32,       Op::v_and_b32,     Op::v_or_b32,
    Op::v_xor_b32,        Op::v_mul_lo_u32,        Op::v_min_u32,     Op::v_max_u32,
    Op::v_min_i32,        Op::v_max_i32,           Op::v_not_b32,     Op::v_subrev_nc_u32,
    Op::v_mul_u32_u24,    Op::v_mad_u32_u24,       Op::v_bfe_u32,     Op::v_bfe_i32,
    Op::v_bfi_b32,        Op::v_alignbit_b32,      Op::v_perm_b32,    Op::v_lshl_add_u32,
    Op::v_add3_u32,       Op::v_lshl_or_b32,       Op::v_and_or_b32,  Op::v_or3_b32,
    Op::v_xad_u32,        Op::v_xor3_b32,          Op::v_min_f32,     Op::v_max_f32,
    Op::v_frexp_mant_f32, Op::v_frexp_exp_i32_f32, Op::v_ldexp_f32,   Op::v_cvt_f32_i32,
    Op::v_cvt_f32_u32,    Op::v_cvt_i32_f32,       Op::v_cvt_u32_f32, Op::v_rcp_f32,
    Op::v_sqrt_f32,       Op::v_trunc_f32,         Op::v_floor_f32,   Op::v_ceil_f32,
    Op::v_rndne_f32,      Op::v_mul_hi_u32,        Op::v_mul_hi_i32,  Op::v_clz_i32_u32,
    Op::v_bfrev_b32,      Op::v_mul_i32_i24,       Op::v_mad_i32_i24, Op::v_med3_i32,
    Op::v_med3_u32,       Op::v_min3_i32,          Op::v_max3_i32,    Op::v_min3_u32,
    Op::v_max3_u32};

// The operations whose sources take VOP3's abs and neg in the general path (fin, or bitmods for
// the moves and selects): here they become sign-bit operations on the source rows. Integer
// operations ignore the bits there, so they take the general path when one is set.
bool takes_float_modifiers(Op op) {
  switch (op) {
  case Op::v_add_f32:
  case Op::v_sub_f32:
  case Op::v_subrev_f32:
  case Op::v_mul_f32:
  case Op::v_fma_f32:
  case Op::v_fmac_f32:
  case Op::v_min_f32:
  case Op::v_max_f32:
  case Op::v_mov_b32:
  case Op::v_cndmask_b32: case Op::v_frexp_mant_f32: case Op::v_frexp_exp_i32_f32:
  case Op::v_ldexp_f32: case Op::v_cvt_i32_f32: case Op::v_cvt_u32_f32: case Op::v_rcp_f32:
  case Op::v_sqrt_f32: case Op::v_trunc_f32: case Op::v_floor_f32: case Op::v_ceil_f32:
  case Op::v_rndne_f32:
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
    // Below -O2 clang does not vectorise and would warn once per instantiation.
#if defined(__clang__)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wpass-failed"
#pragma clang loop vectorize(assume_safety)
#else
#pragma GCC ivdep
#endif
    for (unsigned lane = 0; lane < kWaveSize; ++lane) f(lane);
#if defined(__clang__)
#pragma clang diagnostic pop
#endif
  } else {
    for (uint32_t m = exec; m; m &= m - 1) f(unsigned(std::countr_zero(m)));
  }
}

// Divergent code runs each side of a branch with part of the wave (libclc's sin and exp: 14 of
// 32 lanes on average over random inputs). From this many active lanes an operation without
// side effects runs the whole row, which vectorises, and the inactive lanes get their old
// values back; fewer go lane by lane.
constexpr unsigned kWholeRowLanes = 6;
[[gnu::always_inline]] inline bool whole_row(uint32_t exec) {
  return exec != ~0u && lane_count(exec) >= kWholeRowLanes;
}

#if defined(__SSE2__)
// Lanes i..i+3 of a lane mask as all-ones words; `m` holds the mask shifted right by i.
[[gnu::always_inline]] inline __m128i lane_words(__m128i m) {
  const __m128i bits = _mm_setr_epi32(1, 2, 4, 8);
  return _mm_cmpeq_epi32(_mm_and_si128(m, bits), bits);
}
[[gnu::always_inline]] inline __m128i load4(const uint32_t* p) {
  return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
}
[[gnu::always_inline]] inline void store4(uint32_t* p, __m128i v) {
  _mm_storeu_si128(reinterpret_cast<__m128i*>(p), v);
}
// on ? x : y, per bit.
[[gnu::always_inline]] inline __m128i pick(__m128i on, __m128i x, __m128i y) {
  return _mm_or_si128(_mm_and_si128(on, x), _mm_andnot_si128(on, y));
}
#endif

// d = the lane's bit of `mask` ? b : a, in the active lanes (v_cndmask_b32). Four lanes a step
// in SSE2 whatever EXEC holds: a shift by the lane number per lane vectorises only on AVX2, and
// GCC's 32-byte vectors, split in two outside the AVX2 builds, went through memory.
void select_rows(uint32_t exec, uint32_t* d, const uint32_t* a, const uint32_t* b, uint32_t mask) {
#if defined(__SSE2__)
  __m128i e = _mm_set1_epi32(int(exec)), m = _mm_set1_epi32(int(mask));
#pragma GCC unroll 8
  for (unsigned i = 0; i < kWaveSize; i += 4) {
    const __m128i r = pick(lane_words(m), load4(b + i), load4(a + i));
    store4(d + i, exec == ~0u ? r : pick(lane_words(e), r, load4(d + i)));
    e = _mm_srli_epi32(e, 4), m = _mm_srli_epi32(m, 4);
  }
#else
  for_lanes(exec, [&](unsigned l) { d[l] = (mask >> l) & 1 ? b[l] : a[l]; });
#endif
}

#if defined(__x86_64__)
// The same eight lanes a step on AVX2 hosts: each lane's mask bit shifted into its word's sign
// bit (vpsllvd), which vblendvps reads.
[[gnu::target("avx2")]] void select_rows_avx2(uint32_t exec, uint32_t* d, const uint32_t* a,
                                              const uint32_t* b, uint32_t mask) {
  const __m256i to_sign = _mm256_setr_epi32(31, 30, 29, 28, 27, 26, 25, 24);
  for (unsigned i = 0; i < kWaveSize; i += 8) {
    const __m256 x = _mm256_loadu_ps(reinterpret_cast<const float*>(a + i));
    const __m256 y = _mm256_loadu_ps(reinterpret_cast<const float*>(b + i));
    const __m256i pick_b = _mm256_sllv_epi32(_mm256_set1_epi32(int(mask >> i)), to_sign);
    __m256 r = _mm256_blendv_ps(x, y, _mm256_castsi256_ps(pick_b));
    if (exec != ~0u) {
      const __m256i on = _mm256_sllv_epi32(_mm256_set1_epi32(int(exec >> i)), to_sign);
      r = _mm256_blendv_ps(_mm256_loadu_ps(reinterpret_cast<const float*>(d + i)), r,
                           _mm256_castsi256_ps(on));
    }
    _mm256_storeu_ps(reinterpret_cast<float*>(d + i), r);
  }
}
#endif

// A destination row kept before a whole-row pass, and put back into the inactive lanes after.
struct KeptRow {
  alignas(16) uint32_t v[kWaveSize];
  [[gnu::always_inline]] void keep(const uint32_t* d) {
#if defined(__SSE2__)
    // 16-byte moves: a memcpy of 128 bytes can become rep movs, several times slower here.
#pragma GCC unroll 8
    for (unsigned i = 0; i < kWaveSize; i += 4) store4(v + i, load4(d + i));
#else
    for (unsigned i = 0; i < kWaveSize; ++i) v[i] = d[i];
#endif
  }
  [[gnu::always_inline]] void restore_inactive(uint32_t exec, uint32_t* d) const {
#if defined(__SSE2__)
    __m128i e = _mm_set1_epi32(int(exec));
#pragma GCC unroll 8
    for (unsigned i = 0; i < kWaveSize; i += 4) {
      store4(d + i, pick(lane_words(e), load4(d + i), load4(v + i)));
      e = _mm_srli_epi32(e, 4);
    }
#else
    for (unsigned l = 0; l < kWaveSize; ++l)
      if (!((exec >> l) & 1)) d[l] = v[l];
#endif
  }
};

// V_BFREV_B32: bit i to bit 31 - i.
[[gnu::always_inline]] inline uint32_t bit_reverse(uint32_t v) {
  v = (v >> 1 & 0x55555555u) | (v & 0x55555555u) << 1;
  v = (v >> 2 & 0x33333333u) | (v & 0x33333333u) << 2;
  v = (v >> 4 & 0x0f0f0f0fu) | (v & 0x0f0f0f0fu) << 4;
  v = (v >> 8 & 0x00ff00ffu) | (v & 0x00ff00ffu) << 8;
  return v >> 16 | v << 16;
}

// V_PERM_B32 (as in valu.cpp): each result byte picks a byte of {src0, src1}, a constant,
// or the sign of byte 1, 3, 5 or 7.
[[gnu::always_inline]] inline uint32_t perm_b32(uint32_t a, uint32_t b, uint32_t sel) {
  const uint64_t bytes = (uint64_t(a) << 32) | b;
  uint32_t r = 0;
  for (int i = 0; i < 4; ++i) {
    const uint32_t s = (sel >> (8 * i)) & 0xff;
    uint32_t v;
    if (s < 8) v = uint32_t(bytes >> (8 * s)) & 0xff;
    else if (s == 12) v = 0;
    else if (s >= 13) v = 0xff;
    else v = ((bytes >> (8 * (2 * (s - 8) + 1) + 7)) & 1) ? 0xff : 0;
    r |= v << (8 * i);
  }
  return r;
}

// V_PERM_B32 with one selector for every lane: each result byte's choice becomes a shift, a
// mask, a multiplier and a constant, decided once, so the lane loop has no branches:
// byte = ((bytes >> shift) & mask) * mul | constant.
inline void perm_uniform(uint32_t exec, uint32_t* d, const uint32_t* a, const uint32_t* b,
                         uint32_t sel) {
  unsigned shift[4];
  uint64_t mask[4], mul[4], constant[4];
  for (int i = 0; i < 4; ++i) {
    const uint32_t s = (sel >> (8 * i)) & 0xff;
    shift[i] = 0, mask[i] = 0, mul[i] = 1, constant[i] = 0;
    if (s < 8) shift[i] = 8 * s, mask[i] = 0xff;
    else if (s == 12) constant[i] = 0;
    else if (s >= 13) constant[i] = 0xff;
    else shift[i] = 8 * (2 * (s - 8) + 1) + 7, mask[i] = 1, mul[i] = 0xff; // sign of a byte
  }
  for_lanes(exec, [&](unsigned l) {
    const uint64_t bytes = (uint64_t(a[l]) << 32) | b[l];
    uint64_t r = 0;
    for (int i = 0; i < 4; ++i)
      r |= ((((bytes >> shift[i]) & mask[i]) * mul[i]) | constant[i]) << (8 * i);
    d[l] = uint32_t(r);
  });
}

// Denormal inputs and results flush to zero in FTZ mode (MODE.FP_DENORM), keeping the sign.
template <bool FTZ> [[gnu::always_inline]] inline float flush(float x) {
  if constexpr (FTZ) return std::fpclassify(x) == FP_SUBNORMAL ? std::copysign(0.0f, x) : x;
  else return x;
}

// The operations of `loops` that call the C library per lane (ldexpf at the normal range's
// edges, frexpf; sqrtf for a negative lane, to set errno): a whole row would make calls for the
// inactive lanes too.
bool calls_per_lane(Op op) {
  return op == Op::v_ldexp_f32 || op == Op::v_frexp_mant_f32 || op == Op::v_frexp_exp_i32_f32 ||
         op == Op::v_sqrt_f32;
}

template <bool FTZ>
[[gnu::always_inline]] inline bool loops_on(Op op, uint32_t exec, const Rows& r);

// The lane loops of the data operations; false when `op` is not one of them. Each writes only
// its destination lane from the same lane of its sources, so a divergent row may run whole.
template <bool FTZ> [[gnu::always_inline]] inline bool loops(Op op, uint32_t exec, const Rows& r) {
  if (!whole_row(exec) || calls_per_lane(op)) return loops_on<FTZ>(op, exec, r);
  KeptRow kept;
  kept.keep(r.d);
  if (!loops_on<FTZ>(op, ~0u, r)) return false;
  kept.restore_inactive(exec, r.d);
  return true;
}

template <bool FTZ>
[[gnu::always_inline]] inline bool loops_on(Op op, uint32_t exec, const Rows& r) {
  uint32_t* const d = r.d;
  const uint32_t *const a = r.a, *const b = r.b, *const c = r.c;
  auto F = [](uint32_t x) { return flush<FTZ>(f32(x)); };
  auto R = [](float x) { return u32(flush<FTZ>(x)); };
  const float k = f32(r.k);
  switch (op) {
  case Op::v_mov_b32: for_lanes(exec, [&](unsigned l) { d[l] = a[l]; }); break;
  case Op::v_add_f32: for_lanes(exec, [&](unsigned l) { d[l] = R(isa_add(F(a[l]), F(b[l]))); }); break;
  case Op::v_sub_f32: for_lanes(exec, [&](unsigned l) { d[l] = R(isa_sub(F(a[l]), F(b[l]))); }); break;
  case Op::v_subrev_f32:
    for_lanes(exec, [&](unsigned l) { d[l] = R(isa_subrev(F(a[l]), F(b[l]))); });
    break;
  case Op::v_mul_f32: for_lanes(exec, [&](unsigned l) { d[l] = R(isa_mul(F(a[l]), F(b[l]))); }); break;
  case Op::v_fma_f32:
    for_lanes(exec, [&](unsigned l) { d[l] = R(isa_fma(F(a[l]), F(b[l]), F(c[l]))); });
    break;
  case Op::v_fmac_f32:
    for_lanes(exec, [&](unsigned l) { d[l] = R(isa_fma(F(a[l]), F(b[l]), F(d[l]))); });
    break;
  case Op::v_fmamk_f32: for_lanes(exec, [&](unsigned l) { d[l] = R(isa_fma(F(a[l]), k, F(b[l]))); }); break;
  case Op::v_fmaak_f32: for_lanes(exec, [&](unsigned l) { d[l] = R(isa_fma(F(a[l]), F(b[l]), k)); }); break;
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
  case Op::v_not_b32: for_lanes(exec, [&](unsigned l) { d[l] = ~a[l]; }); break;
  case Op::v_subrev_nc_u32: for_lanes(exec, [&](unsigned l) { d[l] = b[l] - a[l]; }); break;
  case Op::v_mul_u32_u24:
    for_lanes(exec, [&](unsigned l) { d[l] = (a[l] & 0xffffff) * (b[l] & 0xffffff); });
    break;
  case Op::v_mad_u32_u24:
    for_lanes(exec, [&](unsigned l) { d[l] = (a[l] & 0xffffff) * (b[l] & 0xffffff) + c[l]; });
    break;
  case Op::v_bfe_u32:
    for_lanes(exec, [&](unsigned l) {
      const uint32_t off = b[l] & 31, width = c[l] & 31;
      d[l] = width ? (a[l] >> off) & ((1u << width) - 1) : 0;
    });
    break;
  case Op::v_bfe_i32:
    for_lanes(exec, [&](unsigned l) {
      const uint32_t off = b[l] & 31, width = c[l] & 31;
      d[l] = width ? uint32_t(int32_t(((a[l] >> off) & ((1u << width) - 1)) << (32 - width)) >>
                              (32 - width))
                   : 0;
    });
    break;
  case Op::v_bfi_b32: for_lanes(exec, [&](unsigned l) { d[l] = (a[l] & b[l]) | (~a[l] & c[l]); }); break;
  case Op::v_alignbit_b32:
    for_lanes(exec, [&](unsigned l) { d[l] = uint32_t(((uint64_t(a[l]) << 32) | b[l]) >> (c[l] & 31)); });
    break;
  case Op::v_perm_b32: for_lanes(exec, [&](unsigned l) { d[l] = perm_b32(a[l], b[l], c[l]); }); break;
  case Op::v_lshl_add_u32: for_lanes(exec, [&](unsigned l) { d[l] = (a[l] << (b[l] & 31)) + c[l]; }); break;
  case Op::v_add3_u32: for_lanes(exec, [&](unsigned l) { d[l] = a[l] + b[l] + c[l]; }); break;
  case Op::v_lshl_or_b32: for_lanes(exec, [&](unsigned l) { d[l] = (a[l] << (b[l] & 31)) | c[l]; }); break;
  case Op::v_and_or_b32: for_lanes(exec, [&](unsigned l) { d[l] = (a[l] & b[l]) | c[l]; }); break;
  case Op::v_or3_b32: for_lanes(exec, [&](unsigned l) { d[l] = a[l] | b[l] | c[l]; }); break;
  case Op::v_xad_u32: for_lanes(exec, [&](unsigned l) { d[l] = (a[l] ^ b[l]) + c[l]; }); break;
  case Op::v_xor3_b32: for_lanes(exec, [&](unsigned l) { d[l] = a[l] ^ b[l] ^ c[l]; }); break;
  // Library calls per lane, but no per-lane dispatch (valu.cpp's lines, modifier-free).
  case Op::v_min_f32: for_lanes(exec, [&](unsigned l) { d[l] = R(fmin_ieee(F(a[l]), F(b[l]))); }); break;
  case Op::v_max_f32: for_lanes(exec, [&](unsigned l) { d[l] = R(fmax_ieee(F(a[l]), F(b[l]))); }); break;
  case Op::v_frexp_mant_f32: for_lanes(exec, [&](unsigned l) { d[l] = R(frexp_mant(F(a[l]))); }); break;
  case Op::v_frexp_exp_i32_f32: for_lanes(exec, [&](unsigned l) { d[l] = uint32_t(frexp_exp(F(a[l]))); }); break;
  case Op::v_ldexp_f32:
    for_lanes(exec, [&](unsigned l) { d[l] = R(ldexp_exact(F(a[l]), int32_t(b[l]))); });
    break;
  case Op::v_cvt_f32_i32: for_lanes(exec, [&](unsigned l) { d[l] = R(float(int32_t(a[l]))); }); break;
  case Op::v_cvt_f32_u32: for_lanes(exec, [&](unsigned l) { d[l] = R(float(a[l])); }); break;
  case Op::v_cvt_i32_f32: for_lanes(exec, [&](unsigned l) { d[l] = uint32_t(cvt_f32_to_i32(F(a[l]))); }); break;
  case Op::v_cvt_u32_f32: for_lanes(exec, [&](unsigned l) { d[l] = cvt_f32_to_u32(F(a[l])); }); break;
  case Op::v_rcp_f32: for_lanes(exec, [&](unsigned l) { d[l] = R(1.0f / F(a[l])); }); break;
  case Op::v_sqrt_f32: for_lanes(exec, [&](unsigned l) { d[l] = R(std::sqrt(F(a[l]))); }); break;
  case Op::v_trunc_f32: for_lanes(exec, [&](unsigned l) { d[l] = R(isa_trunc(F(a[l]))); }); break;
  case Op::v_floor_f32: for_lanes(exec, [&](unsigned l) { d[l] = R(isa_floor(F(a[l]))); }); break;
  case Op::v_ceil_f32: for_lanes(exec, [&](unsigned l) { d[l] = R(isa_ceil(F(a[l]))); }); break;
  case Op::v_rndne_f32: for_lanes(exec, [&](unsigned l) { d[l] = R(isa_rndne(F(a[l]))); }); break;
  case Op::v_mul_hi_u32:
    for_lanes(exec, [&](unsigned l) { d[l] = uint32_t((uint64_t(a[l]) * b[l]) >> 32); });
    break;
  case Op::v_mul_hi_i32:
    for_lanes(exec, [&](unsigned l) {
      d[l] = uint32_t(uint64_t(int64_t(int32_t(a[l])) * int32_t(b[l])) >> 32);
    });
    break;
  case Op::v_clz_i32_u32:
    for_lanes(exec, [&](unsigned l) { d[l] = a[l] ? uint32_t(std::countl_zero(a[l])) : ~0u; });
    break;
  case Op::v_bfrev_b32: for_lanes(exec, [&](unsigned l) { d[l] = bit_reverse(a[l]); }); break;
  case Op::v_mul_i32_i24:
    for_lanes(exec, [&](unsigned l) { d[l] = uint32_t(int32_t(a[l] << 8) >> 8) * uint32_t(int32_t(b[l] << 8) >> 8); });
    break;
  case Op::v_mad_i32_i24:
    for_lanes(exec, [&](unsigned l) {
      d[l] = uint32_t(int32_t(a[l] << 8) >> 8) * uint32_t(int32_t(b[l] << 8) >> 8) + c[l];
    });
    break;
  case Op::v_med3_i32:
    for_lanes(exec, [&](unsigned l) {
      const int32_t x = int32_t(a[l]), y = int32_t(b[l]), z = int32_t(c[l]);
      d[l] = uint32_t(std::max(std::min(x, y), std::min(std::max(x, y), z)));
    });
    break;
  case Op::v_med3_u32:
    for_lanes(exec, [&](unsigned l) {
      d[l] = std::max(std::min(a[l], b[l]), std::min(std::max(a[l], b[l]), c[l]));
    });
    break;
  case Op::v_min3_i32:
    for_lanes(exec, [&](unsigned l) { d[l] = uint32_t(std::min(std::min(int32_t(a[l]), int32_t(b[l])), int32_t(c[l]))); });
    break;
  case Op::v_max3_i32:
    for_lanes(exec, [&](unsigned l) { d[l] = uint32_t(std::max(std::max(int32_t(a[l]), int32_t(b[l])), int32_t(c[l]))); });
    break;
  case Op::v_min3_u32: for_lanes(exec, [&](unsigned l) { d[l] = std::min(std::min(a[l], b[l]), c[l]); }); break;
  case Op::v_max3_u32: for_lanes(exec, [&](unsigned l) { d[l] = std::max(std::max(a[l], b[l]), c[l]); }); break;
  default: return false;
  }
  return true;
}

// One operation's loops, for baseline x86-64 and for AVX2 hosts.
using RowLoop = bool (*)(uint32_t exec, const Rows& r, bool ftz);
template <Op kOp> [[gnu::flatten]] bool row_loop_baseline(uint32_t exec, const Rows& r, bool ftz) {
  return ftz ? loops<true>(kOp, exec, r) : loops<false>(kOp, exec, r);
}
template <Op kOp>
[[gnu::target("avx2,fma"), gnu::flatten]] bool row_loop_avx2(uint32_t exec, const Rows& r,
                                                             bool ftz) {
  return ftz ? loops<true>(kOp, exec, r) : loops<false>(kOp, exec, r);
}
// AMCL_SIM_BASELINE_LOOPS=1 keeps the baseline build on AVX2 hosts too (the tests run both).
bool pick_baseline() {
  if (const char* v = std::getenv("AMCL_SIM_BASELINE_LOOPS"); v && *v == '1') return true;
  __builtin_cpu_init(); // this runs from a static initializer, maybe before libgcc's own
  return !(__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"));
}
const bool kBaseline = pick_baseline();
// v_cndmask_b32's rows (select_rows).
using SelectRows = void (*)(uint32_t exec, uint32_t* d, const uint32_t* a, const uint32_t* b,
                            uint32_t mask);
#if defined(__x86_64__)
const SelectRows kSelectRows = kBaseline ? &select_rows : &select_rows_avx2;
#else
const SelectRows kSelectRows = &select_rows;
#endif
// A table by operation of the functions `pick` gives for each operation of `kOps` (as an
// std::integral_constant), null for the others.
template <class Fn, const auto& kOps, class Pick, size_t... I>
std::array<Fn, size_t(Op::kCount)> op_table(Pick pick, std::index_sequence<I...>) {
  std::array<Fn, size_t(Op::kCount)> t{};
  ((t[size_t(kOps[I])] = pick(std::integral_constant<Op, kOps[I]>{})), ...);
  return t;
}
template <class Fn, const auto& kOps, class Pick>
std::array<Fn, size_t(Op::kCount)> op_table(Pick pick) {
  return op_table<Fn, kOps>(pick, std::make_index_sequence<std::size(kOps)>{});
}
// kRowLoops[op]: the loop of each operation of kRowOps.
const auto kRowLoops = op_table<RowLoop, kRowOps>(
    [](auto op) -> RowLoop { return kBaseline ? &row_loop_baseline<op()> : &row_loop_avx2<op()>; });

// 16-bit integer operations on true16 halves (op_sel picks each source's half and the
// destination's, whose other half is kept), as valu.cpp defines them; without clamp, so
// the adds and multiplies wrap alike signed or unsigned.
bool fast_op16(Op op) {
  switch (op) {
  case Op::v_mov_b16: case Op::v_not_b16: case Op::v_add_nc_u16: case Op::v_sub_nc_u16:
  case Op::v_add_nc_i16: case Op::v_sub_nc_i16: case Op::v_mul_lo_u16: case Op::v_and_b16:
  case Op::v_or_b16: case Op::v_xor_b16: case Op::v_lshlrev_b16: case Op::v_lshrrev_b16:
  case Op::v_ashrrev_i16: case Op::v_max_u16: case Op::v_min_u16: case Op::v_max_i16:
  case Op::v_min_i16: case Op::v_cndmask_b16: case Op::v_cvt_i32_i16: case Op::v_cvt_u32_u16:
  case Op::v_mad_u16: case Op::v_mad_i16: case Op::v_min3_i16: case Op::v_max3_i16:
  case Op::v_med3_i16: case Op::v_min3_u16: case Op::v_max3_u16: case Op::v_med3_u16:
  case Op::v_cvt_i16_f16: case Op::v_cvt_u16_f16: case Op::v_floor_f16: case Op::v_ceil_f16:
  case Op::v_trunc_f16: case Op::v_rndne_f16:
    return true;
  default:
    return false;
  }
}

// The rows of a 16-bit operation: each source's row and whether it is read (or the
// destination written) in its high half.
struct Rows16 {
  uint32_t* d;
  const uint32_t *a, *b, *c;
  bool ha, hb, hc, hd;
  uint32_t mask; // v_cndmask_b16's lane mask
};

// One half of each lane of a row: with a constant shift each, so the loops vectorise.
[[gnu::always_inline]] inline void extract(const uint32_t* row, bool high, uint16_t* out) {
  if (!row) return;
  if (high)
    for (unsigned l = 0; l < kWaveSize; ++l) out[l] = uint16_t(row[l] >> 16);
  else
    for (unsigned l = 0; l < kWaveSize; ++l) out[l] = uint16_t(row[l]);
}

// Computes every lane's result from the sources' halves (pure arithmetic, harmless on
// inactive lanes), then writes the active lanes' halves, keeping the other half.
[[gnu::always_inline]] inline bool loops16(Op op, uint32_t exec, const Rows16& r) {
  alignas(32) uint16_t A[kWaveSize], B[kWaveSize], C[kWaveSize], R[kWaveSize];
  extract(r.a, r.ha, A);
  extract(r.b, r.hb, B);
  extract(r.c, r.hc, C);
  uint32_t* const d = r.d;
  auto all = [](auto&& f) {
    for (unsigned l = 0; l < kWaveSize; ++l) f(l);
  };
  auto I = [](uint16_t v) { return int16_t(v); };
  switch (op) {
  case Op::v_mov_b16: all([&](unsigned l) { R[l] = A[l]; }); break;
  case Op::v_not_b16: all([&](unsigned l) { R[l] = uint16_t(~A[l]); }); break;
  case Op::v_add_nc_u16: case Op::v_add_nc_i16: all([&](unsigned l) { R[l] = uint16_t(A[l] + B[l]); }); break;
  case Op::v_sub_nc_u16: case Op::v_sub_nc_i16: all([&](unsigned l) { R[l] = uint16_t(A[l] - B[l]); }); break;
  case Op::v_mul_lo_u16: all([&](unsigned l) { R[l] = uint16_t(uint32_t(A[l]) * B[l]); }); break;
  case Op::v_and_b16: all([&](unsigned l) { R[l] = A[l] & B[l]; }); break;
  case Op::v_or_b16: all([&](unsigned l) { R[l] = A[l] | B[l]; }); break;
  case Op::v_xor_b16: all([&](unsigned l) { R[l] = A[l] ^ B[l]; }); break;
  case Op::v_lshlrev_b16: all([&](unsigned l) { R[l] = uint16_t(B[l] << (A[l] & 15)); }); break;
  case Op::v_lshrrev_b16: all([&](unsigned l) { R[l] = uint16_t(B[l] >> (A[l] & 15)); }); break;
  case Op::v_ashrrev_i16: all([&](unsigned l) { R[l] = uint16_t(I(B[l]) >> (A[l] & 15)); }); break;
  case Op::v_max_u16: all([&](unsigned l) { R[l] = std::max(A[l], B[l]); }); break;
  case Op::v_min_u16: all([&](unsigned l) { R[l] = std::min(A[l], B[l]); }); break;
  case Op::v_max_i16: all([&](unsigned l) { R[l] = uint16_t(std::max(I(A[l]), I(B[l]))); }); break;
  case Op::v_min_i16: all([&](unsigned l) { R[l] = uint16_t(std::min(I(A[l]), I(B[l]))); }); break;
  case Op::v_cndmask_b16: {
    // Branch-free: the mask is data, a branch per lane would mispredict half the time.
    const uint32_t mask = r.mask;
    all([&](unsigned l) {
      const uint16_t pick_b = uint16_t(0u - ((mask >> l) & 1));
      R[l] = uint16_t((B[l] & pick_b) | (A[l] & ~pick_b));
    });
    break;
  }
  // Whole-register results.
  case Op::v_cvt_i32_i16: for_lanes(exec, [&](unsigned l) { d[l] = uint32_t(int32_t(I(A[l]))); }); return true;
  case Op::v_cvt_u32_u16: for_lanes(exec, [&](unsigned l) { d[l] = A[l]; }); return true;
  case Op::v_mad_u16: case Op::v_mad_i16: all([&](unsigned l) { R[l] = uint16_t(uint32_t(A[l]) * B[l] + C[l]); }); break;
  case Op::v_min3_i16:
    all([&](unsigned l) { R[l] = uint16_t(std::min(std::min(I(A[l]), I(B[l])), I(C[l]))); });
    break;
  case Op::v_max3_i16:
    all([&](unsigned l) { R[l] = uint16_t(std::max(std::max(I(A[l]), I(B[l])), I(C[l]))); });
    break;
  case Op::v_med3_i16:
    all([&](unsigned l) {
      const int16_t x = I(A[l]), y = I(B[l]), z = I(C[l]);
      R[l] = uint16_t(std::max(std::min(x, y), std::min(std::max(x, y), z)));
    });
    break;
  // f16 operations (valu.cpp's lines, modifier-free; clamp is refused before).
  case Op::v_cvt_i16_f16:
    all([&](unsigned l) {
      const float x = h2f(A[l]);
      R[l] = std::isnan(x) ? 0 : uint16_t(int16_t(std::clamp(x, -32768.0f, 32767.0f)));
    });
    break;
  case Op::v_cvt_u16_f16:
    all([&](unsigned l) {
      const float x = h2f(A[l]);
      R[l] = std::isnan(x) ? 0 : uint16_t(std::clamp(x, 0.0f, 65535.0f));
    });
    break;
  case Op::v_floor_f16: all([&](unsigned l) { R[l] = f2h(std::floor(h2f(A[l]))); }); break;
  case Op::v_ceil_f16: all([&](unsigned l) { R[l] = f2h(std::ceil(h2f(A[l]))); }); break;
  case Op::v_trunc_f16: all([&](unsigned l) { R[l] = f2h(std::trunc(h2f(A[l]))); }); break;
  case Op::v_rndne_f16: all([&](unsigned l) { R[l] = f2h(std::nearbyint(h2f(A[l]))); }); break;
  case Op::v_min3_u16: all([&](unsigned l) { R[l] = std::min(std::min(A[l], B[l]), C[l]); }); break;
  case Op::v_max3_u16: all([&](unsigned l) { R[l] = std::max(std::max(A[l], B[l]), C[l]); }); break;
  case Op::v_med3_u16:
    all([&](unsigned l) {
      const uint16_t x = A[l], y = B[l], z = C[l];
      R[l] = std::max(std::min(x, y), std::min(std::max(x, y), z));
    });
    break;
  default: return false;
  }
  if (r.hd)
    for_lanes(exec, [&](unsigned l) { d[l] = (d[l] & 0xffffu) | (uint32_t(R[l]) << 16); });
  else
    for_lanes(exec, [&](unsigned l) { d[l] = (d[l] & 0xffff0000u) | R[l]; });
  return true;
}
[[gnu::flatten]] bool loops16_baseline(Op op, uint32_t exec, const Rows16& r) { return loops16(op, exec, r); }
[[gnu::target("avx2"), gnu::flatten]] bool loops16_avx2(Op op, uint32_t exec, const Rows16& r) {
  return loops16(op, exec, r);
}
// The packed 16-bit integer operations without clamp (vop3p.cpp's exec_vop3p): each lane's
// low and high results from the halves op_sel and op_sel_hi pick.
bool fast_packed_op(Op op) {
  switch (op) {
  case Op::v_pk_mul_lo_u16: case Op::v_pk_add_u16: case Op::v_pk_sub_u16: case Op::v_pk_add_i16:
  case Op::v_pk_sub_i16: case Op::v_pk_max_i16: case Op::v_pk_min_i16: case Op::v_pk_max_u16:
  case Op::v_pk_min_u16: case Op::v_pk_mad_u16: case Op::v_pk_mad_i16: case Op::v_pk_lshlrev_b16:
  case Op::v_pk_lshrrev_b16: case Op::v_pk_ashrrev_i16:
    return true;
  default:
    return false;
  }
}

struct PackedRows {
  uint32_t* d;
  const uint32_t* src[3];
  uint8_t opsel, opsel_hi;
};

[[gnu::always_inline]] inline void packed_half(Op op, const uint16_t* A, const uint16_t* B,
                                               const uint16_t* C, uint16_t* R) {
  auto all = [](auto&& f) {
    for (unsigned l = 0; l < kWaveSize; ++l) f(l);
  };
  auto I = [](uint16_t v) { return int16_t(v); };
  switch (op) {
  case Op::v_pk_mul_lo_u16: all([&](unsigned l) { R[l] = uint16_t(uint32_t(A[l]) * B[l]); }); break;
  case Op::v_pk_add_u16: case Op::v_pk_add_i16: all([&](unsigned l) { R[l] = uint16_t(A[l] + B[l]); }); break;
  case Op::v_pk_sub_u16: case Op::v_pk_sub_i16: all([&](unsigned l) { R[l] = uint16_t(A[l] - B[l]); }); break;
  case Op::v_pk_max_i16: all([&](unsigned l) { R[l] = uint16_t(std::max(I(A[l]), I(B[l]))); }); break;
  case Op::v_pk_min_i16: all([&](unsigned l) { R[l] = uint16_t(std::min(I(A[l]), I(B[l]))); }); break;
  case Op::v_pk_max_u16: all([&](unsigned l) { R[l] = std::max(A[l], B[l]); }); break;
  case Op::v_pk_min_u16: all([&](unsigned l) { R[l] = std::min(A[l], B[l]); }); break;
  case Op::v_pk_mad_u16: case Op::v_pk_mad_i16:
    all([&](unsigned l) { R[l] = uint16_t(uint32_t(A[l]) * B[l] + C[l]); });
    break;
  case Op::v_pk_lshlrev_b16: all([&](unsigned l) { R[l] = uint16_t(B[l] << (A[l] & 15)); }); break;
  case Op::v_pk_lshrrev_b16: all([&](unsigned l) { R[l] = uint16_t(B[l] >> (A[l] & 15)); }); break;
  default: all([&](unsigned l) { R[l] = uint16_t(I(B[l]) >> (A[l] & 15)); }); break; // ashrrev
  }
}

[[gnu::always_inline]] inline void packed_loops(Op op, uint32_t exec, const PackedRows& r) {
  alignas(32) uint16_t H[2][3][kWaveSize], R[2][kWaveSize];
  const unsigned n = op == Op::v_pk_mad_u16 || op == Op::v_pk_mad_i16 ? 3 : 2;
  for (unsigned i = 0; i < n; ++i) {
    extract(r.src[i], (r.opsel >> i) & 1, H[0][i]);
    extract(r.src[i], (r.opsel_hi >> i) & 1, H[1][i]);
  }
  for (unsigned hi = 0; hi < 2; ++hi) packed_half(op, H[hi][0], H[hi][1], H[hi][2], R[hi]);
  uint32_t* const d = r.d;
  for_lanes(exec, [&](unsigned l) { d[l] = R[0][l] | (uint32_t(R[1][l]) << 16); });
}
void packed_baseline(Op op, uint32_t exec, const PackedRows& r) { packed_loops(op, exec, r); }
[[gnu::target("avx2")]] void packed_avx2(Op op, uint32_t exec, const PackedRows& r) {
  packed_loops(op, exec, r);
}

using Loops16 = bool (*)(Op, uint32_t, const Rows16&);
const Loops16 kLoops16 = kBaseline ? &loops16_baseline : &loops16_avx2;
using Packed = void (*)(Op, uint32_t, const PackedRows&);
const Packed kPacked = kBaseline ? &packed_baseline : &packed_avx2;

// The mask of the active lanes for which pred(lane) holds (inactive lanes' bits are clear).
// pred reads lane `lane` of its rows and nothing else, so a divergent row is tested whole.
template <class P> [[gnu::always_inline]] inline uint32_t lane_mask(uint32_t exec, P&& pred) {
  uint32_t mask = 0;
  if (exec == ~0u || whole_row(exec)) {
#if defined(__SSE2__)
    // A byte per lane (the compares vectorise), gathered into bits by pmovmskb.
    alignas(16) uint8_t r[kWaveSize];
    for (unsigned lane = 0; lane < kWaveSize; ++lane) r[lane] = uint8_t(0u - uint8_t(pred(lane)));
    const auto* v = reinterpret_cast<const __m128i*>(r);
    mask = uint32_t(_mm_movemask_epi8(_mm_load_si128(v))) |
           uint32_t(_mm_movemask_epi8(_mm_load_si128(v + 1))) << 16;
#else
    for (unsigned lane = 0; lane < kWaveSize; ++lane) mask |= uint32_t(pred(lane)) << lane;
#endif
    return mask & exec;
  } else {
    for (uint32_t m = exec; m; m &= m - 1) {
      const unsigned lane = unsigned(std::countr_zero(m));
      mask |= uint32_t(pred(lane)) << lane;
    }
  }
  return mask;
}

// The integer comparisons (int_ops.h's compare_i) of two rows of U read as T, the
// predicate chosen once.
template <class T, class U>
[[gnu::always_inline]] inline uint32_t compare_rows_i(unsigned pred, uint32_t exec, const U* a,
                                                      const U* b) {
  auto X = [&](unsigned l) { return T(a[l]); };
  auto Y = [&](unsigned l) { return T(b[l]); };
  switch (pred & 7) {
  case 0: return 0;
  case 1: return lane_mask(exec, [&](unsigned l) { return X(l) < Y(l); });
  case 2: return lane_mask(exec, [&](unsigned l) { return X(l) == Y(l); });
  case 3: return lane_mask(exec, [&](unsigned l) { return X(l) <= Y(l); });
  case 4: return lane_mask(exec, [&](unsigned l) { return X(l) > Y(l); });
  case 5: return lane_mask(exec, [&](unsigned l) { return X(l) != Y(l); });
  case 6: return lane_mask(exec, [&](unsigned l) { return X(l) >= Y(l); });
  default: return exec;
  }
}

// The float comparisons (float_ops.h's compare_f; f32 compares exactly as its doubles would).
// U is the rows' element, uint32_t for f32 and uint64_t for f64 (from_bits gives the float).
template <class U>
[[gnu::always_inline]] inline uint32_t compare_rows_f(unsigned pred, uint32_t exec, const U* a,
                                                      const U* b) {
  using std::isnan;
  auto X = [&](unsigned l) { return from_bits(a[l]); };
  auto Y = [&](unsigned l) { return from_bits(b[l]); };
  switch (pred & 0xf) {
  case 0x0: return 0;
  case 0x1: return lane_mask(exec, [&](unsigned l) { return X(l) < Y(l); });
  case 0x2: return lane_mask(exec, [&](unsigned l) { return X(l) == Y(l); });
  case 0x3: return lane_mask(exec, [&](unsigned l) { return X(l) <= Y(l); });
  case 0x4: return lane_mask(exec, [&](unsigned l) { return X(l) > Y(l); });
  case 0x5: return lane_mask(exec, [&](unsigned l) { return X(l) < Y(l) || X(l) > Y(l); });
  case 0x6: return lane_mask(exec, [&](unsigned l) { return X(l) >= Y(l); });
  case 0x7: return lane_mask(exec, [&](unsigned l) { return !isnan(X(l)) && !isnan(Y(l)); });
  case 0x8: return lane_mask(exec, [&](unsigned l) { return isnan(X(l)) || isnan(Y(l)); });
  case 0x9: return lane_mask(exec, [&](unsigned l) { return !(X(l) >= Y(l)); });
  case 0xa: return lane_mask(exec, [&](unsigned l) { return !(X(l) < Y(l) || X(l) > Y(l)); });
  case 0xb: return lane_mask(exec, [&](unsigned l) { return !(X(l) > Y(l)); });
  case 0xc: return lane_mask(exec, [&](unsigned l) { return !(X(l) <= Y(l)); });
  case 0xd: return lane_mask(exec, [&](unsigned l) { return !(X(l) == Y(l)); });
  case 0xe: return lane_mask(exec, [&](unsigned l) { return !(X(l) < Y(l)); });
  default: return exec;
  }
}

// v_add_co_u32 / v_add_co_ci_u32 on rows: the carry-out mask first (d may be a source row),
// from compares that vectorise (a lane's carry-in bit as a row, s + 1 wraps only from ~0). A
// scalar source (the usual base address) stays in a register, not a broadcast row (which the
// vector loads would read back from 32 scalar stores).
template <bool ScalarA>
[[gnu::always_inline]] inline uint32_t add_carry(uint32_t exec, uint32_t* d, const uint32_t* a,
                                                 uint32_t a0, const uint32_t* b,
                                                 uint32_t carry_in) {
  auto A = [&](unsigned l) {
    if constexpr (ScalarA) return a0;
    else return a[l];
  };
  if (!carry_in) { // v_add_co_u32, or no lane carrying in
    const uint32_t carry = lane_mask(exec, [&](unsigned l) { return A(l) + b[l] < A(l); });
    for_lanes(exec, [&](unsigned l) { d[l] = A(l) + b[l]; });
    return carry;
  }
  alignas(32) uint32_t ci[kWaveSize];
  for (unsigned l = 0; l < kWaveSize; ++l) ci[l] = (carry_in >> l) & 1;
  const uint32_t carry = lane_mask(exec, [&](unsigned l) {
    const uint32_t s = A(l) + b[l];
    return (s < A(l)) | (ci[l] & (s == ~0u));
  });
  for_lanes(exec, [&](unsigned l) { d[l] = A(l) + b[l] + ci[l]; });
  return carry;
}
template <bool ScalarA>
uint32_t add_carry_baseline(uint32_t exec, uint32_t* d, const uint32_t* a, uint32_t a0,
                            const uint32_t* b, uint32_t carry_in) {
  return add_carry<ScalarA>(exec, d, a, a0, b, carry_in);
}
#if defined(__x86_64__)
// add_carry of a full wave in AVX2, eight lanes a step: the compiler's form of the loops packed
// each compare's dwords to bytes for pmovmskb (add_carry was 10 % of the memory kernel's
// samples, perf stop 34); movmskps takes the dword compares' sign bits directly. The carry-in
// bits become all-ones lanes, and sum - (-1) adds them.
template <bool ScalarA>
[[gnu::target("avx2"), gnu::always_inline]] inline uint32_t
add_carry_full_avx2(uint32_t* d, const uint32_t* a, uint32_t a0, const uint32_t* b,
                    uint32_t carry_in) {
  const __m256i sign = _mm256_set1_epi32(int32_t(0x80000000u));
  const __m256i bits = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
  const __m256i ones = _mm256_set1_epi32(-1);
  uint32_t carry = 0;
#pragma GCC unroll 4
  for (unsigned q = 0; q < kWaveSize / 8; ++q) {
    const __m256i x = ScalarA ? _mm256_set1_epi32(int32_t(a0))
                              : _mm256_loadu_si256(reinterpret_cast<const __m256i*>(a + 8 * q));
    const __m256i y = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b + 8 * q));
    __m256i sum = _mm256_add_epi32(x, y);
    // sum < x unsigned: a carry out of x + y.
    __m256i out = _mm256_cmpgt_epi32(_mm256_xor_si256(x, sign), _mm256_xor_si256(sum, sign));
    const __m256i in = _mm256_cmpeq_epi32(
        _mm256_and_si256(_mm256_set1_epi32(int32_t(carry_in >> (8 * q))), bits), bits);
    out = _mm256_or_si256(out, _mm256_and_si256(in, _mm256_cmpeq_epi32(sum, ones)));
    sum = _mm256_sub_epi32(sum, in);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(d + 8 * q), sum);
    carry |= uint32_t(_mm256_movemask_ps(_mm256_castsi256_ps(out))) << (8 * q);
  }
  return carry;
}
#endif
template <bool ScalarA>
[[gnu::target("avx2")]] uint32_t add_carry_avx2(uint32_t exec, uint32_t* d, const uint32_t* a,
                                                uint32_t a0, const uint32_t* b,
                                                uint32_t carry_in) {
#if defined(__x86_64__)
  if (exec == ~0u) return add_carry_full_avx2<ScalarA>(d, a, a0, b, carry_in);
#endif
  return add_carry<ScalarA>(exec, d, a, a0, b, carry_in);
}
using AddCarry = uint32_t (*)(uint32_t, uint32_t*, const uint32_t*, uint32_t, const uint32_t*,
                              uint32_t);
// [0]: two rows, [1]: a scalar and a row.
const AddCarry kAddCarry[2] = {kBaseline ? &add_carry_baseline<false> : &add_carry_avx2<false>,
                               kBaseline ? &add_carry_baseline<true> : &add_carry_avx2<true>};

// The 64-bit operations' lane loops (exec_valu64_fast resolves the rows): r from a (the shift
// or first factor), b (the second factor) and x (the 64-bit source); returns the carry-out
// mask of the multiply-adds.
[[gnu::always_inline]] inline uint32_t loops64(Op op, uint32_t exec, const uint32_t* a,
                                               const uint32_t* b, const uint64_t* x,
                                               uint64_t* r) {
  switch (op) {
  case Op::v_lshlrev_b64:
    for_lanes(exec, [&](unsigned l) { r[l] = x[l] << (a[l] & 63); });
    return 0;
  case Op::v_lshrrev_b64:
    for_lanes(exec, [&](unsigned l) { r[l] = x[l] >> (a[l] & 63); });
    return 0;
  case Op::v_ashrrev_i64:
    for_lanes(exec, [&](unsigned l) { r[l] = uint64_t(int64_t(x[l]) >> (a[l] & 63)); });
    return 0;
  case Op::v_mad_u64_u32:
    for_lanes(exec, [&](unsigned l) { r[l] = uint64_t(a[l]) * b[l] + x[l]; });
    return lane_mask(exec, [&](unsigned l) { return r[l] < uint64_t(a[l]) * b[l]; });
  default: { // v_mad_i64_i32
    uint32_t carry = 0;
    for_lanes(exec, [&](unsigned l) {
      const int64_t p = int64_t(int32_t(a[l])) * int64_t(int32_t(b[l]));
      int64_t sum;
      carry |= uint32_t(__builtin_add_overflow(p, int64_t(x[l]), &sum)) << l;
      r[l] = uint64_t(sum);
    });
    return carry;
  }
  }
}
uint32_t loops64_baseline(Op op, uint32_t exec, const uint32_t* a, const uint32_t* b,
                          const uint64_t* x, uint64_t* r) {
  return loops64(op, exec, a, b, x, r);
}
[[gnu::target("avx2")]] uint32_t loops64_avx2(Op op, uint32_t exec, const uint32_t* a,
                                              const uint32_t* b, const uint64_t* x,
                                              uint64_t* r) {
  return loops64(op, exec, a, b, x, r);
}
using Loops64 = uint32_t (*)(Op, uint32_t, const uint32_t*, const uint32_t*, const uint64_t*,
                             uint64_t*);
const Loops64 kLoops64 = kBaseline ? &loops64_baseline : &loops64_avx2;

// The 64-bit address arithmetic with uniform operands (exec_valu64_fast picks the form) on
// 32-bit halves, which vectorise where the 64-bit lanes did not; results go through rows on
// the stack, since the destination pair may overlap the source pair. Returns the carry-out
// mask of the multiply-adds. Built for baseline x86-64 and for AVX2 (twice the lanes a step).
enum class Uniform64 {
  shift,      // lo:hi << s (s in 1..63; 0 copies)
  add,        // lo:hi + c (v_mad_u64_u32 of two uniform factors, c their product)
  mad_factor, // s * lo + c (v_mad_u64_u32 of a uniform factor and a VGPR, c uniform)
};
[[gnu::always_inline]] inline uint32_t uniform64(Uniform64 kind, uint32_t exec, const uint32_t* lo,
                                                 const uint32_t* hi, uint32_t s, uint64_t c,
                                                 uint32_t* dlo, uint32_t* dhi) {
  alignas(32) uint32_t rlo[kWaveSize], rhi[kWaveSize], wrap[kWaveSize];
  const uint32_t clo = uint32_t(c), chi = uint32_t(c >> 32);
  uint32_t carry = 0;
  switch (kind) {
  case Uniform64::shift:
    if (s == 0) {
      std::copy_n(lo, kWaveSize, rlo);
      std::copy_n(hi, kWaveSize, rhi);
    } else if (s < 32) {
      for (unsigned l = 0; l < kWaveSize; ++l)
        rlo[l] = lo[l] << s, rhi[l] = hi[l] << s | lo[l] >> (32 - s);
    } else {
      for (unsigned l = 0; l < kWaveSize; ++l) rlo[l] = 0, rhi[l] = lo[l] << (s - 32);
    }
    break;
  case Uniform64::add:
    for (unsigned l = 0; l < kWaveSize; ++l) {
      rlo[l] = lo[l] + clo;
      const uint32_t t = hi[l] + chi;
      rhi[l] = t + uint32_t(rlo[l] < clo);
      wrap[l] = uint32_t(t < chi) | uint32_t(rhi[l] < t);
    }
    carry = lane_mask(exec, [&](unsigned l) { return wrap[l] != 0; });
    break;
  case Uniform64::mad_factor:
    for (unsigned l = 0; l < kWaveSize; ++l) {
      const uint64_t p = uint64_t(s) * lo[l];
      rlo[l] = uint32_t(p) + clo;
      const uint32_t t = uint32_t(p >> 32) + chi;
      rhi[l] = t + uint32_t(rlo[l] < clo);
      wrap[l] = uint32_t(t < chi) | uint32_t(rhi[l] < t);
    }
    carry = lane_mask(exec, [&](unsigned l) { return wrap[l] != 0; });
    break;
  }
  for_lanes(exec, [&](unsigned l) { dlo[l] = rlo[l], dhi[l] = rhi[l]; });
  return carry;
}
uint32_t uniform64_baseline(Uniform64 kind, uint32_t exec, const uint32_t* lo, const uint32_t* hi,
                            uint32_t s, uint64_t c, uint32_t* dlo, uint32_t* dhi) {
  return uniform64(kind, exec, lo, hi, s, c, dlo, dhi);
}
[[gnu::target("avx2")]] uint32_t uniform64_avx2(Uniform64 kind, uint32_t exec, const uint32_t* lo,
                                                const uint32_t* hi, uint32_t s, uint64_t c,
                                                uint32_t* dlo, uint32_t* dhi) {
  return uniform64(kind, exec, lo, hi, s, c, dlo, dhi);
}
using Uniform64Loops = uint32_t (*)(Uniform64, uint32_t, const uint32_t*, const uint32_t*, uint32_t,
                                    uint64_t, uint32_t*, uint32_t*);
const Uniform64Loops kUniform64 = kBaseline ? &uniform64_baseline : &uniform64_avx2;

// The rows of an f64 operation: each source's low and high halves (VGPR rows or a scalar's
// halves broadcast; a 32-bit source has only `lo`) with its abs (clear) and neg (flip) as
// sign-bit masks, the destination's halves, and VCC (V_DIV_FMAS reads it).
struct F64Rows {
  const uint32_t *lo[3], *hi[3];
  uint64_t clear[3], flip[3];
  uint32_t *dlo, *dhi;
  uint32_t vcc;
};

// The f64 operations valu.cpp defines (no f64 denormal flushing there either), pairs packed and
// unpacked in the loop so that the arithmetic runs in the host's vector registers; returns the
// lane mask V_DIV_SCALE writes.
[[gnu::always_inline]] inline uint32_t loops_f64(Op op, uint32_t exec, const F64Rows& r) {
  auto x = [&](unsigned i, unsigned l) AMCL_INLINE {
    return f64(((uint64_t(r.lo[i][l]) | uint64_t(r.hi[i][l]) << 32) & ~r.clear[i]) ^ r.flip[i]);
  };
  auto put = [&](unsigned l, double v) AMCL_INLINE {
    const uint64_t bits = u64(v);
    r.dlo[l] = uint32_t(bits), r.dhi[l] = uint32_t(bits >> 32);
  };
  switch (op) {
  case Op::v_add_f64: for_lanes(exec, [&](unsigned l) { put(l, isa_add(x(0, l), x(1, l))); }); break;
  case Op::v_mul_f64: for_lanes(exec, [&](unsigned l) { put(l, isa_mul(x(0, l), x(1, l))); }); break;
  case Op::v_min_f64: for_lanes(exec, [&](unsigned l) { put(l, fmin_ieee(x(0, l), x(1, l))); }); break;
  case Op::v_max_f64: for_lanes(exec, [&](unsigned l) { put(l, fmax_ieee(x(0, l), x(1, l))); }); break;
  case Op::v_fma_f64:
    for_lanes(exec, [&](unsigned l) { put(l, isa_fma(x(0, l), x(1, l), x(2, l))); });
    break;
  // Library calls or branches per lane, but no per-lane dispatch (valu.cpp's lines).
  case Op::v_ldexp_f64:
    for_lanes(exec, [&](unsigned l) { put(l, ldexp_exact(x(0, l), int32_t(r.lo[1][l]))); });
    break;
  case Op::v_trunc_f64: for_lanes(exec, [&](unsigned l) { put(l, isa_trunc(x(0, l))); }); break;
  case Op::v_ceil_f64: for_lanes(exec, [&](unsigned l) { put(l, isa_ceil(x(0, l))); }); break;
  case Op::v_rndne_f64: for_lanes(exec, [&](unsigned l) { put(l, isa_rndne(x(0, l))); }); break;
  case Op::v_floor_f64: for_lanes(exec, [&](unsigned l) { put(l, isa_floor(x(0, l))); }); break;
  case Op::v_rcp_f64: for_lanes(exec, [&](unsigned l) { put(l, 1.0 / x(0, l)); }); break;
  case Op::v_rsq_f64: for_lanes(exec, [&](unsigned l) { put(l, 1.0 / std::sqrt(x(0, l))); }); break;
  case Op::v_cvt_f64_i32: for_lanes(exec, [&](unsigned l) { put(l, double(int32_t(r.lo[0][l]))); }); break;
  case Op::v_cvt_f64_u32: for_lanes(exec, [&](unsigned l) { put(l, double(r.lo[0][l])); }); break;
  // 32-bit results: the destination's low register only.
  case Op::v_cvt_i32_f64:
    for_lanes(exec, [&](unsigned l) {
      const double v = x(0, l);
      r.dlo[l] = std::isnan(v) ? 0 : uint32_t(int32_t(std::clamp(v, -2147483648.0, 2147483647.0)));
    });
    break;
  case Op::v_cvt_u32_f64:
    for_lanes(exec, [&](unsigned l) {
      const double v = x(0, l);
      r.dlo[l] = std::isnan(v) ? 0 : uint32_t(std::clamp(v, 0.0, 4294967295.0));
    });
    break;
  case Op::v_div_fixup_f64:
    for_lanes(exec, [&](unsigned l) { put(l, div_fixup(x(0, l), x(1, l), x(2, l), -1075)); });
    break;
  case Op::v_div_fmas_f64:
    for_lanes(exec, [&](unsigned l) {
      put(l, div_fmas_f64(x(0, l), x(1, l), x(2, l), (r.vcc >> l) & 1));
    });
    break;
  default: { // v_div_scale_f64
    uint32_t vcc = 0;
    for_lanes(exec, [&](unsigned l) {
      bool v;
      put(l, div_scale(x(0, l), x(1, l), x(2, l), v, 768, 128, 53));
      vcc |= uint32_t(v) << l;
    });
    return vcc;
  }
  }
  return 0;
}
#if defined(__x86_64__)
// v_add_f64, v_mul_f64 and v_fma_f64 four lanes a step in AVX2: the lanes' halves gathered
// into doubles, the host's operation, the results split back into the two rows. A step whose
// result holds a NaN takes the lane loop's first-NaN rule for its four lanes (the host's
// operation gives any other result exactly as the lane loop does). A divergent row runs whole
// and keeps the inactive lanes (as `loops`): GCC vectorises none of the lane loop.
template <Op kOp>
[[gnu::target("avx2,fma"), gnu::always_inline]] inline void f64_arith_avx2(uint32_t exec,
                                                                           const F64Rows& r) {
  const __m256i gather = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
  const __m256i split = _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7);
  constexpr Op op = kOp;
  constexpr unsigned n = op == Op::v_fma_f64 ? 3 : 2;
  __m256i clear[3], flip[3];
  for (unsigned i = 0; i < n; ++i) {
    clear[i] = _mm256_set1_epi64x(int64_t(r.clear[i]));
    flip[i] = _mm256_set1_epi64x(int64_t(r.flip[i]));
  }
  __m128i e = _mm_set1_epi32(int(exec));
  for (unsigned l = 0; l < kWaveSize; l += 4) {
    __m256d x[3];
#pragma GCC unroll 3
    for (unsigned i = 0; i < n; ++i) {
      const __m256i halves = _mm256_setr_m128i(load4(r.lo[i] + l), load4(r.hi[i] + l));
      const __m256i bits = _mm256_permutevar8x32_epi32(halves, gather);
      x[i] = _mm256_castsi256_pd(_mm256_xor_si256(_mm256_andnot_si256(clear[i], bits), flip[i]));
    }
    __m256d v = op == Op::v_add_f64   ? _mm256_add_pd(x[0], x[1])
                : op == Op::v_mul_f64 ? _mm256_mul_pd(x[0], x[1])
                                      : _mm256_fmadd_pd(x[0], x[1], x[2]);
    if (_mm256_movemask_pd(_mm256_cmp_pd(v, v, _CMP_UNORD_Q))) [[unlikely]] {
      alignas(32) double a[3][4], res[4];
      for (unsigned i = 0; i < n; ++i) _mm256_store_pd(a[i], x[i]);
      for (unsigned k = 0; k < 4; ++k)
        res[k] = op == Op::v_add_f64   ? isa_add(a[0][k], a[1][k])
                 : op == Op::v_mul_f64 ? isa_mul(a[0][k], a[1][k])
                                       : isa_fma(a[0][k], a[1][k], a[2][k]);
      v = _mm256_load_pd(res);
    }
    const __m256i out = _mm256_permutevar8x32_epi32(_mm256_castpd_si256(v), split);
    __m128i lo = _mm256_castsi256_si128(out), hi = _mm256_extracti128_si256(out, 1);
    if (exec != ~0u) {
      const __m128i on = lane_words(e);
      lo = pick(on, lo, load4(r.dlo + l));
      hi = pick(on, hi, load4(r.dhi + l));
      e = _mm_srli_epi32(e, 4);
    }
    store4(r.dlo + l, lo);
    store4(r.dhi + l, hi);
  }
}
#endif

// The operations of loops_f64, each compiled on its own as the 32-bit rows' (kRowLoops).
constexpr Op kF64Ops[] = {
    Op::v_add_f64,       Op::v_mul_f64,     Op::v_fma_f64,       Op::v_min_f64,
    Op::v_max_f64,       Op::v_ldexp_f64,   Op::v_trunc_f64,     Op::v_ceil_f64,
    Op::v_rndne_f64,     Op::v_floor_f64,   Op::v_rcp_f64,       Op::v_rsq_f64,
    Op::v_cvt_f64_i32,   Op::v_cvt_f64_u32, Op::v_div_fixup_f64, Op::v_div_fmas_f64,
    Op::v_div_scale_f64, Op::v_cvt_i32_f64, Op::v_cvt_u32_f64};
using F64Loop = uint32_t (*)(uint32_t exec, const F64Rows& r);
template <Op kOp> [[gnu::flatten]] uint32_t f64_loop_baseline(uint32_t exec, const F64Rows& r) {
  return loops_f64(kOp, exec, r);
}
// std::fma is a libm call on baseline x86-64; a vfmadd here.
template <Op kOp>
[[gnu::target("avx2,fma"), gnu::flatten]] uint32_t f64_loop_avx2(uint32_t exec, const F64Rows& r) {
#if defined(__x86_64__)
  if constexpr (kOp == Op::v_add_f64 || kOp == Op::v_mul_f64 || kOp == Op::v_fma_f64) {
    if (exec == ~0u || whole_row(exec)) return f64_arith_avx2<kOp>(exec, r), 0;
  }
#endif
  return loops_f64(kOp, exec, r);
}
const auto kF64Loops = op_table<F64Loop, kF64Ops>(
    [](auto op) -> F64Loop { return kBaseline ? &f64_loop_baseline<op()> : &f64_loop_avx2<op()>; });

// The sources of each f64 operation: how many, and which are 32-bit (bit i for source i).
struct F64Sources {
  unsigned count, narrow;
};
F64Sources f64_sources(Op op) {
  switch (op) {
  case Op::v_fma_f64: case Op::v_div_fixup_f64: case Op::v_div_fmas_f64: case Op::v_div_scale_f64:
    return {3, 0};
  case Op::v_trunc_f64: case Op::v_ceil_f64: case Op::v_rndne_f64: case Op::v_floor_f64:
  case Op::v_rcp_f64: case Op::v_rsq_f64: case Op::v_cvt_i32_f64: case Op::v_cvt_u32_f64:
    return {1, 0};
  case Op::v_ldexp_f64: return {2, 2};
  case Op::v_cvt_f64_i32: case Op::v_cvt_f64_u32: return {1, 1};
  default: return {2, 0}; // add, mul, min, max
  }
}

// V_CVT_F32_F16 and V_CVT_F16_F32 (valu.cpp's lines, modifier-free): `x` the 32-bit source row,
// `high` its half for the f16 source; the f16 result goes to the destination's half `dhigh`.
[[gnu::always_inline]] inline void loops_half_conversions(Op op, uint32_t exec, uint32_t* d,
                                                          const uint32_t* x, bool high,
                                                          bool dhigh, bool ftz) {
  if (op == Op::v_cvt_f32_f16) {
    const unsigned shift = high ? 16 : 0;
    for_lanes(exec, [&](unsigned l) { d[l] = u32(sim::shader::flush(h2f(uint16_t(x[l] >> shift)), ftz)); });
    return;
  }
  const unsigned shift = dhigh ? 16 : 0;
  const uint32_t keep = dhigh ? 0xffffu : 0xffff0000u;
  for_lanes(exec, [&](unsigned l) {
    d[l] = (d[l] & keep) | uint32_t(f2h(double(sim::shader::flush(f32(x[l]), ftz)))) << shift;
  });
}
[[gnu::flatten]] void half_conversions_baseline(Op op, uint32_t exec, uint32_t* d, const uint32_t* x, bool high,
                               bool dhigh, bool ftz) {
  loops_half_conversions(op, exec, d, x, high, dhigh, ftz);
}
[[gnu::target("avx2,f16c"), gnu::flatten]] void half_conversions_avx2(Op op, uint32_t exec, uint32_t* d,
                                                        const uint32_t* x, bool high, bool dhigh,
                                                        bool ftz) {
  loops_half_conversions(op, exec, d, x, high, dhigh, ftz);
}
using HalfConversions = void (*)(Op, uint32_t, uint32_t*, const uint32_t*, bool, bool, bool);
const HalfConversions kHalfConversions =
    kBaseline ? &half_conversions_baseline : &half_conversions_avx2;

// VOPD halves the loops cover (the rest run lane by lane in vopd.cpp): the select and every
// half with a row loop.
bool fast_dual_op(Op op) {
  return op == Op::v_cndmask_b32 || kRowLoops[size_t(op)];
}

} // namespace

// A dual-issue pair: both halves read their sources before either writes.
bool Executor::exec_vopd_fast(Wave& w, const Inst& in) {
  if (!fast_dual_op(in.op) || !fast_dual_op(in.op_y)) return false;
  const uint32_t exec = w.exec();
  uint32_t broadcast[2][kWaveSize];
  auto row = [&](uint16_t code, unsigned slot) -> const uint32_t* {
    if (code >= src::kVgpr0) return &vreg(w, code, 0);
    std::fill_n(broadcast[slot], kWaveSize, sread(w, in, code));
    return broadcast[slot];
  };
  uint32_t* const dx = &vreg(w, in.dst, 0);
  uint32_t* const dy = &vreg(w, in.dst_y, 0);
  const bool ftz = w.flush_f32_denorms;
  auto half = [&](Op op, uint32_t* d, uint16_t src0, uint16_t src1, unsigned slot) {
    const uint32_t* a = row(src0, slot);
    const uint32_t* b = &vreg(w, src1, 0);
    if (op == Op::v_cndmask_b32) { // VOPD's select takes VCC
      kSelectRows(exec, d, a, b, w.vcc());
      return true;
    }
    return kRowLoops[size_t(op)](exec, Rows{d, a, b, nullptr, in.literal}, ftz);
  };
  // X runs first: when Y neither reads X's destination nor shares it (the usual pair), the
  // halves write their rows in place. Otherwise each computes into a copy of its destination
  // (which also serves fmac as accumulator), stored afterwards, so that neither half reads what
  // the other wrote.
  // A loop declines only an operation its switch lacks (a kRowOps entry without a case): a
  // defect of ours, named as one on either path.
  auto both = [&](uint32_t* x, uint32_t* y) {
    if (!half(in.op, x, in.src[0], in.src[1], 0) || !half(in.op_y, y, in.src_y[0], in.src_y[1], 1))
      instruction_fault(w, in, "a dual-issue half whose row loop has no case for it");
  };
  if (in.dst != in.dst_y && in.src_y[0] != in.dst && in.src_y[1] != in.dst) {
    both(dx, dy);
    return true;
  }
  uint32_t x[kWaveSize], y[kWaveSize];
  std::copy_n(dx, kWaveSize, x);
  std::copy_n(dy, kWaveSize, y);
  both(x, y);
  std::copy_n(x, kWaveSize, dx);
  std::copy_n(y, kWaveSize, dy);
  return true;
}

// The 64-bit shifts and the 32 x 32 + 64 multiply-adds of address arithmetic (valu.cpp's
// semantics): each lane reads its sources before writing its destination pair, as there.
bool Executor::exec_valu64_fast(Wave& w, const Inst& in) {
  if (in.abs || in.neg || in.omod || in.clamp || in.opsel) return false;
  const uint32_t exec = w.exec();
  if (in.op == Op::v_lshlrev_b64 && in.src[0] < src::kVgpr0 && in.src[1] >= src::kVgpr0) {
    // A uniform shift of a VGPR pair (address scaling).
    const unsigned s = sread(w, in, in.src[0]) & 63;
    const uint32_t* lo = &vreg(w, in.src[1], 0);
    const uint32_t* hi = &vreg(w, in.src[1], 0, 1);
    kUniform64(Uniform64::shift, exec, lo, hi, s, 0, &vreg(w, in.dst, 0), &vreg(w, in.dst, 0, 1));
    return true;
  }
  if (in.op == Op::v_mad_u64_u32 && in.src[0] < src::kVgpr0 && in.src[1] < src::kVgpr0 &&
      in.src[2] >= src::kVgpr0) {
    // A uniform product plus a VGPR pair (a work-item's global id): one multiply for the wave,
    // the carry-out where the 64-bit sum wraps.
    const uint64_t p = uint64_t(sread(w, in, in.src[0])) * sread(w, in, in.src[1]);
    const uint32_t* lo = &vreg(w, in.src[2], 0);
    const uint32_t* hi = &vreg(w, in.src[2], 0, 1);
    const uint32_t carry =
        kUniform64(Uniform64::add, exec, lo, hi, 0, p, &vreg(w, in.dst, 0), &vreg(w, in.dst, 0, 1));
    if (in.format == Format::VOP3SD) mask_write(w, in.sdst, carry);
    return true;
  }
  if (in.op == Op::v_mad_u64_u32 && (in.src[0] < src::kVgpr0) != (in.src[1] < src::kVgpr0) &&
      in.src[2] < src::kVgpr0) {
    // A uniform factor (an SGPR, a constant or a literal: a hash's multiplier) times a VGPR plus
    // a uniform 64-bit addend.
    const unsigned v = in.src[0] < src::kVgpr0 ? 1 : 0;
    const uint32_t f = sread(w, in, in.src[1 - v]);
    const uint64_t c = sread64(w, in, in.src[2], false);
    const uint32_t carry = kUniform64(Uniform64::mad_factor, exec, &vreg(w, in.src[v], 0), nullptr,
                                      f, c, &vreg(w, in.dst, 0), &vreg(w, in.dst, 0, 1));
    if (in.format == Format::VOP3SD) mask_write(w, in.sdst, carry);
    return true;
  }
  // A 64-bit source row: a VGPR pair, or a scalar's 64-bit value (vread64 as an integer).
  auto row64 = [&](unsigned i, uint64_t* out) {
    const uint16_t code = in.src[i];
    if (code >= src::kVgpr0) {
      const uint32_t* lo = &vreg(w, code, 0);
      const uint32_t* hi = &vreg(w, code, 0, 1);
      for (unsigned l = 0; l < kWaveSize; ++l) out[l] = uint64_t(lo[l]) | uint64_t(hi[l]) << 32;
    } else {
      std::fill_n(out, kWaveSize, sread64(w, in, code, false));
    }
  };
  auto row32 = [&](unsigned i, uint32_t* broadcast) -> const uint32_t* {
    if (in.src[i] >= src::kVgpr0) return &vreg(w, in.src[i], 0);
    std::fill_n(broadcast, kWaveSize, sread(w, in, in.src[i]));
    return broadcast;
  };
  alignas(32) uint64_t x[kWaveSize], r[kWaveSize];
  alignas(32) uint32_t sa[kWaveSize], sb[kWaveSize];
  const uint32_t* a = row32(0, sa);
  const uint32_t* b = nullptr;
  switch (in.op) {
  case Op::v_lshlrev_b64: case Op::v_lshrrev_b64: case Op::v_ashrrev_i64:
    row64(1, x);
    break;
  case Op::v_mad_u64_u32: case Op::v_mad_i64_i32:
    b = row32(1, sb);
    row64(2, x);
    break;
  default:
    return false;
  }
  const uint32_t carry = kLoops64(in.op, exec, a, b, x, r);
  uint32_t* const lo = &vreg(w, in.dst, 0);
  uint32_t* const hi = &vreg(w, in.dst, 0, 1);
  for_lanes(exec, [&](unsigned l) { lo[l] = uint32_t(r[l]), hi[l] = uint32_t(r[l] >> 32); });
  if (in.format == Format::VOP3SD) mask_write(w, in.sdst, carry);
  return true;
}

// The f64 operations (valu.cpp's semantics): 64-bit sources are VGPR pairs or a scalar's 64-bit
// value read as a double, with abs and neg as the sign-bit operations valu.cpp's fabs and
// negation are; 32-bit sources (ldexp's exponent, the integer conversions' input) are read as
// there, without modifiers. omod and clamp take the general path.
bool Executor::exec_f64_fast(Wave& w, const Inst& in) {
  if (in.omod || in.clamp || in.opsel) return false;
  const F64Sources sources = f64_sources(in.op);
  if ((in.abs | in.neg) & sources.narrow) return false;
  uint32_t broadcast[3][2][kWaveSize];
  // Each field set below (the loops read sources.count sources): `rows{}` cleared 120 bytes
  // with rep stos, a tenth of this function's host instructions.
  F64Rows rows;
  for (unsigned i = 0; i < sources.count; ++i) {
    const uint16_t code = in.src[i];
    const bool narrow = (sources.narrow >> i) & 1;
    if (code >= src::kVgpr0) {
      rows.lo[i] = &vreg(w, code, 0);
      rows.hi[i] = narrow ? nullptr : &vreg(w, code, 0, 1);
    } else {
      const uint64_t v = narrow ? sread(w, in, code) : sread64(w, in, code, true);
      std::fill_n(broadcast[i][0], kWaveSize, uint32_t(v));
      std::fill_n(broadcast[i][1], kWaveSize, uint32_t(v >> 32));
      rows.lo[i] = broadcast[i][0];
      rows.hi[i] = broadcast[i][1];
    }
    const uint64_t sign = uint64_t(1) << 63;
    rows.clear[i] = (in.abs >> i) & 1 ? sign : 0;
    rows.flip[i] = (in.neg >> i) & 1 ? sign : 0;
  }
  rows.dlo = &vreg(w, in.dst, 0);
  const bool narrow_result = in.op == Op::v_cvt_i32_f64 || in.op == Op::v_cvt_u32_f64;
  rows.dhi = narrow_result ? nullptr : &vreg(w, in.dst, 0, 1);
  rows.vcc = in.op == Op::v_div_fmas_f64 ? w.vcc() : 0;
  const uint32_t mask = kF64Loops[size_t(in.op)](w.exec(), rows);
  if (in.op == Op::v_div_scale_f64) mask_write(w, in.sdst, mask);
  return true;
}

namespace {

// What exec_valu_fast does with an operation, found once per operation (the order of the
// checks it replaces: the 64-bit shifts and multiply-adds, the f64 operations, the f16
// conversions, the 16-bit operations, then the 32-bit rows) instead of by a ladder of switches
// per instruction; with the 32-bit rows' source count.
enum class Route : uint8_t { General, Valu64, F64, HalfConvert, Op16, AddCarry, Rows };
struct FastRoute {
  Route route = Route::General;
  uint8_t sources = 0;          // Op16 and Rows: the sources read
  bool float_modifiers = false; // Rows: abs and neg act on the sign bits
};
const auto kRoutes = [] {
  std::array<FastRoute, size_t(Op::kCount)> t{};
  for (size_t i = 0; i < t.size(); ++i) {
    const Op op = Op(i);
    FastRoute& r = t[i];
    const OpInfo& info = op_info(op);
    // The lists as exec_valu_fast's ladder had them.
    // clang-format off
    switch (op) {
    case Op::v_lshlrev_b64: case Op::v_lshrrev_b64: case Op::v_ashrrev_i64:
    case Op::v_mad_u64_u32: case Op::v_mad_i64_i32:
      r.route = Route::Valu64;
      continue;
    case Op::v_cvt_f32_f16: case Op::v_cvt_f16_f32:
      r.route = Route::HalfConvert;
      continue;
    default:
      break;
    }
    // clang-format on
    if (std::find(std::begin(kF64Ops), std::end(kF64Ops), op) != std::end(kF64Ops)) {
      r.route = Route::F64;
    } else if (fast_op16(op)) {
      r.route = Route::Op16;
      r.sources = op == Op::v_cndmask_b16 ? 2 : info.src_dwords[2] ? 3 : info.src_dwords[1] ? 2 : 1;
    } else if (op == Op::v_add_co_u32 || op == Op::v_add_co_ci_u32) {
      r.route = Route::AddCarry;
    } else if (op == Op::v_cndmask_b32 || kRowLoops[i]) {
      // Rows by the loops' own table: no operation reaches exec_rows_fast without its loop.
      r.route = Route::Rows;
      r.sources = op == Op::v_fma_f32 || fast_op3(op) ? 3 : info.src_dwords[1] ? 2 : 1;
      r.float_modifiers = takes_float_modifiers(op);
    }
  }
  return t;
}();

} // namespace

bool Executor::exec_valu_fast(Wave& w, const Inst& in) {
  const FastRoute& route = kRoutes[size_t(in.op)];
  if (route.route == Route::Rows) [[likely]]
    return exec_rows_fast(w, in, route.sources, route.float_modifiers);
  switch (route.route) {
  case Route::General:
    return false;
  case Route::Valu64:
    return exec_valu64_fast(w, in);
  case Route::F64:
    return exec_f64_fast(w, in);
  default:
    break;
  }
  if (route.route == Route::HalfConvert) {
    if (in.abs || in.neg || in.omod || in.clamp) return false;
    uint32_t broadcast[kWaveSize];
    const uint32_t* x = &broadcast[0];
    bool high = false;
    if (in.src[0] >= src::kVgpr0) {
      x = &vreg(w, in.src[0], 0);
      high = in.op == Op::v_cvt_f32_f16 && (in.opsel & 1);
    } else if (in.op == Op::v_cvt_f32_f16) { // the f16 inline constants, or a scalar's low half
      std::fill_n(broadcast, kWaveSize, uint32_t(read_half(w, in, 0, 0)));
    } else {
      std::fill_n(broadcast, kWaveSize, sread(w, in, in.src[0]));
    }
    kHalfConversions(in.op, w.exec(), &vreg(w, in.dst, 0), x, high, (in.opsel & 8) != 0,
                     w.flush_f32_denorms);
    return true;
  }
  if (route.route == Route::Op16) {
    // Integer 16-bit operations ignore abs/neg in the general path; clamp saturates there.
    if (in.clamp || in.abs || in.neg || in.omod) return false;
    uint32_t broadcast[3][kWaveSize];
    const uint32_t* src[3] = {nullptr, nullptr, nullptr};
    bool high[3] = {false, false, false};
    const unsigned nsrc = route.sources;
    for (unsigned i = 0; i < nsrc; ++i) {
      if (in.src[i] >= src::kVgpr0) {
        src[i] = &vreg(w, in.src[i], 0);
        high[i] = (in.opsel >> i) & 1;
      } else {
        // Lane-uniform: the f16 inline constants or the low half of a scalar (read_half).
        std::fill_n(broadcast[i], kWaveSize, uint32_t(read_half(w, in, i, 0)));
        src[i] = broadcast[i];
      }
    }
    const uint32_t mask = in.op == Op::v_cndmask_b16 ? mask_read(w, in, in.src[2]) : 0;
    return kLoops16(in.op, w.exec(),
                    Rows16{&vreg(w, in.dst, 0), src[0], src[1], src[2], high[0], high[1], high[2],
                           (in.opsel & 8) != 0, mask});
  }
  if (route.route == Route::AddCarry) {
    if (in.omod || in.clamp || in.opsel || in.abs || in.neg) return false;
    const uint32_t exec = w.exec();
    // Address arithmetic (a third of a memory-bound kernel's instructions): a scalar source
    // reaches add_carry as its value, without a broadcast row. Carries: lane masks in SGPRs
    // (VCC for the VOP2 forms); inactive lanes' bits of the carry-out are cleared. The sum and
    // its carry do not depend on the sources' order: a scalar goes first.
    const bool scalar_a = in.src[0] < src::kVgpr0, scalar_b = in.src[1] < src::kVgpr0;
    const uint32_t a0 = scalar_a ? sread(w, in, in.src[0]) : 0;
    const uint32_t* a = scalar_a ? nullptr : &vreg(w, in.src[0], 0);
    const uint32_t b0 = scalar_b ? sread(w, in, in.src[1]) : 0;
    const uint32_t* b = scalar_b ? nullptr : &vreg(w, in.src[1], 0);
    uint32_t* const d = &vreg(w, in.dst, 0);
    const uint32_t carry_in = in.op == Op::v_add_co_ci_u32 ? mask_read(w, in, in.src[2]) : 0;
    uint32_t carry;
    if (scalar_a && scalar_b) {
      uint32_t row[kWaveSize];
      std::fill_n(row, kWaveSize, b0);
      carry = kAddCarry[1](exec, d, nullptr, a0, row, carry_in);
    } else if (scalar_a || scalar_b) {
      carry = kAddCarry[1](exec, d, nullptr, scalar_a ? a0 : b0, scalar_a ? b : a, carry_in);
    } else {
      carry = kAddCarry[0](exec, d, a, 0, b, carry_in);
    }
    mask_write(w, in.sdst, carry);
    return true;
  }
  return false;
}

// The 32-bit rows (Route::Rows): the operations of kRowOps and the select.
bool Executor::exec_rows_fast(Wave& w, const Inst& in, unsigned nsrc, bool float_modifiers) {
  if (in.omod || in.clamp || in.opsel) return false;
  const uint32_t exec = w.exec();
  // Sources: a VGPR row (checked against the allocation once) or a scalar broadcast; with abs or
  // neg, a copy with the sign bits cleared or flipped. Written out here and in exec_vopc_fast:
  // as a shared helper GCC stopped vectorising the broadcast's fill (+28M host instructions of
  // 366M on the sin probe, callgrind).
  uint32_t broadcast[3][kWaveSize];
  const uint32_t* src[3] = {nullptr, nullptr, nullptr};
  if (!(in.abs | in.neg)) [[likely]] {
#pragma GCC unroll 3
    for (unsigned i = 0; i < 3; ++i) {
      if (i >= nsrc) break;
      if (in.src[i] >= src::kVgpr0) {
        src[i] = &vreg(w, in.src[i], 0);
      } else {
        std::fill_n(broadcast[i], kWaveSize, sread(w, in, in.src[i]));
        src[i] = broadcast[i];
      }
    }
  } else {
    if (!float_modifiers) return false;
    for (unsigned i = 0; i < nsrc; ++i) {
      const uint32_t clear = (in.abs >> i) & 1 ? 0x80000000u : 0;
      const uint32_t flip = (in.neg >> i) & 1 ? 0x80000000u : 0;
      if (in.src[i] >= src::kVgpr0) {
        src[i] = &vreg(w, in.src[i], 0);
        if (clear | flip) {
          for (unsigned l = 0; l < kWaveSize; ++l) broadcast[i][l] = (src[i][l] & ~clear) ^ flip;
          src[i] = broadcast[i];
        }
      } else {
        std::fill_n(broadcast[i], kWaveSize, (sread(w, in, in.src[i]) & ~clear) ^ flip);
        src[i] = broadcast[i];
      }
    }
  }
  uint32_t* const d = &vreg(w, in.dst, 0);
  const uint32_t *const a = src[0], *const b = src[1];
  switch (in.op) {
  // Selects: the lane mask in an SGPR pair (VCC for the VOP2 form).
  case Op::v_cndmask_b32: {
    // Branch-free: the mask is data, a branch per lane would mispredict half the time.
    kSelectRows(exec, d, a, b, mask_read(w, in, in.src[2]));
    return true;
  }
  case Op::v_perm_b32:
    if (in.src[2] < src::kVgpr0) { // a uniform selector (LLVM's packing of halves and bytes)
      perm_uniform(exec, d, a, b, src[2][0]);
      return true;
    }
    [[fallthrough]];
  default:
    return kRowLoops[size_t(in.op)](exec, Rows{d, a, b, src[2], in.literal}, w.flush_f32_denorms);
  }
}

// The integer comparisons and the f32 ones without abs/neg: operands resolved once per
// instruction, the predicate chosen once (vopc.cpp's exec_vopc defines the semantics).
bool Executor::exec_vopc_fast(Wave& w, const Inst& in) {
  const bool half = in.op == Op::v_cmp_i16 || in.op == Op::v_cmp_u16;
  if (in.op == Op::v_cmp_i64 || in.op == Op::v_cmp_u64 || in.op == Op::v_cmp_f64) {
    // 64-bit operands: VGPR pairs, or the scalar's 64-bit value (vread64: a double's inline
    // constants for f64). abs and neg act on the sign bit, as std::fabs and negation do.
    const bool fp = in.op == Op::v_cmp_f64;
    if (!fp && (in.abs || in.neg)) return false;
    uint64_t x[2][kWaveSize];
    for (unsigned i = 0; i < 2; ++i) {
      const uint64_t clear = (in.abs >> i) & 1 ? 1ull << 63 : 0;
      const uint64_t flip = (in.neg >> i) & 1 ? 1ull << 63 : 0;
      if (in.src[i] >= src::kVgpr0) {
        const uint32_t* lo = &vreg(w, in.src[i], 0);
        const uint32_t* hi = &vreg(w, in.src[i], 0, 1);
        for (unsigned l = 0; l < kWaveSize; ++l)
          x[i][l] = ((uint64_t(lo[l]) | uint64_t(hi[l]) << 32) & ~clear) ^ flip;
      } else {
        std::fill_n(x[i], kWaveSize, (sread64(w, in, in.src[i], fp) & ~clear) ^ flip);
      }
    }
    const unsigned pred = unsigned(in.imm);
    const uint32_t exec = w.exec();
    const uint32_t mask = fp ? compare_rows_f(pred, exec, x[0], x[1])
                          : in.op == Op::v_cmp_i64
                              ? compare_rows_i<int64_t>(pred, exec, x[0], x[1])
                              : compare_rows_i<uint64_t>(pred, exec, x[0], x[1]);
    mask_write(w, in.cmpx ? src::kExecLo : in.sdst, mask);
    return true;
  }
  const bool fp32 = in.op == Op::v_cmp_f32 || in.op == Op::v_cmp_class_f32;
  if (!half && in.op != Op::v_cmp_i32 && in.op != Op::v_cmp_u32 && !fp32) return false;
  uint32_t broadcast[2][kWaveSize];
  const uint32_t* row[2];
  for (unsigned i = 0; i < 2; ++i) {
    // f32 sources' abs and neg on the sign bit (class: the first source's only); the integer
    // compares ignore them, as in exec_vopc.
    const uint32_t clear = (in.abs >> i) & 1 ? 0x80000000u : 0;
    const uint32_t flip = (in.neg >> i) & 1 ? 0x80000000u : 0;
    const bool mods = fp32 && (clear | flip) && !(in.op == Op::v_cmp_class_f32 && i == 1);
    if (in.src[i] >= src::kVgpr0) {
      row[i] = &vreg(w, in.src[i], 0);
      if (mods) {
        for (unsigned l = 0; l < kWaveSize; ++l) broadcast[i][l] = (row[i][l] & ~clear) ^ flip;
        row[i] = broadcast[i];
      }
    } else {
      uint32_t v = half ? uint32_t(read_half(w, in, i, 0)) : sread(w, in, in.src[i]);
      if (mods) v = (v & ~clear) ^ flip;
      std::fill_n(broadcast[i], kWaveSize, v);
      row[i] = broadcast[i];
    }
  }
  if (in.op == Op::v_cmp_class_f32) {
    // The class index of each lane's bits (float_ops.h), tested in the mask.
    const uint32_t *x = row[0], *m = row[1];
    const uint32_t mask =
        lane_mask(w.exec(), [&](unsigned l) { return (m[l] >> fp_class(x[l])) & 1; });
    mask_write(w, in.cmpx ? src::kExecLo : in.sdst, mask);
    return true;
  }
  const unsigned pred = unsigned(in.imm);
  const uint32_t exec = w.exec();
  uint32_t mask;
  if (half) {
    // The op_sel-selected halves (scalars were broadcast as their low half).
    alignas(32) uint16_t a[kWaveSize], b[kWaveSize];
    extract(row[0], in.src[0] >= src::kVgpr0 && (in.opsel & 1), a);
    extract(row[1], in.src[1] >= src::kVgpr0 && (in.opsel & 2), b);
    mask = in.op == Op::v_cmp_i16 ? compare_rows_i<int16_t>(pred, exec, a, b)
                                  : compare_rows_i<uint16_t>(pred, exec, a, b);
  } else if (in.op == Op::v_cmp_i32) {
    mask = compare_rows_i<int32_t>(pred, exec, row[0], row[1]);
  } else if (in.op == Op::v_cmp_u32) {
    mask = compare_rows_i<uint32_t>(pred, exec, row[0], row[1]);
  } else {
    mask = compare_rows_f(pred, exec, row[0], row[1]);
  }
  mask_write(w, in.cmpx ? src::kExecLo : in.sdst, mask);
  return true;
}

// The packed 16-bit integer operations: sources resolved once (a VGPR row, an f16 inline
// constant in both halves, or a scalar), halves picked per row, as exec_vop3p defines them.
bool Executor::exec_vop3p_fast(Wave& w, const Inst& in) {
  if (!fast_packed_op(in.op) || in.clamp) return false;
  const uint32_t exec = w.exec();
  if (!exec) return true; // the general path reads and writes nothing either
  uint32_t broadcast[3][kWaveSize];
  PackedRows r{&vreg(w, in.dst, 0), {nullptr, nullptr, nullptr}, in.opsel, in.opsel_hi};
  for (unsigned i = 0; i < 3; ++i) {
    const uint16_t code = in.src[i];
    if (code >= src::kVgpr0) {
      r.src[i] = &vreg(w, code, 0);
      continue;
    }
    const uint32_t v = code >= src::kFloatHalf && code <= src::kFloatInv2Pi
                           ? read_half(w, in, i, 0) * 0x10001u
                           : sread(w, in, code);
    std::fill_n(broadcast[i], kWaveSize, v);
    r.src[i] = broadcast[i];
  }
  kPacked(in.op, exec, r);
  return true;
}

} // namespace sim::shader
