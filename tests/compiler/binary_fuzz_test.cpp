// A bounded mutation fuzzer over what clCreateProgramWithBinary feeds the compiler layer:
// classify_binary and the code-object reader must reject or accept every mutant of a real
// executable, compiled object and library without crashing, reading out of bounds (ASan
// builds) or allocating without bound, and whatever they accept must be self-consistent.
// AMCL_FUZZ_SECONDS (default 10) bounds the run; AMCL_FUZZ_SEED picks another sequence.
// The checks per input live in fuzz/code_object_target.cpp, shared with the libFuzzer target
// fuzz/code_object_fuzzer.cpp (which mutates with libFuzzer's own engine).
#include "compiler/compiler.h"
#include "fuzz/budget.h"
#include "fuzz/code_object_target.h"

#include <gtest/gtest.h>

#include <chrono>
#include <random>

using namespace amcl::compiler;

namespace {

const char* kSource = R"(
kernel void scale(global float* p, float f) { p[get_global_id(0)] *= f; }
kernel void fill(global int* p, int v) { p[get_global_id(0)] = v; }
)";

// One mutation of the kinds that break parsers: bit flips, boundary values written over
// fields of every width, truncation, duplication and deletion of chunks.
void mutate(std::vector<uint8_t>& b, std::mt19937_64& rng) {
  auto pick = [&](size_t n) { return n ? size_t(rng() % n) : 0; };
  static const uint64_t kBoundary[] = {0,
                                       1,
                                       0x7f,
                                       0x80,
                                       0xff,
                                       0xffff,
                                       0x7fffffff,
                                       0x80000000,
                                       0xffffffff,
                                       0x100000000ull,
                                       0x7fffffffffffffffull,
                                       ~0ull};
  switch (rng() % 6) {
  case 0: // flip a few bits
    for (int i = 0, n = 1 + int(rng() % 4); i < n && !b.empty(); ++i)
      b[pick(b.size())] ^= uint8_t(1u << (rng() % 8));
    break;
  case 1: { // a boundary value over a 1/2/4/8-byte field
    const size_t width = size_t(1) << (rng() % 4);
    if (b.size() < width) break;
    const size_t at = pick(b.size() - width + 1);
    const uint64_t v = kBoundary[pick(std::size(kBoundary))];
    for (size_t i = 0; i < width; ++i) b[at + i] = uint8_t(v >> (8 * i));
    break;
  }
  case 2: // truncate
    b.resize(pick(b.size() + 1));
    break;
  case 3: { // duplicate a chunk somewhere else
    if (b.empty()) break;
    const size_t from = pick(b.size()), len = 1 + pick(std::min<size_t>(64, b.size() - from));
    std::vector<uint8_t> chunk(b.begin() + long(from), b.begin() + long(from + len));
    b.insert(b.begin() + long(pick(b.size() + 1)), chunk.begin(), chunk.end());
    break;
  }
  case 4: { // delete a chunk
    if (b.empty()) break;
    const size_t from = pick(b.size()), len = 1 + pick(std::min<size_t>(64, b.size() - from));
    b.erase(b.begin() + long(from), b.begin() + long(from + len));
    break;
  }
  default: // random bytes
    for (int i = 0, n = 1 + int(rng() % 16); i < n && !b.empty(); ++i)
      b[pick(b.size())] = uint8_t(rng());
  }
}

} // namespace

TEST(BinaryFuzz, MutantsAreRejectedOrConsistent) {
  BuildResult exe = build({kSource, "", "gfx1100"});
  BuildResult obj = compile({kSource, "", "gfx1100"});
  ASSERT_TRUE(exe.ok && obj.ok) << exe.log << obj.log;
  BuildResult lib = link({{obj.binary}, "-create-library", "gfx1100"});
  ASSERT_TRUE(lib.ok) << lib.log;
  ASSERT_EQ(classify_binary(exe.binary), BinaryKind::Executable);
  ASSERT_EQ(classify_binary(obj.binary), BinaryKind::Object);
  ASSERT_EQ(classify_binary(lib.binary), BinaryKind::Library);
  const std::vector<std::vector<uint8_t>> seeds = {exe.binary, obj.binary, lib.binary};

  const auto [seconds, seed] = amcl_fuzz::Budget::from_env();
  std::mt19937_64 rng(seed);
  const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  size_t runs = 0, accepted = 0;
  while (std::chrono::steady_clock::now() < end) {
    std::vector<uint8_t> b = seeds[runs % seeds.size()];
    for (int i = 0, n = 1 + int(rng() % 4); i < n; ++i) mutate(b, rng);
    const std::string failure = amcl_fuzz::exercise_code_object(b);
    ASSERT_EQ(failure, "") << "mutant " << runs << " of seed " << seed;
    accepted += classify_binary(b) != BinaryKind::Invalid;
    ++runs;
  }
  std::printf("binary fuzz: %zu mutants in %.0f s (seed %llu), %zu still accepted\n", runs, seconds,
              (unsigned long long)seed, accepted);
  EXPECT_GT(runs, 0u);
}
