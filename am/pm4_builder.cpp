#include "pm4_builder.h"

#include <algorithm>
#include <cassert>
#include <stdexcept>

namespace am {

using namespace hw;

namespace {

// Stores a packet's dwords, in order, into the room extend() took for all of them; the count
// given to extend() and the dwords written must agree (checked in debug builds).
class Words {
public:
  Words(uint32_t* at, size_t n) : p_(at), end_(at + n) {}
  Words(const Words&) = delete;
  ~Words() { assert(p_ == end_); }
  void operator()(uint32_t w) {
    assert(p_ < end_);
    *p_++ = w;
  }

private:
  uint32_t* p_;
  uint32_t* const end_;
};

} // namespace

void Pm4Builder::grow(size_t n) {
  const size_t cap = std::max({cap_ * 2, size_ + n, kInlineDwords});
  auto bigger = std::make_unique<uint32_t[]>(cap);
  std::copy_n(data_, size_, bigger.get());
  heap_ = std::move(bigger);
  data_ = heap_.get();
  cap_ = cap;
}

void Pm4Builder::append(std::span<const uint32_t> words) {
  std::copy(words.begin(), words.end(), extend(words.size()));
  writes_any_sh_register();
}

void Pm4Builder::nop(uint32_t body_dwords) {
  if (body_dwords == 0) {
    raw(pm4::kType2Nop);
    return;
  }
  Words emit(extend(body_dwords + 1), body_dwords + 1);
  emit(pm4::packet3_compute(pm4::NOP, body_dwords));
  for (uint32_t i = 0; i < body_dwords; ++i) emit(0);
}

void Pm4Builder::outside_sh_window() {
  throw std::invalid_argument("SET_SH_REG outside the SH register window");
}

void Pm4Builder::dispatch_direct(uint32_t x, uint32_t y, uint32_t z, uint32_t initiator) {
  Words emit(extend(5), 5);
  emit(pm4::packet3_compute(pm4::DISPATCH_DIRECT, 4));
  emit(x);
  emit(y);
  emit(z);
  emit(initiator);
}

void Pm4Builder::acquire_mem(uint32_t gcr_cntl) {
  // COHER_CNTL 0 (gfx10+ take the caches from GCR_CNTL), the whole address range, amdgpu's and
  // Mesa's poll interval.
  Words emit(extend(1 + pm4::kAcquireMemBodyDwords), 1 + pm4::kAcquireMemBodyDwords);
  emit(pm4::packet3_compute(pm4::ACQUIRE_MEM, pm4::kAcquireMemBodyDwords));
  emit(0);
  emit(0xffffffff);
  emit(0x00ffffff);
  emit(0);
  emit(0);
  emit(pm4::kAcquireMemPollInterval);
  emit(gcr_cntl);
}

void Pm4Builder::cs_partial_flush() {
  Words emit(extend(2), 2);
  emit(pm4::packet3_compute(pm4::EVENT_WRITE, 1));
  emit(pm4::release_mem_event_type(pm4::CS_PARTIAL_FLUSH) |
       pm4::release_mem_event_index(pm4::kEventIndexCsPartialFlush));
}

void Pm4Builder::release_mem_signal(uint64_t address, uint64_t value, bool interrupt) {
  Words emit(extend(8), 8);
  emit(pm4::packet3_compute(pm4::RELEASE_MEM, 7));
  // gfx_v11_0_ring_emit_fence: GL2 written back in sequence, GLM_INV beside GLM_WB (the
  // packet requires both), the signal itself written past the caches (CACHE_POLICY bypass).
  emit(pm4::release_mem_event_type(pm4::CACHE_FLUSH_AND_INV_TS_EVENT) |
       pm4::release_mem_event_index(pm4::kEventIndexEndOfPipe) | pm4::RELEASE_MEM_GCR_SEQ |
       pm4::RELEASE_MEM_GCR_GL2_WB | pm4::RELEASE_MEM_GCR_GLM_INV | pm4::RELEASE_MEM_GCR_GLM_WB |
       pm4::release_mem_cache_policy(pm4::CACHE_POLICY_BYPASS));
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
  Words emit(extend(8), 8);
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
  Words emit(extend(values.size() + 4), values.size() + 4);
  emit(pm4::packet3_compute(pm4::WRITE_DATA, uint32_t(values.size()) + 3));
  emit(pm4::write_data_dst_sel(pm4::WRITE_DATA_DST_MEM) | pm4::WRITE_DATA_WR_CONFIRM);
  emit(uint32_t(address));
  emit(uint32_t(address >> 32));
  for (uint32_t v : values) emit(v);
}

void Pm4Builder::dispatch_indirect(uint64_t address, uint32_t initiator) {
  Words emit(extend(4), 4);
  emit(pm4::packet3_compute(pm4::DISPATCH_INDIRECT, 3));
  emit(uint32_t(address));
  emit(uint32_t(address >> 32));
  emit(initiator);
}

void Pm4Builder::indirect_buffer(uint64_t address, uint32_t dwords) {
  if ((address & 3) || dwords == 0 || dwords > 0xfffff)
    throw std::invalid_argument("INDIRECT_BUFFER needs a dword-aligned address and 1..0xfffff dwords");
  Words emit(extend(4), 4);
  writes_any_sh_register(); // its packets are not this builder's to see
  emit(pm4::packet3_compute(pm4::INDIRECT_BUFFER, 3));
  emit(uint32_t(address) & ~3u);
  emit(uint32_t(address >> 32) & 0xffff);
  emit(pm4::INDIRECT_BUFFER_VALID | pm4::indirect_buffer_size(dwords)); // VMID 0
}

void Pm4Builder::wait_mem(uint64_t address, pm4::WaitFunction func, uint32_t reference, uint32_t mask) {
  Words emit(extend(7), 7);
  emit(pm4::packet3_compute(pm4::WAIT_REG_MEM, 6));
  emit(uint32_t(func) | pm4::WAIT_REG_MEM_MEM_SPACE);
  emit(uint32_t(address));
  emit(uint32_t(address >> 32));
  emit(reference);
  emit(mask);
  emit(4); // poll interval
}

void Pm4Builder::wait_reg(uint32_t reg, pm4::WaitFunction func, uint32_t reference, uint32_t mask) {
  Words emit(extend(7), 7);
  emit(pm4::packet3_compute(pm4::WAIT_REG_MEM, 6));
  emit(uint32_t(func));
  emit(reg);
  emit(0);
  emit(reference);
  emit(mask);
  emit(4);
}

void Pm4Builder::copy_data_to_mem(pm4::CopyDataSel src_sel, uint64_t src, uint64_t dst, bool bits64) {
  Words emit(extend(6), 6);
  emit(pm4::packet3_compute(pm4::COPY_DATA, 5));
  emit(pm4::copy_data_src_sel(src_sel) | pm4::copy_data_dst_sel(pm4::COPY_DATA_DST_MEM) |
       (bits64 ? pm4::COPY_DATA_COUNT_SEL : 0u) | pm4::COPY_DATA_WR_CONFIRM);
  emit(uint32_t(src));
  emit(uint32_t(src >> 32));
  emit(uint32_t(dst));
  emit(uint32_t(dst >> 32));
}

void Pm4Builder::set_uconfig_regs(uint32_t reg, std::initializer_list<uint32_t> values) {
  if (reg < pm4::kUconfigRegStart || reg + values.size() > pm4::kUconfigRegEnd)
    throw std::invalid_argument("SET_UCONFIG_REG outside the UCONFIG register window");
  Words emit(extend(values.size() + 2), values.size() + 2);
  emit(pm4::packet3_compute(pm4::SET_UCONFIG_REG, uint32_t(values.size()) + 1));
  emit(reg - pm4::kUconfigRegStart);
  for (uint32_t v : values) emit(v);
}

} // namespace am
