// The less common FLAT-family operations: gfx12's block moves of up to 32 VGPRs and the global
// segment's thread-id addressed loads and stores (RDNA4 ISA manual, 11.5 "Block VGPR Load &
// Store"; RDNA3 ISA manual, GLOBAL_LOAD_ADDTID_B32 / GLOBAL_STORE_ADDTID_B32).
#include "executor.h"

#include <bit>
#include <string>

namespace sim::shader {

// One lane's block: VGPR n moves to or from the dword at addr + 4n when M0 bit n is set (the
// memory of a skipped VGPR is skipped too). A VGPR beyond the wave's allocation is not loaded,
// and a store reads VGPR 0 for it (RDNA4 ISA manual, 11.5.1).
void Executor::block_lane(Wave& w, const Inst& in, MemoryPort& mem, uint64_t addr, unsigned lane) {
  const uint32_t mask = w.sgpr[src::kM0];
  const bool load = in.op == Op::load_block;
  const unsigned first = (load ? in.dst : in.src[1]) - src::kVgpr0;
  for (uint32_t m = mask; m; m &= m - 1) {
    const unsigned n = unsigned(std::countr_zero(m));
    const bool in_range = first + n < w.num_vgprs;
    if (load) {
      uint32_t v;
      mem.read(addr + 4 * n, &v, 4);
      if (in_range) vreg(w, in.dst, lane, n) = v;
    } else {
      const uint32_t v = in_range ? vreg(w, in.src[1], lane, n) : vreg(w, src::kVgpr0, lane);
      mem.write(addr + 4 * n, &v, 4);
    }
  }
}

// Lane n (of the whole wave) accesses the dword at SADDR + offset + 4n ("off": 0 + offset + 4n).
void Executor::exec_global_addtid(Wave& w, const Inst& in) {
  const uint64_t base = (in.soffset != src::kNull ? uint64_t(w.sgpr[in.soffset]) |
                                                        (uint64_t(w.sgpr[in.soffset + 1]) << 32)
                                                  : 0) +
                        uint64_t(int64_t(in.imm));
  for (uint32_t m = w.exec(); m; m &= m - 1) {
    const unsigned lane = unsigned(std::countr_zero(m));
    uint64_t a = base + 4 * w.lane_id(lane);
    if (a & 3) a = misaligned_address(w, in, a, 4);
    try {
      if (in.op == Op::load_addtid_b32)
        memory_.read(a, &vreg(w, in.dst, lane), 4);
      else
        memory_.write(a, &vreg(w, in.src[1], lane), 4);
    } catch (const MemoryFault& f) {
      throw ShaderFault(std::string(f.what()) + " at pc " + hex(w.pc) + " (" + disassemble(in) +
                            ")",
                        f.address, f.write);
    }
  }
}

} // namespace sim::shader
