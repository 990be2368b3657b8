// Who a device is, for cl_khr_device_uuid and cl_khr_pci_bus_info.
#pragma once
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <CL/cl_ext.h>

#include "am/device.h"

#include <array>
#include <optional>
#include <string>

namespace amcl::rt {

using Uuid = std::array<cl_uchar, CL_UUID_SIZE_KHR>;

// The same card gets the same UUID in every process (it is derived from its PCI identity and
// location); two cards in one machine get different ones.
Uuid device_uuid(const am::DeviceInfo& info);
// Identifies this build of amcl (its version).
Uuid driver_uuid();

// The card's PCI location from its address: "DDDD:BB:DD.F" for a real card; an emulated card
// "sim:N" sits at domain 0xffff, bus N (no real machine numbers a domain that high here).
// Nothing for an address of neither form.
std::optional<cl_device_pci_bus_info_khr> pci_bus_info(const std::string& address);

} // namespace amcl::rt
