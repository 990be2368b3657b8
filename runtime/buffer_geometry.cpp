#include "buffer_geometry.h"

#include <algorithm>

namespace amcl::rt {

Rect make_rect(const size_t* origin, const size_t* region, size_t row, size_t slice) {
  if (!origin || !region || !region[0] || !region[1] || !region[2])
    throw ClError{CL_INVALID_VALUE, ""};
  if (row == 0) row = region[0];
  if (slice == 0) slice = region[1] * row;
  if (row < region[0] || slice < region[1] * row || (slice % row))
    throw ClError{CL_INVALID_VALUE, ""};
  return Rect{{origin[0], origin[1], origin[2]}, row, slice};
}

size_t rect_end(const Rect& r, const size_t* region) {
  return r.offset(region[1] - 1, region[2] - 1) + region[0];
}

namespace {

// The buffer whose storage a memory object uses, and where the object starts in it.
cl_mem storage_of(cl_mem m, size_t& base) {
  base = m->parent ? m->offset : 0;
  return m->parent ? m->parent : m;
}

} // namespace

bool copy_overlaps(cl_mem a, size_t a_off, cl_mem b, size_t b_off, size_t size) {
  size_t a_base, b_base;
  if (storage_of(a, a_base) != storage_of(b, b_base)) return false;
  const size_t x = a_base + a_off, y = b_base + b_off;
  return x < y + size && y < x + size;
}

bool rect_copy_overlaps(cl_mem a, const Rect& ra, cl_mem b, const Rect& rb, const size_t* region) {
  size_t a_base, b_base;
  if (storage_of(a, a_base) != storage_of(b, b_base)) return false;
  // Each rectangle's rows are increasing and disjoint (pitches are at least the row, slices at
  // least the rows), so one merge-like sweep over both row sequences finds any shared byte.
  const size_t width = region[0], rows = region[1] * region[2];
  auto start = [&](const Rect& r, size_t base, size_t i) {
    return base + r.offset(i % region[1], i / region[1]);
  };
  const size_t a_first = start(ra, a_base, 0), a_last = start(ra, a_base, rows - 1) + width;
  const size_t b_first = start(rb, b_base, 0), b_last = start(rb, b_base, rows - 1) + width;
  if (a_last <= b_first || b_last <= a_first) return false;
  size_t i = 0, j = 0;
  while (i < rows && j < rows) {
    const size_t x = start(ra, a_base, i), y = start(rb, b_base, j);
    if (x < y + width && y < x + width) return true;
    if (x < y)
      ++i;
    else
      ++j;
  }
  return false;
}

} // namespace amcl::rt
