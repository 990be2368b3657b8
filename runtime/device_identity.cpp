#include "device_identity.h"

#include <cstdio>
#include <cstring>

namespace amcl::rt {
namespace {

// 64-bit FNV-1a: small, stable across builds and machines (std::hash is neither promised).
uint64_t fnv1a(const std::string& text, uint64_t seed) {
  uint64_t h = 0xcbf29ce484222325ull ^ seed;
  for (unsigned char c : text) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  return h;
}

// A name-based UUID in the RFC 9562 layout: version 8 (custom), variant 10.
Uuid uuid_from(const std::string& name) {
  Uuid u{};
  const uint64_t hi = fnv1a(name, 0), lo = fnv1a(name, 0x9e3779b97f4a7c15ull);
  for (int i = 0; i < 8; ++i) {
    u[i] = cl_uchar(hi >> (56 - 8 * i));
    u[8 + i] = cl_uchar(lo >> (56 - 8 * i));
  }
  u[6] = cl_uchar((u[6] & 0x0f) | 0x80);
  u[8] = cl_uchar((u[8] & 0x3f) | 0x80);
  return u;
}

} // namespace

Uuid device_uuid(const am::DeviceInfo& info) {
  char ids[32];
  std::snprintf(ids, sizeof ids, "%04x:%04x:%02x@", info.vendor_id, info.device_id, info.revision);
  return uuid_from(std::string("amcl device ") + ids + info.pci_address);
}

Uuid driver_uuid() {
  return uuid_from("amcl driver 0.1.0");
}

std::optional<cl_device_pci_bus_info_khr> pci_bus_info(const std::string& address) {
  unsigned domain, bus, device, function, index;
  char end;
  if (std::sscanf(address.c_str(), "%x:%x:%x.%x%c", &domain, &bus, &device, &function, &end) == 4 &&
      bus < 256 && device < 32 && function < 8)
    return cl_device_pci_bus_info_khr{domain, bus, device, function};
  if (std::sscanf(address.c_str(), "sim:%u%c", &index, &end) == 1 && index < 256)
    return cl_device_pci_bus_info_khr{0xffff, index, 0, 0};
  return std::nullopt;
}

} // namespace amcl::rt
