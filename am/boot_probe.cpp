#include "boot_probe.h"

#include "device_error.h"
#include "gfx.h"
#include "hw/discovery.h"
#include "hw/mp_regs.h"
#include "ip_discovery.h"
#include "nbio.h"
#include "psp.h"
#include "smu.h"
#include "vram_access.h"

namespace am {

const char* boot_state_found(bool am_marker, bool sos_alive) {
  return am_marker   ? "left by amcl (SCRATCH_REG7 marker)"
         : sos_alive ? "left by another driver (amdgpu: PSP sOS running)"
                     : "fresh (PSP sOS not running)";
}

BootProbe probe_boot_state(Pci& pci) {
  const IpDiscovery ip = read_ip_discovery(pci, read_vram_size(pci));
  Nbio nbio(pci);
  Gfx gfx(pci, nbio);
  Psp psp(pci, nbio);
  Smu smu(pci);
  gfx.init_sw(ip);
  nbio.init_sw(ip);
  psp.init_sw(ip);
  smu.init_sw(ip);
  BootProbe p;
  p.gfx = gfx.target();
  if (const IpBlock* gc = ip.find(hw::discovery::GC_HWID)) p.gc_version = version_of(*gc);
  const GcRegisters& gc = gfx.gc();
  p.scratch7 = pci.reg_read32(gc(gc->SCRATCH_REG7));
  p.am_marker = p.scratch7 == kAmBootedMagic;
  p.sos_alive = psp.sos_alive();
  p.bootloader_ready = psp.bootloader_ready();
  p.smu_responding = smu.responding();
  if (p.smu_responding) {
    try {
      p.smu_version = smu.send(hw::smu::MSG_GetSmuVersion);
    } catch (const DeviceError&) {
      p.smu_responding = false; // it answered the idle check but not the message
    }
  }
  p.found = boot_state_found(p.am_marker, p.sos_alive);
  return p;
}

} // namespace am
