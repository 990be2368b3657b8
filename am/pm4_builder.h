// Encodes PM4 type-3 packets for the compute queue (layouts in hw/pm4.h).
#pragma once
#include "hw/pm4.h"
#include "hw/pm4_gcr.h"
#include "hw/sh_regs.h"

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <span>

namespace am {

class Pm4Builder {
public:
  Pm4Builder() = default;
  Pm4Builder(const Pm4Builder&) = delete; // data_ may point into the builder itself
  Pm4Builder& operator=(const Pm4Builder&) = delete;
  std::span<const uint32_t> words() const { return {data_, size_}; }
  void clear() {
    size_ = 0;
    sh_first_ = kNoShRegisters, sh_end_ = 0;
  }
  // Another builder's packets (or any dwords) after these.
  void append(std::span<const uint32_t> words);
  // One dword as it is: for streams that must be malformed (tests, the fuzzer).
  void raw(uint32_t w) {
    *extend(1) = w;
    writes_any_sh_register();
  }
  // The SH registers the stream may write, as offsets [first, end) in the SH window (empty
  // when first >= end): what set_sh_regs wrote, and the whole window once raw dwords, appended
  // streams or an indirect buffer may write any (am::Device keeps the ring's state by them).
  uint32_t sh_first() const { return sh_first_; }
  uint32_t sh_end() const { return sh_end_; }

  void nop(uint32_t body_dwords);
  // SET_SH_REG: consecutive registers starting at `reg` (a dword index in the SH window).
  // Inline: a dispatch sets six runs of registers, and out of line the calls, the copy's
  // memmove and the checks were 7 % of the enqueueing thread's work.
  void set_sh_regs(uint32_t reg, std::initializer_list<uint32_t> values) {
    set_sh_regs(reg, values.begin(), uint32_t(values.size()));
  }
  void set_sh_regs(uint32_t reg, const uint32_t* values, uint32_t count) {
    if (reg < hw::sh::kShRegStart || reg + count > hw::sh::kShRegEnd) [[unlikely]]
      outside_sh_window();
    uint32_t* p = extend(count + 2);
    p[0] = hw::pm4::packet3_compute(hw::pm4::SET_SH_REG, count + 1);
    const uint32_t first = reg - hw::sh::kShRegStart;
    p[1] = first;
    for (uint32_t i = 0; i < count; ++i) p[2 + i] = values[i];
    if (first < sh_first_) sh_first_ = first;
    if (first + count > sh_end_) sh_end_ = first + count;
  }
  void dispatch_direct(uint32_t x, uint32_t y, uint32_t z, uint32_t initiator);
  // ACQUIRE_MEM over all of memory with the cache controls `gcr_cntl` (hw/pm4_gcr.h).
  void acquire_mem(uint32_t gcr_cntl);
  // Every cache level, the instruction cache included, as amdgpu's emit_mem_sync: after code
  // memory was (re)written.
  void acquire_mem_all() { acquire_mem(hw::pm4::kGcrMemSync); }
  // The data caches, before a dispatch reads what earlier work or the host wrote.
  void acquire_mem_data() { acquire_mem(hw::pm4::kGcrDataAcquire); }
  // EVENT_WRITE CS_PARTIAL_FLUSH: the CP waits until earlier dispatches have finished before it
  // starts the next one, which keeps dispatches queued back to back in order.
  void cs_partial_flush();
  // RELEASE_MEM at end of pipe: flush caches, then write `value` (64-bit) to `address` and
  // raise an interrupt once the write is confirmed.
  void release_mem_signal(uint64_t address, uint64_t value, bool interrupt);
  // RELEASE_MEM writing the 64-bit GPU clock to `address` at end of pipe.
  void release_mem_timestamp(uint64_t address);
  void write_data_mem(uint64_t address, std::initializer_list<uint32_t> values);
  // DISPATCH_INDIRECT on a compute queue: the work-group counts x, y, z are three dwords at
  // `address`.
  void dispatch_indirect(uint64_t address, uint32_t initiator);
  // INDIRECT_BUFFER: run `dwords` dwords of packets at `address`, then continue here.
  void indirect_buffer(uint64_t address, uint32_t dwords);
  // WAIT_REG_MEM on a dword in memory: stall until (*address & mask) <func> reference.
  void wait_mem(uint64_t address, hw::pm4::WaitFunction func, uint32_t reference, uint32_t mask);
  // WAIT_REG_MEM on a register (BAR5 dword index).
  void wait_reg(uint32_t reg, hw::pm4::WaitFunction func, uint32_t reference, uint32_t mask);
  // COPY_DATA from a source selector to memory (32 or 64 bits): `src` is an address, a
  // register index or an immediate, per `src_sel`.
  void copy_data_to_mem(hw::pm4::CopyDataSel src_sel, uint64_t src, uint64_t dst, bool bits64);
  // SET_UCONFIG_REG: consecutive registers from `reg` (an absolute index in 0xC000..0xFFFF).
  void set_uconfig_regs(uint32_t reg, std::initializer_list<uint32_t> values);

private:
  // Room for `n` more dwords, written through the pointer: one check per packet. A dispatch's
  // packets, pushed back dword by dword into a vector that a malloc gave each builder, were 12 %
  // of the application thread's instructions enqueueing empty kernels.
  uint32_t* extend(size_t n) {
    if (cap_ - size_ < n) [[unlikely]]
      grow(n);
    uint32_t* p = data_ + size_;
    size_ += n;
    return p;
  }
  void grow(size_t n);
  [[noreturn]] static void outside_sh_window();
  void writes_any_sh_register() {
    sh_first_ = 0;
    sh_end_ = hw::sh::kShRegEnd - hw::sh::kShRegStart;
  }
  static constexpr uint32_t kNoShRegisters = ~0u;
  // A dispatch takes about 60 dwords; longer streams move to the heap.
  static constexpr size_t kInlineDwords = 128;
  uint32_t inline_[kInlineDwords];
  std::unique_ptr<uint32_t[]> heap_;
  uint32_t* data_ = inline_;
  size_t size_ = 0, cap_ = kInlineDwords;
  uint32_t sh_first_ = kNoShRegisters, sh_end_ = 0;
};

} // namespace am
