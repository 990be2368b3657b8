// Interprets decoded gfx11 instructions on a wave. One Executor runs one workgroup's waves and
// owns the workgroup's LDS; decoded instructions come from the dispatch's Program.
#pragma once
#include "isa.h"
#include "memory_port.h"
#include "translation_cache.h"
#include "wave.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <deque>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

// The per-lane operand readers and result writers of the ALU paths are small lambdas called
// once per lane; GCC would otherwise keep them out of line in the big switch functions.
#define AMCL_INLINE __attribute__((always_inline))

namespace sim::shader {

// A fault raised while executing: stops the dispatch, names instruction and address.
struct ShaderFault : std::runtime_error {
  using std::runtime_error::runtime_error;
  ShaderFault(const std::string& what, uint64_t addr, bool is_write)
      : std::runtime_error(what), memory(true), address(addr), write(is_write) {}
  bool memory = false; // a memory access faulted (as opposed to an instruction problem)
  uint64_t address = 0;
  bool write = false;
};

// Instructions decoded once per program address and reused by every wave of every worker
// thread, found through an index of dword offsets from the entry point. Lookups take no lock
// (an instruction is published once, decoded, and never changes); decoding takes the program's
// lock. A program outlives its dispatch (see ProgramCache, the instruction cache): it keeps a
// copy of every code page it decoded from, so that a reuse after the code changed without an
// invalidation can be told.
class Program {
public:
  Program(MemoryPort& memory, uint64_t entry, Gfx gfx = Gfx::v11);
  ~Program();
  Program(const Program&) = delete;
  Program& operator=(const Program&) = delete;
  // A decoded instruction and the one after it in memory (at its pc + size), linked when a
  // wave first falls through to it: the wave loop then walks straight-line code without the
  // index's two dependent loads, which missed the host's L1 under a gather's traffic. The
  // link is set once (by any thread; all would store the same node) and never changes.
  struct Node {
    explicit Node(const Inst& i) : inst(i) {}
    Inst inst;
    mutable std::atomic<const Node*> next{nullptr};
  };
  // The instruction at `pc`, decoded through `memory` (the calling thread's port) when no
  // thread has decoded it yet. Inline: called once per executed instruction.
  const Node& node_at(uint64_t pc, MemoryPort& memory) {
    // A pc that is not a multiple of 4 goes to decode_at's fault, not to its dword's slot.
    const uint64_t slot = (pc - base_) / 4;
    if (pc >= base_ && slot < kMaxIndexed && (pc & 3) == 0) [[likely]]
      if (const auto* chunk = chunks_[slot / kChunk].load(std::memory_order_acquire)) [[likely]]
        if (const Node* n = chunk[slot % kChunk].load(std::memory_order_acquire)) [[likely]]
          return *n;
    return decode_at(pc, memory);
  }
  const Inst& at(uint64_t pc, MemoryPort& memory) { return node_at(pc, memory).inst; }
  // The instruction after `node`, which is at `pc` (node's pc + its size): node's link, set
  // here on first use. Only when a wave is about to run it: past s_endpgm may lie no code.
  const Node& next(const Node& node, uint64_t pc, MemoryPort& memory) {
    if (const Node* n = node.next.load(std::memory_order_acquire)) [[likely]]
      return *n;
    const Node& n = node_at(pc, memory);
    node.next.store(&n, std::memory_order_release);
    return n;
  }
  // Through the port the program was made or last revalidated with (one thread's use).
  const Inst& at(uint64_t pc) { return at(pc, *memory_); }
  uint64_t entry() const { return base_; }
  Gfx gfx() const { return gfx_; }
  // Points the program at a new dispatch's memory; false when any code page it decoded from
  // is unmapped or a byte it decoded changed (the program must then be decoded afresh). Not
  // while a dispatch runs it.
  bool revalidate(MemoryPort& memory);
  // Points the program at a new dispatch's memory whatever its pages hold (a stale reuse).
  void rebind(MemoryPort& memory) { memory_ = &memory; }
  bool reported_stale = false; // a stale reuse was reported on stderr

private:
  static constexpr uint64_t kMaxIndexed = 1u << 20; // 4 MiB of code
  static constexpr uint64_t kChunk = 1024;          // index slots allocated together
  using Slot = std::atomic<const Node*>;
  const Node& decode_at(uint64_t pc, MemoryPort& memory);
  void snapshot_dword(uint64_t va, MemoryPort& memory);
  MemoryPort* memory_;
  uint64_t base_;
  Gfx gfx_;
  std::mutex decode_mutex_; // guards everything below but the published index slots
  // A code page's bytes as decoded, and the range [lo, hi) decodes read of it.
  struct PageCopy {
    std::vector<uint8_t> bytes;
    uint32_t lo, hi;
  };
  std::unordered_map<uint64_t, PageCopy> pages_; // page address -> its copy
  // dword offset from base_ -> its instruction, or null: chunks of kChunk slots.
  std::array<std::atomic<Slot*>, kMaxIndexed / kChunk> chunks_{};
  std::vector<std::unique_ptr<Slot[]>> owned_chunks_;
  std::deque<Node> insts_; // stable addresses while growing
  std::unordered_map<uint64_t, Node> far_;
};

// "0x<hex>", for fault messages.
std::string hex(uint64_t v);
// The fault an instruction raises: "<what> at pc 0x... (<its disassembly>)".
[[noreturn, gnu::cold]] void instruction_fault(const Wave& w, const Inst& in,
                                               const std::string& what);

class Executor {
public:
  // `abort` (a queue reset) and `stop` (another worker faulted) end the waves early.
  Executor(Program& program, MemoryPort& memory, uint32_t lds_bytes,
           const std::atomic<bool>* abort = nullptr, const std::atomic<bool>* stop = nullptr)
      : program_(program), memory_(memory), cache_(dynamic_cast<TranslationCache*>(&memory)),
        lds_(lds_bytes, 0), abort_(abort), stop_(stop) {}
  // The same over a dispatch's translation cache, without asking the port what it is (a
  // dynamic_cast per worker and dispatch).
  Executor(Program& program, TranslationCache& cache, uint32_t lds_bytes,
           const std::atomic<bool>* abort = nullptr, const std::atomic<bool>* stop = nullptr)
      : program_(program), memory_(cache), cache_(&cache), lds_(lds_bytes, 0), abort_(abort),
        stop_(stop) {}

