#include "box_copy.h"

#include <algorithm>

namespace amcl::rt {
namespace {

// COPY_LINEAR_SUB_WINDOW's limits (am/hw/sdma_v6.h for the fields; Mesa src/amd radv_sdma.c
// radv_sdma_check_pitches and radeonsi's linear sub-window copy for what drivers keep to): a
// row of at most 2^14 elements of 1 to 16 bytes, a row pitch of at most 2^14 elements whose
// bytes are a multiple of 4, a slice pitch of at most 2^28 elements and a multiple of 4
// elements when there is more than one slice, and at most 2^14 rows and 2^11 slices a
// packet. Addresses are kept dword-aligned.
constexpr size_t kMaxWidth = size_t{1} << 14, kMaxPitch = size_t{1} << 14,
                 kMaxSlicePitch = size_t{1} << 28, kMaxRows = size_t{1} << 14,
                 kMaxSlices = size_t{1} << 11;

// The largest element (1 to 16 bytes, a power of two) dividing the row, the addresses and the
// pitches, as its log2; -1 if the box cannot be sub-windows.
int sub_window_log2(const BoxSide& d, const BoxSide& s, const size_t* region) {
  uint64_t aligned = d.va | s.va | d.row_pitch | s.row_pitch;
  if (region[2] > 1) aligned |= d.slice_pitch | s.slice_pitch; // each slice's address, too
  if ((aligned & 3) || d.row_pitch < region[0] || s.row_pitch < region[0]) return -1;
  const uint64_t all = aligned | region[0];
  int log2 = 0;
  while (log2 < 4 && !(all & (uint64_t{1} << log2))) ++log2;
  const size_t e = size_t{1} << log2;
  if (region[0] / e > kMaxWidth || d.row_pitch / e > kMaxPitch || s.row_pitch / e > kMaxPitch)
    return -1;
  return log2;
}

// Whether a packet may take more than one slice of elements of `e` bytes.
bool whole_slices(const BoxSide& d, const BoxSide& s, const size_t* region, size_t e) {
  return region[2] > 1 && region[1] <= kMaxRows && d.slice_pitch % (4 * e) == 0 &&
         s.slice_pitch % (4 * e) == 0 && d.slice_pitch / e <= kMaxSlicePitch &&
         s.slice_pitch / e <= kMaxSlicePitch;
}

} // namespace

size_t copy_box(am::SdmaBuilder& b, const BoxSide& dst, const BoxSide& src, const size_t* region) {
  const bool many_rows = region[1] > 1 || region[2] > 1;
  const int log2 = many_rows ? sub_window_log2(dst, src, region) : -1;
  size_t packets = 0;
  if (log2 < 0) {
    for (size_t z = 0; z < region[2]; ++z)
      for (size_t y = 0; y < region[1]; ++y, ++packets)
        b.copy_linear(dst.va + z * dst.slice_pitch + y * dst.row_pitch,
                      src.va + z * src.slice_pitch + y * src.row_pitch, region[0]);
    return packets;
  }
  const size_t e = size_t{1} << log2;
  // Many slices a packet where the slice pitches allow, else a slice (or its rows in pieces)
  // a packet.
  const bool many = whole_slices(dst, src, region, e);
  auto surface = [&](const BoxSide& s, size_t y, size_t z) {
    am::SdmaSurface f;
    f.va = s.va + z * s.slice_pitch + y * s.row_pitch;
    f.pitch = uint32_t(s.row_pitch / e);
    f.slice_pitch = many ? uint32_t(s.slice_pitch / e) : 1; // unused with one slice a packet
    return f;
  };
  const size_t rows = std::min(region[1], kMaxRows), slices = many ? kMaxSlices : 1;
  for (size_t z = 0; z < region[2]; z += slices)
    for (size_t y = 0; y < region[1]; y += rows, ++packets)
      b.copy_sub_window(surface(dst, y, z), surface(src, y, z), uint32_t(log2),
                        uint32_t(region[0] / e), uint32_t(std::min(rows, region[1] - y)),
                        uint32_t(std::min(slices, region[2] - z)));
  return packets;
}

} // namespace amcl::rt
