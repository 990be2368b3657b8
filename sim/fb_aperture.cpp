#include "fb_aperture.h"

#include <cstdio>

namespace sim {

using namespace am::hw;

void FbAperture::set_power_on_location(RegisterFile& regs) const {
  const uint32_t base = uint32_t(kFbBase >> 24) & 0xffffff;
  const uint32_t top = uint32_t((kFbBase + vram_size_ - 1) >> 24) & 0xffffff;
  // Both hubs see the frame buffer at the same MC addresses.
  const VmHubRegs& mm = *model_.mmhub;
  regs.store(model_.mmhub_reg(mm.FB_LOCATION_BASE), base);
  regs.store(model_.mmhub_reg(mm.FB_LOCATION_TOP), top);
  regs.store(model_.gc_reg(model_.gc->GCMC_VM_FB_LOCATION_BASE), base);
  regs.store(model_.gc_reg(model_.gc->GCMC_VM_FB_LOCATION_TOP), top);
}

uint64_t FbAperture::base() const {
  return uint64_t(regs_.read(model_.mmhub_reg(model_.mmhub->FB_LOCATION_BASE)) & 0xffffff) << 24;
}

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
