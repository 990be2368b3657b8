// The wave matrix multiply-accumulate operations (v_wmma_*): element types, operand sizes and
// where each matrix element lives in the VGPRs, for gfx11 and gfx12 in wave32 and wave64.
// Source: AMD Matrix Instruction Calculator (github.com/ROCm/amd_matrix_instruction_calculator,
// architectures RDNA3 and RDNA4, --detail-instruction and --register-layout of each
// instruction and matrix); the modifier rules are its NEG/NEG_HI description: neg_lo[0..1] and
// neg_hi[0..1] negate the low and high 16-bit halves of A's and B's dwords (for integer inputs
// neg_lo[0..1] make A and B signed), neg_lo[2] subtracts C, neg_hi[2] takes |C|; op_sel[2]
// (gfx11 16-bit results only) puts C and D in the high halves.
#pragma once
#include "isa.h"

#include <algorithm>
#include <cstdint>

namespace sim::shader {

enum class WmmaElem : uint8_t { F16, BF16, I8, I4, FP8, BF8, F32, I32 };

struct WmmaShape {
  WmmaElem a, b, out;  // C has the type of D
  unsigned k;          // M and N are 16
  bool sparse = false; // SWMMAC: A holds two of every four K values, src2 their indices
};

inline constexpr bool is_swmmac(Op op) {
  return op == Op::v_swmmac_f32_16x16x32_f16 || op == Op::v_swmmac_f32_16x16x32_bf16 ||
         op == Op::v_swmmac_f16_16x16x32_f16 || op == Op::v_swmmac_bf16_16x16x32_bf16 ||
         op == Op::v_swmmac_i32_16x16x32_iu8 || op == Op::v_swmmac_i32_16x16x32_iu4 ||
         op == Op::v_swmmac_i32_16x16x64_iu4 || op == Op::v_swmmac_f32_16x16x32_fp8_fp8 ||
         op == Op::v_swmmac_f32_16x16x32_fp8_bf8 || op == Op::v_swmmac_f32_16x16x32_bf8_fp8 ||
         op == Op::v_swmmac_f32_16x16x32_bf8_bf8;
}

// WMMA and SWMMAC.
inline constexpr bool is_wmma(Op op) {
  return op == Op::v_wmma_f32_16x16x16_f16 || op == Op::v_wmma_f32_16x16x16_bf16 ||
         op == Op::v_wmma_f16_16x16x16_f16 || op == Op::v_wmma_bf16_16x16x16_bf16 ||
         op == Op::v_wmma_i32_16x16x16_iu8 || op == Op::v_wmma_i32_16x16x16_iu4 ||
         op == Op::v_wmma_f32_16x16x16_fp8_fp8 || op == Op::v_wmma_f32_16x16x16_fp8_bf8 ||
         op == Op::v_wmma_f32_16x16x16_bf8_fp8 || op == Op::v_wmma_f32_16x16x16_bf8_bf8 ||
         op == Op::v_wmma_i32_16x16x32_iu4 || is_swmmac(op);
}

inline constexpr WmmaShape wmma_shape(Op op) {
  using E = WmmaElem;
  switch (op) {
  case Op::v_wmma_f32_16x16x16_f16:
    return {E::F16, E::F16, E::F32, 16};
  case Op::v_wmma_f32_16x16x16_bf16:
    return {E::BF16, E::BF16, E::F32, 16};
  case Op::v_wmma_f16_16x16x16_f16:
    return {E::F16, E::F16, E::F16, 16};
  case Op::v_wmma_bf16_16x16x16_bf16:
    return {E::BF16, E::BF16, E::BF16, 16};
  case Op::v_wmma_i32_16x16x16_iu8:
    return {E::I8, E::I8, E::I32, 16};
  case Op::v_wmma_i32_16x16x16_iu4:
    return {E::I4, E::I4, E::I32, 16};
  case Op::v_wmma_f32_16x16x16_fp8_fp8:
    return {E::FP8, E::FP8, E::F32, 16};
  case Op::v_wmma_f32_16x16x16_fp8_bf8:
    return {E::FP8, E::BF8, E::F32, 16};
  case Op::v_wmma_f32_16x16x16_bf8_fp8:
    return {E::BF8, E::FP8, E::F32, 16};
  case Op::v_wmma_f32_16x16x16_bf8_bf8:
    return {E::BF8, E::BF8, E::F32, 16};
  case Op::v_wmma_i32_16x16x32_iu4:
    return {E::I4, E::I4, E::I32, 32};
  case Op::v_swmmac_f32_16x16x32_f16:
    return {E::F16, E::F16, E::F32, 32, true};
  case Op::v_swmmac_f32_16x16x32_bf16:
    return {E::BF16, E::BF16, E::F32, 32, true};
  case Op::v_swmmac_f16_16x16x32_f16:
    return {E::F16, E::F16, E::F16, 32, true};
  case Op::v_swmmac_bf16_16x16x32_bf16:
    return {E::BF16, E::BF16, E::BF16, 32, true};
  case Op::v_swmmac_i32_16x16x32_iu8:
    return {E::I8, E::I8, E::I32, 32, true};
  case Op::v_swmmac_i32_16x16x32_iu4:
    return {E::I4, E::I4, E::I32, 32, true};
  case Op::v_swmmac_i32_16x16x64_iu4:
    return {E::I4, E::I4, E::I32, 64, true};
  case Op::v_swmmac_f32_16x16x32_fp8_fp8:
    return {E::FP8, E::FP8, E::F32, 32, true};
  case Op::v_swmmac_f32_16x16x32_fp8_bf8:
    return {E::FP8, E::BF8, E::F32, 32, true};
  case Op::v_swmmac_f32_16x16x32_bf8_fp8:
    return {E::BF8, E::FP8, E::F32, 32, true};
  case Op::v_swmmac_f32_16x16x32_bf8_bf8:
    return {E::BF8, E::BF8, E::F32, 32, true};
  default:
    return {E::F32, E::F32, E::F32, 0};
  }
}

inline constexpr unsigned wmma_bits(WmmaElem e) {
  switch (e) {
  case WmmaElem::I4:
    return 4;
  case WmmaElem::I8:
  case WmmaElem::FP8:
  case WmmaElem::BF8:
    return 8;
  case WmmaElem::F16:
  case WmmaElem::BF16:
    return 16;
  default:
    return 32;
  }
}

// Where one element is: VGPR offset from the operand's first, lane (0..63) and bit offset.
// A and B elements have several holders (lanes i and i+16 on gfx11, ...); this is the lowest
// lane, the one the calculator's register layout names.
struct WmmaSlot {
  unsigned gpr, lane, bit;
};

// A[row][k] or B[k][col] (`row` is i for A, j for B), with `bits` per element and K = `k_size`.
inline constexpr WmmaSlot wmma_input_slot(Gfx gfx, bool wave64, unsigned bits, unsigned k_size,
                                          unsigned row, unsigned k) {
  const unsigned per_dword = 32 / bits;
  if (gfx == Gfx::v11) return {k / per_dword, row, bits * (k % per_dword)};
  const unsigned bit = bits * (k % per_dword);
  if (bits == 16)
    return wave64 ? WmmaSlot{(k / 2) % 2, 32 * ((k / 8) % 2) + 16 * ((k / 4) % 2) + row, bit}
                  : WmmaSlot{2 * (k / 8) + (k / 2) % 2, 16 * ((k / 4) % 2) + row, bit};
  if (bits == 8)
    return wave64 ? WmmaSlot{0, 32 * ((k / 4) % 2) + 16 * ((k / 8) % 2) + row, bit}
                  : WmmaSlot{(k / 4) % 2, 16 * (k / 8) + row, bit};
  if (k_size == 16) return {0, 16 * (k / 8) + row, bit}; // 4-bit, K = 16: both waves
  return wave64 ? WmmaSlot{0, 32 * ((k / 8) % 2) + 16 * ((k / 16) % 2) + row, bit}
                : WmmaSlot{(k / 8) % 2, 16 * (k / 16) + row, bit};
}

// C[i][j] and D[i][j]; `bits` is 32 or 16; `high` is gfx11's op_sel[2] for 16-bit results.
inline constexpr WmmaSlot wmma_output_slot(Gfx gfx, bool wave64, unsigned bits, bool high,
                                           unsigned i, unsigned j) {
  if (gfx == Gfx::v11)
    return wave64 ? WmmaSlot{i / 4, 16 * (i % 4) + j, high ? 16u : 0u}
                  : WmmaSlot{i / 2, 16 * (i % 2) + j, high ? 16u : 0u};
  const unsigned lane = wave64 ? 32 * ((i / 4) % 2) + 16 * (i / 8) + j : 16 * (i / 8) + j;
  if (bits == 32) return {wave64 ? i % 4 : i % 8, lane, 0};
  return {wave64 ? (i / 2) % 2 : (i / 2) % 4, lane, 16 * (i % 2)};
}

// SWMMAC (gfx12): where row `row`'s group `k / 4` of A is stored (its two kept values from `bit`
// on, the first in the low bits), and B[k][col] (B is dense, K = 32 or 64).
inline constexpr WmmaSlot swmmac_a_slot(bool wave64, unsigned bits, unsigned k_size, unsigned row,
                                        unsigned k) {
  if (bits == 16)
    return wave64 ? WmmaSlot{(k / 4) % 2, 16 * (k / 8) + row, 0}
                  : WmmaSlot{2 * (k / 16) + (k / 4) % 2, 16 * ((k / 8) % 2) + row, 0};
  if (bits == 8)
    return wave64 ? WmmaSlot{0, 32 * ((k / 8) % 2) + 16 * (k / 16) + row, 16 * ((k / 4) % 2)}
                  : WmmaSlot{(k / 8) % 2, 16 * (k / 16) + row, 16 * ((k / 4) % 2)};
  if (k_size == 32) return {0, 16 * (k / 16) + row, 8 * ((k / 4) % 4)}; // 4-bit: both waves
  return wave64 ? WmmaSlot{0, 32 * ((k / 16) % 2) + 16 * (k / 32) + row, 8 * ((k / 4) % 4)}
                : WmmaSlot{(k / 16) % 2, 16 * (k / 32) + row, 8 * ((k / 4) % 4)};
}
inline constexpr WmmaSlot swmmac_b_slot(bool wave64, unsigned bits, unsigned k_size, unsigned col,
                                        unsigned k) {
  if (bits == 16)
    return wave64 ? WmmaSlot{(k / 2) % 4, 16 * (k / 8) + col, 16 * (k % 2)}
                  : WmmaSlot{4 * (k / 16) + (k / 2) % 4, 16 * ((k / 8) % 2) + col, 16 * (k % 2)};
  if (bits == 8)
    return wave64 ? WmmaSlot{(k / 4) % 2, 32 * ((k / 8) % 2) + 16 * (k / 16) + col, 8 * (k % 4)}
                  : WmmaSlot{(k / 4) % 4, 16 * (k / 16) + col, 8 * (k % 4)};
  if (k_size == 32)
    return wave64 ? WmmaSlot{0, 32 * ((k / 8) % 2) + 16 * (k / 16) + col, 4 * (k % 8)}
                  : WmmaSlot{(k / 8) % 2, 16 * (k / 16) + col, 4 * (k % 8)};
  return wave64 ? WmmaSlot{(k / 8) % 2, 32 * ((k / 16) % 2) + 16 * (k / 32) + col, 4 * (k % 8)}
                : WmmaSlot{(k / 8) % 4, 16 * (k / 32) + col, 4 * (k % 8)};
}
// The 4-bit index field of a stored group: 2 bits per kept value (its position among the four),
// one field per group in the lane's storage order, in the set op_sel picks (sets of
// `a_regs` * 32 / (2 * bits) fields).
inline constexpr unsigned swmmac_index_bit(WmmaSlot group, unsigned bits, unsigned a_regs,
                                           unsigned set) {
  const unsigned fields = a_regs * 32 / (2 * bits);
  return 4 * (fields * set + (group.gpr * 32 + group.bit) / (2 * bits));
}

// VGPRs of each operand: {D, A, B, C} (C and D alike; an SWMMAC's C is its index VGPR).
struct WmmaRegs {
  unsigned d, a, b, c;
};
inline constexpr WmmaRegs wmma_regs(Op op, Gfx gfx, bool wave64) {
  const WmmaShape s = wmma_shape(op);
  const unsigned out_bits = wmma_bits(s.out);
  // gfx11 keeps 16-bit results in one half of each dword (op_sel[2] picks which).
  const unsigned out = (wave64 ? 4 : 8) / (gfx == Gfx::v12 && out_bits == 16 ? 2 : 1);
  if (s.sparse) { // A keeps half of its K values; lanes 32..63 repeat a 32-dword matrix
    const unsigned lanes = wave64 ? 64 : 32, bits = wmma_bits(s.a);
    const unsigned a = std::max(1u, 16 * s.k / 2 * bits / 32 / lanes);
    return {out, a, 16 * s.k * bits / 32 / lanes, 1};
  }
  auto input = [&](WmmaElem e) {
    const unsigned bits = wmma_bits(e), total = 16 * s.k * bits / 32; // dwords of one matrix
    // gfx11: every 16-lane group holds the whole matrix; gfx12: the wave holds it once, except
    // 4-bit K = 16 in wave64, which lanes 32..63 hold again.
    if (gfx == Gfx::v11) return total / 16;
    const unsigned lanes = wave64 && !(bits == 4 && s.k == 16) ? 64 : 32;
    return total / lanes;
  };
  return {out, input(s.a), input(s.b), out};
}

} // namespace sim::shader
