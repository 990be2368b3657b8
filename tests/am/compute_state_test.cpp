// The dispatch state am::Device::submit_compute leaves off the ring: the state packets of a
// dispatch go only when the ring's registers do not already hold them, and never after the
// registers may have changed (other packets wrote them, or the queue was reset).
#include "am/debug_log.h"
#include "am/device.h"
#include "am/hw/pm4.h"
#include "am/hw/sh_regs.h"
#include "sim/gpu.h"
#include "store_constant_kernel.h"

#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

namespace {

using namespace am;
using namespace am::hw;

std::shared_ptr<sim::Gpu> card() {
  return sim::open_emulated_gpu("gfx1100", 31);
}

using test::store_constant;

// A one-wave kernel storing `value`, its state packets and its dispatch packets.
struct Kernel {
  Device& dev;
  uint32_t value;
  Allocation code = dev.alloc_vram(4096, 256, true);
  Allocation out = dev.alloc_vram(4096);
  Kernel(Device& d, uint32_t v) : dev(d), value(v) {
    const std::vector<uint32_t> program = store_constant(value);
    std::memcpy(code.cpu, program.data(), program.size() * 4);
    dev.note_code_written();
  }
  ~Kernel() {
    dev.free(code);
    dev.free(out);
  }
  void state(Pm4Builder& p) const {
    p.set_sh_regs(sh::regCOMPUTE_PGM_LO, {uint32_t(code.va >> 8), uint32_t(code.va >> 40)});
    p.set_sh_regs(sh::regCOMPUTE_PGM_RSRC1, {0, 2u << 1}); // 2 user SGPRs
    p.set_sh_regs(sh::regCOMPUTE_PGM_RSRC3, {0});
    p.set_sh_regs(sh::regCOMPUTE_START_X, {0, 0, 0, 32, 1, 1}); // and NUM_THREAD_X..Z
  }
  void dispatch(Pm4Builder& p) const {
    p.set_sh_regs(sh::regCOMPUTE_USER_DATA_0, {uint32_t(out.va), uint32_t(out.va >> 32)});
    p.dispatch_direct(1, 1, 1,
                      sh::DISPATCH_COMPUTE_SHADER_EN | sh::DISPATCH_FORCE_START_AT_000 |
                          sh::DISPATCH_CS_W32_EN);
  }
  // Runs it through submit_compute with its state; true when it stored its value.
  bool run() const {
    std::memset(out.cpu, 0, 4);
    Pm4Builder s, p;
    state(s);
    dispatch(p);
    dev.wait(Engine::Compute, dev.submit_compute(p, false, &s));
    return *reinterpret_cast<const uint32_t*>(out.cpu) == value;
  }
};

// The SET_SH_REG packets of each compute submission `run` made, from AM_DEBUG=3's lines.
std::vector<int> set_sh_reg_counts(const std::function<void()>& run) {
  ScopedDebugLevel packets(kDebugPackets);
  testing::internal::CaptureStderr();
  run();
  std::istringstream all(testing::internal::GetCapturedStderr());
  std::vector<int> counts;
  for (std::string line; std::getline(all, line);) {
    if (line.find("compute submission") == std::string::npos) continue;
    int n = 0;
    if (const size_t at = line.find("SET_SH_REG"); at != std::string::npos)
      n = line.compare(at, 12, "SET_SH_REG x") == 0 ? std::stoi(line.substr(at + 12)) : 1;
    counts.push_back(n);
  }
  return counts;
}

} // namespace

// The same kernel again: only its user data; another kernel: its whole state; back to the
// first: its whole state again.
TEST(ComputeState, RepeatedStateIsLeftOffTheRing) {
  Device dev(card());
  Kernel one(dev, 1), two(dev, 2);
  ASSERT_TRUE(one.run());
  std::vector<int> counts = set_sh_reg_counts([&] {
    EXPECT_TRUE(one.run());
    EXPECT_TRUE(one.run());
    EXPECT_TRUE(two.run());
    EXPECT_TRUE(one.run());
  });
  EXPECT_EQ(counts, (std::vector<int>{1, 1, 5, 5}));
}

// Packets outside the state that write its registers (here the other kernel's program
// address): the state goes again, or the next dispatch would run the other kernel's code.
TEST(ComputeState, StateWrittenByOtherPacketsIsSentAgain) {
  Device dev(card());
  Kernel one(dev, 1), two(dev, 2);
  ASSERT_TRUE(one.run());
  Pm4Builder p;
  p.set_sh_regs(sh::regCOMPUTE_PGM_LO, {uint32_t(two.code.va >> 8), uint32_t(two.code.va >> 40)});
  dev.wait(Engine::Compute, dev.submit_compute(p));
  EXPECT_TRUE(one.run());
  // Raw dwords may write anything: the same.
  ASSERT_TRUE(one.run());
  Pm4Builder raw;
  for (uint32_t w :
       {pm4::packet3_compute(pm4::SET_SH_REG, 3), sh::regCOMPUTE_PGM_LO - sh::kShRegStart,
        uint32_t(two.code.va >> 8), uint32_t(two.code.va >> 40)})
    raw.raw(w);
  dev.wait(Engine::Compute, dev.submit_compute(raw));
  EXPECT_TRUE(one.run());
}

// A queue reset clears the registers (the emulated MEC zeroes them when the queue is made
// active again): the state goes again after it.
TEST(ComputeState, StateIsSentAgainAfterAQueueReset) {
  Device dev(card());
  Kernel one(dev, 1);
  ASSERT_TRUE(one.run());
  // A dispatch without COMPUTE_SHADER_EN stops the queue, and writes no SH register itself.
  Pm4Builder bad;
  bad.dispatch_direct(1, 1, 1, 0);
  EXPECT_THROW(dev.wait(Engine::Compute, dev.submit_compute(bad)), DeviceError);
  EXPECT_TRUE(one.run());
}
