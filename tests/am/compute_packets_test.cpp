// The compute queue's less common packets through the driver's builder and the emulated MEC:
// INDIRECT_BUFFER, WAIT_REG_MEM on memory and on a register, COPY_DATA, SET_UCONFIG_REG and
// DISPATCH_INDIRECT (a hand-assembled gfx1100 kernel), plus the faults hardware would raise.
#include "am/device.h"
#include "am/hw/sh_regs.h"
#include "sim/gpu.h"

#include <gtest/gtest.h>

#include <array>
#include <atomic>
#include <chrono>
#include <cstring>
#include <thread>

namespace {

using namespace am;
using namespace am::hw;

std::shared_ptr<sim::Gpu> card() { return sim::open_emulated_gpu("gfx1100", 30); }

// SCRATCH_REG0 of GC 11 (gc_11_0_0_offset.h 0x2040, BASE_IDX 1): inside the UCONFIG window.
constexpr uint32_t kScratch0 = 0xA000 + 0x2040;

uint32_t* words(const Allocation& a) { return reinterpret_cast<uint32_t*>(a.cpu); }

} // namespace

TEST(ComputePackets, IndirectBufferRunsThenTheRingContinues) {
  Device dev(card());
  Allocation out = dev.alloc_vram(4096), ib = dev.alloc_vram(4096);
  Pm4Builder inner;
  inner.write_data_mem(out.va, {1, 2});
  std::memcpy(ib.cpu, inner.words().data(), inner.words().size() * 4);
  Pm4Builder p;
  p.indirect_buffer(ib.va, uint32_t(inner.words().size()));
  p.write_data_mem(out.va + 8, {3});
  dev.wait(Engine::Compute, dev.submit_compute(p));
  EXPECT_EQ(words(out)[0], 1u);
  EXPECT_EQ(words(out)[1], 2u);
  EXPECT_EQ(words(out)[2], 3u);
  // An IB inside an IB is not a compute CP feature: the queue stops and is reset.
  Pm4Builder nested;
  nested.indirect_buffer(ib.va, uint32_t(inner.words().size()));
  std::memcpy(ib.cpu, nested.words().data(), nested.words().size() * 4);
  Pm4Builder bad;
  bad.indirect_buffer(ib.va, uint32_t(nested.words().size()));
  EXPECT_THROW(dev.wait(Engine::Compute, dev.submit_compute(bad)), DeviceError);
  dev.free(out);
  dev.free(ib);
}

TEST(ComputePackets, WaitRegMemStallsUntilTheValueArrives) {
  Device dev(card());
  Allocation mem = dev.alloc_vram(4096);
  std::memset(mem.cpu, 0, 4096);
  Pm4Builder p;
  p.wait_mem(mem.va, pm4::WAIT_EQ, 0xab, 0xff); // masked compare
  p.write_data_mem(mem.va + 16, {7});
  const uint64_t done = dev.submit_compute(p);
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  EXPECT_LT(dev.completed(Engine::Compute), done);
  EXPECT_EQ(std::atomic_ref<uint32_t>(words(mem)[4]).load(), 0u);
  std::atomic_ref<uint32_t>(words(mem)[0]).store(0x12ab); // low byte matches
  dev.wait(Engine::Compute, done);
  EXPECT_EQ(words(mem)[4], 7u);
  // On a register: SCRATCH_REG0 >= 5.
  dev.pci().reg_write32(kScratch0, 1);
  Pm4Builder r;
  r.wait_reg(kScratch0, pm4::WAIT_GE, 5, 0xffffffff);
  r.write_data_mem(mem.va + 20, {9});
  const uint64_t done2 = dev.submit_compute(r);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_LT(dev.completed(Engine::Compute), done2);
  dev.pci().reg_write32(kScratch0, 6);
  dev.wait(Engine::Compute, done2);
  EXPECT_EQ(words(mem)[5], 9u);
  dev.free(mem);
}

TEST(ComputePackets, CopyDataAndSetUconfigReg) {
  Device dev(card());
  Allocation mem = dev.alloc_vram(4096);
  std::memset(mem.cpu, 0, 4096);
  words(mem)[0] = 0x11111111, words(mem)[1] = 0x22222222;
  Pm4Builder p;
  p.copy_data_to_mem(pm4::COPY_DATA_MEM, mem.va, mem.va + 8, true);          // 64-bit memory copy
  p.copy_data_to_mem(pm4::COPY_DATA_IMM, 0x5555, mem.va + 16, false);        // immediate
  p.copy_data_to_mem(pm4::COPY_DATA_TIMESTAMP, 0, mem.va + 24, true);        // the GPU clock
  p.set_uconfig_regs(kScratch0, {0xc0ffee});
  p.copy_data_to_mem(pm4::COPY_DATA_REG, kScratch0, mem.va + 32, false);     // register -> memory
  dev.wait(Engine::Compute, dev.submit_compute(p));
  EXPECT_EQ(words(mem)[2], 0x11111111u);
  EXPECT_EQ(words(mem)[3], 0x22222222u);
  EXPECT_EQ(words(mem)[4], 0x5555u);
  EXPECT_NE(words(mem)[6] | words(mem)[7], 0u);
  EXPECT_EQ(words(mem)[8], 0xc0ffeeu);
  EXPECT_EQ(dev.pci().reg_read32(kScratch0), 0xc0ffeeu);
  // A misaligned 64-bit destination is a packet the CP refuses.
  Pm4Builder bad;
  bad.copy_data_to_mem(pm4::COPY_DATA_IMM, 1, mem.va + 4, true);
  EXPECT_THROW(dev.wait(Engine::Compute, dev.submit_compute(bad)), DeviceError);
  dev.free(mem);
}

