// FLAT, GLOBAL and SCRATCH memory instructions, the general path (RDNA3 and RDNA4 ISA manuals,
// "Flat, Scratch and Global Instructions"): loads and stores of every size lane by lane, flat
// addresses in the LDS and private apertures, SH_MEM_CONFIG's alignment modes, and the global
// segment's dword fast path. memory_fast_path.cpp runs the naturally aligned accesses and
// atomics a page at a time; the atomic lanes of this path are in atomics.cpp.
#include "aperture_ports.h"
#include "executor.h"

#include "am/hw/gc_regs.h"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstring>
#include <string>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace sim::shader {
namespace {

// Whether lane k's address is lane 0's + (k << shift) for all 32 lanes of an address row pair
// (`hi` null: 32-bit offsets from a scalar base), with no carry out of the low dwords from
// lane 0 to lane 31 (so the 64-bit addresses are consecutive too). 32-bit operations only,
// which baseline x86-64 vectorises (a multiply by the stride it did not).
bool contiguous_rows(const uint32_t* lo, const uint32_t* hi, unsigned shift) {
  const uint32_t l0 = lo[0];
  uint32_t differ = 0;
#if defined(__SSE2__)
  // Four lanes a step against a running expectation: gcc's vectorisation of the lane loops
  // below took 1.4-1.6 host instructions a lane (callgrind), this about 0.5.
  const __m128i step = _mm_set1_epi32(int32_t(4u << shift));
  __m128i expect = _mm_add_epi32(
      _mm_set1_epi32(int32_t(l0)),
      _mm_setr_epi32(0, int32_t(1u << shift), int32_t(2u << shift), int32_t(3u << shift)));
  __m128i bits = _mm_setzero_si128();
  const auto* lv = reinterpret_cast<const __m128i*>(lo);
#pragma GCC unroll 8
  for (unsigned i = 0; i < kWaveSize / 4; ++i) {
    bits = _mm_or_si128(bits, _mm_xor_si128(_mm_loadu_si128(lv + i), expect));
    expect = _mm_add_epi32(expect, step);
  }
  if (hi) {
    const __m128i h0 = _mm_set1_epi32(int32_t(hi[0]));
    const auto* hv = reinterpret_cast<const __m128i*>(hi);
#pragma GCC unroll 8
    for (unsigned i = 0; i < kWaveSize / 4; ++i)
      bits = _mm_or_si128(bits, _mm_xor_si128(_mm_loadu_si128(hv + i), h0));
  }
  differ = uint32_t(_mm_movemask_epi8(_mm_cmpeq_epi32(bits, _mm_setzero_si128())) ^ 0xffff);
#else
  for (uint32_t l = 0; l < kWaveSize; ++l) differ |= (lo[l] - l0) ^ (l << shift);
  if (hi) {
    const uint32_t h0 = hi[0];
    for (unsigned l = 0; l < kWaveSize; ++l) differ |= hi[l] ^ h0;
  }
#endif
  return differ == 0 && l0 <= ~0u - ((kWaveSize - 1) << shift);
}

#if !defined(__SANITIZE_THREAD__)
// A row of 32 dwords in 16-byte moves. std::memcpy of the row compiled to `rep movsl`, whose
// start-up and serialisation cost half of exec_global_dwords (perf, stop 34).
[[gnu::always_inline]] inline void move_row(uint32_t* dst, const uint32_t* src) {
#if defined(__SSE2__)
  auto* d = reinterpret_cast<__m128i*>(dst);
  const auto* s = reinterpret_cast<const __m128i*>(src);
#pragma GCC unroll 8
  for (unsigned i = 0; i < kWaveSize / 4; ++i) _mm_storeu_si128(d + i, _mm_loadu_si128(s + i));
#else
  std::memcpy(dst, src, kWaveSize * 4);
#endif
}
#endif

// A coalesced access's moves: lane k's dwords i at words[k * n + i], in lane order.
void move_coalesced(uint32_t* words, uint32_t* const* data, unsigned n, bool load) {
  auto word = [&](unsigned k) { return std::atomic_ref<uint32_t>(words[k]); };
#if !defined(__SANITIZE_THREAD__)
  // A row of dwords moves as one block: the host's vector moves of aligned dwords are each
  // dword's single copy, as the relaxed word moves are (which TSan builds keep, to see races).
  if (n == 1) {
    if (load)
      move_row(data[0], words);
    else
      move_row(words, data[0]);
    return;
  }
#endif
  for (unsigned l = 0; l < kWaveSize; ++l)
    for (unsigned i = 0; i < n; ++i)
      if (load)
        data[i][l] = word(l * n + i).load(std::memory_order_relaxed);
      else
        word(l * n + i).store(data[i][l], std::memory_order_relaxed);
}

// Every lane's address of a full row (`hi` null: a 32-bit offset from `sbase`), in loops
// without exits, which the compiler vectorises; inactive lanes' VGPRs are read, not used.
[[gnu::always_inline]] inline void row_addresses(uint64_t* addr, const uint32_t* lo,
                                                 const uint32_t* hi, uint64_t sbase,
                                                 uint64_t offset) {
  if (!hi)
    for (unsigned l = 0; l < kWaveSize; ++l) addr[l] = sbase + lo[l] + offset;
  else
    for (unsigned l = 0; l < kWaveSize; ++l)
      addr[l] = (uint64_t(lo[l]) | uint64_t(hi[l]) << 32) + offset;
}
// Non-zero unless an access of `bytes` at `a` is dword aligned and inside one page. The low 12
// bits decide: checked in 32-bit lanes with a signed compare, which baseline x86-64 (SSE2)
// vectorises; its 64-bit forms ran lane by lane.
[[gnu::always_inline]] inline uint32_t dword_misfit(uint64_t a, unsigned bytes) {
  const auto low = int32_t(uint32_t(a) & 4095);
  return uint32_t(low & 3) | uint32_t(low + int32_t(bytes) > 4096);
}

} // namespace

