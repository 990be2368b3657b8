// The emulated shader sequencer's debug side: waves the shader array halted on an exception
// keep their state (PC, the exception register with ILLEGAL_INST, HW_ID1) readable through
// GRBM_GFX_INDEX + SQ_IND_INDEX / SQ_IND_DATA until their queue is reset, as a driver reads a
// wave on hardware (amdgpu's gfx_v11_0_read_wave_data). Register facts: am/hw/sq.h.
//
// What the model returns where hardware gives no promise (its choice):
// - a wave slot that holds no halted wave (one that runs, or none) reads 0 at every index:
//   the model keeps no live per-wave state, and a driver cannot rely on a running wave's
//   registers anyway;
// - indices of wave registers the model does not hold (everything but PC_LO/HI, HW_ID1 and
//   TRAPSTS / EXCP_FLAG_PRIV, including indices that name no register of the generation) read
//   0 and, at AM_DEBUG >= 2, are logged; SQ_IND_DATA writes are dropped and logged likewise;
// - broadcast bits in GRBM_GFX_INDEX select index 0 of that field for a read.
#pragma once
#include "am/hw/sq.h"

#include <cstdint>
#include <map>
#include <mutex>
#include <tuple>

namespace sim {

struct HaltedWave {
  am::hw::sq::HwId1 id;
  uint64_t pc = 0;
  uint32_t exception = 0; // TRAPSTS (GC 11) / EXCP_FLAG_PRIV (GC 12)
};

class Sq {
public:
  // The BAR5 dword indices of GRBM_GFX_INDEX, SQ_IND_INDEX and SQ_IND_DATA on this card.
  Sq(const am::hw::sq::SqRegs& regs, uint32_t grbm_gfx_index, uint32_t ind_index, uint32_t ind_data,
     int debug);
  // Register accesses: false when `index` is none of the three.
  bool write(uint32_t index, uint32_t value);
  bool read(uint32_t index, uint32_t& value);
  // A wave stopped on an exception: its state stays readable until reset().
  void halt(const HaltedWave& wave);
  // The queue's waves are gone (a dequeue that resets them, a mode1 reset).
  void reset();
  size_t halted() const;

private:
  using Slot = std::tuple<uint32_t, uint32_t, uint32_t, uint32_t>; // SE, SA, instance, wave
  uint32_t wave_register(const HaltedWave& w, uint32_t index) const;
  const am::hw::sq::SqRegs& regs_;
  uint32_t grbm_gfx_index_reg_, ind_index_reg_, ind_data_reg_;
  int debug_;
  mutable std::mutex mutex_;
  uint32_t grbm_gfx_index_ = am::hw::sq::kGrbmGfxIndexBroadcast;
  uint32_t ind_index_ = 0;
  std::map<Slot, HaltedWave> waves_;
};

} // namespace sim
