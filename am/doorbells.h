// The doorbell slots amcl's two queues use, in BAR2 dword indices (registers take these; the
// slots are 64-bit): AMDGPU_NAVI10_DOORBELL_MEC_RING0 and AMDGPU_NAVI10_DOORBELL_sDMA_ENGINE0,
// amdgpu's assignment on Navi1x and later (Linux amdgpu_doorbell.h).
#pragma once
#include <cstdint>

namespace am {

inline constexpr uint32_t kMecDoorbell = 0x003 * 2;
inline constexpr uint32_t kSdmaDoorbell = 0x100 * 2;

} // namespace am
