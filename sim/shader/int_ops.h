// Integer helpers the scalar and vector ALU models share (RDNA3/RDNA4 ISA manuals, "Instructions"
// pseudocode).
#pragma once
#include <bit>
#include <cstdint>
#include <type_traits>

namespace sim::shader {

// S_CLS_I32 / V_CLS_I32 (RDNA3 ISA manual): the position, counted from the most significant
// bit, of the first bit that differs from the sign bit; -1 (all ones) when none does.
template <class T> uint32_t leading_sign_bits(T v) {
  using S = std::make_signed_t<T>;
  const T same = v ^ T(S(v) >> (8 * sizeof(T) - 1)); // bits equal to the sign become 0
  return same ? uint32_t(std::countl_zero(same)) : ~0u;
}

// The V_CMP integer predicates by their 3-bit code (f, lt, eq, le, gt, ne, ge, t).
template <class T> bool compare_i(unsigned code, T a, T b) {
  // One operation per line: it reads as the ISA table it is.
  // clang-format off
  switch (code & 7) {
  case 0: return false;
  case 1: return a < b;
  case 2: return a == b;
  case 3: return a <= b;
  case 4: return a > b;
  case 5: return a != b;
  case 6: return a >= b;
  default: return true;
  }
  // clang-format on
}

} // namespace sim::shader
