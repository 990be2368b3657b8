// What the emulated engines need from the device around them.
#pragma once
#include "am/hw/ih_v6.h"
#include "am/hw/sq.h"
#include "gmc.h"
#include "shader/isa.h"

#include <cstdint>
#include <string>

namespace sim {

class DeviceServices {
public:
  virtual ~DeviceServices() = default;
  virtual Gmc& gmc() = 0;
  virtual uint32_t reg_read(uint32_t index) = 0;
  virtual void reg_write(uint32_t index, uint32_t value) = 0;
  // Writes an IV entry into the IH ring and raises the host interrupt.
  virtual void post_interrupt(const am::hw::ih::IvEntry& entry) = 0;
  // A translation failed: latch GCVM_L2_PROTECTION_FAULT_* and post the UTCL2 fault entry.
  virtual void report_vm_fault(uint64_t address, bool write, const std::string& what) = 0;
  // A wave stopped on an exception the shader array raised (an instruction it cannot execute):
  // the SQ keeps its state readable (sq.h) and posts the SQ error interrupt. `wave` false: the
  // fault belongs to no wave (the dispatch could not start), only the interrupt is posted.
  virtual void report_wave_exception(bool wave, const am::hw::sq::HwId1& id, uint64_t pc) = 0;
  // SH_MEM_BASES as the driver programmed it for `vmid` (the shader apertures).
  virtual uint32_t sh_mem_bases(unsigned vmid) = 0;
  // SH_MEM_CONFIG as the driver programmed it for `vmid` (addressing and alignment modes).
  virtual uint32_t sh_mem_config(unsigned vmid) = 0;
  // The GPU's 64-bit timestamp counter (100 MHz reference clock).
  virtual uint64_t gpu_clock() = 0;
  // The instruction set of the card's shader array.
  virtual shader::Gfx shader_isa() const = 0;
  // The shader engines a dispatch's work-groups are spread over (each has its own scratch slots).
  virtual unsigned shader_engines() const = 0;
  // MEC pipe 0 fetches packets: CP_MEC_RS64_CNTL has it out of halt and reset, and active. A
  // stream may stop its own pipe (a kernel queue reaches that register), mid-ring.
  virtual bool mec_pipe0_runs() const = 0;
  // The SDMA engine's major version (6 on gfx11 parts, 7 on gfx12 parts).
  virtual unsigned sdma_major() const = 0;
};

} // namespace sim
