// gfx12's split work-group barrier, the signal half and its state (RDNA4 ISA manual, "Work-groups
// and Barriers" and SOP1 S_BARRIER_SIGNAL, S_BARRIER_SIGNAL_ISFIRST, S_GET_BARRIER_STATE);
// s_barrier_wait is in sopp.cpp. RDNA4 has two barriers per work-group, -1 (the work-group's)
// and -2 (the trap handler's); 0 is a no-op. Other numbers name barriers RDNA4 does not have.
#include "executor.h"

#include <string>

namespace sim::shader {
namespace {

// S_GET_BARRIER_STATE's layout: {9'0, signalCnt[6:0], 5'0, memberCnt[6:0], 3'0, valid}.
uint32_t barrier_state(unsigned signalled, unsigned members) {
  return (signalled & 0x7f) << 16 | (members & 0x7f) << 4 | 1u;
}

} // namespace

void Executor::exec_barrier(Wave& w, const Inst& in) {
  // M0 as the barrier number is "reserved for other architectures" in the RDNA4 manual.
  if (in.src[0] == src::kM0) instruction_fault(w, in, "a barrier number in M0 (reserved on gfx12)");
  const int32_t id = int32_t(sread(w, in, in.src[0]));
  if (id != -1 && id != -2 && id != 0)
    instruction_fault(w, in, "barrier " + std::to_string(id) + " (RDNA4 has only -1 and -2)");
  // A wave run outside a dispatch (unit tests) is a work-group of its own.
  GroupBarrier alone{1, 0};
  GroupBarrier& b = w.group_barrier ? *w.group_barrier : alone;
  // A single-wave work-group treats every barrier instruction as S_NOP (manual, "Work-groups and
  // Barriers"): SCC and the destination keep their values. LLVM 22 sets SCC before
  // s_barrier_signal_isfirst so that such a wave reads as the first.
  if (b.members <= 1) {
    w.barrier_signalled |= in.op != Op::s_get_barrier_state && id == -1; // s_barrier_wait passes
    return;
  }
  if (in.op == Op::s_get_barrier_state) {
    // Reads either barrier; barrier 0 holds nothing. The trap barrier is never signalled here.
    swrite(w, in.dst, id == 0 ? 0u : barrier_state(id == -1 ? b.signalled : 0, b.members));
    return;
  }
  const bool isfirst = in.op == Op::s_barrier_signal_isfirst;
  // Barrier 0 is a no-op and user code cannot signal the trap barrier: _isfirst clears SCC.
  if (id != -1) {
    if (isfirst) w.scc = false;
    return;
  }
  if (isfirst) w.scc = b.signalled == 0;
  // The last member to signal completes the barrier and resets the count; waves that ended
  // count as signalled, which the dispatch loop settles when the others reach their waits.
  if (++b.signalled >= b.members) b.signalled = 0;
  w.barrier_signalled = true;
}

} // namespace sim::shader
