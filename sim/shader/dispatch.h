// Runs one compute dispatch on the emulated shader array: builds each workgroup's waves with
// the launch state COMPUTE_PGM_RSRC1/2/3 and the user SGPRs request, then interprets them.
#pragma once
#include "isa.h"
#include "memory_port.h"

#include <atomic>
#include <memory>
#include <unordered_map>
#include <vector>
#include <cstdint>
#include <string>

namespace sim::shader {

struct LaunchState {
  uint64_t pgm_addr = 0; // COMPUTE_PGM_LO/HI << 8
  uint32_t rsrc1 = 0, rsrc2 = 0, rsrc3 = 0;
  uint32_t user_data[16] = {};
  uint32_t group_size[3] = {1, 1, 1};  // COMPUTE_NUM_THREAD_X/Y/Z.NUM_THREAD_FULL
  // The last work-group's size along each dimension (NUM_THREAD_PARTIAL with
  // DISPATCH_INITIATOR.PARTIAL_TG_EN; group_size without).
  uint32_t last_group_size[3] = {1, 1, 1};
  uint32_t grid_groups[3] = {1, 1, 1}; // DISPATCH_DIRECT dims, in workgroups
  uint32_t start[3] = {0, 0, 0};       // COMPUTE_START_X/Y/Z
  bool wave32 = true;                  // DISPATCH_INITIATOR.CS_W32_EN
  uint64_t scratch_base = 0;           // COMPUTE_DISPATCH_SCRATCH_BASE_LO/HI << 8
  uint32_t tmpring_size = 0;           // COMPUTE_TMPRING_SIZE
  uint64_t shared_aperture = 0;        // from SH_MEM_BASES of the queue's VMID
  uint64_t private_aperture = 0;
  // SH_MEM_CONFIG.ALIGNMENT_MODE of the queue's VMID (am::hw::ShMemAlignmentMode); tests that
  // launch waves directly get the mode every driver selects.
  uint32_t alignment_mode = 3;
  Gfx gfx = Gfx::v11;                  // the shader array's instruction set
  // Work-group g runs on shader engine g % shader_engines; on gfx11/gfx12 each engine has
  // COMPUTE_TMPRING_SIZE.WAVES scratch slots of its own, engine e's from slot e x WAVES on.
  unsigned shader_engines = 1;
  // Not hardware state: whether DispatchResult::lane_instructions is counted (AMCL_SIM_STATS).
  bool count_lanes = true;
};

struct DispatchResult {
  bool ok = true;
  std::string fault;          // names the instruction and address when !ok
  bool memory_fault = false;  // the fault was a memory access (a VM fault on hardware)
  uint64_t fault_address = 0;
  bool fault_write = false;
  // A fault of one wave (not of the dispatch as a whole): where it was and which one it was.
  bool wave_fault = false;
  uint64_t fault_pc = 0;          // the instruction the wave stopped on
  unsigned fault_wave = 0;        // the wave's index in its work-group
  unsigned fault_worker = 0;      // the host worker that ran its work-group
  uint64_t instructions = 0;      // wave-instructions
  uint64_t lane_instructions = 0; // active lanes summed over vector instructions (+1 per scalar one)
  uint64_t waves = 0;
};

class WorkerPool;
class Program;

// The shader array's instruction cache: decoded programs kept across dispatches, one per code
// object entry point, shared by every worker thread of a dispatch (each instruction is decoded
// once, by whichever worker reaches it first). As the SQC instruction caches do, it keeps
// serving what it decoded for an address until an ACQUIRE_MEM with GLI_INV invalidates it
// (invalidate()), even when the memory under it has changed: a driver that reloads code without
// the invalidation runs the old code.
class ProgramCache {
public:
  ProgramCache();
  ~ProgramCache();
  // The program for `entry`: the cached one when there is one, else a new one (decoded as it
  // runs). Called once per dispatch, before its workers start.
  Program& get(uint64_t entry, Gfx gfx, MemoryPort& memory);
  // GLI_INV: every decoded program is dropped. Not while a dispatch runs.
  void invalidate();
  uint64_t reused() const { return reused_; }
  // Reuses of a program whose code bytes had changed since it was decoded: stale code ran
  // (each is also reported once on stderr, naming the address).
  uint64_t stale() const { return stale_; }

private:
  // Entry point -> program (a handful of kernels alternate in most programs; the map is
  // emptied when it grows past kMaxPrograms).
  static constexpr size_t kMaxPrograms = 64;
  std::unordered_map<uint64_t, std::unique_ptr<Program>> programs_;
  std::atomic<uint64_t> reused_{0};
  std::atomic<uint64_t> stale_{0};
};

// Work-groups are shared out over `pool`'s threads and the caller's. `abort`, when raised from
// another thread, stops the dispatch with a fault.
// `programs` (optional) keeps decoded programs across dispatches.
DispatchResult run_dispatch(const LaunchState& launch, MemoryPort& memory, WorkerPool& pool,
                            const std::atomic<bool>* abort = nullptr,
                            ProgramCache* programs = nullptr);

} // namespace sim::shader
