// The read-modify-write operations of the LDS (DS_*) and FLAT/GLOBAL (*_ATOMIC_*) atomics: what
// each leaves in memory, its element size and whether it returns the old value (RDNA3 and RDNA4
// ISA manuals, the DS and FLAT instructions' pseudocode). DS and FLAT share the semantics; only
// the way memory is reached differs (see exec_ds and exec_flat).
#pragma once
#include "float_ops.h"
#include "isa.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace sim::shader {

enum class Rmw : uint8_t {
  None,
  Swap,    // data
  CmpSwap, // old == data2 ? data : old (the compared value is the second operand)
  Add,     // old + data
  Sub,     // old - data
  Rsub,    // data - old
  MinI,    // signed minimum
  MaxI,
  MinU, // unsigned minimum
  MaxU,
  And,
  Or,
  Xor,
  Inc,   // old >= data ? 0 : old + 1 (wraps to 0 past the bound)
  Dec,   // old == 0 || old > data ? data : old - 1 (wraps to the bound below 0)
  Mskor, // (old & ~data) | data2
  Wrap,  // old >= data ? old - data : old + data2
  AddF,  // float addition
  MinF,  // float minimumNumber (a NaN operand gives the other one)
  MaxF,
  CmpSwapF,  // float compare: old == data2 ? data : old, with -0 == +0 and NaN never equal
  CondSub,   // old >= data ? old - data : old (gfx12)
  SubClamp,  // old >= data ? old - data : 0 (gfx12)
  PkAddF16,  // each 16-bit half: old + data as halves (gfx12)
  PkAddBF16, // each 16-bit half: old + data as bf16 (gfx12)
  // gfx12 streamout's ordered add on {id dword, value dword}: when the id in memory is the
  // data's id, the id moves to the next one and the value adds the data's high dword.
  OrderedAdd,
};

// VGT_GS_MAX_WAVE_ID, where GLOBAL_ATOMIC_ORDERED_ADD_B64's ordered id wraps (RDNA4 ISA manual
// pseudocode: (old_mem_id + 1) & VGT_GS_MAX_WAVE_ID). A geometry-engine register amcl's compute
// queues never program; the model holds amdgpu's golden value for gfx10.3 (gfx_v10_0.c:
// mmVGT_GS_MAX_WAVE_ID, mask 0xfff, value 0x3ff), as no gfx12 value is public.
inline constexpr uint32_t kVgtGsMaxWaveId = 0x3ff;

struct AtomicOp {
  Rmw rmw = Rmw::None;
  uint8_t bytes = 0; // element size: 4 or 8
  bool rtn = false;  // DS: the _rtn_ forms write the old value to VDST
};

