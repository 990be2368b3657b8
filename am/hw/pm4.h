// PM4 type-3 packet facts for the MEC (compute) on gfx11.
// Source: Linux drivers/gpu/drm/amd/amdgpu/nvd.h and soc15d.h (PACKET3 macro, opcodes,
// RELEASE_MEM/WAIT_REG_MEM/WRITE_DATA fields), Mesa src/amd/common/sid.h (same values).
// Pinned by tests/am/pm4_builder_test.cpp.
#pragma once
#include <cstdint>

namespace am::hw::pm4 {

// Header: TYPE[31:30]=3, COUNT[29:16] = dwords after the header - 1, IT_OPCODE[15:8],
// SHADER_TYPE[1] (1 = compute).
inline constexpr uint32_t packet3(uint32_t opcode, uint32_t body_dwords) {
  return (3u << 30) | (((body_dwords - 1) & 0x3fff) << 16) | ((opcode & 0xff) << 8);
}
inline constexpr uint32_t packet3_compute(uint32_t opcode, uint32_t body_dwords) {
  return packet3(opcode, body_dwords) | (1u << 1);
}
inline constexpr uint32_t header_type(uint32_t h) { return h >> 30; }
inline constexpr uint32_t header_count(uint32_t h) { return ((h >> 16) & 0x3fff) + 1; }
inline constexpr uint32_t header_opcode(uint32_t h) { return (h >> 8) & 0xff; }
// Type-2 packet: a one-dword filler.
inline constexpr uint32_t kType2Nop = 0x80000000u;

enum Opcode : uint32_t {
  NOP = 0x10,
  DISPATCH_DIRECT = 0x15,
  DISPATCH_INDIRECT = 0x16,
  WRITE_DATA = 0x37,
  WAIT_REG_MEM = 0x3C,
  INDIRECT_BUFFER = 0x3F,
  COPY_DATA = 0x40,
  EVENT_WRITE = 0x46,
  RELEASE_MEM = 0x49,
  ACQUIRE_MEM = 0x58,
  SET_SH_REG = 0x76,
  SET_UCONFIG_REG = 0x79,
};

inline constexpr uint32_t kUconfigRegStart = 0xC000; // PACKET3_SET_UCONFIG_REG_START

// The name of an opcode above, for AM_DEBUG's packet lines ("?" for any other).
inline constexpr const char* opcode_name(uint32_t op) {
  switch (op) {
  case NOP: return "NOP";
  case DISPATCH_DIRECT: return "DISPATCH_DIRECT";
  case DISPATCH_INDIRECT: return "DISPATCH_INDIRECT";
  case WRITE_DATA: return "WRITE_DATA";
  case WAIT_REG_MEM: return "WAIT_REG_MEM";
  case INDIRECT_BUFFER: return "INDIRECT_BUFFER";
  case COPY_DATA: return "COPY_DATA";
  case EVENT_WRITE: return "EVENT_WRITE";
  case RELEASE_MEM: return "RELEASE_MEM";
  case ACQUIRE_MEM: return "ACQUIRE_MEM";
  case SET_SH_REG: return "SET_SH_REG";
  case SET_UCONFIG_REG: return "SET_UCONFIG_REG";
  default: return "?";
  }
}

// Event types (VGT_EVENT_TYPE) used with EVENT_WRITE / RELEASE_MEM.
inline constexpr uint32_t CS_PARTIAL_FLUSH = 0x07;
inline constexpr uint32_t CACHE_FLUSH_AND_INV_TS_EVENT = 0x14;
inline constexpr uint32_t BOTTOM_OF_PIPE_TS = 0x28;
// EVENT_WRITE dword 1: EVENT_TYPE [5:0], EVENT_INDEX [11:8]; CS_PARTIAL_FLUSH takes index 4
// (Mesa src/amd/common/sid.h EVENT_TYPE/EVENT_INDEX; radv/radeonsi emit it that way).
inline constexpr uint32_t event_write_type(uint32_t dw1) { return dw1 & 0x3f; }
inline constexpr uint32_t event_write_index(uint32_t dw1) { return (dw1 >> 8) & 0xf; }
inline constexpr uint32_t kEventIndexCsPartialFlush = 4;

// RELEASE_MEM dword 1 (control) and dword 2 (selects).
inline constexpr uint32_t release_mem_event_type(uint32_t x) { return x & 0x3f; }
inline constexpr uint32_t release_mem_event_index(uint32_t x) { return (x & 0xf) << 8; }
inline constexpr uint32_t RELEASE_MEM_GCR_GLM_WB = 1u << 12;
inline constexpr uint32_t RELEASE_MEM_GCR_GLM_INV = 1u << 13;
inline constexpr uint32_t RELEASE_MEM_GCR_GLV_INV = 1u << 14;
inline constexpr uint32_t RELEASE_MEM_GCR_GL1_INV = 1u << 15;
inline constexpr uint32_t RELEASE_MEM_GCR_GL2_INV = 1u << 20;
inline constexpr uint32_t RELEASE_MEM_GCR_GL2_WB = 1u << 21;
inline constexpr uint32_t RELEASE_MEM_GCR_SEQ = 1u << 22;
inline constexpr uint32_t release_mem_dst_sel(uint32_t x) { return (x & 3) << 16; }
inline constexpr uint32_t release_mem_int_sel(uint32_t x) { return (x & 7) << 24; }
inline constexpr uint32_t release_mem_data_sel(uint32_t x) { return (x & 7) << 29; }
enum ReleaseMemDataSel : uint32_t {
  DATA_SEL_NONE = 0,
  DATA_SEL_32 = 1,
  DATA_SEL_64 = 2,
  DATA_SEL_GPU_CLOCK = 3,
};
enum ReleaseMemIntSel : uint32_t {
  INT_SEL_NONE = 0,
  INT_SEL_SEND = 1,
  INT_SEL_SEND_AFTER_WRITE_CONFIRM = 2,
};
inline constexpr uint32_t kEventIndexEndOfPipe = 5;

// WAIT_REG_MEM dword 1: FUNCTION[2:0] MEM_SPACE[4] (1 = memory) OPERATION[7:6] ENGINE[9:8].
enum WaitFunction : uint32_t {
  WAIT_ALWAYS = 0, WAIT_LT = 1, WAIT_LE = 2, WAIT_EQ = 3, WAIT_NE = 4, WAIT_GE = 5, WAIT_GT = 6,
};
inline constexpr uint32_t WAIT_REG_MEM_MEM_SPACE = 1u << 4;

// WRITE_DATA dword 1: DST_SEL[11:8] (0 = register, 5 = memory) WR_CONFIRM[20].
inline constexpr uint32_t write_data_dst_sel(uint32_t x) { return (x & 0xf) << 8; }
inline constexpr uint32_t WRITE_DATA_WR_CONFIRM = 1u << 20;
inline constexpr uint32_t WRITE_DATA_DST_REG = 0;
inline constexpr uint32_t WRITE_DATA_DST_MEM = 5;

// INDIRECT_BUFFER (Linux soc15d.h / gfx_v11_0.c ring_emit_ib_compute): dw1 base[31:2], dw2
// base[47:32], dw3 IB_SIZE[19:0] (dwords) | CHAIN[20] | VALID[23] | VMID[27:24].
inline constexpr uint32_t INDIRECT_BUFFER_VALID = 1u << 23;
inline constexpr uint32_t INDIRECT_BUFFER_CHAIN = 1u << 20;
inline constexpr uint32_t indirect_buffer_size(uint32_t x) { return x & 0xfffff; }

// COPY_DATA (Mesa sid.h): dw1 SRC_SEL[3:0] DST_SEL[11:8] COUNT_SEL[16] (64 bits) WR_CONFIRM[20];
// dw2/3 source (address, register or immediate), dw4/5 destination.
inline constexpr uint32_t copy_data_src_sel(uint32_t x) { return x & 0xf; }
inline constexpr uint32_t copy_data_dst_sel(uint32_t x) { return (x & 0xf) << 8; }
enum CopyDataSel : uint32_t {
  COPY_DATA_REG = 0, COPY_DATA_MEM = 1 /* source only */, COPY_DATA_IMM = 5 /* source only */,
  COPY_DATA_DST_MEM = 5, COPY_DATA_TIMESTAMP = 9,
};
inline constexpr uint32_t COPY_DATA_COUNT_SEL = 1u << 16;
inline constexpr uint32_t COPY_DATA_WR_CONFIRM = 1u << 20;

// SET_UCONFIG_REG: dw1 is the register's offset from PACKET3_SET_UCONFIG_REG_START (0xC000;
// END 0xFFFF, Linux soc15d.h), the values follow.
inline constexpr uint32_t kUconfigRegEnd = 0x10000;

} // namespace am::hw::pm4
