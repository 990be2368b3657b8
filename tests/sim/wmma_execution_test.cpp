// The matrix multiply-accumulates (v_wmma_*) of gfx11 and gfx12, wave32 and wave64.
// - Where elements live: points of every instruction's A, B and D layouts as AMD's Matrix
//   Instruction Calculator prints them (github.com/ROCm/amd_matrix_instruction_calculator,
//   --register-layout --csv, first holder of each element), against sim/shader/wmma_layout.h.
//   (All 28,160 element slots were compared when the layouts were written; these pin them.)
// - What they compute: D = A x B + C (RDNA3/RDNA4 ISA manuals, "WMMA"), against a host
//   reference, with random operands including denormals, signed zeros, the largest values,
//   infinities and NaNs, and the modifiers the calculator describes (neg_lo/neg_hi on A and B
//   halves, neg_lo[2] subtracting C, neg_hi[2] its magnitude, signed integers, clamp, gfx11's
//   op_sel[2] for 16-bit results). Encodings as llvm-mc-22 -show-encoding gives them
//   ("v_wmma_f32_16x16x16_f16 v[8:15], v[0:3], v[4:7], v[8:15]" on gfx1201:
//   0xcc404008 0x1c220900).
#include "sim/shader/wmma_layout.h"
#include "tests/sim/flat_memory.h"
#include "tests/sim/shader_runner.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <random>
#include <string>
#include <vector>

using namespace sim::shader;

