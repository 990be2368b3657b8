// The decoded, compact form of a gfx11/gfx12 instruction and the decoder/printer entry points.
// Decoding happens once per instruction address of a program (see program.h); the executor
// only ever sees Inst.
#pragma once
#include <cstdint>
#include <optional>
#include <span>
#include <string>

namespace sim::shader {

// Scalar formats come first (see Executor::run's lane accounting).
enum class Format : uint8_t { SOP2, SOP1, SOPC, SOPK, SOPP, SMEM, VOP2, VOP1, VOPC, VOP3, VOP3SD,
                              FLAT, DS, VOPD, VOP3P, MUBUF, MIMG };

// Operations of both generations: gfx11's table, then the operations gfx12 added (its table
// renames or renumbers gfx11 operations with the same semantics rather than adding new ones).
enum class Op : uint16_t {
#define X(name, fmt, code, d, s0, s1, s2) name,
#define N(name, fmt, code, d, s0, s1, s2) name,
#define C(op, name12, fmt, code)
#define R(op)
#include "gfx11_opcodes.def"
#include "gfx12_opcodes.def"
#undef X
#undef N
#undef C
#undef R
  kCount
};

// The instruction-set generation a program is decoded for (RDNA3 = gfx11, RDNA4 = gfx12).
enum class Gfx : uint8_t { v11, v12 };

// Operand width marker in the opcode table: a 16-bit operand (half of a VGPR under true16).
inline constexpr uint8_t kHalf = 0x80;
inline constexpr unsigned regs_of(uint8_t width) { return width == kHalf ? 1 : width; }
inline constexpr bool is_half(uint8_t width) { return width == kHalf; }

struct OpInfo {
  Op op;
  Format format;
  uint16_t code;
  const char* name;
  uint8_t dst_dwords;
  uint8_t src_dwords[3];
};
const OpInfo& op_info(Op op);
// The mnemonic and opcode of an operation in one generation; no code when it does not exist
// there (the opcode tables are the facts; see gfx12_opcodes.def).
const char* op_name(Op op, Gfx gfx);
std::optional<uint16_t> op_code(Op op, Gfx gfx);
Format op_format(Op op, Gfx gfx);

// VOP2 forms with an inline 32-bit constant K (fmamk: a * K + b; fmaak: a * b + K) and with
// the destination as accumulator (fmac).
// The multiply-adds whose constant K always follows the instruction as a literal.
inline constexpr bool is_fmamk(Op op) {
  return op == Op::v_fmamk_f32 || op == Op::v_fmamk_f16 || op == Op::s_fmamk_f32;
}
inline constexpr bool is_fmaak(Op op) {
  return op == Op::v_fmaak_f32 || op == Op::v_fmaak_f16 || op == Op::s_fmaak_f32;
}
inline constexpr bool is_fmac(Op op) {
  return op == Op::v_fmac_f32 || op == Op::v_fmac_f16 || op == Op::v_pk_fmac_f16 ||
         op == Op::v_fmac_dx9_zero_f32 || op == Op::v_dot2acc_f32_f16;
}
// VOP2 operations with no VOP3 form, printed without an encoding suffix.
inline constexpr bool is_vop2_only(Op op) {
  return is_fmamk(op) || is_fmaak(op) || op == Op::v_pk_fmac_f16 || op == Op::v_dot2acc_f32_f16;
}

// VOP1 operations with no VOP3 (or DPP) form.
inline constexpr bool is_vop1_only(Op op) {
  return op == Op::v_nop || op == Op::v_readfirstlane_b32 || op == Op::v_permlane64_b32 ||
         op == Op::v_pipeflush || op == Op::v_swap_b32 || op == Op::v_swap_b16 ||
         op == Op::v_swaprel_b32;
}
// 16-bit operations whose VOP3 form LLVM 22 decodes without op_sel when op_sel is set (it
// prints whole registers then; the RDNA3/RDNA4 manuals give no op_sel meaning for them).
inline constexpr bool vop3_without_opsel(Op op) {
  return op == Op::v_subrev_f16 || op == Op::v_sat_pk_u8_i16 || op == Op::v_cvt_norm_i16_f16 ||
         op == Op::v_cvt_norm_u16_f16;
}
// Sources of float operations that are integers (no abs/neg): a bit per source.
inline constexpr unsigned integer_sources(Op op) {
  return op == Op::v_cvt_pk_u8_f32    ? 6u
         : op == Op::v_trig_preop_f64 ? 2u
         : op == Op::v_cvt_off_f32_i4 ? 1u
                                      : 0u;
}
// VOP3P operations with DPP forms (llvm-mc-22 -mcpu=gfx1100 / gfx1201 --disassemble).
inline constexpr bool vop3p_has_dpp(Op op) {
  return op == Op::v_dot2_f32_f16 || op == Op::v_dot2_f32_bf16 || op == Op::v_fma_mix_f32 ||
         op == Op::v_fma_mixlo_f16 || op == Op::v_fma_mixhi_f16 || op == Op::v_dot4_f32_fp8_bf8 ||
         op == Op::v_dot4_f32_bf8_fp8 || op == Op::v_dot4_f32_fp8_fp8 ||
         op == Op::v_dot4_f32_bf8_bf8;
}
// VOP3 operations whose destination is an SGPR (the VALU's lane reads and gfx12's scalar
// transcendentals).
inline constexpr bool has_scalar_dst(Op op) {
  return op == Op::v_readlane_b32 || op == Op::v_readfirstlane_b32 || op == Op::v_s_exp_f32 ||
         op == Op::v_s_exp_f16 || op == Op::v_s_log_f32 || op == Op::v_s_log_f16 ||
         op == Op::v_s_rcp_f32 || op == Op::v_s_rcp_f16 || op == Op::v_s_rsq_f32 ||
         op == Op::v_s_rsq_f16 || op == Op::v_s_sqrt_f32 || op == Op::v_s_sqrt_f16;
}

// The scalar loads through a buffer resource (a 4-SGPR descriptor as sbase).
inline constexpr bool is_buffer_smem(Op op) {
  return op == Op::s_buffer_load_b32 || op == Op::s_buffer_load_b64 ||
         op == Op::s_buffer_load_b96 || op == Op::s_buffer_load_b128 ||
         op == Op::s_buffer_load_b256 || op == Op::s_buffer_load_b512 ||
         op == Op::s_buffer_load_i8 || op == Op::s_buffer_load_u8 || op == Op::s_buffer_load_i16 ||
         op == Op::s_buffer_load_u16;
}

// gfx12's cache write-back/invalidate operations of the global segment (GLOBAL_INV/WB/WBINV).
inline constexpr bool is_cache_control(Op op) {
  return op == Op::inv || op == Op::wb || op == Op::wbinv;
}
// FLAT-family operations addressed by SADDR + offset + lane id * 4, with no VADDR (RDNA3 ISA
// manual, "Global": GLOBAL_LOAD_ADDTID_B32 / GLOBAL_STORE_ADDTID_B32).
inline constexpr bool is_flat_addtid(Op op) {
  return op == Op::load_addtid_b32 || op == Op::store_addtid_b32;
}
// gfx12's transposing loads of a 16x16 matrix of 16-bit (b128) or 8-bit (b64) elements into the
// WMMA operand layout (RDNA4 ISA manual, 11.6 "WMMA Matrix Load Ops with Transpose").
inline constexpr bool is_load_transpose(Op op) {
  return op == Op::load_tr_b128 || op == Op::load_tr_b64;
}
// FLAT-family operations that exist in the global segment only (llvm-mc-22 rejects the others).
inline constexpr bool is_global_only(Op op) {
  return is_cache_control(op) || is_flat_addtid(op) || is_load_transpose(op) ||
         op == Op::atomic_ordered_add_b64;
}
// gfx12's block moves of up to 32 VGPRs, M0 picking which (RDNA4 ISA manual, 11.5): global and
// scratch segments only.
inline constexpr bool is_block_move(Op op) {
  return op == Op::load_block || op == Op::store_block;
}
// DS operations without an ADDR operand: the address is M0[15:0] plus the offset (RDNA3 ISA
// manual, DS_APPEND/DS_CONSUME and "DS_{LOAD,STORE}_ADDTID Addressing").
inline constexpr bool ds_without_addr(Op op) {
  return op == Op::ds_append || op == Op::ds_consume || op == Op::ds_load_addtid_b32 ||
         op == Op::ds_store_addtid_b32;
}

// The ray-tracing stack operations of the LDS (ds_bvh.cpp).
inline constexpr bool is_ds_bvh_stack(Op op) {
  return op == Op::ds_bvh_stack_rtn_b32 || op == Op::ds_bvh_stack_push8_pop1_rtn_b32 ||
         op == Op::ds_bvh_stack_push8_pop2_rtn_b64;
}

// gfx12's 8-bit float conversions (RDNA4 ISA manual, 7.6.2): op_sel picks bytes or halves,
// and LLVM prints it as byte_sel or op_sel per operation.
inline constexpr bool is_f8_conversion(Op op) {
  return op == Op::v_cvt_f32_fp8 || op == Op::v_cvt_f32_bf8 || op == Op::v_cvt_pk_f32_fp8 ||
         op == Op::v_cvt_pk_f32_bf8 || op == Op::v_cvt_pk_fp8_f32 || op == Op::v_cvt_pk_bf8_f32 ||
         op == Op::v_cvt_sr_fp8_f32 || op == Op::v_cvt_sr_bf8_f32;
}
inline constexpr bool is_f8_dot(Op op) {
  return op == Op::v_dot4_f32_fp8_bf8 || op == Op::v_dot4_f32_bf8_fp8 ||
         op == Op::v_dot4_f32_fp8_fp8 || op == Op::v_dot4_f32_bf8_bf8;
}

// How an instruction was encoded: its VOP3 form prints "_e64", the short form "_e32".
enum class Encoding : uint8_t { Native, E32, E64 };
// FLAT-family segment.
enum class Segment : uint8_t { Flat = 0, Scratch = 1, Global = 2 };

// Scalar source operand codes (RDNA3 ISA manual, "SSRC" table).
namespace src {
inline constexpr uint16_t kVccLo = 106, kVccHi = 107, kNull = 124, kM0 = 125, kExecLo = 126,
                          kExecHi = 127, kConstZero = 128, kConstPos64 = 192,
                          kConstNeg1 = 193, kConstNeg16 = 208, kFloatHalf = 240,
                          kFloatInv2Pi = 248, kScc = 253, kLiteral = 255, kVgpr0 = 256;
// Aperture operands (RDNA3 ISA, "Scalar Operands"): SRC_SHARED_BASE/LIMIT, SRC_PRIVATE_BASE/LIMIT.
inline constexpr uint16_t kSharedBase = 235, kSharedLimit = 236, kPrivateBase = 237, kPrivateLimit = 238;
// Trap temporaries TTMP0..15. Kernels only read them: gfx12 delivers the work-group ids there
// ("architected SGPRs", LLVM AMDGPUUsage / SIISelLowering: TTMP9 = id x, TTMP7 = y | z << 16,
// TTMP8[29:25] = wave id in the group).
inline constexpr uint16_t kTtmp0 = 108, kTtmp7 = 115, kTtmp8 = 116, kTtmp9 = 117, kTtmp15 = 123;
}

// Data-parallel primitives: a VOP1/VOP2/VOPC/VOP3 instruction whose src0 is another lane's
// VGPR (RDNA3 ISA manual, "DPP16" and "DPP8"; field layout pinned by tests/sim/decoder_test.cpp
// against llvm-mc-22).
enum class DppKind : uint8_t { None, Dpp16, Dpp8, Dpp8Fi };
struct Dpp {
  DppKind kind = DppKind::None;
  bool bound_ctrl = false; // DPP16: an invalid source lane reads 0 (else the lane is not written)
  bool fi = false;         // DPP16: fetch disabled lanes' values
  uint8_t row_mask = 0xf, bank_mask = 0xf;
  uint16_t ctrl = 0;       // DPP16 DPP_CTRL
  uint32_t sel8 = 0;       // DPP8: eight 3-bit lane selects
};

// Image instruction operands (gfx11 MIMG, gfx12 VIMAGE/VSAMPLE): the vdata VGPR is Inst::dst,
// the resource's first SGPR src[1] and the sampler's src[2].
struct ImageOperands {
  uint8_t dim = 0;   // the DIM field: 0 1D, 1 2D, 2 3D, 3 cube, 4 1D array, 5 2D array, 6/7 MSAA
  uint8_t dmask = 0; // which components are read or written
  uint8_t naddr = 0; // address VGPRs
  uint8_t vaddr[5] = {0, 0, 0, 0, 0}; // NSA: one VGPR each; else vaddr[0] starts a range
  bool nsa = false;  // the addresses are listed (gfx11 NSA, always on gfx12)
  bool unorm = false, a16 = false, d16 = false, tfe = false, lwe = false, r128 = false;
};
// The image address VGPR of component `i`.
inline unsigned image_vaddr(const ImageOperands& m, unsigned i) {
  if (!m.nsa) return m.vaddr[0] + i;
  const unsigned last = 4; // gfx12: the fifth field starts a range of the rest
  return i < last ? m.vaddr[i] : m.vaddr[last] + (i - last);
}

struct Inst {
  Op op = Op::kCount;
  Gfx gfx = Gfx::v11;
  Format format = Format::SOPP;
  Encoding encoding = Encoding::Native;
  bool cmpx = false;     // VOPC writing EXEC
  bool wmma = false;     // VOP3P WMMA/SWMMAC, decided once at decode (wmma_layout.h is_wmma)
  uint8_t size = 4;      // bytes, including a literal
  uint16_t dst = 0;      // operand code (SGPR/VGPR via src:: numbering; VGPRs as 256 + n)
  uint16_t sdst = src::kNull; // VOP3SD carry-out / VOPC destination
  uint16_t src[3] = {0, 0, 0};
  uint32_t literal = 0;
  int32_t imm = 0;       // SOPP/SOPK simm16, SMEM/FLAT/DS offset
  uint16_t soffset = src::kNull; // SMEM soffset / FLAT saddr
  // opsel: VOP3 op_sel / true16 high halves (bit 0..2 sources, bit 3 destination);
  // opsel_hi and neg_hi: VOP3P's second halves.
  uint8_t abs = 0, neg = 0, opsel = 0, omod = 0, opsel_hi = 7, neg_hi = 0;
  bool clamp = false;
  bool glc = false, slc = false, dlc = false;
  uint8_t th = 0, scope = 0; // gfx12 temporal hint and coherence scope (VMEM/SMEM)
  bool nv = false;           // gfx12 SMEM non-volatile hint
  Segment segment = Segment::Flat;
  uint8_t offset1 = 0;   // DS second offset
  bool has_vdst_data = false; // atomics with return
  // A 16-bit VOP3 operation LLVM reads without op_sel (whole registers named, halves ignored):
  // see vop3_without_opsel.
  bool fake16 = false;
  // VOPD: the Y half of a dual-issue pair (the X half uses op/dst/src[0..1]).
  Op op_y = Op::kCount;
  uint16_t dst_y = 0;
  uint16_t src_y[2] = {0, 0};
  Dpp dpp;
  ImageOperands img;
};

// VOPD opcode fields map onto these VOP2/VOP1 operations (RDNA3 ISA manual, "VOPD").
Op vopd_op(unsigned code);

// The whole opcode table (for tests that check it against LLVM).
std::span<const OpInfo> all_ops();

// Comparison predicate names of VOPC families, indexed by Inst::imm.
const char* vopc_predicate(Op family, unsigned predicate);

// Decodes one instruction from `words` (at least 1 dword; literals need more). Returns
// nothing when the encoding or opcode is one amcl does not implement; `why` says which.
std::optional<Inst> decode(std::span<const uint32_t> words, Gfx gfx, std::string* why = nullptr);
inline std::optional<Inst> decode(std::span<const uint32_t> words, std::string* why = nullptr) {
  return decode(words, Gfx::v11, why);
}

// Prints an instruction in llvm-objdump-22's syntax for its generation (used by the
// decode-agreement tests and for naming an instruction in a fault). Wave64 code names its vector
// lane masks as SGPR pairs (vcc, s[4:5]) where wave32 code names one SGPR (vcc_lo, s4), as objdump
// --mattr=+wavefrontsize64 does.
std::string disassemble(const Inst& inst, bool wave64 = false);

} // namespace sim::shader