// The DS atomics that read-modify-write one element (not the exchanges of two addresses, nor
// ds_condxchg32_rtn_b64, which exec_ds runs itself).
constexpr AtomicOp ds_atomic(Op op) {
  switch (op) {
  case Op::ds_add_u32:
    return {Rmw::Add, 4, false};
  case Op::ds_sub_u32:
    return {Rmw::Sub, 4, false};
  case Op::ds_rsub_u32:
    return {Rmw::Rsub, 4, false};
  case Op::ds_inc_u32:
    return {Rmw::Inc, 4, false};
  case Op::ds_dec_u32:
    return {Rmw::Dec, 4, false};
  case Op::ds_min_i32:
    return {Rmw::MinI, 4, false};
  case Op::ds_max_i32:
    return {Rmw::MaxI, 4, false};
  case Op::ds_min_u32:
    return {Rmw::MinU, 4, false};
  case Op::ds_max_u32:
    return {Rmw::MaxU, 4, false};
  case Op::ds_and_b32:
    return {Rmw::And, 4, false};
  case Op::ds_or_b32:
    return {Rmw::Or, 4, false};
  case Op::ds_xor_b32:
    return {Rmw::Xor, 4, false};
  case Op::ds_mskor_b32:
    return {Rmw::Mskor, 4, false};
  case Op::ds_cmpstore_b32:
    return {Rmw::CmpSwap, 4, false};
  case Op::ds_cmpstore_f32:
    return {Rmw::CmpSwapF, 4, false};
  case Op::ds_min_f32:
    return {Rmw::MinF, 4, false};
  case Op::ds_max_f32:
    return {Rmw::MaxF, 4, false};
  case Op::ds_add_f32:
    return {Rmw::AddF, 4, false};
  case Op::ds_add_rtn_u32:
    return {Rmw::Add, 4, true};
  case Op::ds_sub_rtn_u32:
    return {Rmw::Sub, 4, true};
  case Op::ds_rsub_rtn_u32:
    return {Rmw::Rsub, 4, true};
  case Op::ds_inc_rtn_u32:
    return {Rmw::Inc, 4, true};
  case Op::ds_dec_rtn_u32:
    return {Rmw::Dec, 4, true};
  case Op::ds_min_rtn_i32:
    return {Rmw::MinI, 4, true};
  case Op::ds_max_rtn_i32:
    return {Rmw::MaxI, 4, true};
  case Op::ds_min_rtn_u32:
    return {Rmw::MinU, 4, true};
  case Op::ds_max_rtn_u32:
    return {Rmw::MaxU, 4, true};
  case Op::ds_and_rtn_b32:
    return {Rmw::And, 4, true};
  case Op::ds_or_rtn_b32:
    return {Rmw::Or, 4, true};
  case Op::ds_xor_rtn_b32:
    return {Rmw::Xor, 4, true};
  case Op::ds_mskor_rtn_b32:
    return {Rmw::Mskor, 4, true};
  case Op::ds_storexchg_rtn_b32:
    return {Rmw::Swap, 4, true};
  case Op::ds_cmpstore_rtn_b32:
    return {Rmw::CmpSwap, 4, true};
  case Op::ds_cmpstore_rtn_f32:
    return {Rmw::CmpSwapF, 4, true};
  case Op::ds_min_rtn_f32:
    return {Rmw::MinF, 4, true};
  case Op::ds_max_rtn_f32:
    return {Rmw::MaxF, 4, true};
  case Op::ds_cond_sub_u32:
    return {Rmw::CondSub, 4, false};
  case Op::ds_sub_clamp_u32:
    return {Rmw::SubClamp, 4, false};
  case Op::ds_cond_sub_rtn_u32:
    return {Rmw::CondSub, 4, true};
  case Op::ds_sub_clamp_rtn_u32:
    return {Rmw::SubClamp, 4, true};
  case Op::ds_wrap_rtn_b32:
    return {Rmw::Wrap, 4, true};
  case Op::ds_pk_add_f16:
    return {Rmw::PkAddF16, 4, false};
  case Op::ds_pk_add_bf16:
    return {Rmw::PkAddBF16, 4, false};
  case Op::ds_pk_add_rtn_f16:
    return {Rmw::PkAddF16, 4, true};
  case Op::ds_pk_add_rtn_bf16:
    return {Rmw::PkAddBF16, 4, true};
  case Op::ds_add_rtn_f32:
    return {Rmw::AddF, 4, true};
  case Op::ds_add_u64:
    return {Rmw::Add, 8, false};
  case Op::ds_sub_u64:
    return {Rmw::Sub, 8, false};
  case Op::ds_rsub_u64:
    return {Rmw::Rsub, 8, false};
  case Op::ds_inc_u64:
    return {Rmw::Inc, 8, false};
  case Op::ds_dec_u64:
    return {Rmw::Dec, 8, false};
  case Op::ds_min_i64:
    return {Rmw::MinI, 8, false};
  case Op::ds_max_i64:
    return {Rmw::MaxI, 8, false};
  case Op::ds_min_u64:
    return {Rmw::MinU, 8, false};
  case Op::ds_max_u64:
    return {Rmw::MaxU, 8, false};
  case Op::ds_and_b64:
    return {Rmw::And, 8, false};
  case Op::ds_or_b64:
    return {Rmw::Or, 8, false};
  case Op::ds_xor_b64:
    return {Rmw::Xor, 8, false};
  case Op::ds_mskor_b64:
    return {Rmw::Mskor, 8, false};
  case Op::ds_cmpstore_b64:
    return {Rmw::CmpSwap, 8, false};
  case Op::ds_cmpstore_f64:
    return {Rmw::CmpSwapF, 8, false};
  case Op::ds_min_f64:
    return {Rmw::MinF, 8, false};
  case Op::ds_max_f64:
    return {Rmw::MaxF, 8, false};
  case Op::ds_add_rtn_u64:
    return {Rmw::Add, 8, true};
  case Op::ds_sub_rtn_u64:
    return {Rmw::Sub, 8, true};
  case Op::ds_rsub_rtn_u64:
    return {Rmw::Rsub, 8, true};
  case Op::ds_inc_rtn_u64:
    return {Rmw::Inc, 8, true};
  case Op::ds_dec_rtn_u64:
    return {Rmw::Dec, 8, true};
  case Op::ds_min_rtn_i64:
    return {Rmw::MinI, 8, true};
  case Op::ds_max_rtn_i64:
    return {Rmw::MaxI, 8, true};
  case Op::ds_min_rtn_u64:
    return {Rmw::MinU, 8, true};
  case Op::ds_max_rtn_u64:
    return {Rmw::MaxU, 8, true};
  case Op::ds_and_rtn_b64:
    return {Rmw::And, 8, true};
  case Op::ds_or_rtn_b64:
    return {Rmw::Or, 8, true};
  case Op::ds_xor_rtn_b64:
    return {Rmw::Xor, 8, true};
  case Op::ds_mskor_rtn_b64:
    return {Rmw::Mskor, 8, true};
  case Op::ds_storexchg_rtn_b64:
    return {Rmw::Swap, 8, true};
  case Op::ds_cmpstore_rtn_b64:
    return {Rmw::CmpSwap, 8, true};
  case Op::ds_cmpstore_rtn_f64:
    return {Rmw::CmpSwapF, 8, true};
  case Op::ds_min_rtn_f64:
    return {Rmw::MinF, 8, true};
  case Op::ds_max_rtn_f64:
    return {Rmw::MaxF, 8, true};
  default:
    return {};
  }
}

