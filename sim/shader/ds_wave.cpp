// LDS operations with no VGPR address: the append/consume counters, one update per wave for
// all its active lanes, and the thread-id addressed loads and stores (RDNA3 and RDNA4 ISA
// manuals, DS_APPEND, DS_CONSUME, "DS_{LOAD,STORE}_ADDTID Addressing").
#include "executor.h"

#include <bit>

namespace sim::shader {
namespace {

// M0[15:0] + {OFFSET1, OFFSET0}. For the counters LLVM puts the counter's LDS address in M0
// (AMDGPUISelDAGToDAG.cpp: SelectDSAppendConsume), as the manual's "M0.base + offset" reads.
uint32_t m0_address(const Wave& w, const Inst& in) {
  return (w.sgpr[src::kM0] & 0xffffu) + uint32_t(in.imm | (in.offset1 << 8));
}

} // namespace

// The counter moves by the number of active lanes of the whole wave (both halves of a wave64),
// and every active lane gets the value before the update.
void Executor::exec_ds_counter(Wave& w, const Inst& in) {
  const uint64_t exec = w.exec_mask();
  if (!exec) return;
  const uint32_t a = m0_address(w, in);
  uint32_t old;
  lds_load(w, in, a, &old, 4);
  const uint32_t count = uint32_t(std::popcount(exec));
  const uint32_t now = in.op == Op::ds_append ? old + count : old - count;
  lds_store(w, in, a, &now, 4);
  const unsigned halves = w.wave64 ? 2 : 1;
  for (unsigned h = 0; h < halves; ++h) {
    w.select_half(h);
    for (uint32_t m = w.exec(); m; m &= m - 1) vreg(w, in.dst, unsigned(std::countr_zero(m))) = old;
  }
  w.select_half(0);
}

// Lane n (of the whole wave) accesses the dword at M0[15:0] + offset + 4n.
void Executor::exec_ds_addtid(Wave& w, const Inst& in) {
  const uint32_t base = m0_address(w, in);
  for (uint32_t m = w.exec(); m; m &= m - 1) {
    const unsigned lane = unsigned(std::countr_zero(m));
    const uint32_t a = base + 4 * w.lane_id(lane);
    if (in.op == Op::ds_load_addtid_b32)
      lds_load(w, in, a, &vreg(w, in.dst, lane), 4);
    else
      lds_store(w, in, a, &vreg(w, in.src[1], lane), 4);
  }
}

} // namespace sim::shader
