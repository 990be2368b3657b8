// AM_TRACE=<file>: an am::Pci in front of the card's that records every register, doorbell and
// config-space access in the trace file (am/trace_format.h), and the hooks through which the
// driver adds its packet streams, interrupts, boot phases, IP versions and firmware. Device
// puts it outermost when AM_TRACE is set, so the trace holds the accesses as the driver made
// them; without AM_TRACE the card is used directly and every hook returns at once.
#pragma once
#include "forwarding_pci.h"
#include "ip_discovery.h"
#include "trace_writer.h"

#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <utility>

namespace am {

class TracePci : public ForwardingPci {
public:
  // Throws std::runtime_error when the file cannot be created.
  TracePci(std::shared_ptr<Pci> card, const std::string& path);
  ~TracePci() override;

  uint32_t config_read32(uint32_t offset) override;
  void enable_bus_master() override;
  void config_write32(uint32_t offset, uint32_t value) override;
  void after_config_restore() override;
  uint32_t reg_read32(uint32_t index) override;
  void reg_write32(uint32_t index, uint32_t value) override;
  void doorbell_write64(uint32_t index, uint64_t value) override;

  TraceWriter& writer() { return writer_; }

private:
  TracePci(std::shared_ptr<Pci> card, const std::string& path,
           std::pair<uint32_t, uint32_t> id_class);

  TraceWriter writer_;
};

// `card` itself when no trace is asked for, else a TracePci in front of it. A trace file that
// cannot be created is said on stderr and the card is used untraced.
std::shared_ptr<Pci> with_trace(std::shared_ptr<Pci> card);

// The hooks: each records into `pci`'s trace when `pci` is a TracePci, else does nothing.
// A packet stream put on the ring at `ring_va`, before `doorbell` gets `wptr`; `starts` are
// SDMA's packet starts within `words` (PM4's headers give them).
void trace_packets(Pci& pci, trace::TraceEngine engine, uint64_t ring_va, uint32_t doorbell,
                   uint64_t wptr, std::span<const uint32_t> words, std::span<const size_t> starts);
void trace_interrupt(Pci& pci, std::span<const uint32_t, 8> entry);
void trace_phase(Pci& pci, trace::TracePhase what, const std::string& name, uint64_t elapsed_ns,
                 const std::string& error = {});
void trace_ip_discovery(Pci& pci, const IpDiscovery& ip);
void trace_firmware(Pci& pci, const std::string& name, uint64_t bytes, uint32_t version);
// Writes the buffered records out, so a failure's trace is on disk before the error goes up.
void trace_flush(Pci& pci);

} // namespace am
