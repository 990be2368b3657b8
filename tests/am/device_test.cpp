// The AM driver against the emulated gfx1100 and gfx1201 (one driver, per-generation register
// tables and page-table formats): boot, memory, both queues, faults, resets and a second boot
// in the same process.
#include "am/device.h"
#include "am/hw/discovery.h"
#include "am/hw/gc_generations.h"
#include "am/hw/mqd.h"
#include "am/hw/sh_regs.h"
#include "am/hw/sq.h"
#include "sim/gpu.h"
#include "sim/ip_discovery.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <thread>
#include <vector>

namespace {

// What an engine does after the signal a wait sees (an interrupt it raises, a read pointer it
// moves past the last packet) follows a moment later: true once `done` holds, within 5 s.
bool eventually(const std::function<bool()>& done) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (!done() && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  return done();
}

// An engine held by a control bit runs nothing: with `bit` set in the register at `index`,
// `submit` (work writing `value` to the first dword of a fresh VRAM page, returning its fence)
// leaves the page alone for 50 ms; once the bit is cleared the work runs.
void expect_held_while_set(sim::Gpu& gpu, am::Device& dev, uint32_t index, uint32_t bit,
                           am::Engine engine, uint32_t value,
                           const std::function<uint64_t(uint64_t va)>& submit) {
  am::Allocation mem = dev.alloc_vram(4096);
  std::memset(mem.cpu, 0, 4096);
  const auto first = [&] { return reinterpret_cast<uint32_t*>(mem.cpu)[0]; };
  gpu.reg_write32(index, gpu.reg_read32(index) | bit);
  const uint64_t done = submit(mem.va);
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_EQ(first(), 0u) << "the held engine ran the work";
  gpu.reg_write32(index, gpu.reg_read32(index) & ~bit);
  dev.wait(engine, done);
  EXPECT_EQ(first(), value);
  dev.free(mem);
}

class AmDevice : public testing::TestWithParam<const char*> {
protected:
  // Cards of their own for these tests (indices 40 and up), so other tests' devices are not
  // disturbed; `slot` 0 is shared by the tests, the others are fresh cards for one test each.
  std::shared_ptr<sim::Gpu> card(unsigned slot = 0) {
    const bool gfx12 = std::string(GetParam()).starts_with("gfx12");
    return sim::open_emulated_gpu(GetParam(), (gfx12 ? 60 : 40) + slot);
  }
  // Where in VRAM `text` first occurs, or npos.
  static size_t find_in_vram(sim::Gpu& gpu, uint64_t from, const std::string& text) {
    const uint8_t* v = gpu.vram();
    const uint8_t* hit = std::search(v + from, v + gpu.vram_size(), text.begin(), text.end(),
                                     [](uint8_t a, char b) { return a == uint8_t(b); });
    return hit == v + gpu.vram_size() ? std::string::npos : size_t(hit - v);
  }
};

} // namespace

INSTANTIATE_TEST_SUITE_P(Cards, AmDevice, testing::Values("gfx1100", "gfx1201"),
                         [](const auto& info) { return std::string(info.param); });

TEST_P(AmDevice, BootsFromTheCardsOwnDiscoveryTable) {
  am::Device dev(card());
  EXPECT_EQ(dev.info().gfx, GetParam());
  const am::IpBlock* gc = dev.ip_discovery().find(am::hw::discovery::GC_HWID);
  ASSERT_NE(gc, nullptr);
  if (dev.info().gfx == "gfx1201") {
    EXPECT_EQ(dev.info().device_id, 0x7550);
    EXPECT_EQ(gc->major * 100 + gc->minor * 10 + gc->revision, 1201);
    EXPECT_EQ(dev.info().compute_units, 64u);
    EXPECT_NE(dev.info().name.find("RX 9070 XT"), std::string::npos) << dev.info().name;
  } else {
    EXPECT_EQ(dev.info().device_id, 0x744c);
    EXPECT_EQ(gc->major * 100 + gc->minor * 10 + gc->revision, 1100);
    EXPECT_EQ(dev.info().compute_units, 96u);
  }
}

// Whole 2 MiB blocks of VRAM are mapped by one PDE-as-PTE entry, whose flag bit differs
// between GMC v11 (54) and v12 (63): a copy spanning two such blocks lands on both.
TEST_P(AmDevice, SdmaFillsAcrossHugePages) {
  am::Device dev(card());
  am::Allocation big = dev.alloc_vram(4u << 20);
  std::memset(big.cpu, 0, 4u << 20);
  am::SdmaBuilder b;
  b.const_fill(big.va + (2u << 20) - 64, 0xfeedf00d, 128);
  dev.wait(am::Engine::Sdma, dev.submit_sdma(b));
  const auto* w = reinterpret_cast<const uint32_t*>(big.cpu);
  EXPECT_EQ(w[(2u << 20) / 4 - 1], 0xfeedf00du);
  EXPECT_EQ(w[(2u << 20) / 4 + 15], 0xfeedf00du);
  EXPECT_EQ(w[(2u << 20) / 4 + 16], 0u);
  dev.free(big);
}

TEST_P(AmDevice, SdmaCopiesBetweenVramAndSystemMemory) {
  am::Device dev(card());
  am::Allocation host = dev.alloc_system(8192), vram = dev.alloc_vram(8192);
  for (int i = 0; i < 2048; ++i) reinterpret_cast<uint32_t*>(host.cpu)[i] = 0xA5000000u + i;
  am::SdmaBuilder b;
  b.copy_linear(vram.va, host.va, 8192);
  dev.wait(am::Engine::Sdma, dev.submit_sdma(b));
  EXPECT_EQ(std::memcmp(vram.cpu, host.cpu, 8192), 0);
  b.clear();
  b.const_fill(vram.va + 4096, 0x12345678, 4096);
  dev.wait(am::Engine::Sdma, dev.submit_sdma(b));
  EXPECT_EQ(reinterpret_cast<uint32_t*>(vram.cpu)[1024], 0x12345678u);
  EXPECT_EQ(reinterpret_cast<uint32_t*>(vram.cpu)[1023], 0xA5000000u + 1023);
  dev.free(host);
  dev.free(vram);
}

TEST_P(AmDevice, ComputeQueueWritesMemory) {
  am::Device dev(card());
  am::Allocation mem = dev.alloc_vram(4096);
  am::Pm4Builder p;
  p.write_data_mem(mem.va + 16, {7, 8, 9});
  dev.wait(am::Engine::Compute, dev.submit_compute(p));
  EXPECT_EQ(reinterpret_cast<uint32_t*>(mem.cpu)[5], 8u);
  dev.free(mem);
}

// The card caches translations (the model's TLBs, like the UTCL1/UTCL2): after free() the
// driver invalidates them, so a write to the freed address faults instead of reaching the
// old page through a cached translation.
TEST_P(AmDevice, FreedMemoryIsUnreachableOnceTheTlbIsInvalidated) {
  am::Device dev(card());
  am::Allocation mem = dev.alloc_vram(4096);
  am::Pm4Builder p;
  p.write_data_mem(mem.va, {1});
  dev.wait(am::Engine::Compute, dev.submit_compute(p)); // the MEC now has mem's page cached
  const uint64_t va = mem.va;
  dev.free(mem);
  const am::IpBlock* gc = dev.ip_discovery().find(am::hw::discovery::GC_HWID);
  ASSERT_NE(gc, nullptr);
  const am::hw::GcRegs& g = *am::hw::gc_regs_for(gc->major, gc->minor, gc->revision);
  const uint32_t ack = uint32_t(gc->bases[g.GCVM_INVALIDATE_ENG17_ACK.base_idx]) + g.GCVM_INVALIDATE_ENG17_ACK.offset;
  EXPECT_EQ(dev.pci().reg_read32(ack) & 1u, 1u) << "VMID 0 invalidation acknowledged";
  am::Pm4Builder stale;
  stale.write_data_mem(va, {2});
  EXPECT_THROW(dev.wait(am::Engine::Compute, dev.submit_compute(stale)), am::DeviceError);
}

