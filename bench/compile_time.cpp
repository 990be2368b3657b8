// Compile time of a fixed kernel corpus (tests/corpus/*.cl), cold and cached, amcl beside
// PoCL in the same process. Both compilers get a fresh, empty cache directory, so the first
// clBuildProgram of each file is cold and the second (a new program object with the same
// source and options) is served from the cache.
//
//   OCL_ICD_VENDORS=<build>/vendors build/bench/compile_time [corpus dir]
#include "bench_util.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace {

struct Times {
  double cold_ms = 0, cached_ms = 0;
  bool ok = true;
};

double build_ms(bench::Platform& p, const std::string& src, bool& ok) {
  const char* s = src.c_str();
  cl_program prog = clCreateProgramWithSource(p.context, 1, &s, nullptr, nullptr);
  const double t0 = bench::now_us();
  ok = clBuildProgram(prog, 1, &p.device, "-cl-std=CL3.0", nullptr, nullptr) == CL_SUCCESS && ok;
  const double ms = (bench::now_us() - t0) / 1000;
  clReleaseProgram(prog);
  return ms;
}

Times measure(bench::Platform& p, const std::string& src) {
  Times t;
  t.cold_ms = build_ms(p, src, t.ok);
  t.cached_ms = build_ms(p, src, t.ok);
  return t;
}

} // namespace

int main(int argc, char** argv) {
  const std::filesystem::path corpus = argc > 1 ? argv[1] : AMCL_CORPUS_DIR;
  // Fresh caches, set before either implementation initialises.
  char dir[] = "/tmp/amcl-bench-cache-XXXXXX";
  if (!mkdtemp(dir)) return 1;
  const std::string amcl_cache = std::string(dir) + "/amcl",
                    pocl_cache = std::string(dir) + "/pocl";
  setenv("AMCL_CACHE_DIR", amcl_cache.c_str(), 1);
  setenv("POCL_CACHE_DIR", pocl_cache.c_str(), 1);
  setenv("POCL_KERNEL_CACHE", "1", 1);
  bench::Platform amcl(bench::kAmcl), pocl(bench::kPocl);
  if (!amcl) {
    std::fprintf(stderr, "the amcl platform is not available (set OCL_ICD_VENDORS)\n");
    return 1;
  }
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(corpus))
    if (e.path().extension() == ".cl") files.push_back(e.path());
  std::sort(files.begin(), files.end());

  std::printf("%-18s %12s %12s %12s %12s %10s %10s\n", "file (ms/build)", "amcl cold",
              "amcl cached", "PoCL cold", "PoCL cached", "cold P/a", "cached P/a");
  char extensions[4096] = "";
  clGetDeviceInfo(amcl.device, CL_DEVICE_EXTENSIONS, sizeof extensions, extensions, nullptr);
  Times total_a, total_p;
  size_t counted = 0;
  for (const auto& f : files) {
    std::ifstream in(f);
    std::stringstream ss;
    ss << in.rdbuf();
    // A file that needs an extension amcl does not report is not a fair comparison.
    if (ss.str().find("cl_khr_fp16") != std::string::npos &&
        !std::strstr(extensions, "cl_khr_fp16")) {
      std::printf("%-18s skipped: needs cl_khr_fp16\n", f.filename().c_str());
      continue;
    }
    ++counted;
    const Times a = measure(amcl, ss.str());
    const Times p = pocl ? measure(pocl, ss.str()) : Times{0, 0, false};
    total_a.cold_ms += a.cold_ms, total_a.cached_ms += a.cached_ms;
    total_p.cold_ms += p.cold_ms, total_p.cached_ms += p.cached_ms;
    std::printf("%-18s %12.2f %12.2f %12.2f %12.2f %10s %10s%s\n", f.filename().c_str(), a.cold_ms,
                a.cached_ms, p.cold_ms, p.cached_ms, bench::ratio(p.cold_ms, a.cold_ms).c_str(),
                bench::ratio(p.cached_ms, a.cached_ms).c_str(),
                a.ok ? "" : "  (amcl build FAILED)");
  }
  const double n = double(std::max<size_t>(counted, 1));
  std::printf("%-18s %12.2f %12.2f %12.2f %12.2f %10s %10s\n", "mean", total_a.cold_ms / n,
              total_a.cached_ms / n, total_p.cold_ms / n, total_p.cached_ms / n,
              bench::ratio(total_p.cold_ms, total_a.cold_ms).c_str(),
              bench::ratio(total_p.cached_ms, total_a.cached_ms).c_str());
  std::filesystem::remove_all(dir);
  return 0;
}
