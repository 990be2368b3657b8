#include "device_info_amd.h"

#include "device_caps.h"
#include "device_identity.h"
#include "dispatch.h"

#include "am/device.h"

#include <CL/cl_ext.h>

#include <algorithm>
#include <chrono>

// Newer than Debian 12's cl_ext.h (clinfo's src/ext.h and ROCm's cl_ext.h give the values).
#ifndef CL_DEVICE_MAX_REAL_TIME_COMPUTE_QUEUES_AMD
#define CL_DEVICE_MAX_REAL_TIME_COMPUTE_QUEUES_AMD 0x404D
#endif
#ifndef CL_DEVICE_MAX_REAL_TIME_COMPUTE_UNITS_AMD
#define CL_DEVICE_MAX_REAL_TIME_COMPUTE_UNITS_AMD 0x404E
#endif

namespace amcl::rt {
namespace {

// The shader core as ROCm describes gfx11 and gfx12 (ROCm clr, rocclr/device/device.cpp,
// Isa::supportedIsas: gfx1100 ... gfx1201 all list 2 SIMDs per CU, SIMD width 32, instruction
// width 1, memory channel bank width 256, 64 KiB of LDS per CU in 32 banks; roc::Device fixes the
// banks per channel at 4 and reports channels as the VRAM bus width / 32). amcl's compute units
// are CUs (CU mode), as CL_DEVICE_MAX_COMPUTE_UNITS counts them, so no WGP doubling.
constexpr cl_uint kSimdPerCu = 2, kSimdWidth = 32, kSimdInstructionWidth = 1;
constexpr cl_uint kWavefrontWidth = 32; // kernels build wave32 (compiler/targets)
constexpr cl_uint kChannelBanks = 4, kChannelBankWidth = 256, kLdsBanks = 32;
// ROCm's defaults for the work-group and constant-buffer hints (rocdevice.cpp).
constexpr size_t kPreferredWorkGroupSize = 256, kPreferredConstantBuffer = 16 * 1024;

// "gfx1100" -> 11, 0; "gfx1201" -> 12, 0: the last digit is the stepping, the one before it
// the minor version (hexadecimal, as in gfx90a).
std::pair<cl_uint, cl_uint> gfxip(const std::string& gfx) {
  if (gfx.size() < 6) return {0, 0};
  const std::string v = gfx.substr(3);
  return {cl_uint(std::stoul(v.substr(0, v.size() - 2))),
          cl_uint(std::stoul(v.substr(v.size() - 2, 1), nullptr, 16))};
}

// CL_DEVICE_TOPOLOGY_AMD: the PCIe bus, device and function (an emulated card's as
// CL_DEVICE_PCI_BUS_INFO_KHR gives them).
cl_device_topology_amd topology(const am::DeviceInfo& info) {
  cl_device_topology_amd t{};
  t.pcie.type = CL_DEVICE_TOPOLOGY_TYPE_PCIE_AMD;
  if (auto bus = pci_bus_info(info.pci_address)) {
    t.pcie.bus = cl_char(bus->pci_bus);
    t.pcie.device = cl_char(bus->pci_device);
    t.pcie.function = cl_char(bus->pci_function);
  }
  return t;
}

// Profiling timestamps are the host's steady clock (host_time_ns): its distance from the epoch.
cl_ulong timer_offset_ns() {
  using namespace std::chrono;
  const auto wall = duration_cast<nanoseconds>(system_clock::now().time_since_epoch()).count();
  return cl_ulong(wall) - host_time_ns();
}

} // namespace

std::optional<cl_int> amd_device_info(cl_device_id d, cl_device_info param, size_t n, void* p,
                                      size_t* r) {
  const am::DeviceInfo& info = d->info();
  auto u = [&](cl_uint v) { return write_info(v, n, p, r); };
  auto sz = [&](size_t v) { return write_info(v, n, p, r); };
  switch (param) {
  case CL_DEVICE_BOARD_NAME_AMD:
    return write_info_string(info.name, n, p, r);
  case CL_DEVICE_PCIE_ID_AMD:
    return u(info.device_id);
  case CL_DEVICE_TOPOLOGY_AMD:
    return write_info(topology(info), n, p, r);
  case CL_DEVICE_PROFILING_TIMER_OFFSET_AMD:
    return write_info(timer_offset_ns(), n, p, r);
  case CL_DEVICE_GLOBAL_FREE_MEMORY_AMD: {
    // KiB: free VRAM less the driver's reserve (so never more than CL_DEVICE_GLOBAL_MEM_SIZE),
    // then the largest block (ROCm: one value when only one fits).
    const cl_ulong vram_free = d->am ? d->am->vram_free() : 0;
    const cl_ulong free = vram_free > kDriverReserveBytes ? vram_free - kDriverReserveBytes : 0;
    const cl_ulong largest = d->am ? std::min<cl_ulong>(d->am->vram_largest_free(), free) : 0;
    const size_t kib[2] = {size_t(free >> 10), size_t(largest >> 10)};
    if (p && n >= sizeof(size_t) && n < sizeof kib) return write_info(kib[0], n, p, r);
    return write_info(kib, sizeof kib, n, p, r);
  }
  case CL_DEVICE_SIMD_PER_COMPUTE_UNIT_AMD:
    return u(kSimdPerCu);
  case CL_DEVICE_SIMD_WIDTH_AMD:
    return u(kSimdWidth);
  case CL_DEVICE_SIMD_INSTRUCTION_WIDTH_AMD:
    return u(kSimdInstructionWidth);
  case CL_DEVICE_WAVEFRONT_WIDTH_AMD:
    return u(kWavefrontWidth);
  case CL_DEVICE_GLOBAL_MEM_CHANNELS_AMD:
    return u(info.vram_bus_bits / 32);
  case CL_DEVICE_GLOBAL_MEM_CHANNEL_BANKS_AMD:
    return u(kChannelBanks);
  case CL_DEVICE_GLOBAL_MEM_CHANNEL_BANK_WIDTH_AMD:
    return u(kChannelBankWidth);
  case CL_DEVICE_LOCAL_MEM_SIZE_PER_COMPUTE_UNIT_AMD:
    return u(cl_uint(kLocalMemoryBytes));
  case CL_DEVICE_LOCAL_MEM_BANKS_AMD:
    return u(kLdsBanks);
  case CL_DEVICE_THREAD_TRACE_SUPPORTED_AMD:
    return write_info(cl_bool(CL_FALSE), n, p, r);
  case CL_DEVICE_GFXIP_MAJOR_AMD:
    return u(gfxip(info.gfx).first);
  case CL_DEVICE_GFXIP_MINOR_AMD:
    return u(gfxip(info.gfx).second);
  // One compute queue (MEC pipe 0 queue 0) serves every command queue; none is real-time.
  case CL_DEVICE_AVAILABLE_ASYNC_QUEUES_AMD:
    return u(1);
  case CL_DEVICE_MAX_REAL_TIME_COMPUTE_QUEUES_AMD:
    return u(0);
  case CL_DEVICE_MAX_REAL_TIME_COMPUTE_UNITS_AMD:
    return u(0);
  case CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_AMD:
    return sz(kPreferredWorkGroupSize);
  case CL_DEVICE_MAX_WORK_GROUP_SIZE_AMD:
    return sz(1024);
  case CL_DEVICE_PREFERRED_CONSTANT_BUFFER_SIZE_AMD:
    return sz(kPreferredConstantBuffer);
  default:
    return std::nullopt;
  }
}

} // namespace amcl::rt
