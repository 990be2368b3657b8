// Random sequences of API calls with random, often invalid, arguments: stale (released)
// handles, handles of the wrong type, NULLs, huge and zero sizes, unknown query names. Every
// call must return (an error code or success); nothing may crash, touch memory it was not
// given or leak (ASan builds). Host pointers handed to amcl are always big enough for what
// the call asks, as the specification requires of applications; kernels run over bounded
// NDRanges. Shared by the bounded gtest loop (tests/system/api_fuzz_test.cpp) and the libFuzzer
// target (fuzz/api_fuzzer.cpp); talks to amcl only through the OpenCL API.
#include "api_call_sequence.h"

#include <algorithm>
#include <iterator>
#include <map>

namespace amcl_fuzz {
namespace {
constexpr size_t kHostBytes = 1 << 20; // the largest transfer the fuzzer asks for

const char* kSources[] = {
    "kernel void add(global int* p, int v) { p[get_global_id(0)] += v; }",
    ("kernel void copy(global const uchar* a, global uchar* b, local int* t) { "
     "b[get_global_id(0)] = a[get_global_id(0)]; }"),
    "kernel void broken(global int* p) { p[0] = nope; }",
    "",
    "kernel void two(global float* p) { p[0] = 1.0f; } kernel void three(int x) { }",
};

} // namespace

struct ApiCallSequence::Impl {
  Handles env;
  Choices& c;
  // `host` receives what amcl writes back; the fuzzer never writes `source`, so commands still
  // using it (non-blocking writes, CL_MEM_USE_HOST_PTR buffers) never race the fuzzer.
  std::vector<uint8_t> host = std::vector<uint8_t>(kHostBytes);
  std::vector<uint8_t> source = std::vector<uint8_t>(kHostBytes, 0x5a);
  // Handles the fuzzer owns references to (count), and handles it has released for good.
  std::map<void*, int> live;
  std::vector<void*> stale;
  std::vector<cl_mem> mems;
  std::vector<cl_program> programs;
  std::vector<cl_kernel> kernels;
  std::vector<cl_event> events;
  size_t calls = 0;

  std::vector<std::string> failures;

  Impl(Handles h, Choices& choices) : env(h), c(choices) {}

  uint64_t pick(uint64_t n) { return c.pick(n); }
  bool coin() { return c.coin(); }
  void fail(std::string what) { failures.push_back(std::move(what)); }
  size_t size() {
    switch (pick(5)) {
    case 0:
      return 0;
    case 1:
      return size_t(1) << pick(21);
    case 2:
      return pick(kHostBytes) + 1;
    case 3:
      return ~size_t(0) - pick(16);
    default:
      return pick(4096);
    }
  }
  // A handle of type T that may be live, released, of another type or null.
  template <class T> T handle(const std::vector<T>& pool) {
    switch (pick(8)) {
    case 0:
      return nullptr;
    case 1:
      if (!stale.empty()) return static_cast<T>(stale[pick(stale.size())]);
      return nullptr;
    case 2:
      return reinterpret_cast<T>(static_cast<void*>(env.queue)); // a live object of another type
    default:
      return pool.empty() ? nullptr : pool[pick(pool.size())];
    }
  }
  template <class T> void own(std::vector<T>& pool, T h) {
    if (!h) return;
    // Released memory is reused for new objects: a stale handle can come back to life.
    stale.erase(std::remove(stale.begin(), stale.end(), static_cast<void*>(h)), stale.end());
    pool.push_back(h);
    live[h] = 1;
  }
  static cl_uint references(cl_mem h) {
    return count(clGetMemObjectInfo, h, CL_MEM_REFERENCE_COUNT);
  }
  static cl_uint references(cl_event h) {
    return count(clGetEventInfo, h, CL_EVENT_REFERENCE_COUNT);
  }
  static cl_uint references(cl_kernel h) {
    return count(clGetKernelInfo, h, CL_KERNEL_REFERENCE_COUNT);
  }
  static cl_uint references(cl_program h) {
    return count(clGetProgramInfo, h, CL_PROGRAM_REFERENCE_COUNT);
  }
  template <class Query, class T> static cl_uint count(Query query, T h, cl_uint what) {
    cl_uint n = 0;
    return query(h, what, sizeof n, &n, nullptr) == CL_SUCCESS ? n : 0;
  }
  // Drops one of our references. When it was the object's last, the object is gone and the
  // handle goes stale; when amcl still holds the object (a queued command its event and
  // buffers, a sub-buffer its parent), the handle is only forgotten: amcl frees the object on
  // its own threads later, and the application's use of a handle it released racing that free
  // is undefined behaviour, not an error amcl can report (ThreadSanitizer saw it once under
  // load: clWaitForEvents reading an event the submission thread was freeing).
  template <class T> void drop(std::vector<T>& pool, size_t i, cl_int (*release)(T)) {
    T h = pool[i];
    const bool last = references(h) == 1;
    if (release(h) != CL_SUCCESS) fail("releasing a handle the sequence owns failed");
    if (--live[h] == 0) {
      live.erase(h);
      if (last) stale.push_back(h);
      pool.erase(pool.begin() + long(i));
    }
  }