// Work queued behind a hang is thrown away by the queue reset: whoever waits for it later gets
// an error, not a completed timeline value for work that never ran.
TEST_P(AmDevice, WorkLostInAQueueResetReportsAnError) {
  setenv("AMCL_HANG_TIMEOUT_MS", "200", 1);
  am::Device dev(card());
  unsetenv("AMCL_HANG_TIMEOUT_MS");
  am::Allocation mem = dev.alloc_vram(4096);
  std::memset(mem.cpu, 0, 4096);
  am::Pm4Builder hang, behind;
  hang.wait_mem(mem.va, am::hw::pm4::WAIT_EQ, 1, 0xffffffff); // nobody writes the 1
  behind.write_data_mem(mem.va + 64, {7});
  const uint64_t stuck = dev.submit_compute(hang), queued = dev.submit_compute(behind);
  EXPECT_THROW(dev.wait(am::Engine::Compute, stuck), am::DeviceError);
  try {
    dev.wait(am::Engine::Compute, queued);
    ADD_FAILURE() << "work thrown away by the reset reported success";
  } catch (const am::DeviceError& e) {
    EXPECT_NE(std::string(e.what()).find("before this work ran"), std::string::npos) << e.what();
  }
  EXPECT_EQ(reinterpret_cast<uint32_t*>(mem.cpu)[16], 0u);
  am::Pm4Builder after;
  after.write_data_mem(mem.va + 64, {9});
  dev.wait(am::Engine::Compute, dev.submit_compute(after)); // the queue works again
  EXPECT_EQ(reinterpret_cast<uint32_t*>(mem.cpu)[16], 9u);
  dev.free(mem);
}

TEST_P(AmDevice, SdmaCopyOutsideAnyMappingFaultsAndTheQueueGoesOn) {
  auto gpu = card();
  am::Device dev(gpu);
  // The fault control's other fields (firmware defaults, here a pattern) survive the driver's
  // re-arming of the latch: amdgpu sets only CLEAR_PROTECTION_FAULT_STATUS_ADDR [0].
  const uint32_t fault_cntl = gpu->model().gc_reg(gpu->model().gc->GCVM_L2_PROTECTION_FAULT_CNTL);
  gpu->reg_write32(fault_cntl, 0x3ffffffcu);
  am::Allocation vram = dev.alloc_vram(4096);
  am::SdmaBuilder b;
  b.copy_linear(vram.va, 0x6000000000ull, 256); // source never mapped
  try {
    dev.wait(am::Engine::Sdma, dev.submit_sdma(b));
    ADD_FAILURE() << "the faulting copy completed without an error";
  } catch (const am::DeviceError& e) {
    EXPECT_NE(std::string(e.what()).find("page fault (read) at address 0x6000000000"), std::string::npos)
        << e.what();
  }
  EXPECT_EQ(gpu->reg_read32(fault_cntl), 0x3ffffffcu);
  b.clear();
  b.const_fill(vram.va, 0xdeadbeef, 64);
  dev.wait(am::Engine::Sdma, dev.submit_sdma(b)); // no error: the fault was reported once
  EXPECT_EQ(reinterpret_cast<uint32_t*>(vram.cpu)[0], 0xdeadbeefu);
  dev.free(vram);
}

// The boot programs both VM hubs as amdgpu's gart_enable does: AGP off, the system aperture
// over the frame buffer's MC range, the L1 TLB on (0x1859), the L2 cache on. VMID 0 then
// reaches VRAM by MC address without a page walk: an SDMA copy from FB base + offset reads
// the allocation at that offset.
TEST_P(AmDevice, BothHubsOpenTheSystemApertureOverTheFrameBuffer) {
  auto gpu = card();
  am::Device dev(gpu);
  const sim::CardModel& m = gpu->model();
  const am::hw::VmHubRegs gfx = am::hw::gfxhub_regs(*m.gc);
  const uint64_t fb = sim::FbAperture::kFbBase;
  for (auto [h, reg] :
       {std::pair{&gfx, +[](const sim::CardModel&c, am::hw::Reg r) { return c.gc_reg(r); }},
        std::pair{m.mmhub,
                  +[](const sim::CardModel&c, am::hw::Reg r) { return c.mmhub_reg(r); }}}) {
    SCOPED_TRACE(h->name);
    auto read = [&](am::hw::Reg r) { return gpu->reg_read32(reg(m, r)); };
    EXPECT_EQ(read(h->MX_L1_TLB_CNTL) & 0x1fffu, 0x1859u);
    EXPECT_EQ(read(h->L2_CNTL) & 1u, 1u);
    EXPECT_GT(read(h->AGP_BOT), read(h->AGP_TOP)); // AGP off
    EXPECT_EQ(uint64_t(read(h->SYSTEM_APERTURE_LOW_ADDR)) << 18, fb);
    EXPECT_EQ((uint64_t(read(h->SYSTEM_APERTURE_HIGH_ADDR)) << 18) | 0x3ffff,
              fb + gpu->vram_size() - 1);
  }
  am::Allocation src = dev.alloc_vram(4096), dst = dev.alloc_vram(4096);
  for (uint32_t i = 0; i < 1024; ++i) reinterpret_cast<uint32_t*>(src.cpu)[i] = 0x5000 + i;
  std::memset(dst.cpu, 0, 4096);
  am::SdmaBuilder b;
  b.copy_linear(dst.va, fb + src.phys, 4096); // the source by MC address
  dev.wait(am::Engine::Sdma, dev.submit_sdma(b));
  EXPECT_EQ(reinterpret_cast<uint32_t*>(dst.cpu)[0], 0x5000u);
  EXPECT_EQ(reinterpret_cast<uint32_t*>(dst.cpu)[1023], 0x5000u + 1023);
  dev.free(src);
  dev.free(dst);
}

// A hub whose L1 TLB is off translates nothing: the SDMA engine cannot even fetch its ring (the
// queue halts and is found hung), and the queue goes on once the TLB is back.
TEST_P(AmDevice, AHubWithItsL1TlbOffTranslatesNothing) {
  auto gpu = card();
  setenv("AMCL_HANG_TIMEOUT_MS", "200", 1);
  am::Device dev(gpu);
  unsetenv("AMCL_HANG_TIMEOUT_MS");
  const sim::CardModel& m = gpu->model();
  const uint32_t l1 = m.gc_reg(m.gc->GCMC_VM_MX_L1_TLB_CNTL);
  am::Allocation vram = dev.alloc_vram(4096);
  const uint32_t on = gpu->reg_read32(l1);
  gpu->reg_write32(l1, on & ~1u);
  dev.free(dev.alloc_vram(4096)); // a page-table change: the cached translations go
  am::SdmaBuilder b;
  b.const_fill(vram.va, 1, 64);
  EXPECT_THROW(dev.wait(am::Engine::Sdma, dev.submit_sdma(b)), am::DeviceError);
  gpu->reg_write32(l1, on);
  b.clear();
  b.const_fill(vram.va, 2, 64);
  dev.wait(am::Engine::Sdma, dev.submit_sdma(b));
  EXPECT_EQ(reinterpret_cast<uint32_t*>(vram.cpu)[0], 2u);
  dev.free(vram);
}

// The MEC reports a packet it cannot execute (CP_BAD_OPCODE, enabled by
// CP_ME1_PIPE0_INT_CNTL.OPCODE_ERROR_INT_ENABLE), so the driver knows at once rather than after
// the hang timeout (60 s).
TEST_P(AmDevice, BadPacketStopsTheQueueWhichIsResetForTheNextSubmission) {
  auto gpu = card();
  am::Device dev(gpu);
  am::Pm4Builder bad;
  bad.words().push_back(am::hw::pm4::packet3_compute(0xEE, 1)); // no such opcode
  bad.words().push_back(0);
  const auto start = std::chrono::steady_clock::now();
  try {
    dev.wait(am::Engine::Compute, dev.submit_compute(bad));
    ADD_FAILURE() << "the bad packet completed";
  } catch (const am::DeviceError& e) {
    EXPECT_NE(std::string(e.what()).find("compute queue stopped"), std::string::npos) << e.what();
  }
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  EXPECT_EQ(dev.queue_resets(), 1u);
  // The reset dequeued the queue (CP_HQD_DEQUEUE_REQUEST) rather than clearing CP_HQD_ACTIVE.
  EXPECT_EQ(gpu->hqd_cleared_while_active(), 0u);
  am::Allocation mem = dev.alloc_vram(4096);
  am::Pm4Builder ok;
  ok.write_data_mem(mem.va, {42});
  dev.wait(am::Engine::Compute, dev.submit_compute(ok));
  EXPECT_EQ(reinterpret_cast<uint32_t*>(mem.cpu)[0], 42u);
  dev.free(mem);
}

