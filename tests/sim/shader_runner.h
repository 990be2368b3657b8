// Running hand-assembled shader code in the execution tests: instruction words written into a
// flat fake memory, then one wave on an Executor of its own, or a whole dispatch through
// run_dispatch as the MEC starts one.
#pragma once
#include "sim/shader/dispatch.h"
#include "sim/shader/executor.h"
#include "sim/shader/worker_pool.h"

#include <cstdint>
#include <span>
#include <utility>

namespace sim::test {

// s_endpgm, the same word on gfx11 and gfx12 (llvm-mc-22 -show-encoding).
inline constexpr uint32_t kEndpgm = 0xBFB00000u;

// Writes `words` from `at` on (a FlatMemory); returns the address after the last.
template <class Memory>
uint64_t put_words(Memory& mem, uint64_t at, std::span<const uint32_t> words) {
  for (uint32_t word : words) mem.put(std::exchange(at, at + 4), word);
  return at;
}

// A wave of 32 or 64 lanes, every lane active, `vgprs` zeroed VGPRs, about to run from `pc`.
inline void start_wave(shader::Wave& w, bool wave64, unsigned vgprs, uint64_t pc) {
  w.restart(wave64, vgprs); // a Wave of its own: its files are new, so zero
  w.sgpr[shader::src::kExecLo] = ~0u;
  w.sgpr[shader::src::kExecHi] = wave64 ? ~0u : 0u;
  w.pc = pc;
}

// VGPR `reg` of lane `lane` of the whole wave (a wave64's lanes 32..63 are its second half).
inline uint32_t lane_vgpr(shader::Wave& w, unsigned reg, unsigned lane) {
  w.select_half(lane / 32);
  const uint32_t v = w.v(reg, lane % 32);
  w.select_half(0);
  return v;
}

// The code at `code` of `mem`, decoded for `gfx`, on an Executor of its own with `lds_bytes` of
// LDS: runs waves as a work-group's worker does.
struct WaveRunner {
  shader::Program program;
  shader::Executor executor;
  WaveRunner(shader::MemoryPort& mem, uint64_t code, shader::Gfx gfx, uint32_t lds_bytes = 0)
      : program(mem, code, gfx), executor(program, mem, lds_bytes) {}
  // Runs `w` until it ends, reaches a barrier or has executed `budget` instructions (one turn).
  void run(shader::Wave& w, uint64_t budget = ~uint64_t(0)) {
    uint64_t lanes = 0;
    executor.run(w, lanes, budget);
  }
};

// One work-group of `lanes` work-items running the code at `code`, 16 VGPRs per lane, whose two
// user SGPRs hold `args` (the argument block's address), as the launch state of a dispatch.
inline shader::LaunchState one_group(uint64_t code, uint64_t args, unsigned lanes = 32,
                                     bool wave32 = true, shader::Gfx gfx = shader::Gfx::v11) {
  shader::LaunchState L;
  L.pgm_addr = code;
  L.rsrc1 = wave32 ? 1 : 3; // 16 VGPRs (granules of 8 in wave32, 4 in wave64)
  L.rsrc2 = 2u << 1;        // two user SGPRs: the argument block pointer
  L.user_data[0] = uint32_t(args);
  L.group_size[0] = L.last_group_size[0] = lanes;
  L.wave32 = wave32;
  L.gfx = gfx;
  return L;
}

// run_dispatch with a worker pool of its own.
inline shader::DispatchResult dispatch(const shader::LaunchState& launch, shader::MemoryPort& mem) {
  shader::WorkerPool pool;
  return shader::run_dispatch(launch, mem, pool);
}

} // namespace sim::test
