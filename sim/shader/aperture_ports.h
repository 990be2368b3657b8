// Memory a wave reaches without a virtual address: its work-group's LDS and a lane's private
// memory, as flat instructions see them through the shared and private apertures (and, for
// private memory, as the scratch instructions see it). Offsets are the aperture-relative low
// 32 bits of the address. Going outside the allocation is a memory violation, not a VM fault.
#pragma once
#include "memory_port.h"
#include "wave.h"

#include <stdexcept>
#include <string>
#include <vector>

namespace sim::shader {

struct ApertureFault : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class LdsPort final : public MemoryPort {
public:
  explicit LdsPort(std::vector<uint8_t>& lds) : lds_(lds) {}
  uint8_t* translate(uint64_t off, size_t len, bool, bool) override {
    if (off > lds_.size() || len > lds_.size() - off)
      throw ApertureFault("LDS access at offset " + std::to_string(off) +
                          " beyond the work-group's " + std::to_string(lds_.size()) + " bytes");
    return lds_.data() + off;
  }
  size_t contiguous(uint64_t off) const override {
    return off < lds_.size() ? lds_.size() - off : 1;
  }

private:
  std::vector<uint8_t>& lds_;
};

// A lane's private segment inside its wave's scratch slot, swizzled by dword: dword k of lane
// l lives at slot + (k * N + l) * 4 for a wave of N lanes, so the lanes' same dword is
// contiguous (LLVM AMDGPUUsage, "Private Segment": index stride = wavefront size).
class PrivatePort final : public MemoryPort {
public:
  PrivatePort(MemoryPort& memory, const Wave& wave) : memory_(memory), wave_(wave) {}
  unsigned lane = 0; // the lane's number in the whole wave
  uint8_t* translate(uint64_t off, size_t len, bool write, bool) override {
    const uint32_t lane_bytes = wave_.scratch_bytes / wave_.lanes();
    if (!wave_.scratch_bytes)
      throw ApertureFault("private access in a dispatch without private memory");
    if (off > lane_bytes || len > lane_bytes - off)
      throw ApertureFault("private access at offset " + std::to_string(off) + " beyond the " +
                          std::to_string(lane_bytes) + "-byte private segment");
    if ((off & 3) + len > 4) throw ApertureFault("private access across a swizzled dword");
    return memory_.translate(
        wave_.scratch_base + ((off / 4) * wave_.lanes() + lane) * 4 + (off & 3), len, write);
  }
  size_t contiguous(uint64_t off) const override { return 4 - (off & 3); }

private:
  MemoryPort& memory_;
  const Wave& wave_;
};

} // namespace sim::shader
