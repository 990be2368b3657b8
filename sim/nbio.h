// sim::Nbio — the parts of the bus interface (NBIO/NBIF) the model has, as registers whose
// effects the Gpu asks about:
// - the doorbell aperture switch and the S2A routing entries: a doorbell reaches an engine only
//   while the aperture is open and an entry routes its index to the engine's port;
// - the PCIe index/data pair through which registers past BAR5 are reached;
// - the HDP flush: the CPU's writes to VRAM through BAR0 pass the host data path's write
//   buffer, and an engine that reads them (a ring after its doorbell, a page table after a TLB
//   invalidation, a PSP command) may see stale data unless the driver flushed the HDP in
//   between. The model cannot see CPU stores into BAR0, so it checks the protocol instead:
//   each such engine notice must follow an HDP flush made after the engine's previous notice.
#pragma once
#include "card_model.h"
#include "register_file.h"

#include <atomic>
#include <cstdint>

namespace sim {

class Nbio {
public:
  Nbio(RegisterFile& regs, const CardModel& model) : regs_(regs), model_(model) {}

  enum class Port { None, Cp, Sdma0, Other };
  // Where the S2A entries send a doorbell at dword `index`: an enabled entry with a range that
  // covers it, else the CP's entry (entry 0, whole aperture) if enabled.
  Port route_doorbell(uint32_t index) const;
  bool aperture_open() const;

  uint32_t pcie_index2() const { return reg(model_.nbio->PCIE_INDEX2); }
  uint32_t pcie_data2() const { return reg(model_.nbio->PCIE_DATA2); }
  // The register the PCIe index names (a byte address), as a dword index.
  uint32_t indirect_target() const { return regs_.read(pcie_index2()) / 4; }

  // Whether a BAR5 dword is the remapped HDP flush register (REMAP_HDP_MEM_FLUSH_CNTL).
  bool is_hdp_flush(uint32_t index) const;
  void hdp_flush() { hdp_flushes_.fetch_add(1, std::memory_order_acq_rel); }
  uint64_t hdp_flushes() const { return hdp_flushes_.load(std::memory_order_acquire); }
  // For an engine notice: true if the CPU flushed the HDP since the previous notice that
  // passed through `mark` (each engine keeps its own mark); moves the mark.
  bool flushed_since(std::atomic<uint64_t>& mark) const;

  bool known_register(uint32_t index) const;
  // Every register write passes here after it is stored: the S2A entries are mirrored so that a
  // doorbell's routing is decided without reading registers (NBIO 4.3.0 keeps them in the
  // register file's locked overflow map, past BAR5). reset() follows a mode1 reset.
  void observe_write(uint32_t index, uint32_t value) {
    const uint32_t first = reg(model_.nbio->S2A_DOORBELL_ENTRY_0_CTRL);
    if (index >= first && index < first + kS2aEntries)
      entries_[index - first].store(value, std::memory_order_release);
  }
  void reset() {
    for (auto& e : entries_) e.store(0, std::memory_order_release);
  }

private:
  static constexpr unsigned kS2aEntries = 16;
  uint32_t reg(am::hw::Reg r) const { return model_.nbio_reg(r); }
  uint32_t entry(unsigned n) const { return entries_[n].load(std::memory_order_acquire); }

  RegisterFile& regs_;
  const CardModel& model_;
  std::atomic<uint64_t> hdp_flushes_{0};
  std::atomic<uint32_t> entries_[kS2aEntries] = {};
};

} // namespace sim