// Private (scratch) memory is swizzled: dword k of a lane's private space lives at
// wave base + (k * wave size + lane) * 4, so the lanes' same dword is contiguous (PrivatePort).
void Executor::exec_scratch(Wave& w, const Inst& in) {
  const uint32_t exec = w.exec();
  const uint32_t sbase = in.soffset != src::kNull ? sread(w, in, in.soffset) : 0;
  PrivatePort lane_memory(memory_, w);
  for (unsigned lane = 0; lane < kWaveSize; ++lane) {
    if (!((exec >> lane) & 1)) continue;
    const uint32_t off =
        sbase + uint32_t(in.imm) + (in.src[0] != src::kNull ? vreg(w, in.src[0], lane) : 0);
    lane_memory.lane = w.lane_id(lane);
    try {
      flat_lane(w, in, lane_memory, off, lane);
    } catch (const ApertureFault& f) {
      instruction_fault(w, in, f.what());
    } catch (const MemoryFault& f) {
      throw ShaderFault(std::string(f.what()) + " at pc " + hex(w.pc) + " (" + disassemble(in) +
                            ")",
                        f.address, f.write);
    }
  }
}

void Executor::exec_flat(Wave& w, const Inst& in) {
  if (is_cache_control(in.op)) return; // gfx12 cache control: coherent in the model
  if (in.segment == Segment::Scratch) return exec_scratch(w, in);
  if (is_flat_addtid(in.op)) return exec_global_addtid(w, in);
  if (is_load_transpose(in.op)) return exec_load_transpose(w, in);
  const OpInfo& info = op_info(in.op);
  const uint32_t exec = w.exec();
  const bool saddr = in.segment == Segment::Global && in.soffset != src::kNull;
  const uint64_t sbase =
      saddr ? uint64_t(w.sgpr[in.soffset]) | (uint64_t(w.sgpr[in.soffset + 1]) << 32) : 0;
  if (fast_paths && in.segment == Segment::Global && exec_global_dwords(w, in, exec, saddr, sbase))
    return;
  if (fast_paths && exec_vmem_fast(w, in, exec, saddr, sbase)) return;
  const unsigned align_unit = std::min(flat_access_bytes(in.op, info), 4u);
  LdsPort lds(lds_);
  PrivatePort lane_private(memory_, w);
  for (unsigned lane = 0; lane < kWaveSize; ++lane) {
    if (!((exec >> lane) & 1)) continue;
    uint64_t addr =
        saddr ? sbase + vreg(w, in.src[0], lane)
              : uint64_t(vreg(w, in.src[0], lane)) | (uint64_t(vreg(w, in.src[0], lane, 1)) << 32);
    addr += uint64_t(int64_t(in.imm));
    if (addr & (align_unit - 1)) addr = misaligned_address(w, in, addr, align_unit);
    // A flat address in the shared or private aperture reaches LDS or the lane's private memory.
    MemoryPort* mem = &memory_;
    if (in.segment == Segment::Flat) {
      if (w.shared_aperture && (addr >> 48) == (w.shared_aperture >> 48)) {
        mem = &lds;
        addr = uint32_t(addr);
      } else if (w.private_aperture && (addr >> 48) == (w.private_aperture >> 48)) {
        lane_private.lane = w.lane_id(lane);
        mem = &lane_private;
        addr = uint32_t(addr);
      }
    }
    try {
      flat_lane(w, in, *mem, addr, lane);
    } catch (const ApertureFault& f) {
      instruction_fault(w, in, f.what());
    } catch (const MemoryFault& f) {
      throw ShaderFault(std::string(f.what()) + " at pc " + hex(w.pc) + " (" + disassemble(in) +
                            ")",
                        f.address, f.write);
    }
  }
}

