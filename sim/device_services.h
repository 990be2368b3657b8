// What the emulated engines need from the device around them.
#pragma once
#include "gmc.h"

#include <cstdint>

namespace sim {

class DeviceServices {
public:
  virtual ~DeviceServices() = default;
  virtual Gmc& gmc() = 0;
  virtual uint32_t reg_read(uint32_t index) = 0;
  virtual void reg_write(uint32_t index, uint32_t value) = 0;
  // Raises an interrupt towards the host (wakes Pci::wait_interrupt).
  virtual void raise_interrupt() = 0;
  // The GPU's 64-bit timestamp counter (100 MHz reference clock).
  virtual uint64_t gpu_clock() = 0;
};

} // namespace sim
