// Real-card enumeration: every RDNA3/RDNA4 function on the PCI bus that amcl can open, through
// vfio-pci when bound to it in an IOMMU group, through sysfs (no IOMMU, warned about) when it
// has no driver and no group or VFIO=0 asks (VFIO=1 forces vfio-pci). A card that cannot be
// used (bound to amdgpu, not viable) is reported with what to do, and skipped; a card another
// process holds (card_lock.h) is returned as held, with its identity from sysfs, untouched.
// Which cards a process drives, emulated ones among them, is chosen above am/
// (runtime/device_backends).
#pragma once
#include "card_lock.h"
#include "pci.h"
#include "sysfs_pci.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace am {

// Another process holds the card: what sysfs says of it (no BAR mapped, no register read), who
// holds it and how to free it.
struct HeldCard {
  PciFunction function;
  std::optional<LockHolder> holder;
  std::string message; // CardBusy's: "0000:03:00.0 is in use by another process: pid ..."
};

// A card of the bus: opened (`pci`), or held by another process (`held`), never both.
struct RealCard {
  std::shared_ptr<Pci> pci;
  std::optional<HeldCard> held;
};

// Every RDNA3/RDNA4 card that could be opened or is held; each other one adds a message saying
// why not. `found_any`: whether the bus has any RDNA3/RDNA4 card at all, usable or not.
std::vector<RealCard> open_real_cards(std::vector<std::string>& messages, bool& found_any);
// The card at `address` ("0000:03:00.0"), or nothing (neither member set) with a message
// saying why.
RealCard open_real_card(const std::string& address, std::vector<std::string>& messages);
// Whether `s` is a PCI address in domain:bus:device.function form.
bool is_pci_address(const std::string& s);

} // namespace am
