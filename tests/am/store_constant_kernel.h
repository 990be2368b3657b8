// A hand-assembled one-wave gfx1100 kernel for the driver's tests: it stores a constant through
// the address in its user SGPRs s[0:1].
#pragma once
#include <cstdint>
#include <vector>

namespace am::test {

// out[0] = value (llvm-mc-22 -mcpu=gfx1100 -show-encoding): v_mov_b32_e32 v1, <literal>;
// v_mov_b32_e32 v2, 0; global_store_b32 v2, v1, s[0:1]; s_endpgm.
inline std::vector<uint32_t> store_constant(uint32_t value) {
  return {0x7E0202FF, value, 0x7E040280, 0xDC6A0000, 0x00000102, 0xBFB00000};
}

} // namespace am::test
