// The emulated MEC (compute micro engine), pipe 0 queue 0: fetches PM4 type-3 packets from the
// ring its hardware queue descriptor registers describe and executes them.
#pragma once
#include "device_services.h"
#include "engine.h"
#include "shader/dispatch.h"
#include "shader/worker_pool.h"

#include <array>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <span>
#include <vector>

namespace sim {

struct HqdState {
  uint64_t ring_va = 0;
  uint32_t ring_dwords = 0;
  uint64_t rptr_report_va = 0;
  uint32_t doorbell_index = 0;
  bool doorbell_enabled = false;
};

class Mec : public Engine {
public:
  explicit Mec(DeviceServices& dev) : Engine("MEC pipe 0 queue 0", "amcl mec"), dev_(dev) {}
  // Called when the driver sets CP_HQD_ACTIVE: latches the queue registers.
  // Both wait for the engine thread to leave the ring, so the driver can reprogram it.
  void activate(const HqdState& hqd);
  void deactivate();
  bool active() const { return active_; }
  const HqdState& hqd() const { return hqd_; }
  uint64_t rptr() const { return rptr_.load(std::memory_order_acquire); } // read by register reads
  uint64_t dispatches() const { return dispatches_; }
  // The write pointer of the doorbell being (or last) processed: where a pipe that stopped
  // mid-ring goes on to once it runs again.
  uint64_t last_wptr() const { return last_wptr_.load(std::memory_order_acquire); }

  // Executes one packet (header + body); exposed for the packet tests.
  void execute(uint32_t header, std::span<const uint32_t> body);

protected:
  void process(uint64_t wptr) override;

private:
  void set_sh_reg(std::span<const uint32_t> body);
  void dispatch_direct(std::span<const uint32_t> body);
  void dispatch_indirect(std::span<const uint32_t> body);
  void dispatch(std::array<uint32_t, 3> grid, uint32_t initiator);
  void indirect_buffer(std::span<const uint32_t> body);
  void wait_reg_mem(std::span<const uint32_t> body);
  void event_write(std::span<const uint32_t> body);
  void copy_data(std::span<const uint32_t> body);
  void set_uconfig_reg(std::span<const uint32_t> body);
  void acquire_mem(std::span<const uint32_t> body);
  void release_mem(std::span<const uint32_t> body);
  void write_data(std::span<const uint32_t> body);
  void write_mem(uint64_t va, const void* data, size_t len);
  // Ring dwords [index, index + count) of a ring written up to `wptr`, fetched ahead in blocks.
  // The check is inline (a call per packet showed as 10 % of the MEC's instructions).
  const uint32_t* ring_dwords(uint64_t index, uint64_t count, uint64_t wptr) {
    if (index < fetched_from_ || index + count > fetched_to_) [[unlikely]]
      refill(index, count, wptr);
    return fetch_.data() + (index - fetched_from_);
  }
  [[gnu::noinline]] void refill(uint64_t index, uint64_t count, uint64_t wptr);
  // Only the engine thread moves rptr_ (others read it): a store, not a locked add per packet
  // (the MEC thread's most expensive instruction in an empty-kernel profile).
  void advance(uint64_t dwords) {
    rptr_.store(rptr_.load(std::memory_order_relaxed) + dwords, std::memory_order_release);
  }
  void record_stats(const char* path, const shader::DispatchResult& r,
                    std::chrono::nanoseconds took, std::chrono::nanoseconds cpu);
  static int64_t thread_cpu_ns();

  DeviceServices& dev_;
  std::atomic<uint64_t> last_wptr_ = 0;
  HqdState hqd_;
  std::atomic<bool> active_ = false;
  std::atomic<bool> abort_ = false; // raised by deactivate() to stop a running dispatch
  std::mutex ring_mutex_;           // held while packets are processed
  std::atomic<uint64_t> rptr_{0}; // in dwords, monotonically increasing
  bool in_ib_ = false; // executing an indirect buffer
  static constexpr uint64_t kFetchDwords = 1024; // the ring is fetched ahead in blocks this long
  std::vector<uint32_t> fetch_;
  uint64_t fetched_from_ = 0, fetched_to_ = 0; // the ring dwords fetch_ holds
  uint32_t sh_regs_[0x400] = {};
  std::atomic<uint64_t> dispatches_ = 0;
  shader::WorkerPool workers_; // the shader array's host threads, kept across dispatches
  shader::ProgramCache programs_; // the instruction cache: decoded kernels, until GLI_INV
};

} // namespace sim