// The SDMA engine raises SDMA_QUEUE_HANG for a packet it cannot execute, so the driver reports
// the error and resets the queue at once instead of waiting out the hang timeout (60 s).
// A wave that meets an instruction the emulated shader array does not execute (an image load:
// llvm-mc-22 -show-encoding, gfx1100 two dwords, gfx1201 three) stops on an illegal-instruction
// exception. The driver learns where from the SQ interrupt word and the halted wave's registers,
// reads the dwords at its PC from its own mapping of the code, and the queue goes on.
TEST_P(AmDevice, IllegalInstructionIsReportedWithItsPcDwordsAndTrapStatus) {
  const bool gfx12 = std::string(GetParam()).starts_with("gfx12");
  // s_nop 0; image_load v[4:7], v1, s[8:15] dmask:0xf dim:SQ_RSRC_IMG_1D; s_endpgm
  const std::vector<uint32_t> program =
      gfx12 ? std::vector<uint32_t>{0xBF800000, 0xD3C00000, 0x00001004, 0x00000001, 0xBFB00000}
            : std::vector<uint32_t>{0xBF800000, 0xF0000F00, 0x00020401, 0xBFB00000};
  auto gpu = card();
  am::Device dev(gpu);
  const am::hw::sq::SqRegs& regs = *am::hw::sq::sq_regs_for_gc_major(gfx12 ? 12 : 11);
  am::Allocation code = dev.alloc_vram(4096, 256, true);
  std::memcpy(code.cpu, program.data(), program.size() * 4);
  using namespace am::hw;
  am::Pm4Builder p;
  p.set_sh_regs(sh::regCOMPUTE_PGM_LO, {uint32_t(code.va >> 8), uint32_t(code.va >> 40)});
  p.set_sh_regs(sh::regCOMPUTE_PGM_RSRC1, {0, 0});
  p.set_sh_regs(sh::regCOMPUTE_PGM_RSRC3, {0});
  p.set_sh_regs(sh::regCOMPUTE_START_X, {0, 0, 0});
  p.set_sh_regs(sh::regCOMPUTE_NUM_THREAD_X, {32, 1, 1});
  p.dispatch_direct(1, 1, 1,
                    sh::DISPATCH_COMPUTE_SHADER_EN | sh::DISPATCH_FORCE_START_AT_000 |
                        sh::DISPATCH_CS_W32_EN);
  try {
    dev.wait(am::Engine::Compute, dev.submit_compute(p));
    ADD_FAILURE() << "the illegal instruction completed without an error";
  } catch (const am::DeviceError& e) {
    ASSERT_TRUE(e.wave_fault) << e.what();
    const am::WaveFault& f = *e.wave_fault;
    EXPECT_EQ(f.kind, am::WaveFault::Kind::IllegalInstruction);
    EXPECT_EQ(f.pc, code.va + 4);
    ASSERT_EQ(f.words, 3u);
    for (unsigned i = 0; i < 3; ++i) EXPECT_EQ(f.dwords[i], program[1 + i]) << i;
    EXPECT_EQ(f.exception & regs.illegal_inst, regs.illegal_inst);
    EXPECT_STREQ(f.exception_name, gfx12 ? "EXCP_FLAG_PRIV" : "TRAPSTS");
    char pc[32];
    std::snprintf(pc, sizeof pc, "0x%llx", static_cast<unsigned long long>(code.va + 4));
    EXPECT_NE(std::string(e.what()).find(std::string("shader exception at pc ") + pc +
                                         ": illegal instruction (0x" +
                                         (gfx12 ? "d3c00000 0x00001004" : "f0000f00 0x00020401")),
              std::string::npos)
        << e.what();
  }
  // The halted wave stays readable until its queue is reset; the slot of a wave that is not
  // halted reads 0.
  EXPECT_EQ(gpu->sq().halted(), 1u);
  auto gc = [&](am::hw::Reg r) { return gpu->model().gc_reg(r); };
  gpu->reg_write32(gc(regs.GRBM_GFX_INDEX), sq::grbm_gfx_index(0, 0, 0));
  gpu->reg_write32(gc(regs.SQ_IND_INDEX), sq::sq_ind_index(31, regs.ix_pc_lo));
  EXPECT_EQ(gpu->reg_read32(gc(regs.SQ_IND_DATA)), 0u);
  gpu->reg_write32(gc(regs.GRBM_GFX_INDEX), sq::kGrbmGfxIndexBroadcast);
  // The queue runs the next submission.
  am::Allocation mem = dev.alloc_vram(4096);
  am::Pm4Builder w;
  w.write_data_mem(mem.va, {0x600d});
  dev.wait(am::Engine::Compute, dev.submit_compute(w));
  EXPECT_EQ(reinterpret_cast<uint32_t*>(mem.cpu)[0], 0x600du);
  dev.free(mem);
  dev.free(code);
}

TEST_P(AmDevice, BadSdmaPacketIsReportedWithoutWaitingForTheHangTimeout) {
  am::Device dev(card());
  am::SdmaBuilder bad;
  bad.words().push_back(am::hw::sdma::header(0x7f, 0)); // no such opcode
  const auto start = std::chrono::steady_clock::now();
  try {
    dev.wait(am::Engine::Sdma, dev.submit_sdma(bad));
    ADD_FAILURE() << "the bad packet completed";
  } catch (const am::DeviceError& e) {
    EXPECT_NE(std::string(e.what()).find("SDMA queue stopped"), std::string::npos) << e.what();
  }
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  EXPECT_EQ(dev.queue_resets(), 1u);
  am::Allocation mem = dev.alloc_vram(4096);
  am::SdmaBuilder ok;
  ok.const_fill(mem.va, 0x600d, 64);
  dev.wait(am::Engine::Sdma, dev.submit_sdma(ok));
  EXPECT_EQ(reinterpret_cast<uint32_t*>(mem.cpu)[0], 0x600du);
  dev.free(mem);
}

// An SDMA stream longer than a ring (a rectangular copy of many short rows is one packet per
// row) goes as several submissions split between packets; the value returned completes after
// all of them. A stream the ring can never hold was refused after the timeline value was
// handed out, so later waits for that value never returned.
TEST_P(AmDevice, SdmaStreamsLongerThanTheRingAreSplitBetweenPackets) {
  am::Device dev(card());
  constexpr size_t kFills = 40000; // 5 dwords each: three rings' worth
  am::Allocation mem = dev.alloc_vram(kFills * 4);
  am::SdmaBuilder b;
  for (size_t i = 0; i < kFills; ++i) b.const_fill(mem.va + 4 * i, uint32_t(i * 7 + 1), 4);
  ASSERT_GT(b.words().size() * 4, 3 * 256 * 1024u);
  const uint64_t before = dev.submitted(am::Engine::Sdma);
  const uint64_t done = dev.submit_sdma(b);
  EXPECT_GE(done - before, b.words().size() / am::Device::kMaxSubmissionDwords);
  dev.wait(am::Engine::Sdma, done);
  const auto* v = reinterpret_cast<const uint32_t*>(mem.cpu);
  for (size_t i = 0; i < kFills; ++i) ASSERT_EQ(v[i], uint32_t(i * 7 + 1)) << i;
  // One packet larger than the ring cannot be submitted; the queue goes on.
  am::SdmaBuilder huge;
  huge.write_linear(mem.va, std::vector<uint32_t>(70000, 5));
  const uint64_t last = dev.submitted(am::Engine::Sdma);
  EXPECT_ANY_THROW(dev.submit_sdma(huge));
  EXPECT_EQ(dev.submitted(am::Engine::Sdma), last) << "a value was handed out for nothing";
  am::SdmaBuilder ok;
  ok.const_fill(mem.va, 0x600d, 64);
  dev.wait(am::Engine::Sdma, dev.submit_sdma(ok));
  EXPECT_EQ(v[0], 0x600du);
  dev.free(mem);
}

