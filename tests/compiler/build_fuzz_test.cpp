// The build path under mutated OpenCL C and random option strings: every request ends in a
// code object or a failure with a log, never a crash, a hang or an abort inside LLVM (the
// whole pipeline runs: clang, builtins, optimiser, code generation, lld). Bounded by
// AMCL_FUZZ_SECONDS (default 10); AMCL_FUZZ_SEED picks another sequence. The checks per input
// live in fuzz/build_target.cpp, shared with the libFuzzer target fuzz/build_fuzzer.cpp.
#include "fuzz/budget.h"
#include "fuzz/build_target.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <sstream>

namespace {

std::vector<std::string> corpus() {
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::directory_iterator(AMCL_CORPUS_DIR))
    if (e.path().extension() == ".cl") {
      std::ifstream f(e.path());
      std::stringstream ss;
      ss << f.rdbuf();
      files.push_back(ss.str());
    }
  std::sort(files.begin(), files.end());
  return files;
}

// Source mutations that keep a program plausible enough to get past the parser sometimes.
std::string mutate(std::string s, std::mt19937_64& rng) {
  static const char* kTokens[] = {
      "(",      ")",       "{",      "}",          ";",           "*",
      "&",      "[",       "]",      "__local",    "__global",    "barrier(0)",
      "int",    "float4",  "double", "0x7fffffff", "1e38f",       "#if 0",
      "#endif", "\\",      "\"",     "/*",         "atomic_add(", "get_global_id(",
      "return", "goto l;", "l:",     "...",        "#define"};
  for (int n = 1 + int(rng() % 2); n > 0 && !s.empty(); --n) {
    const size_t at = rng() % s.size();
    switch (rng() % 4) {
    case 0:
      s[at] = char(rng() % 128);
      break;
    case 1:
      s.erase(at, 1 + rng() % 16);
      break;
    case 2:
      s.insert(at, kTokens[rng() % std::size(kTokens)]);
      break;
    default: { // duplicate a line-sized piece
      const size_t from = rng() % s.size();
      s.insert(at, s.substr(from, 1 + rng() % 80));
    }
    }
  }
  return s;
}

std::string options(std::mt19937_64& rng) {
  static const char* kOptions[] = {"-cl-std=CL1.2",
                                   "-cl-std=CL3.0",
                                   "-cl-std=CL2.0",
                                   "-cl-std=CL9",
                                   "-cl-opt-disable",
                                   "-cl-fast-relaxed-math",
                                   "-cl-mad-enable",
                                   "-w",
                                   "-Werror",
                                   "-g",
                                   "-DX=1",
                                   "-D",
                                   "-I",
                                   "-I/nonexistent",
                                   "-cl-denorms-are-zero",
                                   "-cl-kernel-arg-info",
                                   "--",
                                   "-x",
                                   "-fsanitize=address",
                                   "-O0",
                                   "\t",
                                   "-D\"a b\""};
  std::string o;
  if (rng() % 2) return o; // half the builds get past option parsing into the pipeline
  for (int n = 1 + int(rng() % 3); n > 0; --n)
    o += std::string(kOptions[rng() % std::size(kOptions)]) + " ";
  return o;
}

} // namespace

TEST(BuildFuzz, MutatedSourcesAndOptionsEndInAResult) {
  const auto [seconds, seed] = amcl_fuzz::Budget::from_env();
  std::mt19937_64 rng(seed);
  const auto files = corpus();
  ASSERT_FALSE(files.empty());
  const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  size_t builds = 0;
  while (std::chrono::steady_clock::now() < end) {
    const std::string source = mutate(files[rng() % files.size()], rng), opts = options(rng);
    const auto mode = (rng() % 3) ? amcl_fuzz::BuildMode::Build : amcl_fuzz::BuildMode::Compile;
    ++builds;
    const std::string failure = amcl_fuzz::exercise_build(source, opts, mode);
    ASSERT_EQ(failure, "") << "build " << builds << " of seed " << seed;
  }
  std::printf("build fuzz: %zu builds in %.0f s (seed %llu)\n", builds, seconds,
              (unsigned long long)seed);
}

namespace {

// Word-level mutations of a SPIR-V module: flipped bits, changed word counts and opcodes,
// words dropped, duplicated or cut off. The header stays (a bad one never reaches a build).
std::vector<uint8_t> mutate_spirv(std::vector<uint8_t> m, std::mt19937_64& rng) {
  const size_t words = m.size() / 4;
  auto at = [&] { return 4 * (5 + rng() % (words - 5)); };
  for (int n = 1 + int(rng() % 3); n > 0; --n) {
    switch (rng() % 5) {
    case 0: m[at() + rng() % 4] ^= uint8_t(1u << (rng() % 8)); break;
    case 1: m[at() + 2 + rng() % 2] = uint8_t(rng()); break; // word count
    case 2: m[at() + rng() % 2] = uint8_t(rng()); break;     // opcode
    case 3: {
      const size_t from = at();
      m.erase(m.begin() + long(from), m.begin() + long(std::min(m.size(), from + 4 * (1 + rng() % 8))));
      break;
    }
    default: {
      const size_t from = at(), to = at();
      std::vector<uint8_t> piece(m.begin() + long(from), m.begin() + long(std::min(m.size(), from + 4 * (1 + rng() % 8))));
      m.insert(m.begin() + long(to), piece.begin(), piece.end());
    }
    }
    if (m.size() / 4 <= 6) break;
  }
  m.resize(m.size() / 4 * 4);
  return m;
}

} // namespace

TEST(BuildFuzz, MutatedSpirvModulesEndInAResult) {
  const auto [seconds, seed] = amcl_fuzz::Budget::from_env();
  std::mt19937_64 rng(seed);
  std::ifstream f(AMCL_SPIRV_TEST_DIR "/kernels.spv", std::ios::binary);
  const std::vector<uint8_t> spv{std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
  ASSERT_GT(spv.size(), 64u);
  const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  size_t builds = 0;
  while (std::chrono::steady_clock::now() < end) {
    const auto module = mutate_spirv(spv, rng);
    const auto mode = (rng() % 3) ? amcl_fuzz::BuildMode::Build : amcl_fuzz::BuildMode::Compile;
    ++builds;
    ASSERT_EQ(amcl_fuzz::exercise_il_build(module, mode), "") << "build " << builds << " of seed " << seed;
  }
  std::printf("SPIR-V build fuzz: %zu builds in %.0f s (seed %llu)\n", builds, seconds,
              (unsigned long long)seed);
}