namespace {

struct Pin {
  Gfx gfx;
  Op op;
  bool wave64;
  char matrix;
  bool high; // gfx11 op_sel[2]
  unsigned row, col, gpr, lane, bit;
};
// A[i][k], B[k][j], D[i][j]: row, col, then the calculator's VGPR, lane and low bit.
const Pin kPins[] = {
    {Gfx::v11, Op::v_wmma_f32_16x16x16_f16, false, 'A', false, 1, 15, 7, 1, 16},
    {Gfx::v11, Op::v_wmma_f32_16x16x16_f16, false, 'A', false, 5, 8, 4, 5, 0},
    {Gfx::v11, Op::v_wmma_f32_16x16x16_f16, false, 'A', false, 15, 15, 7, 15, 16},
    {Gfx::v11, Op::v_wmma_f32_16x16x16_f16, false, 'B', false, 1, 15, 0, 15, 16},
    {Gfx::v11, Op::v_wmma_f32_16x16x16_f16, false, 'B', false, 5, 8, 2, 8, 16},
    {Gfx::v11, Op::v_wmma_f32_16x16x16_f16, false, 'B', false, 15, 15, 7, 15, 16},
    {Gfx::v11, Op::v_wmma_f32_16x16x16_f16, false, 'D', false, 1, 15, 0, 31, 0},
    {Gfx::v11, Op::v_wmma_f32_16x16x16_f16, false, 'D', false, 5, 8, 2, 24, 0},
    {Gfx::v11, Op::v_wmma_f32_16x16x16_f16, false, 'D', false, 15, 15, 7, 31, 0},
    {Gfx::v11, Op::v_wmma_f32_16x16x16_f16, true, 'A', false, 1, 15, 7, 1, 16},
    {Gfx::v11, Op::v_wmma_f32_16x16x16_f16, true, 'A', false, 5, 8, 4, 5, 0},
    {Gfx::v11, Op::v_wmma_f32_16x16x16_f16, true, 'A', false, 15, 15, 7, 15, 16},
    {Gfx::v11, Op::v_wmma_f32_16x16x16_f16, true, 'B', false, 1, 15, 0, 15, 16},
    {Gfx::v11, Op::v_wmma_f32_16x16x16_f16, true, 'B', false, 5, 8, 2, 8, 16},
    {Gfx::v11, Op::v_wmma_f32_16x16x16_f16, true, 'B', false, 15, 15, 7, 15, 16},
    {Gfx::v11, Op::v_wmma_f32_16x16x16_f16, true, 'D', false, 1, 15, 0, 31, 0},
    {Gfx::v11, Op::v_wmma_f32_16x16x16_f16, true, 'D', false, 5, 8, 1, 24, 0},
    {Gfx::v11, Op::v_wmma_f32_16x16x16_f16, true, 'D', false, 15, 15, 3, 63, 0},
    {Gfx::v11, Op::v_wmma_f32_16x16x16_bf16, false, 'A', false, 1, 15, 7, 1, 16},
    {Gfx::v11, Op::v_wmma_f32_16x16x16_bf16, false, 'A', false, 5, 8, 4, 5, 0},
    {Gfx::v11, Op::v_wmma_f32_16x16x16_bf16, false, 'A', false, 15, 15, 7, 15, 16},
    {Gfx::v11, Op::v_wmma_f32_16x16x16_bf16, false, 'B', false, 1, 15, 0, 15, 16},
    {Gfx::v11, Op::v_wmma_f32_16x16x16_bf16, false, 'B', false, 5, 8, 2, 8, 16},
    {Gfx::v11, Op::v_wmma_f32_16x16x16_bf16, false, 'B', false, 15, 15, 7, 15, 16},
    {Gfx::v11, Op::v_wmma_f32_16x16x16_bf16, false, 'D', false, 1, 15, 0, 31, 0},
    {Gfx::v11, Op::v_wmma_f32_16x16x16_bf16, false, 'D', false, 5, 8, 2, 24, 0},
    {Gfx::v11, Op::v_wmma_f32_16x16x16_bf16, false, 'D', false, 15, 15, 7, 31, 0},
    {Gfx::v11, Op::v_wmma_f32_16x16x16_bf16, true, 'A', false, 1, 15, 7, 1, 16},
    {Gfx::v11, Op::v_wmma_f32_16x16x16_bf16, true, 'A', false, 5, 8, 4, 5, 0},
    {Gfx::v11, Op::v_wmma_f32_16x16x16_bf16, true, 'A', false, 15, 15, 7, 15, 16},
    {Gfx::v11, Op::v_wmma_f32_16x16x16_bf16, true, 'B', false, 1, 15, 0, 15, 16},
    {Gfx::v11, Op::v_wmma_f32_16x16x16_bf16, true, 'B', false, 5, 8, 2, 8, 16},
    {Gfx::v11, Op::v_wmma_f32_16x16x16_bf16, true, 'B', false, 15, 15, 7, 15, 16},
    {Gfx::v11, Op::v_wmma_f32_16x16x16_bf16, true, 'D', false, 1, 15, 0, 31, 0},
    {Gfx::v11, Op::v_wmma_f32_16x16x16_bf16, true, 'D', false, 5, 8, 1, 24, 0},
    {Gfx::v11, Op::v_wmma_f32_16x16x16_bf16, true, 'D', false, 15, 15, 3, 63, 0},
    {Gfx::v11, Op::v_wmma_f16_16x16x16_f16, false, 'A', false, 1, 15, 7, 1, 16},
    {Gfx::v11, Op::v_wmma_f16_16x16x16_f16, false, 'A', false, 5, 8, 4, 5, 0},
    {Gfx::v11, Op::v_wmma_f16_16x16x16_f16, false, 'A', false, 15, 15, 7, 15, 16},
    {Gfx::v11, Op::v_wmma_f16_16x16x16_f16, false, 'B', false, 1, 15, 0, 15, 16},
    {Gfx::v11, Op::v_wmma_f16_16x16x16_f16, false, 'B', false, 5, 8, 2, 8, 16},
    {Gfx::v11, Op::v_wmma_f16_16x16x16_f16, false, 'B', false, 15, 15, 7, 15, 16},
    {Gfx::v11, Op::v_wmma_f16_16x16x16_f16, false, 'D', false, 1, 15, 0, 31, 0},
    {Gfx::v11, Op::v_wmma_f16_16x16x16_f16, false, 'D', false, 5, 8, 2, 24, 0},
    {Gfx::v11, Op::v_wmma_f16_16x16x16_f16, false, 'D', false, 15, 15, 7, 31, 0},
    {Gfx::v11, Op::v_wmma_f16_16x16x16_f16, false, 'D', true, 1, 15, 0, 31, 16},
    {Gfx::v11, Op::v_wmma_f16_16x16x16_f16, false, 'D', true, 5, 8, 2, 24, 16},
    {Gfx::v11, Op::v_wmma_f16_16x16x16_f16, false, 'D', true, 15, 15, 7, 31, 16},
    {Gfx::v11, Op::v_wmma_f16_16x16x16_f16, true, 'A', false, 1, 15, 7, 1, 16},
    {Gfx::v11, Op::v_wmma_f16_16x16x16_f16, true, 'A', false, 5, 8, 4, 5, 0},
    {Gfx::v11, Op::v_wmma_f16_16x16x16_f16, true, 'A', false, 15, 15, 7, 15, 16},
    {Gfx::v11, Op::v_wmma_f16_16x16x16_f16, true, 'B', false, 1, 15, 0, 15, 16},
    {Gfx::v11, Op::v_wmma_f16_16x16x16_f16, true, 'B', false, 5, 8, 2, 8, 16},
    {Gfx::v11, Op::v_wmma_f16_16x16x16_f16, true, 'B', false, 15, 15, 7, 15, 16},
    {Gfx::v11, Op::v_wmma_f16_16x16x16_f16, true, 'D', false, 1, 15, 0, 31, 0},
    {Gfx::v11, Op::v_wmma_f16_16x16x16_f16, true, 'D', false, 5, 8, 1, 24, 0},
    {Gfx::v11, Op::v_wmma_f16_16x16x16_f16, true, 'D', false, 15, 15, 3, 63, 0},
    {Gfx::v11, Op::v_wmma_f16_16x16x16_f16, true, 'D', true, 1, 15, 0, 31, 16},
    {Gfx::v11, Op::v_wmma_f16_16x16x16_f16, true, 'D', true, 5, 8, 1, 24, 16},
    {Gfx::v11, Op::v_wmma_f16_16x16x16_f16, true, 'D', true, 15, 15, 3, 63, 16},
    {Gfx::v11, Op::v_wmma_bf16_16x16x16_bf16, false, 'A', false, 1, 15, 7, 1, 16},
    {Gfx::v11, Op::v_wmma_bf16_16x16x16_bf16, false, 'A', false, 5, 8, 4, 5, 0},
    {Gfx::v11, Op::v_wmma_bf16_16x16x16_bf16, false, 'A', false, 15, 15, 7, 15, 16},
    {Gfx::v11, Op::v_wmma_bf16_16x16x16_bf16, false, 'B', false, 1, 15, 0, 15, 16},
    {Gfx::v11, Op::v_wmma_bf16_16x16x16_bf16, false, 'B', false, 5, 8, 2, 8, 16},
    {Gfx::v11, Op::v_wmma_bf16_16x16x16_bf16, false, 'B', false, 15, 15, 7, 15, 16},
    {Gfx::v11, Op::v_wmma_bf16_16x16x16_bf16, false, 'D', false, 1, 15, 0, 31, 0},
    {Gfx::v11, Op::v_wmma_bf16_16x16x16_bf16, false, 'D', false, 5, 8, 2, 24, 0},
    {Gfx::v11, Op::v_wmma_bf16_16x16x16_bf16, false, 'D', false, 15, 15, 7, 31, 0},
    {Gfx::v11, Op::v_wmma_bf16_16x16x16_bf16, false, 'D', true, 1, 15, 0, 31, 16},
    {Gfx::v11, Op::v_wmma_bf16_16x16x16_bf16, false, 'D', true, 5, 8, 2, 24, 16},
    {Gfx::v11, Op::v_wmma_bf16_16x16x16_bf16, false, 'D', true, 15, 15, 7, 31, 16},
    {Gfx::v11, Op::v_wmma_bf16_16x16x16_bf16, true, 'A', false, 1, 15, 7, 1, 16},
    {Gfx::v11, Op::v_wmma_bf16_16x16x16_bf16, true, 'A', false, 5, 8, 4, 5, 0},
    {Gfx::v11, Op::v_wmma_bf16_16x16x16_bf16, true, 'A', false, 15, 15, 7, 15, 16},
    {Gfx::v11, Op::v_wmma_bf16_16x16x16_bf16, true, 'B', false, 1, 15, 0, 15, 16},
    {Gfx::v11, Op::v_wmma_bf16_16x16x16_bf16, true, 'B', false, 5, 8, 2, 8, 16},
    {Gfx::v11, Op::v_wmma_bf16_16x16x16_bf16, true, 'B', false, 15, 15, 7, 15, 16},
    {Gfx::v11, Op::v_wmma_bf16_16x16x16_bf16, true, 'D', false, 1, 15, 0, 31, 0},
    {Gfx::v11, Op::v_wmma_bf16_16x16x16_bf16, true, 'D', false, 5, 8, 1, 24, 0},
    {Gfx::v11, Op::v_wmma_bf16_16x16x16_bf16, true, 'D', false, 15, 15, 3, 63, 0},
    {Gfx::v11, Op::v_wmma_bf16_16x16x16_bf16, true, 'D', true, 1, 15, 0, 31, 16},
    {Gfx::v11, Op::v_wmma_bf16_16x16x16_bf16, true, 'D', true, 5, 8, 1, 24, 16},
    {Gfx::v11, Op::v_wmma_bf16_16x16x16_bf16, true, 'D', true, 15, 15, 3, 63, 16},
    {Gfx::v11, Op::v_wmma_i32_16x16x16_iu8, false, 'A', false, 1, 15, 3, 1, 24},
    {Gfx::v11, Op::v_wmma_i32_16x16x16_iu8, false, 'A', false, 5, 8, 2, 5, 0},
    {Gfx::v11, Op::v_wmma_i32_16x16x16_iu8, false, 'A', false, 15, 15, 3, 15, 24},
    {Gfx::v11, Op::v_wmma_i32_16x16x16_iu8, false, 'B', false, 1, 15, 0, 15, 8},
    {Gfx::v11, Op::v_wmma_i32_16x16x16_iu8, false, 'B', false, 5, 8, 1, 8, 8},
    {Gfx::v11, Op::v_wmma_i32_16x16x16_iu8, false, 'B', false, 15, 15, 3, 15, 24},
    {Gfx::v11, Op::v_wmma_i32_16x16x16_iu8, false, 'D', false, 1, 15, 0, 31, 0},
    {Gfx::v11, Op::v_wmma_i32_16x16x16_iu8, false, 'D', false, 5, 8, 2, 24, 0},
    {Gfx::v11, Op::v_wmma_i32_16x16x16_iu8, false, 'D', false, 15, 15, 7, 31, 0},
    {Gfx::v11, Op::v_wmma_i32_16x16x16_iu8, true, 'A', false, 1, 15, 3, 1, 24},
    {Gfx::v11, Op::v_wmma_i32_16x16x16_iu8, true, 'A', false, 5, 8, 2, 5, 0},
    {Gfx::v11, Op::v_wmma_i32_16x16x16_iu8, true, 'A', false, 15, 15, 3, 15, 24},
    {Gfx::v11, Op::v_wmma_i32_16x16x16_iu8, true, 'B', false, 1, 15, 0, 15, 8},
    {Gfx::v11, Op::v_wmma_i32_16x16x16_iu8, true, 'B', false, 5, 8, 1, 8, 8},
    {Gfx::v11, Op::v_wmma_i32_16x16x16_iu8, true, 'B', false, 15, 15, 3, 15, 24},
    {Gfx::v11, Op::v_wmma_i32_16x16x16_iu8, true, 'D', false, 1, 15, 0, 31, 0},
    {Gfx::v11, Op::v_wmma_i32_16x16x16_iu8, true, 'D', false, 5, 8, 1, 24, 0},
    {Gfx::v11, Op::v_wmma_i32_16x16x16_iu8, true, 'D', false, 15, 15, 3, 63, 0},
    {Gfx::v11, Op::v_wmma_i32_16x16x16_iu4, false, 'A', false, 1, 15, 1, 1, 28},
    {Gfx::v11, Op::v_wmma_i32_16x16x16_iu4, false, 'A', false, 5, 8, 1, 5, 0},
    {Gfx::v11, Op::v_wmma_i32_16x16x16_iu4, false, 'A', false, 15, 15, 1, 15, 28},
    {Gfx::v11, Op::v_wmma_i32_16x16x16_iu4, false, 'B', false, 1, 15, 0, 15, 4},
    {Gfx::v11, Op::v_wmma_i32_16x16x16_iu4, false, 'B', false, 5, 8, 0, 8, 20},
    {Gfx::v11, Op::v_wmma_i32_16x16x16_iu4, false, 'B', false, 15, 15, 1, 15, 28},
    {Gfx::v11, Op::v_wmma_i32_16x16x16_iu4, false, 'D', false, 1, 15, 0, 31, 0},
    {Gfx::v11, Op::v_wmma_i32_16x16x16_iu4, false, 'D', false, 5, 8, 2, 24, 0},
    {Gfx::v11, Op::v_wmma_i32_16x16x16_iu4, false, 'D', false, 15, 15, 7, 31, 0},
    {Gfx::v11, Op::v_wmma_i32_16x16x16_iu4, true, 'A', false, 1, 15, 1, 1, 28},
    {Gfx::v11, Op::v_wmma_i32_16x16x16_iu4, true, 'A', false, 5, 8, 1, 5, 0},
    {Gfx::v11, Op::v_wmma_i32_16x16x16_iu4, true, 'A', false, 15, 15, 1, 15, 28},
    {Gfx::v11, Op::v_wmma_i32_16x16x16_iu4, true, 'B', false, 1, 15, 0, 15, 4},
    {Gfx::v11, Op::v_wmma_i32_16x16x16_iu4, true, 'B', false, 5, 8, 0, 8, 20},
    {Gfx::v11, Op::v_wmma_i32_16x16x16_iu4, true, 'B', false, 15, 15, 1, 15, 28},
    {Gfx::v11, Op::v_wmma_i32_16x16x16_iu4, true, 'D', false, 1, 15, 0, 31, 0},
    {Gfx::v11, Op::v_wmma_i32_16x16x16_iu4, true, 'D', false, 5, 8, 1, 24, 0},
    {Gfx::v11, Op::v_wmma_i32_16x16x16_iu4, true, 'D', false, 15, 15, 3, 63, 0},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_f16, false, 'A', false, 1, 15, 3, 17, 16},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_f16, false, 'A', false, 5, 8, 2, 5, 0},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_f16, false, 'A', false, 15, 15, 3, 31, 16},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_f16, false, 'B', false, 1, 15, 0, 15, 16},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_f16, false, 'B', false, 5, 8, 0, 24, 16},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_f16, false, 'B', false, 15, 15, 3, 31, 16},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_f16, false, 'D', false, 1, 15, 1, 15, 0},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_f16, false, 'D', false, 5, 8, 5, 8, 0},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_f16, false, 'D', false, 15, 15, 7, 31, 0},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_f16, true, 'A', false, 1, 15, 1, 49, 16},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_f16, true, 'A', false, 5, 8, 0, 37, 0},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_f16, true, 'A', false, 15, 15, 1, 63, 16},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_f16, true, 'B', false, 1, 15, 0, 15, 16},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_f16, true, 'B', false, 5, 8, 0, 24, 16},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_f16, true, 'B', false, 15, 15, 1, 63, 16},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_f16, true, 'D', false, 1, 15, 1, 15, 0},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_f16, true, 'D', false, 5, 8, 1, 40, 0},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_f16, true, 'D', false, 15, 15, 3, 63, 0},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_bf16, false, 'A', false, 1, 15, 3, 17, 16},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_bf16, false, 'A', false, 5, 8, 2, 5, 0},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_bf16, false, 'A', false, 15, 15, 3, 31, 16},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_bf16, false, 'B', false, 1, 15, 0, 15, 16},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_bf16, false, 'B', false, 5, 8, 0, 24, 16},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_bf16, false, 'B', false, 15, 15, 3, 31, 16},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_bf16, false, 'D', false, 1, 15, 1, 15, 0},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_bf16, false, 'D', false, 5, 8, 5, 8, 0},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_bf16, false, 'D', false, 15, 15, 7, 31, 0},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_bf16, true, 'A', false, 1, 15, 1, 49, 16},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_bf16, true, 'A', false, 5, 8, 0, 37, 0},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_bf16, true, 'A', false, 15, 15, 1, 63, 16},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_bf16, true, 'B', false, 1, 15, 0, 15, 16},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_bf16, true, 'B', false, 5, 8, 0, 24, 16},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_bf16, true, 'B', false, 15, 15, 1, 63, 16},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_bf16, true, 'D', false, 1, 15, 1, 15, 0},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_bf16, true, 'D', false, 5, 8, 1, 40, 0},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_bf16, true, 'D', false, 15, 15, 3, 63, 0},
    {Gfx::v12, Op::v_wmma_f16_16x16x16_f16, false, 'A', false, 1, 15, 3, 17, 16},
    {Gfx::v12, Op::v_wmma_f16_16x16x16_f16, false, 'A', false, 5, 8, 2, 5, 0},
    {Gfx::v12, Op::v_wmma_f16_16x16x16_f16, false, 'A', false, 15, 15, 3, 31, 16},
    {Gfx::v12, Op::v_wmma_f16_16x16x16_f16, false, 'B', false, 1, 15, 0, 15, 16},
    {Gfx::v12, Op::v_wmma_f16_16x16x16_f16, false, 'B', false, 5, 8, 0, 24, 16},
    {Gfx::v12, Op::v_wmma_f16_16x16x16_f16, false, 'B', false, 15, 15, 3, 31, 16},
    {Gfx::v12, Op::v_wmma_f16_16x16x16_f16, false, 'D', false, 1, 15, 0, 15, 16},
    {Gfx::v12, Op::v_wmma_f16_16x16x16_f16, false, 'D', false, 5, 8, 2, 8, 16},
    {Gfx::v12, Op::v_wmma_f16_16x16x16_f16, false, 'D', false, 15, 15, 3, 31, 16},
    {Gfx::v12, Op::v_wmma_f16_16x16x16_f16, true, 'A', false, 1, 15, 1, 49, 16},
    {Gfx::v12, Op::v_wmma_f16_16x16x16_f16, true, 'A', false, 5, 8, 0, 37, 0},
    {Gfx::v12, Op::v_wmma_f16_16x16x16_f16, true, 'A', false, 15, 15, 1, 63, 16},
    {Gfx::v12, Op::v_wmma_f16_16x16x16_f16, true, 'B', false, 1, 15, 0, 15, 16},
    {Gfx::v12, Op::v_wmma_f16_16x16x16_f16, true, 'B', false, 5, 8, 0, 24, 16},
    {Gfx::v12, Op::v_wmma_f16_16x16x16_f16, true, 'B', false, 15, 15, 1, 63, 16},
    {Gfx::v12, Op::v_wmma_f16_16x16x16_f16, true, 'D', false, 1, 15, 0, 15, 16},
    {Gfx::v12, Op::v_wmma_f16_16x16x16_f16, true, 'D', false, 5, 8, 0, 40, 16},
    {Gfx::v12, Op::v_wmma_f16_16x16x16_f16, true, 'D', false, 15, 15, 1, 63, 16},
    {Gfx::v12, Op::v_wmma_bf16_16x16x16_bf16, false, 'A', false, 1, 15, 3, 17, 16},
    {Gfx::v12, Op::v_wmma_bf16_16x16x16_bf16, false, 'A', false, 5, 8, 2, 5, 0},
    {Gfx::v12, Op::v_wmma_bf16_16x16x16_bf16, false, 'A', false, 15, 15, 3, 31, 16},
    {Gfx::v12, Op::v_wmma_bf16_16x16x16_bf16, false, 'B', false, 1, 15, 0, 15, 16},
    {Gfx::v12, Op::v_wmma_bf16_16x16x16_bf16, false, 'B', false, 5, 8, 0, 24, 16},
    {Gfx::v12, Op::v_wmma_bf16_16x16x16_bf16, false, 'B', false, 15, 15, 3, 31, 16},
    {Gfx::v12, Op::v_wmma_bf16_16x16x16_bf16, false, 'D', false, 1, 15, 0, 15, 16},
    {Gfx::v12, Op::v_wmma_bf16_16x16x16_bf16, false, 'D', false, 5, 8, 2, 8, 16},
    {Gfx::v12, Op::v_wmma_bf16_16x16x16_bf16, false, 'D', false, 15, 15, 3, 31, 16},
    {Gfx::v12, Op::v_wmma_bf16_16x16x16_bf16, true, 'A', false, 1, 15, 1, 49, 16},
    {Gfx::v12, Op::v_wmma_bf16_16x16x16_bf16, true, 'A', false, 5, 8, 0, 37, 0},
    {Gfx::v12, Op::v_wmma_bf16_16x16x16_bf16, true, 'A', false, 15, 15, 1, 63, 16},
    {Gfx::v12, Op::v_wmma_bf16_16x16x16_bf16, true, 'B', false, 1, 15, 0, 15, 16},
    {Gfx::v12, Op::v_wmma_bf16_16x16x16_bf16, true, 'B', false, 5, 8, 0, 24, 16},
    {Gfx::v12, Op::v_wmma_bf16_16x16x16_bf16, true, 'B', false, 15, 15, 1, 63, 16},
    {Gfx::v12, Op::v_wmma_bf16_16x16x16_bf16, true, 'D', false, 1, 15, 0, 15, 16},
    {Gfx::v12, Op::v_wmma_bf16_16x16x16_bf16, true, 'D', false, 5, 8, 0, 40, 16},
    {Gfx::v12, Op::v_wmma_bf16_16x16x16_bf16, true, 'D', false, 15, 15, 1, 63, 16},
    {Gfx::v12, Op::v_wmma_i32_16x16x16_iu8, false, 'A', false, 1, 15, 1, 17, 24},
    {Gfx::v12, Op::v_wmma_i32_16x16x16_iu8, false, 'A', false, 5, 8, 0, 21, 0},
    {Gfx::v12, Op::v_wmma_i32_16x16x16_iu8, false, 'A', false, 15, 15, 1, 31, 24},
    {Gfx::v12, Op::v_wmma_i32_16x16x16_iu8, false, 'B', false, 1, 15, 0, 15, 8},
    {Gfx::v12, Op::v_wmma_i32_16x16x16_iu8, false, 'B', false, 5, 8, 1, 8, 8},
    {Gfx::v12, Op::v_wmma_i32_16x16x16_iu8, false, 'B', false, 15, 15, 1, 31, 24},
    {Gfx::v12, Op::v_wmma_i32_16x16x16_iu8, false, 'D', false, 1, 15, 1, 15, 0},
    {Gfx::v12, Op::v_wmma_i32_16x16x16_iu8, false, 'D', false, 5, 8, 5, 8, 0},
    {Gfx::v12, Op::v_wmma_i32_16x16x16_iu8, false, 'D', false, 15, 15, 7, 31, 0},
    {Gfx::v12, Op::v_wmma_i32_16x16x16_iu8, true, 'A', false, 1, 15, 0, 49, 24},
    {Gfx::v12, Op::v_wmma_i32_16x16x16_iu8, true, 'A', false, 5, 8, 0, 21, 0},
    {Gfx::v12, Op::v_wmma_i32_16x16x16_iu8, true, 'A', false, 15, 15, 0, 63, 24},
    {Gfx::v12, Op::v_wmma_i32_16x16x16_iu8, true, 'B', false, 1, 15, 0, 15, 8},
    {Gfx::v12, Op::v_wmma_i32_16x16x16_iu8, true, 'B', false, 5, 8, 0, 40, 8},
    {Gfx::v12, Op::v_wmma_i32_16x16x16_iu8, true, 'B', false, 15, 15, 0, 63, 24},
    {Gfx::v12, Op::v_wmma_i32_16x16x16_iu8, true, 'D', false, 1, 15, 1, 15, 0},
    {Gfx::v12, Op::v_wmma_i32_16x16x16_iu8, true, 'D', false, 5, 8, 1, 40, 0},
    {Gfx::v12, Op::v_wmma_i32_16x16x16_iu8, true, 'D', false, 15, 15, 3, 63, 0},
    {Gfx::v12, Op::v_wmma_i32_16x16x16_iu4, false, 'A', false, 1, 15, 0, 17, 28},
    {Gfx::v12, Op::v_wmma_i32_16x16x16_iu4, false, 'A', false, 5, 8, 0, 21, 0},
    {Gfx::v12, Op::v_wmma_i32_16x16x16_iu4, false, 'A', false, 15, 15, 0, 31, 28},
    {Gfx::v12, Op::v_wmma_i32_16x16x16_iu4, false, 'B', false, 1, 15, 0, 15, 4},
    {Gfx::v12, Op::v_wmma_i32_16x16x16_iu4, false, 'B', false, 5, 8, 0, 8, 20},
    {Gfx::v12, Op::v_wmma_i32_16x16x16_iu4, false, 'B', false, 15, 15, 0, 31, 28},
    {Gfx::v12, Op::v_wmma_i32_16x16x16_iu4, false, 'D', false, 1, 15, 1, 15, 0},
    {Gfx::v12, Op::v_wmma_i32_16x16x16_iu4, false, 'D', false, 5, 8, 5, 8, 0},
    {Gfx::v12, Op::v_wmma_i32_16x16x16_iu4, false, 'D', false, 15, 15, 7, 31, 0},
    {Gfx::v12, Op::v_wmma_i32_16x16x16_iu4, true, 'A', false, 1, 15, 0, 17, 28},
    {Gfx::v12, Op::v_wmma_i32_16x16x16_iu4, true, 'A', false, 5, 8, 0, 21, 0},
    {Gfx::v12, Op::v_wmma_i32_16x16x16_iu4, true, 'A', false, 15, 15, 0, 31, 28},
    {Gfx::v12, Op::v_wmma_i32_16x16x16_iu4, true, 'B', false, 1, 15, 0, 15, 4},
    {Gfx::v12, Op::v_wmma_i32_16x16x16_iu4, true, 'B', false, 5, 8, 0, 8, 20},
    {Gfx::v12, Op::v_wmma_i32_16x16x16_iu4, true, 'B', false, 15, 15, 0, 31, 28},
    {Gfx::v12, Op::v_wmma_i32_16x16x16_iu4, true, 'D', false, 1, 15, 1, 15, 0},
    {Gfx::v12, Op::v_wmma_i32_16x16x16_iu4, true, 'D', false, 5, 8, 1, 40, 0},
    {Gfx::v12, Op::v_wmma_i32_16x16x16_iu4, true, 'D', false, 15, 15, 3, 63, 0},
    {Gfx::v12, Op::v_wmma_i32_16x16x32_iu4, false, 'A', false, 1, 31, 1, 17, 28},
    {Gfx::v12, Op::v_wmma_i32_16x16x32_iu4, false, 'A', false, 5, 16, 0, 21, 0},
    {Gfx::v12, Op::v_wmma_i32_16x16x32_iu4, false, 'A', false, 15, 31, 1, 31, 28},
    {Gfx::v12, Op::v_wmma_i32_16x16x32_iu4, false, 'B', false, 1, 15, 0, 15, 4},
    {Gfx::v12, Op::v_wmma_i32_16x16x32_iu4, false, 'B', false, 10, 8, 1, 8, 8},
    {Gfx::v12, Op::v_wmma_i32_16x16x32_iu4, false, 'B', false, 31, 15, 1, 31, 28},
    {Gfx::v12, Op::v_wmma_i32_16x16x32_iu4, false, 'D', false, 1, 15, 1, 15, 0},
    {Gfx::v12, Op::v_wmma_i32_16x16x32_iu4, false, 'D', false, 5, 8, 5, 8, 0},
    {Gfx::v12, Op::v_wmma_i32_16x16x32_iu4, false, 'D', false, 15, 15, 7, 31, 0},
    {Gfx::v12, Op::v_wmma_i32_16x16x32_iu4, true, 'A', false, 1, 31, 0, 49, 28},
    {Gfx::v12, Op::v_wmma_i32_16x16x32_iu4, true, 'A', false, 5, 16, 0, 21, 0},
    {Gfx::v12, Op::v_wmma_i32_16x16x32_iu4, true, 'A', false, 15, 31, 0, 63, 28},
    {Gfx::v12, Op::v_wmma_i32_16x16x32_iu4, true, 'B', false, 1, 15, 0, 15, 4},
    {Gfx::v12, Op::v_wmma_i32_16x16x32_iu4, true, 'B', false, 10, 8, 0, 40, 8},
    {Gfx::v12, Op::v_wmma_i32_16x16x32_iu4, true, 'B', false, 31, 15, 0, 63, 28},
    {Gfx::v12, Op::v_wmma_i32_16x16x32_iu4, true, 'D', false, 1, 15, 1, 15, 0},
    {Gfx::v12, Op::v_wmma_i32_16x16x32_iu4, true, 'D', false, 5, 8, 1, 40, 0},
    {Gfx::v12, Op::v_wmma_i32_16x16x32_iu4, true, 'D', false, 15, 15, 3, 63, 0},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_fp8_fp8, false, 'A', false, 1, 15, 1, 17, 24},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_fp8_fp8, false, 'A', false, 5, 8, 0, 21, 0},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_fp8_fp8, false, 'A', false, 15, 15, 1, 31, 24},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_fp8_fp8, false, 'B', false, 1, 15, 0, 15, 8},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_fp8_fp8, false, 'B', false, 5, 8, 1, 8, 8},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_fp8_fp8, false, 'B', false, 15, 15, 1, 31, 24},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_fp8_fp8, false, 'D', false, 1, 15, 1, 15, 0},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_fp8_fp8, false, 'D', false, 5, 8, 5, 8, 0},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_fp8_fp8, false, 'D', false, 15, 15, 7, 31, 0},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_fp8_fp8, true, 'A', false, 1, 15, 0, 49, 24},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_fp8_fp8, true, 'A', false, 5, 8, 0, 21, 0},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_fp8_fp8, true, 'A', false, 15, 15, 0, 63, 24},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_fp8_fp8, true, 'B', false, 1, 15, 0, 15, 8},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_fp8_fp8, true, 'B', false, 5, 8, 0, 40, 8},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_fp8_fp8, true, 'B', false, 15, 15, 0, 63, 24},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_fp8_fp8, true, 'D', false, 1, 15, 1, 15, 0},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_fp8_fp8, true, 'D', false, 5, 8, 1, 40, 0},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_fp8_fp8, true, 'D', false, 15, 15, 3, 63, 0},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_fp8_bf8, false, 'A', false, 1, 15, 1, 17, 24},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_fp8_bf8, false, 'A', false, 5, 8, 0, 21, 0},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_fp8_bf8, false, 'A', false, 15, 15, 1, 31, 24},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_fp8_bf8, false, 'B', false, 1, 15, 0, 15, 8},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_fp8_bf8, false, 'B', false, 5, 8, 1, 8, 8},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_fp8_bf8, false, 'B', false, 15, 15, 1, 31, 24},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_fp8_bf8, false, 'D', false, 1, 15, 1, 15, 0},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_fp8_bf8, false, 'D', false, 5, 8, 5, 8, 0},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_fp8_bf8, false, 'D', false, 15, 15, 7, 31, 0},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_fp8_bf8, true, 'A', false, 1, 15, 0, 49, 24},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_fp8_bf8, true, 'A', false, 5, 8, 0, 21, 0},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_fp8_bf8, true, 'A', false, 15, 15, 0, 63, 24},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_fp8_bf8, true, 'B', false, 1, 15, 0, 15, 8},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_fp8_bf8, true, 'B', false, 5, 8, 0, 40, 8},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_fp8_bf8, true, 'B', false, 15, 15, 0, 63, 24},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_fp8_bf8, true, 'D', false, 1, 15, 1, 15, 0},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_fp8_bf8, true, 'D', false, 5, 8, 1, 40, 0},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_fp8_bf8, true, 'D', false, 15, 15, 3, 63, 0},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_bf8_fp8, false, 'A', false, 1, 15, 1, 17, 24},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_bf8_fp8, false, 'A', false, 5, 8, 0, 21, 0},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_bf8_fp8, false, 'A', false, 15, 15, 1, 31, 24},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_bf8_fp8, false, 'B', false, 1, 15, 0, 15, 8},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_bf8_fp8, false, 'B', false, 5, 8, 1, 8, 8},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_bf8_fp8, false, 'B', false, 15, 15, 1, 31, 24},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_bf8_fp8, false, 'D', false, 1, 15, 1, 15, 0},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_bf8_fp8, false, 'D', false, 5, 8, 5, 8, 0},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_bf8_fp8, false, 'D', false, 15, 15, 7, 31, 0},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_bf8_fp8, true, 'A', false, 1, 15, 0, 49, 24},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_bf8_fp8, true, 'A', false, 5, 8, 0, 21, 0},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_bf8_fp8, true, 'A', false, 15, 15, 0, 63, 24},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_bf8_fp8, true, 'B', false, 1, 15, 0, 15, 8},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_bf8_fp8, true, 'B', false, 5, 8, 0, 40, 8},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_bf8_fp8, true, 'B', false, 15, 15, 0, 63, 24},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_bf8_fp8, true, 'D', false, 1, 15, 1, 15, 0},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_bf8_fp8, true, 'D', false, 5, 8, 1, 40, 0},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_bf8_fp8, true, 'D', false, 15, 15, 3, 63, 0},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_bf8_bf8, false, 'A', false, 1, 15, 1, 17, 24},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_bf8_bf8, false, 'A', false, 5, 8, 0, 21, 0},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_bf8_bf8, false, 'A', false, 15, 15, 1, 31, 24},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_bf8_bf8, false, 'B', false, 1, 15, 0, 15, 8},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_bf8_bf8, false, 'B', false, 5, 8, 1, 8, 8},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_bf8_bf8, false, 'B', false, 15, 15, 1, 31, 24},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_bf8_bf8, false, 'D', false, 1, 15, 1, 15, 0},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_bf8_bf8, false, 'D', false, 5, 8, 5, 8, 0},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_bf8_bf8, false, 'D', false, 15, 15, 7, 31, 0},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_bf8_bf8, true, 'A', false, 1, 15, 0, 49, 24},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_bf8_bf8, true, 'A', false, 5, 8, 0, 21, 0},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_bf8_bf8, true, 'A', false, 15, 15, 0, 63, 24},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_bf8_bf8, true, 'B', false, 1, 15, 0, 15, 8},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_bf8_bf8, true, 'B', false, 5, 8, 0, 40, 8},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_bf8_bf8, true, 'B', false, 15, 15, 0, 63, 24},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_bf8_bf8, true, 'D', false, 1, 15, 1, 15, 0},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_bf8_bf8, true, 'D', false, 5, 8, 1, 40, 0},
    {Gfx::v12, Op::v_wmma_f32_16x16x16_bf8_bf8, true, 'D', false, 15, 15, 3, 63, 0},
};

