// LDS instructions (DS): loads and stores of every size and form (two addresses, d16 halves,
// exchanges) lane by lane, following the RDNA3 and RDNA4 ISA manuals ("Data Share Operations").
// The atomic lanes are in atomics.cpp, the crossbar moves in cross_lane.cpp.
#include "executor.h"

#include <algorithm>
#include <bit>
#include <cstring>

namespace sim::shader {

// The plain 32-bit load and store carry most LDS traffic: a full, dword-aligned wave runs by
// rows (exec_ds_wide_fast), the others lane by lane without the general path's per-lane
// dispatch (same lane order, same semantics).
void Executor::exec_ds_dwords(Wave& w, const Inst& in) {
  if (fast_paths && exec_ds_wide_fast(w, in)) return;
  const uint32_t exec = w.exec();
  const uint32_t* address = &vreg(w, in.src[0], 0);
  const uint32_t offset = uint32_t(in.imm | (in.offset1 << 8));
  const uint64_t size = lds_.size();
  if (in.op == Op::ds_load_b32) {
    uint32_t* d = &vreg(w, in.dst, 0);
    for (uint32_t m = exec; m; m &= m - 1) {
      const unsigned lane = unsigned(std::countr_zero(m));
      uint32_t a = address[lane] + offset;
      if (a & 3) a = uint32_t(misaligned_address(w, in, a, 4));
      uint32_t v = 0; // out of range reads zero
      if (uint64_t(a) + 4 <= size) std::memcpy(&v, &lds_[a], 4);
      d[lane] = v;
    }
  } else {
    const uint32_t* data = &vreg(w, in.src[1], 0);
    for (uint32_t m = exec; m; m &= m - 1) {
      const unsigned lane = unsigned(std::countr_zero(m));
      uint32_t a = address[lane] + offset;
      if (a & 3) a = uint32_t(misaligned_address(w, in, a, 4));
      if (uint64_t(a) + 4 <= size) std::memcpy(&lds_[a], &data[lane], 4); // else discarded
    }
  }
}

// The lanes of a load or store of N dwords, in lane order as the general path: a lane's whole
// access in range or (a sink) none of it, as lds_load and lds_store; a load's row may be the
// address row, which each lane reads before it writes. Without a branch per lane (the branches
// of exec_ds_dwords' lane loop were 18 % of an LDS kernel's samples, perf, stop 34).
template <unsigned N> void Executor::ds_wide_rows(Wave& w, const Inst& in, bool load) {
  const uint32_t* address = &vreg(w, in.src[0], 0);
  const uint32_t offset = uint32_t(in.imm | (in.offset1 << 8));
  const uint32_t last = uint32_t(lds_.size() - 4 * N);
  uint32_t* rows[N];
  for (unsigned i = 0; i < N; ++i) rows[i] = &vreg(w, load ? in.dst : in.src[1], 0, i);
  uint32_t sink[N];
  for (unsigned lane = 0; lane < kWaveSize; ++lane) {
    const uint32_t a = address[lane] + offset;
    uint8_t* p = a <= last ? &lds_[a] : reinterpret_cast<uint8_t*>(sink);
    uint32_t v[N];
    if (load) {
      if (p == reinterpret_cast<uint8_t*>(sink))
        std::fill_n(sink, N, 0u); // out of range reads zero
      std::memcpy(v, p, sizeof v);
      for (unsigned i = 0; i < N; ++i) rows[i][lane] = v[i];
    } else {
      for (unsigned i = 0; i < N; ++i) v[i] = rows[i][lane];
      std::memcpy(p, v, sizeof v); // out of range: discarded into the sink
    }
  }
}

bool Executor::exec_ds_wide_fast(Wave& w, const Inst& in) {
  const bool load = in.op == Op::ds_load_b32 || in.op == Op::ds_load_b64 ||
                    in.op == Op::ds_load_b96 || in.op == Op::ds_load_b128;
  if (!load && in.op != Op::ds_store_b32 && in.op != Op::ds_store_b64 &&
      in.op != Op::ds_store_b96 && in.op != Op::ds_store_b128)
    return false;
  const unsigned n = regs_of(load ? op_info(in.op).dst_dwords : op_info(in.op).src_dwords[0]);
  const uint64_t size = lds_.size();
  if (w.exec() != ~0u || size < 4 * n || size > (uint64_t(1) << 31)) return false;
  // Registers beyond the allocation, or a VGPR address operand out of it: the general path
  // faults where it does.
  const uint16_t data = load ? in.dst : in.src[1];
  if (data < src::kVgpr0 || in.src[0] < src::kVgpr0 ||
      unsigned(data - src::kVgpr0) + n > w.num_vgprs ||
      unsigned(in.src[0] - src::kVgpr0) >= w.num_vgprs)
    return false;
  const uint32_t* address = &vreg(w, in.src[0], 0);
  const uint32_t offset = uint32_t(in.imm | (in.offset1 << 8));
  // The access unit is a dword (lds_at): only misaligned lanes take misaligned_address.
  uint32_t misaligned = 0;
  for (unsigned lane = 0; lane < kWaveSize; ++lane) misaligned |= (address[lane] + offset) & 3;
  if (misaligned) return false;
  switch (n) {
  case 1:
    ds_wide_rows<1>(w, in, load);
    break;
  case 2:
    ds_wide_rows<2>(w, in, load);
    break;
  case 3:
    ds_wide_rows<3>(w, in, load);
    break;
  default:
    ds_wide_rows<4>(w, in, load);
    break;
  }
  return true;
}

void Executor::exec_ds(Wave& w, const Inst& in) {
  if (in.op == Op::ds_load_b32 || in.op == Op::ds_store_b32) return exec_ds_dwords(w, in);
  if (fast_paths && exec_ds_wide_fast(w, in)) return;
  if (in.op == Op::ds_nop) return;
  if (is_ds_bvh_stack(in.op)) return exec_ds_bvh_stack(w, in);
  if (in.op == Op::ds_swizzle_b32 || in.op == Op::ds_permute_b32 || in.op == Op::ds_bpermute_b32 ||
      in.op == Op::ds_bpermute_fi_b32)
    return exec_ds_cross_lane(w, in);
  if (ds_without_addr(in.op))
    return in.op == Op::ds_append || in.op == Op::ds_consume ? exec_ds_counter(w, in)
                                                             : exec_ds_addtid(w, in);
  const OpInfo& info = op_info(in.op);
  const uint32_t exec = w.exec();
  if (fast_paths && (exec_ds_atomic_fast(w, in, exec) || exec_ds_atomic64_fast(w, in, exec)))
    return;
  auto load = [&](uint32_t a, void* v, unsigned bytes) { lds_load(w, in, a, v, bytes); };
  auto store = [&](uint32_t a, const void* v, unsigned bytes) { lds_store(w, in, a, v, bytes); };
  const bool stride64 =
      in.op == Op::ds_store_2addr_stride64_b32 || in.op == Op::ds_store_2addr_stride64_b64 ||
      in.op == Op::ds_load_2addr_stride64_b32 || in.op == Op::ds_load_2addr_stride64_b64;
  for (unsigned lane = 0; lane < kWaveSize; ++lane) {
    if (!((exec >> lane) & 1)) continue;
    const uint32_t base = vreg(w, in.src[0], lane);
    const uint32_t addr = base + uint32_t(in.imm | (in.offset1 << 8));
    // One operation per line: it reads as the ISA table it is.
    // clang-format off
    switch (in.op) {
    case Op::ds_store_b8: { uint8_t v = uint8_t(vreg(w, in.src[1], lane)); store(addr, &v, 1); break; }
    case Op::ds_store_b16: { uint16_t v = uint16_t(vreg(w, in.src[1], lane)); store(addr, &v, 2); break; }
    case Op::ds_store_b32: case Op::ds_store_b64: case Op::ds_store_b96: case Op::ds_store_b128: {
      uint32_t v[4];
      const unsigned n = regs_of(info.src_dwords[0]);
      for (unsigned i = 0; i < n; ++i) v[i] = vreg(w, in.src[1], lane, i);
      store(addr, v, 4 * n);
      break;
    }
    case Op::ds_load_u8: case Op::ds_load_i8: {
      uint8_t v; load(addr, &v, 1);
      vreg(w, in.dst, lane) = in.op == Op::ds_load_i8 ? uint32_t(int32_t(int8_t(v))) : v; break;
    }
    case Op::ds_load_u16: case Op::ds_load_i16: {
      uint16_t v; load(addr, &v, 2);
      vreg(w, in.dst, lane) = in.op == Op::ds_load_i16 ? uint32_t(int32_t(int16_t(v))) : v; break;
    }
    case Op::ds_load_b32: case Op::ds_load_b64: case Op::ds_load_b96: case Op::ds_load_b128: {
      uint32_t v[4];
      const unsigned n = regs_of(info.dst_dwords);
      load(addr, v, 4 * n);
      for (unsigned i = 0; i < n; ++i) vreg(w, in.dst, lane, i) = v[i];
      break;
    }
    // Two addresses: offset0/offset1 count elements (times 64 for the stride64 forms).
    case Op::ds_store_2addr_b32: case Op::ds_store_2addr_stride64_b32:
    case Op::ds_store_2addr_b64: case Op::ds_store_2addr_stride64_b64: {
      const unsigned n = regs_of(info.src_dwords[0]); // dwords per element
      const uint32_t unit = 4 * n * (stride64 ? 64 : 1);
      uint32_t v0[2], v1[2];
      for (unsigned i = 0; i < n; ++i) v0[i] = vreg(w, in.src[1], lane, i), v1[i] = vreg(w, in.src[2], lane, i);
      store(base + unit * uint32_t(in.imm), v0, 4 * n);
      store(base + unit * in.offset1, v1, 4 * n);
      break;
    }
    case Op::ds_load_2addr_b32: case Op::ds_load_2addr_stride64_b32:
    case Op::ds_load_2addr_b64: case Op::ds_load_2addr_stride64_b64: {
      const unsigned n = regs_of(info.dst_dwords) / 2;
      const uint32_t unit = 4 * n * (stride64 ? 64 : 1);
      uint32_t v[4];
      load(base + unit * uint32_t(in.imm), v, 4 * n);
      load(base + unit * in.offset1, v + n, 4 * n);
      for (unsigned i = 0; i < 2 * n; ++i) vreg(w, in.dst, lane, i) = v[i];
      break;
    }
    // Half-VGPR accesses: the stores take bits [23:16] / [31:16], the loads fill the low (or
    // high) half with the byte zero- or sign-extended to 16 bits, or the short, keeping the other.
    case Op::ds_store_b8_d16_hi: {
      uint8_t v = uint8_t(vreg(w, in.src[1], lane) >> 16);
      store(addr, &v, 1);
      break;
    }
    case Op::ds_store_b16_d16_hi: {
      uint16_t v = uint16_t(vreg(w, in.src[1], lane) >> 16);
      store(addr, &v, 2);
      break;
    }
    case Op::ds_load_u8_d16:
    case Op::ds_load_u8_d16_hi:
    case Op::ds_load_i8_d16:
    case Op::ds_load_i8_d16_hi:
    case Op::ds_load_u16_d16:
    case Op::ds_load_u16_d16_hi: {
      uint16_t v;
      if (in.op == Op::ds_load_u16_d16 || in.op == Op::ds_load_u16_d16_hi)
        load(addr, &v, 2);
      else {
        uint8_t b;
        load(addr, &b, 1);
        v = in.op == Op::ds_load_i8_d16 || in.op == Op::ds_load_i8_d16_hi
                ? uint16_t(int16_t(int8_t(b)))
                : b;
      }
      const bool hi = in.op == Op::ds_load_u8_d16_hi || in.op == Op::ds_load_i8_d16_hi ||
                      in.op == Op::ds_load_u16_d16_hi;
      uint32_t& d = vreg(w, in.dst, lane);
      d = hi ? (d & 0xffffu) | (uint32_t(v) << 16) : (d & 0xffff0000u) | v;
      break;
    }
    // Exchanges at two addresses (counted in elements as for ds_store_2addr): the old values of
    // the first and then the second go to VDST.
    case Op::ds_storexchg_2addr_rtn_b32:
    case Op::ds_storexchg_2addr_stride64_rtn_b32:
    case Op::ds_storexchg_2addr_rtn_b64:
    case Op::ds_storexchg_2addr_stride64_rtn_b64: {
      const unsigned n = regs_of(info.src_dwords[0]);
      const bool st64 = in.op == Op::ds_storexchg_2addr_stride64_rtn_b32 ||
                        in.op == Op::ds_storexchg_2addr_stride64_rtn_b64;
      const uint32_t unit = 4 * n * (st64 ? 64 : 1);
      uint32_t v0[2], v1[2], old[4];
      for (unsigned i = 0; i < n; ++i)
        v0[i] = vreg(w, in.src[1], lane, i), v1[i] = vreg(w, in.src[2], lane, i);
      load(base + unit * uint32_t(in.imm), old, 4 * n);
      store(base + unit * uint32_t(in.imm), v0, 4 * n);
      load(base + unit * in.offset1, old + n, 4 * n);
      store(base + unit * in.offset1, v1, 4 * n);
      for (unsigned i = 0; i < 2 * n; ++i) vreg(w, in.dst, lane, i) = old[i];
      break;
    }
    // Two dwords, each replaced by its data dword with bit 31 cleared when that bit is set
    // (RDNA3 ISA manual, DS_CONDXCHG32_RTN_B64); both old dwords are returned.
    case Op::ds_condxchg32_rtn_b64: {
      uint32_t old[2], now[2];
      load(addr, old, 8);
      for (unsigned i = 0; i < 2; ++i) {
        const uint32_t x = vreg(w, in.src[1], lane, i);
        now[i] = x >> 31 ? x & 0x7fffffffu : old[i];
      }
      store(addr, now, 8);
      vreg(w, in.dst, lane) = old[0], vreg(w, in.dst, lane, 1) = old[1];
      break;
    }
    default: ds_atomic_lane(w, in, addr, lane); break;
    }
    // clang-format on
  }
}

} // namespace sim::shader
