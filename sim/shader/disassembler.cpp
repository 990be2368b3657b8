// Prints a decoded instruction exactly as llvm-objdump-22 prints it for gfx1100, so that the
// decoder can be checked against LLVM's disassembler instruction by instruction.
#include "isa.h"

#include <cstdio>
#include <string>

namespace sim::shader {
namespace {

std::string fmt(const char* f, long a, long b = 0) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, a, b);
  return buf;
}

std::string reg_range(char kind, unsigned first, unsigned dwords) {
  if (dwords <= 1) return std::string(1, kind) + std::to_string(first);
  return fmt("%c[%ld:", kind, first) + std::to_string(first + dwords - 1) + "]";
}

std::string operand(uint16_t code, unsigned dwords, uint32_t literal) {
  if (dwords == 0) dwords = 1;
  if (code >= src::kVgpr0) return reg_range('v', code - src::kVgpr0, dwords);
  if (code <= 105) return reg_range('s', code, dwords);
  switch (code) {
  case src::kVccLo: return dwords == 2 ? "vcc" : "vcc_lo";
  case src::kVccHi: return "vcc_hi";
  case src::kNull: return "null";
  case src::kM0: return "m0";
  case src::kExecLo: return dwords == 2 ? "exec" : "exec_lo";
  case src::kExecHi: return "exec_hi";
  case src::kScc: return "src_scc";
  case src::kLiteral: return fmt("0x%lx", literal);
  default: break;
  }
  if (code >= 108 && code <= 123) return reg_range('t', code - 108, dwords).insert(1, "tmp");
  if (code >= src::kConstZero && code <= src::kConstPos64)
    return std::to_string(code - src::kConstZero);
  if (code >= src::kConstNeg1 && code <= src::kConstNeg16)
    return std::to_string(-int(code - src::kConstNeg1 + 1));
  static const char* const kFloats[] = {"0.5", "-0.5", "1.0", "-1.0", "2.0",
                                        "-2.0", "4.0", "-4.0", "0.15915494"};
  if (code >= src::kFloatHalf && code <= src::kFloatInv2Pi) return kFloats[code - 240];
  return fmt("<src %ld>", code);
}

std::string with_mods(const Inst& in, unsigned i, unsigned dwords) {
  std::string s = operand(in.src[i], dwords, in.literal);
  if (in.abs & (1u << i)) s = "|" + s + "|";
  if (in.neg & (1u << i)) s = "-" + s;
  return s;
}

std::string waitcnt(int simm) {
  unsigned v = unsigned(simm) & 0xffff;
  unsigned vm = (v >> 10) & 0x3f, lgkm = (v >> 4) & 0x3f, exp = v & 7;
  std::string s;
  auto add = [&](const char* n, unsigned val) {
    if (!s.empty()) s += " ";
    s += std::string(n) + "(" + std::to_string(val) + ")";
  };
  if (vm != 0x3f) add("vmcnt", vm);
  if (exp != 7) add("expcnt", exp);
  if (lgkm != 0x3f) add("lgkmcnt", lgkm);
  if (s.empty()) s = "vmcnt(63) expcnt(7) lgkmcnt(63)";
  return s;
}

std::string delay_alu(int simm) {
  static const char* const kId[] = {"NO_DEP",        "VALU_DEP_1",    "VALU_DEP_2",
                                    "VALU_DEP_3",    "VALU_DEP_4",    "TRANS32_DEP_1",
                                    "TRANS32_DEP_2", "TRANS32_DEP_3", "FMA_ACCUM_CYCLE_1",
                                    "SALU_CYCLE_1",  "SALU_CYCLE_2",  "SALU_CYCLE_3"};
  static const char* const kSkip[] = {"SAME", "NEXT", "SKIP_1", "SKIP_2", "SKIP_3", "SKIP_4"};
  unsigned v = unsigned(simm) & 0xffff;
  unsigned id0 = v & 0xf, skip = (v >> 4) & 7, id1 = (v >> 7) & 0xf;
  auto id = [&](unsigned x) { return x < 12 ? std::string(kId[x]) : std::to_string(x); };
  std::string s = "instid0(" + id(id0) + ")";
  if (skip) s += " | instskip(" + (skip < 6 ? std::string(kSkip[skip]) : std::to_string(skip)) + ")";
  if (id1) s += " | instid1(" + id(id1) + ")";
  return s;
}

