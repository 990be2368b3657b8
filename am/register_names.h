// The names of the registers amcl programs, by BAR5 dword index, from the tables it chose for
// the card (GC with SDMA 0 and GFXHUB, MMHUB, NBIO, IH, the PSP's and SMU's mailboxes): what
// AM_DEBUG=4 prints beside each register access.
#pragma once
#include "ip_discovery.h"
#include "register_bases.h"

#include <cstdint>
#include <string>
#include <unordered_map>

namespace am {

class RegisterNames {
public:
  void add(uint32_t index, std::string name);
  // The register's name, or nullptr where amcl has none.
  const char* find(uint32_t index) const;
  // "CP_HQD_ACTIVE (0x0a2b4)" where amcl has a name, else "0x0a2b4": how AM_DEBUG=4 and
  // tools/amcl-trace show a register.
  std::string label(uint32_t index) const;
  size_t size() const { return names_.size(); }

private:
  std::unordered_map<uint32_t, std::string> names_;
};

// Every register of the tables the card's IP versions select; a block without a table is
// left out (its init_sw refuses it by name).
RegisterNames register_names(const IpDiscovery& ip, const GcRegisters& gc);

} // namespace am
