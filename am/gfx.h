// GFX (gfx_v11_0 / gfx_v12_0 as a compute-only driver uses them, MES bypassed): VMID 0's
// shader memory apertures, the MEC started after the RLC autoload, its end-of-pipe and
// bad-opcode interrupts, and one compute queue (ME 1 pipe 0 queue 0) programmed straight from
// its MQD; when a wave faults, its state read back through the SQ. tinygrad's AM_GFX does the
// same.
#pragma once
#include "hw/gc_regs.h"
#include "hw/ih_v6.h"
#include "hw/sq.h"
#include "ih.h"
#include "ip_discovery.h"
#include "memory.h"
#include "nbio.h"
#include "pci.h"
#include "queue_ring.h"
#include "register_bases.h"
#include "signal_page.h"

#include <atomic>
#include <cstdint>
#include <mutex>
#include <optional>
#include <span>
#include <string>

namespace am {

class MemoryManager;

class Gfx {
public:
  Gfx(Pci& pci, Nbio& nbio) : pci_(pci), nbio_(nbio) {}

  // GC's and SQ's register tables by the exact GC version IP discovery lists (DeviceError
  // naming it when amcl has none), and the LLVM target it is.
  void init_sw(const IpDiscovery& ip);
  const GcRegisters& gc() const { return gc_; }
  const std::string& target() const { return target_; }
  // gfx_v11_0_wait_for_rlc_autoload_complete: until the RLC autoload is over and the CP idle
  // (DeviceError after a bound). GFXHUB is programmed after it, before init_hw.
  void wait_for_rlc_autoload();
  // After the RLC autoload (gfx_v11_0_hw_init for RS64 firmware): shader memory, the MEC
  // started at its firmware's entry `mec_entry`, its interrupts, then the compute queue.
  void init_hw(MemoryManager& memory, SignalPage& signals, uint64_t mec_entry);
  // Takes the compute queue off the hardware (a queue that does not stop is the next boot's
  // to deal with).
  void fini_hw();

  // Copies `words` to the compute ring and rings its doorbell; false while the ring lacks room.
  bool submit(std::span<const uint32_t> words) { return queue_.submit(words); }
  // Without the doorbell: more follow at once (QueueRing::submit_deferred), then ring().
  bool submit_deferred(std::span<const uint32_t> words) { return queue_.submit_deferred(words); }
  void ring() { queue_.ring(); }
  // A queue reset: stop_queue takes the queue off the hardware (DeviceError when it stays
  // active), restart_queue programs it again over an empty ring (starting the MEC again first
  // when the stream stopped it).
  void stop_queue();
  void restart_queue();
  // The MEC reported a packet it cannot execute since the last restart.
  bool stopped() const { return stopped_; }

  // IH handlers: CP_BAD_OPCODE stops the queue; an SQ error word names a faulting wave.
  std::optional<DeviceFault> on_bad_opcode(const hw::ih::IvEntry& iv);
  std::optional<DeviceFault> on_sq_interrupt(const hw::ih::IvEntry& iv);

private:
  uint32_t reg(hw::Reg r) const { return gc_(r); }
  void init_shader_memory();
  void start_mec(uint64_t mec_entry);
  bool mec_pipe0_runs(); // CP_MEC_RS64_CNTL: not halted, pipe 0 active and out of reset
  void enable_interrupts();
  void program_hqd();
  // Takes MEC 1 pipe 0 queue 0 off the hardware if it is active; false if it stayed active.
  // Leaves the queue selected in GRBM_GFX_CNTL.
  bool dequeue();
  void dequeue_or_throw(); // DeviceError if the queue stayed active
  // A shader exception the SQ reported: the halted wave's state (GRBM_GFX_INDEX selects its
  // shader engine, array and SIMD; SQ_IND_INDEX/SQ_IND_DATA read its registers), then the code
  // at its PC. Empty when no halted wave answers to the word.
  std::optional<WaveFault> read_wave_fault(const hw::sq::InterruptWord& word);
  uint32_t read_wave_register(uint32_t wave_id, uint32_t index);

  Pci& pci_;
  Nbio& nbio_;
  GcRegisters gc_;
  const hw::sq::SqRegs* sq_regs_ = nullptr;
  std::string target_;
  MemoryManager* memory_ = nullptr;
  QueueRing queue_;
  Allocation mqd_, eop_;
  uint64_t mec_entry_ = 0; // the MEC firmware's entry, to start it again after a queue reset
  std::atomic<bool> stopped_ = false;
  std::mutex sq_mutex_; // the GRBM_GFX_INDEX / SQ_IND_INDEX selection while a wave is read
};

} // namespace am