  // Runs `wave` until it ends, reaches s_barrier or has executed `budget` instructions (so
  // the other waves of its work-group get their turn: sub-groups make independent forward
  // progress). Returns executed instruction count and adds the lane-instructions (active
  // lanes of vector instructions, 1 for scalar ones). Throws ShaderFault when `abort` is
  // raised (a queue reset killing a runaway dispatch).
  uint64_t run(Wave& wave, uint64_t& lane_instructions, uint64_t budget = ~uint64_t(0));
  // Whether a wave gives its turn away at a gather (a global load whose lanes span pages) once
  // the gather's lines are requested, so that the work-group's other waves run while they
  // arrive, as the hardware's other waves hide a load's latency; the wave runs the load when
  // its turn comes again. Only worth it with other waves to run.
  void set_gather_yield(bool on) { gather_yield_ = on; }
  // Whether run adds the lane-instructions (for AMCL_SIM_STATS): a popcount of EXEC per
  // instruction, about 4 % of an ALU-bound kernel's emulation, skipped when nobody reads it.
  void set_count_lanes(bool on) { count_lanes_ = on; }
  // A new work-group starts on this executor: LDS reads as zeros again.
  void reset_lds() { std::fill(lds_.begin(), lds_.end(), uint8_t(0)); }
  // The work-group's LDS as the waves left it (the execution tests read it).
  void read_lds(uint32_t offset, void* out, uint32_t bytes) const {
    std::memcpy(out, lds_.data() + offset, bytes);
  }
  // Test hook: false sends every instruction through the general paths (valu.cpp, vopc.cpp,
  // flat.cpp, ds.cpp, ...), which the fast paths (valu_fast_path.cpp, memory_fast_path.cpp) must
  // agree with bit for bit.
  static inline bool fast_paths = true;

private:
  template <bool CountLanes> uint64_t run_turn(Wave& w, uint64_t& lane_instructions);
  // executor.cpp: the dispatch by format and the pc's moves for what the loop does not run
  // itself (scalar and buffer instructions, a wave64's vector ones), and wave64's two passes.
  void step(Wave& w, const Inst& in);
  // One vector instruction on the current pass's 32 lanes.
  void exec_vector(Wave& w, const Inst& in);
  // A vector instruction of a wave64: both passes, or once for the operations that read or
  // write one lane of the whole wave.
  void exec_wave64(Wave& w, const Inst& in);
  // salu.cpp, salu_extra.cpp (the less common SOP1/SOP2/SOPK and SOPP operations; false: not
  // one), salu_float.cpp (false: not a scalar float operation), sopp.cpp, smem.cpp.
  void exec_salu(Wave& w, const Inst& in);
  bool exec_salu_float(Wave& w, const Inst& in);
  bool exec_salu_extra(Wave& w, const Inst& in);
  void exec_barrier(Wave& w,
                    const Inst& in); // gfx12's s_barrier_signal{_isfirst}, s_get_barrier_state
  bool exec_sopp_extra(Wave& w, const Inst& in);
  void exec_sopp(Wave& w, const Inst& in);
  void exec_smem(Wave& w, const Inst& in);
  // valu.cpp; valu_extra.cpp: the less common VALU operations (faults on unknown ones), and the
  // VALU operations with a scalar result that run once per wave (false: not one of them).
  // `try_fast` false: the caller has tried exec_valu_fast already (exec_vector does, so that the
  // fast rows skip this function's large set-up).
  void exec_valu(Wave& w, const Inst& in, bool try_fast = true);
  void exec_valu_extra(Wave& w, const Inst& in);
  // valu_f8.cpp: gfx12's 8-bit float conversions and dot products.
  void exec_valu_f8(Wave& w, const Inst& in);
  void exec_dot4_f8(Wave& w, const Inst& in);
  // wmma.cpp: the matrix multiply-accumulates (once per wave, also in wave64).
  void exec_wmma(Wave& w, const Inst& in);
  bool exec_valu_scalar(Wave& w, const Inst& in);
  // vopc.cpp, vop3p.cpp, vopd.cpp; their fast paths are in valu_fast_path.cpp (false: not
  // handled, nothing done).
  void exec_vopc(Wave& w, const Inst& in);
  void exec_vop3p(Wave& w, const Inst& in);
  void exec_vopd(Wave& w, const Inst& in);
  bool exec_valu_fast(Wave& w, const Inst& in);
  // Its 32-bit rows: `nsrc` sources, abs/neg on their sign bits when `float_modifiers`.
  bool exec_rows_fast(Wave& w, const Inst& in, unsigned nsrc, bool float_modifiers);
  bool exec_valu64_fast(Wave& w, const Inst& in);
  bool exec_f64_fast(Wave& w, const Inst& in);
  bool exec_vopc_fast(Wave& w, const Inst& in);
  bool exec_vop3p_fast(Wave& w, const Inst& in);
  bool exec_vopd_fast(Wave& w, const Inst& in);
  // cross_lane.cpp: a DPP instruction stages each lane's src0 from its source lane, then runs
  // the plain form; ds_swizzle/permute/bpermute move a VGPR over the whole wave.
  void exec_dpp(Wave& w, const Inst& in);
  void exec_ds_cross_lane(Wave& w, const Inst& in);
  // flat.cpp: FLAT/GLOBAL/SCRATCH; one lane's access of `mem` (global memory, the LDS or the
  // lane's private memory).
  void exec_flat(Wave& w, const Inst& in);
  void exec_scratch(Wave& w, const Inst& in);
  bool exec_global_dwords(Wave& w, const Inst& in, uint32_t exec, bool saddr, uint64_t sbase);
  // Requests the lines of a gather (see set_gather_yield; a lane that would fault ends the
  // requests, the load faults when it runs); false: not a global load spanning pages.
  bool prefetch_gather(Wave& w, const Inst& in);
  void flat_lane(Wave& w, const Inst& in, MemoryPort& mem, uint64_t addr, unsigned lane);
  static unsigned flat_access_bytes(Op op, const OpInfo& info);
  // Where a misaligned vector memory or LDS access goes under SH_MEM_CONFIG.ALIGNMENT_MODE.
  static uint64_t misaligned_address(const Wave& w, const Inst& in, uint64_t addr, unsigned unit);
  // memory_fast_path.cpp: naturally aligned global/flat accesses and atomics, LDS atomics;
  // false = not handled (nothing done).
  bool exec_vmem_fast(Wave& w, const Inst& in, uint32_t exec, bool saddr, uint64_t sbase);
  bool exec_ds_atomic_fast(Wave& w, const Inst& in, uint32_t exec);
  // ds.cpp: the LDS; ds_load_b32 and ds_store_b32 a row at a time.
  void exec_ds(Wave& w, const Inst& in);
  void exec_ds_dwords(Wave& w, const Inst& in);
  // ds_load/store_b32/b64/b96/b128 of a full wave whose lanes are dword aligned: false (nothing
  // done) otherwise, for the general path.
  bool exec_ds_wide_fast(Wave& w, const Inst& in);
  template <unsigned N> void ds_wide_rows(Wave& w, const Inst& in, bool load);
  // ds_wave.cpp: the LDS operations addressed by M0 (ds_append/ds_consume once per wave, the
  // _addtid_ loads and stores).
  void exec_ds_counter(Wave& w, const Inst& in);
  void exec_ds_addtid(Wave& w, const Inst& in);
  // ds_bvh.cpp: the ray-tracing stack operations, lane by lane.
  void exec_ds_bvh_stack(Wave& w, const Inst& in);
  // flat_extra.cpp: gfx12's block moves (one lane) and the thread-id addressed global accesses.
  void block_lane(Wave& w, const Inst& in, MemoryPort& mem, uint64_t addr, unsigned lane);
  void exec_global_addtid(Wave& w, const Inst& in);
  void exec_load_transpose(Wave& w, const Inst& in); // gfx12 global_load_tr_b64/b128, once per wave
  // atomics.cpp: one lane's atomic of the general FLAT/GLOBAL and DS paths.
  void flat_atomic_lane(Wave& w, const Inst& in, MemoryPort& mem, uint64_t addr, unsigned lane);
  void ds_atomic_lane(Wave& w, const Inst& in, uint32_t addr, unsigned lane);
  // The LDS's 64-bit read-modify-writes a row at a time; false = not one (nothing done).
  bool exec_ds_atomic64_fast(Wave& w, const Inst& in, uint32_t exec);
  // buffer.cpp: MUBUF.
  void exec_buffer(Wave& w, const Inst& in);
  // image.cpp: MIMG / VIMAGE / VSAMPLE (formats in image_format.cpp, sampler in image_sampler.cpp).
  void exec_image(Wave& w, const Inst& in);

