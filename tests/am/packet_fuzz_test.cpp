// Random command streams through the driver's real rings into the emulated MEC and SDMA
// engines: whatever the packets say (unknown opcodes, wrong lengths, wild addresses and
// registers, dispatches of garbage), the host process survives, the driver reports errors as
// DeviceError, and the next well-formed submission on the same queue works.
// AMCL_FUZZ_SECONDS (default 10, split between the engines) bounds the run; AMCL_FUZZ_SEED
// picks another sequence.
#include "am/device.h"
#include "am/hw/pm4.h"
#include "am/hw/sdma_v6.h"
#include "sim/gpu.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <random>

namespace {

struct Budget {
  double seconds;
  uint64_t seed;
  Budget() {
    seconds = std::getenv("AMCL_FUZZ_SECONDS") ? std::atof(std::getenv("AMCL_FUZZ_SECONDS")) : 10.0;
    seed = std::getenv("AMCL_FUZZ_SEED") ? std::strtoull(std::getenv("AMCL_FUZZ_SEED"), nullptr, 0)
                                         : 1;
  }
};

// A device on its own card with a short hang timeout (random dispatches may spin).
std::unique_ptr<am::Device> fuzz_device(unsigned card) {
  setenv("AMCL_HANG_TIMEOUT_MS", "200", 1);
  auto dev = std::make_unique<am::Device>(sim::open_emulated_gpu("gfx1100", card));
  unsetenv("AMCL_HANG_TIMEOUT_MS");
  return dev;
}

uint32_t word(std::mt19937_64& rng) {
  switch (rng() % 6) {
  case 0:
    return 0;
  case 1:
    return ~0u;
  case 2:
    return uint32_t(rng() % 64);
  default:
    return uint32_t(rng());
  }
}

} // namespace

TEST(PacketFuzz, ComputeQueueSurvivesRandomPm4) {
  using namespace am::hw::pm4;
  const Budget budget;
  std::mt19937_64 rng(budget.seed);
  auto dev = fuzz_device(5);
  am::Allocation mem = dev->alloc_vram(4096);
  static const uint32_t kOpcodes[] = {NOP,          DISPATCH_DIRECT, WRITE_DATA,     RELEASE_MEM,
                                      ACQUIRE_MEM,  SET_SH_REG,      EVENT_WRITE,    COPY_DATA,
                                      WAIT_REG_MEM, INDIRECT_BUFFER, SET_UCONFIG_REG};
  const auto end =
      std::chrono::steady_clock::now() + std::chrono::duration<double>(budget.seconds / 2);
  size_t streams = 0, errors = 0;
  while (std::chrono::steady_clock::now() < end) {
    am::Pm4Builder b;
    for (int p = 0, n = 1 + int(rng() % 6); p < n; ++p) {
      const uint32_t op = rng() % 4 ? kOpcodes[rng() % std::size(kOpcodes)] : uint32_t(rng() % 256);
      const uint32_t body = uint32_t(rng() % 12);
      if (rng() % 16 == 0)
        b.words().push_back(word(rng)); // not even a type-3 header
      else
        b.words().push_back(packet3_compute(op, body));
      for (uint32_t i = 0; i < body; ++i) b.words().push_back(word(rng));
    }
    try {
      dev->wait(am::Engine::Compute, dev->submit_compute(b));
    } catch (const am::DeviceError&) {
      ++errors;
    }
    // The queue still executes a well-formed packet.
    am::Pm4Builder ok;
    ok.write_data_mem(mem.va, {uint32_t(streams)});
    ASSERT_NO_THROW(dev->wait(am::Engine::Compute, dev->submit_compute(ok)))
        << "after stream " << streams;
    ASSERT_EQ(reinterpret_cast<volatile uint32_t*>(mem.cpu)[0], uint32_t(streams));
    ++streams;
  }
  std::printf("pm4 fuzz: %zu streams, %zu ended in a device error, %zu queue resets\n", streams,
              errors, size_t(dev->queue_resets()));
  dev->free(mem);
}

TEST(PacketFuzz, SdmaQueueSurvivesRandomPackets) {
  using namespace am::hw::sdma;
  const Budget budget;
  std::mt19937_64 rng(budget.seed + 1);
  auto dev = fuzz_device(4);
  am::Allocation mem = dev->alloc_vram(4096);
  static const uint32_t kOps[] = {OP_NOP,  OP_COPY,        OP_WRITE,      OP_INDIRECT, OP_FENCE,
                                  OP_TRAP, OP_POLL_REGMEM, OP_CONST_FILL, OP_TIMESTAMP};
  const auto end =
      std::chrono::steady_clock::now() + std::chrono::duration<double>(budget.seconds / 2);
  size_t streams = 0, errors = 0;
  while (std::chrono::steady_clock::now() < end) {
    am::SdmaBuilder b;
    for (int p = 0, n = 1 + int(rng() % 4); p < n; ++p) {
      const uint32_t op = rng() % 4 ? kOps[rng() % std::size(kOps)] : uint32_t(rng() % 256);
      b.words().push_back(header(op, uint32_t(rng() % 8)) | (uint32_t(rng() % 4) << 16));
      for (uint32_t i = 0, body = uint32_t(rng() % 10); i < body; ++i)
        b.words().push_back(word(rng));
    }
    try {
      dev->wait(am::Engine::Sdma, dev->submit_sdma(b));
    } catch (const am::DeviceError&) {
      ++errors;
    }
    am::SdmaBuilder ok;
    ok.const_fill(mem.va, uint32_t(streams), 64);
    ASSERT_NO_THROW(dev->wait(am::Engine::Sdma, dev->submit_sdma(ok)))
        << "after stream " << streams;
    ASSERT_EQ(reinterpret_cast<volatile uint32_t*>(mem.cpu)[0], uint32_t(streams));
    ++streams;
  }
  std::printf("sdma fuzz: %zu streams, %zu ended in a device error\n", streams, errors);
  dev->free(mem);
}
