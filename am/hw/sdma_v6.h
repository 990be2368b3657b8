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

// The name of a packet by its header's op and sub-op, for AM_DEBUG's packet lines.
inline constexpr const char* packet_name(uint32_t op, uint32_t sub_op) {
  switch (op) {
  case OP_NOP: return "NOP";
  case OP_COPY:
    return sub_op == SUBOP_COPY_LINEAR_SUB_WIND ? "COPY_LINEAR_SUB_WINDOW" : "COPY_LINEAR";
  case OP_WRITE: return "WRITE_LINEAR";
  case OP_INDIRECT: return "INDIRECT";
  case OP_FENCE: return "FENCE";
  case OP_TRAP: return "TRAP";
  case OP_POLL_REGMEM: return "POLL_REGMEM";
  case OP_CONST_FILL: return "CONST_FILL";
  case OP_TIMESTAMP: return "TIMESTAMP";
  default: return "?";
  }
}

// NOP: COUNT[29:16] = dwords of payload that follow the header.
inline constexpr uint32_t nop_count(uint32_t h) { return (h >> 16) & 0x3fff; }

// COPY_LINEAR: 7 dwords. dw1 COUNT[29:0] = bytes - 1; dw2 parameters; dw3/4 src; dw5/6 dst.
inline constexpr uint32_t kCopyLinearDwords = 7;
inline constexpr uint32_t kCopyLinearMaxBytes = 1u << 30; // COUNT is 30 bits of (bytes - 1)
// FENCE: 4 dwords: header, addr lo, addr hi, data (32 bit). Header MTYPE[18:16]: the memory
// type of the write; amdgpu's sdma_v6_0/v7_0_ring_emit_fence and tinygrad's ops_amd.py give
// their signal fences 3, uncached (SDMA_PKT_FENCE_HEADER_mtype in sdma_v6_0_0_pkt_open.h).
inline constexpr uint32_t kFenceDwords = 4;
inline constexpr uint32_t fence_mtype(uint32_t x) { return (x & 7) << 16; }
inline constexpr uint32_t fence_header_mtype(uint32_t h) { return (h >> 16) & 7; }
inline constexpr uint32_t MTYPE_UC = 3;
// TRAP: 2 dwords: header, INT_CONTEXT[27:0].
inline constexpr uint32_t kTrapDwords = 2;
// CONST_FILL: 5 dwords: header (FILLSIZE[31:30], 2 = dword), dst lo, dst hi, data, COUNT[29:0]
// = bytes - 1.
inline constexpr uint32_t kConstFillDwords = 5;
inline constexpr uint32_t const_fill_size(uint32_t x) { return (x & 3) << 30; }
// TIMESTAMP (GET_GLOBAL): 3 dwords: header, addr lo, addr hi (64-bit GPU timestamp written).
inline constexpr uint32_t kTimestampDwords = 3;

// WRITE (linear): header, dst lo, dst hi, COUNT[19:0] = dwords - 1, then the data
// (sdma_v6_0.c vm_write_pte).
inline constexpr uint32_t kWriteHeaderDwords = 4;
inline constexpr uint32_t write_count(uint32_t dw3) { return (dw3 & 0xfffff) + 1; }

// POLL_REGMEM: 6 dwords. Header FUNC[30:28] (0 always, < <= == != >= >), MEM_POLL[31] (1 =
// memory, else dw1 is a register's byte address); addr lo/hi, reference, mask, dw5
// INTERVAL[15:0] RETRY_COUNT[27:16] (sdma_v6_0.c ring_emit_pipeline_sync / emit_reg_wait).
inline constexpr uint32_t kPollRegmemDwords = 6;
inline constexpr uint32_t poll_regmem_func(uint32_t x) { return (x & 7) << 28; }
inline constexpr uint32_t POLL_REGMEM_MEM_POLL = 1u << 31;

// COPY_LINEAR_SUB_WINDOW: 13 dwords (Mesa ac_sdma / sdma_v6_0_0_pkt_open.h). Header
// ELEMENTSIZE[31:29] = log2(bytes per element); dw1/2 src; dw3 x[13:0] y[29:16]; dw4 z[12:0] and
// pitch - 1 (elements) from bit 13 on SDMA 4-6, from bit 16 on SDMA 7; dw5 slice pitch - 1
// [27:0]; dw6..10 the same for dst; dw11 width - 1 [13:0] height - 1 [29:16]; dw12 depth - 1
// [12:0].
inline constexpr uint32_t kCopySubWindowDwords = 13;
inline constexpr uint32_t sub_window_pitch_shift(unsigned sdma_major) { return sdma_major >= 7 ? 16 : 13; }

} // namespace am::hw::sdma
