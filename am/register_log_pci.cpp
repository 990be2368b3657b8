#include "register_log_pci.h"

#include "debug_log.h"

#include <cstdio>

namespace am {

void RegisterLogPci::set_names(RegisterNames names) {
  std::lock_guard lock(names_mutex_);
  names_ = std::move(names);
}

std::string RegisterLogPci::name_of(uint32_t index) {
  std::lock_guard lock(names_mutex_);
  return names_.label(index);
}

void RegisterLogPci::enable_bus_master() {
  AM_LOG(kDebugRegisters, card(), "config: bus master on");
  card().enable_bus_master();
}

void RegisterLogPci::config_write32(uint32_t offset, uint32_t value) {
  AM_LOG(kDebugRegisters, card(), "config write 0x%02x = 0x%08x", offset, value);
  card().config_write32(offset, value);
}

uint32_t RegisterLogPci::reg_read32(uint32_t index) {
  const uint32_t value = card().reg_read32(index);
  AM_LOG(kDebugRegisters, card(), "read %s = 0x%08x", name_of(index).c_str(), value);
  return value;
}

void RegisterLogPci::reg_write32(uint32_t index, uint32_t value) {
  AM_LOG(kDebugRegisters, card(), "write %s = 0x%08x", name_of(index).c_str(), value);
  card().reg_write32(index, value);
}

std::shared_ptr<Pci> with_register_log(std::shared_ptr<Pci> card) {
  if (!debug_on(kDebugRegisters)) return card;
  return std::make_shared<RegisterLogPci>(std::move(card));
}

} // namespace am
