// IH (ih_v6_0 on gfx11 parts, ih_v7_0 on gfx12): the interrupt handler ring the card writes
// IV entries into, and the driver's servicing of it. As amdgpu_irq does, each IP block adds
// handlers for the sources it owns (amdgpu_irq_add_id); servicing passes every entry to its
// source's handler and records the faults they report until a waiter takes them.
#pragma once
#include "device_error.h"
#include "hw/ih_v6.h"
#include "hw/osssys_regs.h"
#include "ih_ring.h"
#include "ip_discovery.h"
#include "memory.h"
#include "pci.h"
#include "signal_page.h"

#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace am {

class MemoryManager;

// A device fault an interrupt reported: what the waiter's DeviceError says, and the wave it
// names for a shader exception.
struct DeviceFault {
  std::string message;
  std::optional<WaveFault> wave;
};

class Ih {
public:
  // The fault an entry reports, or nothing (an end-of-pipe or trap only wakes the waiters).
  using Handler = std::function<std::optional<DeviceFault>(const hw::ih::IvEntry&)>;
  static constexpr int kAnyClient = -1;

  explicit Ih(Pci& pci) : pci_(pci) {}

  // The IH registers of IP discovery's OSSSYS version; DeviceError when amcl has none.
  void init_sw(const IpDiscovery& ip);
  // ih_v6_0 / ih_v7_0 ring set-up: the ring in VRAM, its write pointer written back to the
  // signal page.
  void init_hw(MemoryManager& memory, SignalPage& signals);
  void fini_hw();

  // Entries from `client` (or any client) with `source` go to `handler`.
  void add_source(int client, uint8_t source, Handler handler);
  // Reads the ring, passes each entry to its handler and records the faults they report.
  void service();
  // The faults recorded since the last take, oldest first.
  std::vector<DeviceFault> take_faults();
  // Services the ring and forgets every fault: they belong to work a queue reset threw away.
  void discard_faults();

private:
  struct Source {
    int client;
    uint8_t source;
    Handler handler;
  };
  Pci& pci_;
  uint32_t oss_base_ = 0; // OSSSYS segment 0 base
  const hw::IhRegs* regs_ = nullptr;
  Allocation ring_mem_;
  IhRing ring_;
  std::vector<Source> sources_;
  // One servicer at a time, from the drain to the last handler: a waiter whose work is done
  // must not see the ring empty while another thread still handles the fault that work raised
  // (it would report success, and the fault would go to the next work).
  std::mutex service_mutex_;
  std::mutex fault_mutex_;
  std::vector<DeviceFault> faults_;
};

} // namespace am
