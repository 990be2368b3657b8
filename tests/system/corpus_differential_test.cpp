// Differential run of the kernel corpus (tests/corpus): every kernel runs on amcl's emulated
// gfx1100 and on PoCL with the same inputs, through the ICD loader in one process. Integer
// results must agree bit for bit, floating-point ones within a few ULP (both implementations
// are allowed the OpenCL spec's error, so they may differ by twice its bound).
#include "cl_helpers.h"

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <regex>
#include <sstream>

namespace {

constexpr size_t kItems = 256, kLocal = 64, kBytes = 4096;

struct Platform : amcl_test::PlatformByName {
  using PlatformByName::PlatformByName;
  bool has_extension(const char* ext) {
    return amcl_test::device_string(device, CL_DEVICE_EXTENSIONS).find(ext) != std::string::npos;
  }
  cl_program build(const std::string& src, std::string& log,
                   const std::string& extra_options = "") {
    const char* p = src.c_str();
    cl_int err;
    cl_program prog = clCreateProgramWithSource(context, 1, &p, nullptr, &err);
    const std::string options = "-cl-std=CL3.0 " + extra_options;
    if (clBuildProgram(prog, 1, &device, options.c_str(), nullptr, nullptr) != CL_SUCCESS) {
      char buf[16384] = "";
      clGetProgramBuildInfo(prog, device, CL_PROGRAM_BUILD_LOG, sizeof buf, buf, nullptr);
      log = buf;
      clReleaseProgram(prog);
      return nullptr;
    }
    return prog;
  }
  // Runs `name` and returns the output buffer, or an error string.
  std::string run(cl_program prog, const std::string& name, const std::vector<uint8_t>& a,
                  const std::vector<uint8_t>& b, std::vector<uint8_t>& out) {
    cl_int err;
    cl_kernel k = clCreateKernel(prog, name.c_str(), &err);
    if (!k) return "clCreateKernel " + std::to_string(err);
    std::vector<uint8_t> zero(kBytes, 0);
    cl_mem ma = clCreateBuffer(context, CL_MEM_COPY_HOST_PTR, kBytes, const_cast<uint8_t*>(a.data()), &err);
    cl_mem mb = clCreateBuffer(context, CL_MEM_COPY_HOST_PTR, kBytes, const_cast<uint8_t*>(b.data()), &err);
    cl_mem mo = clCreateBuffer(context, CL_MEM_COPY_HOST_PTR, kBytes, zero.data(), &err);
    clSetKernelArg(k, 0, sizeof mo, &mo);
    clSetKernelArg(k, 1, sizeof ma, &ma);
    clSetKernelArg(k, 2, sizeof mb, &mb);
    size_t g = kItems, l = kLocal;
    cl_event e = nullptr;
    err = clEnqueueNDRangeKernel(queue, k, 1, nullptr, &g, &l, 0, nullptr, &e);
    std::string result;
    cl_int status = CL_COMPLETE;
    if (e) {
      clWaitForEvents(1, &e);
      clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr);
      clReleaseEvent(e);
    }
    if (err != CL_SUCCESS || status != CL_COMPLETE) {
      result = "enqueue " + std::to_string(err) + " status " + std::to_string(status);
    } else {
      out.resize(kBytes);
      clEnqueueReadBuffer(queue, mo, CL_TRUE, 0, kBytes, out.data(), 0, nullptr, nullptr);
    }
    clReleaseMemObject(ma);
    clReleaseMemObject(mb);
    clReleaseMemObject(mo);
    clReleaseKernel(k);
    return result;
  }
};

std::vector<std::string> kernel_names(const std::string& src) {
  std::vector<std::string> names;
  std::regex re(R"(^K\((\w+)\))", std::regex::multiline);
  for (std::sregex_iterator it(src.begin(), src.end(), re), end; it != end; ++it) names.push_back((*it)[1]);
  return names;
}

void fill(const std::string& name, std::vector<uint8_t>& a, std::vector<uint8_t>& b, uint32_t seed) {
  std::mt19937 rng(seed);
  a.assign(kBytes, 0);
  b.assign(kBytes, 0);
  auto ends = [&](const char* suffix) {
    return name.size() > 4 && name.compare(name.size() - 4, 4, suffix) == 0;
  };
  if (ends("_f32") || (name.size() > 3 && name.compare(name.size() - 3, 3, "_fi") == 0)) {
    std::uniform_real_distribution<float> da(-100.0f, 100.0f), db(0.5f, 10.0f);
    for (size_t i = 0; i < kBytes / 4; ++i) {
      float x = da(rng), y = db(rng);
      std::memcpy(&a[4 * i], &x, 4);
      std::memcpy(&b[4 * i], &y, 4);
    }
  } else if (ends("_f64")) {
    std::uniform_real_distribution<double> da(-100.0, 100.0), db(0.5, 10.0);
    for (size_t i = 0; i < kBytes / 8; ++i) {
      double x = da(rng), y = db(rng);
      std::memcpy(&a[8 * i], &x, 8);
      std::memcpy(&b[8 * i], &y, 8);
    }
  } else {
    for (auto& v : a) v = uint8_t(rng());
    for (auto& v : b) v = uint8_t(rng());
  }
}

// Distance in units in the last place, through the ordered integer representation.
template <class F, class I> uint64_t ulp_distance(F x, F y) {
  if (std::isnan(x) && std::isnan(y)) return 0;
  if (std::isnan(x) || std::isnan(y)) return UINT64_MAX;
  I ix, iy;
  std::memcpy(&ix, &x, sizeof x);
  std::memcpy(&iy, &y, sizeof y);
  if (ix < 0) ix = std::numeric_limits<I>::min() - ix;
  if (iy < 0) iy = std::numeric_limits<I>::min() - iy;
  return ix > iy ? uint64_t(ix - iy) : uint64_t(iy - ix);
}

