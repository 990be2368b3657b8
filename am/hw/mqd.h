// The compute memory queue descriptor (MQD) of gfx11 and gfx12, as dword indices.
// Source: Linux drivers/gpu/drm/amd/include/v11_structs.h (struct v11_compute_mqd) and
// v12_structs.h (struct v12_compute_mqd): both are 512 dwords and agree on every index below.
// From dword 128 the MQD mirrors the CP_HQD_* registers in register order, so
// MQD[kHqdFirst + k] holds register CP_MQD_BASE_ADDR + k.
#pragma once
#include <cstdint>

namespace am::hw::mqd {

inline constexpr uint32_t kMqdDwords = 512; // sizeof(struct v11_compute_mqd) / 4
inline constexpr uint32_t kHqdFirst = 128;  // cp_mqd_base_addr_lo

inline constexpr uint32_t cp_mqd_base_addr_lo = 128;
inline constexpr uint32_t cp_mqd_base_addr_hi = 129;
inline constexpr uint32_t cp_hqd_active = 130;
inline constexpr uint32_t cp_hqd_vmid = 131;
inline constexpr uint32_t cp_hqd_pq_base_lo = 136;
inline constexpr uint32_t cp_hqd_pq_base_hi = 137;
inline constexpr uint32_t cp_hqd_pq_rptr = 138;
inline constexpr uint32_t cp_hqd_pq_rptr_report_addr_lo = 139;
inline constexpr uint32_t cp_hqd_pq_rptr_report_addr_hi = 140;
inline constexpr uint32_t cp_hqd_pq_wptr_poll_addr_lo = 141;
inline constexpr uint32_t cp_hqd_pq_wptr_poll_addr_hi = 142;
inline constexpr uint32_t cp_hqd_pq_doorbell_control = 143;
inline constexpr uint32_t cp_hqd_pq_control = 145;
inline constexpr uint32_t cp_hqd_eop_base_addr_lo = 165;
inline constexpr uint32_t cp_hqd_eop_base_addr_hi = 166;
inline constexpr uint32_t cp_hqd_eop_control = 167;
inline constexpr uint32_t cp_hqd_pq_wptr_lo = 182;
inline constexpr uint32_t cp_hqd_pq_wptr_hi = 183;

} // namespace am::hw::mqd
