// CL_MEM_HOST_* flags through the ICD loader, after the CTS "mem_host_flags" suite: every host
// access (read, write, their rect forms, maps for reading, writing and invalidation) is allowed
// or CL_INVALID_OPERATION exactly as the buffer's host flags say, also for sub-buffers that
// inherit or narrow them; device-side commands are never restricted by them.
#include "cl_helpers.h"

using amcl_test::Env;

namespace {

struct HostAccess {
  bool read, write;
};

// What each host operation returns on buffer `m` of `bytes` bytes.
struct Outcomes {
  cl_int read, write, read_rect, write_rect, map_read, map_write, map_invalidate;
};

Outcomes try_host_access(Env& env, cl_mem m, size_t bytes) {
  std::vector<uint8_t> host(bytes, 1);
  size_t origin[3] = {0, 0, 0}, region[3] = {bytes / 4, 4, 1};
  Outcomes o{};
  o.read = clEnqueueReadBuffer(env.queue, m, CL_TRUE, 0, bytes, host.data(), 0, nullptr, nullptr);
  o.write = clEnqueueWriteBuffer(env.queue, m, CL_TRUE, 0, bytes, host.data(), 0, nullptr, nullptr);
  o.read_rect = clEnqueueReadBufferRect(env.queue, m, CL_TRUE, origin, origin, region, 0, 0, 0, 0,
                                        host.data(), 0, nullptr, nullptr);
  o.write_rect = clEnqueueWriteBufferRect(env.queue, m, CL_TRUE, origin, origin, region, 0, 0, 0, 0,
                                          host.data(), 0, nullptr, nullptr);
  auto map = [&](cl_map_flags flags) {
    cl_int err = 1;
    void* p = clEnqueueMapBuffer(env.queue, m, CL_TRUE, flags, 0, bytes, 0, nullptr, nullptr, &err);
    if (p) EXPECT_EQ(clEnqueueUnmapMemObject(env.queue, m, p, 0, nullptr, nullptr), CL_SUCCESS);
    EXPECT_EQ(p != nullptr, err == CL_SUCCESS);
    return err;
  };
  o.map_read = map(CL_MAP_READ);
  o.map_write = map(CL_MAP_WRITE);
  o.map_invalidate = map(CL_MAP_WRITE_INVALIDATE_REGION);
  EXPECT_EQ(clFinish(env.queue), CL_SUCCESS);
  return o;
}

void expect_access(const Outcomes& o, HostAccess allowed, const char* what) {
  const cl_int r = allowed.read ? CL_SUCCESS : CL_INVALID_OPERATION;
  const cl_int w = allowed.write ? CL_SUCCESS : CL_INVALID_OPERATION;
  EXPECT_EQ(o.read, r) << what;
  EXPECT_EQ(o.read_rect, r) << what;
  EXPECT_EQ(o.map_read, r) << what;
  EXPECT_EQ(o.write, w) << what;
  EXPECT_EQ(o.write_rect, w) << what;
  EXPECT_EQ(o.map_write, w) << what;
  EXPECT_EQ(o.map_invalidate, w) << what;
}

// Copy, fill and a kernel write on the device whatever the host flags.
void expect_device_access(Env& env, cl_mem m, size_t bytes) {
  cl_mem other = env.buffer(bytes);
  EXPECT_EQ(clEnqueueCopyBuffer(env.queue, other, m, 0, 0, bytes, 0, nullptr, nullptr), CL_SUCCESS);
  EXPECT_EQ(clEnqueueCopyBuffer(env.queue, m, other, 0, 0, bytes, 0, nullptr, nullptr), CL_SUCCESS);
  cl_uint pattern = 0x01020304;
  EXPECT_EQ(clEnqueueFillBuffer(env.queue, m, &pattern, 4, 0, bytes, 0, nullptr, nullptr),
            CL_SUCCESS);
  cl_kernel k =
      env.kernel("__kernel void set(__global uint* b) { b[get_global_id(0)] = 7; }", "set");
  ASSERT_NE(k, nullptr);
  size_t n = bytes / 4;
  EXPECT_EQ(clSetKernelArg(k, 0, sizeof m, &m), CL_SUCCESS);
  EXPECT_EQ(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, &n, nullptr, 0, nullptr, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(clEnqueueCopyBuffer(env.queue, m, other, 0, 0, bytes, 0, nullptr, nullptr), CL_SUCCESS);
  std::vector<cl_uint> out(n);
  EXPECT_EQ(
      clEnqueueReadBuffer(env.queue, other, CL_TRUE, 0, bytes, out.data(), 0, nullptr, nullptr),
      CL_SUCCESS);
  EXPECT_EQ(out, std::vector<cl_uint>(n, 7));
  clReleaseKernel(k);
  clReleaseMemObject(other);
}

} // namespace

TEST(MemHostFlags, HostAccessFollowsTheFlags) {
  Env env;
  ASSERT_NE(env.queue, nullptr);
  const size_t bytes = 256;
  const struct {
    cl_mem_flags flags;
    HostAccess access;
    const char* name;
  } cases[] = {
      {0, {true, true}, "no host flag"},
      {CL_MEM_HOST_READ_ONLY, {true, false}, "CL_MEM_HOST_READ_ONLY"},
      {CL_MEM_HOST_WRITE_ONLY, {false, true}, "CL_MEM_HOST_WRITE_ONLY"},
      {CL_MEM_HOST_NO_ACCESS, {false, false}, "CL_MEM_HOST_NO_ACCESS"},
  };
  for (auto& c : cases) {
    for (cl_mem_flags extra : {cl_mem_flags(0), cl_mem_flags(CL_MEM_ALLOC_HOST_PTR)}) {
      cl_int err;
      cl_mem m =
          clCreateBuffer(env.context, CL_MEM_READ_WRITE | c.flags | extra, bytes, nullptr, &err);
      ASSERT_EQ(err, CL_SUCCESS) << c.name;
      expect_access(try_host_access(env, m, bytes), c.access, c.name);
      expect_device_access(env, m, bytes);
      clReleaseMemObject(m);
    }
    // USE_HOST_PTR buffers follow the same rules.
    std::vector<uint8_t> backing(bytes, 3);
    cl_int err;
    cl_mem m =
        clCreateBuffer(env.context, CL_MEM_USE_HOST_PTR | c.flags, bytes, backing.data(), &err);
    ASSERT_EQ(err, CL_SUCCESS) << c.name;
    expect_access(try_host_access(env, m, bytes), c.access, c.name);
    clReleaseMemObject(m);
  }
}

TEST(MemHostFlags, SubBuffersInheritOrNarrowTheParents) {
  Env env;
  ASSERT_NE(env.queue, nullptr);
  const size_t bytes = env.sub_buffer_align();
  auto sub_of = [&](cl_mem parent, cl_mem_flags flags) {
    cl_buffer_region region{bytes, bytes};
    cl_int err = 1;
    cl_mem s = clCreateSubBuffer(parent, flags, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
    EXPECT_EQ(err, CL_SUCCESS);
    return s;
  };
  cl_int err;
  cl_mem plain = clCreateBuffer(env.context, CL_MEM_READ_WRITE, 2 * bytes, nullptr, &err);
  cl_mem read_only = clCreateBuffer(env.context, CL_MEM_HOST_READ_ONLY, 2 * bytes, nullptr, &err);
  cl_mem no_access = clCreateBuffer(env.context, CL_MEM_HOST_NO_ACCESS, 2 * bytes, nullptr, &err);
  struct {
    cl_mem parent;
    cl_mem_flags flags;
    HostAccess access;
    const char* name;
  } cases[] = {
      {plain, 0, {true, true}, "inherits no restriction"},
      {plain, CL_MEM_HOST_WRITE_ONLY, {false, true}, "narrows to write-only"},
      {plain, CL_MEM_HOST_NO_ACCESS, {false, false}, "narrows to no access"},
      {read_only, 0, {true, false}, "inherits read-only"},
      {read_only, CL_MEM_HOST_NO_ACCESS, {false, false}, "read-only narrowed to none"},
      {no_access, 0, {false, false}, "inherits no access"},
  };
  for (auto& c : cases) {
    cl_mem s = sub_of(c.parent, c.flags);
    ASSERT_NE(s, nullptr) << c.name;
    expect_access(try_host_access(env, s, bytes), c.access, c.name);
    clReleaseMemObject(s);
  }
  // Widening is refused.
  cl_buffer_region region{0, bytes};
  for (auto [parent, flags] : {std::pair{read_only, cl_mem_flags(CL_MEM_HOST_WRITE_ONLY)},
                               std::pair{no_access, cl_mem_flags(CL_MEM_HOST_READ_ONLY)},
                               std::pair{no_access, cl_mem_flags(CL_MEM_HOST_WRITE_ONLY)}}) {
    EXPECT_EQ(clCreateSubBuffer(parent, flags, CL_BUFFER_CREATE_TYPE_REGION, &region, &err),
              nullptr);
    EXPECT_EQ(err, CL_INVALID_VALUE) << std::hex << flags;
  }
  for (cl_mem m : {plain, read_only, no_access}) clReleaseMemObject(m);
}
