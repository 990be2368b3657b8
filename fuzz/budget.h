// How long the bounded gtest fuzz loops run and which sequence they draw: AMCL_FUZZ_SECONDS
// (default 10) and AMCL_FUZZ_SEED (default 1). The libFuzzer targets take -max_total_time
// instead (scripts/run-fuzzers.sh).
#pragma once
#include <cstdint>
#include <cstdlib>

namespace amcl_fuzz {

struct Budget {
  double seconds = 10.0;
  uint64_t seed = 1;
  static Budget from_env() {
    Budget b;
    if (const char* s = std::getenv("AMCL_FUZZ_SECONDS")) b.seconds = std::atof(s);
    if (const char* s = std::getenv("AMCL_FUZZ_SEED")) b.seed = std::strtoull(s, nullptr, 0);
    return b;
  }
};

} // namespace amcl_fuzz