TEST(WmmaLayout, ElementsAreWhereTheCalculatorPutsThem) {
  for (const Pin& p : kPins) {
    const WmmaShape s = wmma_shape(p.op);
    WmmaSlot got{};
    if (p.matrix == 'A')
      got = wmma_input_slot(p.gfx, p.wave64, wmma_bits(s.a), s.k, p.row, p.col);
    else if (p.matrix == 'B')
      got = wmma_input_slot(p.gfx, p.wave64, wmma_bits(s.b), s.k, p.col, p.row);
    else
      got = wmma_output_slot(p.gfx, p.wave64, wmma_bits(s.out), p.high, p.row, p.col);
    EXPECT_EQ(got.gpr, p.gpr) << op_name(p.op, p.gfx) << " " << p.matrix << p.row << "," << p.col;
    EXPECT_EQ(got.lane, p.lane) << op_name(p.op, p.gfx) << " " << p.matrix << p.row << "," << p.col;
    EXPECT_EQ(got.bit, p.bit) << op_name(p.op, p.gfx) << " " << p.matrix << p.row << "," << p.col;
  }
}

// The calculator's "GPRs required" per wave size.
TEST(WmmaLayout, OperandSizes) {
  struct Row {
    Gfx gfx;
    Op op;
    unsigned a32, c32, a64, c64;
  };
  const Row rows[] = {
      {Gfx::v11, Op::v_wmma_f32_16x16x16_f16, 8, 8, 8, 4},
      {Gfx::v11, Op::v_wmma_f16_16x16x16_f16, 8, 8, 8, 4},
      {Gfx::v11, Op::v_wmma_i32_16x16x16_iu8, 4, 8, 4, 4},
      {Gfx::v11, Op::v_wmma_i32_16x16x16_iu4, 2, 8, 2, 4},
      {Gfx::v12, Op::v_wmma_f32_16x16x16_f16, 4, 8, 2, 4},
      {Gfx::v12, Op::v_wmma_bf16_16x16x16_bf16, 4, 4, 2, 2},
      {Gfx::v12, Op::v_wmma_i32_16x16x16_iu8, 2, 8, 1, 4},
      {Gfx::v12, Op::v_wmma_i32_16x16x16_iu4, 1, 8, 1, 4},
      {Gfx::v12, Op::v_wmma_i32_16x16x32_iu4, 2, 8, 1, 4},
      {Gfx::v12, Op::v_wmma_f32_16x16x16_bf8_fp8, 2, 8, 1, 4},
  };
  for (const Row& r : rows) {
    EXPECT_EQ(wmma_regs(r.op, r.gfx, false).a, r.a32) << op_name(r.op, r.gfx);
    EXPECT_EQ(wmma_regs(r.op, r.gfx, false).c, r.c32) << op_name(r.op, r.gfx);
    EXPECT_EQ(wmma_regs(r.op, r.gfx, true).b, r.a64) << op_name(r.op, r.gfx);
    EXPECT_EQ(wmma_regs(r.op, r.gfx, true).d, r.c64) << op_name(r.op, r.gfx);
  }
}

