// Prints a decoded instruction exactly as llvm-objdump-22 prints it for gfx1100 or gfx1201, so
// that the decoder can be checked against LLVM's disassembler instruction by instruction.
#include "image_isa.h"
#include "isa.h"
#include "wmma_layout.h"

#include <cstdio>
#include <iterator>
#include <utility>
#include <string>

namespace sim::shader {
namespace {

std::string hex(uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%x", v);
  return buf;
}

std::string reg_range(const char* kind, unsigned first, unsigned dwords) {
  if (dwords <= 1) return kind + std::to_string(first);
  return std::string(kind) + "[" + std::to_string(first) + ":" + std::to_string(first + dwords - 1) + "]";
}

// LLVM prints a literal as lit(...) when an inline constant could have encoded the same value,
// so that the text still says which encoding was used.
bool inlinable32(uint32_t v) {
  if (v <= 64 || v >= 0xfffffff0u) return true;
  switch (v) {
  case 0x3f000000: case 0xbf000000: case 0x3f800000: case 0xbf800000: case 0x40000000:
  case 0xc0000000: case 0x40800000: case 0xc0800000: case 0x3e22f983: return true;
  default: return false;
  }
}

// How 16-bit VGPR operands print: gfx11 code is true16 (vN.l / vN.h); LLVM 22 compiles gfx12 as
// "fake16", whose text names the whole register (the high-half bit is part of the number).
thread_local bool g_true16 = true;
// Whether a fake16 16-bit operand's high half is part of its register number (the short
// encodings) or op_sel's business (VOP3).
thread_local bool g_high_in_number = true;

// `width` is the operand's size in dwords, or kHalf; `high` selects vN.h for halves.
std::string operand(uint16_t code, uint8_t width, uint32_t literal, bool high = false) {
  const unsigned dwords = regs_of(width ? width : 1);
  if (code >= src::kVgpr0) {
    if (is_half(width) && !g_true16)
      return "v" + std::to_string((code - src::kVgpr0) | (high && g_high_in_number ? 0x80 : 0));
    std::string r = reg_range("v", code - src::kVgpr0, dwords);
    if (is_half(width)) r += high ? ".h" : ".l";
    return r;
  }
  if (code <= 105) return reg_range("s", code, dwords);
  switch (code) {
  case src::kVccLo: return dwords == 2 ? "vcc" : "vcc_lo";
  case src::kVccHi: return "vcc_hi";
  case src::kNull: return "null";
  case src::kM0: return "m0";
  case src::kExecLo: return dwords == 2 ? "exec" : "exec_lo";
  case src::kExecHi: return "exec_hi";
  case src::kScc: return "src_scc";
  case src::kSharedBase: return "src_shared_base";
  case src::kSharedLimit: return "src_shared_limit";
  case src::kPrivateBase: return "src_private_base";
  case src::kPrivateLimit: return "src_private_limit";
  case src::kLiteral:
    if (is_half(width)) return hex(literal & 0xffff);
    return dwords == 1 && inlinable32(literal) ? "lit(" + hex(literal) + ")" : hex(literal);
  default: break;
  }
  if (code >= 108 && code <= 123) return reg_range("ttmp", code - 108, dwords);
  if (code >= src::kConstZero && code <= src::kConstPos64) return std::to_string(code - src::kConstZero);
  if (code >= src::kConstNeg1 && code <= src::kConstNeg16)
    return std::to_string(-int(code - src::kConstNeg1 + 1));
  static const char* const kFloats[] = {"0.5", "-0.5", "1.0", "-1.0", "2.0",
                                        "-2.0", "4.0", "-4.0", "0.15915494"};
  if (code >= src::kFloatHalf && code <= src::kFloatInv2Pi) return kFloats[code - 240];
  return "<src " + std::to_string(code) + ">";
}

std::string src_with_mods(const Inst& in, unsigned i, uint8_t width) {
  std::string s = operand(in.src[i], width, in.literal, (in.opsel >> i) & 1);
  if (integer_sources(in.op) & (1u << i)) return s;
  if (in.abs & (1u << i)) s = "|" + s + "|";
  if (in.neg & (1u << i)) s = "-" + s;
  return s;
}

std::string bit_list(unsigned bits, unsigned n) {
  std::string s = "[";
  for (unsigned i = 0; i < n; ++i) s += std::string(i ? "," : "") + std::to_string((bits >> i) & 1);
  return s + "]";
}

std::string waitcnt(int simm) {
  unsigned v = unsigned(simm) & 0xffff;
  unsigned vm = (v >> 10) & 0x3f, lgkm = (v >> 4) & 0x3f, exp = v & 7;
  std::string s;
  auto add = [&](const char* n, unsigned val) {
    s += std::string(s.empty() ? "" : " ") + n + "(" + std::to_string(val) + ")";
  };
  if (vm != 0x3f) add("vmcnt", vm);
  if (exp != 7) add("expcnt", exp);
  if (lgkm != 0x3f) add("lgkmcnt", lgkm);
  return s.empty() ? "vmcnt(63) expcnt(7) lgkmcnt(63)" : s;
}

// s_waitcnt_depctr fields (AMDGPU's DepCtr encoding); only non-default ones are printed.
std::string depctr(int simm) {
  struct Field { const char* name; unsigned shift, width, dflt; };
  static constexpr Field kFields[] = {{"depctr_hold_cnt", 7, 1, 1}, {"depctr_sa_sdst", 0, 1, 1},
                                      {"depctr_va_vdst", 12, 4, 15}, {"depctr_va_sdst", 9, 3, 7},
                                      {"depctr_va_ssrc", 8, 1, 1}, {"depctr_va_vcc", 1, 1, 1},
                                      {"depctr_vm_vsrc", 2, 3, 7}};
  unsigned v = unsigned(simm) & 0xffff;
  std::string s;
  for (const Field& f : kFields) {
    unsigned val = (v >> f.shift) & ((1u << f.width) - 1);
    if (val != f.dflt) s += std::string(s.empty() ? "" : " ") + f.name + "(" + std::to_string(val) + ")";
  }
  return s.empty() ? hex(v) : s;
}

std::string delay_alu(int simm) {
  static const char* const kId[] = {"NO_DEP",        "VALU_DEP_1",    "VALU_DEP_2",
                                    "VALU_DEP_3",    "VALU_DEP_4",    "TRANS32_DEP_1",
                                    "TRANS32_DEP_2", "TRANS32_DEP_3", "FMA_ACCUM_CYCLE_1",
                                    "SALU_CYCLE_1",  "SALU_CYCLE_2",  "SALU_CYCLE_3"};
  static const char* const kSkip[] = {"SAME", "NEXT", "SKIP_1", "SKIP_2", "SKIP_3", "SKIP_4"};
  unsigned v = unsigned(simm) & 0xffff;
  if (v == 0) return "0";
  unsigned id0 = v & 0xf, skip = (v >> 4) & 7, id1 = (v >> 7) & 0xf;
  auto id = [&](unsigned x) { return x < 12 ? std::string(kId[x]) : std::to_string(x); };
  std::string s = "instid0(" + id(id0) + ")";
  if (skip) s += " | instskip(" + (skip < 6 ? std::string(kSkip[skip]) : std::to_string(skip)) + ")";
  if (id1) s += " | instid1(" + id(id1) + ")";
  return s;
}

// s_sendmsg's message (AMDGPU's SendMsg encoding: the id in [7:0]); LLVM names the ones it
// knows on gfx11/gfx12.
std::string sendmsg(int simm) {
  const unsigned v = unsigned(simm) & 0xffff;
  if (v > 0xff) return std::to_string(v);
  switch (v) {
  case 1: return "sendmsg(MSG_INTERRUPT)";
  case 2: return "sendmsg(MSG_HS_TESSFACTOR)";
  case 3: return "sendmsg(MSG_DEALLOC_VGPRS)";
  case 9: return "sendmsg(MSG_GS_ALLOC_REQ)";
  case 0x80: return "sendmsg(MSG_RTN_GET_DOORBELL)";
  default: return "sendmsg(" + std::to_string(v) + ", 0, 0)";
  }
}

// s_sendmsg_rtn's message (LLVM's names for the ones that return a value).
std::string sendmsg_rtn(unsigned id) {
  static const char* const kNames[] = {"MSG_RTN_GET_DOORBELL", "MSG_RTN_GET_DDID",
                                       "MSG_RTN_GET_TMA",      "MSG_RTN_GET_REALTIME",
                                       "MSG_RTN_SAVE_WAVE",    "MSG_RTN_GET_TBA",
                                       "MSG_RTN_GET_TBA_TO_PC"};
  if (id >= 0x80 && id < 0x80 + std::size(kNames)) return std::string("sendmsg(") + kNames[id - 0x80] + ")";
  return "sendmsg(" + std::to_string(id) + ", 0, 0)";
}

// s_getreg/s_setreg's hwreg(id, offset, size) operand: simm16 [5:0], [10:6], [15:11] + 1; the
// whole register prints without offset and size. Names as LLVM 22 gives them per generation.
std::string hwreg(const Inst& in) {
  const unsigned v = unsigned(in.imm) & 0xffff, id = v & 0x3f, off = (v >> 6) & 0x1f,
                 size = (v >> 11) + 1;
  static const std::pair<unsigned, const char*> k11[] = {
      {1, "HW_REG_MODE"}, {2, "HW_REG_STATUS"}, {3, "HW_REG_TRAPSTS"}, {5, "HW_REG_GPR_ALLOC"},
      {6, "HW_REG_LDS_ALLOC"}, {7, "HW_REG_IB_STS"}, {15, "HW_REG_SH_MEM_BASES"},
      {18, "HW_REG_PERF_SNAPSHOT_PC_LO"}, {19, "HW_REG_PERF_SNAPSHOT_PC_HI"},
      {20, "HW_REG_FLAT_SCR_LO"}, {21, "HW_REG_FLAT_SCR_HI"}, {23, "HW_REG_HW_ID1"},
      {24, "HW_REG_HW_ID2"}, {27, "HW_REG_PERF_SNAPSHOT_DATA"}, {29, "HW_REG_SHADER_CYCLES"}};
  static const std::pair<unsigned, const char*> k12[] = {
      {1, "HW_REG_WAVE_MODE"}, {2, "HW_REG_WAVE_STATUS"}, {4, "HW_REG_WAVE_STATE_PRIV"},
      {5, "HW_REG_WAVE_GPR_ALLOC"}, {6, "HW_REG_WAVE_LDS_ALLOC"}, {7, "HW_REG_IB_STS"},
      {10, "HW_REG_PERF_SNAPSHOT_DATA"}, {11, "HW_REG_PERF_SNAPSHOT_PC_LO"},
      {12, "HW_REG_PERF_SNAPSHOT_PC_HI"}, {15, "HW_REG_PERF_SNAPSHOT_DATA1"},
      {16, "HW_REG_PERF_SNAPSHOT_DATA2"}, {17, "HW_REG_WAVE_EXCP_FLAG_PRIV"},
      {18, "HW_REG_WAVE_EXCP_FLAG_USER"}, {19, "HW_REG_WAVE_TRAP_CTRL"},
      {20, "HW_REG_WAVE_SCRATCH_BASE_LO"}, {21, "HW_REG_WAVE_SCRATCH_BASE_HI"},
      {23, "HW_REG_WAVE_HW_ID1"}, {24, "HW_REG_WAVE_HW_ID2"}, {26, "HW_REG_WAVE_SCHED_MODE"},
      {29, "HW_REG_SHADER_CYCLES_LO"}, {30, "HW_REG_SHADER_CYCLES_HI"},
      {31, "HW_REG_WAVE_DVGPR_ALLOC_LO"}, {32, "HW_REG_WAVE_DVGPR_ALLOC_HI"}};
  std::string name = std::to_string(id);
  if (in.gfx == Gfx::v11) {
    for (const auto& [n, s] : k11) if (n == id) name = s;
  } else {
    for (const auto& [n, s] : k12) if (n == id) name = s;
  }
  if (off == 0 && size == 32) return "hwreg(" + name + ")";
  return "hwreg(" + name + ", " + std::to_string(off) + ", " + std::to_string(size) + ")";
}

// s_version's code-object version: a named generation and the wave-size and MDP bits, or hex
// when other bits are set (LLVM's printing).
std::string uc_version(int simm) {
  const unsigned v = unsigned(simm) & 0xffff;
  if (v & 0x1f00) return hex(v);
  std::string s;
  switch (v & 0xff) {
  case 0: s = "UC_VERSION_GFX7"; break;
  case 4: s = "UC_VERSION_GFX10"; break;
  case 6: s = "UC_VERSION_GFX11"; break;
  case 9: s = "UC_VERSION_GFX12"; break;
  default: s = std::to_string(v & 0xff);
  }
  bool first = true;
  static const char* const kBits[] = {"UC_VERSION_W64_BIT", "UC_VERSION_W32_BIT", "UC_VERSION_MDP_BIT"};
  for (unsigned b = 0; b < 3; ++b)
    if (v & (0x2000u << b)) {
      if (!first) s = "(" + s + ")";
      s += std::string("|") + kBits[b];
      first = false;
    }
  return s;
}

// gfx12's scalar f16 arithmetic and compares (s_add_f16 .. s_maximum_f16, s_cmp_*_f16).
bool salu_f16_sources(const Inst& in) {
  if (in.gfx != Gfx::v12) return false;
  const auto code = op_code(in.op, in.gfx);
  if (!code) return false;
  if (in.format == Format::SOP2) return (*code >= 73 && *code <= 78) || *code == 81 || *code == 82;
  return in.format == Format::SOPC && *code >= 81 && *code <= 94;
}
constexpr uint16_t kSaluInlineF16[] = {0x3800, 0xb800, 0x3c00, 0xbc00, 0x4000,
                                       0xc000, 0x4400, 0xc400, 0x3118};

std::string cache_bits(const Inst& in) {
  std::string s;
  if (in.glc) s += " glc";
  if (in.slc) s += " slc";
  if (in.dlc) s += " dlc";
  return s;
}

// gfx12's temporal hint and scope operands (LLVM's names; SCOPE_CU and TH 0 are defaults).
std::string th_scope(const Inst& in, bool atomic, bool store) {
  static const char* const kLoad[] = {"", "TH_LOAD_NT", "TH_LOAD_HT", "TH_LOAD_LU",
                                      "TH_LOAD_NT_RT", "TH_LOAD_RT_NT", "TH_LOAD_NT_HT", "0x7"};
  static const char* const kStore[] = {"", "TH_STORE_NT", "TH_STORE_HT", "TH_STORE_WB",
                                       "TH_STORE_NT_RT", "TH_STORE_RT_NT", "TH_STORE_NT_HT", "TH_STORE_NT_WB"};
  static const char* const kAtomic[] = {"", "TH_ATOMIC_RETURN", "TH_ATOMIC_NT", "TH_ATOMIC_NT_RETURN",
                                        "TH_ATOMIC_0x4", "TH_ATOMIC_0x5", "TH_ATOMIC_0x6", "TH_ATOMIC_0x7"};
  static const char* const kScope[] = {"", "SCOPE_SE", "SCOPE_DEV", "SCOPE_SYS"};
  std::string th = atomic ? kAtomic[in.th & 7] : store ? kStore[in.th & 7] : kLoad[in.th & 7];
  if (!atomic && (in.th & 7) == 3 && in.scope == 3) th = store ? "TH_STORE_BYPASS" : "TH_LOAD_BYPASS";
  std::string s;
  if (!th.empty()) s += " th:" + th;
  if (in.scope) s += std::string(" scope:") + kScope[in.scope & 3];
  return s;
}

std::string smem_offset(const Inst& in) {
  if (in.gfx == Gfx::v12) {
    if (in.soffset != src::kNull) return operand(in.soffset, 1, 0) + " offset:" + hex(uint32_t(in.imm) & 0xffffff);
    return in.imm < 0 ? "-" + hex(uint32_t(-in.imm)) : hex(uint32_t(in.imm));
  }
  if (in.soffset == src::kNull) return in.imm ? hex(uint32_t(in.imm) & 0x1fffff) : "null";
  std::string s = operand(in.soffset, 1, 0);
  if (in.imm) s += " offset:" + hex(uint32_t(in.imm) & 0x1fffff);
  return s;
}

std::string print_flat(const Inst& in, const OpInfo& info) {
  static const char* const kSeg[] = {"flat_", "scratch_", "global_"};
  const std::string name = kSeg[unsigned(in.segment)] + std::string(op_name(in.op, in.gfx));
  if (is_cache_control(in.op)) return name + th_scope(in, false, false);
  const bool is_store = info.dst_dwords == 0;
  const bool is_atomic = name.find("atomic") != std::string::npos;
  std::string addr;
  if (is_flat_addtid(in.op)) // no VADDR: "global_load_addtid_b32 v4, off"
    addr = "";
  else if (in.segment == Segment::Scratch)
    addr = in.src[0] == src::kNull ? "off" : operand(in.src[0], 1, 0);
  else
    addr = operand(in.src[0], in.segment == Segment::Global && in.soffset != src::kNull ? 1 : 2, 0);
  std::string saddr;
  if (in.segment != Segment::Flat)
    saddr = in.soffset == src::kNull ? "off" : operand(in.soffset, in.segment == Segment::Global ? 2 : 1, 0);
  // d16 data are printed as whole registers.
  const std::string data = operand(in.src[1], uint8_t(regs_of(info.src_dwords[0])), 0);
  std::string s = name + " ";
  if (is_atomic) {
    if (in.has_vdst_data) s += operand(in.dst, uint8_t(regs_of(info.dst_dwords)), 0) + ", ";
    s += addr + ", " + data;
  } else if (is_store) {
    s += addr.empty() ? data : addr + ", " + data;
  } else {
    s += operand(in.dst, uint8_t(regs_of(info.dst_dwords)), 0) + (addr.empty() ? "" : ", " + addr);
  }
  if (!saddr.empty()) s += ", " + saddr;
  if (in.imm) s += " offset:" + std::to_string(in.imm);
  if (in.gfx == Gfx::v12) return s + th_scope(in, is_atomic, is_store);
  return s + cache_bits(in);
}

std::string print_ds(const Inst& in, const OpInfo& info) {
  if (in.op == Op::ds_nop) return op_name(in.op, in.gfx);
  std::string s = std::string(op_name(in.op, in.gfx)) + " ";
  std::string ops;
  if (info.dst_dwords) ops = operand(in.dst, info.dst_dwords, 0);
  if (!ds_without_addr(in.op)) ops += (ops.empty() ? "" : ", ") + operand(in.src[0], 1, 0);
  if (info.src_dwords[0])
    ops += (ops.empty() ? "" : ", ") + operand(in.src[1], info.src_dwords[0], 0);
  s += ops;
  if (info.src_dwords[1]) s += ", " + operand(in.src[2], info.src_dwords[1], 0);
  const std::string n = info.name;
  const bool two = n.find("2addr") != std::string::npos;
  if (in.op == Op::ds_swizzle_b32) {
    if (in.imm) s += " offset:" + hex(uint32_t(in.imm));
  } else if (two) {
    if (in.imm) s += " offset0:" + std::to_string(in.imm);
    if (in.offset1) s += " offset1:" + std::to_string(in.offset1);
  } else if (in.imm || in.offset1) {
    s += " offset:" + std::to_string(in.imm | (in.offset1 << 8));
  }
  return s;
}

// One half of a VOPD pair: "v_dual_<op> vdst, src0[, vsrc1]" with fmaak/fmamk's constant.
std::string print_dual(Gfx gfx, Op op, uint16_t dst, uint16_t src0, uint16_t src1, uint32_t literal) {
  const std::string name = op_name(op, gfx);
  std::string s = "v_dual_" + name.substr(2) + " " + operand(dst, 1, 0) + ", " +
                  (src0 == src::kLiteral ? hex(literal) : operand(src0, 1, literal));
  if (op == Op::v_fmamk_f32) return s + ", " + hex(literal) + ", " + operand(src1, 1, 0);
  if (op == Op::v_mov_b32) return s;
  s += ", " + operand(src1, 1, 0);
  if (op == Op::v_fmaak_f32) s += ", " + hex(literal);
  return s;
}

// The matrix operations: register ranges of their sizes (wave32's, as llvm-objdump-22 prints
// them), no op_sel_hi but on gfx11's 16-bit results (where op_sel[2] picks C's and D's halves).
std::string print_wmma(const Inst& in) {
  const WmmaRegs r = wmma_regs(in.op, in.gfx, false);
  std::string s = std::string(op_name(in.op, in.gfx)) + " " + operand(in.dst, uint8_t(r.d), 0) +
                  ", " + operand(in.src[0], uint8_t(r.a), 0) + ", " +
                  operand(in.src[1], uint8_t(r.b), 0) + ", " +
                  operand(in.src[2], uint8_t(r.c), in.literal);
  const bool half_out = in.gfx == Gfx::v11 && wmma_bits(wmma_shape(in.op).out) == 16;
  if (wmma_shape(in.op).sparse) {
    if (in.opsel & 3) s += " index_key:" + std::to_string(in.opsel & 3);
  } else if (in.opsel & 7) {
    s += " op_sel:" + bit_list(in.opsel, 3);
  }
  if (half_out && (in.opsel_hi & 7) != 7) s += " op_sel_hi:" + bit_list(in.opsel_hi, 3);
  if (in.neg & 7) s += " neg_lo:" + bit_list(in.neg, 3);
  if (in.neg_hi & 7) s += " neg_hi:" + bit_list(in.neg_hi, 3);
  if (in.clamp) s += " clamp";
  return s;
}

std::string print_vop3p(const Inst& in, const OpInfo& info) {
  if (is_wmma(in.op)) return print_wmma(in);
  const bool mix = in.op == Op::v_fma_mix_f32 || in.op == Op::v_fma_mixlo_f16 ||
                   in.op == Op::v_fma_mixhi_f16;
  const unsigned nsrc = info.src_dwords[2] ? 3 : 2;
  std::string s = std::string(op_name(in.op, in.gfx)) + " " + operand(in.dst, 1, 0);
  for (unsigned i = 0; i < nsrc; ++i) {
    std::string o = operand(in.src[i], 1, in.literal);
    if (mix) { // neg/abs apply per operand; neg_hi is abs for mixed precision
      if (in.neg_hi & (1u << i)) o = "|" + o + "|";
      if (in.neg & (1u << i)) o = "-" + o;
    }
    s += ", " + o;
  }
  const unsigned all = (1u << nsrc) - 1;
  // The integer dot products have no op_sel_hi (LLVM prints none).
  const bool int_dot = in.op == Op::v_dot4_i32_iu8 || in.op == Op::v_dot4_u32_u8 ||
                       in.op == Op::v_dot8_i32_iu4 || in.op == Op::v_dot8_u32_u4;
  if (in.opsel & all) s += " op_sel:" + bit_list(in.opsel, nsrc);
  if (int_dot) {
  } else if (mix ? (in.opsel_hi & all) != 0 : (in.opsel_hi & all) != all)
    s += " op_sel_hi:" + bit_list(in.opsel_hi, nsrc);
  if (!mix && (in.neg & all)) s += " neg_lo:" + bit_list(in.neg, nsrc);
  if (!mix && (in.neg_hi & all)) s += " neg_hi:" + bit_list(in.neg_hi, nsrc);
  if (in.clamp) s += " clamp";
  return s;
}

std::string dpp_text(const Dpp& d);

// The DPP operands as LLVM prints them after the instruction's own operands.
std::string dpp_text(const Dpp& d) {
  if (d.kind == DppKind::Dpp8 || d.kind == DppKind::Dpp8Fi) {
    std::string s = " dpp8:[";
    for (unsigned i = 0; i < 8; ++i) s += (i ? "," : "") + std::to_string((d.sel8 >> (3 * i)) & 7);
    return s + "]" + (d.kind == DppKind::Dpp8Fi ? " fi:1" : "");
  }
  const unsigned c = d.ctrl, n = c & 15;
  std::string s;
  if (c <= 0xff)
    s = " quad_perm:[" + std::to_string(c & 3) + "," + std::to_string((c >> 2) & 3) + "," +
        std::to_string((c >> 4) & 3) + "," + std::to_string((c >> 6) & 3) + "]";
  else if ((c & ~15u) == 0x100) s = " row_shl:" + std::to_string(n);
  else if ((c & ~15u) == 0x110) s = " row_shr:" + std::to_string(n);
  else if ((c & ~15u) == 0x120) s = " row_ror:" + std::to_string(n);
  else if (c == 0x140) s = " row_mirror";
  else if (c == 0x141) s = " row_half_mirror";
  else if ((c & ~15u) == 0x150) s = " row_share:" + std::to_string(n);
  else if ((c & ~15u) == 0x160) s = " row_xmask:" + std::to_string(n);
  else s = " dpp_ctrl:" + hex(c);
  s += " row_mask:" + hex(d.row_mask) + " bank_mask:" + hex(d.bank_mask);
  if (d.bound_ctrl) s += " bound_ctrl:1";
  if (d.fi) s += " fi:1";
  return s;
}

// The 8-bit float conversions' operands and selects: byte_sel N for one byte (the converts to
// f32 number it with op_sel's two bits swapped, RDNA4 ISA manual V_CVT_F32_FP8), op_sel for
// halves, as llvm-objdump-22 prints them.
std::string f8_operands(const Inst& in, const OpInfo& info) {
  std::string s = operand(in.dst, uint8_t(regs_of(info.dst_dwords)), 0);
  const unsigned nsrc = info.src_dwords[1] ? 2 : 1;
  for (unsigned i = 0; i < nsrc; ++i)
    s += ", " + src_with_mods(in, i, is_half(info.src_dwords[i]) ? kHalf : uint8_t(1));
  if (in.encoding == Encoding::E32) return s;
  unsigned byte = 0;
  switch (in.op) {
  case Op::v_cvt_f32_fp8: case Op::v_cvt_f32_bf8:
    byte = (in.opsel & 1) << 1 | ((in.opsel >> 1) & 1);
    break;
  case Op::v_cvt_sr_fp8_f32: case Op::v_cvt_sr_bf8_f32:
    byte = (in.opsel >> 2) & 3;
    break;
  default: {
    const unsigned list = (in.opsel & ((1u << nsrc) - 1)) | ((in.opsel >> 3) & 1) << nsrc;
    if (list) s += " op_sel:" + bit_list(list, nsrc + 1);
    return s;
  }
  }
  if (byte) s += " byte_sel:" + std::to_string(byte);
  return s;
}

std::string vopc_name(const Inst& in) {
  const std::string family = op_name(in.op, in.gfx); // "v_cmp_f32" or "v_cmp_class_f32"
  const std::string prefix = in.cmpx ? "v_cmpx_" : "v_cmp_";
  const std::string type = family.substr(family.rfind('_') + 1);
  return prefix + vopc_predicate(in.op, unsigned(in.imm)) + "_" + type;
}

} // namespace

std::string disassemble(const Inst& in, bool wave64) {
  const OpInfo& info = op_info(in.op);
  // Lane-mask operands of vector instructions: one SGPR per wave32, a pair per wave64.
  const uint8_t mask_width = wave64 ? 2 : 1;
  const std::string vcc = wave64 ? "vcc" : "vcc_lo";
  std::string name = op_name(in.op, in.gfx);
  g_true16 = in.gfx == Gfx::v11 && !in.fake16;
  g_high_in_number = in.encoding == Encoding::E32;
  switch (in.format) {
  case Format::SOP2:
    if (is_fmamk(in.op))
      return name + " " + operand(in.dst, 1, 0) + ", " + operand(in.src[0], 1, in.literal) + ", " +
             hex(in.literal) + ", " + operand(in.src[1], 1, in.literal);
    if (is_fmaak(in.op))
      return name + " " + operand(in.dst, 1, 0) + ", " + operand(in.src[0], 1, in.literal) + ", " +
             operand(in.src[1], 1, in.literal) + ", " + hex(in.literal);
    if (salu_f16_sources(in)) // a literal is a 16-bit constant
      return name + " " + operand(in.dst, 1, 0) + ", " + operand(in.src[0], kHalf, in.literal) +
             ", " + operand(in.src[1], kHalf, in.literal);
    return name + " " + operand(in.dst, info.dst_dwords, 0) + ", " +
           operand(in.src[0], info.src_dwords[0], in.literal) + ", " +
           operand(in.src[1], info.src_dwords[1], in.literal);
  case Format::SOP1:
    if (in.op == Op::s_getpc_b64) return name + " " + operand(in.dst, 2, 0);
    if (in.op == Op::s_setpc_b64) return name + " " + operand(in.src[0], 2, 0);
    if (in.op == Op::s_barrier_signal || in.op == Op::s_barrier_signal_isfirst) return name + " " + operand(in.src[0], 1, in.literal);
    if (in.op == Op::s_rfe_b64) return name + " " + operand(in.src[0], 2, in.literal);
    if (in.op == Op::s_sleep_var) return name + " " + operand(in.src[0], 1, in.literal);
    if (in.op == Op::s_sendmsg_rtn_b32 || in.op == Op::s_sendmsg_rtn_b64)
      return name + " " + operand(in.dst, info.dst_dwords, 0) + ", " + sendmsg_rtn(in.src[0]);
    return name + " " + operand(in.dst, info.dst_dwords, 0) + ", " +
           operand(in.src[0], info.src_dwords[0], in.literal);
  case Format::SOPC:
    if (salu_f16_sources(in)) { // LLVM 22 prints inline float constants as their f16 bits here
      auto half = [&](uint16_t code) {
        return code >= src::kFloatHalf && code <= src::kFloatInv2Pi ? hex(kSaluInlineF16[code - 240])
                                                                    : operand(code, kHalf, in.literal);
      };
      return name + " " + half(in.src[0]) + ", " + half(in.src[1]);
    }
    return name + " " + operand(in.src[0], info.src_dwords[0], in.literal) + ", " +
           operand(in.src[1], info.src_dwords[1], in.literal);
  case Format::SOPK:
    switch (in.op) {
    case Op::s_version: return name + " " + uc_version(in.imm);
    case Op::s_getreg_b32: return name + " " + operand(in.dst, 1, 0) + ", " + hwreg(in);
    case Op::s_setreg_b32: return name + " " + hwreg(in) + ", " + operand(in.dst, 1, 0);
    case Op::s_setreg_imm32_b32: return name + " " + hwreg(in) + ", " + hex(in.literal);
    case Op::s_call_b64:
      return name + " " + operand(in.dst, 2, 0) + ", " + std::to_string(uint32_t(in.imm) & 0xffff);
    default: break;
    }
    return name + " " + operand(in.dst, 1, 0) + ", " + hex(uint32_t(in.imm) & 0xffff);
  case Format::SOPP:
    switch (in.op) {
    case Op::s_barrier: case Op::s_code_end: case Op::s_wait_idle: case Op::s_endpgm_saved:
    case Op::s_endpgm_ordered_ps_done: case Op::s_wakeup: case Op::s_ttracedata:
    case Op::s_icache_inv:
      return name;
    case Op::s_endpgm:
      return in.imm ? name + " " + std::to_string(uint32_t(in.imm) & 0xffff) : name;
    case Op::s_waitcnt: return name + " " + waitcnt(in.imm);
    case Op::s_waitcnt_depctr: return name + " " + depctr(in.imm);
    case Op::s_delay_alu: return name + " " + delay_alu(in.imm);
    case Op::s_wait_loadcnt: case Op::s_wait_storecnt: case Op::s_wait_samplecnt:
    case Op::s_wait_bvhcnt: case Op::s_wait_expcnt: case Op::s_wait_dscnt: case Op::s_wait_kmcnt:
    case Op::s_wait_loadcnt_dscnt: case Op::s_wait_storecnt_dscnt:
      return name + " " + hex(uint32_t(in.imm) & 0xffff);
    case Op::s_barrier_wait: {
      const uint32_t v = uint32_t(in.imm) & 0xffff;
      return name + " " + (v <= 64 ? std::to_string(v) : hex(v));
    }
    case Op::s_sendmsg: return name + " " + sendmsg(in.imm);
    case Op::s_clause: case Op::s_set_inst_prefetch_distance: return name + " " + hex(uint32_t(in.imm) & 0xffff);
    case Op::s_sendmsghalt: return name + " " + sendmsg(in.imm);
    case Op::s_wait_event: case Op::s_round_mode: case Op::s_ttracedata_imm:
      return name + " " + hex(uint32_t(in.imm) & 0xffff);
    case Op::s_branch: case Op::s_cbranch_scc0: case Op::s_cbranch_scc1: case Op::s_cbranch_vccz:
    case Op::s_cbranch_vccnz: case Op::s_cbranch_execz: case Op::s_cbranch_execnz:
    case Op::s_cbranch_cdbgsys: case Op::s_cbranch_cdbguser: case Op::s_cbranch_cdbgsys_or_user:
    case Op::s_cbranch_cdbgsys_and_user:
      return name + " " + std::to_string(uint32_t(in.imm) & 0xffff);
    default: { // s_nop, s_trap: an unsigned 16-bit value, in hex past the inline range
      const uint32_t v = uint32_t(in.imm) & 0xffff;
      return name + " " + (v <= 64 ? std::to_string(v) : hex(v));
    }
    }
  case Format::SMEM:
    switch (in.op) {
    case Op::s_dcache_inv: case Op::s_gl1_inv: return name;
    // The probes and prefetches name their sdata field as a number.
    case Op::s_atc_probe: case Op::s_atc_probe_buffer:
      return name + " " + std::to_string(in.dst) + ", " +
             operand(in.src[0], in.op == Op::s_atc_probe ? 2 : 4, 0) + ", " + smem_offset(in);
    case Op::s_prefetch_inst: case Op::s_prefetch_data: case Op::s_buffer_prefetch_data:
    case Op::s_prefetch_inst_pc_rel: case Op::s_prefetch_data_pc_rel: {
      const bool pc_rel = in.op == Op::s_prefetch_inst_pc_rel || in.op == Op::s_prefetch_data_pc_rel;
      std::string s = name + " ";
      if (!pc_rel) s += operand(in.src[0], in.op == Op::s_buffer_prefetch_data ? 4 : 2, 0) + ", ";
      return s + hex(uint32_t(in.imm) & 0xffffff) + ", " + operand(in.soffset, 1, 0) + ", " +
             std::to_string(in.dst);
    }
    default: break;
    }
    return name + " " + operand(in.dst, info.dst_dwords, 0) + ", " + operand(in.src[0], is_buffer_smem(in.op) ? 4 : 2, 0) +
           ", " + smem_offset(in) + (in.gfx == Gfx::v12 ? th_scope(in, false, false) : cache_bits(in)) +
           (in.nv ? " nv" : "");
  case Format::FLAT: return print_flat(in, info);
  case Format::DS: return print_ds(in, info);
  case Format::MUBUF: return name;
  case Format::MIMG:
    return print_image(in, in.gfx == Gfx::v12 ? th_scope(in, false, is_image_store(in.op)) : cache_bits(in));
  case Format::VOPD:
    return print_dual(in.gfx, in.op, in.dst, in.src[0], in.src[1], in.literal) + " :: " +
           print_dual(in.gfx, in.op_y, in.dst_y, in.src_y[0], in.src_y[1], in.literal);
  case Format::VOP3P: {
    if (in.dpp.kind == DppKind::None) return print_vop3p(in, info);
    std::string p = print_vop3p(in, info); // "name operands": the DPP form adds _e64_dpp
    const size_t space = p.find(' ');
    return p.substr(0, space) + "_e64_dpp" + p.substr(space) + dpp_text(in.dpp);
  }
  default: break;
  }

  // Vector ALU formats.
  if (in.format == Format::VOPC) name = vopc_name(in);
  const bool no_suffix =
      is_vop1_only(in.op) || is_vop2_only(in.op);
  const bool dpp = in.dpp.kind != DppKind::None;
  // DPP forms: _dpp and _e64_dpp, except that the short VOPC form prints no suffix at all.
  if (in.encoding == Encoding::E32 && (!no_suffix || dpp))
    name += dpp ? (in.format == Format::VOPC ? "" : "_dpp") : "_e32";
  if (in.encoding == Encoding::E64 || (dpp && in.encoding == Encoding::Native)) name += dpp ? "_e64_dpp" : "_e64";
  if (in.op == Op::v_nop || in.op == Op::v_pipeflush) return name;

  std::string s = name + " ";
  const bool e32 = in.encoding == Encoding::E32;
  if (in.format == Format::VOPC) {
    if (!in.cmpx) s += (e32 ? vcc : operand(in.sdst, mask_width, 0)) + ", ";
    return s + src_with_mods(in, 0, info.src_dwords[0]) + ", " + src_with_mods(in, 1, info.src_dwords[1]) +
           (dpp ? dpp_text(in.dpp) : "");
  }
  if (is_f8_conversion(in.op)) return s + f8_operands(in, info) + (dpp ? dpp_text(in.dpp) : "");
  if (has_scalar_dst(in.op))
    s += operand(in.dst, 1, 0);
  else
    s += operand(in.dst, info.dst_dwords, 0, (in.opsel >> 3) & 1);
  const bool carry = in.op == Op::v_add_co_ci_u32 || in.op == Op::v_sub_co_ci_u32 ||
                     in.op == Op::v_subrev_co_ci_u32;
  if (in.format == Format::VOP3SD || carry)
    s += ", " + (e32 ? vcc : operand(in.sdst, mask_width, 0));
  if (is_fmamk(in.op))
    return s + ", " + src_with_mods(in, 0, info.src_dwords[0]) + ", " + hex(in.literal) + ", " +
           src_with_mods(in, 1, info.src_dwords[1]);
  int nsrc = info.src_dwords[2] ? 3 : info.src_dwords[1] ? 2 : info.src_dwords[0] ? 1 : 0;
  if (e32 && (in.op == Op::v_cndmask_b32 || carry)) nsrc = 2;
  // The selects' and carry-ins' src2 is a lane mask.
  const bool mask_src2 = carry || in.op == Op::v_cndmask_b32 || in.op == Op::v_cndmask_b16;
  for (int i = 0; i < nsrc; ++i) {
    uint8_t width = i == 2 && mask_src2 ? mask_width : info.src_dwords[i];
    // A bf16 literal prints whole (LLVM 22 has no 16-bit bf16 literals).
    if (in.op == Op::v_dot2_bf16_bf16 && in.src[i] == src::kLiteral) width = 1;
    s += ", " + src_with_mods(in, unsigned(i), width);
  }
  if (e32 && (carry || in.op == Op::v_cndmask_b32)) s += ", " + vcc;
  if (is_fmaak(in.op)) s += ", " + hex(in.literal);
  const bool t16 = is_half(info.dst_dwords) || is_half(info.src_dwords[0]) ||
                   is_half(info.src_dwords[1]) || is_half(info.src_dwords[2]);
  // llvm-objdump-22 spells op_sel out for the 16-bit VOP3 arithmetic, not for v_cndmask_b16
  // (whose halves the .l/.h suffixes already show).
  if (!e32 && t16 && in.opsel && in.op != Op::v_cndmask_b16) {
    unsigned bits_list = (in.opsel & ((1u << nsrc) - 1)) | (((in.opsel >> 3) & 1) << nsrc);
    s += " op_sel:" + bit_list(bits_list, unsigned(nsrc) + 1);
  }
  // The row gathers' FI and BOUND_CTRL bits, which llvm-objdump prints as op_sel.
  if ((in.op == Op::v_permlane16_b32 || in.op == Op::v_permlanex16_b32 ||
       in.op == Op::v_permlane16_var_b32 || in.op == Op::v_permlanex16_var_b32) &&
      (in.opsel & 3))
    s += " op_sel:[" + std::to_string(in.opsel & 1) + "," + std::to_string((in.opsel >> 1) & 1) +
         "]";
  // LLVM prints op_sel, then clamp, then the output modifier.
  if (in.clamp) s += " clamp";
  if (in.omod) s += in.omod == 1 ? " mul:2" : in.omod == 2 ? " mul:4" : " div:2";
  if (dpp) s += dpp_text(in.dpp);
  return s;
}

} // namespace sim::shader
