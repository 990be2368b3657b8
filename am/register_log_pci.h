// AM_DEBUG=4: an am::Pci in front of the card's that prints every register read and write (by
// name where amcl has a table for the register) and every config-space write, then passes it
// on. Device puts it in front when the level is 4 at boot, so real and emulated cards log alike.
#pragma once
#include "forwarding_pci.h"
#include "register_names.h"

#include <memory>
#include <mutex>

namespace am {

class RegisterLogPci : public ForwardingPci {
public:
  using ForwardingPci::ForwardingPci;
  // Once discovery has chosen the tables (before that, registers print by index only).
  void set_names(RegisterNames names);

  void enable_bus_master() override;
  void config_write32(uint32_t offset, uint32_t value) override;
  uint32_t reg_read32(uint32_t index) override;
  void reg_write32(uint32_t index, uint32_t value) override;
  // Doorbells pass on unprinted: QueueRing prints them at level 3.

private:
  std::string name_of(uint32_t index);

  std::mutex names_mutex_;
  RegisterNames names_;
};

// `card` itself below AM_DEBUG=4, else a RegisterLogPci in front of it.
std::shared_ptr<Pci> with_register_log(std::shared_ptr<Pci> card);

} // namespace am
