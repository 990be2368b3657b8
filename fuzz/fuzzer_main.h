// What every libFuzzer target does with a broken promise: name it and crash, so libFuzzer
// saves the input as a reproducer (crash-<sha1> under -artifact_prefix).
#pragma once
#include <cstdio>
#include <string>

namespace amcl_fuzz {

inline void require(const std::string& failure) {
  if (failure.empty()) return;
  std::fprintf(stderr, "amcl fuzz: %s\n", failure.c_str());
  __builtin_trap();
}

} // namespace amcl_fuzz
