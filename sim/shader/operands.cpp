// Operand access shared by every instruction family: scalar sources (SGPRs, inline constants,
// literals, apertures), scalar destinations, one lane's VGPRs and the 16-bit halves of true16
// operands (RDNA3 ISA manual, "Scalar ALU operands" and "Vector ALU operands").
#include "executor.h"
#include "float_ops.h"

#include <string>

namespace sim::shader {

// A 16-bit source: the op_sel-selected half of a VGPR, or the low half of anything else
// (inline float constants in their f16 encodings).
uint16_t Executor::read_half(Wave& w, const Inst& in, unsigned i, unsigned lane) const {
  const uint16_t code = in.src[i];
  if (code >= src::kVgpr0) {
    const uint32_t v = vreg(w, code, lane);
    return uint16_t((in.opsel >> i) & 1 ? v >> 16 : v);
  }
  if (code >= src::kFloatHalf && code <= src::kFloatInv2Pi) return kInlineF16[code - 240];
  return uint16_t(sread(w, in, code));
}

// SRC_{SHARED,PRIVATE}_{BASE,LIMIT}: an aperture's first and last address. The aperture is
// every address whose bits [63:48] equal the base's; 32-bit reads see the high half.
uint64_t Executor::aperture(const Wave& w, uint16_t code) {
  const uint64_t base = code <= src::kSharedLimit ? w.shared_aperture : w.private_aperture;
  return code == src::kSharedBase || code == src::kPrivateBase ? base : base | 0xffffffffffffull;
}

uint32_t Executor::sread_constant(const Wave& w, const Inst& in, uint16_t code) const {
  if (code <= src::kConstPos64) return code - src::kConstZero;
  if (code <= src::kConstNeg16) return uint32_t(-int32_t(code - src::kConstNeg1 + 1));
  if (code >= src::kFloatHalf && code <= src::kFloatInv2Pi) return u32(kInlineF32[code - 240]);
  if (code == src::kScc) return w.scc;
  if (code == src::kLiteral) return in.literal;
  if (code >= src::kSharedBase && code <= src::kPrivateLimit)
    return uint32_t(aperture(w, code) >> 32);
  instruction_fault(w, in, "unsupported scalar operand " + std::to_string(code));
}

uint64_t Executor::sread64(const Wave& w, const Inst& in, uint16_t code, bool as_double) const {
  if (code < 128) {
    if (code == src::kNull) return 0;
    return uint64_t(w.sgpr[code]) | (uint64_t(w.sgpr[code + 1]) << 32);
  }
  if (code <= src::kConstPos64) return code - src::kConstZero;
  if (code <= src::kConstNeg16) return uint64_t(-int64_t(code - src::kConstNeg1 + 1));
  // The float inline constants of a 64-bit operand are doubles whatever the operand's type:
  // LLVM encodes the i64 0x3fe0000000000000 of v_cmp_gt_u64 as 0.5 (AMDGPU::isInlinableLiteral64
  // serves OPERAND_REG_INLINE_C_INT64 and _FP64 alike), and libclc's double acos and acospi
  // compare |x| with it so.
  if (code >= src::kFloatHalf && code <= src::kFloatInv2Pi) return u64(kInlineF64[code - 240]);
  // A 32-bit literal feeding a 64-bit operand: the high half for doubles, zero-extended
  // for integers.
  if (code == src::kLiteral) return as_double ? uint64_t(in.literal) << 32 : in.literal;
  if (code == src::kScc) return w.scc;
  if (code >= src::kSharedBase && code <= src::kPrivateLimit) return aperture(w, code);
  instruction_fault(w, in, "unsupported 64-bit scalar operand " + std::to_string(code));
}

void Executor::swrite(Wave& w, uint16_t code, uint32_t v) {
  if (code == src::kNull) return;
  if (code >= src::kTtmp0 && code <= src::kTtmp15)
    throw ShaderFault("write to trap temporary ttmp" + std::to_string(code - src::kTtmp0) +
                      " outside a trap handler");
  if (code > 127 || (code > 105 && code < src::kM0 && code != src::kVccHi && code != src::kVccLo))
    throw ShaderFault("write to unsupported scalar destination " + std::to_string(code));
  w.sgpr[code] = v;
}

void Executor::swrite64(Wave& w, uint16_t code, uint64_t v) {
  swrite(w, code, uint32_t(v));
  if (code != src::kNull) swrite(w, uint16_t(code + 1), uint32_t(v >> 32));
}

void Executor::vgpr_fault(const Wave& w, unsigned reg) {
  throw ShaderFault("access to v" + std::to_string(reg) + " beyond the " +
                    std::to_string(w.num_vgprs) + " VGPRs allocated at pc " + hex(w.pc));
}

uint32_t Executor::vread(Wave& w, const Inst& in, unsigned i, unsigned lane) const {
  uint16_t code = in.src[i];
  return code >= src::kVgpr0 ? vreg(w, code, lane) : sread(w, in, code);
}

uint64_t Executor::vread64(Wave& w, const Inst& in, unsigned i, unsigned lane,
                           bool as_double) const {
  uint16_t code = in.src[i];
  if (code >= src::kVgpr0)
    return uint64_t(vreg(w, code, lane)) | (uint64_t(vreg(w, code, lane, 1)) << 32);
  return sread64(w, in, code, as_double);
}

} // namespace sim::shader