// Both VM hubs get VMID 0 with the one page directory: GFXHUB for the CP, shaders and SDMA,
// MMHUB for the IH, whose ring writes reach memory only through it (the emulated IH faults and
// loses the interrupt when MMHUB's context is not set up; then the SDMA fault below would
// never be reported and its wait would run into the hang timeout).
TEST_P(AmDevice, BothVmHubsMapVmidZeroAndTheIhWritesThroughMmhub) {
  auto gpu = card();
  am::Device dev(gpu);
  const sim::CardModel& model = *sim::find_card_model(GetParam());
  const am::hw::VmHubRegs gfx = am::hw::gfxhub_regs(*model.gc), mm = *model.mmhub;
  auto gfx_reg = [&](am::hw::Reg r) { return gpu->reg_read32(model.gc_reg(r)); };
  auto mm_reg = [&](am::hw::Reg r) { return gpu->reg_read32(model.mmhub_reg(r)); };
  EXPECT_EQ(mm_reg(mm.CONTEXT0_CNTL), gfx_reg(gfx.CONTEXT0_CNTL));
  EXPECT_EQ(mm_reg(mm.CONTEXT0_CNTL) & 1u, 1u);
  // Every protection-fault interrupt on, as amdgpu's vm_fault_interrupt_state sets them.
  const uint32_t faults = am::hw::vm_context_fault_interrupts(gfx.block_size_shift);
  EXPECT_EQ(gfx_reg(gfx.CONTEXT0_CNTL) & faults, faults);
  EXPECT_EQ(mm_reg(mm.PAGE_TABLE_BASE_LO32), gfx_reg(gfx.PAGE_TABLE_BASE_LO32));
  EXPECT_EQ(mm_reg(mm.PAGE_TABLE_BASE_HI32), gfx_reg(gfx.PAGE_TABLE_BASE_HI32));
  EXPECT_EQ(mm_reg(mm.PAGE_TABLE_END_LO32), gfx_reg(gfx.PAGE_TABLE_END_LO32));
  EXPECT_EQ(mm_reg(mm.PAGE_TABLE_END_HI32), gfx_reg(gfx.PAGE_TABLE_END_HI32));

  const uint64_t posted = gpu->ih().posted();
  am::Allocation vram = dev.alloc_vram(4096);
  am::SdmaBuilder b;
  b.copy_linear(vram.va, 0x6100000000ull, 64); // never mapped: a VM fault, through the IH
  EXPECT_THROW(dev.wait(am::Engine::Sdma, dev.submit_sdma(b)), am::DeviceError);
  EXPECT_GT(gpu->ih().posted(), posted);
  EXPECT_EQ(gpu->ih().dropped(), 0u);
  dev.free(vram);
}

namespace {

// With `block` applied an SDMA fill's doorbell never reaches the engine: the fill does not run.
// After `unblock`, the next doorbell carries both it and a second fill.
void expect_sdma_unheard_until_unblocked(am::Device& dev, const std::function<void()>& block,
                                         const std::function<void()>& unblock, uint32_t value) {
  am::Allocation mem = dev.alloc_vram(4096);
  std::memset(mem.cpu, 0, 4096);
  block();
  am::SdmaBuilder b;
  b.const_fill(mem.va, value, 64);
  const uint64_t dropped = dev.submit_sdma(b);
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_LT(dev.completed(am::Engine::Sdma), dropped);
  EXPECT_EQ(reinterpret_cast<uint32_t*>(mem.cpu)[0], 0u);
  unblock();
  b.clear();
  b.const_fill(mem.va + 64, value + 1, 64);
  dev.wait(am::Engine::Sdma, dev.submit_sdma(b)); // this doorbell carries both submissions
  EXPECT_EQ(reinterpret_cast<uint32_t*>(mem.cpu)[0], value);
  EXPECT_EQ(reinterpret_cast<uint32_t*>(mem.cpu)[16], value + 1);
  dev.free(mem);
}

} // namespace

// SOC init opens NBIO's doorbell aperture; while it is closed the bus drops doorbell writes
// and the engines never hear of new work.
TEST_P(AmDevice, DoorbellsReachTheEnginesOnlyThroughTheOpenAperture) {
  auto gpu = card();
  am::Device dev(gpu);
  const sim::CardModel& m = gpu->model();
  const uint32_t aperture = m.nbio_reg(m.nbio->RCC_DEV0_EPF0_RCC_DOORBELL_APER_EN);
  EXPECT_EQ(gpu->reg_read32(aperture) & 1u, 1u); // the boot opened it
  expect_sdma_unheard_until_unblocked(
      dev, [&] { gpu->reg_write32(aperture, 0); }, [&] { gpu->reg_write32(aperture, 1); }, 0x5a);
}

namespace {

// A register anywhere in the card's register space, as a driver reaches it: through BAR5, or
// past it through NBIO's PCIe index/data pair.
uint32_t read_any(sim::Gpu& gpu, uint32_t index) {
  if (uint64_t(index) * 4 + 4 <= gpu.reg_bytes()) return gpu.reg_read32(index);
  const sim::CardModel& m = gpu.model();
  gpu.reg_write32(m.nbio_reg(m.nbio->PCIE_INDEX2), index * 4);
  return gpu.reg_read32(m.nbio_reg(m.nbio->PCIE_DATA2));
}
void write_any(sim::Gpu& gpu, uint32_t index, uint32_t value) {
  if (uint64_t(index) * 4 + 4 <= gpu.reg_bytes()) return gpu.reg_write32(index, value);
  const sim::CardModel& m = gpu.model();
  gpu.reg_write32(m.nbio_reg(m.nbio->PCIE_INDEX2), index * 4);
  gpu.reg_write32(m.nbio_reg(m.nbio->PCIE_DATA2), value);
}

} // namespace

// The MEC listens only to doorbells inside CP_MEC_DOORBELL_RANGE, which the boot opens from 0
// to the last user queue's (0x450 bytes, as amdgpu): with the range shut, a compute submission
// is not seen until a doorbell inside it arrives.
TEST_P(AmDevice, TheMecHearsOnlyDoorbellsInsideItsRange) {
  auto gpu = card();
  am::Device dev(gpu);
  const sim::CardModel& m = gpu->model();
  const uint32_t upper = m.gc_reg(m.gc->CP_MEC_DOORBELL_RANGE_UPPER);
  EXPECT_EQ(gpu->reg_read32(m.gc_reg(m.gc->CP_MEC_DOORBELL_RANGE_LOWER)), 0u);
  EXPECT_EQ(gpu->reg_read32(upper), 0x450u);
  gpu->reg_write32(upper, 0);
  am::Pm4Builder p;
  p.nop(2);
  const uint64_t unheard = dev.submit_compute(p);
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_LT(dev.completed(am::Engine::Compute), unheard);
  gpu->reg_write32(upper, 0x450);
  dev.wait(am::Engine::Compute, dev.submit_compute(p)); // this doorbell carries both
  EXPECT_GE(dev.completed(am::Engine::Compute), unheard);
}

// NBIO 4.3.0 keeps its S2A doorbell routing past BAR5 (reached through PCIE_INDEX2/DATA2),
// NBIF 6.3.1 inside it. The boot routes the CP's doorbells (entries 0 and 3) and SDMA 0's
// range (entry 2: amdgpu's and tinygrad's values); without entry 2 the SDMA engine never
// hears its doorbell.
TEST_P(AmDevice, S2aEntriesRouteTheSdmaDoorbellRange) {
  auto gpu = card();
  am::Device dev(gpu);
  const sim::CardModel& m = gpu->model();
  const uint32_t entry0 = m.nbio_reg(m.nbio->S2A_DOORBELL_ENTRY_0_CTRL);
  EXPECT_EQ(read_any(*gpu, entry0 + 0), 0x30000007u);
  EXPECT_EQ(read_any(*gpu, entry0 + 3), 0x3000000du);
  EXPECT_EQ(read_any(*gpu, entry0 + 2), 0x3051001du);
  if (dev.info().gfx == "gfx1100") {
    EXPECT_GT(uint64_t(entry0) * 4, gpu->reg_bytes());
    EXPECT_EQ(gpu->reg_read32(entry0), 0xffffffffu); // nothing answers past the BAR
  }
  expect_sdma_unheard_until_unblocked(
      dev, [&] { write_any(*gpu, entry0 + 2, 0); },
      [&] { write_any(*gpu, entry0 + 2, 0x3051001d); }, 0x6a);
}

