// Where waves keep their private memory: since gfx11 COMPUTE_TMPRING_SIZE.WAVES counts one shader
// engine's scratch slots (Mesa ac_get_scratch_tmpring_size: "WAVES is per SE"), and engine e's
// slots follow engine e-1's. A buffer sized for WAVES slots only is overrun by engine 1.
#include "am/hw/sh_regs.h"
#include "tests/sim/flat_memory.h"
#include "tests/sim/shader_runner.h"

#include <gtest/gtest.h>

namespace {

using namespace sim::shader;

constexpr uint64_t kCode = 0x10000, kMemoryEnd = 0x30000; // a page boundary: the end faults
constexpr unsigned kEngines = 6, kWavesPerEngine = 2, kWaveBytes = 256; // 32 lanes x 8 bytes
constexpr uint64_t kBufferForAllEngines = uint64_t(kEngines) * kWavesPerEngine * kWaveBytes;

// v_mov_b32 v1, 0; scratch_store_b32 v1, v0, off; s_endpgm (gfx1100, llvm-mc-22 -show-encoding):
// each lane stores its work-item id at the start of its private segment.
constexpr uint32_t kStoreLaneId[] = {0x7e020280u, 0xdc690000u, 0x00fc0001u, sim::test::kEndpgm};

// One wave32 work-group per engine; the scratch buffer of ScratchBytes ends where memory does.
template <uint64_t ScratchBytes> struct ScratchDispatch {
  static constexpr uint64_t kScratch = kMemoryEnd - ScratchBytes;
  sim::test::FlatMemory<kCode, kMemoryEnd - kCode> mem;
  DispatchResult run() {
    sim::test::put_words(mem, kCode, kStoreLaneId);
    LaunchState L = sim::test::one_group(kCode, 0);
    L.rsrc2 |= 1; // SCRATCH_EN
    L.scratch_base = kScratch;
    L.tmpring_size = am::hw::sh::tmpring_size(kWavesPerEngine, kWaveBytes, false);
    L.shader_engines = kEngines;
    L.grid_groups[0] = kEngines;
    return sim::test::dispatch(L, mem);
  }
};

TEST(ScratchPlacement, EachShaderEngineHasWavesSlotsOfItsOwn) {
  ScratchDispatch<kBufferForAllEngines> d;
  const DispatchResult r = d.run();
  ASSERT_TRUE(r.ok) << r.fault;
  for (unsigned e = 0; e < kEngines; ++e) {
    SCOPED_TRACE(e);
    // The group ran in one of its engine's two slots (which one is the worker's); lane 5's
    // dword is the sixth of the slot (private segments are swizzled by dword).
    const uint64_t engine = d.kScratch + uint64_t(e) * kWavesPerEngine * kWaveBytes;
    const uint32_t in_first = d.mem.get<uint32_t>(engine + 5 * 4);
    const uint32_t in_second = d.mem.get<uint32_t>(engine + kWaveBytes + 5 * 4);
    EXPECT_TRUE(in_first == 5u || in_second == 5u) << in_first << " " << in_second;
  }
}

// What a driver that writes WAVES as the whole card's count and sizes the buffer by it gets:
// engine 1's first slot lies right after the buffer, and the store there faults.
TEST(ScratchPlacement, ABufferOfWavesSlotsOnlyIsOverrunByTheSecondEngine) {
  ScratchDispatch<uint64_t(kWavesPerEngine) * kWaveBytes> d;
  const DispatchResult r = d.run();
  ASSERT_FALSE(r.ok);
  EXPECT_TRUE(r.memory_fault) << r.fault;
  EXPECT_GE(r.fault_address, d.kScratch + uint64_t(kWavesPerEngine) * kWaveBytes);
  EXPECT_TRUE(r.fault_write);
}

} // namespace
