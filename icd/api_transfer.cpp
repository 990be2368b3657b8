// Buffer transfers beyond plain read/write/copy: fill, map/unmap, rectangular copies, and
// sub-buffers.
#include "api_util.h"
#include "buffer_geometry.h"
#include "enqueue.h"

#include <algorithm>
#include <array>
#include <memory>
#include <cstdlib>
#include <cstring>

using namespace amcl;
using namespace amcl::icd;

namespace {

// Device rows <-> host rows, batched through the staging buffer.
void rect_transfer(cl_command_queue q, cl_mem m, const Rect& dev, const Rect& host,
                   const size_t* region, uint8_t* host_ptr, bool to_device) {
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

bool valid_pattern_size(size_t s) {
  return s == 1 || s == 2 || s == 4 || s == 8 || s == 16 || s == 32 || s == 64 || s == 128;
}

// clEnqueueReadBufferRect and clEnqueueWriteBufferRect: the same checks and transfer, in
// opposite directions.
cl_int enqueue_rect(cl_command_queue q, cl_mem m, cl_bool blocking, const size_t* buffer_origin,
                    const size_t* host_origin, const size_t* region, size_t buffer_row_pitch,
                    size_t buffer_slice_pitch, size_t host_row_pitch, size_t host_slice_pitch, uint8_t* p,
                    cl_uint nwait, const cl_event* wait, cl_event* event, bool to_device) {
  return guarded([&] {
    Rect dev = make_rect(buffer_origin, region, buffer_row_pitch, buffer_slice_pitch);
    Rect host = make_rect(host_origin, region, host_row_pitch, host_slice_pitch);
    check_host_transfer(q, m, 0, rect_end(dev, region), p, nwait, wait,
                        (to_device ? CL_MEM_HOST_READ_ONLY : CL_MEM_HOST_WRITE_ONLY) | CL_MEM_HOST_NO_ACCESS);
    std::array<size_t, 3> r = {region[0], region[1], region[2]};
    return submit(q, to_device ? CL_COMMAND_WRITE_BUFFER_RECT : CL_COMMAND_READ_BUFFER_RECT, nwait, wait, event,
                  [q, mem = Hold(m), dev, host, r, p, to_device] {
                    rect_transfer(q, mem.get(), dev, host, r.data(), p, to_device);
                  },
                  blocking);
  });
}

} // namespace

extern "C" {

cl_int CL_API_CALL clEnqueueFillBuffer(cl_command_queue q, cl_mem m, const void* pattern,
                                       size_t pattern_size, size_t offset, size_t size,
                                       cl_uint nwait, const cl_event* wait, cl_event* event) {
  return guarded([&] {
    require(q, CL_INVALID_COMMAND_QUEUE);
    check_buffer_range(m, offset, size);
    if (m->context != q->context) throw ClError{CL_INVALID_CONTEXT, ""};
    if (!pattern || !valid_pattern_size(pattern_size) || offset % pattern_size || size % pattern_size)
      throw ClError{CL_INVALID_VALUE, ""};
    check_wait_list(q, nwait, wait);
    std::vector<uint8_t> pat(static_cast<const uint8_t*>(pattern), static_cast<const uint8_t*>(pattern) + pattern_size);
    return submit(q, CL_COMMAND_FILL_BUFFER, nwait, wait, event, [q, mem = Hold(m), pat, offset, size] {
      const size_t pat_size = pat.size();
      const uint8_t* pat_bytes = pat.data();
      const uint64_t va = mem->va() + offset;
      if (pat_size <= 4 && va % 4 == 0 && size % 4 == 0) {
        // Replicate the pattern into one dword and let SDMA fill.
        uint32_t word = 0;
        for (size_t i = 0; i < 4; i += pat_size) std::memcpy(reinterpret_cast<uint8_t*>(&word) + i, pat_bytes, pat_size);
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
      for (size_t done = 0; done < size; done += chunk) b.copy_linear(va + done, q->staging.va, std::min(chunk, size - done));
      run_sdma(q, b);
    }, false);
  });
}

void* CL_API_CALL clEnqueueMapBuffer(cl_command_queue q, cl_mem m, cl_bool blocking, cl_map_flags flags,
                                     size_t offset, size_t size, cl_uint nwait, const cl_event* wait,
                                     cl_event* event, cl_int* errcode_ret) {
  return create<void*>(errcode_ret, [&]() -> void* {
    require(q, CL_INVALID_COMMAND_QUEUE);
    check_buffer_range(m, offset, size);
    if (size == 0) throw ClError{CL_INVALID_VALUE, ""};
    if (m->context != q->context) throw ClError{CL_INVALID_CONTEXT, ""};
    const cl_map_flags known = CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION;
    if ((flags & ~known) ||
        ((flags & CL_MAP_WRITE_INVALIDATE_REGION) && (flags & (CL_MAP_READ | CL_MAP_WRITE))))
      throw ClError{CL_INVALID_VALUE, ""};
    if ((flags & CL_MAP_READ) && (m->flags & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS)))
      throw ClError{CL_INVALID_OPERATION, ""};
    if ((flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) &&
        (m->flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS)))
      throw ClError{CL_INVALID_OPERATION, ""};
    check_wait_list(q, nwait, wait);
    // USE_HOST_PTR buffers map onto the application's own memory; others get a host copy.
    const bool owned = m->host_ptr == nullptr;
    uint8_t* ptr = owned ? static_cast<uint8_t*>(std::malloc(size))
                         : static_cast<uint8_t*>(m->host_ptr) + offset;
    if (!ptr) throw ClError{CL_OUT_OF_HOST_MEMORY, ""};
    {
      std::lock_guard lock(m->map_mutex);
      m->maps.push_back({ptr, offset, size, flags, owned});
      ++m->map_count;
    }
    std::function<void()> work;
    if (!(flags & CL_MAP_WRITE_INVALIDATE_REGION))
      work = [q, mem = Hold(m), ptr, offset, size] { copy_from_device(q, ptr, mem->va() + offset, size); };
    try {
      submit(q, CL_COMMAND_MAP_BUFFER, nwait, wait, event, std::move(work), blocking);
    } catch (const ClError&) {
      throw ClError{CL_MAP_FAILURE, ""};
    }
    return ptr;
  });
}

cl_int CL_API_CALL clEnqueueUnmapMemObject(cl_command_queue q, cl_mem m, void* mapped, cl_uint nwait,
                                           const cl_event* wait, cl_event* event) {
  return guarded([&] {
    require(q, CL_INVALID_COMMAND_QUEUE);
    require(m, CL_INVALID_MEM_OBJECT);
    if (m->context != q->context) throw ClError{CL_INVALID_CONTEXT, ""};
    check_wait_list(q, nwait, wait);
    _cl_mem::Mapping map;
    {
      std::lock_guard lock(m->map_mutex);
      auto it = std::find_if(m->maps.begin(), m->maps.end(), [&](auto& x) { return x.ptr == mapped; });
      if (it == m->maps.end()) throw ClError{CL_INVALID_VALUE, ""};
      map = *it;
      m->maps.erase(it);
      --m->map_count;
    }
    // The host copy lives until the command has run (or been dropped).
    std::shared_ptr<void> host(map.ptr, map.owned ? [](void* p) { std::free(p); } : [](void*) {});
    const bool write_back = map.flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION);
    return submit(q, CL_COMMAND_UNMAP_MEM_OBJECT, nwait, wait, event,
                  [q, mem = Hold(m), host, map, write_back] {
                    if (write_back)
                      copy_to_device(q, mem->va() + map.offset, static_cast<const uint8_t*>(host.get()), map.size);
                  },
                  false);
  });
}