// The CPU's writes to VRAM through the BAR reach the engines only after an HDP flush: the
// driver flushes before every doorbell, TLB invalidation and PSP command, and the model drops
// (and counts) a doorbell that follows none.
TEST_P(AmDevice, EveryDoorbellFollowsAnHdpFlush) {
  auto gpu = card();
  am::Device dev(gpu);
  const uint64_t faults = gpu->hdp_faults(), flushes = gpu->nbio().hdp_flushes();
  am::Allocation mem = dev.alloc_vram(4096);
  am::Pm4Builder p;
  p.nop(4);
  dev.wait(am::Engine::Compute, dev.submit_compute(p));
  am::SdmaBuilder b;
  b.const_fill(mem.va, 7, 64);
  dev.wait(am::Engine::Sdma, dev.submit_sdma(b));
  EXPECT_EQ(gpu->hdp_faults(), faults);
  EXPECT_GE(gpu->nbio().hdp_flushes(), flushes + 3); // the page-table change and two doorbells
  // A doorbell that repeats the SDMA ring's current position, with no flush since the last.
  const uint32_t rptr = gpu->reg_read32(gpu->model().gc_reg(gpu->model().gc->SDMA0_QUEUE0_RB_RPTR));
  gpu->doorbell_write64(0x100 * 2, rptr);
  EXPECT_EQ(gpu->hdp_faults(), faults + 1);
  b.clear();
  b.const_fill(mem.va, 8, 64);
  dev.wait(am::Engine::Sdma, dev.submit_sdma(b)); // the driver's own doorbells still pass
  EXPECT_EQ(reinterpret_cast<uint32_t*>(mem.cpu)[0], 8u);
  EXPECT_EQ(gpu->hdp_faults(), faults + 1);
  dev.free(mem);
}

// Threads allocating and freeing at once each change the page table and invalidate the TLBs:
// every request still follows a flush made after the one before it (the CTS's vectors suite,
// whose threads did, drew the model's warning).
TEST_P(AmDevice, ConcurrentMappingsFlushBeforeEveryTlbInvalidation) {
  auto gpu = card();
  am::Device dev(gpu);
  const uint64_t faults = gpu->hdp_faults();
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&dev] {
      for (int i = 0; i < 5000; ++i) dev.free(dev.alloc_vram(4096));
    });
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(gpu->hdp_faults(), faults);
}

// The boot sets bus mastering (after any reset, which clears it); without it the card reaches
// no system memory, mapped or not, and the copy faults.
TEST_P(AmDevice, SystemMemoryDmaNeedsBusMastering) {
  auto gpu = card();
  am::Device dev(gpu);
  EXPECT_EQ(gpu->config_read32(am::kPciCommand) & 6u, 6u);
  am::Allocation host = dev.alloc_system(4096);
  std::memset(host.cpu, 0, 4096);
  gpu->write_pci_command(am::kPciCommandMemory);
  am::SdmaBuilder b;
  b.const_fill(host.va, 0x77, 64);
  EXPECT_THROW(dev.wait(am::Engine::Sdma, dev.submit_sdma(b)), am::DeviceError);
  EXPECT_EQ(reinterpret_cast<uint32_t*>(host.cpu)[0], 0u);
  gpu->write_pci_command(am::kPciCommandMemory | am::kPciCommandBusMaster);
  b.clear();
  b.const_fill(host.va, 0x78, 64);
  dev.wait(am::Engine::Sdma, dev.submit_sdma(b));
  EXPECT_EQ(reinterpret_cast<uint32_t*>(host.cpu)[0], 0x78u);
  dev.free(host);
}

TEST_P(AmDevice, SystemMemoryIsMappedInTheIommuOnlyWhileAllocated) {
  auto gpu = card();
  am::Device dev(gpu);
  size_t before = gpu->iommu().mapping_count();
  am::Allocation host = dev.alloc_system(4096);
  EXPECT_EQ(gpu->iommu().mapping_count(), before + 1);
  dev.free(host);
  EXPECT_EQ(gpu->iommu().mapping_count(), before);
}

TEST_P(AmDevice, SecondBootInTheSameProcessSeesTheEarlierBoot) {
  auto gpu = card(1);
  { am::Device first(gpu); EXPECT_FALSE(first.booted_fast()); }
  am::Device second(gpu);
  EXPECT_TRUE(second.booted_fast());
  am::Allocation mem = second.alloc_vram(4096);
  am::SdmaBuilder b;
  b.const_fill(mem.va, 5, 4096);
  second.wait(am::Engine::Sdma, second.submit_sdma(b));
  EXPECT_EQ(reinterpret_cast<uint32_t*>(mem.cpu)[1000], 5u);
  second.free(mem);
}

// A card nothing ran on: the driver loads the sOS through the PSP's bootloader, creates its
// ring, sizes and sets up the TMR, loads the SMU and graphics firmware, autoloads the RLC, then
// talks to the SMU. The PSP keeps the images in the TMR, in the boot region at the top of VRAM.
TEST_P(AmDevice, FreshCardBootsThroughThePspAndTheSmu) {
  auto gpu = card(2);
  EXPECT_FALSE(gpu->firmware().gfx_running);
  EXPECT_EQ(gpu->config_read32(am::kPciCommand) & am::kPciCommandBusMaster, 0u);
  am::Device dev(gpu);
  EXPECT_EQ(dev.boot_state(), am::BootState::Fresh);
  EXPECT_NE(gpu->config_read32(am::kPciCommand) & am::kPciCommandBusMaster, 0u);
  EXPECT_EQ(dev.firmware_source(), "synthetic");
  EXPECT_EQ(dev.smu_version(), gpu->model().smu_version);
  EXPECT_TRUE(gpu->firmware().smu_running);
  EXPECT_TRUE(gpu->firmware().gfx_running);
  const bool gfx11 = dev.info().gfx == "gfx1100";
  // Synthetic images start with "AMCL <file>[ <piece>]", then a byte pattern (firmware_set.cpp):
  // RLC_G is the RLC file's bare tag followed by the pattern's first byte.
  const std::string rlc_tag = gfx11 ? "AMCL gc_11_0_0_rlc.bin" : "AMCL gc_12_0_1_rlc.bin";
  const std::string rlc_g = rlc_tag + char(uint8_t(rlc_tag.size() * 7 + 3));
  const std::string sdma = gfx11 ? "AMCL sdma_6_0_0.bin ctx" : "AMCL sdma_7_0_1.bin";
  const uint64_t boot_region = gpu->vram_size() - (33ull << 20);
  // The driver stages each image in one buffer, which the last (RLC_G) image overwrote, and the
  // PSP copies each into the TMR: the first image (SDMA's) is there once, RLC_G twice.
  const size_t at = find_in_vram(*gpu, boot_region, sdma);
  ASSERT_NE(at, std::string::npos) << sdma << " is not in the TMR";
  EXPECT_EQ(find_in_vram(*gpu, at + 1, sdma), std::string::npos);
  const size_t g1 = find_in_vram(*gpu, boot_region, rlc_g);
  ASSERT_NE(g1, std::string::npos);
  EXPECT_NE(find_in_vram(*gpu, g1 + 1, rlc_g), std::string::npos);
  EXPECT_NE(find_in_vram(*gpu, boot_region, rlc_tag + " part 26"), std::string::npos); // RLC IRAM
  // The PSP was given MC addresses (the frame buffer aperture), not GPU virtual ones: its
  // bootloader buffer register points into the aperture.
  const uint64_t msg1 = uint64_t(gpu->reg_read32(gpu->model().psp_reg(gpu->model().psp->bl_addr))) << 20;
  EXPECT_GE(msg1, sim::FbAperture::kFbBase);
  EXPECT_LT(msg1, sim::FbAperture::kFbBase + gpu->vram_size());
  am::Allocation mem = dev.alloc_vram(4096);
  am::SdmaBuilder b;
  b.const_fill(mem.va, 0x77, 64);
  dev.wait(am::Engine::Sdma, dev.submit_sdma(b));
  EXPECT_EQ(reinterpret_cast<uint32_t*>(mem.cpu)[0], 0x77u);
  dev.free(mem);
  // Every TLB invalidation so far (boot, the mapping above, its unmapping) reached all of
  // VMID 0: the engines' address ranges were programmed first.
  EXPECT_EQ(gpu->invalidation_range_faults(), 0u);
  // The compute HQD's control registers start from their reset values, as amdgpu's do (a
  // register written 0 would lose bits the MEC firmware expects).
  const sim::CardModel& m = gpu->model();
  const am::hw::GcRegs& g = *m.gc;
  auto gc = [&](am::hw::Reg r) { return m.gc_reg(r); };
  auto hqd = [&](uint32_t idx) {
    return gpu->reg_read32(gc(g.CP_MQD_BASE_ADDR) + (idx - am::hw::mqd::kHqdFirst));
  };
  gpu->reg_write32(gc(g.GRBM_GFX_CNTL), am::hw::grbm_gfx_cntl(1, 0, 0, 0));
  EXPECT_EQ(hqd(am::hw::mqd::cp_hqd_persistent_state), 0x0be05501u);
  EXPECT_EQ(hqd(am::hw::mqd::cp_hqd_ib_control), 0x00300000u);
  EXPECT_EQ(hqd(am::hw::mqd::cp_mqd_control), 0x00000100u);
  EXPECT_EQ(hqd(am::hw::mqd::cp_hqd_pq_control) & ~0x3fu, 0xD0308500u);
  EXPECT_EQ(hqd(am::hw::mqd::cp_hqd_active), 1u);
  gpu->reg_write32(gc(g.GRBM_GFX_CNTL), 0);
}

