// The compute memory queue descriptor (MQD) of gfx11 and gfx12, as dword indices.
// Source: Linux drivers/gpu/drm/amd/include/v11_structs.h (struct v11_compute_mqd, re-read for
// the indices below) and v12_structs.h (struct v12_compute_mqd): both are 512 dwords and agree
// on every index below.
// From dword 128 the MQD mirrors the CP_HQD_* registers in register order, so
// MQD[kHqdFirst + k] holds register CP_MQD_BASE_ADDR + k.
#pragma once
#include <cstdint>

namespace am::hw::mqd {

inline constexpr uint32_t kMqdDwords = 512; // sizeof(struct v11_compute_mqd) / 4
inline constexpr uint32_t kHqdFirst = 128;  // cp_mqd_base_addr_lo

inline constexpr uint32_t header = 0;
inline constexpr uint32_t compute_static_thread_mgmt_se0 = 23;
inline constexpr uint32_t compute_static_thread_mgmt_se1 = 24;
inline constexpr uint32_t compute_static_thread_mgmt_se2 = 26;
inline constexpr uint32_t compute_static_thread_mgmt_se3 = 27;
inline constexpr uint32_t compute_misc_reserved = 32;
inline constexpr uint32_t cp_mqd_base_addr_lo = 128;
inline constexpr uint32_t cp_mqd_base_addr_hi = 129;
inline constexpr uint32_t cp_hqd_active = 130;
inline constexpr uint32_t cp_hqd_vmid = 131;
inline constexpr uint32_t cp_hqd_persistent_state = 132;
inline constexpr uint32_t cp_hqd_pipe_priority = 133;
inline constexpr uint32_t cp_hqd_queue_priority = 134;
inline constexpr uint32_t cp_hqd_quantum = 135;
inline constexpr uint32_t cp_hqd_pq_base_lo = 136;
inline constexpr uint32_t cp_hqd_pq_base_hi = 137;
inline constexpr uint32_t cp_hqd_pq_rptr = 138;
inline constexpr uint32_t cp_hqd_pq_rptr_report_addr_lo = 139;
inline constexpr uint32_t cp_hqd_pq_rptr_report_addr_hi = 140;
inline constexpr uint32_t cp_hqd_pq_wptr_poll_addr_lo = 141;
inline constexpr uint32_t cp_hqd_pq_wptr_poll_addr_hi = 142;
inline constexpr uint32_t cp_hqd_pq_doorbell_control = 143;
inline constexpr uint32_t cp_hqd_pq_control = 145;
inline constexpr uint32_t cp_hqd_ib_control = 149;
inline constexpr uint32_t cp_hqd_hq_status0 = 160;
inline constexpr uint32_t cp_mqd_control = 162;
inline constexpr uint32_t cp_hqd_eop_base_addr_lo = 165;
inline constexpr uint32_t cp_hqd_eop_base_addr_hi = 166;
inline constexpr uint32_t cp_hqd_eop_control = 167;
inline constexpr uint32_t cp_hqd_aql_control = 181;
inline constexpr uint32_t cp_hqd_pq_wptr_lo = 182;
inline constexpr uint32_t cp_hqd_pq_wptr_hi = 183;

// What gfx_v11_0_compute_mqd_init / gfx_v12_0_compute_mqd_init put outside the HQD image: the
// MQD header, every CU of the four shader engines allowed, and COMPUTE_MISC_RESERVED 7.
inline constexpr uint32_t kHeader = 0xC0310800;
inline constexpr uint32_t kAllCus = 0xffffffff;
inline constexpr uint32_t kComputeMiscReserved = 7;

// The HQD registers' reset values, which amdgpu starts each field change from (gfx_v11_0.c /
// gfx_v12_0.c regCP_*_DEFAULT, the same on both): PERSISTENT_STATE already has PRELOAD_SIZE
// 0x55 and PRELOAD_REQ, IB_CONTROL MIN_IB_AVAIL_SIZE 3, MQD_CONTROL PRIV_STATE, PQ_CONTROL
// RPTR_BLOCK_SIZE 5. Writing an HQD register as 0 instead would clear bits the firmware expects.
inline constexpr uint32_t kCpHqdPersistentStateDefault = 0x0be05501;
inline constexpr uint32_t kCpHqdIbControlDefault = 0x00300000;
inline constexpr uint32_t kCpMqdControlDefault = 0x00000100; // VMID 0, PRIV_STATE [8]
inline constexpr uint32_t kCpHqdPqControlDefault = 0x00308509;
inline constexpr uint32_t kCpHqdEopControlDefault = 0x00000006;

// The queue's scheduling: amdgpu's values for a high-priority compute queue
// (amdgpu_ring_to_mqd_prop: AMDGPU_GFX_PIPE_PRIO_HIGH 2, AMDGPU_GFX_QUEUE_PRIORITY_MAXIMUM 15),
// which tinygrad's AM_GFX.setup_ring gives its one queue; CP_HQD_QUANTUM with QUANTUM_EN [0],
// QUANTUM_SCALE [5:4] and QUANTUM_DURATION [13:8] each 1 (gfx_v11_0_compute_mqd_init, "for better
// fairness across queues of the same priority"; tinygrad 0x111); CP_HQD_HQ_STATUS0 as tinygrad
// writes it, 0x20004000: C_QUEUE_DEBUG_EN [14] as kfd_mqd_manager_v11.c init_mqd sets it, and
// bit 29, which no public header names (unverified beyond tinygrad).
inline constexpr uint32_t kPipePriorityHigh = 2, kQueuePriorityMaximum = 15;
inline constexpr uint32_t CP_HQD_QUANTUM_EN = 1u << 0;
inline constexpr uint32_t kCpHqdQuantum = CP_HQD_QUANTUM_EN | (1u << 4) | (1u << 8);
inline constexpr uint32_t HQ_STATUS0_C_QUEUE_DEBUG_EN = 1u << 14;
inline constexpr uint32_t kCpHqdHqStatus0 = HQ_STATUS0_C_QUEUE_DEBUG_EN | (1u << 29);

// CP_HQD_PQ_CONTROL fields amdgpu sets for a kernel queue: QUEUE_SIZE [5:0], TUNNEL_DISPATCH
// [29] off, UNORD_DISPATCH [28], PRIV_STATE [30] and KMD_QUEUE [31] on. UNORD_DISPATCH is on
// since Linux 3380fcad2c90 ("drm/amdgpu/gfx11: set UNORD_DISPATCH in compute MQDs": "needs to be
// set to 1 to avoid a potential deadlock in the GC 10.x and newer"); gfx_v12_0_compute_mqd_init
// and amdkfd's v11/v12 MQDs set it too. Ordering between dispatches comes from the
// CS_PARTIAL_FLUSH the runtime puts between them, not from this bit. EOP_CONTROL: EOP_SIZE
// [5:0] (2^(EOP_SIZE+1) dwords). The same positions in gc_12_0_0_sh_mask.h (read), as are
// PQ_DOORBELL_CONTROL's DOORBELL_OFFSET [27:2] and DOORBELL_EN [30].
inline constexpr uint32_t PQ_CONTROL_QUEUE_SIZE_MASK = 0x3f;
inline constexpr uint32_t PQ_CONTROL_UNORD_DISPATCH = 1u << 28,
                          PQ_CONTROL_TUNNEL_DISPATCH = 1u << 29, PQ_CONTROL_PRIV_STATE = 1u << 30,
                          PQ_CONTROL_KMD_QUEUE = 1u << 31;
inline constexpr uint32_t EOP_CONTROL_EOP_SIZE_MASK = 0x3f;

// CP_HQD_PQ_CONTROL of a kernel queue of 2^(queue_size + 1) dwords, from the reset value.
inline constexpr uint32_t pq_control(uint32_t queue_size) {
  return (kCpHqdPqControlDefault & ~(PQ_CONTROL_QUEUE_SIZE_MASK | PQ_CONTROL_TUNNEL_DISPATCH)) |
         (queue_size & PQ_CONTROL_QUEUE_SIZE_MASK) | PQ_CONTROL_UNORD_DISPATCH |
         PQ_CONTROL_PRIV_STATE | PQ_CONTROL_KMD_QUEUE;
}

} // namespace am::hw::mqd
