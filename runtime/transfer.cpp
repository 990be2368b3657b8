#include "transfer.h"

#include "hold.h"
#include "host_copy.h"
#include "image.h"
#include "image_transfer.h"
#include "scheduler.h"
#include "staging.h"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <utility>
#include <vector>

namespace amcl::rt {
namespace {

// Whether the region's rows and slices follow one another without gaps in `r`.
bool one_span(const Rect& r, const size_t* region) {
  return (region[1] <= 1 || r.row_pitch == region[0]) &&
         (region[2] <= 1 || r.slice_pitch == region[0] * region[1]);
}

// Device rows <-> host rows. A region that is one span on both sides (whole rows of an image
// whose pitch is its row, to or from packed host memory) is one bulk copy: by DMA of the
// host's pages from 1 MiB, else staged in two halves that overlap the host's copy with the
// engine's. Other regions of 1 MiB and more (a padded image's rows, a map's packed copy of
// them) move between the device and the host's pages as sub-windows of rows (box_copy.h);
// the rest are batched through the staging buffer.
void rect_transfer(cl_command_queue q, cl_mem m, const Rect& dev, const Rect& host,
                   const size_t* region, uint8_t* host_ptr, bool to_device) {
  const uint64_t va = m->va() + dev.offset(0, 0);
  uint8_t* host_first = host_ptr + host.offset(0, 0);
  if (one_span(dev, region) && one_span(host, region)) {
    const size_t bytes = region[0] * region[1] * region[2];
    if (to_device)
      copy_to_device(q, va, host_first, bytes);
    else
      copy_from_device(q, host_first, va, bytes);
    return;
  }
  const size_t span = host.offset(region[1] - 1, region[2] - 1) + region[0] - host.offset(0, 0);
  if (copy_box_direct(*q->device->am, {va, dev.row_pitch, dev.slice_pitch}, host_first,
                      host.row_pitch, host.slice_pitch, span, region, to_device))
    return;
  ensure_staging(q);
  const size_t row_bytes = region[0];
  const size_t rows_per_batch = std::max<size_t>(1, kStagingBytes / row_bytes);
  std::vector<std::pair<size_t, size_t>> rows; // (y, z)
  for (size_t z = 0; z < region[2]; ++z)
    for (size_t y = 0; y < region[1]; ++y) rows.emplace_back(y, z);
  for (size_t first = 0; first < rows.size(); first += rows_per_batch) {
    const size_t count = std::min(rows_per_batch, rows.size() - first);
    // A row wider than the staging buffer goes in pieces.
    for (size_t col = 0; col < row_bytes; col += kStagingBytes) {
      const size_t n = std::min(row_bytes - col, kStagingBytes);
      am::SdmaBuilder b;
      for (size_t i = 0; i < count; ++i) {
        auto [y, z] = rows[first + i];
        uint64_t dva = m->va() + dev.offset(y, z) + col, sva = q->staging.va + i * n;
        if (to_device) {
          std::memcpy(q->staging.cpu + i * n, host_ptr + host.offset(y, z) + col, n);
          b.copy_linear(dva, sva, n);
        } else {
          b.copy_linear(sva, dva, n);
        }
      }
      run_sdma(q, b);
      if (!to_device)
        for (size_t i = 0; i < count; ++i) {
          auto [y, z] = rows[first + i];
          std::memcpy(host_ptr + host.offset(y, z) + col, q->staging.cpu + i * n, n);
        }
    }
  }
}

// Fills with a pattern the caller has checked (a power of two up to 128 bytes dividing offset
// and size).
void fill(cl_command_queue q, cl_mem m, const std::vector<uint8_t>& pat, size_t offset,
          size_t size) {
  const size_t pat_size = pat.size();
  const uint8_t* pat_bytes = pat.data();
  const uint64_t va = m->va() + offset;
  if (pat_size <= 4 && va % 4 == 0 && size % 4 == 0) {
    // Replicate the pattern into one dword and let SDMA fill.
    uint32_t word = 0;
    for (size_t i = 0; i < 4; i += pat_size)
      std::memcpy(reinterpret_cast<uint8_t*>(&word) + i, pat_bytes, pat_size);
    am::SdmaBuilder b;
    b.const_fill(va, word, size);
    run_sdma(q, b);
    return;
  }
  // Otherwise fill the staging buffer with whole patterns and copy it out repeatedly.
  ensure_staging(q);
  const size_t chunk = std::min(size, kStagingBytes / pat_size * pat_size);
  for (size_t i = 0; i < chunk; i += pat_size) std::memcpy(q->staging.cpu + i, pat_bytes, pat_size);
  am::SdmaBuilder b;
  for (size_t done = 0; done < size; done += chunk)
    b.copy_linear(va + done, q->staging.va, std::min(chunk, size - done));
  run_sdma(q, b);
}

} // namespace

cl_event enqueue_write_buffer(cl_command_queue q, cl_mem m, size_t offset, size_t size,
                              const void* ptr, const cl_event* waits, cl_uint nwait,
                              bool blocking) {
  const auto* src = static_cast<const uint8_t*>(ptr);
  return enqueue(
      q, CL_COMMAND_WRITE_BUFFER, waits, nwait,
      [q, mem = Hold(m), offset, size, src] { copy_to_device(q, mem->va() + offset, src, size); },
      blocking);
}

cl_event enqueue_read_buffer(cl_command_queue q, cl_mem m, size_t offset, size_t size, void* ptr,
                             const cl_event* waits, cl_uint nwait, bool blocking) {
  auto* dst = static_cast<uint8_t*>(ptr);
  return enqueue(
      q, CL_COMMAND_READ_BUFFER, waits, nwait,
      [q, mem = Hold(m), offset, size, dst] { copy_from_device(q, dst, mem->va() + offset, size); },
      blocking);
}

cl_event enqueue_copy_buffer(cl_command_queue q, cl_mem src, cl_mem dst, size_t src_off,
                             size_t dst_off, size_t size, const cl_event* waits, cl_uint nwait) {
  return enqueue(
      q, CL_COMMAND_COPY_BUFFER, waits, nwait,
      [q, s = Hold(src), d = Hold(dst), src_off, dst_off, size] {
        am::SdmaBuilder b;
        b.copy_linear(d->va() + dst_off, s->va() + src_off, size);
        run_sdma(q, b);
      },
      false);
}

cl_event enqueue_rect_transfer(cl_command_queue q, cl_mem m, const Rect& dev, const Rect& host,
                               const size_t* region, void* host_ptr, bool to_device,
                               const cl_event* waits, cl_uint nwait, bool blocking,
                               cl_command_type type) {
  std::array<size_t, 3> r = {region[0], region[1], region[2]};
  auto* p = static_cast<uint8_t*>(host_ptr); // only read from when `to_device`
  if (!type) type = to_device ? CL_COMMAND_WRITE_BUFFER_RECT : CL_COMMAND_READ_BUFFER_RECT;
  return enqueue(
      q, type, waits, nwait,
      [q, mem = Hold(m), dev, host, r, p, to_device] {
        rect_transfer(q, mem.get(), dev, host, r.data(), p, to_device);
      },
      blocking);
}

cl_event enqueue_copy_buffer_rect(cl_command_queue q, cl_mem src, cl_mem dst, const Rect& s,
                                  const Rect& d, const size_t* region, const cl_event* waits,
                                  cl_uint nwait, cl_command_type type) {
  std::array<size_t, 3> r = {region[0], region[1], region[2]};
  return enqueue(
      q, type, waits, nwait,
      [q, sm = Hold(src), dm = Hold(dst), s, d, r] {
        am::SdmaBuilder b(q->device->am->sdma_major());
        copy_box(b, {dm->va() + d.offset(0, 0), d.row_pitch, d.slice_pitch},
                 {sm->va() + s.offset(0, 0), s.row_pitch, s.slice_pitch}, r.data());
        run_sdma(q, b);
      },
      false);
}

cl_event enqueue_fill_buffer(cl_command_queue q, cl_mem m, const void* pattern, size_t pattern_size,
                             size_t offset, size_t size, const cl_event* waits, cl_uint nwait) {
  const auto* bytes = static_cast<const uint8_t*>(pattern);
  std::vector<uint8_t> pat(bytes, bytes + pattern_size);
  return enqueue(
      q, CL_COMMAND_FILL_BUFFER, waits, nwait,
      [q, mem = Hold(m), pat, offset, size] { fill(q, mem.get(), pat, offset, size); }, false);
}

Mapped enqueue_map_buffer(cl_command_queue q, cl_mem m, cl_map_flags flags, size_t offset,
                          size_t size, const cl_event* waits, cl_uint nwait, bool blocking) {
  // USE_HOST_PTR buffers map onto the application's own memory; others get a host copy.
  const bool owned = m->host_ptr == nullptr;
  size_t copy_bytes = size;
  uint8_t* ptr = owned ? static_cast<uint8_t*>(alloc_host_copy(copy_bytes))
                       : static_cast<uint8_t*>(m->host_ptr) + offset;
  if (!ptr) throw ClError{CL_OUT_OF_HOST_MEMORY, ""};
  {
    std::lock_guard lock(m->map_mutex);
    m->maps.push_back({ptr, offset, size, flags, owned});
    ++m->map_count;
  }
  std::function<void()> work;
  if (!(flags & CL_MAP_WRITE_INVALIDATE_REGION))
    work = [q, mem = Hold(m), ptr, offset, size] {
      copy_from_device(q, ptr, mem->va() + offset, size);
    };
  try {
    return {ptr, enqueue(q, CL_COMMAND_MAP_BUFFER, waits, nwait, std::move(work), blocking)};
  } catch (const ClError&) {
    throw ClError{CL_MAP_FAILURE, ""};
  }
}

cl_event enqueue_unmap(cl_command_queue q, cl_mem m, void* mapped, const cl_event* waits,
                       cl_uint nwait) {
  _cl_mem::Mapping map;
  {
    std::lock_guard lock(m->map_mutex);
    auto it =
        std::find_if(m->maps.begin(), m->maps.end(), [&](auto& x) { return x.ptr == mapped; });
    if (it == m->maps.end()) throw ClError{CL_INVALID_VALUE, ""};
    map = *it;
    m->maps.erase(it);
    --m->map_count;
  }
  // The host copy lives until the command has run (or been dropped).
  std::shared_ptr<void> host(map.ptr, [mem = Hold(m), map](void* p) {
    if (map.owned && map.image)
      keep_map_copy(mem.get(), p, map.size);
    else if (map.owned)
      std::free(p);
  });
  const bool write_back = map.flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION);
  if (write_back) note_written(m);
  return enqueue(
      q, CL_COMMAND_UNMAP_MEM_OBJECT, waits, nwait,
      [q, mem = Hold(m), host, map, write_back] {
        if (!write_back) return;
        if (map.image) { // the mapped texels' rows (image_transfer.h)
          const size_t es = mem->image->element_size;
          const size_t bytes[3] = {map.region[0] * es, map.region[1], map.region[2]};
          const bool layers_are_rows = mem->image->desc.image_type == CL_MEM_OBJECT_IMAGE1D_ARRAY;
          const Rect h{
              {0, 0, 0}, layers_are_rows ? map.slice_pitch : map.row_pitch, map.slice_pitch};
          rect_transfer(q, mem.get(), image_device_rect(mem.get(), map.origin), h, bytes,
                        static_cast<uint8_t*>(host.get()), true);
          return;
        }
        copy_to_device(q, mem->va() + map.offset, static_cast<const uint8_t*>(host.get()),
                       map.size);
      },
      false);
}

} // namespace amcl::rt
