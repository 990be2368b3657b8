// Architectural state of one wavefront (RDNA3 ISA manual, "Program State"), wave32 or wave64.
#pragma once
#include "isa.h"

#include <cstdint>
#include <vector>

namespace sim::shader {

// Lanes a vector instruction processes in one pass. A wave64 runs each vector instruction as
// two passes, lanes 0..31 then 32..63, as RDNA's SIMD32 units do (RDNA3 ISA manual, "Wave32 and
// Wave64"): its lane masks are SGPR pairs whose low and high dwords belong to the two passes.
inline constexpr unsigned kWaveSize = 32;

// Lanes set in a lane mask, inline: std::popcount is a libgcc call on baseline x86-64 (no popcnt
// instruction), which showed in the profiles of sparse-EXEC loops.
constexpr unsigned lane_count(uint64_t x) {
  x = x - ((x >> 1) & 0x5555555555555555ull);
  x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
  x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
  return unsigned((x * 0x0101010101010101ull) >> 56);
}
static_assert(lane_count(0) == 0 && lane_count(~0ull) == 64 &&
              lane_count(0x8000000100000011ull) == 4);

// A work-group's barrier as gfx12 keeps it (RDNA4 ISA manual, "Barrier State"): how many waves
// must signal it (the work-group's) and how many have since it last completed. Shared by the
// work-group's waves; the trap barrier has the same members and user code never signals it.
struct GroupBarrier {
  unsigned members = 0;
  unsigned signalled = 0;
};

// A wave's state apart from its register files: what a new wave starts from, whole.
struct WaveStatus {
  bool scc = false;
  uint64_t pc = 0;
  bool wave64 = false;
  // The pass a vector instruction is in (always 0 for wave32): picks the EXEC and VCC dwords
  // and the half of the VGPR file the 32-lane code sees.
  unsigned half = 0;
  bool done = false;
  bool at_barrier = false;
  bool barrier_signalled = false; // gfx12: s_barrier_signal seen, s_barrier_wait not yet
  GroupBarrier* group_barrier = nullptr; // the work-group's (gfx12 barrier state)
  unsigned id_in_group = 0;
  // Private memory: this wave's slot in the scratch ring and its size (0: no scratch).
  uint64_t scratch_base = 0;
  uint32_t scratch_bytes = 0;
  // Flat-address apertures (SH_MEM_BASES of the dispatch's VMID): a flat address whose bits
  // [63:48] match one of these bases addresses LDS or this lane's private memory with its low
  // 32 bits. Zero: no such aperture.
  uint64_t shared_aperture = 0, private_aperture = 0;
  // SH_MEM_CONFIG.ALIGNMENT_MODE: what a misaligned vector memory access does (see exec_flat).
  uint8_t alignment_mode = 3;
  // MODE register pieces that change arithmetic (from COMPUTE_PGM_RSRC1 FLOAT_MODE).
  bool flush_f32_denorms = false;
  bool flush_f64_denorms = false;
  uint32_t mode_upper = 0; // MODE bits [31:8] as s_setreg last wrote them (salu_extra.cpp)
  // The gather at this pc had its lines requested before the wave gave its turn away
  // (Executor::run); it runs when the wave's turn comes again.
  uint64_t prefetched_pc = ~uint64_t(0);
};

struct Wave : WaveStatus {
  // SGPR file indexed by operand code: s0..s105, vcc_lo/hi (106/107), m0 (125),
  // exec_lo/hi (126/127) live in the same array so operand codes index it directly.
  uint32_t sgpr[128] = {};
  unsigned num_vgprs = 0;
  // VGPR file: for each half, num_vgprs registers plus one staging row (DPP) of 32 lanes;
  // vrow points at the current half's, vrow[reg * 32 + lane].
  std::vector<uint32_t> vgpr;
  uint32_t* vrow = nullptr;
  size_t half_stride = 0; // dwords from one half's file to the next

  // A new wave in this object, for a dispatch: its status as a fresh wave's, `vgprs` VGPRs per
  // half. The register files keep what the last wave here left, as a SIMD's do on hardware:
  // the launch sets what the ABI defines (user SGPRs, ids, EXEC, v0) and the rest is
  // undefined; clearing them and rebuilding the wave was a tenth of an empty dispatch's work on
  // the emulated MEC. Storage the VGPR file grows into is zero.
  void restart(bool is_wave64, unsigned vgprs) {
    static_cast<WaveStatus&>(*this) = WaveStatus{};
    wave64 = is_wave64;
    num_vgprs = vgprs;
    half_stride = size_t(vgprs + 1) * kWaveSize;
    vgpr.resize(half_stride * (is_wave64 ? 2 : 1));
    select_half(0);
  }

  unsigned lanes() const { return wave64 ? 64 : 32; }
  // The lane number of lane `lane` of the current pass.
  unsigned lane_id(unsigned lane) const { return half * kWaveSize + lane; }
  void select_half(unsigned h) {
    half = h;
    vrow = vgpr.data() + h * half_stride;
  }
  // The current pass's EXEC and VCC.
  uint32_t exec() const { return sgpr[src::kExecLo + half]; }
  uint32_t vcc() const { return sgpr[src::kVccLo + half]; }
  // The whole wave's: exec_hi and vcc_hi are not lane masks in wave32.
  uint64_t exec_mask() const {
    return wave64 ? sgpr[src::kExecLo] | uint64_t(sgpr[src::kExecHi]) << 32 : sgpr[src::kExecLo];
  }
  uint64_t vcc_mask() const {
    return wave64 ? sgpr[src::kVccLo] | uint64_t(sgpr[src::kVccHi]) << 32 : sgpr[src::kVccLo];
  }
  uint32_t& v(unsigned reg, unsigned lane) { return vrow[reg * kWaveSize + lane]; }
  // VGPR `reg` of lane `lane` (0..63) of the whole wave, whichever pass is selected.
  uint32_t& whole_wave_v(unsigned reg, unsigned lane) {
    return vgpr[(lane / kWaveSize) * half_stride + reg * kWaveSize + lane % kWaveSize];
  }
};

} // namespace sim::shader
