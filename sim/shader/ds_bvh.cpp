// The ray-tracing short stack in the LDS: gfx11's DS_BVH_STACK_RTN_B32 and gfx12's
// DS_BVH_STACK_PUSH4_POP1/PUSH8_POP1_RTN_B32 and PUSH8_POP2_RTN_B64, lane by lane (RDNA3 ISA
// manual, DS_BVH_STACK_RTN_B32; RDNA4 ISA manual, 12.5.3 and the DS_BVH_STACK_* pseudocode).
// Each lane pushes the valid child pointers of DATA1 but the last, returns the last one when it
// is valid and pops the stack otherwise; ADDR is read and written back.
//
// The manuals leave DECODE_ADDR, ENCODE_ADDR and INVALID_NODE undefined, and their push (write
// at stack_index, then increment) and pop (read at stack_index, then decrement) disagree on where
// the top is. What this model chose, and why:
// - INVALID_NODE is 0xffffffff, the "no child" pointer of the BVH intersection results (Mesa
//   RADV_BVH_INVALID_NODE).
// - stack_index counts the entries pushed; a pop first decrements it, then reads and clears
//   (writes INVALID_NODE to) that entry. A pop past what the ring still holds reads an entry an
//   earlier pop cleared and returns INVALID_NODE, as Mesa's traversal relies on ("returns
//   0xFFFFFFFF if and only if there was a stack overflow", radv_nir_rt_common.c).
// - Entry k of a lane lives at dword stack_base + (k mod stack_size) * 32 of the work-group's
//   LDS: lanes interleave with a stride of 128 bytes (Mesa radv_build_bvh_stack_rtn_addr: "the
//   hardware uses a stride of 128 bytes (32 entries) for the stack index").
// - gfx11: ADDR = stack_base[31:18] (dwords) | stack_index[17:0] (Mesa's encoding); the stack
//   holds 8 << OFFSET1[5:4] entries (RDNA3 manual). ADDR moves as one number, so a pop of an
//   empty stack borrows from the base, as Mesa's "the HW will decrement the stack pointer by one
//   in that case" and its +1 fix-up expect; that pop reads nothing and returns INVALID_NODE.
// - gfx12: ADDR has the RDNA4 manual's fields (12.5.3 "Address Fields"): valid_entries[4:0],
//   entries_to_tlas[9:5], ring_addr[14:10], stack_base_addr[28:15], has_tlas_in_stack[29],
//   has_overflowed[30], blas_to_tlas_pop[31]. ring_addr is stack_index modulo the stack size,
//   which is OFFSET0[4:0] entries (the manual: "OFFSET0 bits[4:0] carry StackSize"; 0 is read as
//   31, the most valid_entries[4:0] can count). A push into a full stack overwrites its oldest
//   entry and sets has_overflowed; a pop with no valid entry returns INVALID_NODE and leaves ADDR
//   as it was. The TLAS/BLAS fields are kept as they are: the manual does not say how they change.
#include "executor.h"

#include <bit>

namespace sim::shader {
namespace {

constexpr uint32_t kInvalidNode = 0xffffffffu;

// One lane's stack, decoded from ADDR and the instruction's offset fields.
struct LaneStack {
  bool gfx12;
  uint32_t addr;  // ADDR as read; written back re-encoded
  uint32_t base;  // dword offset of entry 0
  uint32_t size;  // entries in the ring
  uint32_t index; // gfx11: entries pushed; gfx12: ring_addr
  uint32_t valid; // gfx12: valid_entries

  uint32_t entry_address(uint32_t k) const { return 4 * (base + (k % size) * 32); }
  uint32_t encode() const {
    if (!gfx12) return addr;
    return (addr & ~0x7c1fu) | (index << 10) | valid;
  }
};

LaneStack decode(const Inst& in, uint32_t addr) {
  LaneStack s{};
  s.addr = addr;
  s.gfx12 = in.gfx == Gfx::v12;
  if (!s.gfx12) {
    s.base = addr >> 18;
    s.index = addr & 0x3ffffu;
    s.size = 8u << ((in.offset1 >> 4) & 3);
  } else {
    s.base = (addr >> 15) & 0x3fffu;
    s.index = (addr >> 10) & 31;
    s.valid = addr & 31;
    s.size = in.imm & 31 ? uint32_t(in.imm & 31) : 31u;
    s.index %= s.size;
  }
  return s;
}

} // namespace

void Executor::exec_ds_bvh_stack(Wave& w, const Inst& in) {
  const unsigned pushes = in.op == Op::ds_bvh_stack_rtn_b32 ? 3 : 7;
  const bool pop2 = in.op == Op::ds_bvh_stack_push8_pop2_rtn_b64;
  for (uint32_t m = w.exec(); m; m &= m - 1) {
    const unsigned lane = unsigned(std::countr_zero(m));
    LaneStack s = decode(in, vreg(w, in.src[0], lane));
    const uint32_t last_node = vreg(w, in.src[1], lane);
    auto data_valid = [&](uint32_t d) {
      return d != kInvalidNode && !(last_node != kInvalidNode && d == last_node);
    };
    auto store = [&](uint32_t k, uint32_t v) { lds_store(w, in, s.entry_address(k), &v, 4); };
    auto load = [&](uint32_t k) {
      uint32_t v;
      lds_load(w, in, s.entry_address(k), &v, 4);
      return v;
    };
    auto push = [&](uint32_t v) {
      store(s.index, v);
      if (!s.gfx12) {
        s.addr += 1;
        s.index += 1;
        return;
      }
      s.index = (s.index + 1) % s.size;
      if (s.valid < s.size)
        ++s.valid;
      else
        s.addr |= 1u << 30; // has_overflowed: the oldest entry is gone
    };
    // The top entry, cleared; INVALID_NODE when there is none.
    auto pop = [&]() -> uint32_t {
      if (!s.gfx12) {
        const bool empty = s.index == 0;
        s.addr -= 1;
        if (empty) return kInvalidNode;
        s.index -= 1;
      } else {
        if (s.valid == 0) return kInvalidNode;
        s.index = (s.index + s.size - 1) % s.size;
        --s.valid;
      }
      const uint32_t v = load(s.index);
      store(s.index, kInvalidNode);
      return v;
    };
    for (unsigned i = 0; i < pushes; ++i) {
      const uint32_t d = vreg(w, in.src[2], lane, i);
      if (data_valid(d))
        push(d);
      else if (d == last_node)
        break; // the entries after the last visited node are treated as invalid too
    }
    const uint32_t last = vreg(w, in.src[2], lane, pushes);
    const uint32_t ret = data_valid(last) ? last : pop();
    uint32_t second = kInvalidNode; // the pseudocode leaves it unset when nothing is popped
    if (pop2) {
      // A second pop when the new top entry is itself a valid node.
      if (s.valid != 0 && data_valid(load(s.index + s.size - 1))) second = pop();
    }
    vreg(w, in.dst, lane) = ret;
    if (pop2) vreg(w, in.dst, lane, 1) = second;
    vreg(w, in.src[0], lane) = s.encode();
  }
}

} // namespace sim::shader