std::string cache_bits(const Inst& in) {
  std::string s;
  if (in.glc) s += " glc";
  if (in.slc) s += " slc";
  if (in.dlc) s += " dlc";
  return s;
}

std::string smem_offset(const Inst& in) {
  if (in.soffset == src::kNull) return in.imm ? fmt("0x%lx", in.imm) : "null";
  std::string s = operand(in.soffset, 1, 0);
  if (in.imm) s += fmt(" offset:0x%lx", in.imm);
  return s;
}

std::string print_flat(const Inst& in, const OpInfo& info) {
  static const char* const kSeg[] = {"flat_", "scratch_", "global_"};
  std::string name = kSeg[unsigned(in.segment)] + std::string(info.name);
  bool is_store = info.dst_dwords == 0;
  bool is_atomic = name.find("atomic") != std::string::npos;
  std::string addr;
  if (in.segment == Segment::Scratch)
    addr = in.src[0] == src::kNull ? "off" : operand(in.src[0], 1, 0);
  else
    addr = operand(in.src[0], in.segment == Segment::Global && in.soffset != src::kNull ? 1 : 2, 0);
  std::string saddr;
  if (in.segment != Segment::Flat)
    saddr = in.soffset == src::kNull ? "off" : operand(in.soffset, in.segment == Segment::Global ? 2 : 1, 0);
  std::string data = operand(in.src[1], is_atomic ? info.src_dwords[0] : info.src_dwords[0], 0);
  std::string s = name + " ";
  if (is_atomic) {
    if (in.glc) s += operand(in.dst, info.dst_dwords, 0) + ", ";
    s += addr + ", " + data;
  } else if (is_store) {
    s += addr + ", " + data;
  } else {
    s += operand(in.dst, info.dst_dwords, 0) + ", " + addr;
  }
  if (!saddr.empty()) s += ", " + saddr;
  if (in.imm) s += " offset:" + std::to_string(in.imm);
  return s + cache_bits(in);
}

// One half of a VOPD pair: "v_dual_<op> vdst, src0[, vsrc1]" with fmaak/fmamk's constant.
std::string print_dual(Op op, uint16_t dst, uint16_t src0, uint16_t src1, uint32_t literal) {
  std::string name = op_info(op).name;
  std::string s = "v_dual_" + name.substr(2) + " " + operand(dst, 1, 0) + ", " + operand(src0, 1, literal);
  char k[16];
  std::snprintf(k, sizeof k, "0x%x", literal);
  if (op == Op::v_fmamk_f32) return s + ", " + k + ", " + operand(src1, 1, 0);
  if (op == Op::v_mov_b32) return s;
  s += ", " + operand(src1, 1, 0);
  if (op == Op::v_fmaak_f32) s += std::string(", ") + k;
  return s;
}

std::string print_ds(const Inst& in, const OpInfo& info) {
  std::string s = std::string(info.name) + " ";
  if (info.dst_dwords) s += operand(in.dst, info.dst_dwords, 0) + ", ";
  s += operand(in.src[0], 1, 0);
  if (info.src_dwords[0]) s += ", " + operand(in.src[1], info.src_dwords[0], 0);
  if (info.src_dwords[1]) s += ", " + operand(in.src[2], info.src_dwords[1], 0);
  bool two = in.op == Op::ds_store_2addr_b32 || in.op == Op::ds_load_2addr_b32;
  if (in.op == Op::ds_swizzle_b32) {
    s += fmt(" offset:0x%lx", in.imm);
  } else if (two) {
    if (in.imm) s += " offset0:" + std::to_string(in.imm);
    if (in.offset1) s += " offset1:" + std::to_string(in.offset1);
  } else if (in.imm || in.offset1) {
    s += " offset:" + std::to_string(in.imm | (in.offset1 << 8));
  }
  return s;
}

} // namespace

