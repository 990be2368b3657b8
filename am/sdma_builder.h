// Encodes SDMA 6.0 / 7.0 packets (layouts in hw/sdma_v6.h; SDMA 7 differs in the sub-window
// pitch field).
#pragma once
#include "hw/sdma_v6.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace am {

// A box of elements in a linear 3-D surface: where it starts, and the surface's row and slice
// pitches in elements.
struct SdmaSurface {
  uint64_t va = 0;
  uint32_t x = 0, y = 0, z = 0;
  uint32_t pitch = 1, slice_pitch = 1;
};

class SdmaBuilder {
public:
  explicit SdmaBuilder(unsigned sdma_major = 6) : sdma_major_(sdma_major) {}
  std::vector<uint32_t>& words() { return words_; }
  const std::vector<uint32_t>& words() const { return words_; }
  void clear() { words_.clear(), starts_.clear(); }
  // Where each packet begins in words(): a stream longer than a ring is submitted in pieces
  // that end between packets.
  const std::vector<std::size_t>& packet_starts() const { return starts_; }

  // Linear copy of any size: split into packets of at most 1 GiB (the COUNT field's limit).
  void copy_linear(uint64_t dst, uint64_t src, uint64_t bytes);
  // Fill dword-aligned memory with a 32-bit pattern.
  void const_fill(uint64_t dst, uint32_t pattern, uint64_t bytes);
  void fence(uint64_t address, uint32_t value);
  // FENCE with the header's MTYPE (hw::sdma::MTYPE_UC for a signal the host or another engine
  // polls: the write goes past the caches).
  void fence(uint64_t address, uint32_t value, uint32_t mtype);
  void trap(uint32_t context = 0);
  void timestamp(uint64_t address);
  void nop(uint32_t payload_dwords = 0);
  // WRITE (linear): `values` to consecutive dwords at `dst`.
  void write_linear(uint64_t dst, const std::vector<uint32_t>& values);
  // POLL_REGMEM on a dword in memory: the engine waits until (*address & mask) <func> reference.
  // `func` numbers as WAIT_REG_MEM's (hw::pm4::WaitFunction).
  void poll_mem(uint64_t address, uint32_t func, uint32_t reference, uint32_t mask);
  // COPY_LINEAR_SUB_WINDOW: a width x height x depth box of elements of 1 << log2_bytes bytes.
  void copy_sub_window(const SdmaSurface& dst, const SdmaSurface& src, uint32_t log2_bytes,
                       uint32_t width, uint32_t height, uint32_t depth);

private:
  void emit(uint32_t w) { words_.push_back(w); }
  void emit_header(uint32_t w) { starts_.push_back(words_.size()), emit(w); }
  unsigned sdma_major_;
  std::vector<uint32_t> words_;
  std::vector<std::size_t> starts_;
};

} // namespace am
