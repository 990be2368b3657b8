#include "sdma_engine.h"

#include "am/hw/sdma_v6.h"

#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <vector>

namespace sim {
namespace {

using namespace am::hw;

struct PacketError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

} // namespace

void SdmaEngine::disable() {
  std::lock_guard lock(ring_mutex_);
  enabled_ = false;
}

void SdmaEngine::enable(uint64_t ring_va, uint32_t ring_bytes, uint64_t rptr_writeback_va) {
  std::lock_guard lock(ring_mutex_);
  clear_halt();
  ring_va_ = ring_va;
  ring_bytes_ = ring_bytes;
  rptr_wb_va_ = rptr_writeback_va;
  rptr_ = 0;
  enabled_ = true;
}

uint32_t SdmaEngine::ring_dword(uint64_t byte_index) {
  uint32_t v;
  dev_.gmc().read(ring_va_ + (byte_index % ring_bytes_), &v, 4);
  return v;
}

void SdmaEngine::process(uint64_t wptr) {
  std::lock_guard lock(ring_mutex_);
  if (!enabled_) return;
  try {
    while (rptr_ < wptr && !halted()) {
      uint32_t dwords;
      try {
        dwords = execute(rptr_);
      } catch (const shader::MemoryFault& e) {
        // The copy's own access faulted: report it, drop the packet, go on with the ring.
        dev_.report_vm_fault(e.address, e.write, std::string("SDMA: ") + e.what());
        dwords = packet_dwords(rptr_);
      }
      rptr_ += 4ull * dwords;
      if (rptr_ > wptr) throw PacketError("packet runs past the write pointer");
      if (rptr_wb_va_) dev_.gmc().store64(rptr_wb_va_, rptr_);
    }
  } catch (const PacketError& e) {
    // A packet the engine cannot execute stops the queue. Hardware reports a stuck queue with
    // SDMA_QUEUE_HANG ("queue hang or command timeout") once its watchdog expires; the model
    // knows at once that the queue cannot progress, so it raises the interrupt immediately.
    am::hw::ih::IvEntry iv;
    iv.client_id = am::hw::ih::CLIENTID_GFX;
    iv.source_id = am::hw::ih::SRCID_SDMA_QUEUE_HANG;
    iv.timestamp = dev_.gpu_clock();
    dev_.post_interrupt(iv);
    halt(std::string(e.what()) + " at ring byte " + std::to_string(rptr_));
  } catch (const shader::MemoryFault& e) {
    halt(e.what()); // the ring itself is unreachable
  }
}

uint32_t SdmaEngine::packet_dwords(uint64_t at) {
  const uint32_t header = ring_dword(at);
  switch (sdma::header_op(header)) {
  case sdma::OP_NOP: return 1 + sdma::nop_count(header);
  case sdma::OP_COPY: return sdma::kCopyLinearDwords;
  case sdma::OP_CONST_FILL: return sdma::kConstFillDwords;
  case sdma::OP_FENCE: return sdma::kFenceDwords;
  case sdma::OP_TRAP: return sdma::kTrapDwords;
  case sdma::OP_TIMESTAMP: return sdma::kTimestampDwords;
  default: throw PacketError("unknown SDMA opcode");
  }
}

uint32_t SdmaEngine::execute(uint64_t at) {
  auto dw = [&](unsigned i) { return ring_dword(at + 4ull * i); };
  auto addr = [&](unsigned lo) { return uint64_t(dw(lo)) | (uint64_t(dw(lo + 1)) << 32); };
  Gmc& gmc = dev_.gmc();
  const uint32_t header = dw(0);
  switch (sdma::header_op(header)) {
  case sdma::OP_NOP: return 1 + sdma::nop_count(header);
  case sdma::OP_COPY: {
    if (sdma::header_sub_op(header) != sdma::SUBOP_COPY_LINEAR)
      throw PacketError("COPY sub-op " + std::to_string(sdma::header_sub_op(header)) +
                        " not modelled");
    uint64_t bytes = uint64_t(dw(1) & 0x3fffffff) + 1;
    gmc.copy(addr(5), addr(3), bytes); // each page of both sides translated on its own
    return sdma::kCopyLinearDwords;
  }
  case sdma::OP_CONST_FILL: {
    uint64_t dst = addr(1);
    uint32_t data = dw(3);
    uint64_t bytes = uint64_t(dw(4) & 0x3fffffff) + 1;
    if ((dst & 3) || (bytes & 3)) throw PacketError("CONST_FILL must be dword aligned");
    for (uint64_t off = 0; off < bytes; off += 4) gmc.write(dst + off, &data, 4);
    return sdma::kConstFillDwords;
  }
  case sdma::OP_FENCE: {
    uint64_t dst = addr(1);
    uint32_t data = dw(3);
    if (dst & 3) throw PacketError("FENCE address must be dword aligned");
    gmc.store32(dst, data);
    return sdma::kFenceDwords;
  }
  case sdma::OP_TRAP: {
    am::hw::ih::IvEntry iv;
    iv.client_id = am::hw::ih::CLIENTID_GFX;
    iv.source_id = am::hw::ih::SRCID_SDMA_TRAP;
    iv.timestamp = dev_.gpu_clock();
    iv.src_data[0] = dw(1) & 0x0fffffff;
    dev_.post_interrupt(iv);
    return sdma::kTrapDwords;
  }
  case sdma::OP_TIMESTAMP: {
    if (sdma::header_sub_op(header) != sdma::SUBOP_TIMESTAMP_GET_GLOBAL)
      throw PacketError("TIMESTAMP sub-op not modelled");
    uint64_t dst = addr(1), t = dev_.gpu_clock();
    if (dst & 7) throw PacketError("TIMESTAMP address must be 8-byte aligned");
    gmc.store64(dst, t);
    return sdma::kTimestampDwords;
  }
  default: {
    char buf[96];
    std::snprintf(buf, sizeof buf, "unknown SDMA opcode %u (header 0x%08x)",
                  sdma::header_op(header), header);
    throw PacketError(buf);
  }
  }
}

} // namespace sim
