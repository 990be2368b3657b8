#include "sq.h"

#include <cstdio>

namespace sim {

using namespace am::hw::sq;

Sq::Sq(const SqRegs& regs, uint32_t grbm_gfx_index, uint32_t ind_index, uint32_t ind_data,
       int debug)
    : regs_(regs), grbm_gfx_index_reg_(grbm_gfx_index), ind_index_reg_(ind_index),
      ind_data_reg_(ind_data), debug_(debug) {}

bool Sq::write(uint32_t index, uint32_t value) {
  std::lock_guard lock(mutex_);
  if (index == grbm_gfx_index_reg_) {
    grbm_gfx_index_ = value;
  } else if (index == ind_index_reg_) {
    ind_index_ = value;
  } else if (index == ind_data_reg_) {
    if (debug_ >= 2)
      std::fprintf(stderr,
                   "amcl sim: SQ_IND_DATA write 0x%08x (wave register index 0x%x): the "
                   "model holds no writable wave state, dropped\n",
                   value, ind_index_ >> SQ_IND_INDEX_INDEX_SHIFT);
  } else {
    return false;
  }
  return true;
}

bool Sq::read(uint32_t index, uint32_t& value) {
  std::lock_guard lock(mutex_);
  if (index == grbm_gfx_index_reg_) {
    value = grbm_gfx_index_;
  } else if (index == ind_index_reg_) {
    value = ind_index_;
  } else if (index == ind_data_reg_) {
    const uint32_t g = grbm_gfx_index_;
    auto field = [&](uint32_t broadcast, uint32_t shift, uint32_t mask) {
      return (g & broadcast) ? 0u : (g >> shift) & mask;
    };
    const Slot slot{field(GRBM_GFX_INDEX_SE_BROADCAST, GRBM_GFX_INDEX_SE_SHIFT, 0xff),
                    field(GRBM_GFX_INDEX_SA_BROADCAST, GRBM_GFX_INDEX_SA_SHIFT, 0xff),
                    field(GRBM_GFX_INDEX_INSTANCE_BROADCAST, 0, 0xff),
                    ind_index_ & SQ_IND_INDEX_WAVE_ID_MASK};
    const uint32_t reg = ind_index_ >> SQ_IND_INDEX_INDEX_SHIFT;
    auto it = waves_.find(slot);
    value = it == waves_.end() ? 0 : wave_register(it->second, reg);
    if (ind_index_ & SQ_IND_INDEX_AUTO_INCR)
      ind_index_ = (ind_index_ & 0xffff) | ((reg + 1) << SQ_IND_INDEX_INDEX_SHIFT);
  } else {
    return false;
  }
  return true;
}

uint32_t Sq::wave_register(const HaltedWave& w, uint32_t index) const {
  if (index == regs_.ix_pc_lo) return uint32_t(w.pc);
  if (index == regs_.ix_pc_hi) return uint32_t(w.pc >> 32) & SQ_WAVE_PC_HI_MASK;
  if (index == regs_.ix_hw_id1) return encode_hw_id1(w.id);
  if (index == regs_.ix_exception) return w.exception;
  if (debug_ >= 2)
    std::fprintf(stderr,
                 "amcl sim: SQ_IND_DATA read of wave register index 0x%x, which the "
                 "model does not hold for %s: reads 0\n",
                 index, regs_.name);
  return 0;
}

void Sq::halt(const HaltedWave& wave) {
  std::lock_guard lock(mutex_);
  const Slot slot{wave.id.se_id, wave.id.sa_id, wave_instance(wave.id.wgp_id, wave.id.simd_id),
                  wave.id.wave_id};
  waves_[slot] = wave;
}

void Sq::reset() {
  std::lock_guard lock(mutex_);
  waves_.clear();
  grbm_gfx_index_ = kGrbmGfxIndexBroadcast;
  ind_index_ = 0;
}

size_t Sq::halted() const {
  std::lock_guard lock(mutex_);
  return waves_.size();
}

} // namespace sim