constexpr uint64_t kCode = 0x10000;
using FlatMemory = sim::test::FlatMemory<0x10000, 0x1000>;
constexpr unsigned kA = 0, kB = 16, kC = 32, kD = 48, kVgprs = 64;

struct Mods {
  unsigned neg = 0, neg_hi = 0, opsel = 0;
  bool clamp = false;
  uint16_t c_code = 256 + kC; // C operand: VGPRs, or an inline constant code
  bool partial_exec = false;
};

std::vector<uint32_t> wmma_words(Gfx gfx, Op op, const Mods& m) {
  const uint32_t code = *op_code(op, gfx);
  return {0xCC000000u | code << 16 | uint32_t(m.clamp) << 15 | 1u << 14 | m.opsel << 11 |
              m.neg_hi << 8 | kD,
          m.neg << 29 | 3u << 27 | uint32_t(m.c_code) << 18 | (256 + kB) << 9 | (256 + kA)};
}

// 16-bit half/bfloat, 8-bit float and integer values as raw element bits, with edge cases.
uint32_t random_element(WmmaElem e, std::mt19937& rng) {
  std::uniform_int_distribution<int> pick(0, 15);
  const int p = pick(rng);
  switch (e) {
  case WmmaElem::F16: {
    static const uint16_t special[] = {0x0000, 0x8000, 0x0001, 0x83ff, 0x7bff,
                                       0xfbff, 0x3c00, 0x7c00, 0xfc00, 0x7e00};
    if (p < 3) return special[rng() % 10];
    return std::bit_cast<uint16_t>(_Float16(std::uniform_real_distribution<float>(-8, 8)(rng)));
  }
  case WmmaElem::BF16: {
    static const uint16_t special[] = {0x0000, 0x8000, 0x0001, 0x7f7f, 0x3f80, 0x7f80, 0xffc0};
    if (p < 3) return special[rng() % 7];
    return std::bit_cast<uint32_t>(std::uniform_real_distribution<float>(-8, 8)(rng)) >> 16;
  }
  case WmmaElem::I4:
    return rng() & 15;
  default:
    return rng() & 255; // I8, FP8, BF8: every byte, NaN codes included
  }
}

long double element_value(uint32_t raw, WmmaElem e, bool is_signed) {
  switch (e) {
  case WmmaElem::F16:
    return float(std::bit_cast<_Float16>(uint16_t(raw)));
  case WmmaElem::BF16:
    return std::bit_cast<float>(raw << 16);
  case WmmaElem::I8:
    return is_signed ? int8_t(raw) : uint8_t(raw);
  case WmmaElem::I4:
    return is_signed ? (raw & 8 ? int(raw) - 16 : int(raw)) : int(raw);
  case WmmaElem::FP8:
  case WmmaElem::BF8: {
    // RDNA4 ISA manual 7.5: FP8 E4M3 bias 7, 0x7f/0xff NaN, no infinity; BF8 E5M2 bias 15.
    const bool bf8 = e == WmmaElem::BF8;
    const int mb = bf8 ? 2 : 3, eb = bf8 ? 5 : 4, bias = bf8 ? 15 : 7;
    const int ex = (raw >> mb) & ((1 << eb) - 1), m = raw & ((1 << mb) - 1);
    const long double sign = raw & 0x80 ? -1 : 1;
    if (bf8 && ex == 31) return m ? NAN : sign * INFINITY;
    if (!bf8 && (raw & 0x7f) == 0x7f) return NAN;
    return sign * std::ldexp((long double)(ex ? m + (1 << mb) : m), (ex ? ex : 1) - bias - mb);
  }
  default:
    return std::bit_cast<float>(raw);
  }
}

// Whether a floating-point D element `got` is `sum` rounded once to D's type (to nearest even;
// any NaN for a NaN).
bool result_is(uint32_t got, long double sum, WmmaElem out) {
  if (std::isnan(sum)) {
    if (out == WmmaElem::F32) return std::isnan(std::bit_cast<float>(got));
    if (out == WmmaElem::F16) return (got & 0x7c00) == 0x7c00 && (got & 0x3ff);
    return (got & 0x7f80) == 0x7f80 && (got & 0x7f);
  }
  if (out == WmmaElem::F32) return got == std::bit_cast<uint32_t>(float(sum));
  if (out == WmmaElem::F16) return got == std::bit_cast<uint16_t>(_Float16(sum));
  const uint32_t u = std::bit_cast<uint32_t>(float(sum));
  return got == (u + 0x7fff + ((u >> 16) & 1)) >> 16;
}

struct Case {
  Gfx gfx;
  Op op;
  bool wave64;
};

// Runs one WMMA on random A, B, C and compares every D element with the reference.
void check(const Case& c, const Mods& m, std::mt19937& rng) {
  const WmmaShape s = wmma_shape(c.op);
  const unsigned abits = wmma_bits(s.a), bbits = wmma_bits(s.b), obits = wmma_bits(s.out);
  const bool integer = s.out == WmmaElem::I32, high = (m.opsel >> 2) & 1;
  FlatMemory mem;
  std::vector<uint32_t> code = wmma_words(c.gfx, c.op, m);
  code.push_back(sim::test::kEndpgm);
  sim::test::put_words(mem, kCode, code);
  sim::test::WaveRunner runner(mem, kCode, c.gfx);
  Wave w;
  sim::test::start_wave(w, c.wave64, kVgprs, kCode);
  if (m.partial_exec) w.sgpr[src::kExecLo] = 0xfffffffe;
  // Random bits everywhere first (what no element uses must not matter), then the matrices.
  for (unsigned r = 0; r < kVgprs; ++r)
    for (unsigned l = 0; l < w.lanes(); ++l) {
      w.select_half(l / 32);
      w.v(r, l % 32) = rng();
    }
  auto put = [&](unsigned base, WmmaSlot sl, unsigned bits, uint32_t raw) {
    w.select_half(sl.lane / 32);
    uint32_t& word = w.v(base + sl.gpr, sl.lane % 32);
    const uint32_t mask = (bits == 32 ? ~0u : (1u << bits) - 1) << sl.bit;
    word = (word & ~mask) | (raw << sl.bit);
  };
  // Inputs land in every lane that holds them: the calculator's first holder and its copies
  // (gfx11's lanes i+16, i+32, i+48; gfx12's wave64 4-bit K = 16 lanes 32..63).
  auto holders = [&](WmmaSlot sl) {
    std::vector<WmmaSlot> v{sl};
    if (c.gfx == Gfx::v11)
      for (unsigned l = sl.lane + 16; l < w.lanes(); l += 16) v.push_back({sl.gpr, l, sl.bit});
    else if (c.wave64 && abits == 4 && s.k == 16)
      v.push_back({sl.gpr, sl.lane + 32, sl.bit});
    return v;
  };
  uint32_t a[16][32], b[32][16], cm[16][16];
  for (unsigned r = 0; r < 16; ++r)
    for (unsigned k = 0; k < s.k; ++k) {
      a[r][k] = random_element(s.a, rng);
      b[k][r] = random_element(s.b, rng);
      for (WmmaSlot sl : holders(wmma_input_slot(c.gfx, c.wave64, abits, s.k, r, k)))
        put(kA, sl, abits, a[r][k]);
      for (WmmaSlot sl : holders(wmma_input_slot(c.gfx, c.wave64, bbits, s.k, r, k)))
        put(kB, sl, bbits, b[k][r]);
    }
  for (unsigned i = 0; i < 16; ++i)
    for (unsigned j = 0; j < 16; ++j) {
      cm[i][j] = integer       ? uint32_t(rng())
                 : obits == 16 ? random_element(s.out, rng)
                               : std::bit_cast<uint32_t>(
                                     float(std::uniform_real_distribution<float>(-100, 100)(rng)));
      put(kC, wmma_output_slot(c.gfx, c.wave64, obits, high, i, j), obits, cm[i][j]);
    }
  std::vector<uint32_t> before(w.vgpr);
  w.select_half(0);
  if (m.partial_exec) {
    EXPECT_THROW(runner.run(w), sim::shader::ShaderFault) << op_name(c.op, c.gfx);
    return;
  }
  runner.run(w);
  ASSERT_TRUE(w.done);
  const std::string what = std::string(op_name(c.op, c.gfx)) + (c.wave64 ? " wave64" : " wave32");
  for (unsigned i = 0; i < 16; ++i)
    for (unsigned j = 0; j < 16; ++j) {
      const WmmaSlot sl = wmma_output_slot(c.gfx, c.wave64, obits, high, i, j);
      const uint32_t got =
          (sim::test::lane_vgpr(w, kD + sl.gpr, sl.lane) >> sl.bit) & (obits == 32 ? ~0u : 0xffffu);
      // C: the VGPRs or the inline constant, with its modifiers.
      long double cv;
      uint32_t craw = cm[i][j];
      if (m.c_code < 256) // 1.0 in C's type
        craw = s.out == WmmaElem::F16    ? 0x3c00u
               : s.out == WmmaElem::BF16 ? 0x3f80u
                                         : std::bit_cast<uint32_t>(1.0f);
      if (integer) {
        int64_t sum = int32_t(craw);
        for (unsigned k = 0; k < s.k; ++k)
          sum += int64_t(element_value(a[i][k], s.a, m.neg & 1)) *
                 int64_t(element_value(b[k][j], s.b, (m.neg >> 1) & 1));
        if (m.clamp) sum = std::clamp<int64_t>(sum, INT32_MIN, INT32_MAX);
        ASSERT_EQ(got, uint32_t(sum)) << what << " D" << i << "," << j;
        continue;
      }
      cv = element_value(craw, s.out, false);
      if ((m.neg_hi >> 2) & 1) cv = std::fabs(cv);
      if ((m.neg >> 2) & 1) cv = -cv;
      long double sum = cv;
      for (unsigned k = 0; k < s.k; ++k) {
        long double x = element_value(a[i][k], s.a, false), y = element_value(b[k][j], s.b, false);
        // neg_lo / neg_hi: the low / high halves of A's and B's dwords (even / odd k here).
        const bool a_hi = wmma_input_slot(c.gfx, c.wave64, abits, s.k, i, k).bit != 0;
        const bool b_hi = wmma_input_slot(c.gfx, c.wave64, bbits, s.k, j, k).bit != 0;
        if (abits == 16 && (((a_hi ? m.neg_hi : m.neg) & 1))) x = -x;
        if (bbits == 16 && (((b_hi ? m.neg_hi : m.neg) >> 1) & 1)) y = -y;
        sum += x * y;
      }
      ASSERT_TRUE(result_is(got, sum, s.out))
          << what << " D" << i << "," << j << " = 0x" << std::hex << got;
    }
  // gfx11's 16-bit results leave the other half of each D dword as it was.
  if (c.gfx == Gfx::v11 && obits == 16)
    for (unsigned i = 0; i < 16; ++i)
      for (unsigned j = 0; j < 16; ++j) {
        const WmmaSlot sl = wmma_output_slot(c.gfx, c.wave64, obits, !high, i, j);
        const size_t at = (sl.lane / 32) * w.half_stride + (kD + sl.gpr) * 32 + sl.lane % 32;
        ASSERT_EQ(w.vgpr[at] >> sl.bit & 0xffff, before[at] >> sl.bit & 0xffff);
      }
}

