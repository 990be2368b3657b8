// The emulated SDMA 6.0 engine 0, queue 0: executes SDMA packets from the ring described by
// the SDMA0_QUEUE0_RB_* registers against VRAM and IOMMU-mapped system memory.
#pragma once
#include "device_services.h"
#include "engine.h"
#include "shader/worker_pool.h"

#include <cstdint>
#include <mutex>
#include <span>

namespace sim {

class SdmaEngine : public Engine {
public:
  explicit SdmaEngine(DeviceServices& dev) : Engine("SDMA0 queue 0", "amcl sdma"), dev_(dev) {}
  // Called when the driver enables the ring (RB_CNTL.RB_ENABLE).
  // Both wait for the engine thread to leave the ring, so the driver can reprogram it.
  void enable(uint64_t ring_va, uint32_t ring_bytes, uint64_t rptr_writeback_va);
  void disable();
  bool enabled() const { return enabled_; }
  uint64_t rptr() const { return rptr_.load(std::memory_order_acquire); } // read by register reads

protected:
  void process(uint64_t wptr) override;

private:
  // Returns the packet's size in dwords after executing it.
  uint32_t execute(uint64_t at);
  uint32_t ring_dword(uint64_t byte_index);
  void ring_read(uint64_t byte_index, uint32_t* out, uint32_t dwords);
  // The dwords of a packet's fixed part, before a WRITE's data or a NOP's padding; 0 for an
  // opcode the engine does not know.
  static uint32_t fixed_dwords(uint32_t header);
  // Size of the packet at `at` without executing it (to skip a faulting one).
  uint32_t packet_dwords(uint64_t at);
  void poll_regmem(uint64_t at, uint32_t header);
  void copy_sub_window(const uint32_t* packet); // its 13 dwords

  DeviceServices& dev_;
  uint64_t ring_va_ = 0;
  uint32_t ring_bytes_ = 0;
  uint64_t rptr_wb_va_ = 0;
  std::atomic<uint64_t> rptr_{0}; // bytes, monotonically increasing
  std::atomic<bool> enabled_ = false;
  std::atomic<bool> abort_ = false; // raised by disable() to end a poll
  std::mutex ring_mutex_;
  // Host threads that share a long linear copy with the engine's own (the engine moves its
  // bytes as fast as the host can, not at a modelled rate).
  shader::WorkerPool copiers_;
};

} // namespace sim
