#include "sdma_engine.h"

#include "am/hw/sdma_v6.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iterator>
#include <stdexcept>
#include <thread>
#include <vector>

namespace sim {
namespace {

using namespace am::hw;

struct PacketError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A linear copy of at least this many bytes is shared between host threads, one per core up to
// four: a 64 MiB copy on one thread ran at 0.8 x the host's memcpy on a quiet 2-core machine.
constexpr uint64_t kParallelCopyMin = 2 << 20;

unsigned copy_threads() {
  static const unsigned n = std::clamp(std::thread::hardware_concurrency(), 1u, 4u);
  return n;
}

} // namespace

void SdmaEngine::disable() {
  abort_ = true; // ends a POLL_REGMEM wait, which holds the ring
  std::lock_guard lock(ring_mutex_);
  enabled_ = false;
}

void SdmaEngine::enable(uint64_t ring_va, uint32_t ring_bytes, uint64_t rptr_writeback_va) {
  forget_doorbell(); // before the ring is live again
  std::lock_guard lock(ring_mutex_);
  clear_halt();
  ring_va_ = ring_va;
  ring_bytes_ = ring_bytes;
  rptr_wb_va_ = rptr_writeback_va;
  rptr_ = 0;
  abort_ = false;
  enabled_ = true;
}

uint32_t SdmaEngine::ring_dword(uint64_t byte_index) {
  uint32_t v;
  dev_.gmc().read(ring_va_ + (byte_index % ring_bytes_), &v, 4);
  return v;
}

void SdmaEngine::ring_read(uint64_t byte_index, uint32_t* out, uint32_t dwords) {
  while (dwords) { // to the ring's end, then from its beginning
    const uint64_t at = byte_index % ring_bytes_;
    const uint32_t here = uint32_t(std::min<uint64_t>(dwords, (ring_bytes_ - at) / 4));
    dev_.gmc().read(ring_va_ + at, out, 4ull * here);
    out += here, dwords -= here, byte_index += 4ull * here;
  }
}

uint32_t SdmaEngine::fixed_dwords(uint32_t header) {
  switch (sdma::header_op(header)) {
  case sdma::OP_COPY:
    return sdma::header_sub_op(header) == sdma::SUBOP_COPY_LINEAR_SUB_WIND
               ? sdma::kCopySubWindowDwords
               : sdma::kCopyLinearDwords;
  case sdma::OP_WRITE:
    return sdma::kWriteHeaderDwords; // its data follow
  case sdma::OP_POLL_REGMEM:
    return sdma::kPollRegmemDwords;
  case sdma::OP_CONST_FILL:
    return sdma::kConstFillDwords;
  case sdma::OP_FENCE:
    return sdma::kFenceDwords;
  case sdma::OP_TRAP:
    return sdma::kTrapDwords;
  case sdma::OP_TIMESTAMP:
    return sdma::kTimestampDwords;
  case sdma::OP_NOP:
    return 1; // its padding follows
  default:
    return 0;
  }
}

void SdmaEngine::process(uint64_t wptr) {
  std::lock_guard lock(ring_mutex_);
  if (!enabled_ || stale_doorbell()) return;
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
  const uint32_t fixed = fixed_dwords(header);
  if (fixed == 0) throw PacketError("unknown SDMA opcode");
  switch (sdma::header_op(header)) {
  case sdma::OP_NOP:
    return fixed + sdma::nop_count(header);
  case sdma::OP_WRITE:
    return fixed + sdma::write_count(ring_dword(at + 12));
  default:
    return fixed;
  }
}

uint32_t SdmaEngine::execute(uint64_t at) {
  // The header, then the rest of the packet's fixed part in one read (two across the ring's
  // end): a translated read per dword was a tenth of cl_copy_images' process time.
  uint32_t packet[sdma::kCopySubWindowDwords];
  packet[0] = ring_dword(at);
  const uint32_t fixed = std::clamp<uint32_t>(fixed_dwords(packet[0]), 1, std::size(packet));
  ring_read(at + 4, packet + 1, fixed - 1);
  auto dw = [&](unsigned i) { return i < fixed ? packet[i] : ring_dword(at + 4ull * i); };
  auto addr = [&](unsigned lo) { return uint64_t(dw(lo)) | (uint64_t(dw(lo + 1)) << 32); };
  Gmc& gmc = dev_.gmc();
  const uint32_t header = dw(0);
  switch (sdma::header_op(header)) {
  case sdma::OP_NOP:
    return 1 + sdma::nop_count(header);
  case sdma::OP_COPY: {
    if (sdma::header_sub_op(header) == sdma::SUBOP_COPY_LINEAR_SUB_WIND) {
      copy_sub_window(packet);
      return sdma::kCopySubWindowDwords;
    }
    if (sdma::header_sub_op(header) != sdma::SUBOP_COPY_LINEAR)
      throw PacketError("COPY sub-op " + std::to_string(sdma::header_sub_op(header)) +
                        " not modelled");
    uint64_t bytes = uint64_t(dw(1) & 0x3fffffff) + 1;
    // Translated a run of pages at a time (Gmc::translate_run).
    if (bytes >= kParallelCopyMin)
      gmc.copy_parallel(addr(5), addr(3), bytes, copiers_, copy_threads());
    else
      gmc.copy(addr(5), addr(3), bytes);
    return sdma::kCopyLinearDwords;
  }
  case sdma::OP_CONST_FILL: {
    uint64_t dst = addr(1);
    uint32_t data = dw(3);
    uint64_t bytes = uint64_t(dw(4) & 0x3fffffff) + 1;
    if ((dst & 3) || (bytes & 3)) throw PacketError("CONST_FILL must be dword aligned");
    gmc.fill32(dst, data, bytes); // a run of pages at a time, as the copies
    return sdma::kConstFillDwords;
  }
  case sdma::OP_WRITE: {
    if (sdma::header_sub_op(header) != sdma::SUBOP_WRITE_LINEAR)
      throw PacketError("WRITE sub-op not modelled");
    const uint64_t dst = addr(1);
    const uint32_t n = sdma::write_count(dw(3));
    if (dst & 3) throw PacketError("WRITE address must be dword aligned");
    for (uint32_t i = 0; i < n; ++i) {
      const uint32_t v = dw(4 + i);
      gmc.write(dst + 4ull * i, &v, 4);
    }
    return sdma::kWriteHeaderDwords + n;
  }
  case sdma::OP_POLL_REGMEM: {
    poll_regmem(at, header);
    return sdma::kPollRegmemDwords;
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

// POLL_REGMEM: the engine waits, re-reading every few microseconds, until the masked value
// compares true with the reference. Disabling the queue (a reset) ends the wait.
void SdmaEngine::poll_regmem(uint64_t at, uint32_t header) {
  auto dw = [&](unsigned i) { return ring_dword(at + 4ull * i); };
  const uint32_t func = (header >> 28) & 7;
  const bool memory = header & sdma::POLL_REGMEM_MEM_POLL;
  const uint64_t va = uint64_t(dw(1)) | (uint64_t(dw(2)) << 32);
  const uint32_t reference = dw(3), mask = dw(4);
  if (func == 7) throw PacketError("POLL_REGMEM compare function 7");
  if (va & 3) throw PacketError("POLL_REGMEM address must be dword aligned");
  for (;;) {
    uint32_t v;
    if (memory)
      dev_.gmc().read(va, &v, 4);
    else
      v = dev_.reg_read(uint32_t(va >> 2));
    v &= mask;
    const bool ok = func == 0 || (func == 1 && v < reference) || (func == 2 && v <= reference) ||
                    (func == 3 && v == reference) || (func == 4 && v != reference) ||
                    (func == 5 && v >= reference) || (func == 6 && v > reference);
    if (ok || abort_) return;
    std::this_thread::sleep_for(std::chrono::microseconds(20));
  }
}

// COPY_LINEAR_SUB_WINDOW: a box of elements between two linear surfaces, row by row.
void SdmaEngine::copy_sub_window(const uint32_t* packet) {
  auto dw = [&](unsigned i) { return packet[i]; };
  const uint32_t header = packet[0];
  const uint32_t log2_bytes = header >> 29;
  if (log2_bytes > 4) throw PacketError("sub-window ELEMENTSIZE beyond 16 bytes");
  const uint64_t bpp = 1ull << log2_bytes;
  const uint32_t shift = sdma::sub_window_pitch_shift(dev_.sdma_major());
  struct Side {
    uint64_t va;
    uint32_t x, y, z;
    uint64_t pitch, slice;
  };
  auto side = [&](unsigned first) {
    return Side{uint64_t(dw(first)) | (uint64_t(dw(first + 1)) << 32),
                dw(first + 2) & 0x3fff,
                (dw(first + 2) >> 16) & 0x3fff,
                dw(first + 3) & 0x1fff,
                uint64_t(dw(first + 3) >> shift) + 1,
                uint64_t(dw(first + 4) & 0x0fffffff) + 1};
  };
  const Side src = side(1), dst = side(6);
  const uint32_t width = (dw(11) & 0x3fff) + 1, height = ((dw(11) >> 16) & 0x3fff) + 1,
                 depth = (dw(12) & 0x1fff) + 1;
  if (src.x + width > src.pitch || dst.x + width > dst.pitch)
    throw PacketError("sub-window rows run past the pitch");
  auto offset = [&](const Side& s, uint32_t y, uint32_t z) {
    return (uint64_t(s.z + z) * s.slice + uint64_t(s.y + y) * s.pitch + s.x) *
           bpp; // pitches in elements
  };
  for (uint32_t z = 0; z < depth; ++z)
    for (uint32_t y = 0; y < height; ++y)
      dev_.gmc().copy(dst.va + offset(dst, y, z), src.va + offset(src, y, z), width * bpp);
}

} // namespace sim