// EVENT_WRITE CS_PARTIAL_FLUSH as Mesa's radeonsi emits it (PKT3(EVENT_WRITE, 0) then
// EVENT_TYPE(7) | EVENT_INDEX(4)); an event the model does not know stops the queue.
TEST(ComputePackets, EventWriteCsPartialFlush) {
  Pm4Builder p;
  p.cs_partial_flush();
  ASSERT_EQ(p.words().size(), 2u);
  EXPECT_EQ(p.words()[0], 0xC0004602u); // type 3, count 0, opcode 0x46, SHADER_TYPE compute
  EXPECT_EQ(p.words()[1], 0x407u);
  Device dev(card());
  Allocation mem = dev.alloc_vram(4096);
  p.write_data_mem(mem.va, {5});
  dev.wait(Engine::Compute, dev.submit_compute(p));
  EXPECT_EQ(words(mem)[0], 5u);
  Pm4Builder bad;
  // EVENT_WRITE of an event type the model does not implement.
  bad.append(std::array<uint32_t, 2>{0xC0004602u, 0x2Bu});
  EXPECT_THROW(dev.wait(Engine::Compute, dev.submit_compute(bad)), DeviceError);
  Pm4Builder ok;
  ok.write_data_mem(mem.va, {6});
  dev.wait(Engine::Compute, dev.submit_compute(ok)); // the queue was reset and works again
  EXPECT_EQ(words(mem)[0], 6u);
  dev.free(mem);
}

// DISPATCH_INDIRECT reads the work-group counts from memory. The kernel (llvm-mc-22
// -mcpu=gfx1100) stores its work-group id at out[id]: user SGPRs s[0:1] = out, s2 = id.
// SET_SH_REG's run must stay inside the SH window (0x400 registers from 0x2C00): one that
// runs past its end is a bad packet; the queue stops, is reset, and runs the next stream.
TEST(ComputePackets, SetShRegPastTheWindowStopsTheQueue) {
  Device dev(card());
  Allocation mem = dev.alloc_vram(4096);
  Pm4Builder bad;
  bad.append(std::array<uint32_t, 4>{pm4::packet3_compute(pm4::SET_SH_REG, 3), 0x3ff, 1, 2});
  EXPECT_THROW(dev.wait(Engine::Compute, dev.submit_compute(bad)), DeviceError);
  Pm4Builder last;
  last.append(std::array<uint32_t, 3>{pm4::packet3_compute(pm4::SET_SH_REG, 2), 0x3ff, 1});
  last.write_data_mem(mem.va, {7}); // the window's last register alone is fine
  dev.wait(Engine::Compute, dev.submit_compute(last));
  EXPECT_EQ(words(mem)[0], 7u);
}

TEST(ComputePackets, DispatchIndirectTakesTheGridFromMemory) {
  static constexpr uint32_t kProgram[] = {
      0x7E020202,             // v_mov_b32_e32 v1, s2
      0x30040282,             // v_lshlrev_b32_e32 v2, 2, v1
      0xDC6A0000, 0x00000102, // global_store_b32 v2, v1, s[0:1]
      0xBFB00000,             // s_endpgm
  };
  Device dev(card());
  Allocation code = dev.alloc_vram(4096, 256, true), out = dev.alloc_vram(4096), args = dev.alloc_vram(4096);
  std::memcpy(code.cpu, kProgram, sizeof kProgram);
  std::memset(out.cpu, 0xff, 4096);
  words(args)[0] = 5, words(args)[1] = 1, words(args)[2] = 1;
  Pm4Builder p;
  p.set_sh_regs(sh::regCOMPUTE_PGM_LO, {uint32_t(code.va >> 8), uint32_t(code.va >> 40)});
  p.set_sh_regs(sh::regCOMPUTE_PGM_RSRC1, {0, (2u << 1) | (1u << 7)}); // 2 user SGPRs, TGID_X_EN
  p.set_sh_regs(sh::regCOMPUTE_PGM_RSRC3, {0});
  p.set_sh_regs(sh::regCOMPUTE_START_X, {0, 0, 0});
  p.set_sh_regs(sh::regCOMPUTE_NUM_THREAD_X, {32, 1, 1});
  p.set_sh_regs(sh::regCOMPUTE_USER_DATA_0, {uint32_t(out.va), uint32_t(out.va >> 32)});
  p.dispatch_indirect(args.va, sh::DISPATCH_COMPUTE_SHADER_EN | sh::DISPATCH_FORCE_START_AT_000 |
                                   sh::DISPATCH_CS_W32_EN);
  dev.wait(Engine::Compute, dev.submit_compute(p));
  for (uint32_t i = 0; i < 5; ++i) EXPECT_EQ(words(out)[i], i);
  EXPECT_EQ(words(out)[5], 0xffffffffu); // no sixth group
  dev.free(code);
  dev.free(out);
  dev.free(args);
}
