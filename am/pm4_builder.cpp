#include "pm4_builder.h"

#include <stdexcept>

namespace am {

using namespace hw;

void Pm4Builder::nop(uint32_t body_dwords) {
  if (body_dwords == 0) {
    emit(pm4::kType2Nop);
    return;
  }
  emit(pm4::packet3_compute(pm4::NOP, body_dwords));
  for (uint32_t i = 0; i < body_dwords; ++i) emit(0);
}

void Pm4Builder::set_sh_regs(uint32_t reg, const uint32_t* values, uint32_t count) {
  if (reg < sh::kShRegStart || reg + count > sh::kShRegEnd)
    throw std::invalid_argument("SET_SH_REG outside the SH register window");
  emit(pm4::packet3_compute(pm4::SET_SH_REG, count + 1));
  emit(reg - sh::kShRegStart);
  for (uint32_t i = 0; i < count; ++i) emit(values[i]);
}

void Pm4Builder::set_sh_regs(uint32_t reg, std::initializer_list<uint32_t> values) {
  set_sh_regs(reg, values.begin(), uint32_t(values.size()));
}

void Pm4Builder::dispatch_direct(uint32_t x, uint32_t y, uint32_t z, uint32_t initiator) {
  emit(pm4::packet3_compute(pm4::DISPATCH_DIRECT, 4));
  emit(x);
  emit(y);
  emit(z);
  emit(initiator);
}

void Pm4Builder::acquire_mem_all() {
  // ACQUIRE_MEM (gfx10+): dw1 reserved, COHER_SIZE lo/hi = all, COHER_BASE lo/hi = 0,
  // POLL_INTERVAL, GCR_CNTL (invalidate GL0/GL1/GL2 and write back GL2).
  emit(pm4::packet3_compute(pm4::ACQUIRE_MEM, 7));
  emit(0);
  emit(0xffffffff);
  emit(0x00ffffff);
  emit(0);
  emit(0);
  emit(0x0000000a);
  emit(0x0003c380); // GCR_CNTL: GLI_INV, GLK/GLV/GL1 invalidate, GL2 invalidate + writeback
}

void Pm4Builder::release_mem_signal(uint64_t address, uint64_t value, bool interrupt) {
  emit(pm4::packet3_compute(pm4::RELEASE_MEM, 7));
  emit(pm4::release_mem_event_type(pm4::CACHE_FLUSH_AND_INV_TS_EVENT) |
       pm4::release_mem_event_index(pm4::kEventIndexEndOfPipe) | pm4::RELEASE_MEM_GCR_SEQ |
       pm4::RELEASE_MEM_GCR_GL2_WB | pm4::RELEASE_MEM_GCR_GLM_WB);
  emit(pm4::release_mem_data_sel(pm4::DATA_SEL_64) |
       pm4::release_mem_int_sel(interrupt ? pm4::INT_SEL_SEND_AFTER_WRITE_CONFIRM
                                          : pm4::INT_SEL_NONE));
  emit(uint32_t(address));
  emit(uint32_t(address >> 32));
  emit(uint32_t(value));
  emit(uint32_t(value >> 32));
  emit(0);
}

void Pm4Builder::release_mem_timestamp(uint64_t address) {
  emit(pm4::packet3_compute(pm4::RELEASE_MEM, 7));
  emit(pm4::release_mem_event_type(pm4::BOTTOM_OF_PIPE_TS) |
       pm4::release_mem_event_index(pm4::kEventIndexEndOfPipe));
  emit(pm4::release_mem_data_sel(pm4::DATA_SEL_GPU_CLOCK));
  emit(uint32_t(address));
  emit(uint32_t(address >> 32));
  emit(0);
  emit(0);
  emit(0);
}

void Pm4Builder::write_data_mem(uint64_t address, std::initializer_list<uint32_t> values) {
  emit(pm4::packet3_compute(pm4::WRITE_DATA, uint32_t(values.size()) + 3));
  emit(pm4::write_data_dst_sel(pm4::WRITE_DATA_DST_MEM) | pm4::WRITE_DATA_WR_CONFIRM);
  emit(uint32_t(address));
  emit(uint32_t(address >> 32));
  for (uint32_t v : values) emit(v);
}

} // namespace am
