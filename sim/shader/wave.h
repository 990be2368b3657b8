// Architectural state of one wave32 wavefront (RDNA3 ISA manual, "Program State").
#pragma once
#include "isa.h"

#include <cstdint>
#include <vector>

namespace sim::shader {

inline constexpr unsigned kWaveSize = 32;

struct Wave {
  // SGPR file indexed by operand code: s0..s105, vcc_lo/hi (106/107), m0 (125),
  // exec_lo/hi (126/127) live in the same array so operand codes index it directly.
  uint32_t sgpr[128] = {};
  bool scc = false;
  uint64_t pc = 0;
  unsigned num_vgprs = 0;
  std::vector<uint32_t> vgpr; // vgpr[reg * 32 + lane]
  bool done = false;
  bool at_barrier = false;
  bool barrier_signalled = false; // gfx12: s_barrier_signal seen, s_barrier_wait not yet
  unsigned id_in_group = 0;
  // Private memory: this wave's slot in the scratch ring and its size (0: no scratch).
  uint64_t scratch_base = 0;
  uint32_t scratch_bytes = 0;
  // Flat-address apertures (SH_MEM_BASES of the dispatch's VMID): a flat address whose bits
  // [63:48] match one of these bases addresses LDS or this lane's private memory with its low
  // 32 bits. Zero: no such aperture.
  uint64_t shared_aperture = 0, private_aperture = 0;
  // MODE register pieces that change arithmetic (from COMPUTE_PGM_RSRC1 FLOAT_MODE).
  bool flush_f32_denorms = false;
  bool flush_f64_denorms = false;

  uint32_t exec() const { return sgpr[src::kExecLo]; }
  uint32_t vcc() const { return sgpr[src::kVccLo]; }
  uint32_t& v(unsigned reg, unsigned lane) { return vgpr[reg * kWaveSize + lane]; }
};

} // namespace sim::shader
