// SOC/NBIO (nbio_v4_3 on gfx11 parts, nbif_v6_3_1 on gfx12): the bus interface between the
// CPU and the card. It opens the doorbell aperture, routes the CP's and SDMA 0's doorbells
// (S2A entries), maps the HDP flush register into BAR5 and flushes HDP, and reaches registers
// past BAR5 through its PCIe index/data pair. tinygrad's AM_SOC does the same.
#pragma once
#include "hw/nbio_regs.h"
#include "ip_discovery.h"
#include "pci.h"
#include "register_bases.h"

#include <cstdint>

namespace am {

class Nbio {
public:
  explicit Nbio(Pci& pci) : pci_(pci) {}

  // The NBIO/NBIF table by IP discovery's major version; DeviceError when amcl has none.
  void init_sw(const IpDiscovery& ip);
  // nbio_v4_3 / nbif_v6_3_1: enable_doorbell_aperture, the S2A doorbell routes
  // (sdma_doorbell_range) and remap_hdp_registers.
  void init_hw();

  // Makes the CPU's earlier writes to VRAM through BAR0 visible to the engines: HDP's write
  // buffer drains (hdp_v6_0_flush_hdp: a write to the remapped flush register, read back).
  // Before every doorbell, TLB invalidation and PSP command.
  void flush_hdp();
  // A register anywhere in the register space: through BAR5 when it lies inside, else through
  // the PCIe index/data pair (amdgpu_device_indirect_wreg; boot only, one thread).
  void write_reg_any(uint32_t index, uint32_t value);

private:
  Pci& pci_;
  const hw::NbioRegs* regs_ = nullptr;
  RegisterBases bases_;
};

} // namespace am