// One lane's FLAT/GLOBAL/SCRATCH access at `addr` of `mem` (global memory, the LDS or the lane's
// private memory).
void Executor::flat_lane(Wave& w, const Inst& in, MemoryPort& mem, uint64_t addr, unsigned lane) {
  const OpInfo& info = op_info(in.op);
  switch (in.op) {
  case Op::load_u8:
  case Op::load_i8: {
    uint8_t v;
    mem.read(addr, &v, 1);
    vreg(w, in.dst, lane) = in.op == Op::load_i8 ? uint32_t(int32_t(int8_t(v))) : v;
    break;
  }
  case Op::load_u16:
  case Op::load_i16: {
    uint16_t v;
    mem.read(addr, &v, 2);
    vreg(w, in.dst, lane) = in.op == Op::load_i16 ? uint32_t(int32_t(int16_t(v))) : v;
    break;
  }
  // d16 loads fill the low half (the _hi forms: the high half) and keep the other half; bytes
  // are zero- or sign-extended to 16 bits.
  case Op::load_d16_u8:
  case Op::load_d16_i8:
  case Op::load_d16_b16:
  case Op::load_d16_hi_u8:
  case Op::load_d16_hi_i8:
  case Op::load_d16_hi_b16: {
    uint16_t v = 0;
    if (in.op == Op::load_d16_b16 || in.op == Op::load_d16_hi_b16)
      mem.read(addr, &v, 2);
    else {
      uint8_t b;
      mem.read(addr, &b, 1);
      v = in.op == Op::load_d16_i8 || in.op == Op::load_d16_hi_i8 ? uint16_t(int16_t(int8_t(b)))
                                                                  : b;
    }
    const bool hi =
        in.op == Op::load_d16_hi_u8 || in.op == Op::load_d16_hi_i8 || in.op == Op::load_d16_hi_b16;
    uint32_t& d = vreg(w, in.dst, lane);
    d = hi ? (d & 0xffffu) | (uint32_t(v) << 16) : (d & 0xffff0000u) | v;
    break;
  }
  case Op::load_b32:
  case Op::load_b64:
  case Op::load_b96:
  case Op::load_b128: {
    uint32_t v[4];
    const unsigned n = regs_of(info.dst_dwords);
    mem.read(addr, v, 4 * n);
    for (unsigned i = 0; i < n; ++i) vreg(w, in.dst, lane, i) = v[i];
    break;
  }
  case Op::store_b8: {
    uint8_t v = uint8_t(vreg(w, in.src[1], lane));
    mem.write(addr, &v, 1);
    break;
  }
  case Op::store_b16: {
    uint16_t v = uint16_t(vreg(w, in.src[1], lane));
    mem.write(addr, &v, 2);
    break;
  }
  case Op::store_d16_hi_b8: {
    uint8_t v = uint8_t(vreg(w, in.src[1], lane) >> 16);
    mem.write(addr, &v, 1);
    break;
  }
  case Op::store_d16_hi_b16: {
    uint16_t v = uint16_t(vreg(w, in.src[1], lane) >> 16);
    mem.write(addr, &v, 2);
    break;
  }
  case Op::store_b32:
  case Op::store_b64:
  case Op::store_b96:
  case Op::store_b128: {
    uint32_t v[4];
    const unsigned n = regs_of(info.src_dwords[0]);
    for (unsigned i = 0; i < n; ++i) v[i] = vreg(w, in.src[1], lane, i);
    mem.write(addr, v, 4 * n);
    break;
  }
  case Op::load_block:
  case Op::store_block:
    block_lane(w, in, mem, addr, lane);
    break;
  default:
    flat_atomic_lane(w, in, mem, addr, lane);
    break;
  }
}

