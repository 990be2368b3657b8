// The less common scalar ALU and program-control operations of gfx11 and gfx12 (SOP1, SOP2,
// SOPK, SOPP), following the RDNA3 and RDNA4 ISA manuals' pseudocode: 64-bit bit fields,
// 16-bit packs, lane-mask forms for whole-quad mode, the remaining EXEC-saving forms, relative
// SGPR moves, the hardware-register reads and writes of the MODE register, calls, and the
// scheduling hints a compute wave may execute. An operation the model does not give a meaning
// (trap returns, halting, rounding modes other than round-to-nearest-even) faults by name.
#include "executor.h"

#include <bit>
#include <chrono>
#include <cstdio>

namespace sim::shader {
namespace {

// Bits [offset, offset + width) of a 64-bit value, zero- or sign-extended; a width of 64 or
// more takes every bit from the offset up (S_BFE_U64 / S_BFE_I64).
uint64_t bfe64(uint64_t v, unsigned offset, unsigned width, bool sign) {
  if (width == 0) return 0;
  uint64_t field = v >> offset;
  if (width >= 64) return field;
  field &= (uint64_t(1) << width) - 1;
  if (sign && ((field >> (width - 1)) & 1)) field |= ~uint64_t(0) << width;
  return field;
}

// S_QUADMASK: bit i of the result is set when any bit of quad i (bits 4i..4i+3) is.
template <class T> T quadmask(T v) {
  T r = 0;
  for (unsigned i = 0; i < 8 * sizeof(T) / 4; ++i)
    if ((v >> (4 * i)) & 0xf) r |= T(1) << i;
  return r;
}

// S_WQM: every bit of a quad is set when any bit of it is.
template <class T> T wqm(T v) {
  T r = 0;
  for (unsigned i = 0; i < 8 * sizeof(T); i += 4)
    if ((v >> i) & 0xf) r |= T(0xf) << i;
  return r;
}

uint64_t brev64(uint64_t v) {
  uint64_t r = 0;
  for (int i = 0; i < 64; ++i) r |= ((v >> i) & 1u) << (63 - i);
  return r;
}

// The MODE register as S_GETREG_B32 reads it (RDNA3 ISA manual, "MODE"): FP_ROUND [3:0],
// FP_DENORM [7:4] (single precision [5:4], double and half [7:6]; 0 flushes denormals in and
// out, 3 keeps them), the other fields above as last written (0 at launch: the model keeps
// no IEEE or DX10_CLAMP state).
uint32_t mode_value(const Wave& w) {
  return (w.flush_f32_denorms ? 0u : 3u) << 4 | (w.flush_f64_denorms ? 0u : 3u) << 6 |
         (w.mode_upper & ~0xffu);
}

// Writes MODE: the model computes with round-to-nearest-even and either flushes denormals both
// ways or keeps them, so any other setting faults rather than computing wrongly.
void set_mode(Wave& w, const Inst& in, uint32_t mode) {
  if (mode & 0xf)
    instruction_fault(w, in, "rounding modes other than round-to-nearest-even are not modelled");
  const unsigned d32 = (mode >> 4) & 3, d64 = (mode >> 6) & 3;
  if ((d32 != 0 && d32 != 3) || (d64 != 0 && d64 != 3))
    instruction_fault(w, in,
                      "denormal modes that flush only inputs or only outputs are not modelled");
  w.flush_f32_denorms = d32 == 0;
  w.flush_f64_denorms = d64 == 0;
  w.mode_upper = mode & ~0xffu;
}

// Hardware-register ids of s_getreg/s_setreg (LLVM's names: HW_REG_MODE on gfx11, HW_REG_WAVE_MODE
// on gfx12; both number it 1).
constexpr unsigned kHwRegMode = 1;

} // namespace

bool Executor::exec_salu_extra(Wave& w, const Inst& in) {
  auto s0 = [&] { return sread(w, in, in.src[0]); };
  auto s1 = [&] { return sread(w, in, in.src[1]); };
  auto s0_64 = [&] { return sread64(w, in, in.src[0], false); };
  auto set = [&](uint32_t v) { swrite(w, in.dst, v); };
  auto set_nz = [&](uint32_t v) { swrite(w, in.dst, v), w.scc = v != 0; };
  auto set64_nz = [&](uint64_t v) { swrite64(w, in.dst, v), w.scc = v != 0; };
  const uint32_t exec32 = w.sgpr[src::kExecLo];
  const uint64_t exec64 = exec32 | uint64_t(w.sgpr[src::kExecHi]) << 32;
  // The saving forms: the destination receives the old EXEC, EXEC the new value, SCC whether
  // it is non-zero. The wrexec forms write the new EXEC to the destination as well.
  auto saveexec = [&](uint32_t newexec) {
    w.sgpr[src::kExecLo] = newexec;
    w.scc = newexec != 0;
    swrite(w, in.dst, exec32);
  };
  auto saveexec64 = [&](uint64_t newexec) {
    w.sgpr[src::kExecLo] = uint32_t(newexec);
    w.sgpr[src::kExecHi] = uint32_t(newexec >> 32);
    w.scc = newexec != 0;
    swrite64(w, in.dst, exec64);
  };
  // S_MOVRELS/S_MOVRELD: an SGPR of s0..s105 relative to M0; beyond them is a fault.
  auto relative = [&](uint16_t base, uint32_t index, unsigned dwords) -> uint16_t {
    const uint64_t reg = uint64_t(base) + index;
    if (base > 105 || reg + dwords > 106)
      instruction_fault(w, in, "relative SGPR s" + std::to_string(reg) + " beyond s105");
    return uint16_t(reg);
  };
  const uint32_t m0 = w.sgpr[src::kM0];
  // s_getreg/s_setreg: hwreg(id, offset, size) in simm16 [5:0], [10:6], [15:11] + 1.
  const unsigned hw_id = unsigned(in.imm) & 0x3f, hw_off = (unsigned(in.imm) >> 6) & 0x1f,
                 hw_size = ((unsigned(in.imm) >> 11) & 0x1f) + 1;
  const uint32_t hw_mask = uint32_t((uint64_t(1) << hw_size) - 1) << hw_off;
  auto setreg = [&](uint32_t value) {
    if (hw_id != kHwRegMode)
      instruction_fault(
          w, in, "s_setreg of hardware register " + std::to_string(hw_id) + " is not modelled");
    set_mode(w, in, (mode_value(w) & ~hw_mask) | ((value << hw_off) & hw_mask));
  };
  // clang-format off
  switch (in.op) {
  // SOP2
  case Op::s_pack_lh_b32_b16: set((s0() & 0xffff) | (s1() & 0xffff0000u)); break;
  case Op::s_pack_hh_b32_b16: set((s0() >> 16) | (s1() & 0xffff0000u)); break;
  case Op::s_pack_hl_b32_b16: set((s0() >> 16) | (s1() << 16)); break;
  case Op::s_bfe_u64: set64_nz(bfe64(s0_64(), s1() & 63, (s1() >> 16) & 0x7f, false)); break;
  case Op::s_bfe_i64: set64_nz(bfe64(s0_64(), s1() & 63, (s1() >> 16) & 0x7f, true)); break;
  case Op::s_bfm_b64: swrite64(w, in.dst, ((uint64_t(1) << (s0() & 63)) - 1) << (s1() & 63)); break;
  // SOP1
  case Op::s_brev_b64: swrite64(w, in.dst, brev64(s0_64())); break;
  case Op::s_bitset0_b64: swrite64(w, in.dst, sread64(w, in, in.dst, false) & ~(uint64_t(1) << (s0() & 63))); break;
  case Op::s_bitset1_b64: swrite64(w, in.dst, sread64(w, in, in.dst, false) | (uint64_t(1) << (s0() & 63))); break;
  case Op::s_bitreplicate_b64_b32: {
    const uint32_t v = s0();
    uint64_t r = 0;
    for (unsigned i = 0; i < 32; ++i) r |= uint64_t((v >> i) & 1) * 3 << (2 * i);
    swrite64(w, in.dst, r);
    break;
  }
  case Op::s_bcnt0_i32_b32: set_nz(uint32_t(32 - std::popcount(s0()))); break;
  case Op::s_bcnt0_i32_b64: set_nz(uint32_t(64 - std::popcount(s0_64()))); break;
  case Op::s_quadmask_b32: set_nz(quadmask(s0())); break;
  case Op::s_quadmask_b64: set64_nz(quadmask(s0_64())); break;
  case Op::s_wqm_b32: set_nz(wqm(s0())); break;
  case Op::s_wqm_b64: set64_nz(wqm(s0_64())); break;
  case Op::s_nand_saveexec_b32: saveexec(~(s0() & exec32)); break;
  case Op::s_nor_saveexec_b32: saveexec(~(s0() | exec32)); break;
  case Op::s_xnor_saveexec_b32: saveexec(~(s0() ^ exec32)); break;
  case Op::s_and_not0_saveexec_b32: saveexec(~s0() & exec32); break;
  case Op::s_or_not0_saveexec_b32: saveexec(~s0() | exec32); break;
  case Op::s_or_not1_saveexec_b32: saveexec(s0() | ~exec32); break;
  case Op::s_nand_saveexec_b64: saveexec64(~(s0_64() & exec64)); break;
  case Op::s_nor_saveexec_b64: saveexec64(~(s0_64() | exec64)); break;
  case Op::s_xnor_saveexec_b64: saveexec64(~(s0_64() ^ exec64)); break;
  case Op::s_and_not0_wrexec_b32: {
    const uint32_t r = ~s0() & exec32;
    w.sgpr[src::kExecLo] = r;
    w.scc = r != 0;
    swrite(w, in.dst, r);
    break;
  }
  case Op::s_and_not0_wrexec_b64: {
    const uint64_t r = ~s0_64() & exec64;
    w.sgpr[src::kExecLo] = uint32_t(r);
    w.sgpr[src::kExecHi] = uint32_t(r >> 32);
    w.scc = r != 0;
    swrite64(w, in.dst, r);
    break;
  }
  case Op::s_movrels_b32: set(w.sgpr[relative(in.src[0], m0, 1)]); break;
  case Op::s_movrels_b64: {
    const uint16_t r = relative(in.src[0], m0, 2);
    swrite64(w, in.dst, w.sgpr[r] | uint64_t(w.sgpr[r + 1]) << 32);
    break;
  }
  case Op::s_movreld_b32: { const uint32_t v = s0(); w.sgpr[relative(in.dst, m0, 1)] = v; break; }
  case Op::s_movreld_b64: {
    const uint64_t v = s0_64();
    const uint16_t r = relative(in.dst, m0, 2);
    w.sgpr[r] = uint32_t(v);
    w.sgpr[r + 1] = uint32_t(v >> 32);
    break;
  }
  case Op::s_movrelsd_2_b32: {
    const uint32_t v = w.sgpr[relative(in.src[0], m0 & 0x3ff, 1)];
    w.sgpr[relative(in.dst, (m0 >> 16) & 0x3ff, 1)] = v;
    break;
  }
  case Op::s_rfe_b64: instruction_fault(w, in, "s_rfe_b64 outside a trap handler");
  case Op::s_sleep_var: budget_ = 0; break; // as s_sleep: the rest of the turn goes to others
  case Op::s_sendmsg_rtn_b32: case Op::s_sendmsg_rtn_b64: {
    // MSG_RTN_GET_REALTIME (0x83): the 100 MHz reference clock; MSG_RTN_GET_TMA/TBA (0x82,
    // 0x85): the trap handler's memory and base, none here.
    uint64_t v = 0;
    switch (in.src[0]) {
    case 0x83: {
      const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
          std::chrono::steady_clock::now().time_since_epoch());
      v = uint64_t(ns.count()) / 10;
      break;
    }
    case 0x82: case 0x85: v = 0; break;
    default: instruction_fault(w, in, "message " + std::to_string(in.src[0]) + " is not modelled");
    }
    if (in.op == Op::s_sendmsg_rtn_b32) set(uint32_t(v));
    else swrite64(w, in.dst, v);
    break;
  }
  // SOPK
  case Op::s_version: case Op::s_waitcnt_vmcnt: case Op::s_waitcnt_expcnt:
  case Op::s_waitcnt_lgkmcnt:
    break; // a code-object version marker; waits are satisfied (memory acts in program order)
  case Op::s_getreg_b32:
    if (hw_id != kHwRegMode)
      instruction_fault(w, in, "s_getreg of hardware register " + std::to_string(hw_id) + " is not modelled");
    set((mode_value(w) & hw_mask) >> hw_off);
    break;
  case Op::s_setreg_b32: setreg(sread(w, in, in.dst)); break;
  case Op::s_setreg_imm32_b32: setreg(in.literal); break;
  case Op::s_call_b64:
    swrite64(w, in.dst, w.pc + 4);
    w.pc = w.pc + 4 + int64_t(in.imm) * 4;
    break;
  default: return false;
  }
  // clang-format on
  return true;
}

