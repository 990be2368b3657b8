#include "vram_access.h"

#include "device_error.h"
#include "hw/nbio_regs.h"

#include <algorithm>
#include <cstring>
#include <string>

namespace am {

uint64_t read_vram_size(Pci& pci) {
  const uint32_t mib = pci.reg_read32(hw::kRccConfigMemsize);
  if (mib == 0 || mib == 0xffffffffu)
    throw DeviceError(pci.address() + ": RCC_CONFIG_MEMSIZE reads " + std::to_string(mib) +
                      ", no VRAM size (is the card on the bus?)");
  return uint64_t(mib) << 20;
}

void read_vram(Pci& pci, uint64_t offset, std::span<uint8_t> out) {
  size_t done = 0;
  if (offset < pci.bar0_size()) { // amdgpu_device_aper_access: what the BAR covers
    done = size_t(std::min<uint64_t>(out.size(), pci.bar0_size() - offset));
    std::memcpy(out.data(), pci.vram() + offset, done);
  }
  // amdgpu_device_mm_access: whole dwords; MM_INDEX_HI only when it changes.
  uint32_t hi = ~0u;
  while (done < out.size()) {
    const uint64_t at = offset + done, dword = at & ~uint64_t(3);
    if (uint32_t(dword >> 31) != hi) {
      hi = uint32_t(dword >> 31);
      pci.reg_write32(hw::kMmIndexHi, hi);
    }
    pci.reg_write32(hw::kMmIndex, uint32_t(dword & 0x7fffffff) | hw::kMmIndexVram);
    const uint32_t value = pci.reg_read32(hw::kMmData);
    const size_t skip = size_t(at - dword), n = std::min<size_t>(4 - skip, out.size() - done);
    std::memcpy(out.data() + done, reinterpret_cast<const uint8_t*>(&value) + skip, n);
    done += n;
  }
}

} // namespace am
