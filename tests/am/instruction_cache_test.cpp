// The instruction cache as the driver must treat it: code rewritten at an address the shader
// array already ran keeps running from the cache until an ACQUIRE_MEM invalidates it
// (GCR_CNTL.GLI_INV), which the driver issues once code memory was written.
#include "am/device.h"
#include "am/hw/sh_regs.h"
#include "sim/gpu.h"
#include "store_constant_kernel.h"

#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <utility>
#include <vector>

namespace {

using namespace am;
using namespace am::hw;

std::shared_ptr<sim::Gpu> card() {
  return sim::open_emulated_gpu("gfx1100", 30);
}

using test::store_constant;

// One work-group of one wave running the code at `code`, its user SGPRs pointing at `out`.
void dispatch(Pm4Builder& p, const Allocation& code, const Allocation& out) {
  p.set_sh_regs(sh::regCOMPUTE_PGM_LO, {uint32_t(code.va >> 8), uint32_t(code.va >> 40)});
  p.set_sh_regs(sh::regCOMPUTE_PGM_RSRC1, {0, 2u << 1}); // 2 user SGPRs
  p.set_sh_regs(sh::regCOMPUTE_PGM_RSRC3, {0});
  p.set_sh_regs(sh::regCOMPUTE_START_X, {0, 0, 0});
  p.set_sh_regs(sh::regCOMPUTE_NUM_THREAD_X, {32, 1, 1});
  p.set_sh_regs(sh::regCOMPUTE_USER_DATA_0, {uint32_t(out.va), uint32_t(out.va >> 32)});
  p.dispatch_direct(1, 1, 1,
                    sh::DISPATCH_COMPUTE_SHADER_EN | sh::DISPATCH_FORCE_START_AT_000 |
                        sh::DISPATCH_CS_W32_EN);
}

struct Kernel {
  Device& dev;
  Allocation code = dev.alloc_vram(4096, 256, true);
  Allocation out = dev.alloc_vram(4096);
  ~Kernel() {
    dev.free(code);
    dev.free(out);
  }
  void load(uint32_t value) {
    const std::vector<uint32_t> program = store_constant(value);
    std::memcpy(code.cpu, program.data(), program.size() * 4);
  }
  // Runs it (after `before`'s packets) and returns what it stored.
  uint32_t run(const std::function<void(Pm4Builder&)>& before = {}) {
    std::memset(out.cpu, 0, 4);
    Pm4Builder p;
    if (before) before(p);
    dispatch(p, code, out);
    dev.wait(Engine::Compute, dev.submit_compute(p));
    return *reinterpret_cast<const uint32_t*>(out.cpu);
  }
};

// A kernel that stored 1 once: its code is in the instruction cache.
struct InstructionCache : ::testing::Test {
  Device dev{card()};
  Kernel k{dev};
  void SetUp() override {
    k.load(1);
    EXPECT_EQ(k.run(), 1u);
  }
};

} // namespace

// New code at the same address without an invalidation: the old code runs. Data-cache
// invalidations (what each OpenCL dispatch acquires) do not change that; GLI_INV does.
TEST_F(InstructionCache, RewrittenCodeRunsStaleUntilGliInv) {
  k.load(2);
  EXPECT_EQ(k.run(), 1u) << "the rewritten code ran without an instruction-cache invalidation";
  EXPECT_EQ(k.run([](Pm4Builder& p) { p.acquire_mem_data(); }), 1u);
  EXPECT_EQ(
      k.run([](Pm4Builder& p) { p.acquire_mem(hw::pm4::gcr_gli_inv(hw::pm4::GCR_GLI_INV_ALL)); }),
      2u);
  EXPECT_EQ(k.run(), 2u);
}

// The driver's way: note_code_written() puts amdgpu's mem-sync ACQUIRE_MEM in front of the
// next compute submission (and only that one).
TEST_F(InstructionCache, NoteCodeWrittenInvalidatesBeforeTheNextSubmission) {
  k.load(3);
  dev.note_code_written();
  EXPECT_EQ(k.run(), 3u);
  k.load(4);
  EXPECT_EQ(k.run(), 3u) << "one note invalidates once";
  dev.note_code_written();
  EXPECT_EQ(k.run(), 4u);
}

// Freed code memory given to the next program: the allocator hands out the same address, and
// the note makes the new program run rather than the freed one's cached code.
TEST_F(InstructionCache, ReusedCodeMemoryRunsTheNewProgram) {
  Allocation out = dev.alloc_vram(4096);
  auto load_and_run = [&](uint32_t value, bool note) {
    Allocation code = dev.alloc_vram(4096, 256, true);
    const std::vector<uint32_t> program = store_constant(value);
    std::memcpy(code.cpu, program.data(), program.size() * 4);
    if (note) dev.note_code_written();
    Pm4Builder p;
    dispatch(p, code, out);
    dev.wait(Engine::Compute, dev.submit_compute(p));
    const uint64_t va = code.va;
    dev.free(code);
    return std::pair{va, *reinterpret_cast<const uint32_t*>(out.cpu)};
  };
  const auto [first_va, first] = load_and_run(5, true);
  EXPECT_EQ(first, 5u);
  const auto [second_va, second] = load_and_run(6, true);
  ASSERT_EQ(second_va, first_va) << "the test needs the freed address reused";
  EXPECT_EQ(second, 6u);
  EXPECT_EQ(load_and_run(7, false).second, 6u) << "without the note the freed program's code ran";
  dev.free(out);
}