bool Executor::exec_sopp_extra(Wave& w, const Inst& in) {
  const uint32_t k = uint32_t(in.imm) & 0xffff;
  switch (in.op) {
  case Op::s_setkill:
  case Op::s_wait_event:
  case Op::s_setprio:
  case Op::s_incperflevel:
  case Op::s_decperflevel:
  case Op::s_ttracedata_imm:
    break; // scheduling, power and trace hints: nothing to steer in the model
  // The debugger's branches: no debugger sets the conditions they test.
  case Op::s_cbranch_cdbgsys:
  case Op::s_cbranch_cdbguser:
  case Op::s_cbranch_cdbgsys_or_user:
  case Op::s_cbranch_cdbgsys_and_user:
    break;
  case Op::s_sleep:
    // The wave gives up the rest of its turn; the others of its work-group run meanwhile.
    budget_ = 0;
    break;
  case Op::s_wait_idle:
  case Op::s_wakeup:
  case Op::s_ttracedata:
  case Op::s_icache_inv:
    break; // memory acts in program order and nothing caches instructions across a change
  case Op::s_endpgm_saved:
    instruction_fault(w, in, "s_endpgm_saved outside a context-save handler");
  case Op::s_endpgm_ordered_ps_done:
    instruction_fault(w, in, "a pixel-shader instruction in a compute wave");
  case Op::s_sethalt:
    if (k & 1) instruction_fault(w, in, "s_sethalt halted the wave (nothing would resume it)");
    break;
  case Op::s_sendmsghalt:
    instruction_fault(w, in, "s_sendmsghalt halted the wave (nothing would resume it)");
  // S_ROUND_MODE / S_DENORM_MODE write MODE's FP_ROUND / FP_DENORM from simm16[3:0].
  case Op::s_round_mode:
    set_mode(w, in, (mode_value(w) & ~0xfu) | (k & 0xf));
    break;
  case Op::s_denorm_mode:
    set_mode(w, in, (mode_value(w) & ~0xf0u) | (k & 0xf) << 4);
    break;
  default:
    return false;
  }
  return true;
}

} // namespace sim::shader