std::vector<Case> all_cases() {
  std::vector<Case> v;
  const Op gfx11[] = {Op::v_wmma_f32_16x16x16_f16, Op::v_wmma_f32_16x16x16_bf16,
                      Op::v_wmma_f16_16x16x16_f16, Op::v_wmma_bf16_16x16x16_bf16,
                      Op::v_wmma_i32_16x16x16_iu8, Op::v_wmma_i32_16x16x16_iu4};
  const Op gfx12_only[] = {Op::v_wmma_f32_16x16x16_fp8_fp8, Op::v_wmma_f32_16x16x16_fp8_bf8,
                           Op::v_wmma_f32_16x16x16_bf8_fp8, Op::v_wmma_f32_16x16x16_bf8_bf8,
                           Op::v_wmma_i32_16x16x32_iu4};
  for (bool w64 : {false, true}) {
    for (Op op : gfx11) v.push_back({Gfx::v11, op, w64}), v.push_back({Gfx::v12, op, w64});
    for (Op op : gfx12_only) v.push_back({Gfx::v12, op, w64});
  }
  return v;
}

TEST(WmmaExecution, EveryOperationWithoutModifiers) {
  std::mt19937 rng(1);
  for (const Case& c : all_cases())
    for (int round = 0; round < 3; ++round) check(c, {}, rng);
}

TEST(WmmaExecution, FloatModifiersNegateHalvesAndTakeCsMagnitude) {
  std::mt19937 rng(2);
  for (const Case& c : all_cases()) {
    const WmmaShape s = wmma_shape(c.op);
    if (s.out == WmmaElem::I32) continue;
    const bool f8 = s.a == WmmaElem::FP8 || s.a == WmmaElem::BF8;
    for (unsigned neg = 0; neg < 8; ++neg)
      for (unsigned neg_hi : {0u, 3u, 4u, 5u}) {
        if (f8 && ((neg | neg_hi) & 3)) continue; // gfx12 refuses A/B negation of 8-bit floats
        check(c, {neg, neg_hi}, rng);
      }
  }
}

TEST(WmmaExecution, IntegersAreSignedByNegLoAndClampSaturates) {
  std::mt19937 rng(3);
  for (const Case& c : all_cases()) {
    if (wmma_shape(c.op).out != WmmaElem::I32) continue;
    for (unsigned neg = 0; neg < 4; ++neg)
      for (bool clamp : {false, true}) check(c, {neg, 0, 0, clamp}, rng);
  }
}

TEST(WmmaExecution, Gfx11SixteenBitResultsGoToTheHalfOpSelPicks) {
  std::mt19937 rng(4);
  for (bool w64 : {false, true})
    for (Op op : {Op::v_wmma_f16_16x16x16_f16, Op::v_wmma_bf16_16x16x16_bf16})
      for (unsigned opsel : {0u, 4u}) check({Gfx::v11, op, w64}, {0, 0, opsel}, rng);
}

TEST(WmmaExecution, CAsAnInlineConstant) {
  std::mt19937 rng(5);
  for (const Case& c : all_cases())
    if (wmma_shape(c.op).out != WmmaElem::I32) check(c, {0, 0, 0, false, 242}, rng); // 1.0
}

// The manuals leave a WMMA with lanes off undefined: the emulator stops with a fault.
TEST(WmmaExecution, LanesOffFaultByName) {
  std::mt19937 rng(6);
  check({Gfx::v11, Op::v_wmma_f32_16x16x16_f16, false}, {0, 0, 0, false, 256 + kC, true}, rng);
  check({Gfx::v12, Op::v_wmma_i32_16x16x16_iu8, true}, {0, 0, 0, false, 256 + kC, true}, rng);
}

} // namespace

