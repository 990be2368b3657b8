// The atomic read-modify-writes of the general memory paths (flat.cpp, ds.cpp), one lane at a
// time, with the operations of atomic_ops.h (RDNA3 and RDNA4 ISA manuals, the FLAT and DS atomic
// opcodes). memory_fast_path.cpp batches the common ones and must agree with these.
#include "atomic_ops.h"
#include "executor.h"

#include <array>
#include <bit>

namespace sim::shader {

namespace {

// ds_atomic by table (its switch is a call per instruction otherwise).
constexpr auto kDsAtomics = [] {
  std::array<AtomicOp, size_t(Op::kCount)> t{};
  for (size_t i = 0; i < t.size(); ++i) t[i] = ds_atomic(Op(i));
  return t;
}();

} // namespace

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

// ds_atomic_lane's 64-bit operations for every lane of a row: the operation, its operand rows
// and the LDS bounds resolved once, the lanes in the same order with the same addressing (a
// dword-aligned element, SH_MEM_CONFIG's mode below that; out of range reads zero and writes
// nothing). The 64-bit atomic types of OpenCL C on __local memory come here.
bool Executor::exec_ds_atomic64_fast(Wave& w, const Inst& in, uint32_t exec) {
  const AtomicOp atomic = kDsAtomics[size_t(in.op)];
  if (atomic.rmw == Rmw::None || atomic.bytes != 8) return false;
  const bool two = op_info(in.op).src_dwords[1] != 0; // DATA1: the compared value, mskor's OR bits
  const uint32_t* address = &vreg(w, in.src[0], 0);
  const uint32_t* data_lo = &vreg(w, in.src[1], 0);
  const uint32_t* data_hi = &vreg(w, in.src[1], 0, 1);
  const uint32_t* data2_lo = two ? &vreg(w, in.src[2], 0) : nullptr;
  const uint32_t* data2_hi = two ? &vreg(w, in.src[2], 0, 1) : nullptr;
  uint32_t* d_lo = atomic.rtn ? &vreg(w, in.dst, 0) : nullptr;
  uint32_t* d_hi = atomic.rtn ? &vreg(w, in.dst, 0, 1) : nullptr;
  const uint32_t offset = uint32_t(in.imm | (in.offset1 << 8));
  with_rmw<uint64_t>(atomic.rmw, [&](auto rmw) {
    for (uint32_t m = exec; m; m &= m - 1) {
      const unsigned lane = unsigned(std::countr_zero(m));
      uint32_t a = address[lane] + offset;
      uint8_t* p = lds_at(w, in, a, 8);
      uint64_t old = 0;
      if (p) std::memcpy(&old, p, 8);
      const uint64_t x = uint64_t(data_lo[lane]) | uint64_t(data_hi[lane]) << 32;
      const uint64_t y = two ? uint64_t(data2_lo[lane]) | uint64_t(data2_hi[lane]) << 32 : 0;
      const uint64_t now = rmw(old, x, y);
      if (p) std::memcpy(p, &now, 8);
      if (d_lo) d_lo[lane] = uint32_t(old), d_hi[lane] = uint32_t(old >> 32);
    }
  });
  return true;
}

} // namespace sim::shader