  // operands.cpp and below: operand access for every family.
  // Inline for the registers (codes below 128: SGPRs, VCC, trap temporaries, M0, EXEC), the
  // operands of nearly every instruction; constants and literals in operands.cpp.
  uint32_t sread(const Wave& w, const Inst& in, uint16_t code) const {
    if (code < 128) [[likely]]
      return code == src::kNull ? 0 : w.sgpr[code];
    // A literal inline too: libclc's math feeds one to about a tenth of its VALU instructions.
    if (code == src::kLiteral) return in.literal;
    return sread_constant(w, in, code);
  }
  uint32_t sread_constant(const Wave& w, const Inst& in, uint16_t code) const;
  uint64_t sread64(const Wave& w, const Inst& in, uint16_t code, bool as_double) const;
  static uint64_t aperture(const Wave& w, uint16_t code);
  void swrite(Wave& w, uint16_t code, uint32_t v);
  void swrite64(Wave& w, uint16_t code, uint64_t v);
  uint32_t vread(Wave& w, const Inst& in, unsigned i, unsigned lane) const;
  uint64_t vread64(Wave& w, const Inst& in, unsigned i, unsigned lane, bool as_double) const;
  // A VGPR of one lane; beyond the wave's allocation is a fault (kept out of line: cold).
  uint32_t& vreg(Wave& w, uint16_t code, unsigned lane, unsigned dword = 0) const {
    const unsigned reg = code - src::kVgpr0 + dword;
    if (reg >= w.num_vgprs) [[unlikely]]
      vgpr_fault(w, reg);
    return w.vrow[reg * kWaveSize + lane];
  }
  // Lane-mask operands (carries, conditions, compare results): in wave64 the current pass's
  // dword of the SGPR pair (or of a 64-bit constant).
  uint32_t mask_read(const Wave& w, const Inst& in, uint16_t code) const {
    if (!w.wave64) return sread(w, in, code);
    return uint32_t(sread64(w, in, code, false) >> (kWaveSize * w.half));
  }
  // A wave64's first pass holds its mask back until the second pass has read its scalar
  // operands: LLVM may give a carry-out the SGPR pair a source reads (v_add_co_u32 v0, s[2:3],
  // s2, v0), and the hardware reads the sources once for both passes.
  void mask_write(Wave& w, uint16_t code, uint32_t v) {
    if (!w.wave64 || code == src::kNull) return swrite(w, code, v);
    if (w.half == 0)
      held_mask_ = {code, v, true};
    else
      swrite(w, uint16_t(code + 1), v);
  }
  // An LDS access of `bytes` at `a` (ds.cpp, atomics.cpp): an address that is not a multiple
  // of the element's size (at most a dword) follows SH_MEM_CONFIG's alignment mode, as the
  // vector memory accesses do; out of range, reads give zero and writes are discarded, as on
  // hardware.
  uint8_t* lds_at(const Wave& w, const Inst& in, uint32_t& a, unsigned bytes) {
    const unsigned unit = std::min(bytes, 4u);
    if (a & (unit - 1)) a = uint32_t(misaligned_address(w, in, a, unit));
    return uint64_t(a) + bytes <= lds_.size() ? &lds_[a] : nullptr;
  }
  void lds_load(const Wave& w, const Inst& in, uint32_t a, void* v, unsigned bytes) {
    if (uint8_t* p = lds_at(w, in, a, bytes))
      std::memcpy(v, p, bytes);
    else
      std::memset(v, 0, bytes);
  }
  void lds_store(const Wave& w, const Inst& in, uint32_t a, const void* v, unsigned bytes) {
    if (uint8_t* p = lds_at(w, in, a, bytes)) std::memcpy(p, v, bytes);
  }
  [[noreturn, gnu::cold]] static void vgpr_fault(const Wave& w, unsigned reg);
  uint16_t read_half(Wave& w, const Inst& in, unsigned i, unsigned lane) const;

