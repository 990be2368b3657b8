#include "fb_aperture.h"

#include <cstdio>

namespace sim {

using namespace am::hw;

void FbAperture::set_power_on_location(RegisterFile& regs) const {
  regs.store(reg(kMmhubFbLocationBase), uint32_t(kFbBase >> 24) & 0xffffff);
  regs.store(reg(kMmhubFbLocationTop), uint32_t((kFbBase + vram_size_ - 1) >> 24) & 0xffffff);
}

uint64_t FbAperture::base() const { return uint64_t(regs_.read(reg(kMmhubFbLocationBase)) & 0xffffff) << 24; }

uint8_t* FbAperture::translate(uint64_t mc, size_t len, bool write, bool) {
  const uint64_t fb = base();
  if (mc < fb || mc - fb + len > vram_size_ || mc - fb + len < mc - fb) {
    char why[160];
    std::snprintf(why, sizeof why, "PSP access at 0x%llx outside the frame buffer aperture [0x%llx, +%llu MiB)",
                  static_cast<unsigned long long>(mc), static_cast<unsigned long long>(fb),
                  static_cast<unsigned long long>(vram_size_ >> 20));
    throw shader::MemoryFault(mc, write, why);
  }
  return vram_ + (mc - fb);
}

size_t FbAperture::contiguous(uint64_t mc) const {
  const uint64_t fb = base();
  return mc >= fb && mc - fb < vram_size_ ? size_t(vram_size_ - (mc - fb)) : 4096 - (mc & 4095);
}

} // namespace sim
