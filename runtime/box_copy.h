// A box of bytes (rows of `region[0]` bytes, `region[1]` rows a slice, `region[2]` slices)
// between two linear surfaces as SDMA packets: rectangular transfers, image transfers and
// copies, whether the host side is the staging memory, the application's pages or a buffer.
#pragma once
#include "am/sdma_builder.h"

#include <cstddef>
#include <cstdint>

namespace amcl::rt {

// One side of the box: the address of its first byte and the surface's pitches in bytes.
struct BoxSide {
  uint64_t va;
  size_t row_pitch, slice_pitch;
};

// Adds the packets that copy the box from `src` to `dst` to `b` (built for the device's SDMA
// version: the sub-window packet's pitch field moved in SDMA 7): COPY_LINEAR_SUB_WINDOW packets
// where the box and its pitches fit that packet's fields and alignments, else one COPY_LINEAR a
// row. Returns how many packets it added.
size_t copy_box(am::SdmaBuilder& b, const BoxSide& dst, const BoxSide& src, const size_t* region);

} // namespace amcl::rt