std::string compare(const std::string& name, const std::vector<uint8_t>& ours, const std::vector<uint8_t>& ref) {
  auto ends = [&](const char* suffix) {
    return name.size() > 4 && name.compare(name.size() - 4, 4, suffix) == 0;
  };
  const uint64_t tolerance = 8; // 2 x the 4-ulp bound of the spec's f32/f64 builtins in the corpus
  if (ends("_f32")) {
    for (size_t i = 0; i < kBytes / 4; ++i) {
      float x, y;
      std::memcpy(&x, &ours[4 * i], 4);
      std::memcpy(&y, &ref[4 * i], 4);
      if (ulp_distance<float, int32_t>(x, y) > tolerance)
        return "element " + std::to_string(i) + ": amcl " + std::to_string(x) + " PoCL " + std::to_string(y);
    }
  } else if (ends("_f64")) {
    for (size_t i = 0; i < kBytes / 8; ++i) {
      double x, y;
      std::memcpy(&x, &ours[8 * i], 8);
      std::memcpy(&y, &ref[8 * i], 8);
      if (ulp_distance<double, int64_t>(x, y) > tolerance)
        return "element " + std::to_string(i) + ": amcl " + std::to_string(x) + " PoCL " + std::to_string(y);
    }
  } else {
    for (size_t i = 0; i < kBytes / 4; ++i) {
      uint32_t x, y;
      std::memcpy(&x, &ours[4 * i], 4);
      std::memcpy(&y, &ref[4 * i], 4);
      if (x != y) {
        char buf[96];
        std::snprintf(buf, sizeof buf, "word %zu: amcl 0x%08x PoCL 0x%08x", i, x, y);
        return buf;
      }
    }
  }
  return "";
}

} // namespace

TEST(CorpusDifferential, AmclAgreesWithPocl) {
  Platform amcl("amcl"), pocl("Portable Computing Language");
  ASSERT_TRUE(amcl.device) << "amcl platform missing";
  if (!pocl.device) GTEST_SKIP() << "PoCL (pocl-opencl-icd) is not installed";
  size_t ran = 0;
  std::vector<std::string> failures;
  // Extra build options for amcl (the wave64 run gives -mwavefrontsize64), and the sub-group
  // size its kernels must then have: the options must really change the code that runs.
  const char* env_options = std::getenv("AMCL_CORPUS_OPTIONS");
  const std::string options = env_options ? env_options : "";
  const size_t expected_wave = options.find("-mwavefrontsize64") != std::string::npos ? 64 : 32;
  for (const auto& entry : std::filesystem::directory_iterator(AMCL_CORPUS_DIR)) {
    if (entry.path().extension() != ".cl") continue;
    std::ifstream f(entry.path());
    std::stringstream ss;
    ss << f.rdbuf();
    const std::string src = ss.str(), file = entry.path().filename().string();
    // A file that needs an extension the device does not report is not amcl's to run.
    std::string missing;
    for (const char* ext : {"cl_khr_fp16", "cl_khr_subgroups"})
      if (src.find(ext) != std::string::npos && !amcl.has_extension(ext)) missing = ext;
    if (!missing.empty()) {
      std::printf("differential: %s skipped (device does not report %s)\n", file.c_str(), missing.c_str());
      continue;
    }
    std::string log;
    cl_program pa = amcl.build(src, log, options);
    if (!pa) {
      failures.push_back(file + ": amcl cannot build it: " + log.substr(0, 300));
      continue;
    }
    if (cl_kernel k = clCreateKernel(pa, kernel_names(src).at(0).c_str(), nullptr)) {
      const size_t local = 64;
      size_t wave = 0;
      clGetKernelSubGroupInfo(k, amcl.device, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
                              sizeof local, &local, sizeof wave, &wave, nullptr);
      if (wave != expected_wave)
        failures.push_back(file + ": kernels have sub-groups of " + std::to_string(wave) +
                           ", not " + std::to_string(expected_wave));
      clReleaseKernel(k);
    }
    cl_program pp = pocl.build(src, log);
    if (!pp) {
      std::printf("differential: %s has no reference (PoCL cannot build it)\n", file.c_str());
      clReleaseProgram(pa);
      continue;
    }
    uint32_t seed = 1;
    for (const std::string& name : kernel_names(src)) {
      std::vector<uint8_t> a, b, ours, ref;
      fill(name, a, b, seed++);
      if (std::getenv("AMCL_TRACE_CORPUS")) std::fprintf(stderr, "corpus: %s\n", name.c_str());
      std::string err = amcl.run(pa, name, a, b, ours);
      if (!err.empty()) {
        failures.push_back(file + ":" + name + ": amcl " + err);
        continue;
      }
      err = pocl.run(pp, name, a, b, ref);
      if (!err.empty()) continue; // no reference result
      ++ran;
      std::string diff = compare(name, ours, ref);
      if (!diff.empty()) failures.push_back(file + ":" + name + ": " + diff);
    }
    clReleaseProgram(pa);
    clReleaseProgram(pp);
  }
  std::string all;
  for (auto& f : failures) all += "  " + f + "\n";
  std::printf("differential: %zu kernels compared, %zu failures\n", ran, failures.size());
  EXPECT_GE(ran, 150u);
  EXPECT_TRUE(failures.empty()) << all;
}