// Bytes a flat/global load or store moves per lane; 1 for atomics, whose own rule (natural
// alignment, checked where they run) is not the alignment mode's.
unsigned Executor::flat_access_bytes(Op op, const OpInfo& info) {
  switch (op) {
  case Op::load_u16:
  case Op::load_i16:
  case Op::load_d16_b16:
  case Op::load_d16_hi_b16:
  case Op::store_b16:
  case Op::store_d16_hi_b16:
    return 2;
  case Op::load_b32:
  case Op::load_b64:
  case Op::load_b96:
  case Op::load_b128:
    return 4 * regs_of(info.dst_dwords);
  case Op::store_b32:
  case Op::store_b64:
  case Op::store_b96:
  case Op::store_b128:
    return 4 * regs_of(info.src_dwords[0]);
  case Op::load_block: // dword by dword
  case Op::store_block:
    return 4;
  default:
    return 1;
  }
}

// A vector memory access whose address is not a multiple of `unit` (its size, at most a dword)
// does what SH_MEM_CONFIG.ALIGNMENT_MODE of the wave's VMID says (ISA manuals, "Alignment"):
// UNALIGNED accesses the bytes asked for, DWORD silently rounds the address down, DWORD_STRICT
// and STRICT are memory violations.
uint64_t Executor::misaligned_address(const Wave& w, const Inst& in, uint64_t addr, unsigned unit) {
  switch (w.alignment_mode) {
  case am::hw::kAlignUnaligned:
    return addr;
  case am::hw::kAlignDword:
    return addr & ~uint64_t(unit - 1);
  default:
    instruction_fault(w, in,
                      "misaligned address " + hex(addr) + " for a " + std::to_string(unit) +
                          "-byte unit with SH_MEM_CONFIG.ALIGNMENT_MODE " +
                          std::to_string(w.alignment_mode) + " (strict)");
  }
}

// A global load whose lanes span pages (a gather), before the wave's turn ends: each page
// translated once, each lane's line requested, and the host addresses kept for the load when
// every lane fits the dword path (dword aligned, inside one page). False: not such a load, and
// the wave's turn goes on.
bool Executor::prefetch_gather(Wave& w, const Inst& in) {
  if (in.segment != Segment::Global || !cache_ ||
      (in.op != Op::load_b32 && in.op != Op::load_b64 && in.op != Op::load_b96 &&
       in.op != Op::load_b128))
    return false;
  const bool saddr = in.soffset != src::kNull;
  const unsigned reg = in.src[0] - src::kVgpr0;
  if (in.src[0] < src::kVgpr0 || reg + (saddr ? 1 : 2) > w.num_vgprs) return false;
  const uint64_t sbase =
      saddr ? uint64_t(w.sgpr[in.soffset]) | (uint64_t(w.sgpr[in.soffset + 1]) << 32) : 0;
  const uint64_t offset = uint64_t(int64_t(in.imm));
  const unsigned halves = w.wave64 ? 2 : 1;
  auto address = [&](const uint32_t* lo, unsigned lane) {
    return (saddr ? sbase + lo[lane] : uint64_t(lo[lane]) | uint64_t(lo[kWaveSize + lane]) << 32) +
           offset;
  };
  // The first and the last lane on one page: a coalesced load (the common case) costs two
  // addresses here. Only a hint: a load that spans pages anyway simply is not prefetched.
  const uint64_t mask = w.exec_mask();
  if (!mask) return false;
  const unsigned first = unsigned(std::countr_zero(mask)),
                 last = 63u - unsigned(std::countl_zero(mask));
  const uint32_t* rows = w.vgpr.data() + reg * kWaveSize;
  if ((address(rows + (first / kWaveSize) * w.half_stride, first % kWaveSize) ^
       address(rows + (last / kWaveSize) * w.half_stride, last % kWaveSize)) < 4096)
    return false;
  if (gather_hosts_.size() <= w.id_in_group) gather_hosts_.resize(w.id_in_group + 1);
  GatherHosts& kept = gather_hosts_[w.id_in_group];
  kept.pc = ~uint64_t(0);
  // The lanes must also fit exec_global_dwords' rule (dword aligned, inside one page) for the
  // load to take the hosts without looking at the addresses again; else it runs as before.
  const unsigned bytes = 4 * regs_of(op_info(in.op).dst_dwords);
  uint32_t misfit = 0;
  try {
    for (unsigned h = 0; h < halves; ++h) {
      const uint32_t* lo = rows + h * w.half_stride;
      const uint32_t exec = uint32_t(mask >> (h * kWaveSize));
      uint64_t addr[kWaveSize];
      row_addresses(addr, lo, saddr ? nullptr : lo + kWaveSize, sbase, offset);
      // A full half checks in one vectorised loop; a partial one lane by lane below.
      auto bad = [&](unsigned l) { return dword_misfit(addr[l], bytes); };
      if (exec == ~0u)
        for (unsigned l = 0; l < kWaveSize; ++l) misfit |= bad(l);
      uint64_t page = ~uint64_t(0);
      uint8_t* host_page = nullptr;
      uint8_t** host = kept.host + h * kWaveSize;
      auto request = [&](unsigned lane) AMCL_INLINE {
        const uint64_t a = addr[lane];
        if ((a >> 12) != page) {
          host_page = cache_->translate(a & ~uint64_t(4095), 4096, false);
          page = a >> 12;
        }
        host[lane] = host_page + (a & 4095);
        __builtin_prefetch(host[lane]);
      };
      if (exec == ~0u) {
        for (unsigned lane = 0; lane < kWaveSize; ++lane) request(lane);
      } else {
        for (uint32_t m = exec; m; m &= m - 1) {
          const unsigned lane = unsigned(std::countr_zero(m));
          misfit |= bad(lane);
          request(lane);
        }
      }
    }
    if (!misfit) kept.pc = w.pc; // every lane translated and fits: the load takes these
  } catch (const MemoryFault&) {
    // The load will fault: still after the turn, so that the waves before this one run on to
    // where they would have without the hint before the fault stops the dispatch.
  }
  return true;
}

