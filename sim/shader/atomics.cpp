// The atomic read-modify-writes of the general memory paths (flat.cpp, ds.cpp), one lane at a
// time, with the operations of atomic_ops.h (RDNA3 and RDNA4 ISA manuals, the FLAT and DS atomic
// opcodes). memory_fast_path.cpp batches the common ones and must agree with these.
#include "atomic_ops.h"
#include "executor.h"

namespace sim::shader {

// Atomics: naturally aligned elements (whatever the alignment mode); the second data operand
// (cmpswap's compared value) follows the first in the data VGPRs. Host atomics: the other
// work-groups of the dispatch run on other host threads.
void Executor::flat_atomic_lane(Wave& w, const Inst& in, MemoryPort& mem, uint64_t addr,
                                unsigned lane) {
  const AtomicOp atomic = flat_atomic(in.op);
  if (atomic.rmw == Rmw::None) instruction_fault(w, in, "unimplemented memory instruction");
  if (addr & (atomic.bytes - 1)) instruction_fault(w, in, "misaligned atomic address " + hex(addr));
  const bool two = regs_of(op_info(in.op).src_dwords[0]) * 4 == 2u * atomic.bytes;
  uint8_t* p = mem.translate(addr, atomic.bytes, true);
  if (atomic.bytes == 8) {
    auto data = [&](unsigned k) {
      return uint64_t(vreg(w, in.src[1], lane, 2 * k)) |
             (uint64_t(vreg(w, in.src[1], lane, 2 * k + 1)) << 32);
    };
    const uint64_t old = atomic_rmw<uint64_t>(p, atomic.rmw, data(0), two ? data(1) : 0);
    if (in.has_vdst_data)
      vreg(w, in.dst, lane) = uint32_t(old), vreg(w, in.dst, lane, 1) = uint32_t(old >> 32);
  } else {
    const uint32_t old = atomic_rmw<uint32_t>(p, atomic.rmw, vreg(w, in.src[1], lane),
                                              two ? vreg(w, in.src[1], lane, 1) : 0);
    if (in.has_vdst_data) vreg(w, in.dst, lane) = old;
  }
}

// A work-group's waves run on one host thread, one lane after another: each lane's
// read-modify-write of the LDS is atomic without host atomics.
void Executor::ds_atomic_lane(Wave& w, const Inst& in, uint32_t addr, unsigned lane) {
  const AtomicOp atomic = ds_atomic(in.op);
  if (atomic.rmw == Rmw::None) instruction_fault(w, in, "unimplemented LDS instruction");
  const bool two = op_info(in.op).src_dwords[1] != 0; // DATA1: the compared value, mskor's OR bits
  if (atomic.bytes == 8) {
    auto data = [&](uint16_t reg) {
      return uint64_t(vreg(w, reg, lane)) | (uint64_t(vreg(w, reg, lane, 1)) << 32);
    };
    uint64_t old;
    lds_load(w, in, addr, &old, 8);
    const uint64_t now =
        rmw_result<uint64_t>(atomic.rmw, old, data(in.src[1]), two ? data(in.src[2]) : 0);
    lds_store(w, in, addr, &now, 8);
    if (atomic.rtn)
      vreg(w, in.dst, lane) = uint32_t(old), vreg(w, in.dst, lane, 1) = uint32_t(old >> 32);
  } else {
    uint32_t old;
    lds_load(w, in, addr, &old, 4);
    const uint32_t now = rmw_result<uint32_t>(atomic.rmw, old, vreg(w, in.src[1], lane),
                                              two ? vreg(w, in.src[2], lane) : 0);
    lds_store(w, in, addr, &now, 4);
    if (atomic.rtn) vreg(w, in.dst, lane) = old;
  }
}

} // namespace sim::shader
