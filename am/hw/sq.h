// The shader sequencer (SQ) facts a driver needs to name a wave's fault: the SQ interrupt word
// the IH carries for it, and the indirect wave registers (GRBM_GFX_INDEX, SQ_IND_INDEX,
// SQ_IND_DATA) through which the halted wave's PC, exception status and hardware id are read.
//
// Sources:
// - The interrupt word: Linux drivers/gpu/drm/amd/amdkfd/kfd_int_process_v11.c (the
//   SQ_INTERRUPT_WORD_{WAVE,ERROR}_CTXID masks, enum SQ_INTERRUPT_WORD_ENCODING and
//   SQ_INTERRUPT_ERROR_TYPE); context_id0/1 are the IV entry's src_data[0]/[1]. kfd_device.c
//   gives GC 12.0.0/12.0.1 the same event_interrupt_class_v11 ("GFX12_TODO"), so one layout
//   serves both generations. The gfx11 word has no shader-engine field.
// - Reading a wave: gfx_v11_0.c / gfx_v12_0.c (select_se_sh writes GRBM_GFX_INDEX; wave_read_ind
//   writes SQ_IND_INDEX = WAVE_ID | INDEX << 16 and reads SQ_IND_DATA; "in gfx11 the SIMD_ID is
//   specified as part of the INSTANCE field when performing a select_se_sh"; read_wave_data reads
//   ixSQ_WAVE_STATUS, PC_LO, PC_HI, HW_ID1, TRAPSTS (GC 11) / EXCP_FLAG_PRIV (GC 12)).
// - Offsets and fields: gc_11_0_0_offset.h (regSQ_IND_INDEX 0x1118 and regSQ_IND_DATA 0x1119,
//   BASE_IDX 0; regGRBM_GFX_INDEX 0x2200, BASE_IDX 1; the sqind block) and gc_11_0_0_sh_mask.h
//   (SQ_IND_INDEX, SQ_WAVE_TRAPSTS, SQ_WAVE_HW_ID1, SQ_WAVE_PC_HI); gc_12_0_0_offset.h (the
//   gfx_se_sqind block: PC_LO/HI moved to 0x140/0x141, TRAPSTS is gone, EXCP_FLAG_PRIV 0x111)
//   and gc_12_0_0_sh_mask.h (SQ_WAVE_EXCP_FLAG_PRIV, SQ_WAVE_HW_ID1, SQ_WAVE_PC_HI); GC 12's
//   GRBM_GFX_INDEX (0x2200, base 1; INSTANCE [6:0], SA [9:8], SE [19:16]) as tinygrad's
//   autogen/am/regs.py transcribes gc_12_0_0. GC 12's SQ_IND_INDEX/SQ_IND_DATA are taken as
//   GC 11's (gfx_v12_0.c programs them with the same field names; their gc_12_0_0_offset.h
//   lines were not located for this table).
// - amcl's own choice, not a published fact: the INSTANCE_INDEX of a wave is WGP_ID << 2 |
//   SIMD_ID (Linux only says the SIMD is part of INSTANCE); the driver and the emulator share it.
// Pinned by tests/am/hw_facts_test.cpp.
#pragma once
#include "gc_regs.h"

#include <cstdint>

