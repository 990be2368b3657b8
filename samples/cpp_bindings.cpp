// The Khronos OpenCL C++ bindings (opencl.hpp, Debian's opencl-clhpp-headers) over amcl:
// finds the amcl platform, builds a SAXPY kernel, runs it through cl::KernelFunctor and checks
// every element (exactly: a * x is exact for these inputs, fused or not). Errors arrive as
// cl::Error exceptions.
#define CL_HPP_TARGET_OPENCL_VERSION 300
#define CL_HPP_MINIMUM_OPENCL_VERSION 200
#define CL_HPP_ENABLE_EXCEPTIONS
#include <CL/opencl.hpp>

#include <cstdio>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  const size_t n = argc > 1 ? std::stoul(argv[1]) : 65536;
  try {
    std::vector<cl::Platform> platforms;
    cl::Platform::get(&platforms);
    cl::Platform amcl;
    for (auto& p : platforms)
      if (p.getInfo<CL_PLATFORM_NAME>() == "amcl") amcl = p;
    if (!amcl()) {
      std::fprintf(stderr, "the amcl platform is not visible to the ICD loader (set OCL_ICD_VENDORS)\n");
      return 1;
    }
    std::vector<cl::Device> devices;
    amcl.getDevices(CL_DEVICE_TYPE_GPU, &devices);
    cl::Context context(devices.front());
    cl::CommandQueue queue(context, devices.front());
    cl::Program program(context, std::string("__kernel void saxpy(float a, __global const float* x,\n"
                                             "                    __global float* y) {\n"
                                             "  size_t i = get_global_id(0);\n"
                                             "  y[i] = a * x[i] + y[i];\n"
                                             "}\n"));
    try {
      program.build("-cl-std=CL3.0");
    } catch (const cl::BuildError& e) {
      for (auto& [dev, log] : e.getBuildLog()) std::fprintf(stderr, "build failed:\n%s\n", log.c_str());
      return 1;
    }
    std::vector<float> x(n), y(n);
    for (size_t i = 0; i < n; ++i) x[i] = float(i % 1000) * 0.25f, y[i] = float(i % 7);
    cl::Buffer dx(context, x.begin(), x.end(), true);
    cl::Buffer dy(context, y.begin(), y.end(), false);
    cl::KernelFunctor<float, cl::Buffer, cl::Buffer> saxpy(program, "saxpy");
    saxpy(cl::EnqueueArgs(queue, cl::NDRange(n)), 2.5f, dx, dy).wait();
    std::vector<float> out(n);
    cl::copy(queue, dy, out.begin(), out.end());
    size_t bad = 0;
    for (size_t i = 0; i < n; ++i)
      if (out[i] != 2.5f * x[i] + y[i]) {
        if (bad < 5) std::fprintf(stderr, "y[%zu] = %f, expected %f\n", i, out[i], 2.5f * x[i] + y[i]);
        ++bad;
      }
    std::printf("cpp_bindings (saxpy) on %s: %zu elements, %zu mismatches: %s\n",
                devices.front().getInfo<CL_DEVICE_NAME>().c_str(), n, bad, bad ? "FAILED" : "PASSED");
    return bad ? 1 : 0;
  } catch (const cl::Error& e) {
    std::fprintf(stderr, "OpenCL error %d in %s\n", e.err(), e.what());
    return 1;
  }
}