// A card whose firmware runs without AM's marker (amdgpu had it) is mode1-reset first, and the
// driver leaves it alone while it resets (the emulated chip counts accesses it could not take).
TEST_P(AmDevice, CardAnotherDriverInitialisedIsResetThenBooted) {
  auto gpu = card(3);
  gpu->assume_booted_by_another_driver();
  am::Device dev(gpu);
  EXPECT_EQ(dev.boot_state(), am::BootState::ResetThenFull);
  EXPECT_EQ(gpu->mode1_resets(), 1u);
  EXPECT_EQ(gpu->accesses_during_reset(), 0u);
  EXPECT_EQ(gpu->undecoded_accesses(), 0u);        // config space restored before the first access
  EXPECT_NE(gpu->config_read32(0x24) & ~0xfu, 0u); // BAR5 has its address back
  EXPECT_EQ(dev.firmware_source(), "synthetic");
  am::Allocation mem = dev.alloc_vram(4096);
  am::Pm4Builder p;
  p.write_data_mem(mem.va, {5});
  dev.wait(am::Engine::Compute, dev.submit_compute(p));
  EXPECT_EQ(reinterpret_cast<uint32_t*>(mem.cpu)[0], 5u);
  dev.free(mem);
}

// AM_RESET=1 turns the fast re-init into a reset and a full boot; the boot region is outside
// every later allocation, so the TMR the PSP filled survives sessions.
TEST_P(AmDevice, AmResetForcesTheFullBootAndBootMemoryIsNeverReused) {
  auto gpu = card(4);
  { am::Device first(gpu); }
  const uint64_t boot_region = gpu->vram_size() - (33ull << 20);
  {
    am::Device fast(gpu);
    EXPECT_EQ(fast.boot_state(), am::BootState::FastReinit);
    EXPECT_EQ(fast.firmware_source(), "");
    std::vector<am::Allocation> all;
    try {
      for (;;) all.push_back(fast.alloc_vram(256ull << 20));
    } catch (const am::DeviceError&) {
    }
    EXPECT_GT(all.size(), 8u);
    for (const am::Allocation& a : all) {
      EXPECT_LE(a.phys + a.size, boot_region);
      fast.free(a);
    }
  }
  EXPECT_EQ(gpu->hqd_cleared_while_active(), 0u); // each session's end dequeued the queue
  ::setenv("AM_RESET", "1", 1);
  am::Device forced(gpu);
  ::unsetenv("AM_RESET");
  EXPECT_EQ(forced.boot_state(), am::BootState::ResetThenFull);
  EXPECT_EQ(gpu->mode1_resets(), 1u);
  EXPECT_EQ(gpu->accesses_during_reset(), 0u);
}

// The SDMA engine is halted out of reset (SDMA0_F32_CNTL / SDMA0_MCU_CNTL.HALT) and the boot
// starts it; halted again, it leaves a submission alone until HALT is cleared, then runs it.
TEST_P(AmDevice, SdmaRunsOnlyWhileItsEngineIsUnhalted) {
  auto gpu = card();
  am::Device dev(gpu);
  const sim::CardModel& m = gpu->model();
  const uint32_t engine_cntl = m.gc_reg(m.gc->SDMA0_ENGINE_CNTL);
  EXPECT_EQ(gpu->reg_read32(engine_cntl) & am::hw::SDMA_ENGINE_CNTL_HALT, 0u);
  expect_held_while_set(*gpu, dev, engine_cntl, am::hw::SDMA_ENGINE_CNTL_HALT, am::Engine::Sdma,
                        0x5a, [&](uint64_t va) {
                          am::SdmaBuilder b(dev.sdma_major());
                          b.const_fill(va, 0x5a, 64);
                          return dev.submit_sdma(b);
                        });
}

// The MEC after the RLC autoload is halted with its pipes in reset: the boot must start pipe 0
// at the MEC firmware's entry (gfx_v11_0_config_gfx_rs64 + cp_compute_enable). A halted MEC
// fetches nothing; it takes the queue up once released.
TEST_P(AmDevice, ComputeRunsOnlyWhileTheMecIsStartedAtItsFirmwareEntry) {
  auto gpu = card();
  am::Device dev(gpu);
  EXPECT_TRUE(gpu->mec_control().pipe0_running());
  EXPECT_EQ(gpu->mec_control().start_faults(), 0u);
  const sim::CardModel& m = gpu->model();
  const uint32_t cntl = m.gc_reg(m.gc->CP_MEC_RS64_CNTL);
  EXPECT_EQ(gpu->reg_read32(cntl) &
                (am::hw::CP_MEC_RS64_HALT | (1u << am::hw::CP_MEC_RS64_PIPE_RESET_SHIFT)),
            0u);
  // Every pipe's program counter start is the entry of gc_*_mec.bin, dword address split in two.
  for (uint32_t pipe = 0; pipe < am::hw::kMecPipes; ++pipe) {
    gpu->reg_write32(m.gc_reg(m.gc->GRBM_GFX_CNTL), am::hw::grbm_gfx_cntl(1, pipe, 0, 0));
    EXPECT_EQ(gpu->reg_read32(m.gc_reg(m.gc->CP_MEC_RS64_PRGRM_CNTR_START)), 0x40001000u) << pipe;
    EXPECT_EQ(gpu->reg_read32(m.gc_reg(m.gc->CP_MEC_RS64_PRGRM_CNTR_START_HI)), 1u) << pipe;
  }
  gpu->reg_write32(m.gc_reg(m.gc->GRBM_GFX_CNTL), 0);
  expect_held_while_set(*gpu, dev, cntl, am::hw::CP_MEC_RS64_HALT, am::Engine::Compute, 0x600d,
                        [&](uint64_t va) {
                          EXPECT_FALSE(gpu->mec_control().pipe0_running());
                          am::Pm4Builder p;
                          p.write_data_mem(va, {0x600d});
                          return dev.submit_compute(p);
                        });
}

// The boot turns on the interrupt sources its waits sleep on. A source turned off raises
// nothing, though the fence its packet carries is still written (the wait then polls).
TEST_P(AmDevice, EndOfPipeAndTrapInterruptsAreRaisedOnlyWhileEnabled) {
  auto gpu = card();
  am::Device dev(gpu);
  const sim::CardModel& m = gpu->model();
  const uint32_t cp_int = m.gc_reg(m.gc->CP_ME1_PIPE0_INT_CNTL),
                 sdma_cntl = m.gc_reg(m.gc->SDMA0_CNTL);
  const uint32_t cp_bits = am::hw::CP_INT_TIME_STAMP_ENABLE | am::hw::CP_INT_GENERIC0_ENABLE |
                           am::hw::CP_INT_OPCODE_ERROR_ENABLE;
  EXPECT_EQ(gpu->reg_read32(cp_int) & cp_bits, cp_bits);
  EXPECT_NE(gpu->reg_read32(sdma_cntl) & am::hw::SDMA_CNTL_TRAP_ENABLE, 0u);
  const uint64_t suppressed = gpu->suppressed_interrupts();
  uint64_t posted = gpu->ih().posted();
  dev.wait(am::Engine::Compute, dev.submit_compute(am::Pm4Builder{}));
  dev.wait(am::Engine::Sdma, dev.submit_sdma(am::SdmaBuilder(dev.sdma_major())));
  EXPECT_TRUE(eventually([&] { return gpu->ih().posted() >= posted + 2; })); // EOP and trap
  EXPECT_EQ(gpu->suppressed_interrupts(), suppressed);

  gpu->reg_write32(cp_int, gpu->reg_read32(cp_int) & ~am::hw::CP_INT_TIME_STAMP_ENABLE);
  gpu->reg_write32(sdma_cntl, gpu->reg_read32(sdma_cntl) & ~am::hw::SDMA_CNTL_TRAP_ENABLE);
  posted = gpu->ih().posted();
  const uint64_t c = dev.submit_compute(am::Pm4Builder{}),
                 d = dev.submit_sdma(am::SdmaBuilder(dev.sdma_major()));
  dev.wait(am::Engine::Compute, c);
  dev.wait(am::Engine::Sdma, d);
  EXPECT_TRUE(eventually([&] { return gpu->suppressed_interrupts() == suppressed + 2; }));
  EXPECT_EQ(gpu->ih().posted(), posted);
}