// The common case of the global segment: dword loads and stores whose every lane's access is
// dword aligned and inside one page. One translation and relaxed word moves per lane instead
// of the general path's splitting; anything else returns false before touching memory.
bool Executor::exec_global_dwords(Wave& w, const Inst& in, uint32_t exec, bool saddr,
                                  uint64_t sbase) {
  const bool load = in.op == Op::load_b32 || in.op == Op::load_b64 || in.op == Op::load_b96 ||
                    in.op == Op::load_b128;
  const bool store = in.op == Op::store_b32 || in.op == Op::store_b64 || in.op == Op::store_b96 ||
                     in.op == Op::store_b128;
  if (!load && !store) return false;
  if (!exec) return true;
  const OpInfo& info = op_info(in.op);
  const unsigned n = regs_of(load ? info.dst_dwords : info.src_dwords[0]);
  if (load && ready_gather_) {
    // Translated, checked to fit and its lines requested by prefetch_gather before the wave's
    // turn ended: only the moves are left.
    uint8_t* const* host = ready_gather_->host + w.half * kWaveSize;
    uint32_t* data[4];
    for (unsigned i = 0; i < n; ++i) data[i] = &vreg(w, in.dst, 0, i);
    if (n == 1 && exec == ~0u) { // the common gather: a counted loop of word loads
      uint32_t* const d = data[0];
      for (unsigned lane = 0; lane < kWaveSize; ++lane)
        d[lane] = std::atomic_ref<uint32_t>(*reinterpret_cast<uint32_t*>(host[lane]))
                      .load(std::memory_order_relaxed);
      return true;
    }
    for (uint32_t m = exec; m; m &= m - 1) {
      const unsigned lane = unsigned(std::countr_zero(m));
      auto* words = reinterpret_cast<uint32_t*>(host[lane]);
      for (unsigned i = 0; i < n; ++i)
        data[i][lane] = std::atomic_ref<uint32_t>(words[i]).load(std::memory_order_relaxed);
    }
    return true;
  }
  // Rows resolved (and checked against the VGPR allocation) once, not per lane.
  const uint32_t* lo = &vreg(w, in.src[0], 0);
  const uint32_t* hi = saddr ? nullptr : &vreg(w, in.src[0], 0, 1);
  const uint64_t offset = uint64_t(int64_t(in.imm));
  uint64_t addr[kWaveSize];
  auto lane_address = [&](unsigned lane) {
    return (saddr ? sbase + lo[lane] : uint64_t(lo[lane]) | uint64_t(hi[lane]) << 32) + offset;
  };
  // Every lane dword-aligned and inside one page; a full wave checks without branches.
  bool one_page = exec == ~0u;
  if (one_page && n != 3 && contiguous_rows(lo, hi, n == 1 ? 2 : n == 2 ? 3 : 4)) {
    // A coalesced access (lane k at the first lane's address + k * 4n, the common case): one
    // address, one fit check and one translation for the wave, the lanes' dwords in order.
    const uint64_t a0 = lane_address(0);
    if ((a0 & 3) == 0 && (a0 & 4095) + kWaveSize * 4 * n <= 4096) {
      uint32_t* data[4];
      for (unsigned i = 0; i < n; ++i) data[i] = &vreg(w, load ? in.dst : in.src[1], 0, i);
      uint32_t* words;
      try {
        words = reinterpret_cast<uint32_t*>(page_of(a0 & ~uint64_t(4095), store) + (a0 & 4095));
      } catch (const MemoryFault& f) {
        throw ShaderFault(std::string(f.what()) + " at pc " + hex(w.pc) + " (" + disassemble(in) +
                              ")",
                          f.address, f.write);
      }
      move_coalesced(words, data, n, load);
      return true;
    }
  }
  if (one_page) {
    row_addresses(addr, lo, hi, sbase, offset);
    uint32_t bad = 0;
    uint64_t differ = 0;
    for (unsigned lane = 0; lane < kWaveSize; ++lane) {
      bad |= dword_misfit(addr[lane], 4 * n);
      differ |= addr[lane] ^ addr[0];
    }
    if (bad) return false;
    one_page = differ < 4096;
  } else {
    for (uint32_t m = exec; m; m &= m - 1) {
      const unsigned lane = unsigned(std::countr_zero(m));
      addr[lane] = lane_address(lane);
      if (dword_misfit(addr[lane], 4 * n)) return false;
    }
  }
  uint32_t* data[4];
  for (unsigned i = 0; i < n; ++i) data[i] = &vreg(w, load ? in.dst : in.src[1], 0, i);
  try {
    if (one_page && n == 1) {
      // The common case (a coalesced or page-local access of a full wave): one translation.
      uint8_t* host_page = page_of(addr[0] & ~uint64_t(4095), store);
      auto word = [&](unsigned lane) {
        return std::atomic_ref<uint32_t>(
            *reinterpret_cast<uint32_t*>(host_page + (addr[lane] & 4095)));
      };
      uint32_t* d = data[0];
      if (load)
        for (unsigned lane = 0; lane < kWaveSize; ++lane)
          d[lane] = word(lane).load(std::memory_order_relaxed);
      else
        for (unsigned lane = 0; lane < kWaveSize; ++lane)
          word(lane).store(d[lane], std::memory_order_relaxed);
      return true;
    }
    // Every lane's host address first (neighbouring lanes mostly share a page: each page is
    // translated once), then the accesses in a loop without calls or branches, so that a
    // gather's cache misses overlap. A lane that faults stops the instruction after the lanes
    // before it have made their accesses, as lane by lane.
    uint32_t* host[kWaveSize];
    auto access = [&](uint32_t lanes) {
      for (uint32_t m = lanes; m; m &= m - 1) {
        const unsigned lane = unsigned(std::countr_zero(m));
        for (unsigned i = 0; i < n; ++i) {
          std::atomic_ref<uint32_t> word(host[lane][i]);
          if (load)
            data[i][lane] = word.load(std::memory_order_relaxed);
          else
            word.store(data[i][lane], std::memory_order_relaxed);
        }
      }
    };
    uint64_t page = ~0ull;
    uint8_t* host_page = nullptr;
    uint32_t translated = 0;
    try {
      for (uint32_t m = exec; m; m &= m - 1) {
        const unsigned lane = unsigned(std::countr_zero(m));
        if ((addr[lane] >> 12) != page) {
          host_page = page_of(addr[lane] & ~uint64_t(4095), store);
          page = addr[lane] >> 12;
        }
        host[lane] = reinterpret_cast<uint32_t*>(host_page + (addr[lane] & 4095));
        // The line is requested now, while the other lanes translate: a gather's misses start
        // before the access loop instead of queuing behind the translation loop's branches.
        __builtin_prefetch(host[lane]);
        translated |= 1u << lane;
      }
    } catch (const MemoryFault&) {
      access(translated);
      throw;
    }
    access(exec);
  } catch (const MemoryFault& f) {
    throw ShaderFault(std::string(f.what()) + " at pc " + hex(w.pc) + " (" + disassemble(in) + ")",
                      f.address, f.write);
  }
  return true;
}

} // namespace sim::shader
