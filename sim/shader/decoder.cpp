// gfx11/gfx12 instruction decoder: encoding detection by the fixed prefix bits of the RDNA3 and
// RDNA4 ISA manuals' microcode formats, then field extraction into Inst. The two generations
// share every encoding but SMEM and the vector-memory (VFLAT/VGLOBAL/VSCRATCH) ones, which gfx12
// re-laid; their opcode numbers differ where gfx12_opcodes.def says.
#include "image_isa.h"
#include "isa.h"
#include "not_executed.h"
#include "wmma_layout.h"

#include <array>
#include <cstdio>

namespace sim::shader {
namespace {

constexpr uint8_t H = kHalf;
constexpr OpInfo kOps[] = {
#define X(name, fmt, code, d, s0, s1, s2) {Op::name, Format::fmt, code, #name, d, {s0, s1, s2}},
#define N(name, fmt, code, d, s0, s1, s2) {Op::name, Format::fmt, code, #name, d, {s0, s1, s2}},
#define C(op, name12, fmt, code)
#define R(op)
#include "gfx11_opcodes.def"
#include "gfx12_opcodes.def"
#undef X
#undef N
#undef C
#undef R
};
constexpr size_t kOpCount = size_t(Op::kCount);
constexpr size_t kGfx11Ops = 0
#define X(name, fmt, code, d, s0, s1, s2) +1
#include "gfx11_opcodes.def"
#undef X
    ;

constexpr size_t kFormats = size_t(Format::MIMG) + 1;

// One generation's view of an operation: its mnemonic, format and opcode (-1: absent).
struct GenOp {
  const char* name = nullptr;
  Format format = Format::SOPP;
  int code = -1;
};

// Per-generation operation views and per-format lookup tables from opcode number to Op.
struct Tables {
  std::array<std::array<GenOp, kOpCount>, 2> ops;
  std::array<std::array<std::array<Op, 1024>, kFormats>, 2> by_code;
  Tables() {
    for (size_t i = 0; i < kOpCount; ++i) {
      GenOp g{kOps[i].name, kOps[i].format, kOps[i].code};
      if (i < kGfx11Ops) ops[0][i] = g; // gfx11's own table
      ops[1][i] = g;                    // gfx12 keeps it unless changed below; N ops are new
    }
#define C(op, name12, fmt, code) ops[1][size_t(Op::op)] = GenOp{name12, Format::fmt, code};
#define R(op) ops[1][size_t(Op::op)] = GenOp{};
#define N(name, fmt, code, d, s0, s1, s2)
#include "gfx12_opcodes.def"
#undef C
#undef R
#undef N
    for (auto& gen : by_code)
      for (auto& t : gen) t.fill(Op::kCount);
    for (size_t g = 0; g < 2; ++g)
      for (size_t i = 0; i < kOpCount; ++i)
        if (ops[g][i].code >= 0) by_code[g][size_t(ops[g][i].format)][size_t(ops[g][i].code)] = Op(i);
  }
  Op find(Gfx gfx, Format f, uint32_t code) const {
    return code < 1024 ? by_code[size_t(gfx)][size_t(f)][code] : Op::kCount;
  }
};
const Tables& tables() {
  static const Tables t;
  return t;
}

uint32_t bits(uint32_t v, int hi, int lo) { return (v >> lo) & ((1u << (hi - lo + 1)) - 1); }

bool fail(std::string* why, const std::string& msg) {
  if (why) *why = msg;
  return false;
}

std::string hex32(uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08x", v);
  return buf;
}

// Why an opcode is refused: its mnemonic when it is a known instruction amcl does not execute.
std::string unimplemented_text(Gfx gfx, const char* family, uint32_t code, uint32_t d0) {
  const std::string where = std::string(family) + " opcode " + std::to_string(code) + " (" +
                            hex32(d0) + ")";
  if (const char* name = not_executed_name(gfx, family, code))
    return std::string(name) + " cannot run: " + not_executed_reason(gfx, family, code) + "; " +
           where;
  return "unimplemented " + where;
}

// Reads the literal dword if any of the first `nsrc` source fields asks for one and the operation
// has that source (LLVM ignores the field of a source an operation does not have, e.g. src2 of a
// two-source VOP3 or s_getpc_b64's ssrc0, and reads no literal for it).
bool take_literal(Inst& inst, std::span<const uint32_t> w, unsigned nsrc, bool force,
                  std::string* why) {
  bool need = force;
  const OpInfo& info = op_info(inst.op);
  for (unsigned i = 0; i < nsrc; ++i) need |= info.src_dwords[i] && inst.src[i] == src::kLiteral;
  if (!need) return true;
  unsigned idx = inst.size / 4;
  if (w.size() <= idx) return fail(why, "literal constant missing");
  inst.literal = w[idx];
  inst.size += 4;
  return true;
}

// The matrix operations' fields as llvm-objdump-22 accepts them: A and B in VGPRs, C in VGPRs
// or an inline constant; op_sel only for gfx11's 16-bit results (op_sel[2]); gfx12 wants every
// op_sel_hi bit set; clamp only for integer results; gfx12 refuses neg_hi and neg_lo[2] on
// integer ones and A/B negation of 8-bit floats.
bool wmma_fields_valid(const Inst& inst, std::string* why) {
  const WmmaShape shape = wmma_shape(inst.op);
  const bool integer = shape.out == WmmaElem::I32, v12 = inst.gfx == Gfx::v12;
  const bool half_out = !v12 && wmma_bits(shape.out) == 16;
  const bool f8 = shape.a == WmmaElem::FP8 || shape.a == WmmaElem::BF8;
  const uint16_t c = inst.src[2];
  const bool c_inline = (c >= 128 && c <= src::kConstNeg16) ||
                        (c >= src::kFloatHalf && c <= src::kFloatInv2Pi);
  if (inst.src[0] < src::kVgpr0 || inst.src[1] < src::kVgpr0 || (c < src::kVgpr0 && !c_inline))
    return fail(why, "WMMA operands: A and B in VGPRs, C in VGPRs or an inline constant");
  // SWMMAC: src2 is the index VGPR, op_sel[1:0] its index_key (up to 3 in wave64), no C
  // modifiers.
  if (shape.sparse && (c < src::kVgpr0 || (inst.opsel & 4) || ((inst.neg | inst.neg_hi) & 4)))
    return fail(why, "SWMMAC index operand or modifiers");
  if ((!shape.sparse && (inst.opsel & (half_out ? 3 : 7))) || (v12 && inst.opsel_hi != 7))
    return fail(why, "op_sel or op_sel_hi a WMMA does not take");
  if (inst.clamp && !integer) return fail(why, "clamp on a floating-point WMMA");
  if (v12 && ((integer && (inst.neg_hi || (inst.neg & 4))) || (f8 && ((inst.neg | inst.neg_hi) & 3))))
    return fail(why, "neg_lo/neg_hi a gfx12 WMMA does not take");
  return true;
}

// FLAT-family atomics are the operations with both a result and a data operand.
bool is_atomic(const OpInfo& info) { return info.dst_dwords && info.src_dwords[0]; }

// src0 codes that announce a DPP dword after the instruction (RDNA3 ISA "SSRC" table): 250 DPP16,
// 233 DPP8, 234 DPP8 with fetch-inactive. 249 (SDWA) does not exist on gfx11/gfx12.
constexpr uint16_t kSrcDpp16 = 250, kSrcDpp8 = 233, kSrcDpp8Fi = 234, kSrcSdwa = 249;

// Reads the DPP dword at word `at` into inst.dpp; src0 becomes the VGPR it names. VOP1/VOP2/
// VOPC carry src0/src1 neg and abs in it; VOP3 has its own modifier fields.
bool take_dpp(Inst& inst, std::span<const uint32_t> w, unsigned at, bool modifiers, std::string* why) {
  const uint16_t code = inst.src[0];
  if (code == kSrcSdwa) return fail(why, "SDWA does not exist on gfx11/gfx12");
  if (w.size() <= at) return fail(why, "DPP dword missing");
  const uint32_t d = w[at];
  const OpInfo& info = op_info(inst.op);
  if (regs_of(info.src_dwords[0]) > 1 || regs_of(info.dst_dwords) > 1)
    return fail(why, "DPP on 64-bit operands does not exist on gfx11/gfx12");
  inst.src[0] = uint16_t(src::kVgpr0 + bits(d, 7, 0));
  inst.size = uint8_t(4 * (at + 1));
  if (code == kSrcDpp16) {
    inst.dpp.kind = DppKind::Dpp16;
    inst.dpp.ctrl = uint16_t(bits(d, 16, 8));
    inst.dpp.fi = bits(d, 18, 18);
    inst.dpp.bound_ctrl = bits(d, 19, 19);
    inst.dpp.bank_mask = uint8_t(bits(d, 27, 24));
    inst.dpp.row_mask = uint8_t(bits(d, 31, 28));
    if (modifiers) {
      inst.neg |= uint8_t(bits(d, 20, 20) | (bits(d, 22, 22) << 1));
      inst.abs |= uint8_t(bits(d, 21, 21) | (bits(d, 23, 23) << 1));
    }
  } else {
    inst.dpp.kind = code == kSrcDpp8 ? DppKind::Dpp8 : DppKind::Dpp8Fi;
    inst.dpp.sel8 = bits(d, 31, 8);
  }
  return true;
}

bool is_dpp_or_sdwa(uint16_t s) { return s == kSrcDpp16 || s == kSrcDpp8 || s == kSrcDpp8Fi || s == kSrcSdwa; }

// VOPC opcodes are a family base plus a predicate (RDNA3 ISA manual, VOPC opcode table).
Op vopc_family(Gfx gfx, uint32_t code, int32_t& predicate) {
  struct Range { uint32_t lo, hi; Op op; };
  static constexpr Range kRanges[] = {
      {0x00, 0x0f, Op::v_cmp_f16}, {0x10, 0x1f, Op::v_cmp_f32}, {0x20, 0x2f, Op::v_cmp_f64},
      {0x30, 0x37, Op::v_cmp_i16}, {0x38, 0x3f, Op::v_cmp_u16}, {0x40, 0x47, Op::v_cmp_i32},
      {0x48, 0x4f, Op::v_cmp_u32}, {0x50, 0x57, Op::v_cmp_i64}, {0x58, 0x5f, Op::v_cmp_u64},
      {0x7d, 0x7d, Op::v_cmp_class_f16}, {0x7e, 0x7e, Op::v_cmp_class_f32},
      {0x7f, 0x7f, Op::v_cmp_class_f64}};
  for (const Range& r : kRanges)
    if (code >= r.lo && code <= r.hi) {
      predicate = int32_t(code - r.lo);
      // The 16-bit integer compares have no always-false/always-true forms (LLVM's tables).
      // gfx12 dropped them from every family (llvm-mc-22 -mcpu=gfx1201).
      const bool int16 = r.op == Op::v_cmp_i16 || r.op == Op::v_cmp_u16;
      const bool fp = r.op == Op::v_cmp_f16 || r.op == Op::v_cmp_f32 || r.op == Op::v_cmp_f64;
      const bool class_op = r.hi == r.lo;
      const int32_t always_true = fp ? 15 : 7;
      if ((int16 || (gfx == Gfx::v12 && !class_op)) && (predicate == 0 || predicate == always_true))
        return Op::kCount;
      return r.op;
    }
  return Op::kCount;
}

// Under true16, the short encodings address 16-bit halves: bit 7 of an 8-bit VGPR field
// selects the high half. Fold that into Inst::opsel so all encodings look alike.
bool split_true16(Inst& inst, const OpInfo& info, std::string* why) {
  auto fold = [&](uint16_t& code, uint8_t width, unsigned opsel_bit) {
    if (!is_half(width) || code < src::kVgpr0) return;
    unsigned reg = code - src::kVgpr0;
    if (reg & 0x80) inst.opsel |= uint8_t(1u << opsel_bit);
    code = uint16_t(src::kVgpr0 + (reg & 0x7f));
  };
  fold(inst.src[0], info.src_dwords[0], 0);
  fold(inst.src[1], info.src_dwords[1], 1);
  fold(inst.dst, info.dst_dwords, 3);
  // gfx12 code is fake16 (LLVM 22): a 16-bit operand of a short encoding names v0..v127.
  if (inst.gfx == Gfx::v12 && inst.opsel)
    return fail(why, "a gfx12 16-bit operand above v127 in a short encoding");
  return true;
}

// Operations without DPP forms beyond the VOP1-only/VOP2-only ones (llvm-mc-22 --disassemble
// rejects them).
bool has_dpp(Op op) {
  switch (op) {
  case Op::v_fma_dx9_zero_f32: case Op::v_fmac_dx9_zero_f32: case Op::v_permlane16_var_b32:
  case Op::v_permlanex16_var_b32: case Op::v_s_exp_f32: case Op::v_s_exp_f16:
  case Op::v_s_log_f32: case Op::v_s_log_f16: case Op::v_s_rcp_f32: case Op::v_s_rcp_f16:
  case Op::v_s_rsq_f32: case Op::v_s_rsq_f16: case Op::v_s_sqrt_f32: case Op::v_s_sqrt_f16:
    return false;
  default: return true;
  }
}

// Operand rules of the less common VALU operations, as llvm-mc-22 --disassemble enforces them
// (it rejects the encoding otherwise): which sources must be VGPRs or scalars and which take no
// modifiers.
bool operands_valid(const Inst& in, std::string* why) {
  const bool vgpr0 = in.src[0] >= src::kVgpr0 || is_dpp_or_sdwa(in.src[0]);
  const bool mods = in.abs || in.neg || in.omod;
  const OpInfo& info = op_info(in.op);
  const unsigned nsrc = info.src_dwords[2] ? 3 : info.src_dwords[1] ? 2 : info.src_dwords[0] ? 1 : 0;
  // VOP3 forms: abs/neg belong to sources that exist (LLVM ignores op_sel where it means
  // nothing, but rejects modifiers of absent sources).
  const bool vop3 = in.encoding != Encoding::E32 && in.format != Format::VOP3SD &&
                    in.format != Format::VOPC && in.op != Op::v_cndmask_b32;
  if (vop3 && ((in.abs | in.neg) >> nsrc)) return fail(why, "modifiers on an absent source");
  if (in.op == Op::v_cvt_off_f32_i4 && (in.abs || in.neg))
    return fail(why, "float modifiers on an integer source");
  // The 8-bit float conversions: no clamp or output modifier; op_sel bits of the operation's
  // byte or half selects only (llvm-mc-22 -mcpu=gfx1201 rejects the others).
  if (is_f8_conversion(in.op) && in.encoding != Encoding::E32) {
    if (in.clamp || in.omod) return fail(why, "clamp or an output modifier on an 8-bit float conversion");
    switch (in.op) {
    case Op::v_cvt_f32_fp8: case Op::v_cvt_f32_bf8:
      if ((in.opsel & ~3u) || in.abs || in.neg) return fail(why, "op_sel beyond the byte select, or modifiers");
      return true;
    case Op::v_cvt_pk_f32_fp8: case Op::v_cvt_pk_f32_bf8:
      if ((in.opsel & 6) || ((in.abs | in.neg) & ~1u)) return fail(why, "op_sel or modifiers of a packed 8-bit conversion");
      return true;
    case Op::v_cvt_pk_fp8_f32: case Op::v_cvt_pk_bf8_f32:
      if (in.opsel & 4) return fail(why, "op_sel of an absent source");
      return true;
    default: // the stochastic conversions: op_sel[3:2] is the byte select
      if (in.opsel & 3) return fail(why, "op_sel beyond the byte select");
      return true;
    }
  }
  switch (in.op) {
  case Op::v_cvt_floor_i32_f32: case Op::v_cvt_nearest_i32_f32: case Op::v_sat_pk_u8_i16:
  case Op::v_cvt_pk_i16_f32: case Op::v_cvt_pk_u16_f32: case Op::v_cvt_pk_norm_i16_f32:
  case Op::v_cvt_pk_norm_u16_f32:
    if (in.omod) return fail(why, "an output modifier on an integer result");
    if (in.op == Op::v_sat_pk_u8_i16 && (in.abs || in.neg)) return fail(why, "float modifiers on an integer source");
    return true;
  case Op::v_dot2_f16_f16: case Op::v_dot2_bf16_bf16:
    if (in.omod || (in.abs & 1)) return fail(why, "abs or an output modifier on a dot product");
    return true;
  default: break;
  }
  switch (in.op) {
  case Op::v_movrels_b32: case Op::v_movrelsd_b32: case Op::v_movrelsd_2_b32:
  case Op::v_swap_b32: case Op::v_swap_b16: case Op::v_swaprel_b32:
    if (!vgpr0) return fail(why, "a VGPR-only source is not a VGPR");
    if (mods || in.clamp) return fail(why, "modifiers on a move");
    return true;
  case Op::v_movreld_b32:
    if (mods || in.clamp) return fail(why, "modifiers on a move");
    return true;
  case Op::v_pipeflush:
    if (in.src[0] || in.dst != src::kVgpr0) return fail(why, "v_pipeflush with operands");
    return true;
  case Op::v_permlane16_var_b32: case Op::v_permlanex16_var_b32:
    if (!vgpr0 || in.src[1] < src::kVgpr0) return fail(why, "v_permlane*_var sources must be VGPRs");
    if (mods || in.clamp) return fail(why, "modifiers on a lane gather");
    return true;
  case Op::v_s_exp_f32: case Op::v_s_exp_f16: case Op::v_s_log_f32: case Op::v_s_log_f16:
  case Op::v_s_rcp_f32: case Op::v_s_rcp_f16: case Op::v_s_rsq_f32: case Op::v_s_rsq_f16:
  case Op::v_s_sqrt_f32: case Op::v_s_sqrt_f16:
    if (in.src[0] >= src::kVgpr0) return fail(why, "a scalar VALU operation reads a VGPR");
    return true;
  case Op::v_mqsad_u32_u8:
    if (in.src[2] < src::kVgpr0) return fail(why, "v_mqsad_u32_u8's accumulator must be VGPRs");
    [[fallthrough]];
  case Op::v_lerp_u8: case Op::v_sad_u8: case Op::v_sad_hi_u8: case Op::v_sad_u16:
  case Op::v_sad_u32: case Op::v_msad_u8: case Op::v_qsad_pk_u16_u8: case Op::v_mqsad_pk_u16_u8:
  case Op::v_bfm_b32: case Op::v_mul_hi_i32_i24: case Op::v_mul_hi_u32_u24:
    if (mods) return fail(why, "float modifiers on an integer operation");
    return true;
  case Op::v_cvt_pk_norm_u16_f16: // clamp is accepted (the result saturates anyway)
    if (in.omod) return fail(why, "an output modifier on a packing conversion");
    return true;
  default: return true;
  }
}

bool decode_vop3(Inst& inst, std::span<const uint32_t> w, std::string* why) {
  const Tables& t = tables();
  if (w.size() < 2) return fail(why, "VOP3 needs 2 dwords");
  const uint32_t d0 = w[0], d1 = w[1];
  const uint32_t code = bits(d0, 25, 16);
  inst.size = 8;
  Op op = Op::kCount;
  if (code < 256) {
    op = vopc_family(inst.gfx, code & 0x7f, inst.imm);
    inst.cmpx = code & 0x80;
    inst.format = Format::VOPC;
    inst.encoding = Encoding::E64;
  } else if (code < 384) {
    op = t.find(inst.gfx, Format::VOP2, code - 256);
    inst.format = Format::VOP2;
    inst.encoding = Encoding::E64;
  } else if (code < 512) {
    op = t.find(inst.gfx, Format::VOP1, code - 384);
    inst.format = Format::VOP1;
    inst.encoding = Encoding::E64;
  } else {
    op = t.find(inst.gfx, Format::VOP3, code);
    if (op == Op::kCount) op = t.find(inst.gfx, Format::VOP3SD, code);
    inst.format = op == Op::kCount ? Format::VOP3 : op_format(op, inst.gfx);
  }
  if (op == Op::kCount) return fail(why, "unimplemented VOP3 opcode " + hex32(code) + " (" + hex32(d0) + ")");
  if (is_vop2_only(op)) return fail(why, "VOP3 form of a VOP2-only opcode");
  if (is_vop1_only(op)) return fail(why, "VOP3 form of a VOP1-only opcode");
  inst.op = op;
  const bool sd = inst.format == Format::VOP3SD || op == Op::v_add_co_ci_u32 ||
                  op == Op::v_sub_co_ci_u32 || op == Op::v_subrev_co_ci_u32;
  inst.dst = uint16_t(src::kVgpr0 + bits(d0, 7, 0));
  if (sd) {
    inst.sdst = uint16_t(bits(d0, 14, 8));
  } else {
    inst.abs = uint8_t(bits(d0, 10, 8));
    inst.opsel = uint8_t(bits(d0, 14, 11));
  }
  if (inst.format == Format::VOPC) {
    inst.sdst = uint16_t(bits(d0, 7, 0)); // SGPR destination of the compare
    inst.dst = src::kNull;
  }
  if (has_scalar_dst(op)) inst.dst = uint16_t(bits(d0, 7, 0)); // scalar destination
  // The packed sources of the dot products into a half have no op_sel (LLVM prints none).
  if (op == Op::v_dot2_f16_f16 || op == Op::v_dot2_bf16_bf16) inst.opsel &= 0xc;
  // LLVM 22 decodes these as fake16 (whole registers, op_sel ignored) when op_sel names a
  // source the operation does not have.
  const unsigned nsrc = op_info(op).src_dwords[1] ? 2 : 1;
  if (vop3_without_opsel(op) && (inst.opsel & 7 & ~((1u << nsrc) - 1))) {
    inst.opsel = 0;
    inst.fake16 = true;
  }
  // gfx12's VOP3 forms of VOP1/VOP2 operations take no op_sel (LLVM 22 compiles gfx12 as
  // fake16 and decodes them without it).
  if (inst.gfx == Gfx::v12 && (inst.format == Format::VOP1 || inst.format == Format::VOP2) &&
      !is_f8_conversion(op))
    inst.opsel = 0;
  inst.clamp = bits(d0, 15, 15);
  inst.src[0] = uint16_t(bits(d1, 8, 0));
  inst.src[1] = uint16_t(bits(d1, 17, 9));
  inst.src[2] = uint16_t(bits(d1, 26, 18));
  inst.omod = uint8_t(bits(d1, 28, 27));
  inst.neg = uint8_t(bits(d1, 31, 29));
  // The row gathers take their lane selects from scalars (llvm-mc rejects VGPRs there).
  if ((op == Op::v_permlane16_b32 || op == Op::v_permlanex16_b32) &&
      (inst.src[1] >= src::kVgpr0 || inst.src[2] >= src::kVgpr0))
    return fail(why, "v_permlane16 lane selects must be scalar operands");
  if (!operands_valid(inst, why)) return false;
  // Modifier bits LLVM accepts on the 8-bit conversions but that select nothing: the packed
  // conversion's source is a half, the stochastic one's second source the random bits.
  if (op == Op::v_cvt_pk_f32_fp8 || op == Op::v_cvt_pk_f32_bf8) inst.abs = inst.neg = 0;
  if (op == Op::v_cvt_sr_fp8_f32 || op == Op::v_cvt_sr_bf8_f32) inst.abs &= 1, inst.neg &= 1;
  if (is_dpp_or_sdwa(inst.src[0])) {
    if (!has_dpp(inst.op)) return fail(why, "no DPP form of this operation");
    // llvm-objdump-22 prints a different quad_perm for these than the DPP dword holds (as for
    // v_fma_mixlo_f16), so the decode sweep cannot check them; they stay refused until it can.
    if ((op == Op::v_cvt_pk_fp8_f32 || op == Op::v_cvt_pk_bf8_f32) && inst.src[0] == kSrcDpp16)
      return fail(why, "DPP16 v_cvt_pk_fp8/bf8_f32 not checked against LLVM");
    return take_dpp(inst, w, 2, false, why);
  }
  return take_literal(inst, w, 3, false, why);
}

bool decode_vop3p(Inst& inst, std::span<const uint32_t> w, std::string* why) {
  if (w.size() < 2) return fail(why, "VOP3P needs 2 dwords");
  const uint32_t d0 = w[0], d1 = w[1];
  inst.format = Format::VOP3P;
  inst.op = tables().find(inst.gfx, Format::VOP3P, bits(d0, 22, 16));
  if (inst.op == Op::kCount)
    return fail(why, unimplemented_text(inst.gfx, "VOP3P", bits(d0, 22, 16), d0));
  inst.size = 8;
  inst.dst = uint16_t(src::kVgpr0 + bits(d0, 7, 0));
  inst.neg_hi = uint8_t(bits(d0, 10, 8));
  inst.opsel = uint8_t(bits(d0, 13, 11));
  inst.opsel_hi = uint8_t(bits(d1, 28, 27) | (bits(d0, 14, 14) << 2));
  // gfx12's VOP3 forms of VOP1/VOP2 operations take no op_sel (LLVM 22 compiles gfx12 as
  // fake16 and decodes them without it).
  if (inst.gfx == Gfx::v12 && (inst.format == Format::VOP1 || inst.format == Format::VOP2))
    inst.opsel = 0;
  inst.clamp = bits(d0, 15, 15);
  inst.src[0] = uint16_t(bits(d1, 8, 0));
  inst.src[1] = uint16_t(bits(d1, 17, 9));
  inst.src[2] = uint16_t(bits(d1, 26, 18));
  inst.neg = uint8_t(bits(d1, 31, 29));
  inst.wmma = is_wmma(inst.op);
  if (inst.wmma && !wmma_fields_valid(inst, why)) return false;
  const bool int_dot = inst.op == Op::v_dot4_i32_iu8 || inst.op == Op::v_dot4_u32_u8 ||
                       inst.op == Op::v_dot8_i32_iu4 || inst.op == Op::v_dot8_u32_u4;
  if (int_dot && (inst.opsel || inst.neg_hi || (inst.neg & 4)))
    return fail(why, "op_sel or neg_hi on an integer dot product");
  // The 8-bit float dot products: no op_sel, all op_sel_hi, modifiers on src2 only, no clamp
  // (RDNA4 ISA manual, "DOT4_F32_{FP8,BF8}_{FP8,BF8}").
  if (is_f8_dot(inst.op) &&
      (inst.opsel || inst.opsel_hi != 7 || ((inst.neg | inst.neg_hi) & 3) || inst.clamp))
    return fail(why, "op_sel, source modifiers or clamp on an 8-bit float dot product");
  if ((inst.op == Op::v_pk_minimum_f16 || inst.op == Op::v_pk_maximum_f16) && inst.clamp)
    return fail(why, "clamp on v_pk_minimum/maximum_f16");
  if (is_dpp_or_sdwa(inst.src[0])) {
    if (!vop3p_has_dpp(inst.op)) return fail(why, "VOP3P DPP of an operation without one");
    // llvm-objdump-22 prints a different quad_perm for these two than the dword holds, so the
    // decode sweep cannot check them; they stay refused until it can.
    if ((inst.op == Op::v_fma_mixlo_f16 || inst.op == Op::v_fma_mixhi_f16) &&
        inst.src[0] == kSrcDpp16)
      return fail(why, "DPP16 v_fma_mixlo/mixhi_f16 not checked against LLVM");
    return take_dpp(inst, w, 2, false, why);
  }
  return take_literal(inst, w, 3, false, why);
}

bool decode_vopd(Inst& inst, std::span<const uint32_t> w, std::string* why) {
  if (w.size() < 2) return fail(why, "VOPD needs 2 dwords");
  const uint32_t d0 = w[0], d1 = w[1];
  inst.format = Format::VOPD;
  inst.op = bits(d0, 25, 22) < 14 ? vopd_op(bits(d0, 25, 22)) : Op::kCount;
  inst.op_y = vopd_op(bits(d0, 21, 17));
  if (inst.op == Op::kCount || inst.op_y == Op::kCount)
    return fail(why, "unimplemented VOPD opcode pair (" + hex32(d0) + ")");
  // v_dual_mov_b32 has no VSRC1: llvm-mc-22 rejects the pair unless that field is 0.
  if ((inst.op == Op::v_mov_b32 && bits(d0, 16, 9)) || (inst.op_y == Op::v_mov_b32 && bits(w[1], 16, 9)))
    return fail(why, "v_dual_mov_b32 with a second source (" + hex32(d0) + ")");
  inst.size = 8;
  inst.src[0] = uint16_t(bits(d0, 8, 0));
  inst.src[1] = uint16_t(src::kVgpr0 + bits(d0, 16, 9));
  inst.src_y[0] = uint16_t(bits(d1, 8, 0));
  inst.src_y[1] = uint16_t(src::kVgpr0 + bits(d1, 16, 9));
  const uint32_t vdst_x = bits(d1, 31, 24);
  // VDSTY holds bits [7:1]; bit 0 is the opposite of VDSTX's so the two use different banks.
  const uint32_t vdst_y = (bits(d1, 23, 17) << 1) | ((vdst_x & 1) ^ 1);
  inst.dst = uint16_t(src::kVgpr0 + vdst_x);
  inst.dst_y = uint16_t(src::kVgpr0 + vdst_y);
  const bool k = inst.op == Op::v_fmaak_f32 || inst.op == Op::v_fmamk_f32 ||
                 inst.op_y == Op::v_fmaak_f32 || inst.op_y == Op::v_fmamk_f32;
  if (k || inst.src[0] == src::kLiteral || inst.src_y[0] == src::kLiteral) {
    if (w.size() < 3) return fail(why, "VOPD literal missing");
    inst.literal = w[2];
    inst.size = 12;
  }
  return true;
}

// gfx12 SMEM (llvm-mc-22 -mcpu=gfx1201 -show-encoding): sbase/2 [5:0], sdata [12:6],
// opcode [18:13], NV [20] (llvm-mc-22 --disassemble ignores bit 19), scope [22:21], th [24:23];
// dword 1: signed 24-bit offset [23:0], soffset [31:25].
bool decode_smem12(Inst& inst, std::span<const uint32_t> w, std::string* why) {
  const uint32_t d0 = w[0];
  if (w.size() < 2) return fail(why, "SMEM needs 2 dwords");
  inst.op = tables().find(Gfx::v12, Format::SMEM, bits(d0, 18, 13));
  if (inst.op == Op::kCount) return fail(why, "unimplemented SMEM opcode " + std::to_string(bits(d0, 18, 13)) + " (" + hex32(d0) + ")");
  inst.nv = bits(d0, 20, 20);
  inst.format = Format::SMEM;
  inst.size = 8;
  inst.src[0] = uint16_t(bits(d0, 5, 0) * 2);
  if (is_buffer_smem(inst.op) || inst.op == Op::s_atc_probe_buffer ||
      inst.op == Op::s_buffer_prefetch_data)
    inst.src[0] &= ~3; // a 4-SGPR resource: SBASE[0] is ignored (llvm-mc-22 prints it so)
  inst.dst = uint16_t(bits(d0, 12, 6));
  inst.scope = uint8_t(bits(d0, 22, 21));
  inst.th = uint8_t(bits(d0, 24, 23));
  inst.imm = int32_t(bits(w[1], 23, 0) << 8) >> 8;
  inst.soffset = uint16_t(bits(w[1], 31, 25));
  return true;
}

// gfx12 VFLAT/VGLOBAL/VSCRATCH, 96 bits (same source): saddr [6:0], opcode [21:14], segment
// [25:24]; dword 1: vdst [7:0], scratch vaddr enable [17], scope [19:18], th [22:20], vsrc
// (data) [30:23]; dword 2: vaddr [7:0], signed 24-bit offset [31:8].
bool decode_vflat12(Inst& inst, std::span<const uint32_t> w, std::string* why) {
  const uint32_t d0 = w[0];
  if (w.size() < 3) return fail(why, "VFLAT needs 3 dwords");
  inst.op = tables().find(Gfx::v12, Format::FLAT, bits(d0, 21, 14));
  if (inst.op == Op::kCount) return fail(why, unimplemented_text(Gfx::v12, "VFLAT", bits(d0, 21, 14), d0));
  if (bits(d0, 25, 24) == 3) return fail(why, "VFLAT segment 3 (" + hex32(d0) + ")");
  if (is_cache_control(inst.op) && bits(d0, 6, 0) != src::kNull)
    return fail(why, "global cache control with an SADDR (" + hex32(d0) + ")");
  if (is_global_only(inst.op) && bits(d0, 25, 24) != 2)
    return fail(why, std::string(op_name(inst.op, Gfx::v12)) + " outside the global segment (" +
                         hex32(d0) + ")");
  if (is_block_move(inst.op) && bits(d0, 25, 24) == 0)
    return fail(why, "block load/store in the flat segment (" + hex32(d0) + ")");
  inst.format = Format::FLAT;
  inst.size = 12;
  inst.segment = Segment(bits(d0, 25, 24));
  if (inst.segment == Segment::Scratch && is_atomic(op_info(inst.op)))
    return fail(why, "SCRATCH atomic (no such instruction) (" + hex32(d0) + ")");
  inst.soffset = uint16_t(bits(d0, 6, 0));
  const uint32_t d1 = w[1], d2 = w[2];
  inst.dst = uint16_t(src::kVgpr0 + bits(d1, 7, 0));
  inst.scope = uint8_t(bits(d1, 19, 18));
  inst.th = uint8_t(bits(d1, 22, 20));
  inst.src[1] = uint16_t(src::kVgpr0 + bits(d1, 30, 23));
  inst.src[0] = uint16_t(src::kVgpr0 + bits(d2, 7, 0));
  inst.imm = int32_t(d2) >> 8;
  if (inst.segment == Segment::Scratch && !bits(d1, 17, 17)) inst.src[0] = src::kNull;
  const OpInfo& info = op_info(inst.op);
  inst.has_vdst_data = is_atomic(info) ? (inst.th & 1) != 0 : info.dst_dwords != 0; // TH_ATOMIC_RETURN
  return true;
}

} // namespace

const OpInfo& op_info(Op op) { return kOps[size_t(op)]; }

const char* op_name(Op op, Gfx gfx) {
  const char* n = tables().ops[size_t(gfx)][size_t(op)].name;
  return n ? n : kOps[size_t(op)].name;
}

std::optional<uint16_t> op_code(Op op, Gfx gfx) {
  const int code = tables().ops[size_t(gfx)][size_t(op)].code;
  if (code < 0) return std::nullopt;
  return uint16_t(code);
}

Format op_format(Op op, Gfx gfx) {
  const GenOp& g = tables().ops[size_t(gfx)][size_t(op)];
  return g.code >= 0 ? g.format : kOps[size_t(op)].format;
}

std::span<const OpInfo> all_ops() { return kOps; }

Op vopd_op(unsigned code) {
  static const Op kDual[] = {Op::v_fmac_f32, Op::v_fmaak_f32, Op::v_fmamk_f32, Op::v_mul_f32,
                             Op::v_add_f32, Op::v_sub_f32, Op::v_subrev_f32, Op::v_mul_dx9_zero_f32,
                             Op::v_mov_b32, Op::v_cndmask_b32, Op::v_max_f32, Op::v_min_f32};
  if (code < 12) return kDual[code];
  if (code == 12) return Op::v_dot2acc_f32_f16;
  if (code == 13) return Op::v_dot2acc_f32_bf16;
  if (code == 16) return Op::v_add_nc_u32;
  if (code == 17) return Op::v_lshlrev_b32;
  if (code == 18) return Op::v_and_b32;
  return Op::kCount;
}

const char* vopc_predicate(Op family, unsigned p) {
  static const char* const kFloat[16] = {"f", "lt", "eq", "le", "gt", "lg", "ge", "o",
                                         "u", "nge", "nlg", "ngt", "nle", "neq", "nlt", "t"};
  static const char* const kInt[8] = {"f", "lt", "eq", "le", "gt", "ne", "ge", "t"};
  switch (family) {
  case Op::v_cmp_f16: case Op::v_cmp_f32: case Op::v_cmp_f64: return kFloat[p & 15];
  case Op::v_cmp_class_f16: case Op::v_cmp_class_f32: case Op::v_cmp_class_f64: return "class";
  default: return kInt[p & 7];
  }
}

std::optional<Inst> decode(std::span<const uint32_t> w, Gfx gfx, std::string* why) {
  if (w.empty()) {
    fail(why, "no instruction words");
    return std::nullopt;
  }
  Inst inst;
  inst.gfx = gfx;
  const uint32_t d0 = w[0];
  auto lookup = [&](Format f, uint32_t code) {
    inst.op = tables().find(gfx, f, code);
    inst.format = inst.op == Op::kCount ? f : op_format(inst.op, gfx);
    return inst.op != Op::kCount;
  };
  auto unimpl = [&](const char* fmt_name, uint32_t code) -> std::optional<Inst> {
    fail(why, unimplemented_text(gfx, fmt_name, code, d0));
    return std::nullopt;
  };
  auto done = [&](bool ok) -> std::optional<Inst> {
    if (!ok) return std::nullopt;
    return inst;
  };

  const uint32_t top9 = d0 >> 23;
  const uint32_t top6 = d0 >> 26;
  if (top9 == 0x17D) { // SOP1
    if (!lookup(Format::SOP1, bits(d0, 15, 8))) return unimpl("SOP1", bits(d0, 15, 8));
    inst.dst = uint16_t(bits(d0, 22, 16));
    inst.src[0] = uint16_t(bits(d0, 7, 0));
    // The relative moves' and s_rfe_b64's sources name SGPRs (llvm-mc-22 marks a constant
    // there "Invalid immediate").
    if ((inst.op == Op::s_movrels_b32 || inst.op == Op::s_movrels_b64 ||
         inst.op == Op::s_movrelsd_2_b32 || inst.op == Op::s_rfe_b64) &&
        inst.src[0] >= src::kConstZero)
      return unimpl("SOP1 with a constant where an SGPR belongs", bits(d0, 15, 8));
    if ((inst.op == Op::s_setpc_b64 || inst.op == Op::s_rfe_b64) && inst.src[0] >= src::kConstZero)
      return unimpl("SOP1 with a constant where an SGPR pair belongs", bits(d0, 15, 8));
    // M0 is no 64-bit operand (llvm-mc-22 rejects it there).
    if (regs_of(op_info(inst.op).src_dwords[0]) == 2 && inst.src[0] == src::kM0)
      return unimpl("SOP1 with M0 as a 64-bit source", bits(d0, 15, 8));
    return done(take_literal(inst, w, 1, false, why));
  }
  if (top9 == 0x17E) { // SOPC
    if (!lookup(Format::SOPC, bits(d0, 22, 16))) return unimpl("SOPC", bits(d0, 22, 16));
    inst.src[0] = uint16_t(bits(d0, 7, 0));
    inst.src[1] = uint16_t(bits(d0, 15, 8));
    return done(take_literal(inst, w, 2, false, why));
  }
  if (top9 == 0x17F) { // SOPP
    if (!lookup(Format::SOPP, bits(d0, 22, 16))) return unimpl("SOPP", bits(d0, 22, 16));
    inst.imm = int16_t(bits(d0, 15, 0));
    // Operations without an operand: llvm-mc-22 rejects a non-zero simm16.
    if (inst.imm && (inst.op == Op::s_wait_idle || inst.op == Op::s_endpgm_saved ||
                     inst.op == Op::s_endpgm_ordered_ps_done || inst.op == Op::s_wakeup ||
                     inst.op == Op::s_ttracedata || inst.op == Op::s_icache_inv))
      return unimpl("SOPP with an operand it does not have", bits(d0, 22, 16));
    return inst;
  }
  if ((d0 >> 28) == 0xB) { // SOPK
    if (!lookup(Format::SOPK, bits(d0, 27, 23))) return unimpl("SOPK", bits(d0, 27, 23));
    inst.dst = uint16_t(bits(d0, 22, 16));
    inst.src[0] = inst.dst;
    inst.imm = int16_t(bits(d0, 15, 0));
    if (inst.op == Op::s_setreg_imm32_b32) return done(take_literal(inst, w, 0, true, why));
    return inst;
  }
  if ((d0 >> 30) == 0x2) { // SOP2
    if (!lookup(Format::SOP2, bits(d0, 29, 23))) return unimpl("SOP2", bits(d0, 29, 23));
    inst.dst = uint16_t(bits(d0, 22, 16));
    inst.src[0] = uint16_t(bits(d0, 7, 0));
    inst.src[1] = uint16_t(bits(d0, 15, 8));
    return done(take_literal(inst, w, 2, is_fmamk(inst.op) || is_fmaak(inst.op), why));
  }
  if ((d0 >> 25) == 0x3F) { // VOP1
    if (!lookup(Format::VOP1, bits(d0, 16, 9))) return unimpl("VOP1", bits(d0, 16, 9));
    inst.encoding = Encoding::E32;
    inst.dst = inst.op == Op::v_readfirstlane_b32 ? uint16_t(bits(d0, 24, 17))
                                                   : uint16_t(src::kVgpr0 + bits(d0, 24, 17));
    inst.src[0] = uint16_t(bits(d0, 8, 0));
    if (!operands_valid(inst, why)) return std::nullopt;
    if (is_dpp_or_sdwa(inst.src[0])) {
      if (is_vop1_only(inst.op) || !has_dpp(inst.op)) return unimpl("VOP1 DPP", bits(d0, 16, 9));
      if (!take_dpp(inst, w, 1, true, why)) return std::nullopt;
      if (is_f8_conversion(inst.op) && (inst.abs || inst.neg))
        return unimpl("VOP1 DPP with modifiers of an 8-bit float conversion", bits(d0, 16, 9));
      if (!split_true16(inst, op_info(inst.op), why)) return std::nullopt;
      return inst;
    }
    if (!split_true16(inst, op_info(inst.op), why)) return std::nullopt;
    return done(take_literal(inst, w, 1, false, why));
  }
  if ((d0 >> 25) == 0x3E) { // VOPC
    const uint32_t code = bits(d0, 24, 17);
    inst.format = Format::VOPC;
    inst.op = vopc_family(gfx, code & 0x7f, inst.imm);
    if (inst.op == Op::kCount) return unimpl("VOPC", code);
    inst.encoding = Encoding::E32;
    inst.cmpx = code & 0x80;
    inst.dst = src::kNull;
    inst.sdst = inst.cmpx ? src::kNull : src::kVccLo;
    inst.src[0] = uint16_t(bits(d0, 8, 0));
    inst.src[1] = uint16_t(src::kVgpr0 + bits(d0, 16, 9));
    if (is_dpp_or_sdwa(inst.src[0])) {
      if (!take_dpp(inst, w, 1, true, why)) return std::nullopt;
      if (!split_true16(inst, op_info(inst.op), why)) return std::nullopt;
      return inst;
    }
    if (!split_true16(inst, op_info(inst.op), why)) return std::nullopt;
    return done(take_literal(inst, w, 1, false, why));
  }
  if ((d0 >> 31) == 0) { // VOP2
    if (!lookup(Format::VOP2, bits(d0, 30, 25))) return unimpl("VOP2", bits(d0, 30, 25));
    inst.encoding = Encoding::E32;
    inst.dst = uint16_t(src::kVgpr0 + bits(d0, 24, 17));
    inst.src[0] = uint16_t(bits(d0, 8, 0));
    inst.src[1] = uint16_t(src::kVgpr0 + bits(d0, 16, 9));
    if (inst.op == Op::v_cndmask_b32 || inst.op == Op::v_add_co_ci_u32 ||
        inst.op == Op::v_sub_co_ci_u32 || inst.op == Op::v_subrev_co_ci_u32) {
      inst.src[2] = src::kVccLo; // implicit VCC carry/mask input
      if (inst.op != Op::v_cndmask_b32) inst.sdst = src::kVccLo;
    }
    const bool k = is_fmamk(inst.op) || is_fmaak(inst.op);
    if (!operands_valid(inst, why)) return std::nullopt;
    if (is_dpp_or_sdwa(inst.src[0])) {
      if (k || inst.op == Op::v_pk_fmac_f16 || !has_dpp(inst.op))
        return unimpl("VOP2 DPP", bits(d0, 30, 25));
      if (!take_dpp(inst, w, 1, true, why)) return std::nullopt;
    }
    if (!split_true16(inst, op_info(inst.op), why)) return std::nullopt;
    if (is_fmac(inst.op)) { // the accumulator is the destination, the same half of it
      inst.src[2] = inst.dst;
      if (inst.opsel & 8) inst.opsel |= 4;
    }
    if (inst.dpp.kind != DppKind::None) return inst;
    return done(take_literal(inst, w, 1, k, why));
  }
  if (top6 == 0x35) return done(decode_vop3(inst, w, why));
  if ((d0 >> 24) == 0xCC) return done(decode_vop3p(inst, w, why));
  if (top6 == 0x32) return done(decode_vopd(inst, w, why));
  if (gfx == Gfx::v12 && top6 == 0x3D) return done(decode_smem12(inst, w, why));
  if (gfx == Gfx::v12 && top6 == 0x3B) return done(decode_vflat12(inst, w, why));
  if (gfx == Gfx::v12 && (top6 == 0x34 || top6 == 0x39)) { // VIMAGE, VSAMPLE
    const bool sample = top6 == 0x39;
    const uint32_t code = bits(d0, 21, 14) + (sample ? 256 : 0);
    if (!lookup(Format::MIMG, code))
      return unimpl(sample ? "VSAMPLE" : "VIMAGE", bits(d0, 21, 14));
    return done(decode_vimage12(inst, w, sample, why));
  }
  if (gfx == Gfx::v11 && top6 == 0x3C) { // MIMG
    if (!lookup(Format::MIMG, bits(d0, 25, 18))) return unimpl("MIMG", bits(d0, 25, 18));
    return done(decode_mimg11(inst, w, why));
  }
  if (top6 == 0x3D) { // SMEM
    if (w.size() < 2) return unimpl("SMEM (truncated)", 0);
    if (!lookup(Format::SMEM, bits(d0, 25, 18))) return unimpl("SMEM", bits(d0, 25, 18));
    inst.size = 8;
    inst.dst = uint16_t(bits(d0, 12, 6));
    inst.src[0] = uint16_t(bits(d0, 5, 0) * 2); // sbase: SGPR pair
    inst.glc = bits(d0, 14, 14);
    inst.dlc = bits(d0, 13, 13);
    if (is_buffer_smem(inst.op) || inst.op == Op::s_atc_probe_buffer)
      inst.src[0] &= ~3; // a 4-SGPR resource: SBASE[0] is ignored (llvm-mc-22 prints it so)
    // The cache controls and probes take no cache policy (llvm-mc-22 rejects glc/dlc there).
    if (!op_info(inst.op).dst_dwords && (inst.glc || inst.dlc))
      return unimpl("SMEM cache control with glc/dlc", bits(d0, 25, 18));
    inst.imm = int32_t(bits(w[1], 20, 0) << 11) >> 11; // signed 21-bit byte offset
    inst.soffset = uint16_t(bits(w[1], 31, 25));
    return inst;
  }
  if (top6 == 0x37) { // FLAT / GLOBAL / SCRATCH
    if (w.size() < 2) return unimpl("FLAT (truncated)", 0);
    if (!lookup(Format::FLAT, bits(d0, 24, 18))) return unimpl("FLAT", bits(d0, 24, 18));
    if (bits(d0, 17, 16) == 3) return unimpl("FLAT segment 3", bits(d0, 24, 18));
    if ((inst.op == Op::atomic_csub_u32 || is_global_only(inst.op)) && bits(d0, 17, 16) != 2)
      return unimpl("global-only FLAT operation outside the global segment", bits(d0, 24, 18));
    inst.size = 8;
    inst.imm = int32_t(bits(d0, 12, 0) << 19) >> 19; // signed 13-bit
    inst.dlc = bits(d0, 13, 13);
    inst.glc = bits(d0, 14, 14);
    inst.slc = bits(d0, 15, 15);
    inst.segment = Segment(bits(d0, 17, 16));
    if (inst.segment == Segment::Scratch && is_atomic(op_info(inst.op)))
      return unimpl("SCRATCH atomic (no such instruction)", bits(d0, 24, 18));
    const uint32_t d1 = w[1];
    inst.src[0] = uint16_t(src::kVgpr0 + bits(d1, 7, 0));  // vaddr
    inst.src[1] = uint16_t(src::kVgpr0 + bits(d1, 15, 8)); // vdata
    inst.soffset = uint16_t(bits(d1, 22, 16));             // saddr
    inst.dst = uint16_t(src::kVgpr0 + bits(d1, 31, 24));
    if (inst.segment == Segment::Scratch && !bits(d1, 23, 23)) inst.src[0] = src::kNull;
    const OpInfo& info = op_info(inst.op);
    inst.has_vdst_data = is_atomic(info) ? inst.glc : info.dst_dwords != 0;
    return inst;
  }
  if (top6 == 0x36) { // DS
    if (w.size() < 2) return unimpl("DS (truncated)", 0);
    if (!lookup(Format::DS, bits(d0, 25, 18))) return unimpl("DS", bits(d0, 25, 18));
    inst.size = 8;
    inst.imm = int32_t(bits(d0, 7, 0));
    inst.offset1 = uint8_t(bits(d0, 15, 8));
    if (inst.op == Op::ds_swizzle_b32) inst.imm = int32_t(bits(d0, 15, 0));
    const uint32_t d1 = w[1];
    inst.src[0] = uint16_t(src::kVgpr0 + bits(d1, 7, 0));   // addr
    inst.src[1] = uint16_t(src::kVgpr0 + bits(d1, 15, 8));  // data0
    inst.src[2] = uint16_t(src::kVgpr0 + bits(d1, 23, 16)); // data1
    inst.dst = uint16_t(src::kVgpr0 + bits(d1, 31, 24));
    // LLVM requires the fields of operands an operation does not have to be 0 (llvm-mc-22
    // --disassemble rejects a DS word otherwise); swizzle's data sits in ADDR.
    const OpInfo& info = op_info(inst.op);
    if ((!info.src_dwords[0] && bits(d1, 15, 8)) || (!info.src_dwords[1] && bits(d1, 23, 16)) ||
        (!info.dst_dwords && bits(d1, 31, 24)) || (ds_without_addr(inst.op) && bits(d1, 7, 0)))
      return unimpl("DS with a field its operation does not have", bits(d0, 25, 18));
    if (inst.op == Op::ds_nop && (d1 || bits(d0, 15, 0)))
      return unimpl("ds_nop with operands", bits(d0, 25, 18));
    return inst;
  }
  if (top6 == 0x38) { // MUBUF
    if (w.size() < 2) return unimpl("MUBUF (truncated)", 0);
    if (!lookup(Format::MUBUF, bits(d0, 25, 18))) return unimpl("MUBUF", bits(d0, 25, 18));
    inst.size = 8;
    return inst;
  }
  if (const std::string name = graphics_only_name(d0, gfx); !name.empty())
    fail(why, name + ": a graphics-only instruction (" + hex32(d0) + ")");
  else
    fail(why, std::string("unimplemented encoding ") + (top6 == 0x3A ? "MTBUF" : "unknown") +
                  " (" + hex32(d0) + ")");
  return std::nullopt;
}

} // namespace sim::shader