// The FLAT/GLOBAL atomics; whether one returns the old value is its GLC (gfx11) or
// TH_ATOMIC_RETURN (gfx12) bit, Inst::has_vdst_data.
constexpr AtomicOp flat_atomic(Op op) {
  switch (op) {
  case Op::atomic_swap_b32:
    return {Rmw::Swap, 4};
  case Op::atomic_cmpswap_b32:
    return {Rmw::CmpSwap, 4};
  case Op::atomic_add_u32:
    return {Rmw::Add, 4};
  case Op::atomic_sub_u32:
    return {Rmw::Sub, 4};
  case Op::atomic_csub_u32: // gfx12: atomic_sub_clamp_u32
    return {Rmw::SubClamp, 4};
  case Op::atomic_cond_sub_u32:
    return {Rmw::CondSub, 4};
  case Op::atomic_min_i32:
    return {Rmw::MinI, 4};
  case Op::atomic_min_u32:
    return {Rmw::MinU, 4};
  case Op::atomic_max_i32:
    return {Rmw::MaxI, 4};
  case Op::atomic_max_u32:
    return {Rmw::MaxU, 4};
  case Op::atomic_and_b32:
    return {Rmw::And, 4};
  case Op::atomic_or_b32:
    return {Rmw::Or, 4};
  case Op::atomic_xor_b32:
    return {Rmw::Xor, 4};
  case Op::atomic_inc_u32:
    return {Rmw::Inc, 4};
  case Op::atomic_dec_u32:
    return {Rmw::Dec, 4};
  case Op::atomic_add_f32:
    return {Rmw::AddF, 4};
  case Op::atomic_cmpswap_f32:
    return {Rmw::CmpSwapF, 4};
  case Op::atomic_min_f32:
    return {Rmw::MinF, 4};
  case Op::atomic_max_f32:
    return {Rmw::MaxF, 4};
  case Op::atomic_pk_add_f16:
    return {Rmw::PkAddF16, 4};
  case Op::atomic_pk_add_bf16:
    return {Rmw::PkAddBF16, 4};
  case Op::atomic_swap_b64:
    return {Rmw::Swap, 8};
  case Op::atomic_cmpswap_b64:
    return {Rmw::CmpSwap, 8};
  case Op::atomic_add_u64:
    return {Rmw::Add, 8};
  case Op::atomic_sub_u64:
    return {Rmw::Sub, 8};
  case Op::atomic_min_i64:
    return {Rmw::MinI, 8};
  case Op::atomic_min_u64:
    return {Rmw::MinU, 8};
  case Op::atomic_max_i64:
    return {Rmw::MaxI, 8};
  case Op::atomic_max_u64:
    return {Rmw::MaxU, 8};
  case Op::atomic_and_b64:
    return {Rmw::And, 8};
  case Op::atomic_or_b64:
    return {Rmw::Or, 8};
  case Op::atomic_xor_b64:
    return {Rmw::Xor, 8};
  case Op::atomic_inc_u64:
    return {Rmw::Inc, 8};
  case Op::atomic_dec_u64:
    return {Rmw::Dec, 8};
  case Op::atomic_ordered_add_b64:
    return {Rmw::OrderedAdd, 8};
  default:
    return {};
  }
}

