// Scalar memory instructions (SMEM) of gfx11 and gfx12, following the RDNA3 and RDNA4 ISA
// manuals: loads through a 64-bit address (s_load_*) and through a buffer resource
// (s_buffer_load_*), and the cache controls, address-translation probes and prefetches, which
// change nothing observable in the model (its memory has no caches to go stale). Any other
// opcode is a fault that names it.
#include "executor.h"

#include <array>
#include <atomic>
#include <cstdio>

namespace sim::shader {
namespace {

// Bytes a load reads and how its result extends: gfx12's byte and short loads fill one SGPR.
struct Access {
  unsigned bytes;
  bool narrow, sign;
};
Access access_of(Op op) {
  switch (op) {
  case Op::s_load_i8:
  case Op::s_buffer_load_i8:
    return {1, true, true};
  case Op::s_load_u8:
  case Op::s_buffer_load_u8:
    return {1, true, false};
  case Op::s_load_i16:
  case Op::s_buffer_load_i16:
    return {2, true, true};
  case Op::s_load_u16:
  case Op::s_buffer_load_u16:
    return {2, true, false};
  default:
    return {4 * regs_of(op_info(op).dst_dwords), false, false};
  }
}

bool is_load(Op op) {
  switch (op) {
  case Op::s_load_b32:
  case Op::s_load_b64:
  case Op::s_load_b96:
  case Op::s_load_b128:
  case Op::s_load_b256:
  case Op::s_load_b512:
  case Op::s_load_i8:
  case Op::s_load_u8:
  case Op::s_load_i16:
  case Op::s_load_u16:
    return true;
  default:
    return is_buffer_smem(op);
  }
}

// Dwords of the plain loads through a 64-bit address (s_load_b32..b512), 0 for the rest.
constexpr auto kPlainLoadDwords = [] {
  std::array<uint8_t, size_t(Op::kCount)> t{};
  t[size_t(Op::s_load_b32)] = 1;
  t[size_t(Op::s_load_b64)] = 2;
  t[size_t(Op::s_load_b96)] = 3;
  t[size_t(Op::s_load_b128)] = 4;
  t[size_t(Op::s_load_b256)] = 8;
  t[size_t(Op::s_load_b512)] = 16;
  return t;
}();

} // namespace

void Executor::exec_smem(Wave& w, const Inst& in) {
  // The 64-bit address of the plain loads (s[src:src+1], 48 bits).
  auto flat_base = [&] {
    return (uint64_t(w.sgpr[in.src[0]]) | uint64_t(w.sgpr[in.src[0] + 1]) << 32) &
           0xffffffffffffull;
  };
  // `n` dwords at `at`, inside one page, into s[dst..]: one translation through the dispatch's
  // cache, dwords read as MemoryPort::read reads them (relaxed).
  auto read_in_page = [&](uint64_t at, unsigned n) {
    const uint8_t* p = page_of(at & ~uint64_t(4095), false) + (at & 4095);
    for (unsigned i = 0; i < n; ++i)
      w.sgpr[in.dst + i] =
          std::atomic_ref<uint32_t>(*reinterpret_cast<uint32_t*>(const_cast<uint8_t*>(p + 4 * i)))
              .load(std::memory_order_relaxed);
  };
  auto fault = [&](const MemoryFault& f) {
    return ShaderFault(std::string(f.what()) + " at pc " + hex(w.pc) + " (" + disassemble(in) + ")",
                       f.address, false);
  };
  // First the kernel's argument and descriptor loads (a short kernel has several a wave):
  // dwords inside one page, with none of the general path's opcode tests (about a third of
  // its host instructions).
  if (const unsigned n = kPlainLoadDwords[size_t(in.op)]; n && in.dst + n <= 106) [[likely]] {
    int64_t off = in.imm;
    if (in.soffset != src::kNull) off += sread(w, in, in.soffset);
    const uint64_t at = (flat_base() + uint64_t(off & ~int64_t(3))) & ~3ull;
    if ((at & 4095) + 4 * n <= 4096) [[likely]] {
      try {
        read_in_page(at, n);
      } catch (const MemoryFault& f) {
        throw fault(f);
      }
      return;
    }
  }
  switch (in.op) {
  case Op::s_dcache_inv:
  case Op::s_gl1_inv:
  case Op::s_atc_probe:
  case Op::s_atc_probe_buffer:
  case Op::s_prefetch_inst:
  case Op::s_prefetch_inst_pc_rel:
  case Op::s_prefetch_data:
  case Op::s_buffer_prefetch_data:
  case Op::s_prefetch_data_pc_rel:
    return; // no scalar cache or prefetcher in the model: nothing to invalidate or warm
  default:
    break;
  }
  if (!is_load(in.op)) instruction_fault(w, in, "unimplemented scalar memory instruction");
  const Access a = access_of(in.op);
  const unsigned n = a.narrow ? 1 : a.bytes / 4;
  if (in.dst + n > 106) instruction_fault(w, in, "scalar load destination out of range");
  int64_t off = in.imm;
  if (in.soffset != src::kNull) off += sread(w, in, in.soffset);
  const bool buffer = is_buffer_smem(in.op);
  uint64_t base;
  // A buffer load's byte range: the descriptor's NUM_RECORDS, times STRIDE when that is not 0
  // (RDNA3/RDNA4 ISA manuals, "Buffer Resource" and scalar buffer loads); what lies outside it
  // reads as 0 without touching memory, in whole dwords (bytes for the narrow loads).
  uint64_t range = ~uint64_t(0);
  if (buffer) {
    if (in.src[0] + 4 > 106) instruction_fault(w, in, "buffer resource beyond s105");
    const uint32_t* v = &w.sgpr[in.src[0]];
    base = v[0] | uint64_t(v[1] & 0xffff) << 32;
    const uint32_t stride = (v[1] >> 16) & 0x3fff;
    range = stride ? uint64_t(v[2]) * stride : v[2];
  } else {
    base = flat_base();
  }
  // Dword loads ignore the offset's two low bits; the narrow loads are byte-addressed.
  if (!a.narrow) off &= ~int64_t(3);
  auto in_range = [&](int64_t at, unsigned bytes) {
    return !buffer || (at >= 0 && uint64_t(at) + bytes <= range);
  };
  try {
    if (a.narrow) {
      if (a.bytes == 2 && ((base + uint64_t(off)) & 1))
        instruction_fault(w, in, "misaligned scalar short load " + hex(base + uint64_t(off)));
      uint16_t v = 0;
      if (in_range(off, a.bytes)) memory_.read(base + uint64_t(off), &v, a.bytes);
      uint32_t r = v;
      if (a.sign) r = a.bytes == 1 ? uint32_t(int32_t(int8_t(v))) : uint32_t(int32_t(int16_t(v)));
      w.sgpr[in.dst] = r;
      return;
    }
    if (!buffer) {
      const uint64_t at = (base + uint64_t(off)) & ~3ull;
      if ((at & 4095) + a.bytes <= 4096) {
        read_in_page(at, n);
        return;
      }
      memory_.read(at, &w.sgpr[in.dst], a.bytes);
      return;
    }
    for (unsigned i = 0; i < n; ++i) {
      const int64_t at = off + 4 * int64_t(i);
      uint32_t v = 0;
      if (in_range(at, 4)) memory_.read((base + uint64_t(at)) & ~3ull, &v, 4);
      w.sgpr[in.dst + i] = v;
    }
  } catch (const MemoryFault& f) {
    throw fault(f);
  }
}

} // namespace sim::shader