std::string disassemble(const Inst& in) {
  const OpInfo& info = op_info(in.op);
  std::string name = info.name;
  switch (in.format) {
  case Format::SOP2:
    return name + " " + operand(in.dst, info.dst_dwords, 0) + ", " +
           operand(in.src[0], info.src_dwords[0], in.literal) + ", " +
           operand(in.src[1], info.src_dwords[1], in.literal);
  case Format::SOP1:
    if (in.op == Op::s_getpc_b64) return name + " " + operand(in.dst, 2, 0);
    if (in.op == Op::s_setpc_b64) return name + " " + operand(in.src[0], 2, 0);
    return name + " " + operand(in.dst, info.dst_dwords, 0) + ", " +
           operand(in.src[0], info.src_dwords[0], in.literal);
  case Format::SOPC:
    return name + " " + operand(in.src[0], info.src_dwords[0], in.literal) + ", " +
           operand(in.src[1], info.src_dwords[1], in.literal);
  case Format::SOPK:
    return name + " " + operand(in.dst, 1, 0) + fmt(", 0x%lx", in.imm & 0xffff);
  case Format::SOPP:
    switch (in.op) {
    case Op::s_endpgm: case Op::s_barrier: case Op::s_code_end: return name;
    case Op::s_waitcnt: return name + " " + waitcnt(in.imm);
    case Op::s_delay_alu: return name + " " + delay_alu(in.imm);
    case Op::s_clause: return name + fmt(" 0x%lx", in.imm & 0xffff);
    case Op::s_sendmsg: return name + fmt(" 0x%lx", in.imm & 0xffff);
    default: return name + " " + std::to_string(in.imm);
    }
  case Format::SMEM:
    return name + " " + operand(in.dst, info.dst_dwords, 0) + ", " + operand(in.src[0], 2, 0) +
           ", " + smem_offset(in) + cache_bits(in);
  case Format::FLAT: return print_flat(in, info);
  case Format::DS: return print_ds(in, info);
  case Format::VOPD:
    return print_dual(in.op, in.dst, in.src[0], in.src[1], in.literal) + " :: " +
           print_dual(in.op_y, in.dst_y, in.src_y[0], in.src_y[1], in.literal);
  default: break;
  }

  // Vector ALU formats.
  if (in.format == Format::VOPC && in.cmpx) name.replace(0, 5, "v_cmpx");
  bool no_suffix = in.op == Op::v_nop || in.op == Op::v_readfirstlane_b32 ||
                   in.op == Op::v_fmamk_f32 || in.op == Op::v_fmaak_f32;
  if (in.encoding == Encoding::E32 && !no_suffix) name += "_e32";
  if (in.encoding == Encoding::E64) name += "_e64";
  if (in.op == Op::v_nop) return name;

  std::string s = name + " ";
  const bool e32 = in.encoding == Encoding::E32;
  if (in.format == Format::VOPC) {
    if (!in.cmpx) s += (e32 ? std::string("vcc_lo") : operand(in.sdst, 1, 0)) + ", ";
    return s + with_mods(in, 0, info.src_dwords[0]) + ", " + with_mods(in, 1, info.src_dwords[1]);
  }
  if (in.op == Op::v_readlane_b32 || in.op == Op::v_readfirstlane_b32)
    s += operand(in.dst, 1, 0);
  else
    s += operand(in.dst, info.dst_dwords, 0);
  bool carry = in.op == Op::v_add_co_ci_u32 || in.op == Op::v_sub_co_ci_u32 ||
               in.op == Op::v_subrev_co_ci_u32;
  if (in.format == Format::VOP3SD || (carry && !e32) || (carry && e32))
    s += ", " + (e32 ? std::string("vcc_lo") : operand(in.sdst, 1, 0));
  if (in.op == Op::v_fmamk_f32) {
    return s + ", " + operand(in.src[0], 1, in.literal) + fmt(", 0x%lx, ", in.literal) +
           operand(in.src[1], 1, 0);
  }
  int nsrc = info.src_dwords[2] ? 3 : info.src_dwords[1] ? 2 : info.src_dwords[0] ? 1 : 0;
  if (e32 && in.op == Op::v_cndmask_b32) nsrc = 2;
  if (e32 && carry) nsrc = 2;
  for (int i = 0; i < nsrc; ++i) s += ", " + with_mods(in, unsigned(i), info.src_dwords[i]);
  if (e32 && (carry || in.op == Op::v_cndmask_b32)) s += ", vcc_lo";
  if (in.op == Op::v_fmaak_f32) s += fmt(", 0x%lx", in.literal);
  if (in.clamp) s += " clamp";
  if (in.omod) s += in.omod == 1 ? " mul:2" : in.omod == 2 ? " mul:4" : " div:2";
  return s;
}

} // namespace sim::shader
