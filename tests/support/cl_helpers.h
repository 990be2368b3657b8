// Small helpers for the tests that reach amcl through the ICD loader (conformance/, tests/system).
#pragma once
#include "amcl_platform.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstring>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace amcl_test {

// The clGet*Info queries the tests make. A fixed-size value; a failing query is a test failure
// naming the parameter.
template <class T, class Object>
T info_value(cl_int (*get)(Object, cl_uint, size_t, void*, size_t*), Object object, cl_uint param) {
  T value{};
  EXPECT_EQ(get(object, param, sizeof value, &value, nullptr), CL_SUCCESS) << param;
  return value;
}
// A value of any size (strings, lists): its size first, then the bytes.
template <class Object>
std::vector<char> info_bytes(cl_int (*get)(Object, cl_uint, size_t, void*, size_t*), Object object,
                             cl_uint param) {
  size_t n = 0;
  EXPECT_EQ(get(object, param, 0, nullptr, &n), CL_SUCCESS) << param;
  std::vector<char> bytes(n);
  EXPECT_EQ(get(object, param, n, bytes.data(), nullptr), CL_SUCCESS) << param;
  return bytes;
}
// A string value without its terminating NUL.
template <class Object>
std::string info_string(cl_int (*get)(Object, cl_uint, size_t, void*, size_t*), Object object,
                        cl_uint param) {
  const std::vector<char> bytes = info_bytes(get, object, param);
  return std::string(bytes.data(), bytes.empty() ? 0 : bytes.size() - 1);
}
template <class T> T device_info(cl_device_id device, cl_device_info param) {
  return info_value<T>(clGetDeviceInfo, device, param);
}
inline std::string device_string(cl_device_id device, cl_device_info param) {
  return info_string(clGetDeviceInfo, device, param);
}
// An array-valued device query (CL_DEVICE_OPENCL_C_FEATURES, ...) as its elements.
template <class T> std::vector<T> device_list(cl_device_id device, cl_device_info param) {
  const std::vector<char> bytes = info_bytes(clGetDeviceInfo, device, param);
  std::vector<T> list(bytes.size() / sizeof(T));
  std::memcpy(list.data(), bytes.data(), list.size() * sizeof(T));
  return list;
}
inline std::string platform_string(cl_platform_id platform, cl_platform_info param) {
  return info_string(clGetPlatformInfo, platform, param);
}
template <class T> T mem_info(cl_mem mem, cl_mem_info param) {
  return info_value<T>(clGetMemObjectInfo, mem, param);
}

// A read-write buffer of `bytes`, a copy of `init` when given; a failure is a test failure.
inline cl_mem make_buffer(cl_context context, size_t bytes, const void* init = nullptr) {
  cl_int err;
  cl_mem m = clCreateBuffer(context, init ? CL_MEM_COPY_HOST_PTR : CL_MEM_READ_WRITE, bytes,
                            const_cast<void*>(init), &err);
  EXPECT_EQ(err, CL_SUCCESS);
  return m;
}

// A context + in-order queue on the first amcl device; collects notify-callback messages.
struct Env {
  cl_platform_id platform = nullptr;
  cl_device_id device = nullptr;
  cl_context context = nullptr;
  cl_command_queue queue = nullptr;
  std::mutex mutex;
  std::vector<std::string> notes;

