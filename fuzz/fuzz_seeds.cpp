// Writes the seed corpora of the libFuzzer targets into <dir>/<target>/: a real executable,
// compiled object and library for code_object_fuzzer; each kernel of the corpus (empty
// options line, then the source) for build_fuzzer; the emulated card's IP discovery binary. The byte-driven targets (api, pm4, sdma)
// start from nothing: libFuzzer grows their decision streams itself.
#include "compiler/compiler.h"
#include "sim/card_model.h"
#include "sim/ip_discovery.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace fs = std::filesystem;
using namespace amcl::compiler;

namespace {

bool write(const fs::path& p, const std::string& bytes) {
  std::ofstream f(p, std::ios::binary);
  f << bytes;
  return bool(f);
}
std::string str(const std::vector<uint8_t>& b) { return {b.begin(), b.end()}; }

} // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: fuzz_seeds <output dir> <kernel corpus dir>\n");
    return 2;
  }
  const fs::path out = argv[1];
  const char* kSource = "kernel void scale(global float* p, float f) { p[get_global_id(0)] *= f; }\n"
                        "kernel void fill(global int* p, int v) { p[get_global_id(0)] = v; }\n";
  const BuildResult exe = build({kSource, "", "gfx1100"}), obj = compile({kSource, "", "gfx1100"});
  if (!exe.ok || !obj.ok) {
    std::fprintf(stderr, "fuzz_seeds: the seed kernel does not build:\n%s%s", exe.log.c_str(),
                 obj.log.c_str());
    return 1;
  }
  const BuildResult lib = link({{obj.binary}, "-create-library", "gfx1100"});
  fs::create_directories(out / "code_object");
  fs::create_directories(out / "build");
  fs::create_directories(out / "ip_discovery");
  const std::vector<uint8_t> discovery = sim::build_ip_discovery(sim::find_card_model("gfx1100")->blocks);
  bool ok = lib.ok && write(out / "code_object" / "executable", str(exe.binary)) &&
            write(out / "code_object" / "object", str(obj.binary)) &&
            write(out / "code_object" / "library", str(lib.binary)) &&
            write(out / "ip_discovery" / "gfx1100", str(discovery));
  for (const auto& e : fs::directory_iterator(argv[2])) {
    if (e.path().extension() != ".cl") continue;
    std::ifstream f(e.path());
    std::stringstream ss;
    ss << "\n" << f.rdbuf();
    ok = ok && write(out / "build" / e.path().filename(), ss.str());
  }
  if (!ok) std::fprintf(stderr, "fuzz_seeds: could not write the seeds under %s\n", argv[1]);
  return ok ? 0 : 1;
}
