// A platform the builtin differential tests build and run generated kernels on: amcl or PoCL,
// found by name, one program at a time, one NDRange at a time.
#pragma once
#include "cl_helpers.h"

#include <cstdint>
#include <string>
#include <vector>

namespace amcl_test {

struct NdRange {
  cl_uint dims = 1;
  size_t global[3] = {1, 1, 1}, local[3] = {1, 1, 1}, offset[3] = {0, 0, 0};
};

struct BuiltinPlatform : PlatformByName {
  using PlatformByName::PlatformByName;
  // The program built with -cl-std=CL3.0, or nullptr and the build log.
  cl_program build(const std::string& src, std::string& log) {
    const char* p = src.c_str();
    cl_int err;
    cl_program prog = clCreateProgramWithSource(context, 1, &p, nullptr, &err);
    if (clBuildProgram(prog, 1, &device, "-cl-std=CL3.0", nullptr, nullptr) != CL_SUCCESS) {
      std::vector<char> buf(1 << 16);
      clGetProgramBuildInfo(prog, device, CL_PROGRAM_BUILD_LOG, buf.size(), buf.data(), nullptr);
      log = buf.data();
      clReleaseProgram(prog);
      return nullptr;
    }
    return prog;
  }
  // Runs `name` (out, in[, constant in]) over `range` with `out` as the output buffer's initial
  // contents, read back into `out`; the third argument, if the kernel has one, is the first
  // `constant_bytes` of `in`. "" or what went wrong.
  std::string run(cl_program prog, const std::string& name, const NdRange& range,
                  const std::vector<uint8_t>& in, std::vector<uint8_t>& out,
                  size_t constant_bytes = 0) {
    cl_int err;
    cl_kernel k = clCreateKernel(prog, name.c_str(), &err);
    if (!k) return "clCreateKernel " + std::to_string(err);
    cl_uint args = 0;
    clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof args, &args, nullptr);
    cl_mem mi = clCreateBuffer(context, CL_MEM_COPY_HOST_PTR, in.size(),
                               const_cast<uint8_t*>(in.data()), &err);
    cl_mem mo = clCreateBuffer(context, CL_MEM_COPY_HOST_PTR, out.size(), out.data(), &err);
    cl_mem mc = nullptr;
    clSetKernelArg(k, 0, sizeof mo, &mo);
    clSetKernelArg(k, 1, sizeof mi, &mi);
    if (args > 2) {
      mc = clCreateBuffer(context, CL_MEM_COPY_HOST_PTR, constant_bytes,
                          const_cast<uint8_t*>(in.data()), &err);
      clSetKernelArg(k, 2, sizeof mc, &mc);
    }
    cl_event e = nullptr;
    err = clEnqueueNDRangeKernel(queue, k, range.dims, range.offset, range.global, range.local, 0,
                                 nullptr, &e);
    cl_int status = CL_COMPLETE;
    if (e) {
      clWaitForEvents(1, &e);
      clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr);
      clReleaseEvent(e);
    }
    std::string result;
    if (err != CL_SUCCESS || status != CL_COMPLETE)
      result = "enqueue " + std::to_string(err) + " status " + std::to_string(status);
    else
      clEnqueueReadBuffer(queue, mo, CL_TRUE, 0, out.size(), out.data(), 0, nullptr, nullptr);
    clReleaseMemObject(mi);
    clReleaseMemObject(mo);
    if (mc) clReleaseMemObject(mc);
    clReleaseKernel(k);
    return result;
  }
};

} // namespace amcl_test