cl_int CL_API_CALL clEnqueueReadBufferRect(cl_command_queue q, cl_mem m, cl_bool blocking, const size_t* buffer_origin,
                                           const size_t* host_origin, const size_t* region,
                                           size_t buffer_row_pitch, size_t buffer_slice_pitch,
                                           size_t host_row_pitch, size_t host_slice_pitch, void* ptr,
                                           cl_uint nwait, const cl_event* wait, cl_event* event) {
  return enqueue_rect(q, m, blocking, buffer_origin, host_origin, region, buffer_row_pitch, buffer_slice_pitch,
                      host_row_pitch, host_slice_pitch, static_cast<uint8_t*>(ptr), nwait, wait, event, false);
}

cl_int CL_API_CALL clEnqueueWriteBufferRect(cl_command_queue q, cl_mem m, cl_bool blocking, const size_t* buffer_origin,
                                            const size_t* host_origin, const size_t* region,
                                            size_t buffer_row_pitch, size_t buffer_slice_pitch,
                                            size_t host_row_pitch, size_t host_slice_pitch, const void* ptr,
                                            cl_uint nwait, const cl_event* wait, cl_event* event) {
  // Only read from: rect_transfer copies host rows out when `to_device`.
  return enqueue_rect(q, m, blocking, buffer_origin, host_origin, region, buffer_row_pitch, buffer_slice_pitch,
                      host_row_pitch, host_slice_pitch, const_cast<uint8_t*>(static_cast<const uint8_t*>(ptr)), nwait,
                      wait, event, true);
}