namespace {

// gfx12's sparse forms, from the same calculator: A's kept pair of a group of four K values ('A',
// the pair's low bit), the group's index field ('k', with op_sel's set; the VGPR is src2's), B.
struct SparsePin {
  Op op;
  bool wave64;
  char matrix;
  unsigned set, row, col, gpr, lane, bit;
};
const SparsePin kSparsePins[] = {
    {Op::v_swmmac_f32_16x16x32_f16, false, 'A', 0, 1, 31, 3, 17, 0},
    {Op::v_swmmac_f32_16x16x32_f16, false, 'A', 0, 5, 16, 2, 5, 0},
    {Op::v_swmmac_f32_16x16x32_f16, false, 'A', 0, 15, 31, 3, 31, 0},
    {Op::v_swmmac_f32_16x16x32_f16, false, 'B', 0, 1, 15, 0, 15, 16},
    {Op::v_swmmac_f32_16x16x32_f16, false, 'B', 0, 10, 8, 1, 24, 0},
    {Op::v_swmmac_f32_16x16x32_f16, false, 'B', 0, 31, 15, 7, 31, 16},
    {Op::v_swmmac_f32_16x16x32_f16, false, 'k', 0, 1, 31, 0, 17, 12},
    {Op::v_swmmac_f32_16x16x32_f16, false, 'k', 0, 5, 16, 0, 5, 8},
    {Op::v_swmmac_f32_16x16x32_f16, false, 'k', 0, 15, 31, 0, 31, 12},
    {Op::v_swmmac_f32_16x16x32_f16, false, 'k', 1, 1, 31, 0, 17, 28},
    {Op::v_swmmac_f32_16x16x32_f16, false, 'k', 1, 5, 16, 0, 5, 24},
    {Op::v_swmmac_f32_16x16x32_f16, false, 'k', 1, 15, 31, 0, 31, 28},
    {Op::v_swmmac_f32_16x16x32_f16, true, 'A', 0, 1, 31, 1, 49, 0},
    {Op::v_swmmac_f32_16x16x32_f16, true, 'A', 0, 5, 16, 0, 37, 0},
    {Op::v_swmmac_f32_16x16x32_f16, true, 'A', 0, 15, 31, 1, 63, 0},
    {Op::v_swmmac_f32_16x16x32_f16, true, 'B', 0, 1, 15, 0, 15, 16},
    {Op::v_swmmac_f32_16x16x32_f16, true, 'B', 0, 10, 8, 1, 24, 0},
    {Op::v_swmmac_f32_16x16x32_f16, true, 'B', 0, 31, 15, 3, 63, 16},
    {Op::v_swmmac_f32_16x16x32_f16, true, 'k', 0, 1, 31, 0, 49, 4},
    {Op::v_swmmac_f32_16x16x32_f16, true, 'k', 0, 5, 16, 0, 37, 0},
    {Op::v_swmmac_f32_16x16x32_f16, true, 'k', 0, 15, 31, 0, 63, 4},
    {Op::v_swmmac_f32_16x16x32_f16, true, 'k', 1, 1, 31, 0, 49, 12},
    {Op::v_swmmac_f32_16x16x32_f16, true, 'k', 1, 5, 16, 0, 37, 8},
    {Op::v_swmmac_f32_16x16x32_f16, true, 'k', 1, 15, 31, 0, 63, 12},
    {Op::v_swmmac_f32_16x16x32_f16, true, 'k', 2, 1, 31, 0, 49, 20},
    {Op::v_swmmac_f32_16x16x32_f16, true, 'k', 2, 5, 16, 0, 37, 16},
    {Op::v_swmmac_f32_16x16x32_f16, true, 'k', 2, 15, 31, 0, 63, 20},
    {Op::v_swmmac_f32_16x16x32_f16, true, 'k', 3, 1, 31, 0, 49, 28},
    {Op::v_swmmac_f32_16x16x32_f16, true, 'k', 3, 5, 16, 0, 37, 24},
    {Op::v_swmmac_f32_16x16x32_f16, true, 'k', 3, 15, 31, 0, 63, 28},
    {Op::v_swmmac_f32_16x16x32_bf16, false, 'A', 0, 1, 31, 3, 17, 0},
    {Op::v_swmmac_f32_16x16x32_bf16, false, 'A', 0, 5, 16, 2, 5, 0},
    {Op::v_swmmac_f32_16x16x32_bf16, false, 'A', 0, 15, 31, 3, 31, 0},
    {Op::v_swmmac_f32_16x16x32_bf16, false, 'B', 0, 1, 15, 0, 15, 16},
    {Op::v_swmmac_f32_16x16x32_bf16, false, 'B', 0, 10, 8, 1, 24, 0},
    {Op::v_swmmac_f32_16x16x32_bf16, false, 'B', 0, 31, 15, 7, 31, 16},
    {Op::v_swmmac_f32_16x16x32_bf16, false, 'k', 0, 1, 31, 0, 17, 12},
    {Op::v_swmmac_f32_16x16x32_bf16, false, 'k', 0, 5, 16, 0, 5, 8},
    {Op::v_swmmac_f32_16x16x32_bf16, false, 'k', 0, 15, 31, 0, 31, 12},
    {Op::v_swmmac_f32_16x16x32_bf16, false, 'k', 1, 1, 31, 0, 17, 28},
    {Op::v_swmmac_f32_16x16x32_bf16, false, 'k', 1, 5, 16, 0, 5, 24},
    {Op::v_swmmac_f32_16x16x32_bf16, false, 'k', 1, 15, 31, 0, 31, 28},
    {Op::v_swmmac_f32_16x16x32_bf16, true, 'A', 0, 1, 31, 1, 49, 0},
    {Op::v_swmmac_f32_16x16x32_bf16, true, 'A', 0, 5, 16, 0, 37, 0},
    {Op::v_swmmac_f32_16x16x32_bf16, true, 'A', 0, 15, 31, 1, 63, 0},
    {Op::v_swmmac_f32_16x16x32_bf16, true, 'B', 0, 1, 15, 0, 15, 16},
    {Op::v_swmmac_f32_16x16x32_bf16, true, 'B', 0, 10, 8, 1, 24, 0},
    {Op::v_swmmac_f32_16x16x32_bf16, true, 'B', 0, 31, 15, 3, 63, 16},
    {Op::v_swmmac_f32_16x16x32_bf16, true, 'k', 0, 1, 31, 0, 49, 4},
    {Op::v_swmmac_f32_16x16x32_bf16, true, 'k', 0, 5, 16, 0, 37, 0},
    {Op::v_swmmac_f32_16x16x32_bf16, true, 'k', 0, 15, 31, 0, 63, 4},
    {Op::v_swmmac_f32_16x16x32_bf16, true, 'k', 1, 1, 31, 0, 49, 12},
    {Op::v_swmmac_f32_16x16x32_bf16, true, 'k', 1, 5, 16, 0, 37, 8},
    {Op::v_swmmac_f32_16x16x32_bf16, true, 'k', 1, 15, 31, 0, 63, 12},
    {Op::v_swmmac_f32_16x16x32_bf16, true, 'k', 2, 1, 31, 0, 49, 20},
    {Op::v_swmmac_f32_16x16x32_bf16, true, 'k', 2, 5, 16, 0, 37, 16},
    {Op::v_swmmac_f32_16x16x32_bf16, true, 'k', 2, 15, 31, 0, 63, 20},
    {Op::v_swmmac_f32_16x16x32_bf16, true, 'k', 3, 1, 31, 0, 49, 28},
    {Op::v_swmmac_f32_16x16x32_bf16, true, 'k', 3, 5, 16, 0, 37, 24},
    {Op::v_swmmac_f32_16x16x32_bf16, true, 'k', 3, 15, 31, 0, 63, 28},
    {Op::v_swmmac_f16_16x16x32_f16, false, 'A', 0, 1, 31, 3, 17, 0},
    {Op::v_swmmac_f16_16x16x32_f16, false, 'A', 0, 5, 16, 2, 5, 0},
    {Op::v_swmmac_f16_16x16x32_f16, false, 'A', 0, 15, 31, 3, 31, 0},
    {Op::v_swmmac_f16_16x16x32_f16, false, 'B', 0, 1, 15, 0, 15, 16},
    {Op::v_swmmac_f16_16x16x32_f16, false, 'B', 0, 10, 8, 1, 24, 0},
    {Op::v_swmmac_f16_16x16x32_f16, false, 'B', 0, 31, 15, 7, 31, 16},
    {Op::v_swmmac_f16_16x16x32_f16, false, 'k', 0, 1, 31, 0, 17, 12},
    {Op::v_swmmac_f16_16x16x32_f16, false, 'k', 0, 5, 16, 0, 5, 8},
    {Op::v_swmmac_f16_16x16x32_f16, false, 'k', 0, 15, 31, 0, 31, 12},
    {Op::v_swmmac_f16_16x16x32_f16, false, 'k', 1, 1, 31, 0, 17, 28},
    {Op::v_swmmac_f16_16x16x32_f16, false, 'k', 1, 5, 16, 0, 5, 24},
    {Op::v_swmmac_f16_16x16x32_f16, false, 'k', 1, 15, 31, 0, 31, 28},
    {Op::v_swmmac_f16_16x16x32_f16, true, 'A', 0, 1, 31, 1, 49, 0},
    {Op::v_swmmac_f16_16x16x32_f16, true, 'A', 0, 5, 16, 0, 37, 0},
    {Op::v_swmmac_f16_16x16x32_f16, true, 'A', 0, 15, 31, 1, 63, 0},
    {Op::v_swmmac_f16_16x16x32_f16, true, 'B', 0, 1, 15, 0, 15, 16},
    {Op::v_swmmac_f16_16x16x32_f16, true, 'B', 0, 10, 8, 1, 24, 0},
    {Op::v_swmmac_f16_16x16x32_f16, true, 'B', 0, 31, 15, 3, 63, 16},
    {Op::v_swmmac_f16_16x16x32_f16, true, 'k', 0, 1, 31, 0, 49, 4},
    {Op::v_swmmac_f16_16x16x32_f16, true, 'k', 0, 5, 16, 0, 37, 0},
    {Op::v_swmmac_f16_16x16x32_f16, true, 'k', 0, 15, 31, 0, 63, 4},
    {Op::v_swmmac_f16_16x16x32_f16, true, 'k', 1, 1, 31, 0, 49, 12},
    {Op::v_swmmac_f16_16x16x32_f16, true, 'k', 1, 5, 16, 0, 37, 8},
    {Op::v_swmmac_f16_16x16x32_f16, true, 'k', 1, 15, 31, 0, 63, 12},
    {Op::v_swmmac_f16_16x16x32_f16, true, 'k', 2, 1, 31, 0, 49, 20},
    {Op::v_swmmac_f16_16x16x32_f16, true, 'k', 2, 5, 16, 0, 37, 16},
    {Op::v_swmmac_f16_16x16x32_f16, true, 'k', 2, 15, 31, 0, 63, 20},
    {Op::v_swmmac_f16_16x16x32_f16, true, 'k', 3, 1, 31, 0, 49, 28},
    {Op::v_swmmac_f16_16x16x32_f16, true, 'k', 3, 5, 16, 0, 37, 24},
    {Op::v_swmmac_f16_16x16x32_f16, true, 'k', 3, 15, 31, 0, 63, 28},
    {Op::v_swmmac_bf16_16x16x32_bf16, false, 'A', 0, 1, 31, 3, 17, 0},
    {Op::v_swmmac_bf16_16x16x32_bf16, false, 'A', 0, 5, 16, 2, 5, 0},
    {Op::v_swmmac_bf16_16x16x32_bf16, false, 'A', 0, 15, 31, 3, 31, 0},
    {Op::v_swmmac_bf16_16x16x32_bf16, false, 'B', 0, 1, 15, 0, 15, 16},
    {Op::v_swmmac_bf16_16x16x32_bf16, false, 'B', 0, 10, 8, 1, 24, 0},
    {Op::v_swmmac_bf16_16x16x32_bf16, false, 'B', 0, 31, 15, 7, 31, 16},
    {Op::v_swmmac_bf16_16x16x32_bf16, false, 'k', 0, 1, 31, 0, 17, 12},
    {Op::v_swmmac_bf16_16x16x32_bf16, false, 'k', 0, 5, 16, 0, 5, 8},
    {Op::v_swmmac_bf16_16x16x32_bf16, false, 'k', 0, 15, 31, 0, 31, 12},
    {Op::v_swmmac_bf16_16x16x32_bf16, false, 'k', 1, 1, 31, 0, 17, 28},
    {Op::v_swmmac_bf16_16x16x32_bf16, false, 'k', 1, 5, 16, 0, 5, 24},
    {Op::v_swmmac_bf16_16x16x32_bf16, false, 'k', 1, 15, 31, 0, 31, 28},
    {Op::v_swmmac_bf16_16x16x32_bf16, true, 'A', 0, 1, 31, 1, 49, 0},
    {Op::v_swmmac_bf16_16x16x32_bf16, true, 'A', 0, 5, 16, 0, 37, 0},
    {Op::v_swmmac_bf16_16x16x32_bf16, true, 'A', 0, 15, 31, 1, 63, 0},
    {Op::v_swmmac_bf16_16x16x32_bf16, true, 'B', 0, 1, 15, 0, 15, 16},
    {Op::v_swmmac_bf16_16x16x32_bf16, true, 'B', 0, 10, 8, 1, 24, 0},
    {Op::v_swmmac_bf16_16x16x32_bf16, true, 'B', 0, 31, 15, 3, 63, 16},
    {Op::v_swmmac_bf16_16x16x32_bf16, true, 'k', 0, 1, 31, 0, 49, 4},
    {Op::v_swmmac_bf16_16x16x32_bf16, true, 'k', 0, 5, 16, 0, 37, 0},
    {Op::v_swmmac_bf16_16x16x32_bf16, true, 'k', 0, 15, 31, 0, 63, 4},
    {Op::v_swmmac_bf16_16x16x32_bf16, true, 'k', 1, 1, 31, 0, 49, 12},
    {Op::v_swmmac_bf16_16x16x32_bf16, true, 'k', 1, 5, 16, 0, 37, 8},
    {Op::v_swmmac_bf16_16x16x32_bf16, true, 'k', 1, 15, 31, 0, 63, 12},
    {Op::v_swmmac_bf16_16x16x32_bf16, true, 'k', 2, 1, 31, 0, 49, 20},
    {Op::v_swmmac_bf16_16x16x32_bf16, true, 'k', 2, 5, 16, 0, 37, 16},
    {Op::v_swmmac_bf16_16x16x32_bf16, true, 'k', 2, 15, 31, 0, 63, 20},
    {Op::v_swmmac_bf16_16x16x32_bf16, true, 'k', 3, 1, 31, 0, 49, 28},
    {Op::v_swmmac_bf16_16x16x32_bf16, true, 'k', 3, 5, 16, 0, 37, 24},
    {Op::v_swmmac_bf16_16x16x32_bf16, true, 'k', 3, 15, 31, 0, 63, 28},
    {Op::v_swmmac_i32_16x16x32_iu8, false, 'A', 0, 1, 31, 1, 17, 16},
    {Op::v_swmmac_i32_16x16x32_iu8, false, 'A', 0, 5, 16, 0, 21, 0},
    {Op::v_swmmac_i32_16x16x32_iu8, false, 'A', 0, 15, 31, 1, 31, 16},
    {Op::v_swmmac_i32_16x16x32_iu8, false, 'B', 0, 1, 15, 0, 15, 8},
    {Op::v_swmmac_i32_16x16x32_iu8, false, 'B', 0, 10, 8, 2, 8, 16},
    {Op::v_swmmac_i32_16x16x32_iu8, false, 'B', 0, 31, 15, 3, 31, 24},
    {Op::v_swmmac_i32_16x16x32_iu8, false, 'k', 0, 1, 31, 0, 17, 12},
    {Op::v_swmmac_i32_16x16x32_iu8, false, 'k', 0, 5, 16, 0, 21, 0},
    {Op::v_swmmac_i32_16x16x32_iu8, false, 'k', 0, 15, 31, 0, 31, 12},
    {Op::v_swmmac_i32_16x16x32_iu8, false, 'k', 1, 1, 31, 0, 17, 28},
    {Op::v_swmmac_i32_16x16x32_iu8, false, 'k', 1, 5, 16, 0, 21, 16},
    {Op::v_swmmac_i32_16x16x32_iu8, false, 'k', 1, 15, 31, 0, 31, 28},
    {Op::v_swmmac_i32_16x16x32_iu8, true, 'A', 0, 1, 31, 0, 49, 16},
    {Op::v_swmmac_i32_16x16x32_iu8, true, 'A', 0, 5, 16, 0, 21, 0},
    {Op::v_swmmac_i32_16x16x32_iu8, true, 'A', 0, 15, 31, 0, 63, 16},
    {Op::v_swmmac_i32_16x16x32_iu8, true, 'B', 0, 1, 15, 0, 15, 8},
    {Op::v_swmmac_i32_16x16x32_iu8, true, 'B', 0, 10, 8, 0, 40, 16},
    {Op::v_swmmac_i32_16x16x32_iu8, true, 'B', 0, 31, 15, 1, 63, 24},
    {Op::v_swmmac_i32_16x16x32_iu8, true, 'k', 0, 1, 31, 0, 49, 4},
    {Op::v_swmmac_i32_16x16x32_iu8, true, 'k', 0, 5, 16, 0, 21, 0},
    {Op::v_swmmac_i32_16x16x32_iu8, true, 'k', 0, 15, 31, 0, 63, 4},
    {Op::v_swmmac_i32_16x16x32_iu8, true, 'k', 1, 1, 31, 0, 49, 12},
    {Op::v_swmmac_i32_16x16x32_iu8, true, 'k', 1, 5, 16, 0, 21, 8},
    {Op::v_swmmac_i32_16x16x32_iu8, true, 'k', 1, 15, 31, 0, 63, 12},
    {Op::v_swmmac_i32_16x16x32_iu8, true, 'k', 2, 1, 31, 0, 49, 20},
    {Op::v_swmmac_i32_16x16x32_iu8, true, 'k', 2, 5, 16, 0, 21, 16},
    {Op::v_swmmac_i32_16x16x32_iu8, true, 'k', 2, 15, 31, 0, 63, 20},
    {Op::v_swmmac_i32_16x16x32_iu8, true, 'k', 3, 1, 31, 0, 49, 28},
    {Op::v_swmmac_i32_16x16x32_iu8, true, 'k', 3, 5, 16, 0, 21, 24},
    {Op::v_swmmac_i32_16x16x32_iu8, true, 'k', 3, 15, 31, 0, 63, 28},
    {Op::v_swmmac_i32_16x16x32_iu4, false, 'A', 0, 1, 31, 0, 17, 24},
    {Op::v_swmmac_i32_16x16x32_iu4, false, 'A', 0, 5, 16, 0, 21, 0},
    {Op::v_swmmac_i32_16x16x32_iu4, false, 'A', 0, 15, 31, 0, 31, 24},
    {Op::v_swmmac_i32_16x16x32_iu4, false, 'B', 0, 1, 15, 0, 15, 4},
    {Op::v_swmmac_i32_16x16x32_iu4, false, 'B', 0, 10, 8, 1, 8, 8},
    {Op::v_swmmac_i32_16x16x32_iu4, false, 'B', 0, 31, 15, 1, 31, 28},
    {Op::v_swmmac_i32_16x16x32_iu4, false, 'k', 0, 1, 31, 0, 17, 12},
    {Op::v_swmmac_i32_16x16x32_iu4, false, 'k', 0, 5, 16, 0, 21, 0},
    {Op::v_swmmac_i32_16x16x32_iu4, false, 'k', 0, 15, 31, 0, 31, 12},
    {Op::v_swmmac_i32_16x16x32_iu4, false, 'k', 1, 1, 31, 0, 17, 28},
    {Op::v_swmmac_i32_16x16x32_iu4, false, 'k', 1, 5, 16, 0, 21, 16},
    {Op::v_swmmac_i32_16x16x32_iu4, false, 'k', 1, 15, 31, 0, 31, 28},
    {Op::v_swmmac_i32_16x16x32_iu4, true, 'A', 0, 1, 31, 0, 17, 24},
    {Op::v_swmmac_i32_16x16x32_iu4, true, 'A', 0, 5, 16, 0, 21, 0},
    {Op::v_swmmac_i32_16x16x32_iu4, true, 'A', 0, 15, 31, 0, 31, 24},
    {Op::v_swmmac_i32_16x16x32_iu4, true, 'B', 0, 1, 15, 0, 15, 4},
    {Op::v_swmmac_i32_16x16x32_iu4, true, 'B', 0, 10, 8, 0, 40, 8},
    {Op::v_swmmac_i32_16x16x32_iu4, true, 'B', 0, 31, 15, 0, 63, 28},
    {Op::v_swmmac_i32_16x16x32_iu4, true, 'k', 0, 1, 31, 0, 17, 12},
    {Op::v_swmmac_i32_16x16x32_iu4, true, 'k', 0, 5, 16, 0, 21, 0},
    {Op::v_swmmac_i32_16x16x32_iu4, true, 'k', 0, 15, 31, 0, 31, 12},
    {Op::v_swmmac_i32_16x16x32_iu4, true, 'k', 1, 1, 31, 0, 17, 28},
    {Op::v_swmmac_i32_16x16x32_iu4, true, 'k', 1, 5, 16, 0, 21, 16},
    {Op::v_swmmac_i32_16x16x32_iu4, true, 'k', 1, 15, 31, 0, 31, 28},
    {Op::v_swmmac_i32_16x16x64_iu4, false, 'A', 0, 1, 63, 1, 17, 24},
    {Op::v_swmmac_i32_16x16x64_iu4, false, 'A', 0, 5, 32, 0, 21, 0},
    {Op::v_swmmac_i32_16x16x64_iu4, false, 'A', 0, 15, 63, 1, 31, 24},
    {Op::v_swmmac_i32_16x16x64_iu4, false, 'B', 0, 1, 15, 0, 15, 4},
    {Op::v_swmmac_i32_16x16x64_iu4, false, 'B', 0, 21, 8, 2, 8, 20},
    {Op::v_swmmac_i32_16x16x64_iu4, false, 'B', 0, 63, 15, 3, 31, 28},
    {Op::v_swmmac_i32_16x16x64_iu4, false, 'k', 0, 1, 63, 0, 17, 28},
    {Op::v_swmmac_i32_16x16x64_iu4, false, 'k', 0, 5, 32, 0, 21, 0},
    {Op::v_swmmac_i32_16x16x64_iu4, false, 'k', 0, 15, 63, 0, 31, 28},
    {Op::v_swmmac_i32_16x16x64_iu4, true, 'A', 0, 1, 63, 0, 49, 24},
    {Op::v_swmmac_i32_16x16x64_iu4, true, 'A', 0, 5, 32, 0, 21, 0},
    {Op::v_swmmac_i32_16x16x64_iu4, true, 'A', 0, 15, 63, 0, 63, 24},
    {Op::v_swmmac_i32_16x16x64_iu4, true, 'B', 0, 1, 15, 0, 15, 4},
    {Op::v_swmmac_i32_16x16x64_iu4, true, 'B', 0, 21, 8, 0, 40, 20},
    {Op::v_swmmac_i32_16x16x64_iu4, true, 'B', 0, 63, 15, 1, 63, 28},
    {Op::v_swmmac_i32_16x16x64_iu4, true, 'k', 0, 1, 63, 0, 49, 12},
    {Op::v_swmmac_i32_16x16x64_iu4, true, 'k', 0, 5, 32, 0, 21, 0},
    {Op::v_swmmac_i32_16x16x64_iu4, true, 'k', 0, 15, 63, 0, 63, 12},
    {Op::v_swmmac_i32_16x16x64_iu4, true, 'k', 1, 1, 63, 0, 49, 28},
    {Op::v_swmmac_i32_16x16x64_iu4, true, 'k', 1, 5, 32, 0, 21, 16},
    {Op::v_swmmac_i32_16x16x64_iu4, true, 'k', 1, 15, 63, 0, 63, 28},
    {Op::v_swmmac_f32_16x16x32_fp8_fp8, false, 'A', 0, 1, 31, 1, 17, 16},
    {Op::v_swmmac_f32_16x16x32_fp8_fp8, false, 'A', 0, 5, 16, 0, 21, 0},
    {Op::v_swmmac_f32_16x16x32_fp8_fp8, false, 'A', 0, 15, 31, 1, 31, 16},
    {Op::v_swmmac_f32_16x16x32_fp8_fp8, false, 'B', 0, 1, 15, 0, 15, 8},
    {Op::v_swmmac_f32_16x16x32_fp8_fp8, false, 'B', 0, 10, 8, 2, 8, 16},
    {Op::v_swmmac_f32_16x16x32_fp8_fp8, false, 'B', 0, 31, 15, 3, 31, 24},
    {Op::v_swmmac_f32_16x16x32_fp8_fp8, false, 'k', 0, 1, 31, 0, 17, 12},
    {Op::v_swmmac_f32_16x16x32_fp8_fp8, false, 'k', 0, 5, 16, 0, 21, 0},
    {Op::v_swmmac_f32_16x16x32_fp8_fp8, false, 'k', 0, 15, 31, 0, 31, 12},
    {Op::v_swmmac_f32_16x16x32_fp8_fp8, false, 'k', 1, 1, 31, 0, 17, 28},
    {Op::v_swmmac_f32_16x16x32_fp8_fp8, false, 'k', 1, 5, 16, 0, 21, 16},
    {Op::v_swmmac_f32_16x16x32_fp8_fp8, false, 'k', 1, 15, 31, 0, 31, 28},
    {Op::v_swmmac_f32_16x16x32_fp8_fp8, true, 'A', 0, 1, 31, 0, 49, 16},
    {Op::v_swmmac_f32_16x16x32_fp8_fp8, true, 'A', 0, 5, 16, 0, 21, 0},
    {Op::v_swmmac_f32_16x16x32_fp8_fp8, true, 'A', 0, 15, 31, 0, 63, 16},
    {Op::v_swmmac_f32_16x16x32_fp8_fp8, true, 'B', 0, 1, 15, 0, 15, 8},
    {Op::v_swmmac_f32_16x16x32_fp8_fp8, true, 'B', 0, 10, 8, 0, 40, 16},
    {Op::v_swmmac_f32_16x16x32_fp8_fp8, true, 'B', 0, 31, 15, 1, 63, 24},
    {Op::v_swmmac_f32_16x16x32_fp8_fp8, true, 'k', 0, 1, 31, 0, 49, 4},
    {Op::v_swmmac_f32_16x16x32_fp8_fp8, true, 'k', 0, 5, 16, 0, 21, 0},
    {Op::v_swmmac_f32_16x16x32_fp8_fp8, true, 'k', 0, 15, 31, 0, 63, 4},
    {Op::v_swmmac_f32_16x16x32_fp8_fp8, true, 'k', 1, 1, 31, 0, 49, 12},
    {Op::v_swmmac_f32_16x16x32_fp8_fp8, true, 'k', 1, 5, 16, 0, 21, 8},
    {Op::v_swmmac_f32_16x16x32_fp8_fp8, true, 'k', 1, 15, 31, 0, 63, 12},
    {Op::v_swmmac_f32_16x16x32_fp8_fp8, true, 'k', 2, 1, 31, 0, 49, 20},
    {Op::v_swmmac_f32_16x16x32_fp8_fp8, true, 'k', 2, 5, 16, 0, 21, 16},
    {Op::v_swmmac_f32_16x16x32_fp8_fp8, true, 'k', 2, 15, 31, 0, 63, 20},
    {Op::v_swmmac_f32_16x16x32_fp8_fp8, true, 'k', 3, 1, 31, 0, 49, 28},
    {Op::v_swmmac_f32_16x16x32_fp8_fp8, true, 'k', 3, 5, 16, 0, 21, 24},
    {Op::v_swmmac_f32_16x16x32_fp8_fp8, true, 'k', 3, 15, 31, 0, 63, 28},
    {Op::v_swmmac_f32_16x16x32_fp8_bf8, false, 'A', 0, 1, 31, 1, 17, 16},
    {Op::v_swmmac_f32_16x16x32_fp8_bf8, false, 'A', 0, 5, 16, 0, 21, 0},
    {Op::v_swmmac_f32_16x16x32_fp8_bf8, false, 'A', 0, 15, 31, 1, 31, 16},
    {Op::v_swmmac_f32_16x16x32_fp8_bf8, false, 'B', 0, 1, 15, 0, 15, 8},
    {Op::v_swmmac_f32_16x16x32_fp8_bf8, false, 'B', 0, 10, 8, 2, 8, 16},
    {Op::v_swmmac_f32_16x16x32_fp8_bf8, false, 'B', 0, 31, 15, 3, 31, 24},
    {Op::v_swmmac_f32_16x16x32_fp8_bf8, false, 'k', 0, 1, 31, 0, 17, 12},
    {Op::v_swmmac_f32_16x16x32_fp8_bf8, false, 'k', 0, 5, 16, 0, 21, 0},
    {Op::v_swmmac_f32_16x16x32_fp8_bf8, false, 'k', 0, 15, 31, 0, 31, 12},
    {Op::v_swmmac_f32_16x16x32_fp8_bf8, false, 'k', 1, 1, 31, 0, 17, 28},
    {Op::v_swmmac_f32_16x16x32_fp8_bf8, false, 'k', 1, 5, 16, 0, 21, 16},
    {Op::v_swmmac_f32_16x16x32_fp8_bf8, false, 'k', 1, 15, 31, 0, 31, 28},
    {Op::v_swmmac_f32_16x16x32_fp8_bf8, true, 'A', 0, 1, 31, 0, 49, 16},
    {Op::v_swmmac_f32_16x16x32_fp8_bf8, true, 'A', 0, 5, 16, 0, 21, 0},
    {Op::v_swmmac_f32_16x16x32_fp8_bf8, true, 'A', 0, 15, 31, 0, 63, 16},
    {Op::v_swmmac_f32_16x16x32_fp8_bf8, true, 'B', 0, 1, 15, 0, 15, 8},
    {Op::v_swmmac_f32_16x16x32_fp8_bf8, true, 'B', 0, 10, 8, 0, 40, 16},
    {Op::v_swmmac_f32_16x16x32_fp8_bf8, true, 'B', 0, 31, 15, 1, 63, 24},
    {Op::v_swmmac_f32_16x16x32_fp8_bf8, true, 'k', 0, 1, 31, 0, 49, 4},
    {Op::v_swmmac_f32_16x16x32_fp8_bf8, true, 'k', 0, 5, 16, 0, 21, 0},
    {Op::v_swmmac_f32_16x16x32_fp8_bf8, true, 'k', 0, 15, 31, 0, 63, 4},
    {Op::v_swmmac_f32_16x16x32_fp8_bf8, true, 'k', 1, 1, 31, 0, 49, 12},
    {Op::v_swmmac_f32_16x16x32_fp8_bf8, true, 'k', 1, 5, 16, 0, 21, 8},
    {Op::v_swmmac_f32_16x16x32_fp8_bf8, true, 'k', 1, 15, 31, 0, 63, 12},
    {Op::v_swmmac_f32_16x16x32_fp8_bf8, true, 'k', 2, 1, 31, 0, 49, 20},
    {Op::v_swmmac_f32_16x16x32_fp8_bf8, true, 'k', 2, 5, 16, 0, 21, 16},
    {Op::v_swmmac_f32_16x16x32_fp8_bf8, true, 'k', 2, 15, 31, 0, 63, 20},
    {Op::v_swmmac_f32_16x16x32_fp8_bf8, true, 'k', 3, 1, 31, 0, 49, 28},
    {Op::v_swmmac_f32_16x16x32_fp8_bf8, true, 'k', 3, 5, 16, 0, 21, 24},
    {Op::v_swmmac_f32_16x16x32_fp8_bf8, true, 'k', 3, 15, 31, 0, 63, 28},
    {Op::v_swmmac_f32_16x16x32_bf8_fp8, false, 'A', 0, 1, 31, 1, 17, 16},
    {Op::v_swmmac_f32_16x16x32_bf8_fp8, false, 'A', 0, 5, 16, 0, 21, 0},
    {Op::v_swmmac_f32_16x16x32_bf8_fp8, false, 'A', 0, 15, 31, 1, 31, 16},
    {Op::v_swmmac_f32_16x16x32_bf8_fp8, false, 'B', 0, 1, 15, 0, 15, 8},
    {Op::v_swmmac_f32_16x16x32_bf8_fp8, false, 'B', 0, 10, 8, 2, 8, 16},
    {Op::v_swmmac_f32_16x16x32_bf8_fp8, false, 'B', 0, 31, 15, 3, 31, 24},
    {Op::v_swmmac_f32_16x16x32_bf8_fp8, false, 'k', 0, 1, 31, 0, 17, 12},
    {Op::v_swmmac_f32_16x16x32_bf8_fp8, false, 'k', 0, 5, 16, 0, 21, 0},
    {Op::v_swmmac_f32_16x16x32_bf8_fp8, false, 'k', 0, 15, 31, 0, 31, 12},
    {Op::v_swmmac_f32_16x16x32_bf8_fp8, false, 'k', 1, 1, 31, 0, 17, 28},
    {Op::v_swmmac_f32_16x16x32_bf8_fp8, false, 'k', 1, 5, 16, 0, 21, 16},
    {Op::v_swmmac_f32_16x16x32_bf8_fp8, false, 'k', 1, 15, 31, 0, 31, 28},
    {Op::v_swmmac_f32_16x16x32_bf8_fp8, true, 'A', 0, 1, 31, 0, 49, 16},
    {Op::v_swmmac_f32_16x16x32_bf8_fp8, true, 'A', 0, 5, 16, 0, 21, 0},
    {Op::v_swmmac_f32_16x16x32_bf8_fp8, true, 'A', 0, 15, 31, 0, 63, 16},
    {Op::v_swmmac_f32_16x16x32_bf8_fp8, true, 'B', 0, 1, 15, 0, 15, 8},
    {Op::v_swmmac_f32_16x16x32_bf8_fp8, true, 'B', 0, 10, 8, 0, 40, 16},
    {Op::v_swmmac_f32_16x16x32_bf8_fp8, true, 'B', 0, 31, 15, 1, 63, 24},
    {Op::v_swmmac_f32_16x16x32_bf8_fp8, true, 'k', 0, 1, 31, 0, 49, 4},
    {Op::v_swmmac_f32_16x16x32_bf8_fp8, true, 'k', 0, 5, 16, 0, 21, 0},
    {Op::v_swmmac_f32_16x16x32_bf8_fp8, true, 'k', 0, 15, 31, 0, 63, 4},
    {Op::v_swmmac_f32_16x16x32_bf8_fp8, true, 'k', 1, 1, 31, 0, 49, 12},
    {Op::v_swmmac_f32_16x16x32_bf8_fp8, true, 'k', 1, 5, 16, 0, 21, 8},
    {Op::v_swmmac_f32_16x16x32_bf8_fp8, true, 'k', 1, 15, 31, 0, 63, 12},
    {Op::v_swmmac_f32_16x16x32_bf8_fp8, true, 'k', 2, 1, 31, 0, 49, 20},
    {Op::v_swmmac_f32_16x16x32_bf8_fp8, true, 'k', 2, 5, 16, 0, 21, 16},
    {Op::v_swmmac_f32_16x16x32_bf8_fp8, true, 'k', 2, 15, 31, 0, 63, 20},
    {Op::v_swmmac_f32_16x16x32_bf8_fp8, true, 'k', 3, 1, 31, 0, 49, 28},
    {Op::v_swmmac_f32_16x16x32_bf8_fp8, true, 'k', 3, 5, 16, 0, 21, 24},
    {Op::v_swmmac_f32_16x16x32_bf8_fp8, true, 'k', 3, 15, 31, 0, 63, 28},
    {Op::v_swmmac_f32_16x16x32_bf8_bf8, false, 'A', 0, 1, 31, 1, 17, 16},
    {Op::v_swmmac_f32_16x16x32_bf8_bf8, false, 'A', 0, 5, 16, 0, 21, 0},
    {Op::v_swmmac_f32_16x16x32_bf8_bf8, false, 'A', 0, 15, 31, 1, 31, 16},
    {Op::v_swmmac_f32_16x16x32_bf8_bf8, false, 'B', 0, 1, 15, 0, 15, 8},
    {Op::v_swmmac_f32_16x16x32_bf8_bf8, false, 'B', 0, 10, 8, 2, 8, 16},
    {Op::v_swmmac_f32_16x16x32_bf8_bf8, false, 'B', 0, 31, 15, 3, 31, 24},
    {Op::v_swmmac_f32_16x16x32_bf8_bf8, false, 'k', 0, 1, 31, 0, 17, 12},
    {Op::v_swmmac_f32_16x16x32_bf8_bf8, false, 'k', 0, 5, 16, 0, 21, 0},
    {Op::v_swmmac_f32_16x16x32_bf8_bf8, false, 'k', 0, 15, 31, 0, 31, 12},
    {Op::v_swmmac_f32_16x16x32_bf8_bf8, false, 'k', 1, 1, 31, 0, 17, 28},
    {Op::v_swmmac_f32_16x16x32_bf8_bf8, false, 'k', 1, 5, 16, 0, 21, 16},
    {Op::v_swmmac_f32_16x16x32_bf8_bf8, false, 'k', 1, 15, 31, 0, 31, 28},
    {Op::v_swmmac_f32_16x16x32_bf8_bf8, true, 'A', 0, 1, 31, 0, 49, 16},
    {Op::v_swmmac_f32_16x16x32_bf8_bf8, true, 'A', 0, 5, 16, 0, 21, 0},
    {Op::v_swmmac_f32_16x16x32_bf8_bf8, true, 'A', 0, 15, 31, 0, 63, 16},
    {Op::v_swmmac_f32_16x16x32_bf8_bf8, true, 'B', 0, 1, 15, 0, 15, 8},
    {Op::v_swmmac_f32_16x16x32_bf8_bf8, true, 'B', 0, 10, 8, 0, 40, 16},
    {Op::v_swmmac_f32_16x16x32_bf8_bf8, true, 'B', 0, 31, 15, 1, 63, 24},
    {Op::v_swmmac_f32_16x16x32_bf8_bf8, true, 'k', 0, 1, 31, 0, 49, 4},
    {Op::v_swmmac_f32_16x16x32_bf8_bf8, true, 'k', 0, 5, 16, 0, 21, 0},
    {Op::v_swmmac_f32_16x16x32_bf8_bf8, true, 'k', 0, 15, 31, 0, 63, 4},
    {Op::v_swmmac_f32_16x16x32_bf8_bf8, true, 'k', 1, 1, 31, 0, 49, 12},
    {Op::v_swmmac_f32_16x16x32_bf8_bf8, true, 'k', 1, 5, 16, 0, 21, 8},
    {Op::v_swmmac_f32_16x16x32_bf8_bf8, true, 'k', 1, 15, 31, 0, 63, 12},
    {Op::v_swmmac_f32_16x16x32_bf8_bf8, true, 'k', 2, 1, 31, 0, 49, 20},
    {Op::v_swmmac_f32_16x16x32_bf8_bf8, true, 'k', 2, 5, 16, 0, 21, 16},
    {Op::v_swmmac_f32_16x16x32_bf8_bf8, true, 'k', 2, 15, 31, 0, 63, 20},
    {Op::v_swmmac_f32_16x16x32_bf8_bf8, true, 'k', 3, 1, 31, 0, 49, 28},
    {Op::v_swmmac_f32_16x16x32_bf8_bf8, true, 'k', 3, 5, 16, 0, 21, 24},
    {Op::v_swmmac_f32_16x16x32_bf8_bf8, true, 'k', 3, 15, 31, 0, 63, 28},
};

TEST(WmmaLayout, SparseOperandsAreWhereTheCalculatorPutsThem) {
  for (const SparsePin& p : kSparsePins) {
    const WmmaShape s = wmma_shape(p.op);
    const unsigned bits = wmma_bits(s.a);
    const std::string what = std::string(op_name(p.op, Gfx::v12)) + " " + p.matrix +
                             std::to_string(p.row) + "," + std::to_string(p.col);
    if (p.matrix == 'B') {
      const WmmaSlot got = swmmac_b_slot(p.wave64, wmma_bits(s.b), s.k, p.col, p.row);
      EXPECT_EQ(got.gpr, p.gpr) << what;
      EXPECT_EQ(got.lane, p.lane) << what;
      EXPECT_EQ(got.bit, p.bit) << what;
      continue;
    }
    const WmmaSlot group = swmmac_a_slot(p.wave64, bits, s.k, p.row, p.col);
    EXPECT_EQ(group.lane, p.lane) << what;
    if (p.matrix == 'A') {
      EXPECT_EQ(group.gpr, p.gpr) << what;
      EXPECT_EQ(group.bit, p.bit) << what;
    } else {
      const unsigned a_regs = wmma_regs(p.op, Gfx::v12, p.wave64).a;
      EXPECT_EQ(swmmac_index_bit(group, bits, a_regs, p.set), p.bit) << what;
    }
  }
}

// D += A x B with A 4:2 sparse: random kept values and random indices (repeats included: both
// kept values then meet the same row of B), every index_key set, both waves.
void check_sparse(Op op, bool wave64, unsigned set, unsigned neg, std::mt19937& rng) {
  const WmmaShape s = wmma_shape(op);
  const WmmaRegs regs = wmma_regs(op, Gfx::v12, wave64);
  const unsigned abits = wmma_bits(s.a), bbits = wmma_bits(s.b), obits = wmma_bits(s.out);
  const bool integer = s.out == WmmaElem::I32;
  constexpr unsigned kIndex = kC;
  FlatMemory mem;
  Mods m;
  m.opsel = set;
  m.neg = neg;
  m.c_code = 256 + kIndex;
  std::vector<uint32_t> code = wmma_words(Gfx::v12, op, m);
  code.push_back(sim::test::kEndpgm);
  sim::test::put_words(mem, kCode, code);
  sim::test::WaveRunner runner(mem, kCode, Gfx::v12);
  Wave w;
  sim::test::start_wave(w, wave64, kVgprs, kCode);
  for (unsigned r = 0; r < kVgprs; ++r)
    for (unsigned l = 0; l < w.lanes(); ++l) {
      w.select_half(l / 32);
      w.v(r, l % 32) = rng();
    }
  auto put = [&](unsigned reg, unsigned lane, unsigned bit, unsigned bits, uint32_t raw) {
    for (unsigned l = lane; l < w.lanes(); l += 32) { // lanes 32.. repeat a 32-lane operand
      if (l != lane && !(wave64 && regs.a == 1 && abits == 4 && s.k == 32)) break;
      w.select_half(l / 32);
      uint32_t& word = w.v(reg, l % 32);
      const uint32_t mask = (bits == 32 ? ~0u : (1u << bits) - 1) << bit;
      word = (word & ~mask) | (raw << bit);
    }
  };
  uint32_t kept[16][32][2], where[16][32][2], b[64][16], c[16][16];
  for (unsigned r = 0; r < 16; ++r)
    for (unsigned g = 0; g < s.k / 4; ++g) {
      const WmmaSlot slot = swmmac_a_slot(wave64, abits, s.k, r, 4 * g);
      unsigned field = 0;
      for (unsigned n = 0; n < 2; ++n) {
        kept[r][g][n] = random_element(s.a, rng);
        where[r][g][n] = rng() & 3;
        field |= where[r][g][n] << (2 * n);
        put(kA + slot.gpr, slot.lane, slot.bit + n * abits, abits, kept[r][g][n]);
      }
      put(kIndex, slot.lane, swmmac_index_bit(slot, abits, regs.a, set), 4, field);
    }
  for (unsigned k = 0; k < s.k; ++k)
    for (unsigned j = 0; j < 16; ++j) {
      b[k][j] = random_element(s.b, rng);
      const WmmaSlot sl = swmmac_b_slot(wave64, bbits, s.k, j, k);
      put(kB + sl.gpr, sl.lane, sl.bit, bbits, b[k][j]);
    }
  for (unsigned i = 0; i < 16; ++i)
    for (unsigned j = 0; j < 16; ++j) {
      c[i][j] = integer       ? uint32_t(rng())
                : obits == 16 ? random_element(s.out, rng)
                              : std::bit_cast<uint32_t>(
                                    float(std::uniform_real_distribution<float>(-100, 100)(rng)));
      const WmmaSlot sl = wmma_output_slot(Gfx::v12, wave64, obits, false, i, j);
      put(kD + sl.gpr, sl.lane, sl.bit, obits, c[i][j]);
    }
  w.select_half(0);
  runner.run(w);
  ASSERT_TRUE(w.done);
  const std::string what = std::string(op_name(op, Gfx::v12)) + (wave64 ? " wave64" : " wave32") +
                           " index_key " + std::to_string(set);
  for (unsigned i = 0; i < 16; ++i)
    for (unsigned j = 0; j < 16; ++j) {
      const WmmaSlot sl = wmma_output_slot(Gfx::v12, wave64, obits, false, i, j);
      const uint32_t got =
          (sim::test::lane_vgpr(w, kD + sl.gpr, sl.lane) >> sl.bit) & (obits == 32 ? ~0u : 0xffffu);
      if (integer) {
        int64_t sum = int32_t(c[i][j]);
        for (unsigned g = 0; g < s.k / 4; ++g)
          for (unsigned n = 0; n < 2; ++n)
            sum += int64_t(element_value(kept[i][g][n], s.a, neg & 1)) *
                   int64_t(element_value(b[4 * g + where[i][g][n]][j], s.b, (neg >> 1) & 1));
        ASSERT_EQ(got, uint32_t(sum)) << what << " D" << i << "," << j;
        continue;
      }
      long double sum = element_value(c[i][j], s.out, false);
      for (unsigned g = 0; g < s.k / 4; ++g)
        for (unsigned n = 0; n < 2; ++n) {
          long double x = element_value(kept[i][g][n], s.a, false);
          long double y = element_value(b[4 * g + where[i][g][n]][j], s.b, false);
          if (abits == 16 && ((n ? 0u : neg) & 1)) x = -x; // neg_lo: the first kept (low half)
          const bool b_hi = swmmac_b_slot(wave64, bbits, s.k, j, 4 * g + where[i][g][n]).bit != 0;
          if (bbits == 16 && !b_hi && ((neg >> 1) & 1)) y = -y;
          sum += x * y;
        }
      ASSERT_TRUE(result_is(got, sum, s.out))
          << what << " D" << i << "," << j << " = 0x" << std::hex << got;
    }
}

TEST(WmmaExecution, SparseFormsWithEveryIndexSet) {
  std::mt19937 rng(9);
  const Op ops[] = {Op::v_swmmac_f32_16x16x32_f16,     Op::v_swmmac_f32_16x16x32_bf16,
                    Op::v_swmmac_f16_16x16x32_f16,     Op::v_swmmac_bf16_16x16x32_bf16,
                    Op::v_swmmac_i32_16x16x32_iu8,     Op::v_swmmac_i32_16x16x32_iu4,
                    Op::v_swmmac_i32_16x16x64_iu4,     Op::v_swmmac_f32_16x16x32_fp8_fp8,
                    Op::v_swmmac_f32_16x16x32_fp8_bf8, Op::v_swmmac_f32_16x16x32_bf8_fp8,
                    Op::v_swmmac_f32_16x16x32_bf8_bf8};
  for (Op op : ops)
    for (bool wave64 : {false, true}) {
      const WmmaShape s = wmma_shape(op);
      const unsigned a_regs = wmma_regs(op, Gfx::v12, wave64).a;
      const unsigned sets = 32 / (4 * (a_regs * 32 / (2 * wmma_bits(s.a))));
      for (unsigned set = 0; set < sets; ++set) check_sparse(op, wave64, set, 0, rng);
      // neg_lo[0..1]: signed integers, or negated low halves of 16-bit floats.
      if (s.out == WmmaElem::I32 || wmma_bits(s.a) == 16) check_sparse(op, wave64, 0, 3, rng);
    }
}

} // namespace
