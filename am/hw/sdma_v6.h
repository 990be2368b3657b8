// SDMA 6.0 packet facts (gfx11's system DMA engine).
// Source: Linux drivers/gpu/drm/amd/amdgpu/sdma_v6_0_0_pkt_open.h (SDMA_OP_*, SDMA_SUBOP_*,
// per-packet dword layouts). Pinned by tests/am/sdma_builder_test.cpp.
#pragma once
#include <cstdint>

namespace am::hw::sdma {

// Header: OP[7:0] SUB_OP[15:8], packet-specific bits above.
inline constexpr uint32_t header(uint32_t op, uint32_t sub_op = 0) {
  return (op & 0xff) | ((sub_op & 0xff) << 8);
}
inline constexpr uint32_t header_op(uint32_t h) { return h & 0xff; }
inline constexpr uint32_t header_sub_op(uint32_t h) { return (h >> 8) & 0xff; }

enum Op : uint32_t {
  OP_NOP = 0,
  OP_COPY = 1,
  OP_WRITE = 2,
  OP_INDIRECT = 4,
  OP_FENCE = 5,
  OP_TRAP = 6,
  OP_POLL_REGMEM = 8,
  OP_CONST_FILL = 11,
  OP_TIMESTAMP = 13,
};
enum SubOp : uint32_t {
  SUBOP_COPY_LINEAR = 0,
  SUBOP_COPY_LINEAR_SUB_WIND = 4,
  SUBOP_WRITE_LINEAR = 0,
  SUBOP_TIMESTAMP_GET_GLOBAL = 2,
};

// NOP: COUNT[29:16] = dwords of payload that follow the header.
inline constexpr uint32_t nop_count(uint32_t h) { return (h >> 16) & 0x3fff; }

// COPY_LINEAR: 7 dwords. dw1 COUNT[29:0] = bytes - 1; dw2 parameters; dw3/4 src; dw5/6 dst.
inline constexpr uint32_t kCopyLinearDwords = 7;
inline constexpr uint32_t kCopyLinearMaxBytes = 1u << 30; // COUNT is 30 bits of (bytes - 1)
// FENCE: 4 dwords: header, addr lo, addr hi, data (32 bit).
inline constexpr uint32_t kFenceDwords = 4;
// TRAP: 2 dwords: header, INT_CONTEXT[27:0].
inline constexpr uint32_t kTrapDwords = 2;
// CONST_FILL: 5 dwords: header (FILLSIZE[31:30], 2 = dword), dst lo, dst hi, data, COUNT[29:0]
// = bytes - 1.
inline constexpr uint32_t kConstFillDwords = 5;
inline constexpr uint32_t const_fill_size(uint32_t x) { return (x & 3) << 30; }
// TIMESTAMP (GET_GLOBAL): 3 dwords: header, addr lo, addr hi (64-bit GPU timestamp written).
inline constexpr uint32_t kTimestampDwords = 3;

} // namespace am::hw::sdma
