// Launch-state setup for a compute dispatch (LLVM AMDGPUUsage, "Initial Kernel Execution
// State" for GFX11, and the COMPUTE_PGM_RSRC1/2 field definitions in Mesa's sid.h).
#include "dispatch.h"

#include "am/hw/sh_regs.h"
#include "executor.h"
#include "sim/thread_slot.h"
#include "translation_cache.h"
#include "worker_pool.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>

namespace sim::shader {
namespace {

// Instructions a wave runs before the next wave of its work-group gets a turn: long enough
// that switching costs nothing measurable, short enough that a spin-wait ends in milliseconds.
constexpr uint64_t kWaveTurn = 1u << 14;

using namespace am::hw::sh;

// COMPUTE_PGM_RSRC1: GRANULATED_WORKITEM_VGPR_COUNT[5:0] in blocks of 8 (wave32) or 4 (wave64)
// VGPRs; FLOAT_MODE[19:12] with FP_DENORM_32 at [17:16] and FP_DENORM_16_64 at [19:18]
// (0 = flush in and out, 3 = keep denormals).
unsigned vgpr_count(uint32_t rsrc1, bool wave32) {
  return ((rsrc1 & 0x3f) + 1) * (wave32 ? 8 : 4);
}
// COMPUTE_PGM_RSRC2.LDS_SIZE[23:15] in 512-byte granules.
uint32_t lds_bytes(uint32_t rsrc2) { return ((rsrc2 >> 15) & 0x1ff) * 512; }

// The work-item ids of a wave's `active` lanes into v0, from the first lane's (x, y, z) in a
// group of gx by gy: gfx11 packs them as x[9:0] y[19:10] z[29:20], the components the kernel
// asked for (COMPUTE_PGM_RSRC2.TIDIG_COMP_CNT). By counting: a division per lane showed in the
// profiles of small work-groups.
void fill_ids(Wave& w, unsigned active, uint32_t gx, uint32_t gy, uint32_t x, uint32_t y,
              uint32_t z, unsigned tid_comps) {
  for (unsigned lane = 0; lane < active; ++lane) {
    uint32_t packed = x;
    if (tid_comps >= 1) packed |= y << 10;
    if (tid_comps >= 2) packed |= z << 20;
    w.vgpr[(lane / kWaveSize) * w.half_stride + lane % kWaveSize] = packed;
    if (++x == gx) {
      x = 0;
      if (++y == gy) y = 0, ++z;
    }
  }
}

} // namespace

ProgramCache::ProgramCache() = default;
ProgramCache::~ProgramCache() = default;

Program& ProgramCache::get(uint64_t entry, Gfx gfx, MemoryPort& memory) {
  auto it = programs_.find(entry);
  if (it != programs_.end() && it->second->gfx() == gfx) {
    reused_.fetch_add(1, std::memory_order_relaxed);
    // The comparison only tells; the cached code runs either way, as on hardware.
    Program& p = *it->second;
    if (!p.revalidate(memory)) {
      p.rebind(memory);
      stale_.fetch_add(1, std::memory_order_relaxed);
      if (!p.reported_stale)
        std::fprintf(stderr,
                     "amcl sim: code at 0x%llx changed since it was decoded and no ACQUIRE_MEM "
                     "invalidated the instruction cache (GLI_INV): the old code runs\n",
                     static_cast<unsigned long long>(entry));
      p.reported_stale = true;
    }
    return p;
  }
  if (programs_.size() >= kMaxPrograms) programs_.clear();
  auto& slot = programs_[entry];
  slot = std::make_unique<Program>(memory, entry, gfx);
  return *slot;
}

void ProgramCache::invalidate() { programs_.clear(); }

DispatchResult run_dispatch(const LaunchState& L, MemoryPort& memory, WorkerPool& pool,
                            const std::atomic<bool>* abort, ProgramCache* programs) {
  DispatchResult result;
  // COMPUTE_DISPATCH_INITIATOR.CS_W32_EN picks the wave size.
  const unsigned wave_lanes = L.wave32 ? 32 : 64;
  // Scratch slots and the wave vector are sized for a whole work-group; a partial one (the
  // last along a dimension with PARTIAL_TG_EN) uses fewer.
  const unsigned waves_per_group =
      (L.group_size[0] * L.group_size[1] * L.group_size[2] + wave_lanes - 1) / wave_lanes;
  const unsigned user_sgprs = rsrc2_user_sgpr(L.rsrc2);
  const unsigned tid_comps = rsrc2_tidig_comp_cnt(L.rsrc2);
  const unsigned nvgpr = vgpr_count(L.rsrc1, L.wave32);
  const unsigned denorm32 = (L.rsrc1 >> 16) & 3, denorm64 = (L.rsrc1 >> 18) & 3;
  const bool scratch = rsrc2_scratch_en(L.rsrc2);
  const uint32_t wave_bytes = tmpring_wave_bytes(L.tmpring_size, L.gfx == Gfx::v12);
  const uint64_t groups = uint64_t(L.grid_groups[0]) * L.grid_groups[1] * L.grid_groups[2];
  if (scratch && (tmpring_waves(L.tmpring_size) < waves_per_group || !wave_bytes || !L.scratch_base)) {
    result.ok = false;
    result.fault = "dispatch needs scratch but COMPUTE_TMPRING_SIZE/DISPATCH_SCRATCH_BASE give " +
                   std::to_string(tmpring_waves(L.tmpring_size)) + " slots of " +
                   std::to_string(wave_bytes) + " bytes for " + std::to_string(waves_per_group) +
                   " waves per group";
    return result;
  }

  // Work-groups are shared out to host threads; each thread has its own translation cache and
  // its own block of scratch slots, and they share the decoded program.
  // Asked once: hardware_concurrency() reads sysfs on every call (glibc's get_nprocs).
  static const unsigned host_threads = [] {
    unsigned n = std::max(1u, std::thread::hardware_concurrency());
    if (const char* env = std::getenv("AMCL_SIM_THREADS")) n = unsigned(std::max(1, std::atoi(env)));
    return n;
  }();
  unsigned workers = unsigned(std::min<uint64_t>(host_threads, groups));
  // Each worker owns one block of a work-group's slots in every shader engine's WAVES.
  if (scratch) workers = std::max(1u, std::min(workers, tmpring_waves(L.tmpring_size) / waves_per_group));
  const unsigned engines = std::max(1u, L.shader_engines);

  std::atomic<uint64_t> next{0};
  std::atomic<bool> stop{false};
  std::mutex result_mutex; // a fault's report
  std::atomic<uint64_t> total_instructions{0}, total_lanes{0}, total_waves{0};
  // One decoded program for all workers: the cached one, or (without a cache) this dispatch's.
  // On the heap, and only without a cache: an empty std::optional<Program> on the stack was
  // zeroed in full (8 KiB of instruction index) on every dispatch.
  std::unique_ptr<Program> own_program;
  Program& program = programs
                         ? programs->get(L.pgm_addr, L.gfx, memory)
                         : *(own_program = std::make_unique<Program>(memory, L.pgm_addr, L.gfx));
  auto worker = [&](unsigned index) {
    TranslationCache cache(memory);
    // One executor (and its LDS) and one set of waves serve all of this thread's work-groups:
    // a work-group's state is reset, not reallocated.
    Executor exec(program, cache, lds_bytes(L.rsrc2), abort, &stop);
    // The thread's waves outlive the dispatch with their VGPR storage: a dispatch of a few
    // waves allocated and freed them every time (malloc/free showed in the MEC's profile).
    std::vector<Wave>& waves = ThreadSlot<std::vector<Wave>>::get();
    GroupBarrier group_barrier;
    const Wave* running = nullptr; // the wave exec.run is stepping, for a fault's report
    uint64_t instructions = 0, lanes = 0, waves_run = 0;
    try {
      for (uint64_t g; !stop && (g = next.fetch_add(1)) < groups;) {
        if (abort && abort->load(std::memory_order_relaxed)) throw ShaderFault("dispatch aborted by a queue reset");
        const uint32_t wx = uint32_t(g % L.grid_groups[0]);
        const uint32_t wy = uint32_t((g / L.grid_groups[0]) % L.grid_groups[1]);
        const uint32_t wz = uint32_t(g / (uint64_t(L.grid_groups[0]) * L.grid_groups[1]));
        const uint32_t id[3] = {L.start[0] + wx, L.start[1] + wy, L.start[2] + wz};
        const uint32_t gx = wx + 1 == L.grid_groups[0] ? L.last_group_size[0] : L.group_size[0];
        const uint32_t gy = wy + 1 == L.grid_groups[1] ? L.last_group_size[1] : L.group_size[1];
        const uint32_t gz = wz + 1 == L.grid_groups[2] ? L.last_group_size[2] : L.group_size[2];
        const uint32_t threads = gx * gy * gz;
        // Where this group's waves keep their private memory: its shader engine's slots (WAVES
        // per engine since gfx11: Mesa ac_get_scratch_tmpring_size, tinygrad ops_amd.py), then
        // this worker's block among them.
        const uint64_t first_slot = uint64_t(g % engines) * tmpring_waves(L.tmpring_size) +
                                    uint64_t(index) * waves_per_group;
        const unsigned group_waves = (threads + wave_lanes - 1) / wave_lanes;
        exec.reset_lds();
        exec.set_gather_yield(group_waves > 1);
        exec.set_count_lanes(L.count_lanes);
        waves.resize(group_waves);
        group_barrier = {group_waves, 0};
        waves_run += group_waves;
        for (unsigned wi = 0; wi < group_waves; ++wi) {
          Wave& w = waves[wi];
          w.restart(!L.wave32, nvgpr);
          w.id_in_group = wi;
          w.group_barrier = &group_barrier;
          w.pc = L.pgm_addr;
          w.shared_aperture = L.shared_aperture;
          w.private_aperture = L.private_aperture;
          w.alignment_mode = uint8_t(L.alignment_mode);
          w.flush_f32_denorms = denorm32 == 0;
          w.flush_f64_denorms = denorm64 == 0;
          if (scratch) {
            w.scratch_base = L.scratch_base + (first_slot + wi) * wave_bytes;
            w.scratch_bytes = wave_bytes;
          }
          // One copy: an element loop with its two bounds cost 120 host instructions a wave.
          unsigned s = std::min(user_sgprs, 16u);
          std::copy_n(L.user_data, s, w.sgpr);
          if (L.gfx == Gfx::v12) {
            // Architected SGPRs: the ids live in trap temporaries, not after the user SGPRs.
            w.sgpr[src::kTtmp9] = id[0];
            w.sgpr[src::kTtmp7] = (id[1] & 0xffff) | (id[2] << 16);
            w.sgpr[src::kTtmp8] = (wi & 0x1f) << 25;
          } else {
            if (rsrc2_tgid_x(L.rsrc2)) w.sgpr[s++] = id[0];
            if (rsrc2_tgid_y(L.rsrc2)) w.sgpr[s++] = id[1];
            if (rsrc2_tgid_z(L.rsrc2)) w.sgpr[s++] = id[2];
          }
          if (rsrc2_tg_size(L.rsrc2)) w.sgpr[s++] = group_waves & 0x3f;
          // The wave's work-items: its first one's ids by division, the rest by counting.
          const uint32_t first = wi * wave_lanes;
          const unsigned active = std::min<uint32_t>(wave_lanes, threads - first);
          const uint32_t x = first % gx, y = (first / gx) % gy, z = first / (gx * gy);
          if (x + active <= gx) {
            // The whole wave in one row of the group (every 1-D group's waves): x counts up
            // from the first lane, y and z are the same for all. A loop the compiler
            // vectorises: the general one cost about 1,000 host instructions a 64-item dispatch.
            uint32_t row = x;
            if (tid_comps >= 1) row |= y << 10;
            if (tid_comps >= 2) row |= z << 20;
            for (unsigned h = 0; h * kWaveSize < active; ++h) {
              uint32_t* v0 = w.vgpr.data() + h * w.half_stride;
              const unsigned n = std::min(kWaveSize, active - h * kWaveSize);
              const uint32_t first_x = row + h * kWaveSize;
              // A full row apart: a constant trip count is what -O2 vectorises.
              if (n == kWaveSize)
                for (unsigned i = 0; i < kWaveSize; ++i) v0[i] = first_x + i;
              else
                for (unsigned i = 0; i < n; ++i) v0[i] = first_x + i;
            }
          } else {
            fill_ids(w, active, gx, gy, x, y, z, tid_comps);
          }
          const uint64_t exec_mask = active >= 64 ? ~0ull : (uint64_t(1) << active) - 1;
          w.sgpr[src::kExecLo] = uint32_t(exec_mask);
          w.sgpr[src::kExecHi] = uint32_t(exec_mask >> 32); // 0 in wave32, where it is no mask
        }
        // Waves take turns of kWaveTurn instructions, so one spinning on a value another
        // wave of its group will store lets that wave run (OpenCL's independent forward
        // progress of sub-groups). A wave at a barrier waits until every live wave is at it.
        for (;;) {
          bool live = false, all_waiting = true;
          for (Wave& w : waves) {
            if (w.done) continue;
            if (!w.at_barrier) {
              running = &w;
              instructions += exec.run(w, lanes, kWaveTurn);
            }
            live |= !w.done;
            all_waiting &= w.done || w.at_barrier;
          }
          running = nullptr;
          if (!live) break;
          if (all_waiting) {
            for (Wave& w : waves) w.at_barrier = false;
            group_barrier.signalled = 0; // complete: the live waves all signalled
          }
          if (abort && abort->load(std::memory_order_relaxed))
            throw ShaderFault("dispatch aborted by a queue reset");
          if (stop) break;
        }
      }
    } catch (const ShaderFault& f) {
      std::lock_guard lock(result_mutex);
      if (result.ok) {
        result.ok = false;
        result.fault = f.what();
        result.memory_fault = f.memory;
        result.fault_address = f.address;
        result.fault_write = f.write;
        if (running && !f.memory) {
          result.wave_fault = true;
          result.fault_pc = running->pc;
          result.fault_wave = unsigned(running - waves.data());
          result.fault_worker = index;
        }
      }
      stop = true;
    } catch (const MemoryFault& f) {
      std::lock_guard lock(result_mutex);
      if (result.ok) {
        result.ok = false;
        result.fault = std::string("instruction fetch fault: ") + f.what();
        result.memory_fault = true;
        result.fault_address = f.address;
      }
      stop = true;
    }
    // Counters, not the lock: a lock pair was 2 % of an empty dispatch's work on the MEC.
    total_instructions.fetch_add(instructions, std::memory_order_relaxed);
    total_lanes.fetch_add(lanes, std::memory_order_relaxed);
    total_waves.fetch_add(waves_run, std::memory_order_relaxed);
  };
  pool.run(workers, std::ref(worker)); // a reference: no std::function allocation
  // The pool has joined its workers: their counts are all in.
  result.instructions = total_instructions.load(std::memory_order_relaxed);
  result.lane_instructions = total_lanes.load(std::memory_order_relaxed);
  result.waves = total_waves.load(std::memory_order_relaxed);
  return result;
}

} // namespace sim::shader
