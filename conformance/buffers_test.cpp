// Buffer objects through the ICD loader, after the CTS "buffers" suite: creation with every flag
// combination, what USE/COPY_HOST_PTR promise, sub-buffers and their alignment rules, fill,
// copy overlap, map/unmap (blocking, non-blocking, overlapping maps), migration, destructor
// callbacks and clGetMemObjectInfo. The error codes are the OpenCL 3.0 specification's.
#include "cl_helpers.h"

#include <sys/mman.h>

#include <algorithm>
#include <cstdlib>
#include <numeric>
#include <thread>
#include <vector>

using amcl_test::Env;
using amcl_test::device_info;
using amcl_test::mem_info;

namespace {

const char* kAdd = R"CL(
__kernel void add(__global uint* b, uint v) { b[get_global_id(0)] += v; }
)CL";

// Adds `v` to the first `n` words of `m` on the device and waits.
void add_on_device(Env& env, cl_kernel k, cl_mem m, size_t n, cl_uint v) {
  ASSERT_EQ(clSetKernelArg(k, 0, sizeof m, &m), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(k, 1, sizeof v, &v), CL_SUCCESS);
  ASSERT_EQ(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, &n, nullptr, 0, nullptr, nullptr),
            CL_SUCCESS);
  ASSERT_EQ(clFinish(env.queue), CL_SUCCESS);
}

std::vector<cl_uint> read_words(Env& env, cl_mem m, size_t n, size_t offset_words = 0) {
  std::vector<cl_uint> out(n, 0xdeadbeef);
  EXPECT_EQ(clEnqueueReadBuffer(env.queue, m, CL_TRUE, offset_words * 4, n * 4, out.data(), 0,
                                nullptr, nullptr),
            CL_SUCCESS);
  return out;
}

std::vector<cl_uint> iota_words(size_t n, cl_uint first = 0) {
  std::vector<cl_uint> v(n);
  std::iota(v.begin(), v.end(), first);
  return v;
}

} // namespace

// Every combination the specification allows creates a buffer holding what it was given; every
// combination it forbids is CL_INVALID_VALUE.
TEST(Buffers, EveryFlagCombination) {
  Env env;
  ASSERT_NE(env.queue, nullptr);
  const cl_mem_flags access[] = {0, CL_MEM_READ_WRITE, CL_MEM_READ_ONLY, CL_MEM_WRITE_ONLY};
  const cl_mem_flags host_ptr_use[] = {0,
                                       CL_MEM_USE_HOST_PTR,
                                       CL_MEM_ALLOC_HOST_PTR,
                                       CL_MEM_COPY_HOST_PTR,
                                       CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR,
                                       CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR,
                                       CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR};
  const cl_mem_flags host_access[] = {0, CL_MEM_HOST_WRITE_ONLY, CL_MEM_HOST_READ_ONLY,
                                      CL_MEM_HOST_NO_ACCESS,
                                      CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY};
  std::vector<cl_uint> init = iota_words(64, 100);
  int created = 0, refused = 0;
  for (cl_mem_flags a : access)
    for (cl_mem_flags u : host_ptr_use)
      for (cl_mem_flags h : host_access) {
        cl_mem_flags flags = a | u | h;
        bool bad_use =
            (u & CL_MEM_USE_HOST_PTR) && (u & (CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR));
        bool bad_host = __builtin_popcountll(h) > 1;
        bool needs_ptr = u & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR);
        std::vector<cl_uint> host = init;
        cl_int err = 1;
        cl_mem m = clCreateBuffer(env.context, flags, host.size() * 4,
                                  needs_ptr ? host.data() : nullptr, &err);
        if (bad_use || bad_host) {
          EXPECT_EQ(err, CL_INVALID_VALUE) << std::hex << flags;
          EXPECT_EQ(m, nullptr);
          ++refused;
          continue;
        }
        ASSERT_EQ(err, CL_SUCCESS) << std::hex << flags;
        ++created;
        EXPECT_EQ(mem_info<cl_mem_flags>(m, CL_MEM_FLAGS),
                  flags == 0 ? cl_mem_flags(CL_MEM_READ_WRITE) : flags);
        EXPECT_EQ(mem_info<void*>(m, CL_MEM_HOST_PTR),
                  (u & CL_MEM_USE_HOST_PTR) ? host.data() : nullptr);
        if (needs_ptr && !(h & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS)))
          EXPECT_EQ(read_words(env, m, host.size()), init) << std::hex << flags;
        EXPECT_EQ(clReleaseMemObject(m), CL_SUCCESS);
      }
  EXPECT_EQ(created, 4 * 5 * 4); // access x {none, USE, ALLOC, COPY, ALLOC|COPY} x host access
  EXPECT_EQ(refused, 4 * 7 * 5 - created);
}