  struct HeldMask {
    uint16_t code = 0;
    uint32_t value = 0;
    bool held = false;
  } held_mask_;
  // A page of global memory for an access (flat.cpp's row paths): through the translation
  // cache inline when memory_ is one (a dispatch's), else the port's virtual call.
  uint8_t* page_of(uint64_t page_va, bool write) {
    return cache_ ? cache_->translate(page_va, 4096, write)
                  : memory_.translate(page_va, 4096, write);
  }

  Program& program_;
  MemoryPort& memory_;
  TranslationCache* const cache_; // memory_, when it is a dispatch's translation cache
  std::vector<uint8_t> lds_;
  const std::atomic<bool>* abort_;
  const std::atomic<bool>* stop_;
  uint64_t budget_ = 0; // instructions left in the running wave's turn (s_sleep ends it)
  bool gather_yield_ = false;
  bool count_lanes_ = true;
  // The host addresses prefetch_gather found for a gather's lanes, per wave of the work-group
  // (Wave::id_in_group), kept for the load when the wave's turn comes back: mappings do not
  // change within a dispatch, and the wave's EXEC and address VGPRs cannot change meanwhile.
  // `pc` is the gather's, or ~0 when a lane would fault or does not fit the dword path (dword
  // aligned, inside one page): the load then translates, checks and faults itself.
  struct GatherHosts {
    uint64_t pc = ~uint64_t(0);
    uint8_t* host[2 * kWaveSize];
  };
  std::vector<GatherHosts> gather_hosts_;
  const GatherHosts* ready_gather_ = nullptr; // the running gather's, while it runs
};

} // namespace sim::shader
