// An am::Pci that passes every call on to another: the base of a Pci that changes a few calls
// of a card and keeps the rest (RegisterLogPci prints the register accesses, TracePci records
// them).
#pragma once
#include "pci.h"

#include <memory>
#include <utility>

namespace am {

class ForwardingPci : public Pci {
public:
  explicit ForwardingPci(std::shared_ptr<Pci> card) : card_(std::move(card)) {}

  uint32_t config_read32(uint32_t offset) override { return card_->config_read32(offset); }
  void enable_bus_master() override { card_->enable_bus_master(); }
  void config_write32(uint32_t offset, uint32_t value) override {
    card_->config_write32(offset, value);
  }
  void after_config_restore() override { card_->after_config_restore(); }
  uint32_t reg_read32(uint32_t index) override { return card_->reg_read32(index); }
  void reg_write32(uint32_t index, uint32_t value) override { card_->reg_write32(index, value); }
  uint64_t reg_bytes() const override { return card_->reg_bytes(); }
  void doorbell_write64(uint32_t index, uint64_t value) override {
    card_->doorbell_write64(index, value);
  }
  uint8_t* vram() override { return card_->vram(); }
  uint64_t bar0_size() const override { return card_->bar0_size(); }
  std::vector<uint64_t> dma_map(void* host, uint64_t size) override {
    return card_->dma_map(host, size);
  }
  void dma_unmap(void* host, uint64_t size) override { card_->dma_unmap(host, size); }
  bool wait_interrupt(std::chrono::microseconds timeout) override {
    return card_->wait_interrupt(timeout);
  }
  std::string address() const override { return card_->address(); }
  bool emulated() const override { return card_->emulated(); }

  Pci& forwarded_to() { return *card_; }

protected:
  Pci& card() { return *card_; }

private:
  std::shared_ptr<Pci> card_;
};

// The first `Layer` in the chain of ForwardingPcis that starts at `pci`, or nullptr.
template <class Layer> Layer* find_layer(Pci& pci) {
  for (Pci* at = &pci;;) {
    if (auto* layer = dynamic_cast<Layer*>(at)) return layer;
    auto* forwarding = dynamic_cast<ForwardingPci*>(at);
    if (!forwarding) return nullptr;
    at = &forwarding->forwarded_to();
  }
}

} // namespace am