  void step() {
    ++calls;
    cl_int err = 0;
    switch (pick(17)) {
    case 0: { // buffers with random flags and sizes
      const cl_mem_flags flags =
          coin() ? CL_MEM_READ_WRITE
                 : (cl_mem_flags(1) << pick(12)) | (coin() ? CL_MEM_COPY_HOST_PTR : 0);
      const size_t n = size();
      void* ptr =
          (flags & (CL_MEM_COPY_HOST_PTR | CL_MEM_USE_HOST_PTR)) && n <= kHostBytes && coin()
              ? source.data()
              : nullptr;
      own(mems, clCreateBuffer(env.context, flags, n, ptr, &err));
      break;
    }
    case 1: { // sub-buffers
      cl_buffer_region r{size(), size()};
      own(mems, clCreateSubBuffer(handle(mems), cl_mem_flags(1) << pick(4),
                                  CL_BUFFER_CREATE_TYPE_REGION, &r, &err));
      break;
    }
    case 2: { // transfers
      cl_mem m = handle(mems);
      const size_t off = coin() ? 0 : size(), n = std::min(size(), kHostBytes);
      cl_event e = nullptr;
      if (coin())
        clEnqueueWriteBuffer(env.queue, m, cl_bool(coin()), off, n, source.data(), 0, nullptr,
                             coin() ? &e : nullptr);
      else
        clEnqueueReadBuffer(env.queue, m, CL_TRUE, off, n, host.data(), 0, nullptr,
                            coin() ? &e : nullptr);
      own(events, e);
      break;
    }
    case 3: { // copies and fills
      if (coin())
        clEnqueueCopyBuffer(env.queue, handle(mems), handle(mems), size(), size(), size(), 0,
                            nullptr, nullptr);
      else
        // Patterns of up to 128 bytes come from `host`, which is larger.
        clEnqueueFillBuffer(env.queue, handle(mems), source.data(), size_t(1) << pick(8), size(),
                            size(), 0, nullptr, nullptr);
      break;
    }
    case 4: { // programs
      const char* src = kSources[pick(std::size(kSources))];
      cl_program p = clCreateProgramWithSource(env.context, 1, &src, nullptr, &err);
      own(programs, p);
      if (p && coin())
        clBuildProgram(p, 1, &env.device, coin() ? "" : "-cl-std=CL3.0 -Dx=1", nullptr, nullptr);
      break;
    }
    case 5: { // binaries, possibly corrupted
      cl_program p = handle(programs);
      size_t n = 0;
      if (clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof n, &n, nullptr) != CL_SUCCESS || !n ||
          n > kHostBytes)
        break;
      unsigned char* ptr = host.data();
      if (clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof ptr, &ptr, nullptr) != CL_SUCCESS) break;
      if (coin()) host[pick(n)] ^= uint8_t(1u << pick(8));
      const unsigned char* cptr = host.data();
      cl_int status;
      own(programs,
          clCreateProgramWithBinary(env.context, 1, &env.device, &n, &cptr, &status, &err));
      break;
    }
    case 6: { // kernels
      static const char* names[] = {"add", "copy", "two", "three", "none", ""};
      own(kernels, clCreateKernel(handle(programs), names[pick(std::size(names))], &err));
      break;
    }
    case 7: { // kernel arguments: buffers (maybe stale), scalars, local sizes, wrong sizes
      cl_kernel k = handle(kernels);
      cl_mem m = handle(mems);
      const cl_uint idx = cl_uint(pick(4));
      switch (pick(4)) {
      case 0:
        clSetKernelArg(k, idx, sizeof m, &m);
        break;
      case 1: {
        int v = int(c.bits());
        clSetKernelArg(k, idx, sizeof v, &v);
        break;
      }
      case 2:
        clSetKernelArg(k, idx, size() % 65536, nullptr);
        break;
      default:
        clSetKernelArg(k, idx, size() % 64, source.data());
        break;
      }
      break;
    }
    case 8: { // launches over bounded NDRanges
      size_t global[3] = {size_t(1) << pick(12), 1 + pick(3), 1},
             local[3] = {size_t(1) << pick(7), 1, 1};
      cl_event e = nullptr;
      clEnqueueNDRangeKernel(env.queue, handle(kernels), cl_uint(pick(5)), nullptr, global,
                             coin() ? local : nullptr, 0, nullptr, coin() ? &e : nullptr);
      own(events, e);
      break;
    }
    case 9: { // queries with random names and sizes
      cl_uint param = cl_uint(0x1000 + pick(0x200));
      // CL_PROGRAM_BINARIES reads an array of the application's pointers out of `value`:
      // random bytes there are the caller's bug, not amcl's (case 5 asks for it properly).
      if (param == CL_PROGRAM_BINARIES) param = CL_PROGRAM_BINARY_SIZES;
      size_t ret = 0;
      const size_t n = coin() ? 0 : pick(256);
      void* out = coin() ? host.data() : nullptr;
      switch (pick(6)) {
      case 0:
        clGetMemObjectInfo(handle(mems), param, n, out, &ret);
        break;
      case 1:
        clGetProgramInfo(handle(programs), param, n, out, &ret);
        break;
      case 2:
        clGetKernelInfo(handle(kernels), param, n, out, &ret);
        break;
      case 3:
        clGetEventInfo(handle(events), param, n, out, &ret);
        break;
      case 4:
        clGetDeviceInfo(env.device, param, n, out, &ret);
        break;
      default:
        clGetProgramBuildInfo(handle(programs), env.device, param, n, out, &ret);
        break;
      }
      break;
    }
    case 10: { // events: user events, waits, callbacks
      if (coin()) {
        cl_event u = clCreateUserEvent(env.context, &err);
        own(events, u);
        if (u && coin()) clSetUserEventStatus(u, coin() ? CL_COMPLETE : -int(pick(100)) - 1);
      } else {
        cl_event e = handle(events);
        // Waiting on a user event nobody completes would block: complete it first.
        cl_command_type t = 0;
        if (clGetEventInfo(e, CL_EVENT_COMMAND_TYPE, sizeof t, &t, nullptr) == CL_SUCCESS &&
            t == CL_COMMAND_USER)
          clSetUserEventStatus(e, CL_COMPLETE);
        if (clGetEventInfo(e, CL_EVENT_COMMAND_TYPE, sizeof t, &t, nullptr) == CL_SUCCESS)
          clWaitForEvents(1, &e);
      }
      break;
    }
    case 11: { // retains and releases of live, stale and wrong handles
      if (!mems.empty() && coin())
        drop(mems, pick(mems.size()), clReleaseMemObject);
      else if (!events.empty() && coin())
        drop(events, pick(events.size()), clReleaseEvent);
      else if (!stale.empty()) {
        // Read-only calls only: a stale handle's object is gone, but its memory may hold a new
        // object of another type (own() takes such handles back), which a release would drop.
        void* h = stale[pick(stale.size())];
        size_t n = 0;
        clGetMemObjectInfo(static_cast<cl_mem>(h), CL_MEM_SIZE, sizeof n, &n, nullptr);
        clGetKernelInfo(static_cast<cl_kernel>(h), CL_KERNEL_NUM_ARGS, sizeof n, &n, nullptr);
      }
      break;
    }
    case 12:
      if (!kernels.empty()) drop(kernels, pick(kernels.size()), clReleaseKernel);
      break;
    case 13:
      if (!programs.empty()) drop(programs, pick(programs.size()), clReleaseProgram);
      break;
    case 14: { // maps
      cl_mem m = handle(mems);
      void* p = clEnqueueMapBuffer(env.queue, m, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, size(),
                                   size(), 0, nullptr, nullptr, &err);
      if (p) clEnqueueUnmapMemObject(env.queue, m, p, 0, nullptr, nullptr);
      break;
    }
    case 15: { // images: random types, formats and sizes, then a transfer on any memory object
      static const cl_image_format kFormats[] = {{CL_RGBA, CL_UNORM_INT8}, {CL_R, CL_FLOAT},
                                                 {CL_sRGBA, CL_UNORM_INT8}, {CL_RGB, CL_FLOAT}};
      cl_image_desc d{};
      d.image_type = cl_mem_object_type(CL_MEM_OBJECT_IMAGE2D + pick(6)); // 0x10F1..0x10F6
      d.image_width = 1 + pick(40);
      d.image_height = pick(8);
      d.image_depth = pick(4);
      d.image_array_size = pick(4);
      if (coin()) d.buffer = handle(mems);
      own(mems, clCreateImage(env.context, coin() ? 0 : cl_mem_flags(1) << pick(6),
                              &kFormats[pick(std::size(kFormats))], &d, nullptr, &err));
      const size_t origin[3] = {pick(4), pick(2), pick(2)}, region[3] = {1 + pick(8), 1, 1};
      const float colour[4] = {0.5f, 1.0f, 0.0f, 1.0f};
      if (coin())
        clEnqueueReadImage(env.queue, handle(mems), CL_TRUE, origin, region, 0, 0, host.data(), 0,
                           nullptr, nullptr);
      else
        clEnqueueFillImage(env.queue, handle(mems), colour, origin, region, 0, nullptr, nullptr);
      break;
    }
    default:
      if (coin())
        clFlush(env.queue);
      else
        clFinish(env.queue);
    }
  }

  void release_all() {
    clFinish(env.queue);
    for (cl_event e : events) {
      cl_command_type t = 0;
      if (clGetEventInfo(e, CL_EVENT_COMMAND_TYPE, sizeof t, &t, nullptr) == CL_SUCCESS &&
          t == CL_COMMAND_USER)
        clSetUserEventStatus(e, CL_COMPLETE);
    }
    clFinish(env.queue);
    while (!events.empty()) drop(events, 0, clReleaseEvent);
    while (!kernels.empty()) drop(kernels, 0, clReleaseKernel);
    while (!programs.empty()) drop(programs, 0, clReleaseProgram);
    while (!mems.empty()) drop(mems, mems.size() - 1, clReleaseMemObject); // sub-buffers first
  }
};


ApiCallSequence::ApiCallSequence(Handles h, Choices& c) : impl_(std::make_unique<Impl>(h, c)) {}
ApiCallSequence::~ApiCallSequence() = default;
void ApiCallSequence::step() { impl_->step(); }
void ApiCallSequence::release_all() { impl_->release_all(); }
size_t ApiCallSequence::calls() const { return impl_->calls; }
size_t ApiCallSequence::released() const { return impl_->stale.size(); }
const std::vector<std::string>& ApiCallSequence::failures() const { return impl_->failures; }

} // namespace amcl_fuzz