// The queue is programmed as amdgpu programs its KIQ directly: write-pointer polling off (the
// write pointer comes by doorbell), the CP's queue doorbells on; also when a later session
// finds polling on.
TEST_P(AmDevice, TheComputeQueueTakesItsWritePointerByDoorbellOnly) {
  auto gpu = card(5);
  const sim::CardModel& m = gpu->model();
  const uint32_t poll = m.gc_reg(m.gc->CP_PQ_WPTR_POLL_CNTL), status = m.gc_reg(m.gc->CP_PQ_STATUS);
  { am::Device first(gpu); }
  gpu->reg_write32(poll, am::hw::CP_PQ_WPTR_POLL_CNTL_EN); // left on by someone else
  am::Device dev(gpu);
  EXPECT_EQ(dev.boot_state(), am::BootState::FastReinit);
  EXPECT_EQ(gpu->reg_read32(poll) & am::hw::CP_PQ_WPTR_POLL_CNTL_EN, 0u);
  // constants_init's GRBM read timeout, set on every boot.
  EXPECT_EQ(gpu->reg_read32(m.gc_reg(m.gc->GRBM_CNTL)) & am::hw::GRBM_CNTL_READ_TIMEOUT_MASK,
            0xffu);
  EXPECT_NE(gpu->reg_read32(status) & am::hw::CP_PQ_STATUS_DOORBELL_ENABLE, 0u);
}

// Both hubs' L2 and fault handling as amdgpu's hub code leaves them: CNTL3..5 from their reset
// defaults with amdgpu's tuning, faults sent to the default page, PTE reads retried, and (GC) the
// CP not halted by a translation error; on every boot, over whatever an earlier session left.
TEST_P(AmDevice, TheHubsL2AndFaultDefaultsAreAmdgpus) {
  auto gpu = card(5);
  const sim::CardModel& m = gpu->model();
  const am::hw::VmHubRegs gfx = am::hw::gfxhub_regs(*m.gc), &mm = *m.mmhub;
  auto gc = [&](am::hw::Reg r) { return gpu->reg_read32(m.gc_reg(r)); };
  auto mmhub = [&](am::hw::Reg r) { return gpu->reg_read32(m.mmhub_reg(r)); };
  { am::Device first(gpu); }
  gpu->reg_write32(m.gc_reg(gfx.L2_CNTL3), 0);
  gpu->reg_write32(m.mmhub_reg(mm.L2_CNTL3), 0);
  gpu->reg_write32(m.gc_reg(gfx.L2_PROTECTION_FAULT_CNTL), 0);
  gpu->reg_write32(m.mmhub_reg(mm.L2_PROTECTION_FAULT_CNTL), 0);
  gpu->reg_write32(m.gc_reg(m.gc->CP_DEBUG), 0x10u); // a field amcl does not own
  am::Device dev(gpu);
  EXPECT_EQ(dev.boot_state(), am::BootState::FastReinit);
  auto expect_tuned = [](const am::hw::VmHubRegs& hub, auto read) {
    SCOPED_TRACE(hub.name);
    EXPECT_EQ(read(hub.L2_CNTL3), 0x80130009u); // BANK_SELECT 9, BIGK_FRAGMENT_SIZE 6
    EXPECT_EQ(read(hub.L2_CNTL4), 0x00000001u); // no physical PDE/PTE requests
    EXPECT_EQ(read(hub.L2_CNTL5), 0x00003fe0u); // SMALLK_FRAGMENT_SIZE 0
    EXPECT_EQ(read(hub.L2_PROTECTION_FAULT_CNTL) & 0xc0001ffcu, 0x1ffcu); // no CRASH_ON_*
    EXPECT_NE(read(hub.L2_PROTECTION_FAULT_CNTL2) & (1u << 18), 0u);
  };
  expect_tuned(gfx, gc);
  expect_tuned(mm, mmhub);
  EXPECT_EQ(gc(m.gc->CP_DEBUG), 0x8010u);
}

// Each submission leaves its write pointer at the queue's poll address before the doorbell, as
// amdgpu's set_wptr does: once the work ran, the poll address holds where the engine's read
// pointer stopped.
TEST_P(AmDevice, EachSubmissionLeavesItsWritePointerAtThePollAddress) {
  auto gpu = card();
  am::Device dev(gpu);
  const sim::CardModel& m = gpu->model();
  auto reg = [&](am::hw::Reg r) { return gpu->reg_read32(m.gc_reg(r)); };
  auto read64 = [&](uint64_t va) {
    uint64_t v = 0;
    gpu->gmc().read(va, &v, 8);
    return v;
  };
  dev.wait(am::Engine::Compute, dev.submit_compute(am::Pm4Builder{}));
  dev.wait(am::Engine::Sdma, dev.submit_sdma(am::SdmaBuilder(dev.sdma_major())));
  gpu->reg_write32(m.gc_reg(m.gc->GRBM_GFX_CNTL), am::hw::grbm_gfx_cntl(1, 0, 0, 0));
  const uint64_t cp_poll = uint64_t(reg(m.gc->CP_HQD_PQ_WPTR_POLL_ADDR)) |
                           uint64_t(reg(m.gc->CP_HQD_PQ_WPTR_POLL_ADDR_HI)) << 32;
  const uint32_t ring_dwords = 2u << (reg(m.gc->CP_HQD_PQ_CONTROL) & 0x3f); // QUEUE_SIZE = log2 - 1
  EXPECT_NE(read64(cp_poll), 0u);
  EXPECT_TRUE(eventually([&] {
    return read64(cp_poll) % ring_dwords == reg(m.gc->CP_HQD_PQ_RPTR);
  })) << read64(cp_poll)
      << " " << reg(m.gc->CP_HQD_PQ_RPTR);
  gpu->reg_write32(m.gc_reg(m.gc->GRBM_GFX_CNTL), 0);
  const uint64_t sdma_poll = uint64_t(reg(m.gc->SDMA0_QUEUE0_RB_WPTR_POLL_ADDR_LO)) |
                             uint64_t(reg(m.gc->SDMA0_QUEUE0_RB_WPTR_POLL_ADDR_HI)) << 32;
  EXPECT_NE(read64(sdma_poll), 0u);
  EXPECT_TRUE(eventually([&] { return read64(sdma_poll) == reg(m.gc->SDMA0_QUEUE0_RB_RPTR); }))
      << read64(sdma_poll) << " " << reg(m.gc->SDMA0_QUEUE0_RB_RPTR);
  // The SDMA ring as sdma_v6_0/v7_0_gfx_resume leaves it on bare metal: the firmware may poll
  // that address, the ring's own polling is off, the read pointer is written back every 2^4 x
  // 32 clocks, and indirect buffers are on.
  const uint32_t rb_cntl = reg(m.gc->SDMA0_QUEUE0_RB_CNTL);
  EXPECT_NE(rb_cntl & am::hw::SDMA_RB_CNTL_F32_WPTR_POLL_ENABLE, 0u);
  EXPECT_EQ(rb_cntl & (1u << 8), 0u) << "WPTR_POLL_ENABLE is for SR-IOV";
  EXPECT_EQ((rb_cntl >> am::hw::SDMA_RB_CNTL_RPTR_WRITEBACK_TIMER_SHIFT) & 0x1f,
            am::hw::kSdmaRptrWritebackTimer);
  EXPECT_NE(reg(m.gc->SDMA0_QUEUE0_IB_CNTL) & am::hw::SDMA_IB_CNTL_IB_ENABLE, 0u);
}