  static void CL_CALLBACK notify(const char* msg, const void*, size_t, void* self) {
    auto* env = static_cast<Env*>(self);
    std::lock_guard lock(env->mutex);
    env->notes.emplace_back(msg);
  }
  Env() {
    platform = amcl_platform();
    if (!platform) return;
    clGetDeviceIDs(platform, CL_DEVICE_TYPE_GPU, 1, &device, nullptr);
    cl_int err;
    context = clCreateContext(nullptr, 1, &device, &Env::notify, this, &err);
    queue = clCreateCommandQueueWithProperties(context, device, nullptr, &err);
  }
  ~Env() {
    if (queue) clReleaseCommandQueue(queue);
    if (context) clReleaseContext(context);
  }
  // A program built from `src`; a failed build is a test failure showing the build log, and
  // returns nullptr.
  cl_program program(const char* src, const char* options = "") {
    cl_int err;
    cl_program p = clCreateProgramWithSource(context, 1, &src, nullptr, &err);
    EXPECT_EQ(err, CL_SUCCESS);
    if (clBuildProgram(p, 1, &device, options, nullptr, nullptr) != CL_SUCCESS) {
      char log[16384] = "";
      clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_LOG, sizeof log, log, nullptr);
      ADD_FAILURE() << "build failed (" << options << "): " << log;
      clReleaseProgram(p);
      return nullptr;
    }
    return p;
  }
  // Builds `src` with `options` and returns clBuildProgram's status (tests of build failures
  // check it); the build log goes to `log` and, when the build succeeded, the program to `keep`.
  cl_int try_build(const std::string& src, const std::string& options, std::string* log = nullptr,
                   cl_program* keep = nullptr) {
    const char* text = src.c_str();
    cl_program p = clCreateProgramWithSource(context, 1, &text, nullptr, nullptr);
    const cl_int err = clBuildProgram(p, 1, &device, options.c_str(), nullptr, nullptr);
    if (log) {
      char buf[8192] = "";
      clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_LOG, sizeof buf, buf, nullptr);
      *log = buf;
    }
    if (keep && err == CL_SUCCESS)
      *keep = p;
    else
      clReleaseProgram(p);
    return err;
  }
  cl_kernel kernel(const char* src, const char* name) {
    cl_program p = program(src);
    if (!p) return nullptr;
    cl_int err;
    cl_kernel k = clCreateKernel(p, name, &err);
    EXPECT_EQ(err, CL_SUCCESS);
    clReleaseProgram(p); // the kernel keeps the program alive
    return k;
  }
  // CL_DEVICE_MEM_BASE_ADDR_ALIGN in bytes: where sub-buffers may start.
  size_t sub_buffer_align() {
    return device_info<cl_uint>(device, CL_DEVICE_MEM_BASE_ADDR_ALIGN) / 8;
  }
  cl_mem buffer(size_t bytes, const void* init = nullptr) {
    return make_buffer(context, bytes, init);
  }
  // The event's status now.
  cl_int status(cl_event e) {
    cl_int s = 1;
    clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof s, &s, nullptr);
    return s;
  }
  // The event's final status: enqueues return before their commands run.
  cl_int final_status(cl_event e) {
    clWaitForEvents(1, &e);
    return status(e);
  }
  bool noted(const std::string& needle) {
    std::lock_guard lock(mutex);
    for (auto& n : notes)
      if (n.find(needle) != std::string::npos) return true;
    return false;
  }
};

// The first device of the platform whose name contains `name_part` (amcl, PoCL), with a
// context and an in-order queue: the differential tests run the same kernels on two of them.
struct PlatformByName {
  cl_device_id device = nullptr;
  cl_context context = nullptr;
  cl_command_queue queue = nullptr;
  explicit PlatformByName(const char* name_part) {
    cl_platform_id ids[16];
    cl_uint n = 0;
    clGetPlatformIDs(16, ids, &n);
    for (cl_uint i = 0; i < n && !device; ++i)
      if (platform_string(ids[i], CL_PLATFORM_NAME).find(name_part) != std::string::npos)
        clGetDeviceIDs(ids[i], CL_DEVICE_TYPE_ALL, 1, &device, nullptr);
    if (!device) return;
    cl_int err;
    context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
    queue = clCreateCommandQueueWithProperties(context, device, nullptr, &err);
  }
  ~PlatformByName() {
    if (queue) clReleaseCommandQueue(queue);
    if (context) clReleaseContext(context);
  }
  PlatformByName(const PlatformByName&) = delete;
  PlatformByName& operator=(const PlatformByName&) = delete;
};

// A context of the platform's first two cards with a queue on each (run with
// AMCL_DEVICES=sim:gfx1100,sim:gfx1201); skips with fewer devices.
struct TwoCards : ::testing::Test {
  cl_platform_id platform = nullptr;
  cl_device_id devices[2] = {};
  cl_context context = nullptr;
  cl_command_queue queues[2] = {};

  void SetUp() override {
    platform = amcl_platform();
    ASSERT_NE(platform, nullptr);
    cl_uint n = 0;
    clGetDeviceIDs(platform, CL_DEVICE_TYPE_GPU, 0, nullptr, &n);
    if (n < 2) GTEST_SKIP() << "needs two devices (AMCL_DEVICES=sim:gfx1100,sim:gfx1201)";
    ASSERT_EQ(clGetDeviceIDs(platform, CL_DEVICE_TYPE_GPU, 2, devices, nullptr), CL_SUCCESS);
    cl_int err;
    context = clCreateContext(nullptr, 2, devices, nullptr, nullptr, &err);
    ASSERT_EQ(err, CL_SUCCESS);
    for (int i = 0; i < 2; ++i) {
      queues[i] = clCreateCommandQueueWithProperties(context, devices[i], nullptr, &err);
      ASSERT_EQ(err, CL_SUCCESS);
    }
  }
  void TearDown() override {
    for (cl_command_queue q : queues)
      if (q) clReleaseCommandQueue(q);
    if (context) clReleaseContext(context);
  }
};

// What amcl's threads do after the moment a test observes (a callback after the completion a
// wait sees, a detached call returning) follows shortly: true once `done` holds, polled every
// millisecond for at most `seconds`.
inline bool eventually(const std::function<bool()>& done, double seconds = 5) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (!done() && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  return done();
}

} // namespace amcl_test
