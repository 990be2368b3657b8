// The scalar ALU (SOP1, SOP2, SOPC, SOPK) as compilers use it: integer arithmetic with SCC, bit
// operations, compares into SCC, the EXEC-saving forms and PC moves, following the RDNA3 and RDNA4
// ISA manuals' pseudocode. The rarer operations are in salu_extra.cpp, the float ones in
// salu_float.cpp.
#include "executor.h"
#include "int_ops.h"

#include <bit>

namespace sim::shader {

void Executor::exec_salu(Wave& w, const Inst& in) {
  auto s0 = [&] { return sread(w, in, in.src[0]); };
  auto s1 = [&] { return sread(w, in, in.src[1]); };
  auto s0_64 = [&] { return sread64(w, in, in.src[0], false); };
  auto s1_64 = [&] { return sread64(w, in, in.src[1], false); };
  auto set = [&](uint32_t v) { swrite(w, in.dst, v); };
  auto set_nz = [&](uint32_t v) { swrite(w, in.dst, v), w.scc = v != 0; };
  auto set64_nz = [&](uint64_t v) { swrite64(w, in.dst, v), w.scc = v != 0; };
  auto saveexec = [&](uint32_t newexec) {
    uint32_t old = w.exec();
    w.sgpr[src::kExecLo] = newexec;
    w.scc = newexec != 0;
    swrite(w, in.dst, old);
  };
  // The wave64 forms: the old EXEC is read before the destination (which may overlap the
  // source) is written.
  const uint64_t exec64 = uint64_t(w.sgpr[src::kExecLo]) | uint64_t(w.sgpr[src::kExecHi]) << 32;
  auto set_exec64 = [&](uint64_t v) {
    w.sgpr[src::kExecLo] = uint32_t(v);
    w.sgpr[src::kExecHi] = uint32_t(v >> 32);
  };
  auto saveexec64 = [&](uint64_t newexec) {
    set_exec64(newexec);
    w.scc = newexec != 0;
    swrite64(w, in.dst, exec64);
  };
  // One operation per line: it reads as the ISA table it is.
  // clang-format off
  switch (in.op) {
  case Op::s_add_u32: { uint64_t r = uint64_t(s0()) + s1(); set(uint32_t(r)); w.scc = r >> 32; break; }
  case Op::s_sub_u32: { uint32_t a = s0(), b = s1(); set(a - b); w.scc = b > a; break; }
  case Op::s_add_i32: {
    int32_t a = int32_t(s0()), b = int32_t(s1()), r = int32_t(uint32_t(a) + uint32_t(b));
    set(uint32_t(r)); w.scc = ((a >= 0) == (b >= 0)) && ((r >= 0) != (a >= 0)); break;
  }
  case Op::s_sub_i32: {
    int32_t a = int32_t(s0()), b = int32_t(s1()), r = int32_t(uint32_t(a) - uint32_t(b));
    set(uint32_t(r)); w.scc = ((a >= 0) != (b >= 0)) && ((r >= 0) != (a >= 0)); break;
  }
  case Op::s_addc_u32: { uint64_t r = uint64_t(s0()) + s1() + w.scc; set(uint32_t(r)); w.scc = r >> 32; break; }
  case Op::s_subb_u32: {
    uint64_t a = s0(), b = uint64_t(s1()) + w.scc; set(uint32_t(a - b)); w.scc = b > a; break;
  }
  case Op::s_absdiff_i32: {
    int64_t d = int64_t(int32_t(s0())) - int32_t(s1()); set_nz(uint32_t(d < 0 ? -d : d)); break;
  }
  case Op::s_lshl_b32: set_nz(s0() << (s1() & 31)); break;
  case Op::s_lshl_b64: set64_nz(s0_64() << (s1() & 63)); break;
  case Op::s_lshr_b32: set_nz(s0() >> (s1() & 31)); break;
  case Op::s_lshr_b64: set64_nz(s0_64() >> (s1() & 63)); break;
  case Op::s_ashr_i32: set_nz(uint32_t(int32_t(s0()) >> (s1() & 31))); break;
  case Op::s_ashr_i64: set64_nz(uint64_t(int64_t(s0_64()) >> (s1() & 63))); break;
  case Op::s_lshl1_add_u32: case Op::s_lshl2_add_u32:
  case Op::s_lshl3_add_u32: case Op::s_lshl4_add_u32: {
    unsigned sh = 1 + unsigned(in.op) - unsigned(Op::s_lshl1_add_u32);
    uint64_t r = (uint64_t(s0()) << sh) + s1();
    set(uint32_t(r)); w.scc = r >> 32; break;
  }
  case Op::s_min_i32: { int32_t a = int32_t(s0()), b = int32_t(s1()); w.scc = a < b; set(uint32_t(a < b ? a : b)); break; }
  case Op::s_min_u32: { uint32_t a = s0(), b = s1(); w.scc = a < b; set(a < b ? a : b); break; }
  case Op::s_max_i32: { int32_t a = int32_t(s0()), b = int32_t(s1()); w.scc = a > b; set(uint32_t(a > b ? a : b)); break; }
  case Op::s_max_u32: { uint32_t a = s0(), b = s1(); w.scc = a > b; set(a > b ? a : b); break; }
  case Op::s_and_b32: set_nz(s0() & s1()); break;
  case Op::s_and_b64: set64_nz(s0_64() & s1_64()); break;
  case Op::s_or_b32: set_nz(s0() | s1()); break;
  case Op::s_or_b64: set64_nz(s0_64() | s1_64()); break;
  case Op::s_xor_b32: set_nz(s0() ^ s1()); break;
  case Op::s_xor_b64: set64_nz(s0_64() ^ s1_64()); break;
  case Op::s_and_not1_b64: set64_nz(s0_64() & ~s1_64()); break;
  case Op::s_or_not1_b64: set64_nz(s0_64() | ~s1_64()); break;
  case Op::s_nand_b64: set64_nz(~(s0_64() & s1_64())); break;
  case Op::s_nor_b64: set64_nz(~(s0_64() | s1_64())); break;
  case Op::s_xnor_b64: set64_nz(~(s0_64() ^ s1_64())); break;
  case Op::s_nand_b32: set_nz(~(s0() & s1())); break;
  case Op::s_nor_b32: set_nz(~(s0() | s1())); break;
  case Op::s_xnor_b32: set_nz(~(s0() ^ s1())); break;
  case Op::s_and_not1_b32: set_nz(s0() & ~s1()); break;
  case Op::s_or_not1_b32: set_nz(s0() | ~s1()); break;
  case Op::s_bfe_u32: {
    uint32_t off = s1() & 31, width = (s1() >> 16) & 0x7f;
    uint32_t r = width == 0 ? 0 : width >= 32 ? s0() >> off : (s0() >> off) & ((1u << width) - 1);
    set_nz(r); break;
  }
  case Op::s_bfe_i32: {
    uint32_t off = s1() & 31, width = (s1() >> 16) & 0x7f;
    int32_t r = 0;
    if (width) {
      uint32_t field = width >= 32 ? s0() >> off : (s0() >> off) & ((1u << width) - 1);
      r = width >= 32 ? int32_t(field) : int32_t(field << (32 - width)) >> (32 - width);
    }
    set_nz(uint32_t(r)); break;
  }
  case Op::s_bfm_b32: set(((1u << (s0() & 31)) - 1) << (s1() & 31)); break;
  case Op::s_mul_i32: set(s0() * s1()); break;
  case Op::s_mul_hi_u32: set(uint32_t((uint64_t(s0()) * s1()) >> 32)); break;
  case Op::s_mul_hi_i32: set(uint32_t(uint64_t(int64_t(int32_t(s0())) * int32_t(s1())) >> 32)); break;
  case Op::s_cselect_b32: set(w.scc ? s0() : s1()); break;
  case Op::s_cselect_b64: swrite64(w, in.dst, w.scc ? s0_64() : s1_64()); break;
  case Op::s_pack_ll_b32_b16: set((s0() & 0xffff) | (s1() << 16)); break;
  // gfx12's 64-bit scalar arithmetic: no carry out, SCC unchanged (RDNA4 ISA manual).
  case Op::s_add_nc_u64: swrite64(w, in.dst, s0_64() + s1_64()); break;
  case Op::s_sub_nc_u64: swrite64(w, in.dst, s0_64() - s1_64()); break;
  case Op::s_mul_u64: swrite64(w, in.dst, s0_64() * s1_64()); break;
  case Op::s_barrier_signal: case Op::s_barrier_signal_isfirst: case Op::s_get_barrier_state:
    exec_barrier(w, in); break;
  // SOP1
  case Op::s_mov_b32: set(s0()); break;
  case Op::s_mov_b64: swrite64(w, in.dst, s0_64()); break;
  case Op::s_cmov_b32: if (w.scc) set(s0()); break;
  case Op::s_brev_b32: {
    uint32_t v = s0(), r = 0;
    for (int i = 0; i < 32; ++i) r |= ((v >> i) & 1u) << (31 - i);
    set(r); break;
  }
  case Op::s_ctz_i32_b32: { uint32_t v = s0(); set(v ? uint32_t(std::countr_zero(v)) : ~0u); break; }
  case Op::s_clz_i32_u32: { uint32_t v = s0(); set(v ? uint32_t(std::countl_zero(v)) : ~0u); break; }
  case Op::s_cls_i32: set(leading_sign_bits(s0())); break;
  case Op::s_sext_i32_i8: set(uint32_t(int32_t(int8_t(s0())))); break;
  case Op::s_sext_i32_i16: set(uint32_t(int32_t(int16_t(s0())))); break;
  case Op::s_abs_i32: { int32_t v = int32_t(s0()); set_nz(uint32_t(v < 0 ? -int64_t(v) : v)); break; }
  case Op::s_bcnt1_i32_b32: set_nz(uint32_t(std::popcount(s0()))); break;
  case Op::s_not_b32: set_nz(~s0()); break;
  case Op::s_and_saveexec_b32: saveexec(s0() & w.exec()); break;
  case Op::s_or_saveexec_b32: saveexec(s0() | w.exec()); break;
  case Op::s_xor_saveexec_b32: saveexec(s0() ^ w.exec()); break;
  case Op::s_and_not1_saveexec_b32: saveexec(s0() & ~w.exec()); break;
  case Op::s_and_saveexec_b64: saveexec64(s0_64() & exec64); break;
  case Op::s_or_saveexec_b64: saveexec64(s0_64() | exec64); break;
  case Op::s_xor_saveexec_b64: saveexec64(s0_64() ^ exec64); break;
  case Op::s_and_not1_saveexec_b64: saveexec64(s0_64() & ~exec64); break;
  case Op::s_or_not1_saveexec_b64: saveexec64(s0_64() | ~exec64); break;
  case Op::s_and_not0_saveexec_b64: saveexec64(~s0_64() & exec64); break;
  case Op::s_or_not0_saveexec_b64: saveexec64(~s0_64() | exec64); break;
  // The wrexec forms write the new EXEC to the destination too (RDNA3 ISA manual).
  case Op::s_and_not1_wrexec_b32: {
    const uint32_t r = s0() & ~w.exec();
    w.sgpr[src::kExecLo] = r;
    w.scc = r != 0;
    swrite(w, in.dst, r);
    break;
  }
  case Op::s_and_not1_wrexec_b64: {
    const uint64_t r = s0_64() & ~exec64;
    set_exec64(r);
    w.scc = r != 0;
    swrite64(w, in.dst, r);
    break;
  }
  case Op::s_not_b64: set64_nz(~s0_64()); break;
  case Op::s_cmov_b64: if (w.scc) swrite64(w, in.dst, s0_64()); break;
  case Op::s_bcnt1_i32_b64: set_nz(uint32_t(std::popcount(s0_64()))); break;
  case Op::s_ctz_i32_b64: { uint64_t v = s0_64(); set(v ? uint32_t(std::countr_zero(v)) : ~0u); break; }
  case Op::s_clz_i32_u64: { uint64_t v = s0_64(); set(v ? uint32_t(std::countl_zero(v)) : ~0u); break; }
  case Op::s_cls_i32_i64: set(leading_sign_bits(s0_64())); break;
  case Op::s_bitset0_b32: swrite(w, in.dst, sread(w, in, in.dst) & ~(1u << (s0() & 31))); break;
  case Op::s_bitset1_b32: swrite(w, in.dst, sread(w, in, in.dst) | (1u << (s0() & 31))); break;
  case Op::s_getpc_b64: swrite64(w, in.dst, w.pc + in.size); break;
  case Op::s_setpc_b64: w.pc = s0_64(); break;
  case Op::s_swappc_b64: { uint64_t target = s0_64(); swrite64(w, in.dst, w.pc + in.size); w.pc = target; break; }
  // SOPC
  case Op::s_cmp_eq_i32: case Op::s_cmp_eq_u32: w.scc = s0() == s1(); break;
  case Op::s_cmp_lg_i32: case Op::s_cmp_lg_u32: w.scc = s0() != s1(); break;
  case Op::s_cmp_gt_i32: w.scc = int32_t(s0()) > int32_t(s1()); break;
  case Op::s_cmp_ge_i32: w.scc = int32_t(s0()) >= int32_t(s1()); break;
  case Op::s_cmp_lt_i32: w.scc = int32_t(s0()) < int32_t(s1()); break;
  case Op::s_cmp_le_i32: w.scc = int32_t(s0()) <= int32_t(s1()); break;
  case Op::s_cmp_gt_u32: w.scc = s0() > s1(); break;
  case Op::s_cmp_ge_u32: w.scc = s0() >= s1(); break;
  case Op::s_cmp_lt_u32: w.scc = s0() < s1(); break;
  case Op::s_cmp_le_u32: w.scc = s0() <= s1(); break;
  case Op::s_bitcmp0_b32: w.scc = !((s0() >> (s1() & 31)) & 1); break;
  case Op::s_bitcmp1_b32: w.scc = (s0() >> (s1() & 31)) & 1; break;
  case Op::s_cmp_eq_u64: w.scc = s0_64() == s1_64(); break;
  case Op::s_bitcmp0_b64: w.scc = !((s0_64() >> (s1() & 63)) & 1); break;
  case Op::s_bitcmp1_b64: w.scc = (s0_64() >> (s1() & 63)) & 1; break;
  case Op::s_cmp_lg_u64: w.scc = s0_64() != s1_64(); break;
  // SOPK
  case Op::s_movk_i32: set(uint32_t(in.imm)); break;
  case Op::s_cmovk_i32:
    if (w.scc) set(uint32_t(in.imm));
    break;
  // The compares take the 16-bit constant sign-extended (_i32) or zero-extended (_u32).
  case Op::s_cmpk_eq_i32: w.scc = int32_t(sread(w, in, in.dst)) == in.imm; break;
  case Op::s_cmpk_lg_i32: w.scc = int32_t(sread(w, in, in.dst)) != in.imm; break;
  case Op::s_cmpk_gt_i32: w.scc = int32_t(sread(w, in, in.dst)) > in.imm; break;
  case Op::s_cmpk_ge_i32: w.scc = int32_t(sread(w, in, in.dst)) >= in.imm; break;
  case Op::s_cmpk_lt_i32: w.scc = int32_t(sread(w, in, in.dst)) < in.imm; break;
  case Op::s_cmpk_le_i32: w.scc = int32_t(sread(w, in, in.dst)) <= in.imm; break;
  case Op::s_cmpk_eq_u32: w.scc = sread(w, in, in.dst) == uint32_t(in.imm & 0xffff); break;
  case Op::s_cmpk_lg_u32: w.scc = sread(w, in, in.dst) != uint32_t(in.imm & 0xffff); break;
  case Op::s_cmpk_ge_u32: w.scc = sread(w, in, in.dst) >= uint32_t(in.imm & 0xffff); break;
  case Op::s_cmpk_lt_u32: w.scc = sread(w, in, in.dst) < uint32_t(in.imm & 0xffff); break;
  case Op::s_cmpk_le_u32: w.scc = sread(w, in, in.dst) <= uint32_t(in.imm & 0xffff); break;
  case Op::s_addk_i32: {
    int32_t a = int32_t(sread(w, in, in.dst)), b = in.imm, r = int32_t(uint32_t(a) + uint32_t(b));
    set(uint32_t(r)); w.scc = ((a >= 0) == (b >= 0)) && ((r >= 0) != (a >= 0)); break;
  }
  case Op::s_mulk_i32: set(sread(w, in, in.dst) * uint32_t(in.imm)); break;
  case Op::s_cmpk_gt_u32: w.scc = sread(w, in, in.dst) > uint32_t(in.imm & 0xffff); break;
  case Op::s_waitcnt_vscnt: break; // stores complete in program order in the model
  default:
    if (!exec_salu_extra(w, in) && !exec_salu_float(w, in))
      instruction_fault(w, in, "unimplemented scalar instruction");
  }
  // clang-format on
}

} // namespace sim::shader
