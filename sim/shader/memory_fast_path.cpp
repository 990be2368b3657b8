// The common vector memory accesses without the general path's per-lane dispatch: global and
// flat (outside the LDS and private apertures) byte, short and dword accesses and atomics whose
// every lane is naturally aligned, and the LDS's 32-bit atomics. Operand rows are resolved once
// per instruction, the operation is chosen once, and a page is translated once for the lanes
// that share it. Lanes run in the same order and with the same memory operations as in
// flat.cpp's exec_flat / flat_lane and ds.cpp's exec_ds, which define the semantics; anything
// else returns false before touching memory and takes the general path.
#include "atomic_ops.h"
#include "executor.h"

#include <array>
#include <atomic>
#include <bit>
#include <cstdio>
#include <cstring>
#include <string>
#include <type_traits>

namespace sim::shader {
namespace {

enum class Kind : uint8_t { None, Load, LoadD16, Store, Atomic };

struct Access {
  Kind kind = Kind::None;
  uint8_t bytes = 0; // per lane
  bool sign = false; // loads: sign-extend
  bool high = false; // d16 loads fill / d16_hi stores take the high half
};

// flat_atomic and ds_atomic by table: their switches showed in the profiles (a call per
// instruction).
template <AtomicOp (*F)(Op)> constexpr auto atomic_table() {
  std::array<AtomicOp, size_t(Op::kCount)> t{};
  for (size_t i = 0; i < t.size(); ++i) t[i] = F(Op(i));
  return t;
}
constexpr auto kFlatAtomics = atomic_table<flat_atomic>();
constexpr auto kDsAtomics = atomic_table<ds_atomic>();

Access classify(Op op) {
  switch (op) {
  case Op::load_u8:
    return {Kind::Load, 1};
  case Op::load_i8:
    return {Kind::Load, 1, true};
  case Op::load_u16:
    return {Kind::Load, 2};
  case Op::load_i16:
    return {Kind::Load, 2, true};
  case Op::load_b32:
    return {Kind::Load, 4};
  case Op::load_d16_u8:
    return {Kind::LoadD16, 1};
  case Op::load_d16_i8:
    return {Kind::LoadD16, 1, true};
  case Op::load_d16_b16:
    return {Kind::LoadD16, 2};
  case Op::load_d16_hi_u8:
    return {Kind::LoadD16, 1, false, true};
  case Op::load_d16_hi_i8:
    return {Kind::LoadD16, 1, true, true};
  case Op::load_d16_hi_b16:
    return {Kind::LoadD16, 2, false, true};
  case Op::store_b8:
    return {Kind::Store, 1};
  case Op::store_b16:
    return {Kind::Store, 2};
  case Op::store_b32:
    return {Kind::Store, 4};
  case Op::store_d16_hi_b8:
    return {Kind::Store, 1, false, true};
  case Op::store_d16_hi_b16:
    return {Kind::Store, 2, false, true};
  default: {
    const AtomicOp atomic = kFlatAtomics[size_t(op)];
    if (atomic.rmw == Rmw::None) return {};
    return {Kind::Atomic, atomic.bytes};
  }
  }
}

template <class T> T load_relaxed(const uint8_t* p) {
  return std::atomic_ref<T>(*reinterpret_cast<T*>(const_cast<uint8_t*>(p)))
      .load(std::memory_order_relaxed);
}
template <class T> void store_relaxed(uint8_t* p, T v) {
  std::atomic_ref<T>(*reinterpret_cast<T*>(p)).store(v, std::memory_order_relaxed);
}

// A row of T-wide lane values in dword VGPRs: the low dwords and, for 64 bits, the high ones.
// A null row reads as zeros (an operation without a second operand) or is not written.
template <class T> struct Lanes {
  const uint32_t* lo = nullptr;
  const uint32_t* hi = nullptr;
  T operator[](unsigned lane) const {
    if (!lo) return 0;
    if constexpr (sizeof(T) == 8) return uint64_t(lo[lane]) | uint64_t(hi[lane]) << 32;
    return lo[lane];
  }
};
template <class T> struct OutLanes {
  uint32_t* lo = nullptr;
  uint32_t* hi = nullptr;
  void set(unsigned lane, T v) const {
    lo[lane] = uint32_t(v);
    if constexpr (sizeof(T) == 8) hi[lane] = uint32_t(v >> 32);
  }
};

// The global atomics of a wave's lanes on host memory, in lane order. Consecutive lanes on one
// address (a counter every work-item updates, a compare-exchange loop) apply their
// read-modify-writes in lane order to one loaded value, published with one compare-exchange
// (redone if another host thread wrote in between): the same results as lane-by-lane atomics,
// as if no other wave's access fell between them. `host` translates (and may fault before a
// run touches memory, leaving the lanes before it done, as the general path does).
template <class T, class Host, class R>
[[gnu::always_inline]] inline void atomic_runs(uint32_t exec, const uint64_t* addr, Host& host,
                                               R rmw, Lanes<T> data, Lanes<T> data2,
                                               OutLanes<T> d) {
  for (uint32_t m = exec; m;) {
    const uint64_t a = addr[std::countr_zero(m)];
    uint32_t run = 0;
    for (uint32_t g = m; g && addr[std::countr_zero(g)] == a; g &= g - 1) run |= g & -g;
    m &= ~run;
    std::atomic_ref<T> ref(*reinterpret_cast<T*>(host(a)));
    T first = ref.load();
    T old[kWaveSize]; // not in d's rows yet: VDST may be a data register, reread on a retry
    for (;;) {
      T value = first;
      for (uint32_t g = run; g; g &= g - 1) {
        const unsigned l = unsigned(std::countr_zero(g));
        old[l] = value;
        value = rmw(value, data[l], data2[l]);
      }
      if (ref.compare_exchange_weak(first, value)) break;
    }
    if (d.lo)
      for (uint32_t g = run; g; g &= g - 1)
        d.set(unsigned(std::countr_zero(g)), old[std::countr_zero(g)]);
  }
}
} // namespace

bool Executor::exec_vmem_fast(Wave& w, const Inst& in, uint32_t exec, bool saddr, uint64_t sbase) {
  const Access access = classify(in.op);
  if (access.kind == Kind::None) return false;
  const unsigned bytes = access.bytes;
  // Addresses: each naturally aligned (so inside one page), none in an aperture.
  const bool flat = in.segment == Segment::Flat;
  const uint64_t shared = w.shared_aperture >> 48, priv = w.private_aperture >> 48;
  const uint32_t* lo = &vreg(w, in.src[0], 0);
  const uint32_t* hi = saddr ? nullptr : &vreg(w, in.src[0], 0, 1);
  uint64_t addr[kWaveSize];
  for (uint32_t m = exec; m; m &= m - 1) {
    const unsigned lane = unsigned(std::countr_zero(m));
    const uint64_t a = (saddr ? sbase + lo[lane] : uint64_t(lo[lane]) | uint64_t(hi[lane]) << 32) +
                       uint64_t(int64_t(in.imm));
    if (a & (bytes - 1)) return false;
    if (flat &&
        ((w.shared_aperture && (a >> 48) == shared) || (w.private_aperture && (a >> 48) == priv)))
      return false;
    addr[lane] = a;
  }
  const bool write = access.kind == Kind::Store || access.kind == Kind::Atomic;
  try {
    uint64_t page = ~0ull;
    uint8_t* host_page = nullptr;
    auto host = [&](uint64_t a) {
      if ((a >> 12) != page) {
        page = a >> 12;
        host_page = page_of(a & ~uint64_t(4095), write);
      }
      return host_page + (a & 4095);
    };
    switch (access.kind) {
    case Kind::Load: {
      uint32_t* d = &vreg(w, in.dst, 0);
      for (uint32_t m = exec; m; m &= m - 1) {
        const unsigned lane = unsigned(std::countr_zero(m));
        const uint8_t* p = host(addr[lane]);
        uint32_t v;
        if (bytes == 1)
          v = access.sign ? uint32_t(int32_t(int8_t(load_relaxed<uint8_t>(p))))
                          : load_relaxed<uint8_t>(p);
        else if (bytes == 2)
          v = access.sign ? uint32_t(int32_t(int16_t(load_relaxed<uint16_t>(p))))
                          : load_relaxed<uint16_t>(p);
        else
          v = load_relaxed<uint32_t>(p);
        d[lane] = v;
      }
      return true;
    }
    case Kind::LoadD16: {
      uint32_t* d = &vreg(w, in.dst, 0);
      for (uint32_t m = exec; m; m &= m - 1) {
        const unsigned lane = unsigned(std::countr_zero(m));
        const uint8_t* p = host(addr[lane]);
        uint16_t v;
        if (bytes == 2)
          v = load_relaxed<uint16_t>(p);
        else
          v = access.sign ? uint16_t(int16_t(int8_t(load_relaxed<uint8_t>(p))))
                          : load_relaxed<uint8_t>(p);
        d[lane] =
            access.high ? (d[lane] & 0xffffu) | (uint32_t(v) << 16) : (d[lane] & 0xffff0000u) | v;
      }
      return true;
    }
    case Kind::Store: {
      const uint32_t* data = &vreg(w, in.src[1], 0);
      const unsigned shift = access.high ? 16 : 0;
      for (uint32_t m = exec; m; m &= m - 1) {
        const unsigned lane = unsigned(std::countr_zero(m));
        uint8_t* p = host(addr[lane]);
        const uint32_t v = data[lane] >> shift;
        if (bytes == 1)
          store_relaxed<uint8_t>(p, uint8_t(v));
        else if (bytes == 2)
          store_relaxed<uint16_t>(p, uint16_t(v));
        else
          store_relaxed<uint32_t>(p, v);
      }
      return true;
    }
    case Kind::Atomic: {
      // The second data operand (cmpswap's compared value) follows the first in the data VGPRs.
      const AtomicOp atomic = kFlatAtomics[size_t(in.op)];
      const OpInfo& info = op_info(in.op);
      const bool two = regs_of(info.src_dwords[0]) * 4 == 2u * atomic.bytes;
      const unsigned words = atomic.bytes / 4;
      const uint32_t* data = &vreg(w, in.src[1], 0);
      const uint32_t* data2 = two ? &vreg(w, in.src[1], 0, words) : nullptr;
      uint32_t* d = in.has_vdst_data ? &vreg(w, in.dst, 0) : nullptr;
      const uint32_t* data_hi = words == 2 ? &vreg(w, in.src[1], 0, 1) : nullptr;
      const uint32_t* data2_hi = two && words == 2 ? &vreg(w, in.src[1], 0, 3) : nullptr;
      uint32_t* d_hi = d && words == 2 ? &vreg(w, in.dst, 0, 1) : nullptr;
      if (words == 2)
        with_rmw<uint64_t>(atomic.rmw, [&](auto rmw) {
          atomic_runs<uint64_t>(exec, addr, host, rmw, {data, data_hi}, {data2, data2_hi},
                                {d, d_hi});
        });
      else
        with_rmw<uint32_t>(atomic.rmw, [&](auto rmw) {
          atomic_runs<uint32_t>(exec, addr, host, rmw, {data}, {data2}, {d});
        });
      return true;
    }
    case Kind::None:
      break;
    }
  } catch (const MemoryFault& f) {
    throw ShaderFault(std::string(f.what()) + " at pc " + hex(w.pc) + " (" + disassemble(in) + ")",
                      f.address, f.write);
  }
  return false;
}

// The LDS's 32-bit read-modify-writes (a work-group's waves run on one host thread, so each
// lane's is atomic without host atomics). Out-of-range lanes read zero and write nothing.
bool Executor::exec_ds_atomic_fast(Wave& w, const Inst& in, uint32_t exec) {
  const AtomicOp atomic = kDsAtomics[size_t(in.op)];
  if (atomic.rmw == Rmw::None || atomic.bytes != 4) return false;
  const bool two = op_info(in.op).src_dwords[1] != 0; // DATA1: the compared value, mskor's OR bits
  const uint32_t* address = &vreg(w, in.src[0], 0);
  const uint32_t* data = &vreg(w, in.src[1], 0);
  const uint32_t* data2 = two ? &vreg(w, in.src[2], 0) : nullptr;
  uint32_t* d = atomic.rtn ? &vreg(w, in.dst, 0) : nullptr;
  const uint32_t offset = uint32_t(in.imm | (in.offset1 << 8));
  const uint64_t size = lds_.size();
  with_rmw<uint32_t>(atomic.rmw, [&](auto rmw) {
    for (uint32_t m = exec; m; m &= m - 1) {
      const unsigned lane = unsigned(std::countr_zero(m));
      uint32_t a = address[lane] + offset;
      if (a & 3) a = uint32_t(misaligned_address(w, in, a, 4));
      uint8_t* p = uint64_t(a) + 4 <= size ? &lds_[a] : nullptr;
      uint32_t old = 0;
      if (p) std::memcpy(&old, p, 4);
      const uint32_t now = rmw(old, data[lane], two ? data2[lane] : 0);
      if (p) std::memcpy(p, &now, 4);
      if (d) d[lane] = old;
    }
  });
  return true;
}

} // namespace sim::shader