// The value `rmw` stores over `old`; T is uint32_t or uint64_t (the float operations read it as
// float or double). data2 is the second data operand (the compared value, mskor's OR bits).
template <class T> T rmw_result(Rmw rmw, T old, T data, T data2) {
  static_assert(std::is_same_v<T, uint32_t> || std::is_same_v<T, uint64_t>);
  using S = std::make_signed_t<T>;
  using F = std::conditional_t<sizeof(T) == 8, double, float>;
  auto f = [](T v) {
    F x;
    std::memcpy(&x, &v, sizeof x);
    return x;
  };
  auto bits = [](F x) {
    T v;
    std::memcpy(&v, &x, sizeof v);
    return v;
  };
  switch (rmw) {
  case Rmw::Swap:
    return data;
  case Rmw::CmpSwap:
    return old == data2 ? data : old;
  case Rmw::Add:
    return old + data;
  case Rmw::Sub:
    return old - data;
  case Rmw::Rsub:
    return data - old;
  case Rmw::MinI:
    return T(std::min(S(old), S(data)));
  case Rmw::MaxI:
    return T(std::max(S(old), S(data)));
  case Rmw::MinU:
    return std::min(old, data);
  case Rmw::MaxU:
    return std::max(old, data);
  case Rmw::And:
    return old & data;
  case Rmw::Or:
    return old | data;
  case Rmw::Xor:
    return old ^ data;
  case Rmw::Inc:
    return old >= data ? T(0) : T(old + 1);
  case Rmw::Dec:
    return old == 0 || old > data ? data : T(old - 1);
  case Rmw::Mskor:
    return (old & ~data) | data2;
  case Rmw::CondSub:
    return old >= data ? T(old - data) : old;
  case Rmw::SubClamp:
    return old >= data ? T(old - data) : T(0);
  case Rmw::Wrap:
    return old >= data ? T(old - data) : T(old + data2);
  case Rmw::AddF:
    return bits(f(old) + f(data));
  case Rmw::MinF: {
    const F x = f(old), y = f(data);
    return bits(std::isnan(x) ? y : std::isnan(y) ? x : std::fmin(x, y));
  }
  case Rmw::MaxF: {
    const F x = f(old), y = f(data);
    return bits(std::isnan(x) ? y : std::isnan(y) ? x : std::fmax(x, y));
  }
  case Rmw::CmpSwapF:
    return f(old) == f(data2) ? data : old;
  // Two halves, each rounded once to nearest even (the sum of two halves is exact in a double;
  // that of two bf16s in a float where it matters: RDNA4 ISA manual, DS_PK_ADD_F16/_BF16).
  case Rmw::PkAddF16:
  case Rmw::PkAddBF16: {
    if constexpr (sizeof(T) == 4) {
      uint32_t r = 0;
      for (unsigned h = 0; h < 2; ++h) {
        const uint16_t a = uint16_t(old >> (16 * h)), b = uint16_t(data >> (16 * h));
        const uint16_t sum =
            rmw == Rmw::PkAddF16 ? f2h(double(h2f(a)) + double(h2f(b))) : f2bf(bf2f(a) + bf2f(b));
        r |= uint32_t(sum) << (16 * h);
      }
      return r;
    }
    break;
  }
  case Rmw::OrderedAdd:
    if constexpr (sizeof(T) == 8) {
      const uint32_t id = uint32_t(old), value = uint32_t(old >> 32);
      if (id != uint32_t(data)) return old;
      return T((id + 1) & kVgtGsMaxWaveId) | (T(value + uint32_t(data >> 32)) << 32);
    }
    break;
  case Rmw::None:
    break;
  }
  return old;
}

// Calls f(rmw_fn) with rmw_result<T> of `rmw` as a callable whose operation is a constant, for
// the operations the OpenCL atomics use most (compare-exchange loops, counters, exchanges), so
// that a row path's per-lane read-modify-write folds; others pass the general call. Integer
// operations only: flatten must not commute a float add's operands (another NaN payload than
// the general path's).
template <class T, class F> [[gnu::always_inline]] inline void with_rmw(Rmw rmw, F&& f) {
  auto fixed = [&](auto kind) {
    f([](T old, T data, T data2) __attribute__((flatten)) {
      return rmw_result<T>(decltype(kind)::value, old, data, data2);
    });
  };
  switch (rmw) {
  case Rmw::CmpSwap:
    return fixed(std::integral_constant<Rmw, Rmw::CmpSwap>{});
  case Rmw::Add:
    return fixed(std::integral_constant<Rmw, Rmw::Add>{});
  case Rmw::Sub:
    return fixed(std::integral_constant<Rmw, Rmw::Sub>{});
  case Rmw::Swap:
    return fixed(std::integral_constant<Rmw, Rmw::Swap>{});
  default:
    f([rmw](T old, T data, T data2) { return rmw_result<T>(rmw, old, data, data2); });
  }
}

// One lane's FLAT/GLOBAL atomic on host memory: a compare-exchange loop on the naturally aligned
// element, so that waves of other work-groups, which run on other host threads, see each
// read-modify-write whole. Returns the old value.
template <class T> T atomic_rmw(uint8_t* p, Rmw rmw, T data, T data2) {
  std::atomic_ref<T> ref(*reinterpret_cast<T*>(p));
  T old = ref.load();
  while (!ref.compare_exchange_weak(old, rmw_result<T>(rmw, old, data, data2))) {
  }
  return old;
}

} // namespace sim::shader
