#include "gfx.h"

#include "debug_log.h"
#include "device_error.h"
#include "doorbells.h"
#include "hw/discovery.h"
#include "hw/gc_generations.h"
#include "hw/mqd.h"
#include "memory_manager.h"
#include "reg_wait.h"

#include <bit>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>

namespace am {
namespace {

using namespace hw;

constexpr uint64_t kPage = 4096;
// How long the RLC autoload may take after the PSP accepted AUTOLOAD_RLC. amdgpu polls for
// adev->usec_timeout (100 ms); sanitizer builds and busy hosts get more.
constexpr auto kAutoloadTimeout = std::chrono::seconds(2);

// The driver's own words for a wave fault; the runtime names the instruction on top of them.
std::string describe(const WaveFault& f) {
  char buf[96];
  std::snprintf(buf, sizeof buf,
                "shader exception at pc 0x%llx: ", static_cast<unsigned long long>(f.pc));
  std::string s = buf;
  if (f.kind == WaveFault::Kind::IllegalInstruction) {
    s += "illegal instruction";
  } else {
    std::snprintf(buf, sizeof buf, "a wave stopped on an exception (%s 0x%08x)", f.exception_name,
                  f.exception);
    s += buf;
  }
  if (!f.words) return s + " (the pc is outside the memory amcl allocated, no code to show)";
  s += " (";
  for (unsigned i = 0; i < f.words; ++i) {
    std::snprintf(buf, sizeof buf, "%s0x%08x", i ? " " : "", f.dwords[i]);
    s += buf;
  }
  return s + ")";
}

} // namespace

void Gfx::init_sw(const IpDiscovery& ip) {
  const IpBlock* gc = ip.find(discovery::GC_HWID);
  if (!gc || gc->bases.size() < 2)
    throw DeviceError(pci_.address() + ": IP discovery lists no GC register bases");
  target_ = gfx_target_of(*gc);
  gc_.table = gc_regs_for(gc->major, gc->minor, gc->revision);
  if (target_.empty() || !gc_.table)
    throw DeviceError(
        pci_.address() + ": GC IP version " + version_of(*gc) +
        " is not known to amcl (it has register tables for GC 11.0.0, 11.0.2, 11.0.3, "
        "12.0.0 and 12.0.1)");
  gc_.bases = RegisterBases::of(*gc);
  gc_.major = gc->major;
  sq_regs_ = sq::sq_regs_for_gc_major(gc->major);
  AM_LOG(kDebugBlocks, pci_, "GFX: GC %s (%s), register bases %s", version_of(*gc).c_str(),
         target_.c_str(), bases_of(*gc).c_str());
}

void Gfx::init_hw(MemoryManager& memory, SignalPage& signals, uint64_t mec_entry) {
  memory_ = &memory;
  mec_entry_ = mec_entry;
  init_shader_memory();
  start_mec(mec_entry);
  enable_interrupts();
  const Allocation ring = memory.alloc_vram(kQueueRingBytes);
  mqd_ = memory.alloc_vram(kPage);
  eop_ = memory.alloc_vram(kPage);
  queue_.init(pci_, nbio_, signals, ring,
              {kMecDoorbell, SignalPage::kComputeRptr, SignalPage::kComputeWptrPoll, 1});
  program_hqd();
  AM_LOG(kDebugBlocks, pci_,
         "GFX: MEC started at 0x%llx; compute queue ring at VA 0x%llx (%llu KiB), MQD at 0x%llx, "
         "EOP at 0x%llx, doorbell %u",
         static_cast<unsigned long long>(mec_entry), static_cast<unsigned long long>(ring.va),
         static_cast<unsigned long long>(ring.size >> 10), static_cast<unsigned long long>(mqd_.va),
         static_cast<unsigned long long>(eop_.va), kMecDoorbell);
}

void Gfx::fini_hw() {
  (void)dequeue(); // a queue that does not stop is the next boot's to deal with
  pci_.reg_write32(reg(gc_->GRBM_GFX_CNTL), 0);
}

// The shader memory set-up of VMID 0, where amcl's queues run: flat addresses reach LDS and
// private memory through the apertures (without them generic pointers to either would fault),
// and SH_MEM_CONFIG selects 64-bit addressing and unaligned access, which LLVM's code assumes
// (out of reset a misaligned wide load would read the wrong bytes).
void Gfx::init_shader_memory() {
  const uint32_t grbm = reg(gc_->GRBM_CNTL); // constants_init's first write
  pci_.reg_write32(grbm, (pci_.reg_read32(grbm) & ~GRBM_CNTL_READ_TIMEOUT_MASK) | kGrbmReadTimeout);
  pci_.reg_write32(reg(gc_->GRBM_GFX_CNTL), grbm_gfx_cntl(0, 0, 0, 0));
  pci_.reg_write32(reg(gc_->SH_MEM_CONFIG), kDefaultShMemConfig);
  pci_.reg_write32(reg(gc_->SH_MEM_BASES), sh_mem_bases(kPrivateAperture, kSharedAperture));
}

void Gfx::wait_for_rlc_autoload() {
  const uint32_t status = reg(gc_->RLC_RLCS_BOOTLOAD_STATUS), cp_stat = reg(gc_->CP_STAT);
  const auto deadline = std::chrono::steady_clock::now() + kAutoloadTimeout;
  for (;;) {
    const uint32_t s = pci_.reg_read32(status), c = pci_.reg_read32(cp_stat);
    if ((s & RLC_BOOTLOAD_COMPLETE) && c == 0) return;
    if (std::chrono::steady_clock::now() > deadline) {
      char buf[160];
      std::snprintf(buf, sizeof buf,
                    ": the RLC autoload did not complete (RLC_RLCS_BOOTLOAD_STATUS 0x%08x, "
                    "CP_STAT 0x%08x)",
                    s, c);
      throw DeviceError(pci_.address() + buf);
    }
    std::this_thread::sleep_for(std::chrono::microseconds(100));
  }
}

// gfx_v11_0_hw_init's MEC bring-up for PSP-loaded RS64 firmware (gfx_v12_0 does the same),
// once the autoload is over (wait_for_rlc_autoload): give each pipe its program counter start
// and pulse the pipe resets so the pipes take it (config_gfx_rs64), then release the pipes and
// the halt (cp_compute_enable). Without this the MEC stays halted after the autoload and no
// queue is ever fetched.
void Gfx::start_mec(uint64_t mec_entry) {
  for (uint32_t pipe = 0; pipe < kMecPipes; ++pipe) {
    pci_.reg_write32(reg(gc_->GRBM_GFX_CNTL), grbm_gfx_cntl(1, pipe, 0, 0));
    pci_.reg_write32(reg(gc_->CP_MEC_RS64_PRGRM_CNTR_START), rs64_prgrm_cntr_start(mec_entry));
    pci_.reg_write32(reg(gc_->CP_MEC_RS64_PRGRM_CNTR_START_HI),
                     rs64_prgrm_cntr_start_hi(mec_entry));
  }
  pci_.reg_write32(reg(gc_->GRBM_GFX_CNTL), 0);
  const uint32_t cntl = reg(gc_->CP_MEC_RS64_CNTL);
  const uint32_t was = pci_.reg_read32(cntl);
  pci_.reg_write32(cntl, was | CP_MEC_RS64_ALL_PIPES_RESET);
  pci_.reg_write32(cntl, was & ~CP_MEC_RS64_ALL_PIPES_RESET);
  pci_.reg_write32(cntl, (was & ~(CP_MEC_RS64_INVALIDATE_ICACHE | CP_MEC_RS64_ALL_PIPES_RESET |
                                  CP_MEC_RS64_HALT)) |
                             CP_MEC_RS64_ALL_PIPES_ACTIVE);
  std::this_thread::sleep_for(std::chrono::microseconds(50)); // amdgpu's udelay(50)
}

// The interrupt sources the waits sleep on: end-of-pipe and bad opcode of MEC 1 pipe 0
// (gfx_v11_0_set_compute_eop_interrupt_state: TIME_STAMP and GENERIC0; amdkfd adds
// OPCODE_ERROR). Without them a real card still writes every fence but raises no interrupt:
// waits would only notice at their polling interval, and a queue stopped on a bad packet would
// be found by the hang timeout instead of its report.
void Gfx::enable_interrupts() {
  const uint32_t cp = reg(gc_->CP_ME1_PIPE0_INT_CNTL);
  pci_.reg_write32(cp, pci_.reg_read32(cp) | CP_INT_TIME_STAMP_ENABLE | CP_INT_GENERIC0_ENABLE |
                           CP_INT_OPCODE_ERROR_ENABLE);
}

void Gfx::program_hqd() {
  // Fill the MQD the way the MEC firmware would load it, then program the HQD registers of
  // ME 1 pipe 0 queue 0 directly from it (no MES, no KIQ).
  auto* mqd = reinterpret_cast<uint32_t*>(mqd_.cpu);
  std::memset(mqd, 0, kPage);
  // gfx_v11_0_compute_mqd_init's values: each HQD field from its register's reset value, the
  // rest of the HQD image 0 as amdgpu's MAP_QUEUES loads it.
  using namespace mqd;
  const uint32_t ring_dwords = uint32_t(kQueueRingBytes / 4);
  mqd[header] = kHeader;
  for (uint32_t se : {compute_static_thread_mgmt_se0, compute_static_thread_mgmt_se1,
                      compute_static_thread_mgmt_se2, compute_static_thread_mgmt_se3})
    mqd[se] = kAllCus;
  mqd[compute_misc_reserved] = kComputeMiscReserved;
  mqd[cp_mqd_base_addr_lo] = uint32_t(mqd_.va);
  mqd[cp_mqd_base_addr_hi] = uint32_t(mqd_.va >> 32);
  mqd[cp_mqd_control] = kCpMqdControlDefault; // VMID 0
  mqd[cp_hqd_vmid] = 0;
  mqd[cp_hqd_persistent_state] = kCpHqdPersistentStateDefault; // PRELOAD_SIZE 0x55
  mqd[cp_hqd_ib_control] = kCpHqdIbControlDefault;             // MIN_IB_AVAIL_SIZE 3
  mqd[cp_hqd_pipe_priority] = kPipePriorityHigh;
  mqd[cp_hqd_queue_priority] = kQueuePriorityMaximum;
  mqd[cp_hqd_quantum] = kCpHqdQuantum;
  mqd[cp_hqd_hq_status0] = kCpHqdHqStatus0;
  mqd[cp_hqd_pq_base_lo] = uint32_t(queue_.memory().va >> 8);
  mqd[cp_hqd_pq_base_hi] = uint32_t(queue_.memory().va >> 40);
  mqd[cp_hqd_pq_control] = pq_control(uint32_t(std::countr_zero(ring_dwords)) - 1);
  const uint64_t rptr_va = queue_.rptr_va(), wptr_va = queue_.wptr_poll_va();
  mqd[cp_hqd_pq_rptr_report_addr_lo] = uint32_t(rptr_va);
  mqd[cp_hqd_pq_rptr_report_addr_hi] = uint32_t(rptr_va >> 32);
  mqd[cp_hqd_pq_wptr_poll_addr_lo] = uint32_t(wptr_va);
  mqd[cp_hqd_pq_wptr_poll_addr_hi] = uint32_t(wptr_va >> 32);
  mqd[cp_hqd_pq_doorbell_control] =
      (kMecDoorbell << CP_HQD_DOORBELL_OFFSET_SHIFT) | CP_HQD_DOORBELL_EN;
  mqd[cp_hqd_eop_base_addr_lo] = uint32_t(eop_.va >> 8);
  mqd[cp_hqd_eop_base_addr_hi] = uint32_t(eop_.va >> 40);
  mqd[cp_hqd_eop_control] = (kCpHqdEopControlDefault & ~EOP_CONTROL_EOP_SIZE_MASK) |
                            (uint32_t(std::countr_zero(uint32_t(kPage / 4))) - 1);

  // The MEC ignores doorbells outside its range (amdgpu sets it with the KIQ, from 0 to the
  // last user queue's doorbell).
  pci_.reg_write32(reg(gc_->CP_MEC_DOORBELL_RANGE_LOWER), 0);
  pci_.reg_write32(reg(gc_->CP_MEC_DOORBELL_RANGE_UPPER), kMecDoorbellRangeUpper);
  // A queue a previous session left running comes off first (kiq_init_register: "disable the
  // queue if it's active").
  dequeue_or_throw();
  // The write pointer comes by doorbell only: the CP must not poll the MQD's poll address.
  const uint32_t poll = reg(gc_->CP_PQ_WPTR_POLL_CNTL);
  pci_.reg_write32(poll, pci_.reg_read32(poll) & ~CP_PQ_WPTR_POLL_CNTL_EN);
  // HQD registers mirror MQD dwords 128.. in order: program every one we filled.
  for (uint32_t idx = kHqdFirst; idx <= cp_hqd_pq_wptr_hi; ++idx) {
    if (idx == cp_hqd_active) continue;
    pci_.reg_write32(reg(gc_->CP_MQD_BASE_ADDR) + (idx - kHqdFirst), mqd[idx]);
  }
  pci_.reg_write32(reg(gc_->CP_HQD_ACTIVE), 1);
  const uint32_t status = reg(gc_->CP_PQ_STATUS);
  pci_.reg_write32(status, pci_.reg_read32(status) | CP_PQ_STATUS_DOORBELL_ENABLE);
  pci_.reg_write32(reg(gc_->GRBM_GFX_CNTL), 0);
}

// The dequeue amdgpu's soft reset does for every compute queue (and tinygrad's AM at fini): a
// request to reset the queue's waves and the SPI's queue reset, then CP_HQD_ACTIVE polled to 0.
// amdgpu never clears CP_HQD_ACTIVE of a running queue directly.
bool Gfx::dequeue() {
  pci_.reg_write32(reg(gc_->GRBM_GFX_CNTL), grbm_gfx_cntl(1, 0, 0, 0));
  const uint32_t active = reg(gc_->CP_HQD_ACTIVE);
  if (!(pci_.reg_read32(active) & 1)) return true;
  pci_.reg_write32(reg(gc_->CP_HQD_DEQUEUE_REQUEST), kDequeueResetWaves);
  pci_.reg_write32(reg(gc_->SPI_COMPUTE_QUEUE_RESET), SPI_COMPUTE_QUEUE_RESET_RESET);
  const bool off = wait_reg(pci_, active, 1, 0, std::chrono::milliseconds(1000));
  pci_.reg_write32(reg(gc_->CP_HQD_DEQUEUE_REQUEST), 0);
  return off;
}

// The same, for the paths that cannot go on with the queue still on the hardware. Leaves the
// compute queue selected in GRBM_GFX_CNTL on success.
void Gfx::dequeue_or_throw() {
  if (dequeue()) return;
  pci_.reg_write32(reg(gc_->GRBM_GFX_CNTL), 0);
  throw DeviceError(pci_.address() + ": the compute queue stays active after a dequeue request");
}

void Gfx::stop_queue() {
  dequeue_or_throw();
  pci_.reg_write32(reg(gc_->GRBM_GFX_CNTL), 0);
}

// A kernel queue is privileged: its stream can reach CP_MEC_RS64_CNTL (in the UCONFIG window)
// and halt, reset or deactivate the pipe it runs on. Such a queue hangs, and only starting the
// MEC again brings it back; a dequeue and a new HQD alone leave every later submission hung.
bool Gfx::mec_pipe0_runs() {
  const uint32_t cntl = pci_.reg_read32(reg(gc_->CP_MEC_RS64_CNTL));
  return !(cntl & CP_MEC_RS64_HALT) && !(cntl & (1u << CP_MEC_RS64_PIPE_RESET_SHIFT)) &&
         (cntl & (1u << CP_MEC_RS64_PIPE_ACTIVE_SHIFT));
}

void Gfx::restart_queue() {
  if (!mec_pipe0_runs()) {
    AM_LOG(kDebugBlocks, pci_, "GFX: the MEC was stopped by the queue's stream; starting it again");
    start_mec(mec_entry_);
  }
  enable_interrupts(); // the stream may have cleared them too
  queue_.reset();
  program_hqd();
  stopped_ = false;
}

std::optional<DeviceFault> Gfx::on_bad_opcode(const ih::IvEntry&) {
  stopped_ = true;
  return DeviceFault{"compute queue stopped on a packet it cannot execute", std::nullopt};
}

// kfd_int_process_v11.c: only ERROR words are faults (AUTO and INST ones are the SQ's own
// events and a shader's s_sendmsg).
std::optional<DeviceFault> Gfx::on_sq_interrupt(const ih::IvEntry& iv) {
  const sq::InterruptWord word = sq::decode(iv.src_data[0], iv.src_data[1]);
  if (word.encoding != sq::ENCODING_ERROR) return std::nullopt;
  DeviceFault fault;
  fault.wave = read_wave_fault(word);
  fault.message = fault.wave
                      ? describe(*fault.wave)
                      : "shader exception: a wave executed an illegal or unsupported instruction";
  AM_LOG(kDebugBoot, pci_, "SQ error interrupt (type %u, wave %u simd %u wgp %u sa %u): %s%s",
         word.error_type, word.wave_id, word.simd_id, word.wgp_id, word.sh_id,
         fault.message.c_str(), fault.wave ? "" : " (no halted wave found)");
  return fault;
}

uint32_t Gfx::read_wave_register(uint32_t wave_id, uint32_t index) {
  pci_.reg_write32(reg(sq_regs_->SQ_IND_INDEX), sq::sq_ind_index(wave_id, index));
  return pci_.reg_read32(reg(sq_regs_->SQ_IND_DATA));
}

// gfx_v11_0_read_wave_data's reads, after select_se_sh. The word names the shader array, WGP,
// SIMD and wave but not the shader engine: each engine is asked in turn, and the wave is the
// one whose HW_ID1 matches the word and whose exception register is set.
std::optional<WaveFault> Gfx::read_wave_fault(const sq::InterruptWord& word) {
  if (!sq_regs_) return std::nullopt;
  const sq::SqRegs& s = *sq_regs_;
  std::optional<WaveFault> found;
  {
    std::lock_guard lock(sq_mutex_);
    for (uint32_t se = 0; se < sq::kMaxShaderEngines && !found; ++se) {
      pci_.reg_write32(
          reg(s.GRBM_GFX_INDEX),
          sq::grbm_gfx_index(se, word.sh_id, sq::wave_instance(word.wgp_id, word.simd_id)));
      const uint32_t hw_id1 = read_wave_register(word.wave_id, s.ix_hw_id1);
      const uint32_t exception = read_wave_register(word.wave_id, s.ix_exception);
      const sq::HwId1 id = sq::decode_hw_id1(hw_id1);
      if (!exception || id.se_id != se || id.sa_id != word.sh_id || id.wgp_id != word.wgp_id ||
          id.simd_id != word.simd_id || id.wave_id != word.wave_id)
        continue;
      WaveFault f;
      f.kind = (exception & s.illegal_inst) ? WaveFault::Kind::IllegalInstruction
                                            : WaveFault::Kind::Exception;
      f.exception = exception;
      f.exception_name = s.exception_name;
      f.hw_id1 = hw_id1;
      f.pc = read_wave_register(word.wave_id, s.ix_pc_lo) |
             uint64_t(read_wave_register(word.wave_id, s.ix_pc_hi) & sq::SQ_WAVE_PC_HI_MASK) << 32;
      found = f;
    }
    pci_.reg_write32(reg(s.GRBM_GFX_INDEX), sq::kGrbmGfxIndexBroadcast);
  }
  if (found) found->words = memory_->read_code(found->pc, found->dwords);
  return found;
}

} // namespace am