TEST(Buffers, CreationErrors) {
  Env env;
  ASSERT_NE(env.queue, nullptr);
  cl_uint word = 7;
  cl_int err = 1;
  EXPECT_EQ(clCreateBuffer(env.context, CL_MEM_READ_WRITE, 0, nullptr, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_BUFFER_SIZE);
  const auto max_alloc = device_info<cl_ulong>(env.device, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
  EXPECT_EQ(clCreateBuffer(env.context, CL_MEM_READ_WRITE, max_alloc + 1, nullptr, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_BUFFER_SIZE);
  // A host pointer without USE/COPY_HOST_PTR, or those flags without one.
  EXPECT_EQ(clCreateBuffer(env.context, CL_MEM_READ_WRITE, 4, &word, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_HOST_PTR);
  EXPECT_EQ(clCreateBuffer(env.context, CL_MEM_USE_HOST_PTR, 4, nullptr, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_HOST_PTR);
  EXPECT_EQ(clCreateBuffer(env.context, CL_MEM_COPY_HOST_PTR, 4, nullptr, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_HOST_PTR);
  // Bits no buffer flag uses (CL_MEM_KERNEL_READ_AND_WRITE is for image formats only).
  EXPECT_EQ(clCreateBuffer(env.context, cl_mem_flags(1) << 40, 4, nullptr, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_VALUE);
  EXPECT_EQ(clCreateBuffer(env.context, CL_MEM_KERNEL_READ_AND_WRITE, 4, nullptr, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_VALUE);
  EXPECT_EQ(clCreateBuffer(nullptr, CL_MEM_READ_WRITE, 4, nullptr, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_CONTEXT);
  // errcode_ret may be NULL.
  EXPECT_EQ(clCreateBuffer(env.context, CL_MEM_READ_WRITE, 0, nullptr, nullptr), nullptr);
}

// USE_HOST_PTR: the host memory holds the latest bits once mapped, and the map returns a pointer
// into it. COPY_HOST_PTR: the buffer is a copy, the host memory is not touched again.
TEST(Buffers, UseAndCopyHostPtrSemantics) {
  Env env;
  ASSERT_NE(env.queue, nullptr);
  cl_kernel k = env.kernel(kAdd, "add");
  ASSERT_NE(k, nullptr);
  const size_t n = 1024;
  std::vector<cl_uint> used = iota_words(n), copied = iota_words(n);
  cl_int err;
  cl_mem use = clCreateBuffer(env.context, CL_MEM_USE_HOST_PTR, n * 4, used.data(), &err);
  ASSERT_EQ(err, CL_SUCCESS);
  cl_mem copy = clCreateBuffer(env.context, CL_MEM_COPY_HOST_PTR, n * 4, copied.data(), &err);
  ASSERT_EQ(err, CL_SUCCESS);
  copied[5] = 999; // after creation: the buffer must not see it
  add_on_device(env, k, use, n, 1000);
  add_on_device(env, k, copy, n, 1000);
  EXPECT_EQ(read_words(env, copy, n)[5], 1005u);
  EXPECT_EQ(copied[5], 999u);
  auto* p = static_cast<cl_uint*>(
      clEnqueueMapBuffer(env.queue, use, CL_TRUE, CL_MAP_READ, 16, 64, 0, nullptr, nullptr, &err));
  ASSERT_EQ(err, CL_SUCCESS);
  EXPECT_EQ(p, used.data() + 4) << "a map of a USE_HOST_PTR buffer is derived from host_ptr";
  for (size_t i = 0; i < 16; ++i) EXPECT_EQ(p[i], 1004 + i);
  ASSERT_EQ(clEnqueueUnmapMemObject(env.queue, use, p, 0, nullptr, nullptr), CL_SUCCESS);
  // A host write to the region, then a map for writing, makes it the buffer's content.
  p = static_cast<cl_uint*>(clEnqueueMapBuffer(env.queue, use, CL_TRUE, CL_MAP_WRITE, 0, n * 4, 0,
                                               nullptr, nullptr, &err));
  ASSERT_EQ(err, CL_SUCCESS);
  p[7] = 77;
  ASSERT_EQ(clEnqueueUnmapMemObject(env.queue, use, p, 0, nullptr, nullptr), CL_SUCCESS);
  EXPECT_EQ(read_words(env, use, n)[7], 77u);
  clReleaseMemObject(use);
  clReleaseMemObject(copy);
  clReleaseKernel(k);
}

TEST(Buffers, SubBuffersShareTheParentsStorage) {
  Env env;
  ASSERT_NE(env.queue, nullptr);
  cl_kernel k = env.kernel(kAdd, "add");
  ASSERT_NE(k, nullptr);
  const size_t align = env.sub_buffer_align();
  ASSERT_GE(align, 128u);
  const size_t n = 4 * align / 4; // four alignment units of words
  std::vector<cl_uint> host = iota_words(n);
  cl_int err;
  cl_mem parent = clCreateBuffer(env.context, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, n * 4,
                                 host.data(), &err);
  ASSERT_EQ(err, CL_SUCCESS);
  cl_buffer_region region{align, align};
  cl_mem sub = clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  EXPECT_EQ(mem_info<cl_mem>(sub, CL_MEM_ASSOCIATED_MEMOBJECT), parent);
  EXPECT_EQ(mem_info<size_t>(sub, CL_MEM_OFFSET), align);
  EXPECT_EQ(mem_info<size_t>(sub, CL_MEM_SIZE), align);
  EXPECT_EQ(mem_info<void*>(sub, CL_MEM_HOST_PTR), static_cast<void*>(host.data() + align / 4));
  // Inherited flags: access and host-pointer use come from the parent.
  EXPECT_EQ(mem_info<cl_mem_flags>(sub, CL_MEM_FLAGS) & (CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR),
            cl_mem_flags(CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR));
  // A kernel given the sub-buffer sees its first word at the region's origin.
  add_on_device(env, k, sub, align / 4, 1000);
  std::vector<cl_uint> all = read_words(env, parent, n);
  for (size_t i = 0; i < n; ++i) {
    bool inside = i >= align / 4 && i < align / 2;
    ASSERT_EQ(all[i], i + (inside ? 1000 : 0)) << i;
  }
  // Reads and writes through the sub-buffer land in the parent.
  cl_uint word = 4242;
  ASSERT_EQ(clEnqueueWriteBuffer(env.queue, sub, CL_TRUE, 8, 4, &word, 0, nullptr, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(read_words(env, parent, 1, align / 4 + 2)[0], 4242u);
  EXPECT_EQ(read_words(env, sub, 1, 2)[0], 4242u);
  // The sub-buffer keeps its parent alive.
  ASSERT_EQ(clReleaseMemObject(parent), CL_SUCCESS);
  add_on_device(env, k, sub, 1, 1);
  EXPECT_EQ(read_words(env, sub, 1)[0], align / 4 + 1001);
  clReleaseMemObject(sub);
  clReleaseKernel(k);
}

TEST(Buffers, SubBufferRules) {
  Env env;
  ASSERT_NE(env.queue, nullptr);
  const size_t align = env.sub_buffer_align();
  cl_int err;
  cl_mem parent = clCreateBuffer(env.context, CL_MEM_READ_ONLY | CL_MEM_HOST_READ_ONLY, 4 * align,
                                 nullptr, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  auto sub_error = [&](cl_mem of, cl_mem_flags flags, size_t origin, size_t size,
                       cl_buffer_create_type type = CL_BUFFER_CREATE_TYPE_REGION) {
    cl_buffer_region region{origin, size};
    cl_int e = 1;
    cl_mem s = clCreateSubBuffer(of, flags, type, &region, &e);
    if (s) clReleaseMemObject(s);
    return e;
  };
  EXPECT_EQ(sub_error(parent, 0, 0, align), CL_SUCCESS);
  EXPECT_EQ(sub_error(parent, 0, 3 * align, align), CL_SUCCESS);
  EXPECT_EQ(sub_error(parent, 0, align / 2, 16), CL_MISALIGNED_SUB_BUFFER_OFFSET);
  EXPECT_EQ(sub_error(parent, 0, 3 * align, align + 1), CL_INVALID_VALUE); // past the end
  EXPECT_EQ(sub_error(parent, 0, 8 * align, 4), CL_INVALID_VALUE);         // origin past the end
  EXPECT_EQ(sub_error(parent, 0, ~size_t(0) - 3, 8), CL_INVALID_VALUE);    // wraps around
  EXPECT_EQ(sub_error(parent, 0, 0, 0), CL_INVALID_BUFFER_SIZE);
  EXPECT_EQ(sub_error(parent, 0, 0, 4, 0x5555), CL_INVALID_VALUE); // unknown create type
  // Access the parent does not allow, and flags only creation may use.
  EXPECT_EQ(sub_error(parent, CL_MEM_READ_WRITE, 0, align), CL_INVALID_VALUE);
  EXPECT_EQ(sub_error(parent, CL_MEM_WRITE_ONLY, 0, align), CL_INVALID_VALUE);
  EXPECT_EQ(sub_error(parent, CL_MEM_HOST_WRITE_ONLY, 0, align), CL_INVALID_VALUE);
  EXPECT_EQ(sub_error(parent, CL_MEM_HOST_NO_ACCESS, 0, align), CL_SUCCESS); // narrower is fine
  EXPECT_EQ(sub_error(parent, CL_MEM_USE_HOST_PTR, 0, align), CL_INVALID_VALUE);
  EXPECT_EQ(sub_error(parent, CL_MEM_ALLOC_HOST_PTR, 0, align), CL_INVALID_VALUE);
  EXPECT_EQ(sub_error(parent, CL_MEM_COPY_HOST_PTR, 0, align), CL_INVALID_VALUE);
  // Flags the table makes mutually exclusive, each allowed on its own.
  EXPECT_EQ(sub_error(parent, CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS, 0, align),
            CL_INVALID_VALUE);
  EXPECT_EQ(sub_error(nullptr, 0, 0, align), CL_INVALID_MEM_OBJECT);
  // The region pointer itself.
  EXPECT_EQ(clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, nullptr, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_VALUE);
  // No sub-buffer of a sub-buffer.
  cl_buffer_region region{0, align};
  cl_mem sub = clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  EXPECT_EQ(mem_info<cl_mem_flags>(sub, CL_MEM_FLAGS) & (CL_MEM_READ_ONLY | CL_MEM_HOST_READ_ONLY),
            cl_mem_flags(CL_MEM_READ_ONLY | CL_MEM_HOST_READ_ONLY));
  EXPECT_EQ(sub_error(sub, 0, 0, 16), CL_INVALID_MEM_OBJECT);
  clReleaseMemObject(sub);
  clReleaseMemObject(parent);
}

TEST(Buffers, FillWithEveryPatternSize) {
  Env env;
  ASSERT_NE(env.queue, nullptr);
  const size_t bytes = 4096;
  cl_mem m = env.buffer(bytes);
  for (size_t pattern_size = 1; pattern_size <= 128; pattern_size *= 2) {
    std::vector<uint8_t> pattern(pattern_size);
    for (size_t i = 0; i < pattern_size; ++i) pattern[i] = uint8_t(0x11 * pattern_size + i);
    std::vector<uint8_t> zero(bytes, 0);
    ASSERT_EQ(
        clEnqueueWriteBuffer(env.queue, m, CL_TRUE, 0, bytes, zero.data(), 0, nullptr, nullptr),
        CL_SUCCESS);
    const size_t offset = pattern_size * 3, size = pattern_size * 5;
    ASSERT_EQ(clEnqueueFillBuffer(env.queue, m, pattern.data(), pattern_size, offset, size, 0,
                                  nullptr, nullptr),
              CL_SUCCESS);
    std::vector<uint8_t> out(bytes, 0xcd);
    ASSERT_EQ(clEnqueueReadBuffer(env.queue, m, CL_TRUE, 0, bytes, out.data(), 0, nullptr, nullptr),
              CL_SUCCESS);
    for (size_t i = 0; i < bytes; ++i) {
      uint8_t want = (i >= offset && i < offset + size) ? pattern[(i - offset) % pattern_size] : 0;
      ASSERT_EQ(out[i], want) << "pattern size " << pattern_size << " byte " << i;
    }
  }
  cl_uint pattern = 1;
  auto fill = [&](const void* p, size_t psize, size_t offset, size_t size) {
    return clEnqueueFillBuffer(env.queue, m, p, psize, offset, size, 0, nullptr, nullptr);
  };
  EXPECT_EQ(fill(&pattern, 3, 0, 6), CL_INVALID_VALUE); // not a power of two
  EXPECT_EQ(fill(&pattern, 0, 0, 4), CL_INVALID_VALUE);
  EXPECT_EQ(fill(&pattern, 256, 0, 256), CL_INVALID_VALUE); // larger than the largest type
  EXPECT_EQ(fill(nullptr, 4, 0, 4), CL_INVALID_VALUE);
  EXPECT_EQ(fill(&pattern, 4, 2, 4), CL_INVALID_VALUE); // offset not a multiple
  EXPECT_EQ(fill(&pattern, 4, 0, 6), CL_INVALID_VALUE); // size not a multiple
  EXPECT_EQ(fill(&pattern, 4, bytes - 4, 8), CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueFillBuffer(env.queue, nullptr, &pattern, 4, 0, 4, 0, nullptr, nullptr),
            CL_INVALID_MEM_OBJECT);
  clReleaseMemObject(m);
}

TEST(Buffers, CopiesAndTheirOverlapRules) {
  Env env;
  ASSERT_NE(env.queue, nullptr);
  const size_t align = env.sub_buffer_align();
  const size_t n = align; // words: four alignment units of bytes
  std::vector<cl_uint> init = iota_words(n);
  cl_mem a = env.buffer(n * 4, init.data());
  cl_mem b = env.buffer(n * 4);
  auto copy = [&](cl_mem s, cl_mem d, size_t so, size_t dof, size_t size) {
    return clEnqueueCopyBuffer(env.queue, s, d, so, dof, size, 0, nullptr, nullptr);
  };
  ASSERT_EQ(copy(a, b, 0, 0, n * 4), CL_SUCCESS);
  // Within one buffer, disjoint ranges are fine; overlapping ones are CL_MEM_COPY_OVERLAP.
  ASSERT_EQ(copy(b, b, 0, n * 2, n * 2), CL_SUCCESS);
  std::vector<cl_uint> want = init;
  for (size_t i = 0; i < n / 2; ++i) want[n / 2 + i] = init[i];
  EXPECT_EQ(read_words(env, b, n), want);
  EXPECT_EQ(copy(b, b, 0, 4, 8), CL_MEM_COPY_OVERLAP);
  EXPECT_EQ(copy(b, b, 8, 4, 8), CL_MEM_COPY_OVERLAP);
  EXPECT_EQ(copy(b, b, 0, 0, 4), CL_MEM_COPY_OVERLAP);
  // Sub-buffers of one parent whose ranges overlap in the parent.
  cl_buffer_region r0{0, 2 * align}, r1{align, 2 * align};
  cl_int err;
  cl_mem s0 = clCreateSubBuffer(b, 0, CL_BUFFER_CREATE_TYPE_REGION, &r0, &err);
  cl_mem s1 = clCreateSubBuffer(b, 0, CL_BUFFER_CREATE_TYPE_REGION, &r1, &err);
  // (s0 is the parent's [0, 2a), s1 its [a, 3a); what counts is the bytes copied.)
  EXPECT_EQ(copy(s0, s1, 0, 0, align), CL_SUCCESS);                  // [0, a) -> [a, 2a)
  EXPECT_EQ(copy(s0, s1, align, 0, align), CL_MEM_COPY_OVERLAP);     // [a, 2a) -> [a, 2a)
  EXPECT_EQ(copy(s1, s0, 0, align / 2, align), CL_MEM_COPY_OVERLAP); // [a, 2a) -> [a/2, 3a/2)
  EXPECT_EQ(copy(s0, b, 0, 3 * align, align), CL_SUCCESS);           // a sub-buffer and its parent
  EXPECT_EQ(copy(s0, b, 0, align / 2, align), CL_MEM_COPY_OVERLAP);
  // Out of bounds.
  EXPECT_EQ(copy(a, b, 4, 0, n * 4), CL_INVALID_VALUE);
  EXPECT_EQ(copy(a, b, 0, 4, n * 4), CL_INVALID_VALUE);
  EXPECT_EQ(copy(a, b, 0, 0, 0), CL_INVALID_VALUE);
  EXPECT_EQ(copy(a, nullptr, 0, 0, 4), CL_INVALID_MEM_OBJECT);
  cl_uint word;
  EXPECT_EQ(clEnqueueReadBuffer(env.queue, a, CL_TRUE, n * 4 - 2, 4, &word, 0, nullptr, nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueReadBuffer(env.queue, a, CL_TRUE, 0, 4, nullptr, 0, nullptr, nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueWriteBuffer(env.queue, a, CL_TRUE, n * 4, 4, &word, 0, nullptr, nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueWriteBuffer(env.queue, a, CL_TRUE, 0, 0, &word, 0, nullptr, nullptr),
            CL_INVALID_VALUE);
  clReleaseMemObject(s0);
  clReleaseMemObject(s1);
  clReleaseMemObject(a);
  clReleaseMemObject(b);
}

// Rectangular copies within one buffer: disjoint rectangles whose bounding ranges interleave
// are fine; rectangles sharing a byte are CL_MEM_COPY_OVERLAP, also through sub-buffers.
TEST(Buffers, RectCopyOverlapIsExact) {
  Env env;
  ASSERT_NE(env.queue, nullptr);
  const size_t pitch = 64, rows = 16;
  std::vector<uint8_t> init(pitch * rows);
  for (size_t i = 0; i < init.size(); ++i) init[i] = uint8_t(i * 7 + 1);
  cl_mem m = env.buffer(init.size(), init.data());
  auto copy = [&](cl_mem s, cl_mem d, size_t sx, size_t sy, size_t dx, size_t dy, size_t w,
                  size_t h) {
    size_t so[3] = {sx, sy, 0}, dor[3] = {dx, dy, 0}, region[3] = {w, h, 1};
    return clEnqueueCopyBufferRect(env.queue, s, d, so, dor, region, pitch, 0, pitch, 0, 0, nullptr,
                                   nullptr);
  };
  // Left half -> right half of the same rows: the byte ranges interleave, the bytes do not.
  ASSERT_EQ(copy(m, m, 0, 0, 32, 0, 32, rows), CL_SUCCESS);
  std::vector<uint8_t> out(init.size());
  ASSERT_EQ(
      clEnqueueReadBuffer(env.queue, m, CL_TRUE, 0, out.size(), out.data(), 0, nullptr, nullptr),
      CL_SUCCESS);
  for (size_t y = 0; y < rows; ++y)
    for (size_t x = 0; x < pitch; ++x)
      ASSERT_EQ(out[y * pitch + x], init[y * pitch + (x % 32)]) << x << "," << y;
  EXPECT_EQ(copy(m, m, 0, 0, 31, 0, 32, rows), CL_MEM_COPY_OVERLAP); // one column shared
  EXPECT_EQ(copy(m, m, 0, 0, 0, 3, 8, 4), CL_MEM_COPY_OVERLAP);      // row 3 shared
  EXPECT_EQ(copy(m, m, 0, 0, 8, 3, 8, 4), CL_SUCCESS);               // rows 3..6, other columns
  // The same through sub-buffers of one parent (row 8 onwards is the second sub-buffer).
  const size_t half = 8 * pitch;
  ASSERT_EQ(half % env.sub_buffer_align(), 0u);
  cl_int err;
  cl_buffer_region r0{0, init.size()}, r1{half, init.size() - half};
  cl_mem s0 = clCreateSubBuffer(m, 0, CL_BUFFER_CREATE_TYPE_REGION, &r0, &err);
  cl_mem s1 = clCreateSubBuffer(m, 0, CL_BUFFER_CREATE_TYPE_REGION, &r1, &err);
  EXPECT_EQ(copy(s0, s1, 0, 8, 0, 0, 8, 2),
            CL_MEM_COPY_OVERLAP); // parent rows 8 and 9 on both sides
  EXPECT_EQ(copy(s0, s1, 0, 8, 16, 0, 8, 2), CL_SUCCESS);
  clReleaseMemObject(s0);
  clReleaseMemObject(s1);
  clReleaseMemObject(m);
}

TEST(Buffers, MapAndUnmap) {
  Env env;
  ASSERT_NE(env.queue, nullptr);
  const size_t n = 4096;
  std::vector<cl_uint> init = iota_words(n);
  cl_mem m = env.buffer(n * 4, init.data());
  cl_int err;
  // Two overlapping read maps at once, one non-blocking with an event.
  cl_event mapped = nullptr;
  auto* whole = static_cast<cl_uint*>(
      clEnqueueMapBuffer(env.queue, m, CL_FALSE, CL_MAP_READ, 0, n * 4, 0, nullptr, &mapped, &err));
  ASSERT_EQ(err, CL_SUCCESS);
  ASSERT_NE(mapped, nullptr);
  auto* part = static_cast<cl_uint*>(
      clEnqueueMapBuffer(env.queue, m, CL_TRUE, CL_MAP_READ, 400, 400, 0, nullptr, nullptr, &err));
  ASSERT_EQ(err, CL_SUCCESS);
  ASSERT_EQ(clWaitForEvents(1, &mapped), CL_SUCCESS);
  cl_command_type type = 0;
  clGetEventInfo(mapped, CL_EVENT_COMMAND_TYPE, sizeof type, &type, nullptr);
  EXPECT_EQ(type, cl_command_type(CL_COMMAND_MAP_BUFFER));
  clReleaseEvent(mapped);
  EXPECT_EQ(whole[4095], 4095u);
  EXPECT_EQ(part[0], 100u);
  EXPECT_EQ(mem_info<cl_uint>(m, CL_MEM_MAP_COUNT), 2u);
  // Unmapping a pointer that is not a mapping of this buffer.
  EXPECT_EQ(clEnqueueUnmapMemObject(env.queue, m, init.data(), 0, nullptr, nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueUnmapMemObject(env.queue, m, part, 0, nullptr, nullptr), CL_SUCCESS);
  EXPECT_EQ(clEnqueueUnmapMemObject(env.queue, m, whole, 0, nullptr, nullptr), CL_SUCCESS);
  ASSERT_EQ(clFinish(env.queue), CL_SUCCESS);
  EXPECT_EQ(mem_info<cl_uint>(m, CL_MEM_MAP_COUNT), 0u);
  EXPECT_EQ(clEnqueueUnmapMemObject(env.queue, m, whole, 0, nullptr, nullptr), CL_INVALID_VALUE);
  // A write map: the whole region invalidated, written by the host, lands at unmap.
  auto* w = static_cast<cl_uint*>(clEnqueueMapBuffer(
      env.queue, m, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION, 64, 64, 0, nullptr, nullptr, &err));
  ASSERT_EQ(err, CL_SUCCESS);
  for (int i = 0; i < 16; ++i) w[i] = 5000 + i;
  cl_event unmapped = nullptr;
  ASSERT_EQ(clEnqueueUnmapMemObject(env.queue, m, w, 0, nullptr, &unmapped), CL_SUCCESS);
  std::vector<cl_uint> out(n);
  ASSERT_EQ(clEnqueueReadBuffer(env.queue, m, CL_TRUE, 0, n * 4, out.data(), 1, &unmapped, nullptr),
            CL_SUCCESS);
  clReleaseEvent(unmapped);
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(out[i], (i >= 16 && i < 32) ? 5000 + (i - 16) : i) << i;
  // Map errors.
  auto map_error = [&](cl_map_flags flags, size_t offset, size_t size) {
    cl_int e = 1;
    void* p =
        clEnqueueMapBuffer(env.queue, m, CL_TRUE, flags, offset, size, 0, nullptr, nullptr, &e);
    if (p) clEnqueueUnmapMemObject(env.queue, m, p, 0, nullptr, nullptr);
    return e;
  };
  EXPECT_EQ(map_error(CL_MAP_READ | CL_MAP_WRITE_INVALIDATE_REGION, 0, 4), CL_INVALID_VALUE);
  EXPECT_EQ(map_error(CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION, 0, 4), CL_INVALID_VALUE);
  EXPECT_EQ(map_error(cl_map_flags(1) << 20, 0, 4), CL_INVALID_VALUE);
  EXPECT_EQ(map_error(CL_MAP_READ, n * 4 - 2, 4), CL_INVALID_VALUE);
  EXPECT_EQ(map_error(CL_MAP_READ, 0, 0), CL_INVALID_VALUE);
  clFinish(env.queue);
  clReleaseMemObject(m);
}

TEST(Buffers, MigrateKeepsContentAndChecksItsArguments) {
  Env env;
  ASSERT_NE(env.queue, nullptr);
  std::vector<cl_uint> init = iota_words(256, 9);
  cl_mem m = env.buffer(init.size() * 4, init.data());
  cl_event e = nullptr;
  ASSERT_EQ(
      clEnqueueMigrateMemObjects(env.queue, 1, &m, CL_MIGRATE_MEM_OBJECT_HOST, 0, nullptr, &e),
      CL_SUCCESS);
  ASSERT_EQ(env.final_status(e), CL_COMPLETE);
  cl_command_type type = 0;
  clGetEventInfo(e, CL_EVENT_COMMAND_TYPE, sizeof type, &type, nullptr);
  EXPECT_EQ(type, cl_command_type(CL_COMMAND_MIGRATE_MEM_OBJECTS));
  clReleaseEvent(e);
  ASSERT_EQ(clEnqueueMigrateMemObjects(env.queue, 1, &m, 0, 0, nullptr, nullptr), CL_SUCCESS);
  EXPECT_EQ(read_words(env, m, init.size()), init);
  ASSERT_EQ(clEnqueueMigrateMemObjects(env.queue, 1, &m, CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED, 0,
                                       nullptr, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(clEnqueueMigrateMemObjects(env.queue, 0, &m, 0, 0, nullptr, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueMigrateMemObjects(env.queue, 1, nullptr, 0, 0, nullptr, nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueMigrateMemObjects(env.queue, 1, &m, cl_mem_migration_flags(1) << 9, 0, nullptr,
                                       nullptr),
            CL_INVALID_VALUE);
  cl_mem bad = nullptr;
  EXPECT_EQ(clEnqueueMigrateMemObjects(env.queue, 1, &bad, 0, 0, nullptr, nullptr),
            CL_INVALID_MEM_OBJECT);
  clFinish(env.queue);
  clReleaseMemObject(m);
}

namespace {
struct DestructorLog {
  std::mutex mutex;
  std::vector<int> order;
  cl_mem seen = nullptr;
};
struct DestructorTag {
  DestructorLog* log;
  int id;
};
void CL_CALLBACK record_destructor(cl_mem m, void* data) {
  auto* tag = static_cast<DestructorTag*>(data);
  std::lock_guard lock(tag->log->mutex);
  tag->log->order.push_back(tag->id);
  tag->log->seen = m;
}
} // namespace

// Destructor callbacks run in the reverse order of registration, once the last reference and
// the last command using the buffer are gone.
TEST(Buffers, DestructorCallbacksRunInReverseOrderAfterTheLastUse) {
  Env env;
  ASSERT_NE(env.queue, nullptr);
  DestructorLog log;
  DestructorTag tags[3] = {{&log, 1}, {&log, 2}, {&log, 3}};
  cl_mem m = env.buffer(1 << 20);
  for (auto& tag : tags)
    ASSERT_EQ(clSetMemObjectDestructorCallback(m, record_destructor, &tag), CL_SUCCESS);
  EXPECT_EQ(clSetMemObjectDestructorCallback(m, nullptr, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clSetMemObjectDestructorCallback(nullptr, record_destructor, tags),
            CL_INVALID_MEM_OBJECT);
  // A read gated by a user event keeps the buffer in use after the application's release.
  cl_int err;
  cl_event gate = clCreateUserEvent(env.context, &err);
  ASSERT_EQ(clRetainMemObject(m), CL_SUCCESS);
  EXPECT_EQ(mem_info<cl_uint>(m, CL_MEM_REFERENCE_COUNT), 2u);
  ASSERT_EQ(clReleaseMemObject(m), CL_SUCCESS);
  EXPECT_EQ(mem_info<cl_uint>(m, CL_MEM_REFERENCE_COUNT), 1u);
  std::vector<uint8_t> out(1 << 20);
  cl_event read = nullptr;
  ASSERT_EQ(clEnqueueReadBuffer(env.queue, m, CL_FALSE, 0, out.size(), out.data(), 1, &gate, &read),
            CL_SUCCESS);
  ASSERT_EQ(clReleaseMemObject(m), CL_SUCCESS);
  {
    std::lock_guard lock(log.mutex);
    EXPECT_TRUE(log.order.empty()) << "destructors ran while a command still used the buffer";
  }
  clSetUserEventStatus(gate, CL_COMPLETE);
  ASSERT_EQ(env.final_status(read), CL_COMPLETE);
  clReleaseEvent(read);
  clReleaseEvent(gate);
  ASSERT_EQ(clFinish(env.queue), CL_SUCCESS);
  // The callbacks may run on another thread shortly after completion.
  amcl_test::eventually([&] {
    std::lock_guard lock(log.mutex);
    return log.order.size() == 3;
  });
  std::lock_guard lock(log.mutex);
  EXPECT_EQ(log.order, (std::vector<int>{3, 2, 1}));
  EXPECT_EQ(log.seen, m);
}

TEST(Buffers, MemObjectInfo) {
  Env env;
  ASSERT_NE(env.queue, nullptr);
  cl_mem m = env.buffer(1000);
  EXPECT_EQ(mem_info<cl_mem_object_type>(m, CL_MEM_TYPE), cl_mem_object_type(CL_MEM_OBJECT_BUFFER));
  EXPECT_EQ(mem_info<size_t>(m, CL_MEM_SIZE), 1000u);
  EXPECT_EQ(mem_info<cl_context>(m, CL_MEM_CONTEXT), env.context);
  EXPECT_EQ(mem_info<cl_mem>(m, CL_MEM_ASSOCIATED_MEMOBJECT), nullptr);
  EXPECT_EQ(mem_info<size_t>(m, CL_MEM_OFFSET), 0u);
  EXPECT_EQ(mem_info<cl_uint>(m, CL_MEM_REFERENCE_COUNT), 1u);
  EXPECT_EQ(mem_info<cl_bool>(m, CL_MEM_USES_SVM_POINTER), cl_bool(CL_FALSE));
  size_t size = 99;
  EXPECT_EQ(clGetMemObjectInfo(m, CL_MEM_PROPERTIES, 0, nullptr, &size), CL_SUCCESS);
  EXPECT_EQ(size, 0u) << "no properties given: an empty list";
  EXPECT_EQ(clGetMemObjectInfo(m, CL_MEM_SIZE, 0, nullptr, &size), CL_SUCCESS);
  EXPECT_EQ(size, sizeof(size_t));
  cl_uint too_small = 0;
  EXPECT_EQ(clGetMemObjectInfo(m, CL_MEM_SIZE, sizeof too_small, &too_small, nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(clGetMemObjectInfo(m, 0x7777, sizeof size, &size, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clGetMemObjectInfo(nullptr, CL_MEM_SIZE, sizeof size, &size, nullptr),
            CL_INVALID_MEM_OBJECT);
  clReleaseMemObject(m);
}

// A buffer of CL_DEVICE_MAX_MEM_ALLOC_SIZE: created, and its last words reachable from a kernel.
TEST(Buffers, LargestAllocationWorksToItsLastWord) {
  Env env;
  ASSERT_NE(env.queue, nullptr);
  const auto max_alloc = device_info<cl_ulong>(env.device, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
  cl_int err;
  cl_mem m = clCreateBuffer(env.context, CL_MEM_READ_WRITE, max_alloc, nullptr, &err);
  ASSERT_EQ(err, CL_SUCCESS) << "max alloc " << max_alloc;
  cl_buffer_region tail{size_t(max_alloc) - 4096, 4096};
  cl_mem sub = clCreateSubBuffer(m, 0, CL_BUFFER_CREATE_TYPE_REGION, &tail, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  std::vector<cl_uint> init = iota_words(1024, 1);
  ASSERT_EQ(
      clEnqueueWriteBuffer(env.queue, sub, CL_TRUE, 0, 4096, init.data(), 0, nullptr, nullptr),
      CL_SUCCESS);
  cl_kernel k = env.kernel(kAdd, "add");
  ASSERT_NE(k, nullptr);
  add_on_device(env, k, sub, 1024, 10);
  std::vector<cl_uint> last(1);
  ASSERT_EQ(clEnqueueReadBuffer(env.queue, m, CL_TRUE, size_t(max_alloc) - 4, 4, last.data(), 0,
                                nullptr, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(last[0], 1024u + 10);
  clReleaseKernel(k);
  clReleaseMemObject(sub);
  clReleaseMemObject(m);
}

// The emulated card has 4 GiB of VRAM behind a 256 MiB BAR0 (no resizable BAR; AMCL_SIM_REBAR=1
// makes the BAR all of VRAM): the device reports the card's VRAM, not the BAR's size, and a
// buffer larger than the whole BAR round-trips through write, read, copy, and map/unmap.
TEST(Buffers, VramLargerThanTheBarIsAllUsable) {
  Env env;
  ASSERT_NE(env.queue, nullptr);
  if (!std::getenv("AMCL_SIM_VRAM_MB")) // the emulated card's 4 GiB, less the 64 MiB held back
    EXPECT_EQ(device_info<cl_ulong>(env.device, CL_DEVICE_GLOBAL_MEM_SIZE), (4096ull - 64) << 20);
  const size_t bytes = 320u << 20, words = bytes / 4;
  cl_int err;
  cl_mem m = clCreateBuffer(env.context, CL_MEM_READ_WRITE, bytes, nullptr, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  cl_mem copy = clCreateBuffer(env.context, CL_MEM_READ_WRITE, bytes, nullptr, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  std::vector<cl_uint> data = iota_words(words, 7);
  ASSERT_EQ(clEnqueueWriteBuffer(env.queue, m, CL_TRUE, 0, bytes, data.data(), 0, nullptr, nullptr),
            CL_SUCCESS);
  ASSERT_EQ(clEnqueueCopyBuffer(env.queue, m, copy, 0, 0, bytes, 0, nullptr, nullptr), CL_SUCCESS);
  EXPECT_EQ(read_words(env, copy, words), data);
  // Map the last 4 MiB for writing, change it, unmap: the buffer holds the change.
  const size_t tail = bytes - (4u << 20);
  auto* mapped =
      static_cast<cl_uint*>(clEnqueueMapBuffer(env.queue, m, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE,
                                               tail, 4u << 20, 0, nullptr, nullptr, &err));
  ASSERT_EQ(err, CL_SUCCESS);
  EXPECT_EQ(mapped[0], cl_uint(tail / 4 + 7));
  for (size_t i = 0; i < (1u << 20); ++i) mapped[i] ^= 0xffffffffu;
  ASSERT_EQ(clEnqueueUnmapMemObject(env.queue, m, mapped, 0, nullptr, nullptr), CL_SUCCESS);
  std::vector<cl_uint> last = read_words(env, m, 1u << 20, tail / 4);
  for (size_t i = 0; i < last.size(); ++i)
    if (last[i] != ~cl_uint(tail / 4 + 7 + i)) {
      ADD_FAILURE() << "word " << i << " of the mapped range: " << last[i];
      break;
    }
  clReleaseMemObject(copy);
  clReleaseMemObject(m);
}

// A 3-D rectangle of many short rows (PyOpenCL's test_enqueue_copy_rect_3d: 20-byte rows, 96
// rows, 128 slices, every origin and pitch different) through write, copy and read: more
// rows than one submission's packets fit in the SDMA ring. Each blocking call returns, and
// the box arrives where the pitches put it.
TEST(Buffers, RectTransfersOfManyRowsComplete) {
  Env env;
  ASSERT_TRUE(env.queue);
  const size_t region[3] = {20, 96, 128};
  const size_t host_in[3] = {31, 128, 256}, host_out[3] = {128, 256, 192}; // x, y, z extents
  const size_t buf_in[3] = {30, 200, 300}, buf_out[3] = {40, 400, 300};
  const size_t host_in_origin[3] = {7, 13, 20}, host_out_origin[3] = {14, 19, 11};
  const size_t buf_in_origin[3] = {6, 3, 7}, buf_out_origin[3] = {3, 17, 31};
  std::vector<uint8_t> in(host_in[0] * host_in[1] * host_in[2]);
  for (size_t i = 0; i < in.size(); ++i) in[i] = uint8_t(i * 2654435761u >> 24);
  cl_int err;
  cl_mem a = clCreateBuffer(env.context, CL_MEM_READ_WRITE, buf_in[0] * buf_in[1] * buf_in[2], nullptr, &err);
  cl_mem b = clCreateBuffer(env.context, CL_MEM_READ_WRITE, buf_out[0] * buf_out[1] * buf_out[2], nullptr, &err);
  ASSERT_EQ(clEnqueueWriteBufferRect(env.queue, a, CL_TRUE, buf_in_origin, host_in_origin, region, buf_in[0],
                                     buf_in[0] * buf_in[1], host_in[0], host_in[0] * host_in[1], in.data(), 0,
                                     nullptr, nullptr),
            CL_SUCCESS);
  ASSERT_EQ(clEnqueueCopyBufferRect(env.queue, a, b, buf_in_origin, buf_out_origin, region, buf_in[0],
                                    buf_in[0] * buf_in[1], buf_out[0], buf_out[0] * buf_out[1], 0, nullptr, nullptr),
            CL_SUCCESS);
  std::vector<uint8_t> out(host_out[0] * host_out[1] * host_out[2], 0);
  ASSERT_EQ(clEnqueueReadBufferRect(env.queue, b, CL_TRUE, buf_out_origin, host_out_origin, region, buf_out[0],
                                    buf_out[0] * buf_out[1], host_out[0], host_out[0] * host_out[1], out.data(), 0,
                                    nullptr, nullptr),
            CL_SUCCESS);
  for (size_t z = 0; z < region[2]; ++z)
    for (size_t y = 0; y < region[1]; ++y)
      for (size_t x = 0; x < region[0]; ++x) {
        const size_t i = ((host_in_origin[2] + z) * host_in[1] + host_in_origin[1] + y) * host_in[0] + host_in_origin[0] + x;
        const size_t o =
            ((host_out_origin[2] + z) * host_out[1] + host_out_origin[1] + y) * host_out[0] + host_out_origin[0] + x;
        ASSERT_EQ(out[o], in[i]) << x << "," << y << "," << z;
      }
  // Nothing outside the box was written.
  size_t written = 0;
  for (uint8_t v : out) written += v != 0;
  EXPECT_LE(written, region[0] * region[1] * region[2]);
  // The queue is still usable.
  EXPECT_EQ(clFinish(env.queue), CL_SUCCESS);
  clReleaseMemObject(a);
  clReleaseMemObject(b);
}

// Large transfers (a megabyte and more) move between the buffer and the application's own
// pages in one DMA copy: at host addresses and buffer offsets of any alignment, the bytes land
// exactly, none beside them; a non-blocking write is done before a read queued behind it.
TEST(Buffers, LargeTransfersAtOddAddressesAreExact) {
  Env env;
  ASSERT_TRUE(env.queue);
  const size_t size = (3 << 20) + 7, offset = 5, lead = 3, guard = 4096;
  cl_int err;
  cl_mem m = clCreateBuffer(env.context, CL_MEM_READ_WRITE, size + 64, nullptr, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  std::vector<uint8_t> in(lead + size + guard);
  for (size_t i = 0; i < in.size(); ++i) in[i] = uint8_t(i * 2654435761u >> 24);
  ASSERT_EQ(clEnqueueWriteBuffer(env.queue, m, CL_FALSE, offset, size, in.data() + lead, 0,
                                 nullptr, nullptr),
            CL_SUCCESS);
  std::vector<uint8_t> out(lead + size + guard, 0xa5);
  ASSERT_EQ(clEnqueueReadBuffer(env.queue, m, CL_TRUE, offset, size, out.data() + lead, 0,
                                nullptr, nullptr),
            CL_SUCCESS);
  for (size_t i = 0; i < lead; ++i) ASSERT_EQ(out[i], 0xa5) << "before, " << i;
  for (size_t i = lead; i < lead + size; ++i) ASSERT_EQ(out[i], in[i]) << i;
  for (size_t i = lead + size; i < out.size(); ++i) ASSERT_EQ(out[i], 0xa5) << "after, " << i;
  clReleaseMemObject(m);
}

// Two queues transferring at once, to and from halves of one host array that share a page:
// whichever goes directly and whichever through staging, both arrive whole, and the shared
// page stays usable for the other.
TEST(Buffers, LargeTransfersFromTwoQueuesAtOnce) {
  Env env;
  ASSERT_TRUE(env.queue);
  const size_t half = (2 << 20) + 1000; // the split lies inside a page
  cl_int err;
  cl_command_queue second = clCreateCommandQueueWithProperties(env.context, env.device, nullptr, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  cl_mem bufs[2];
  for (cl_mem& b : bufs) {
    b = clCreateBuffer(env.context, CL_MEM_READ_WRITE, half, nullptr, &err);
    ASSERT_EQ(err, CL_SUCCESS);
  }
  std::vector<uint8_t> in(2 * half), out(2 * half);
  for (size_t i = 0; i < in.size(); ++i) in[i] = uint8_t(i * 40503u >> 8);
  std::vector<cl_int> results(2 * 8, CL_SUCCESS);
  auto run = [&](size_t side, cl_command_queue q) {
    for (size_t round = 0; round < 4; ++round) {
      std::fill_n(out.begin() + ptrdiff_t(side * half), half, uint8_t(0));
      results[side * 8 + round * 2] = clEnqueueWriteBuffer(q, bufs[side], CL_TRUE, 0, half,
                                                           in.data() + side * half, 0, nullptr, nullptr);
      results[side * 8 + round * 2 + 1] = clEnqueueReadBuffer(q, bufs[side], CL_TRUE, 0, half,
                                                              out.data() + side * half, 0, nullptr, nullptr);
      if (!std::equal(in.begin() + ptrdiff_t(side * half), in.begin() + ptrdiff_t((side + 1) * half),
                      out.begin() + ptrdiff_t(side * half)))
        results[side * 8 + round * 2 + 1] = -1000; // marked: the bytes differ
    }
  };
  std::thread other(run, 1, second);
  run(0, env.queue);
  other.join();
  for (size_t i = 0; i < results.size(); ++i) EXPECT_EQ(results[i], CL_SUCCESS) << i;
  for (cl_mem b : bufs) clReleaseMemObject(b);
  clReleaseCommandQueue(second);
}

// A write from read-only host memory (the application's constant data) works: the DMA engine
// only reads the application's pages.
TEST(Buffers, LargeWriteFromReadOnlyMemory) {
  Env env;
  ASSERT_TRUE(env.queue);
  const size_t size = 2 << 20;
  void* p = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(p, MAP_FAILED);
  auto* bytes = static_cast<uint8_t*>(p);
  for (size_t i = 0; i < size; ++i) bytes[i] = uint8_t(i * 7 + 1);
  ASSERT_EQ(mprotect(p, size, PROT_READ), 0);
  cl_int err;
  cl_mem m = clCreateBuffer(env.context, CL_MEM_READ_WRITE, size, nullptr, &err);
  ASSERT_EQ(clEnqueueWriteBuffer(env.queue, m, CL_TRUE, 0, size, bytes, 0, nullptr, nullptr),
            CL_SUCCESS);
  std::vector<uint8_t> out(size);
  ASSERT_EQ(clEnqueueReadBuffer(env.queue, m, CL_TRUE, 0, size, out.data(), 0, nullptr, nullptr),
            CL_SUCCESS);
  EXPECT_TRUE(std::equal(out.begin(), out.end(), bytes));
  clReleaseMemObject(m);
  munmap(p, size);
}
