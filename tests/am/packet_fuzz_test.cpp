// The packet fuzzer (fuzz/packet_target.cpp) as bounded gtest loops: random PM4 and SDMA
// streams through the driver's real rings; after each, the same queue must execute a
// well-formed packet. AMCL_FUZZ_SECONDS (default 10, split between the engines) bounds the
// run; AMCL_FUZZ_SEED picks another sequence. fuzz/pm4_fuzzer.cpp and fuzz/sdma_fuzzer.cpp
// are the libFuzzer targets.
#include "fuzz/budget.h"
#include "fuzz/packet_target.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>

namespace {

using Stream = std::string (amcl_fuzz::PacketTarget::*)(amcl_fuzz::Choices&);

void fuzz_queue(const char* name, unsigned card, uint64_t seed_offset, Stream run) {
  const amcl_fuzz::Budget budget = amcl_fuzz::Budget::from_env();
  amcl_fuzz::SeededChoices choices(budget.seed + seed_offset);
  amcl_fuzz::PacketTarget target(card);
  const auto end =
      std::chrono::steady_clock::now() + std::chrono::duration<double>(budget.seconds / 2);
  while (std::chrono::steady_clock::now() < end) {
    const std::string failure = (target.*run)(choices);
    ASSERT_EQ(failure, "") << "after stream " << target.streams;
  }
  std::printf("%s fuzz: %zu streams, %zu ended in a device error, %zu queue resets\n", name,
              target.streams, target.device_errors, size_t(target.device().queue_resets()));
  EXPECT_GT(target.streams, 0u);
}

} // namespace

TEST(PacketFuzz, ComputeQueueSurvivesRandomPm4) {
  fuzz_queue("pm4", 5, 0, &amcl_fuzz::PacketTarget::run_pm4);
}

TEST(PacketFuzz, SdmaQueueSurvivesRandomPackets) {
  fuzz_queue("sdma", 4, 1, &amcl_fuzz::PacketTarget::run_sdma);
}
