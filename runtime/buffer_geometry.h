// Where the bytes of buffer transfers lie: rectangles of rectangular transfers and the overlap
// rules of copies (OpenCL 3.0, clEnqueueCopyBuffer and clEnqueueCopyBufferRect: CL_MEM_COPY_OVERLAP
// when the source and destination bytes overlap in the same buffer, also through sub-buffers).
#pragma once
#include "objects.h"

#include <cstddef>

namespace amcl::rt {

// Geometry of one side of a rectangular transfer (clEnqueueReadBufferRect's origin and pitches).
struct Rect {
  size_t origin[3], row_pitch, slice_pitch;
  size_t offset(size_t y, size_t z) const {
    return (origin[2] + z) * slice_pitch + (origin[1] + y) * row_pitch + origin[0];
  }
};

// Checks origin, region and pitches (CL_INVALID_VALUE) and fills in the default pitches.
Rect make_rect(const size_t* origin, const size_t* region, size_t row_pitch, size_t slice_pitch);

// One past the last byte a rectangle touches, for bounds checks against the buffer size.
size_t rect_end(const Rect& r, const size_t* region);

// Whether [a_off, a_off+size) of `a` and [b_off, b_off+size) of `b` share bytes of storage
// (the same buffer, a sub-buffer and its parent, or two sub-buffers of one parent).
bool copy_overlaps(cl_mem a, size_t a_off, cl_mem b, size_t b_off, size_t size);

// The same for the rows of two rectangles of the same region.
bool rect_copy_overlaps(cl_mem a, const Rect& ra, cl_mem b, const Rect& rb, const size_t* region);

} // namespace amcl::rt
