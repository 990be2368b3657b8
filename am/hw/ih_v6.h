// Interrupt vector (IV) entries the IH writes to its ring: 8 dwords each.
// Source: Linux amdgpu_irq.c / amdgpu_ih.c (amdgpu_ih_decode_iv_helper: client_id, src_id,
// ring_id, vmid, vmid_src, timestamp, timestamp_src, pasid, node_id, src_data[4]),
// soc15_ih_clientid.h (enum soc21_ih_clientid), irqsrcs_gfx_11_0_0.h, gmc_v11_0.c and
// kfd_int_process_v11.c (source ids and the fault entry layout).
#pragma once
#include <cstdint>

namespace am::hw::ih {

inline constexpr uint32_t kEntryDwords = 8;
inline constexpr uint32_t kEntryBytes = 32;

// soc21_ih_clientid
inline constexpr uint8_t CLIENTID_GFX = 0x0a;
inline constexpr uint8_t CLIENTID_VMC = 0x12;
inline constexpr uint8_t CLIENTID_GRBM_CP = 0x14;

// Source ids.
inline constexpr uint8_t SRCID_UTCL2_FAULT = 0;        // UTCL2_1_0__SRCID__FAULT (client GFX)
inline constexpr uint8_t SRCID_CP_EOP_INTERRUPT = 181;  // GFX_11_0_0__SRCID__CP_EOP_INTERRUPT
inline constexpr uint8_t SRCID_CP_BAD_OPCODE = 183;     // GFX_11_0_0__SRCID__CP_BAD_OPCODE_ERROR
// SDMA sources on SOC21 come from client GFX (sdma_v6_0.c registers GFX_11_0_0__SRCID__SDMA_TRAP
// with SOC21_IH_CLIENTID_GFX; kfd soc15_int.h: SOC21_INTSRC_SDMA_TRAP 49). 224 is the SOC15 value.
inline constexpr uint8_t SRCID_SDMA_TRAP = 49;          // GFX_11_0_0__SRCID__SDMA_TRAP (0x31)
inline constexpr uint8_t SRCID_SDMA_QUEUE_HANG = 55;    // GFX_11_0_0__SRCID__SDMA_QUEUE_HANG (0x37)
inline constexpr uint8_t SRCID_SQ_INTERRUPT_MSG = 239;  // GFX_11_0_0__SRCID__SQ_INTERRUPT_ID

// ring_id bits of a VM fault entry (kfd_int_process_v11.c): protection fault valid, read,
// write; the faulting page number is src_data[0] | (src_data[1] & 0xf) << 32.
inline constexpr uint8_t FAULT_RING_PROT_VALID = 0x08;
inline constexpr uint8_t FAULT_RING_PROT_READ = 0x10;
inline constexpr uint8_t FAULT_RING_PROT_WRITE = 0x20;
// ring_id of a CP entry: queue[6:4] me[3:2] pipe[1:0] (gfx_v11_0_eop_irq).
inline constexpr uint8_t cp_ring_id(uint32_t me, uint32_t pipe, uint32_t queue) {
  return uint8_t(((queue & 7) << 4) | ((me & 3) << 2) | (pipe & 3));
}

struct IvEntry {
  uint8_t client_id = 0, source_id = 0, ring_id = 0, vmid = 0;
  uint64_t timestamp = 0; // 48 bits
  uint16_t pasid = 0;
  uint8_t node_id = 0;
  uint32_t src_data[4] = {};
};

inline void encode(const IvEntry& e, uint32_t out[kEntryDwords]) {
  out[0] = e.client_id | (uint32_t(e.source_id) << 8) | (uint32_t(e.ring_id) << 16) |
           (uint32_t(e.vmid & 0xf) << 24);
  out[1] = uint32_t(e.timestamp);
  out[2] = uint32_t(e.timestamp >> 32) & 0xffff;
  out[3] = e.pasid | (uint32_t(e.node_id) << 16);
  for (int i = 0; i < 4; ++i) out[4 + i] = e.src_data[i];
}

inline IvEntry decode(const uint32_t in[kEntryDwords]) {
  IvEntry e;
  e.client_id = uint8_t(in[0]);
  e.source_id = uint8_t(in[0] >> 8);
  e.ring_id = uint8_t(in[0] >> 16);
  e.vmid = uint8_t((in[0] >> 24) & 0xf);
  e.timestamp = in[1] | (uint64_t(in[2] & 0xffff) << 32);
  e.pasid = uint16_t(in[3]);
  e.node_id = uint8_t(in[3] >> 16);
  for (int i = 0; i < 4; ++i) e.src_data[i] = in[4 + i];
  return e;
}

} // namespace am::hw::ih
