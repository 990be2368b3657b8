// GFX: the MEC started at its firmware's entry, the compute queue programmed from its MQD and
// taken off by a dequeue, a bad packet and a faulting wave reported and the queue reset.
#include "device_fixture.h"

#include "am/hw/mqd.h"
#include "am/hw/sh_regs.h"
#include "am/hw/sq.h"

using namespace am_test;

TEST_P(AmDevice, ComputeQueueWritesMemory) {
  am::Device dev(card());
  am::Allocation mem = dev.alloc_vram(4096);
  am::Pm4Builder p;
  p.write_data_mem(mem.va + 16, {7, 8, 9});
  dev.wait(am::Engine::Compute, dev.submit_compute(p));
  EXPECT_EQ(reinterpret_cast<uint32_t*>(mem.cpu)[5], 8u);
  dev.free(mem);
}

// The MEC reports a packet it cannot execute (CP_BAD_OPCODE, enabled by
// CP_ME1_PIPE0_INT_CNTL.OPCODE_ERROR_INT_ENABLE), so the driver knows at once rather than after
// the hang timeout (60 s).
TEST_P(AmDevice, BadPacketStopsTheQueueWhichIsResetForTheNextSubmission) {
  auto gpu = card();
  am::Device dev(gpu);
  am::Pm4Builder bad;
  bad.raw(am::hw::pm4::packet3_compute(0xEE, 1)); // no such opcode
  bad.raw(0);
  expect_stop_reported_at_once(
      dev, am::Engine::Compute, [&] { return dev.submit_compute(bad); }, "compute queue stopped");
  // The reset dequeued the queue (CP_HQD_DEQUEUE_REQUEST) rather than clearing CP_HQD_ACTIVE.
  EXPECT_EQ(gpu->hqd_cleared_while_active(), 0u);
  expect_compute_writes(dev, 42);
}

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
  expect_compute_writes(dev, 0x600d); // the queue runs the next submission
  dev.free(code);
}

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
