// Program control (SOPP): branches, barriers, s_endpgm, and the waits and hints that change
// nothing in the model (memory is performed in program order), following the RDNA3 and RDNA4 ISA
// manuals. The rarer ones are in salu_extra.cpp.
#include "executor.h"

#include <string>

namespace sim::shader {

void Executor::exec_sopp(Wave& w, const Inst& in) {
  auto branch = [&](bool taken) {
    if (taken) w.pc = w.pc + 4 + int64_t(in.imm) * 4;
  };
  // One operation per line: it reads as the ISA table it is.
  // clang-format off
  switch (in.op) {
  case Op::s_nop: case Op::s_clause: case Op::s_delay_alu: case Op::s_waitcnt:
  case Op::s_sendmsg: case Op::s_waitcnt_depctr: case Op::s_set_inst_prefetch_distance:
    break; // no caches or prefetcher to steer; memory is performed in program order here, so waits are already satisfied
  case Op::s_code_end: instruction_fault(w, in, "executed s_code_end padding");
  case Op::s_trap: instruction_fault(w, in, "s_trap " + std::to_string(in.imm) + " with no trap handler");
  case Op::s_endpgm: w.done = true; break;
  case Op::s_barrier: w.at_barrier = true; w.pc += 4; break;
  // gfx12 splits the barrier: the wave signals its arrival, may run on, and waits for the
  // others at s_barrier_wait. Waiting at the wait is one valid schedule of that.
  case Op::s_barrier_wait:
    if (!w.barrier_signalled) instruction_fault(w, in, "s_barrier_wait without s_barrier_signal (the wave would hang)");
    w.barrier_signalled = false;
    w.at_barrier = true;
    w.pc += 4;
    break;
  case Op::s_wait_loadcnt: case Op::s_wait_storecnt: case Op::s_wait_samplecnt: case Op::s_wait_bvhcnt:
  case Op::s_wait_expcnt: case Op::s_wait_dscnt: case Op::s_wait_kmcnt: case Op::s_wait_loadcnt_dscnt:
  case Op::s_wait_storecnt_dscnt:
    break; // gfx12's per-counter waits: memory is performed in program order here
  case Op::s_branch: branch(true); break;
  case Op::s_cbranch_scc0: branch(!w.scc); break;
  case Op::s_cbranch_scc1: branch(w.scc); break;
  case Op::s_cbranch_vccz: branch(w.vcc_mask() == 0); break;
  case Op::s_cbranch_vccnz: branch(w.vcc_mask() != 0); break;
  case Op::s_cbranch_execz: branch(w.exec_mask() == 0); break;
  case Op::s_cbranch_execnz: branch(w.exec_mask() != 0); break;
  default:
    if (!exec_sopp_extra(w, in)) instruction_fault(w, in, "unimplemented program-control instruction");
  }
  // clang-format on
}

} // namespace sim::shader