namespace am::hw::sq {

// SQ_INTERRUPT_WORD_ENCODING (context_id1 [7:6]) and SQ_INTERRUPT_ERROR_TYPE (context_id0
// [24:21] of an ERROR word).
enum Encoding : uint32_t { ENCODING_AUTO = 0, ENCODING_INST = 1, ENCODING_ERROR = 2 };
enum ErrorType : uint32_t {
  ERROR_TYPE_EDC_FUE = 0,
  ERROR_TYPE_ILLEGAL_INST = 1,
  ERROR_TYPE_MEMVIOL = 2,
  ERROR_TYPE_EDC_FED = 3
};

// SQ_INTERRUPT_WORD_ERROR_CTXID0/1 (the WAVE_CTXID word shares every field but DATA).
inline constexpr uint32_t CTXID0_DETAIL_MASK = 0x001fffff; // [20:0]
inline constexpr uint32_t CTXID0_TYPE_SHIFT = 21;          // [24:21]
inline constexpr uint32_t CTXID0_TYPE_MASK = 0x01e00000;
inline constexpr uint32_t CTXID0_SH_ID_SHIFT = 25;          // [25]
inline constexpr uint32_t CTXID0_PRIV_SHIFT = 26;           // [26]
inline constexpr uint32_t CTXID0_WAVE_ID_SHIFT = 27;        // [31:27]
inline constexpr uint32_t CTXID1_SIMD_ID_MASK = 0x00000003; // [33:32]
inline constexpr uint32_t CTXID1_WGP_ID_SHIFT = 2;          // [37:34]
inline constexpr uint32_t CTXID1_WGP_ID_MASK = 0x0000003c;
inline constexpr uint32_t CTXID1_ENCODING_SHIFT = 6; // [39:38]
inline constexpr uint32_t CTXID1_ENCODING_MASK = 0x000000c0;

// One SQ interrupt word, decoded.
struct InterruptWord {
  uint32_t encoding = ENCODING_AUTO;
  uint32_t error_type = 0; // ERROR words
  uint32_t detail = 0;     // ERROR: [20:0]; INST: the low bits of the S_SENDMSG data
  uint32_t sh_id = 0, priv = 0, wave_id = 0, simd_id = 0, wgp_id = 0;
};

inline constexpr void encode(const InterruptWord& w, uint32_t& ctxid0, uint32_t& ctxid1) {
  ctxid0 = (w.detail & CTXID0_DETAIL_MASK) |
           ((w.error_type << CTXID0_TYPE_SHIFT) & CTXID0_TYPE_MASK) |
           ((w.sh_id & 1) << CTXID0_SH_ID_SHIFT) | ((w.priv & 1) << CTXID0_PRIV_SHIFT) |
           ((w.wave_id & 0x1f) << CTXID0_WAVE_ID_SHIFT);
  ctxid1 = (w.simd_id & CTXID1_SIMD_ID_MASK) |
           ((w.wgp_id << CTXID1_WGP_ID_SHIFT) & CTXID1_WGP_ID_MASK) |
           ((w.encoding << CTXID1_ENCODING_SHIFT) & CTXID1_ENCODING_MASK);
}

inline constexpr InterruptWord decode(uint32_t ctxid0, uint32_t ctxid1) {
  InterruptWord w;
  w.encoding = (ctxid1 & CTXID1_ENCODING_MASK) >> CTXID1_ENCODING_SHIFT;
  w.error_type = (ctxid0 & CTXID0_TYPE_MASK) >> CTXID0_TYPE_SHIFT;
  w.detail = ctxid0 & CTXID0_DETAIL_MASK;
  w.sh_id = (ctxid0 >> CTXID0_SH_ID_SHIFT) & 1;
  w.priv = (ctxid0 >> CTXID0_PRIV_SHIFT) & 1;
  w.wave_id = ctxid0 >> CTXID0_WAVE_ID_SHIFT;
  w.simd_id = ctxid1 & CTXID1_SIMD_ID_MASK;
  w.wgp_id = (ctxid1 & CTXID1_WGP_ID_MASK) >> CTXID1_WGP_ID_SHIFT;
  return w;
}

// GRBM_GFX_INDEX: INSTANCE_INDEX [7:0] (GC 12: [6:0]), SA_INDEX [15:8] ([9:8]), SE_INDEX
// [23:16] ([19:16]), SA/INSTANCE/SE_BROADCAST_WRITES [29]/[30]/[31].
inline constexpr uint32_t GRBM_GFX_INDEX_SA_SHIFT = 8;
inline constexpr uint32_t GRBM_GFX_INDEX_SE_SHIFT = 16;
inline constexpr uint32_t GRBM_GFX_INDEX_SA_BROADCAST = 1u << 29;
inline constexpr uint32_t GRBM_GFX_INDEX_INSTANCE_BROADCAST = 1u << 30;
inline constexpr uint32_t GRBM_GFX_INDEX_SE_BROADCAST = 1u << 31;
// Every field broadcast: what amdgpu leaves selected between its per-SE accesses.
inline constexpr uint32_t kGrbmGfxIndexBroadcast =
    GRBM_GFX_INDEX_SA_BROADCAST | GRBM_GFX_INDEX_INSTANCE_BROADCAST | GRBM_GFX_INDEX_SE_BROADCAST;
inline constexpr uint32_t wave_instance(uint32_t wgp_id, uint32_t simd_id) {
  return ((wgp_id & 0xf) << 2) | (simd_id & 3);
}
inline constexpr uint32_t grbm_gfx_index(uint32_t se, uint32_t sa, uint32_t instance) {
  return (instance & 0x7f) | ((sa & 3) << GRBM_GFX_INDEX_SA_SHIFT) |
         ((se & 0xf) << GRBM_GFX_INDEX_SE_SHIFT);
}

// SQ_IND_INDEX: WAVE_ID [4:0], WORKITEM_ID [10:5], AUTO_INCR [11], INDEX [31:16].
inline constexpr uint32_t SQ_IND_INDEX_WAVE_ID_MASK = 0x0000001f;
inline constexpr uint32_t SQ_IND_INDEX_WORKITEM_ID_SHIFT = 5;
inline constexpr uint32_t SQ_IND_INDEX_AUTO_INCR = 1u << 11;
inline constexpr uint32_t SQ_IND_INDEX_INDEX_SHIFT = 16;
inline constexpr uint32_t sq_ind_index(uint32_t wave_id, uint32_t index) {
  return (wave_id & SQ_IND_INDEX_WAVE_ID_MASK) | (index << SQ_IND_INDEX_INDEX_SHIFT);
}

// SQ_WAVE_HW_ID1 (both generations): WAVE_ID [4:0], SIMD_ID [9:8], WGP_ID [13:10], SA_ID [16],
// SE_ID [20:18].
struct HwId1 {
  uint32_t wave_id = 0, simd_id = 0, wgp_id = 0, sa_id = 0, se_id = 0;
};
inline constexpr uint32_t encode_hw_id1(const HwId1& h) {
  return (h.wave_id & 0x1f) | ((h.simd_id & 3) << 8) | ((h.wgp_id & 0xf) << 10) |
         ((h.sa_id & 1) << 16) | ((h.se_id & 7) << 18);
}
inline constexpr HwId1 decode_hw_id1(uint32_t v) {
  return {v & 0x1f, (v >> 8) & 3, (v >> 10) & 0xf, (v >> 16) & 1, (v >> 18) & 7};
}
inline constexpr uint32_t kMaxShaderEngines = 8; // SE_ID is three bits

// SQ_WAVE_PC_HI holds PC [47:32] in [15:0] (both generations).
inline constexpr uint32_t SQ_WAVE_PC_HI_MASK = 0x0000ffff;

// The per-generation part: where the registers are, the wave register indices, and which
// register (and bit) says the wave took an illegal instruction.
struct SqRegs {
  const char* name;
  Reg GRBM_GFX_INDEX, SQ_IND_INDEX, SQ_IND_DATA;
  uint32_t ix_status, ix_pc_lo, ix_pc_hi, ix_hw_id1;
  uint32_t ix_exception; // ixSQ_WAVE_TRAPSTS (GC 11) / ixSQ_WAVE_EXCP_FLAG_PRIV (GC 12)
  uint32_t illegal_inst; // its ILLEGAL_INST bit: TRAPSTS [11] / EXCP_FLAG_PRIV [6]
  const char* exception_name;
};

inline constexpr SqRegs kSq11{
    .name = "GC 11.0.0",
    .GRBM_GFX_INDEX = {0x2200, 1},
    .SQ_IND_INDEX = {0x1118, 0},
    .SQ_IND_DATA = {0x1119, 0},
    .ix_status = 0x0102,
    .ix_pc_lo = 0x0108,
    .ix_pc_hi = 0x0109,
    .ix_hw_id1 = 0x0117,
    .ix_exception = 0x0103,
    .illegal_inst = 1u << 11,
    .exception_name = "TRAPSTS",
};

inline constexpr SqRegs kSq12{
    .name = "GC 12.0.0",
    .GRBM_GFX_INDEX = {0x2200, 1},
    .SQ_IND_INDEX = {0x1118, 0},
    .SQ_IND_DATA = {0x1119, 0},
    .ix_status = 0x0102,
    .ix_pc_lo = 0x0140,
    .ix_pc_hi = 0x0141,
    .ix_hw_id1 = 0x0117,
    .ix_exception = 0x0111,
    .illegal_inst = 1u << 6,
    .exception_name = "EXCP_FLAG_PRIV",
};

inline constexpr const SqRegs* sq_regs_for_gc_major(unsigned major) {
  return major == 11 ? &kSq11 : major == 12 ? &kSq12 : nullptr;
}

} // namespace am::hw::sq
