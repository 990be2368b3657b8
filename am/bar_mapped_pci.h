// What the real PCI backends (sysfs, vfio-pci) share once a card's BARs are mapped into the
// process: BAR0 the VRAM aperture, BAR2 the doorbells, BAR5 the registers, reached by single
// volatile loads and stores (MMIO must be accessed whole), bounds-checked against the BAR,
// and waits that poll when no interrupt is delivered. Each holds its card's lock (card_lock.h)
// from before the first mapping to its end.
#pragma once
#include "card_lock.h"
#include "pci.h"

#include <chrono>
#include <cstdint>
#include <string>
#include <utility>

namespace am {

class BarMappedPci : public Pci {
public:
  BarMappedPci(const BarMappedPci&) = delete; // owns the mappings
  BarMappedPci& operator=(const BarMappedPci&) = delete;

  uint32_t reg_read32(uint32_t index) final;
  void reg_write32(uint32_t index, uint32_t value) final;
  uint64_t reg_bytes() const final { return bar5_.size; }
  void doorbell_write64(uint32_t index, uint64_t value) final;
  uint8_t* vram() final { return bar0_.base; }
  uint64_t bar0_size() const final { return bar0_.size; }
  std::string address() const final { return address_; }
  bool emulated() const final { return false; }

protected:
  // Takes the card's lock first: throws CardBusy when another process drives the card.
  explicit BarMappedPci(std::string address) : address_(std::move(address)), lock_(address_) {}
  // No interrupt delivery: sleeps a little (at most `timeout`) and says none came, so the
  // caller polls.
  static bool poll_interrupt(std::chrono::microseconds timeout);

  struct Bar {
    uint8_t* base = nullptr;
    uint64_t size = 0;
  };
  std::string address_;
  CardLock lock_;
  Bar bar0_, bar2_, bar5_;
};

} // namespace am