cl_int CL_API_CALL clEnqueueCopyBufferRect(cl_command_queue q, cl_mem src, cl_mem dst, const size_t* src_origin,
                                           const size_t* dst_origin, const size_t* region, size_t src_row_pitch,
                                           size_t src_slice_pitch, size_t dst_row_pitch, size_t dst_slice_pitch,
                                           cl_uint nwait, const cl_event* wait, cl_event* event) {
  return guarded([&] {
    require(q, CL_INVALID_COMMAND_QUEUE);
    Rect s = make_rect(src_origin, region, src_row_pitch, src_slice_pitch);
    Rect d = make_rect(dst_origin, region, dst_row_pitch, dst_slice_pitch);
    check_buffer_range(src, 0, rect_end(s, region));
    check_buffer_range(dst, 0, rect_end(d, region));
    if (src->context != q->context || dst->context != q->context) throw ClError{CL_INVALID_CONTEXT, ""};
    if (src == dst && (src_row_pitch != dst_row_pitch || src_slice_pitch != dst_slice_pitch))
      throw ClError{CL_INVALID_VALUE, ""};
    if (rect_copy_overlaps(src, s, dst, d, region)) throw ClError{CL_MEM_COPY_OVERLAP, ""};
    check_wait_list(q, nwait, wait);
    std::array<size_t, 3> r = {region[0], region[1], region[2]};
    return submit(q, CL_COMMAND_COPY_BUFFER_RECT, nwait, wait, event,
                  [q, sm = Hold(src), dm = Hold(dst), s, d, r] {
                    am::SdmaBuilder b;
                    for (size_t z = 0; z < r[2]; ++z)
                      for (size_t y = 0; y < r[1]; ++y)
                        b.copy_linear(dm->va() + d.offset(y, z), sm->va() + s.offset(y, z), r[0]);
                    run_sdma(q, b);
                  },
                  false);
  });
}

cl_mem CL_API_CALL clCreateSubBuffer(cl_mem parent, cl_mem_flags flags, cl_buffer_create_type type,
                                     const void* info, cl_int* errcode_ret) {
  return create<cl_mem>(errcode_ret, [&]() -> cl_mem {
    require(parent, CL_INVALID_MEM_OBJECT);
    if (parent->parent) throw ClError{CL_INVALID_MEM_OBJECT, ""};
    if (type != CL_BUFFER_CREATE_TYPE_REGION || !info) throw ClError{CL_INVALID_VALUE, ""};
    const auto* region = static_cast<const cl_buffer_region*>(info);
    if (region->size == 0) throw ClError{CL_INVALID_BUFFER_SIZE, ""};
    if (region->origin > parent->size || region->size > parent->size - region->origin)
      throw ClError{CL_INVALID_VALUE, ""};
    cl_uint align_bits = 0;
    clGetDeviceInfo(parent->context->devices[0], CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof align_bits, &align_bits, nullptr);
    if (region->origin % (align_bits / 8)) throw ClError{CL_MISALIGNED_SUB_BUFFER_OFFSET, ""};
    // Access flags are inherited unless given, and may not widen the parent's.
    const cl_mem_flags access = CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY;
    const cl_mem_flags host = CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS;
    if (flags & ~(access | host)) throw ClError{CL_INVALID_VALUE, ""};
    if (((parent->flags & CL_MEM_WRITE_ONLY) && (flags & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY))) ||
        ((parent->flags & CL_MEM_READ_ONLY) && (flags & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY))) ||
        ((parent->flags & CL_MEM_HOST_WRITE_ONLY) && (flags & CL_MEM_HOST_READ_ONLY)) ||
        ((parent->flags & CL_MEM_HOST_READ_ONLY) && (flags & CL_MEM_HOST_WRITE_ONLY)) ||
        ((parent->flags & CL_MEM_HOST_NO_ACCESS) && (flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY))))
      throw ClError{CL_INVALID_VALUE, ""};
    auto m = std::make_unique<_cl_mem>();
    m->context = parent->context;
    rt::retain(m->context);
    m->parent = parent;
    rt::retain(parent);
    m->offset = region->origin;
    m->size = region->size;
    m->flags = (flags & access ? flags & access : parent->flags & access) |
               (flags & host ? flags & host : parent->flags & host) |
               (parent->flags & (CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR));
    if (parent->host_ptr) m->host_ptr = static_cast<uint8_t*>(parent->host_ptr) + region->origin;
    return m.release();
  });
}

cl_int CL_API_CALL clEnqueueMigrateMemObjects(cl_command_queue q, cl_uint n, const cl_mem* objs,
                                              cl_mem_migration_flags flags, cl_uint nwait,
                                              const cl_event* wait, cl_event* event) {
  return guarded([&] {
    require(q, CL_INVALID_COMMAND_QUEUE);
    if (n == 0 || !objs) throw ClError{CL_INVALID_VALUE, ""};
    if (flags & ~cl_mem_migration_flags(CL_MIGRATE_MEM_OBJECT_HOST | CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED))
      throw ClError{CL_INVALID_VALUE, ""};
    for (cl_uint i = 0; i < n; ++i) {
      require(objs[i], CL_INVALID_MEM_OBJECT);
      if (objs[i]->context != q->context) throw ClError{CL_INVALID_CONTEXT, ""};
    }
    check_wait_list(q, nwait, wait);
    // Buffers live on the context's one device already: nothing moves.
    return submit(q, CL_COMMAND_MIGRATE_MEM_OBJECTS, nwait, wait, event, nullptr, false);
  });
}

} // extern "C"