// A dequeue request that resets the waves takes the queue off the hardware: CP_HQD_ACTIVE falls
// and a doorbell fetches nothing until the queue is programmed again.
TEST_P(AmDevice, ADequeueRequestTakesTheComputeQueueOff) {
  auto gpu = card();
  am::Device dev(gpu);
  const sim::CardModel& m = gpu->model();
  gpu->reg_write32(m.gc_reg(m.gc->GRBM_GFX_CNTL), am::hw::grbm_gfx_cntl(1, 0, 0, 0));
  EXPECT_EQ(gpu->reg_read32(m.gc_reg(m.gc->CP_HQD_ACTIVE)) & 1u, 1u);
  gpu->reg_write32(m.gc_reg(m.gc->CP_HQD_DEQUEUE_REQUEST), am::hw::kDequeueResetWaves);
  EXPECT_EQ(gpu->reg_read32(m.gc_reg(m.gc->CP_HQD_ACTIVE)) & 1u, 0u);
  gpu->reg_write32(m.gc_reg(m.gc->CP_HQD_DEQUEUE_REQUEST), 0);
  gpu->reg_write32(m.gc_reg(m.gc->GRBM_GFX_CNTL), 0);
  EXPECT_FALSE(gpu->mec().active());
  EXPECT_EQ(gpu->hqd_cleared_while_active(), 0u);
}

// SDMA WRITE, POLL_REGMEM and COPY_LINEAR_SUB_WINDOW (whose pitch field moved between SDMA 6
// and 7: the builder encodes for the card's version).
TEST_P(AmDevice, SdmaWritePollAndSubWindowCopy) {
  am::Device dev(card());
  am::Allocation mem = dev.alloc_vram(1 << 16);
  std::memset(mem.cpu, 0, 1 << 16);
  auto* w = reinterpret_cast<uint32_t*>(mem.cpu);
  am::SdmaBuilder b(dev.sdma_major());
  b.poll_mem(mem.va, 3 /* == */, 1, 0xffffffff);
  b.write_linear(mem.va + 64, {10, 11, 12});
  const uint64_t done = dev.submit_sdma(b);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_LT(dev.completed(am::Engine::Sdma), done); // still polling
  std::atomic_ref<uint32_t>(w[0]).store(1);
  dev.wait(am::Engine::Sdma, done);
  EXPECT_EQ(w[16], 10u);
  EXPECT_EQ(w[18], 12u);
  // A 3 x 2 x 2 box of 4-byte elements from a 16-wide, 16-slice-pitch... source surface.
  const uint32_t src0 = 1024, dst0 = 8192; // dword offsets
  for (uint32_t i = 0; i < 1024; ++i) w[src0 + i] = 0x1000 + i;
  am::SdmaSurface src{mem.va + 4 * src0, 2, 1, 1, 16, 16 * 8};
  am::SdmaSurface dst{mem.va + 4 * dst0, 0, 0, 0, 4, 4 * 2};
  b.clear();
  b.copy_sub_window(dst, src, 2, 3, 2, 2);
  dev.wait(am::Engine::Sdma, dev.submit_sdma(b));
  for (uint32_t z = 0; z < 2; ++z)
    for (uint32_t y = 0; y < 2; ++y)
      for (uint32_t x = 0; x < 4; ++x) {
        const uint32_t got = w[dst0 + z * 8 + y * 4 + x];
        const uint32_t want = x < 3 ? 0x1000 + (1 + z) * 128 + (1 + y) * 16 + 2 + x : 0;
        EXPECT_EQ(got, want) << x << "," << y << "," << z;
      }
  dev.free(mem);
}

// Two cards in one process, of different generations: one VA space, so a peer mapping puts the
// other card's buffer at the same address, and one SDMA copy moves data between the two
// cards' VRAM. Unmapped, the same copy is a page fault.
TEST(AmPeers, SdmaCopiesBetweenTwoCards) {
  am::Device a(sim::open_emulated_gpu("gfx1100", 50));
  am::Device b(sim::open_emulated_gpu("gfx1201", 51));
  am::Allocation src = a.alloc_vram(1 << 16), dst = b.alloc_vram(1 << 16);
  ASSERT_NE(src.va, dst.va);
  for (uint32_t i = 0; i < (1 << 14); ++i) reinterpret_cast<uint32_t*>(src.cpu)[i] = 0xabc00000u + i;
  std::memset(dst.cpu, 0, 1 << 16);
  a.map_peer(dst);
  am::SdmaBuilder copy;
  copy.copy_linear(dst.va, src.va, 1 << 16);
  a.wait(am::Engine::Sdma, a.submit_sdma(copy));
  EXPECT_EQ(std::memcmp(dst.cpu, src.cpu, 1 << 16), 0);
  a.unmap_peer(dst);
  try {
    a.wait(am::Engine::Sdma, a.submit_sdma(copy));
    ADD_FAILURE() << "a copy to an unmapped peer buffer completed";
  } catch (const am::DeviceError& e) {
    EXPECT_NE(std::string(e.what()).find("page fault (write)"), std::string::npos) << e.what();
  }
  a.free(src);
  b.free(dst);
}

// Navi32 (GC 11.0.3; the model gives it MMHUB 3.0.2): both hubs' registers sit elsewhere than on
// Navi31, and the emulated card answers only at its own. The driver takes the tables by exact IP
// version, so it boots, runs both queues, waits on interrupts (the IH writes through MMHUB) and
// hears of a VM fault (GFXHUB's fault registers).
TEST(AmDeviceNavi32, BootsAndRunsThroughItsOwnVmRegisters) {
  auto gpu = sim::open_emulated_gpu("gfx1101", 80);
  am::Device dev(gpu);
  EXPECT_EQ(dev.info().gfx, "gfx1101");
  const sim::CardModel& m = gpu->model();
  EXPECT_NE(gpu->reg_read32(m.gc_reg(am::hw::kGc11_0_3.GCVM_CONTEXT0_CNTL)) &
                am::hw::VM_CONTEXT_CNTL_ENABLE,
            0u);
  EXPECT_NE(gpu->reg_read32(m.mmhub_reg(am::hw::kMmhub3_0_2.CONTEXT0_CNTL)) &
                am::hw::VM_CONTEXT_CNTL_ENABLE,
            0u);
  am::Allocation mem = dev.alloc_vram(8192);
  std::memset(mem.cpu, 0, 8192);
  am::Pm4Builder p;
  p.write_data_mem(mem.va, {0x1101});
  dev.wait(am::Engine::Compute, dev.submit_compute(p));
  am::SdmaBuilder s(dev.sdma_major());
  s.const_fill(mem.va + 4096, 0x32323232, 4096);
  dev.wait(am::Engine::Sdma, dev.submit_sdma(s));
  const auto* words = reinterpret_cast<const uint32_t*>(mem.cpu);
  EXPECT_EQ(words[0], 0x1101u);
  EXPECT_EQ(words[1024], 0x32323232u);
  EXPECT_EQ(words[2047], 0x32323232u);
  am::Pm4Builder wild;
  wild.write_data_mem(mem.va + (uint64_t(1) << 36), {1}); // nothing is mapped there
  EXPECT_THROW(dev.wait(am::Engine::Compute, dev.submit_compute(wild)), am::DeviceError);
  dev.wait(am::Engine::Compute, dev.submit_compute(p)); // and the queue goes on
  dev.free(mem);
}

// An IP version amcl has no register table for is refused by name before any register is
// written, never driven with the nearest table: the card's discovery table is rewritten to
// list an APU's GC 11.0.1 or MMHUB 3.0.1.
TEST(AmDeviceIpVersions, AVersionWithoutATableIsRefusedByName) {
  struct Case {
    uint16_t hwid;
    uint8_t revision;
    const char* expected;
  };
  unsigned index = 81;
  for (const Case& c : {Case{am::hw::discovery::GC_HWID, 1, "GC IP version 11.0.1 is not known"},
                        Case{am::hw::discovery::MMHUB_HWID, 1, "(MMHUB 3.0.1)"}}) {
    auto gpu = sim::open_emulated_gpu("gfx1100", index++);
    std::vector<sim::IpBlockModel> blocks = gpu->model().blocks;
    for (sim::IpBlockModel& b : blocks)
      if (b.hw_id == c.hwid) b.revision = c.revision;
    const std::vector<uint8_t> bin = sim::build_ip_discovery(blocks);
    std::memcpy(gpu->vram() + gpu->vram_size() - am::hw::discovery::kOffsetFromVramTop, bin.data(),
                bin.size());
    try {
      am::Device dev(gpu);
      ADD_FAILURE() << "booted with " << c.expected;
    } catch (const am::DeviceError& e) {
      EXPECT_NE(std::string(e.what()).find(c.expected), std::string::npos) << e.what();
    }
  }
}
