// What a SPIR-V program's build costs, split into the translator's helper process (spawn, and
// spawn + translation + reading its bitcode) and the rest (parsing, lowering to AMDGPU,
// builtins, optimisation, code generation, lld): the first build of a process with an empty
// cache, later uncached builds, and builds the cache serves. Calls compiler/ directly, since
// the split is not visible through the API.
//
//   build/bench/spirv_build_time [module.spv]   (default: the test module kernels.spv)
#include "compiler/compiler.h"
#include "compiler/spirv_module.h"
#include "compiler/spirv_translator.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

using namespace amcl::compiler;

namespace {

double now_ms() {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}
double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

} // namespace

int main(int argc, char** argv) {
  const std::string path = argc > 1 ? argv[1] : AMCL_SPIRV_TEST_DIR "/kernels.spv";
  std::ifstream f(path, std::ios::binary);
  const std::vector<uint8_t> spv{std::istreambuf_iterator<char>(f),
                                 std::istreambuf_iterator<char>()};
  std::string error;
  const auto prepared = prepare_spirv(spv, {}, error);
  if (!prepared) return std::fprintf(stderr, "%s: %s\n", path.c_str(), error.c_str()), 1;
  char dir[] = "/tmp/amcl-spirv-bench-XXXXXX";
  if (!mkdtemp(dir)) return 1;
  setenv("AMCL_CACHE_DIR", dir, 1);

  BuildRequest req;
  req.il = spv;
  double t0 = now_ms();
  BuildResult first = build(req);
  const double first_ms = now_ms() - t0;
  if (!first.ok) return std::fprintf(stderr, "build failed:\n%s", first.log.c_str()), 1;

  constexpr int kRuns = 7;
  std::vector<double> spawn, helper, uncached, cached;
  for (int i = 0; i < kRuns; ++i) {
    SpirvTranslation t = translate_spirv(*prepared);
    if (!t.ok) return std::fprintf(stderr, "translation failed:\n%s", t.log.c_str()), 1;
    spawn.push_back(t.spawn_ms), helper.push_back(t.total_ms);
    t0 = now_ms();
    build_uncached(req);
    uncached.push_back(now_ms() - t0);
    t0 = now_ms();
    BuildResult hit = build(req);
    cached.push_back(now_ms() - t0);
    if (!hit.cached) std::fprintf(stderr, "warning: build %d was not served by the cache\n", i);
  }
  std::printf("module %s: %zu bytes, medians of %d runs (ms)\n", path.c_str(), spv.size(), kRuns);
  std::printf("  helper spawn (posix_spawn)                 %8.2f\n", median(spawn));
  std::printf("  helper spawn + translation + bitcode read  %8.2f\n", median(helper));
  std::printf("  build, uncached (helper included)          %8.2f\n", median(uncached));
  std::printf("    of which the rest (LLVM 22 side)         %8.2f\n",
              median(uncached) - median(helper));
  std::printf("  build, served by the cache                 %8.2f\n", median(cached));
  std::printf("  first build of the process, empty cache    %8.2f\n", first_ms);
  std::filesystem::remove_all(dir);
  return 0;
}
