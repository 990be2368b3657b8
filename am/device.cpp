#include "device.h"

#include "hw/discovery.h"

#include "firmware.h"
#include "firmware_set.h"
#include "hw/gc_generations.h"
#include "hw/mqd.h"
#include "hw/osssys_regs.h"
#include "hw/pci_ids.h"
#include "hw/psp_gfx_if.h"
#include "hw/ucode.h"
#include "pci_config_state.h"
#include "psp.h"
#include "reg_wait.h"
#include "smu.h"
#include "va_space.h"
#include "write_barrier.h"

#include <algorithm>
#include <bit>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>

namespace am {
namespace {

using namespace hw;

constexpr uint64_t kPage = 4096;
constexpr uint64_t kHuge = 2ull << 20;
// Top of VRAM holds the IP discovery table and firmware reservations on real cards.
constexpr uint64_t kReservedTop = 1ull << 20;
// Below it, the boot region: the PSP's buffers, the TMR (firmware the PSP keeps) and the SMU's
// tables. Ordinary allocations never come from it, in this session or a later one.
constexpr uint64_t kBootRegion = 32ull << 20;
constexpr uint64_t kSmuDriverTableBytes = 16 << 10, kSmuToolsTableBytes = 100 << 10;
constexpr uint64_t kRingBytes = 256 * 1024;
static_assert(Device::kMaxSubmissionDwords * 4 * 4 <= kRingBytes, "a quarter of a ring at most");
// Doorbell slots (64-bit units) amdgpu assigns on Navi1x and later:
// AMDGPU_NAVI10_DOORBELL_MEC_RING0 and AMDGPU_NAVI10_DOORBELL_sDMA_ENGINE0
// (Linux drivers/gpu/drm/amd/amdgpu/amdgpu_doorbell.h). Registers take dword indices.
constexpr uint32_t kMecDoorbell = 0x003 * 2;
constexpr uint32_t kSdmaDoorbell = 0x100 * 2;
// Written to SCRATCH_REG7 once AM has booted the card (the fast re-init marker).
constexpr uint32_t kAmBootedMagic = 0xA3C1B007;
// How long the RLC autoload may take after the PSP accepted AUTOLOAD_RLC. amdgpu polls for
// adev->usec_timeout (100 ms); sanitizer builds and busy hosts get more.
constexpr auto kAutoloadTimeout = std::chrono::seconds(2);

// Slots of the signal page (64-bit each).
enum Slot : unsigned {
  kComputeSignal = 0,
  kSdmaSignal = 1,
  kComputeRptr = 2,
  kSdmaRptr = 3,
  kComputeWptrPoll = 4,
  kIhWptr = 5,
  kClockSample = 6,
  kSdmaWptrPoll = 7
};
constexpr uint64_t kIhRingBytes = 64 * 1024;

uint64_t round_up(uint64_t v, uint64_t a) { return (v + a - 1) & ~(a - 1); }

std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

int debug_level() {
  static const int level = [] {
    const char* v = std::getenv("AM_DEBUG");
    return v ? std::atoi(v) : 0;
  }();
  return level;
}

// The driver's own words for a wave fault; the runtime names the instruction on top of them.
std::string describe(const WaveFault& f) {
  char buf[96];
  std::snprintf(buf, sizeof buf,
                "shader exception at pc 0x%llx: ", static_cast<unsigned long long>(f.pc));
  std::string s = buf;
  if (f.kind == WaveFault::Kind::IllegalInstruction) {
    s += "illegal instruction";
  } else {
    std::snprintf(buf, sizeof buf, "a wave stopped on an exception (%s 0x%08x)", f.exception_name,
                  f.exception);
    s += buf;
  }
  if (!f.words) return s + " (the pc is outside the memory amcl allocated, no code to show)";
  s += " (";
  for (unsigned i = 0; i < f.words; ++i) {
    std::snprintf(buf, sizeof buf, "%s0x%08x", i ? " " : "", f.dwords[i]);
    s += buf;
  }
  return s + ")";
}

// 60 s: amdgpu's bare-metal default for compute jobs (amdgpu_drv.c, lockup_timeout, 2021-2025;
// KFD's compute queues have none). A long kernel is not a hang, and the emulated card runs
// kernels far slower than a real one: the CTS's min_max_constant_buffer_size ran past 30 s
// on a busy 2-core machine.
constexpr long kDefaultHangTimeoutMs = 60000;

std::chrono::milliseconds hang_timeout_from_env() {
  const char* v = std::getenv("AMCL_HANG_TIMEOUT_MS");
  long ms = v ? std::atol(v) : kDefaultHangTimeoutMs;
  return std::chrono::milliseconds(ms > 0 ? ms : kDefaultHangTimeoutMs);
}

} // namespace

Device::Device(std::shared_ptr<Pci> pci)
    : pci_(std::move(pci)), vram_(0, pci_->vram_size() - kReservedTop - kBootRegion),
      hang_timeout_(hang_timeout_from_env()) {
  boot();
}

Device::~Device() {
  // Stop the engines from fetching before their rings and page tables go away.
  pci_->reg_write32(reg(gc_->SDMA0_QUEUE0_RB_CNTL), 0);
  (void)dequeue_compute(); // a queue that does not stop is the next boot's to deal with
  pci_->reg_write32(reg(gc_->GRBM_GFX_CNTL), 0);
  pci_->reg_write32(oss_base_ + ih_regs_->IH_RB_CNTL, 0);
  for (const Allocation& p : std::vector<Allocation>(peers_)) unmap_peer(p);
  for (const Allocation& a : boot_allocs_) { // the memory stays reserved; the mapping goes
    untrack(a.va);
    pt_->unmap(a.va, a.size);
    VaSpace::process().free(a.va, a.size);
  }
}

const char* to_string(BootState s) {
  switch (s) {
  case BootState::Fresh: return "full boot";
  case BootState::ResetThenFull: return "mode1 reset (firmware was running), then a full boot";
  case BootState::FastReinit: return "fast re-init (amcl had booted it before)";
  }
  return "?";
}

void Device::boot() {
  info_.vendor_id = pci_->vendor_id();
  info_.device_id = pci_->device_id();
  info_.revision = uint8_t(pci_->config_read32(8) & 0xff);
  info_.pci_address = pci_->address();
  info_.emulated = pci_->emulated();
  info_.vram_size = pci_->vram_size();
  if (info_.vendor_id != kVendorAmd)
    throw DeviceError(info_.pci_address + ": not an AMD device (vendor " +
                      std::to_string(info_.vendor_id) + ")");
  for (const PciPart& p : kKnownParts)
    if (p.device == info_.device_id) {
      info_.gfx = p.gfx, info_.name = p.marketing;
      info_.compute_units = p.compute_units, info_.max_clock_mhz = p.max_clock_mhz;
    }
  if (info_.gfx.empty()) throw DeviceError(info_.pci_address + ": unknown RDNA device id");
  discover();
  if (info_.emulated) info_.name += " (amcl emulated)";

  // Which of the three boot states: AM's marker in SCRATCH_REG7 means only GFX and SDMA need
  // re-initialising (unless AM_RESET=1); a running sOS without it means another driver booted
  // the card, which a mode1 reset returns to the power-on state before the full boot.
  const char* force = std::getenv("AM_RESET");
  const bool am_booted = pci_->reg_read32(reg(gc_->SCRATCH_REG7)) == kAmBootedMagic;
  if (am_booted && !(force && std::string(force) == "1")) {
    boot_state_ = BootState::FastReinit;
  } else if (make_psp().sos_alive()) {
    boot_state_ = BootState::ResetThenFull;
    mode1_reset();
  }
  try {
    pci_->enable_bus_master(); // after any reset, which clears it
  } catch (const std::runtime_error& e) {
    throw DeviceError(info_.pci_address + ": " + e.what());
  }
  init_nbio();
  init_gmc();
  signals_ = alloc_vram(kPage);
  std::memset(signals_.cpu, 0, kPage);
  init_ih();
  if (boot_state_ != BootState::FastReinit) {
    load_firmware();
    init_smu();
  } else { // the firmware runs; only where the MEC's is linked is needed
    mec_entry_ = info_.emulated ? synthetic_mec_entry(discovery_)
                                : load_mec_entry(discovery_, firmware_dir());
  }
  init_shader_memory();
  start_mec();
  enable_interrupts();
  init_compute_queue();
  init_sdma_queue();
  calibrate_clock();
  pci_->reg_write32(reg(gc_->SCRATCH_REG7), kAmBootedMagic);
}

// One GPU clock sample between two host clock reads: the offset that puts GPU timestamps on
// the host's steady clock (the GPU's 100 MHz reference and the host clock do not drift apart
// measurably over a process's life).
void Device::calibrate_clock() {
  Pm4Builder p;
  p.copy_data_to_mem(hw::pm4::COPY_DATA_TIMESTAMP, 0, signals_.va + 8 * kClockSample, true);
  const auto before = std::chrono::steady_clock::now();
  wait(Engine::Compute, submit_compute(p));
  const auto after = std::chrono::steady_clock::now();
  const int64_t host_ns =
      std::chrono::duration_cast<std::chrono::nanoseconds>((before + (after - before) / 2).time_since_epoch()).count();
  clock_offset_ns_ = host_ns - int64_t(gpu_ns(slot_value(kClockSample)));
}

uint64_t Device::gpu_ns(uint64_t ticks) const {
  // Whole seconds and the remainder apart: ticks * 1e9 overflows 64 bits after 184 s at 100 MHz;
  // the remainder's product never does (for clocks below 18 GHz).
  const uint64_t hz = gpu_clock_hz();
  return ticks / hz * 1'000'000'000u + ticks % hz * 1'000'000'000u / hz;
}

uint64_t Device::host_ns_from_gpu_ticks(uint64_t ticks) const {
  return uint64_t(int64_t(gpu_ns(ticks)) + clock_offset_ns_);
}

// The IP discovery binary at the top of VRAM says which blocks the card has and where their
// registers are; the PCI id table only names the product.
void Device::discover() {
  using namespace hw::discovery;
  if (info_.vram_size < kOffsetFromVramTop)
    throw DeviceError(info_.pci_address + ": VRAM too small for an IP discovery binary");
  const uint8_t* bin = pci_->vram() + (info_.vram_size - kOffsetFromVramTop);
  std::string error;
  auto ip = parse_ip_discovery(std::span(bin, kOffsetFromVramTop), &error);
  if (!ip) throw DeviceError(info_.pci_address + ": " + error);
  const IpBlock* gc = ip->find(GC_HWID);
  const IpBlock* oss = ip->find(OSSSYS_HWID);
  if (!gc || gc->bases.size() < 2 || !oss || oss->bases.empty())
    throw DeviceError(info_.pci_address + ": IP discovery lists no GC or OSSSYS register bases");
  auto version = [](const IpBlock& b) {
    return std::to_string(b.major) + "." + std::to_string(b.minor) + "." + std::to_string(b.revision);
  };
  const std::string gfx = gfx_target_of(*gc);
  gc_ = gc_regs_for(gc->major, gc->minor, gc->revision);
  if (gfx.empty() || !gc_)
    throw DeviceError(
        info_.pci_address + ": GC IP version " + version(*gc) +
        " is not known to amcl (it has register tables for GC 11.0.0, 11.0.2, 11.0.3, "
        "12.0.0 and 12.0.1)");
  sq_regs_ = sq::sq_regs_for_gc_major(gc->major);
  ih_regs_ = ih_regs_for_major(oss->major);
  if (!ih_regs_)
    throw DeviceError(info_.pci_address + ": OSSSYS IP version " + version(*oss) +
                      " is not known to amcl");
  pte_format_ = gmc::pte_format_for_gc_major(gc->major);
  const IpBlock* mp0 = ip->find(MP0_HWID);
  const IpBlock* mp1 = ip->find(MP1_HWID);
  if (!mp0 || mp0->bases.empty() || !mp1 || mp1->bases.size() < 2)
    throw DeviceError(info_.pci_address + ": IP discovery lists no MP0 (PSP) or MP1 (SMU) register bases");
  const IpBlock* mmhub = ip->find(MMHUB_HWID);
  const VmHubRegs* mmhub_regs = mmhub && !mmhub->bases.empty()
                                    ? mmhub_regs_for(mmhub->major, mmhub->minor, mmhub->revision)
                                    : nullptr;
  if (!mmhub_regs)
    throw DeviceError(info_.pci_address + ": IP discovery lists no MMHUB amcl knows" +
                      (mmhub ? " (MMHUB " + version(*mmhub) + ")" : std::string()) +
                      "; it has register tables for MMHUB 3.0.0, 3.0.2 and 4.1.0");
  const IpBlock* nbio = ip->find(NBIF_HWID);
  nbio_regs_ = nbio && nbio->bases.size() >= 3 ? nbio_regs_for_major(nbio->major) : nullptr;
  if (!nbio_regs_)
    throw DeviceError(info_.pci_address + ": IP discovery lists no NBIO/NBIF amcl knows" +
                      (nbio ? " (NBIF " + version(*nbio) + ")" : std::string()));
  for (size_t i = 0; i < 4 && i < nbio->bases.size(); ++i) nbio_base_[i] = uint32_t(nbio->bases[i]);
  psp_regs_ = psp_regs_for_major(mp0->major);
  smu_regs_ = smu_regs_for_major(mp1->major);
  if (!psp_regs_ || !smu_regs_)
    throw DeviceError(info_.pci_address + ": PSP " + version(*mp0) + " / SMU " + version(*mp1) +
                      " are not known to amcl");
  mp0_major_ = mp0->major;
  if (const IpBlock* sdma = ip->find(SDMA0_HWID)) sdma_major_ = sdma->major;
  mp0_base_[0] = uint32_t(mp0->bases[0]);
  mp0_base_[1] = mp0->bases.size() > 1 ? uint32_t(mp0->bases[1]) : 0;
  mp1_base_[0] = uint32_t(mp1->bases[0]);
  mp1_base_[1] = uint32_t(mp1->bases[1]);
  info_.gfx = gfx; // the silicon's own word wins over the PCI id table
  gc_base_[0] = uint32_t(gc->bases[0]);
  gc_base_[1] = uint32_t(gc->bases[1]);
  hubs_.clear();
  hubs_.push_back({gfxhub_regs(*gc_), {gc_base_[0], gc_base_[1]}});
  hubs_.push_back({*mmhub_regs, {uint32_t(mmhub->bases[0]), 0}});
  // The frame buffer's MC range, as the VBIOS left it (16 MiB units): the PSP and the SMU are
  // given MC addresses (mmhub_v3_0_get_fb_location). VMID 0 reaches it through the system
  // aperture, so it must not overlap the virtual range amcl's page tables serve.
  const VmHub& mm = hubs_.back();
  fb_base_ = uint64_t(pci_->reg_read32(mm.reg(mm.regs.FB_LOCATION_BASE)) & 0xffffff) << 24;
  fb_top_ =
      (uint64_t(pci_->reg_read32(mm.reg(mm.regs.FB_LOCATION_TOP)) & 0xffffff) << 24) | 0xffffff;
  if (fb_top_ < fb_base_ || fb_base_ < gmc::kVaSpan)
    throw DeviceError(info_.pci_address + ": the frame buffer's MC range [" + hex(fb_base_) + ", " +
                      hex(fb_top_) +
                      "] (MMMC_VM_FB_LOCATION_BASE/TOP) overlaps VMID 0's virtual "
                      "range [0, " +
                      hex(gmc::kVaSpan) + "), which amcl needs for its page tables");
  oss_base_ = uint32_t(oss->bases[0]);
  discovery_ = std::move(*ip);
}

Psp Device::make_psp(const PspBuffers& buffers) {
  return Psp(
      *pci_, *psp_regs_, mp0_major_, [this](Reg r) { return mp0_base_[r.base_idx] + r.offset; },
      buffers, fb_base_, [this] { flush_hdp(); });
}

Psp Device::make_psp() {
  return make_psp(PspBuffers{});
}

Smu Device::make_smu() {
  return Smu(*pci_, *smu_regs_, [this](Reg r) { return mp1_base_[r.base_idx] + r.offset; });
}

// amdgpu_device_mode1_reset with smu_v13_0_0_mode1_reset / smu_v14_0_2_mode1_reset: the SMU
// resets the whole chip except its memory. amdgpu saves the function's config space, turns bus
// mastering off, asks through the debug mailbox, leaves the card alone (no register access:
// the chip is not there while it resets) for the SMU generation's wait, then restores config
// space (the BARs' addresses first) before touching the card again; the PSP's bootloader is
// back, waiting, when the reset is done.
void Device::mode1_reset() {
  Smu smu = make_smu();
  if (!smu.responding())
    throw DeviceError(info_.pci_address + ": the card was initialised by another driver and its SMU "
                      "does not answer, so it cannot be reset; power-cycle the machine");
  const PciConfigHeader saved = save_config_header(*pci_);
  try {
    pci_->config_write32(kPciCommand, saved.dwords[1] & 0xffffu & ~uint32_t(kPciCommandBusMaster));
    smu.send_debug(smu::DEBUGSMC_MSG_Mode1Reset);
    std::this_thread::sleep_for(std::chrono::milliseconds(smu_regs_->mode1_reset_wait_ms));
    restore_config_header(*pci_, saved);
    pci_->after_config_restore();
  } catch (const std::runtime_error& e) { // config space not writable (not root, vfio error)
    throw DeviceError(info_.pci_address + ": mode1 reset: " + e.what());
  }
  Psp psp = make_psp();
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(3);
  while (psp.sos_alive() || !psp.bootloader_ready())
    if (std::chrono::steady_clock::now() > deadline)
      throw DeviceError(info_.pci_address + ": mode1 reset did not complete");
}

Allocation Device::alloc_boot(uint64_t size, uint64_t align) {
  size = round_up(size, kPage);
  const uint64_t region = pci_->vram_size() - kReservedTop - kBootRegion;
  const uint64_t phys = round_up(region + boot_next_, align);
  if (phys + size > region + kBootRegion)
    throw DeviceError("boot memory region (" + std::to_string(kBootRegion >> 20) + " MiB) exhausted");
  boot_next_ = phys + size - region;
  auto va = VaSpace::process().allocate(size, std::max<uint64_t>(align, kPage));
  if (!va) throw DeviceError("out of GPU virtual address space");
  pt_->map(*va, phys, size, PageTable::kRead | PageTable::kWrite);
  Allocation a{*va, size, pci_->vram() + phys, MemoryKind::Vram, phys};
  boot_allocs_.push_back(a);
  track(a);
  return a;
}

// amdgpu_psp.c's order (tinygrad's AM follows it): the sOS through the bootloader, the GPCOM
// ring, the table of contents (which sizes the TMR), the SMU firmware, the TMR, the graphics
// firmware, then the RLC autoload that starts the CP and SDMA firmware.
void Device::load_firmware() {
  const FirmwareSet fw = info_.emulated ? synthetic_firmware_set(discovery_)
                                        : load_firmware_set(discovery_, firmware_dir());
  firmware_source_ = fw.source;
  mec_entry_ = fw.mec_entry;
  PspBuffers buf;
  buf.msg1 = alloc_boot(psp::kMsg1Bytes, psp::kMsg1Bytes);
  buf.ring = alloc_boot(64 << 10, kPage);
  buf.cmd = alloc_boot(kPage, kPage);
  buf.fence = alloc_boot(kPage, kPage);
  std::memset(buf.fence.cpu, 0, kPage);
  Psp psp = make_psp(buf);
  psp.start_sos(fw);
  psp.create_ring();
  const uint32_t tmr_size = psp.load_toc(fw.sos.at(ucode::PSP_FW_TYPE_PSP_TOC));
  const Allocation tmr = alloc_boot(tmr_size, psp::kTmrAlignment);
  psp.load_ip_fw(fw.smu);
  psp.setup_tmr(tmr);
  for (const FirmwareImage& image : fw.gfx) psp.load_ip_fw(image);
  psp.autoload_rlc();
}

// smu_v13_0 / smu_v14_0 hw setup as amcl needs it: learn the firmware version, tell the SMU
// where its tables live, enable its features.
void Device::init_smu() {
  Smu smu = make_smu();
  smu_version_ = smu.send(smu::MSG_GetSmuVersion);
  const Allocation driver = alloc_boot(kSmuDriverTableBytes, kPage);
  const Allocation tools = alloc_boot(kSmuToolsTableBytes, kPage);
  // MC addresses, as smu_v13_0_set_driver_table_location passes driver_table->mc_address.
  const uint64_t driver_mc = fb_base_ + driver.phys, tools_mc = fb_base_ + tools.phys;
  smu.send(smu::MSG_SetDriverDramAddrHigh, uint32_t(driver_mc >> 32));
  smu.send(smu::MSG_SetDriverDramAddrLow, uint32_t(driver_mc));
  smu.send(smu::MSG_SetToolsDramAddrHigh, uint32_t(tools_mc >> 32));
  smu.send(smu::MSG_SetToolsDramAddrLow, uint32_t(tools_mc));
  smu.send(smu::MSG_EnableAllSmuFeatures);
}

void Device::init_nbio() {
  const NbioRegs& n = *nbio_regs_;
  auto index = [this](Reg r) { return nbio_base_[r.base_idx] + r.offset; };
  pci_->reg_write32(index(n.RCC_DEV0_EPF0_RCC_DOORBELL_APER_EN), BIF_DOORBELL_APER_EN);
  pci_->reg_write32(index(n.REMAP_HDP_MEM_FLUSH_CNTL), kMmioRemapHdpMemFlush);
  // The CP's two ports take the whole aperture; SDMA 0's range starts at its doorbell and covers
  // its 20 queues' 64-bit doorbells (nbio_v4_3_sdma_doorbell_range).
  const uint32_t entry0 = index(n.S2A_DOORBELL_ENTRY_0_CTRL);
  write_reg_any(entry0 + kS2aCpEntry, s2a_doorbell_entry({true, kS2aAwidCp, 0, 0, 3}));
  write_reg_any(entry0 + kS2aCpEntry2, s2a_doorbell_entry({true, kS2aAwidCp2, 0, 0, 3}));
  write_reg_any(entry0 + kS2aSdma0Entry,
                s2a_doorbell_entry({true, kS2aAwidSdma0, kSdmaDoorbell, kS2aSdmaRangeSize, 3}));
}

void Device::write_reg_any(uint32_t index, uint32_t value) {
  if (uint64_t(index) * 4 + 4 <= pci_->reg_bytes()) {
    pci_->reg_write32(index, value);
    return;
  }
  const NbioRegs& n = *nbio_regs_;
  const uint32_t index2 = nbio_base_[n.PCIE_INDEX2.base_idx] + n.PCIE_INDEX2.offset;
  const uint32_t data2 = nbio_base_[n.PCIE_DATA2.base_idx] + n.PCIE_DATA2.offset;
  pci_->reg_write32(index2, index * 4);
  (void)pci_->reg_read32(index2); // the index lands before the data
  pci_->reg_write32(data2, value);
  (void)pci_->reg_read32(data2);
}

void Device::flush_hdp() {
  device_write_barrier(); // the stores leave the CPU's write-combining buffers first
  pci_->reg_write32(kMmioRemapHdpMemFlush / 4, 0);
  (void)pci_->reg_read32(kMmioRemapHdpMemFlush / 4); // completes once the flush has
}

void Device::init_gmc() {
  uint8_t* vram = pci_->vram();
  pt_ = std::make_unique<PageTable>(vram, pte_format_, [this, vram] {
    auto off = vram_.allocate(kPage, kPage);
    if (!off) throw DeviceError("out of VRAM for page tables");
    std::memset(vram + *off, 0, kPage);
    return *off;
  });
  const uint64_t base = pt_->root() | gmc::PTE_VALID;
  const uint64_t last_page = (gmc::kVaSpan >> 12) - 1;
  // Where the system aperture sends an access it has no page for, and where a faulting access
  // goes instead of its address (amdgpu's mem_scratch and dummy page, tinygrad's AM alike).
  // Physical pages only: no mapping (the hubs are not set up yet, so nothing to invalidate).
  for (uint64_t* page : {&scratch_page_, &fault_page_}) {
    auto phys = vram_.allocate(kPage, kPage);
    if (!phys) throw DeviceError("out of VRAM for the VM hubs' default pages");
    std::memset(pci_->vram() + *phys, 0, kPage);
    *page = *phys;
  }
  // The same VMID 0 on both hubs (gmc_v11_0.c's gart_enable programs GFXHUB and MMHUB alike):
  // one address means the same memory to the shaders and to the IH. In gart_enable's order:
  // the system apertures, the L1 TLB, the L2 cache, then context 0, with every invalidation
  // engine's range over the whole VA space (program_invalidation).
  for (const VmHub& hub : hubs_) {
    const VmHubRegs& h = hub.regs;
    pci_->reg_write32(hub.reg(h.AGP_BASE), 0);
    pci_->reg_write32(hub.reg(h.AGP_BOT), kAgpBotDisabled);
    pci_->reg_write32(hub.reg(h.AGP_TOP), 0);
    pci_->reg_write32(hub.reg(h.SYSTEM_APERTURE_LOW_ADDR), uint32_t(fb_base_ >> 18));
    pci_->reg_write32(hub.reg(h.SYSTEM_APERTURE_HIGH_ADDR), uint32_t(fb_top_ >> 18));
    pci_->reg_write32(hub.reg(h.SYSTEM_APERTURE_DEFAULT_ADDR_LSB), uint32_t(scratch_page_ >> 12));
    pci_->reg_write32(hub.reg(h.SYSTEM_APERTURE_DEFAULT_ADDR_MSB), uint32_t(scratch_page_ >> 44));
    pci_->reg_write32(hub.reg(h.L2_PROTECTION_FAULT_DEFAULT_ADDR_LO32),
                      uint32_t(fault_page_ >> 12));
    pci_->reg_write32(hub.reg(h.L2_PROTECTION_FAULT_DEFAULT_ADDR_HI32),
                      uint32_t(fault_page_ >> 44));
    const uint32_t l1 = pci_->reg_read32(hub.reg(h.MX_L1_TLB_CNTL));
    pci_->reg_write32(hub.reg(h.MX_L1_TLB_CNTL), (l1 & ~MX_L1_TLB_FIELDS_MASK) | kMxL1TlbCntl);
    pci_->reg_write32(hub.reg(h.L2_CNTL), vm_l2_cntl(pci_->reg_read32(hub.reg(h.L2_CNTL))));
    pci_->reg_write32(hub.reg(h.L2_CNTL2), kVmL2Cntl2InvalidateAll);
    pci_->reg_write32(hub.reg(h.PAGE_TABLE_BASE_LO32), uint32_t(base));
    pci_->reg_write32(hub.reg(h.PAGE_TABLE_BASE_HI32), uint32_t(base >> 32));
    pci_->reg_write32(hub.reg(h.PAGE_TABLE_START_LO32), 0);
    pci_->reg_write32(hub.reg(h.PAGE_TABLE_START_HI32), 0);
    pci_->reg_write32(hub.reg(h.PAGE_TABLE_END_LO32), uint32_t(last_page));
    pci_->reg_write32(hub.reg(h.PAGE_TABLE_END_HI32), uint32_t(last_page >> 32));
    for (unsigned e = 0; e < kInvalidationEngines; ++e) {
      pci_->reg_write32(hub.reg(invalidate_range_lo32(h, e)), kInvalidateRangeLo32);
      pci_->reg_write32(hub.reg(invalidate_range_hi32(h, e)), kInvalidateRangeHi32);
    }
    pci_->reg_write32(
        hub.reg(h.CONTEXT0_CNTL),
        VM_CONTEXT_CNTL_ENABLE | (gmc::kPageTableDepth << VM_CONTEXT_CNTL_DEPTH_SHIFT) |
            (0u << h.block_size_shift) | vm_context_fault_interrupts(h.block_size_shift));
  }
  init_hub_l2_and_fault_defaults();
  invalidate_gpu_tlb(); // whatever an earlier session left cached (the fast path) is gone
}

// What amdgpu's hub code programs beyond VMID 0's context: the rest of the L2 set-up
// (init_cache_regs' CNTL3..5, init_system_aperture_regs' PTE read retry), then
// set_fault_enable_default(true), which gmc_v11_0/v12_0_gart_enable call after gart_enable:
// faulting accesses go to the default page (fault_page_) rather than through; on GFXHUB also
// CP_DEBUG, so that the CP keeps running after a translation error on its own fetches instead
// of halting, and the fault is reported and the queue can be reset.
void Device::init_hub_l2_and_fault_defaults() {
  auto set_bits = [this](uint32_t index, uint32_t bits, uint32_t write_as_zero = 0) {
    pci_->reg_write32(index, (pci_->reg_read32(index) & ~write_as_zero) | bits);
  };
  for (const VmHub& hub : hubs_) {
    const VmHubRegs& h = hub.regs;
    pci_->reg_write32(hub.reg(h.L2_CNTL3), vm_l2_cntl3(h.l2_cntl3_default));
    pci_->reg_write32(hub.reg(h.L2_CNTL4), kGcvmL2Cntl4);
    pci_->reg_write32(hub.reg(h.L2_CNTL5), kGcvmL2Cntl5);
    set_bits(hub.reg(h.L2_PROTECTION_FAULT_CNTL2), GCVM_L2_PROTECTION_FAULT_CNTL2_PTE_READ_RETRY);
    // CLEAR_PROTECTION_FAULT_STATUS_ADDR [0] written as 0: re-arming the fault latch is
    // rearm_vm_fault_latch's, once the IH is up.
    set_bits(hub.reg(h.L2_PROTECTION_FAULT_CNTL), GCVM_L2_PROTECTION_FAULT_ENABLE_DEFAULTS, 1u);
  }
  set_bits(reg(gc_->CP_DEBUG), CP_DEBUG_CPG_UTCL1_ERROR_HALT_DISABLE);
}

void Device::init_ih() {
  ih_mem_ = alloc_vram(kIhRingBytes);
  std::memset(ih_mem_.cpu, 0, kIhRingBytes);
  ih_.init(*pci_, oss_base_, *ih_regs_, ih_mem_, signals_, 8 * kIhWptr);
  rearm_vm_fault_latch(); // so the first fault of this session is recorded
}

// CLEAR_PROTECTION_FAULT_STATUS_ADDR [0] of GCVM_L2_PROTECTION_FAULT_CNTL, the register's other
// fields (the per-fault-type default-page and retry controls) kept as they are: amdgpu sets the
// bit with WREG32_P(reg, 1, ~1) (gmc_v11_0_process_interrupt), never a plain write of 1.
void Device::rearm_vm_fault_latch() {
  const uint32_t cntl = reg(gc_->GCVM_L2_PROTECTION_FAULT_CNTL);
  pci_->reg_write32(cntl, pci_->reg_read32(cntl) | 1u);
}

// The shader memory set-up of VMID 0, where amcl's queues run: flat addresses reach LDS and
// private memory through the apertures (without them generic pointers to either would fault),
// and SH_MEM_CONFIG selects 64-bit addressing and unaligned access, which LLVM's code assumes
// (out of reset a misaligned wide load would read the wrong bytes).
void Device::init_shader_memory() {
  const uint32_t grbm = reg(gc_->GRBM_CNTL); // constants_init's first write
  pci_->reg_write32(grbm,
                    (pci_->reg_read32(grbm) & ~GRBM_CNTL_READ_TIMEOUT_MASK) | kGrbmReadTimeout);
  pci_->reg_write32(reg(gc_->GRBM_GFX_CNTL), grbm_gfx_cntl(0, 0, 0, 0));
  pci_->reg_write32(reg(gc_->SH_MEM_CONFIG), kDefaultShMemConfig);
  pci_->reg_write32(reg(gc_->SH_MEM_BASES), sh_mem_bases(kPrivateAperture, kSharedAperture));
}

// gfx_v11_0_hw_init's MEC bring-up for PSP-loaded RS64 firmware (gfx_v12_0 does the same):
// wait until the RLC autoload is over and the CP idle (wait_for_rlc_autoload_complete), give
// each pipe its program counter start and pulse the pipe resets so the pipes take it
// (config_gfx_rs64), then release the pipes and the halt (cp_compute_enable). Without this
// the MEC stays halted after the autoload and no queue is ever fetched.
void Device::start_mec() {
  const uint32_t status = reg(gc_->RLC_RLCS_BOOTLOAD_STATUS), cp_stat = reg(gc_->CP_STAT);
  const auto deadline = std::chrono::steady_clock::now() + kAutoloadTimeout;
  for (;;) {
    const uint32_t s = pci_->reg_read32(status), c = pci_->reg_read32(cp_stat);
    if ((s & RLC_BOOTLOAD_COMPLETE) && c == 0) break;
    if (std::chrono::steady_clock::now() > deadline) {
      char buf[160];
      std::snprintf(buf, sizeof buf,
                    ": the RLC autoload did not complete (RLC_RLCS_BOOTLOAD_STATUS 0x%08x, "
                    "CP_STAT 0x%08x)",
                    s, c);
      throw DeviceError(info_.pci_address + buf);
    }
    std::this_thread::sleep_for(std::chrono::microseconds(100));
  }
  for (uint32_t pipe = 0; pipe < kMecPipes; ++pipe) {
    pci_->reg_write32(reg(gc_->GRBM_GFX_CNTL), grbm_gfx_cntl(1, pipe, 0, 0));
    pci_->reg_write32(reg(gc_->CP_MEC_RS64_PRGRM_CNTR_START), rs64_prgrm_cntr_start(mec_entry_));
    pci_->reg_write32(reg(gc_->CP_MEC_RS64_PRGRM_CNTR_START_HI),
                      rs64_prgrm_cntr_start_hi(mec_entry_));
  }
  pci_->reg_write32(reg(gc_->GRBM_GFX_CNTL), 0);
  const uint32_t cntl = reg(gc_->CP_MEC_RS64_CNTL);
  const uint32_t was = pci_->reg_read32(cntl);
  pci_->reg_write32(cntl, was | CP_MEC_RS64_ALL_PIPES_RESET);
  pci_->reg_write32(cntl, was & ~CP_MEC_RS64_ALL_PIPES_RESET);
  pci_->reg_write32(cntl, (was & ~(CP_MEC_RS64_INVALIDATE_ICACHE | CP_MEC_RS64_ALL_PIPES_RESET |
                                   CP_MEC_RS64_HALT)) |
                              CP_MEC_RS64_ALL_PIPES_ACTIVE);
  std::this_thread::sleep_for(std::chrono::microseconds(50)); // amdgpu's udelay(50)
}

// amdgpu switches these on when its fences and fault handlers take their IRQs
// (gfx_v11_0_set_compute_eop_interrupt_state: TIME_STAMP and GENERIC0; amdkfd adds OPCODE_ERROR;
// sdma_v6_0_set_trap_irq_state: TRAP_ENABLE). Without them a real card still writes every fence
// but raises no interrupt: waits would only notice at their polling interval, and a queue stopped
// on a bad packet would be found by the hang timeout instead of its report.
void Device::enable_interrupts() {
  const uint32_t cp = reg(gc_->CP_ME1_PIPE0_INT_CNTL), sdma = reg(gc_->SDMA0_CNTL);
  pci_->reg_write32(cp, pci_->reg_read32(cp) | CP_INT_TIME_STAMP_ENABLE | CP_INT_GENERIC0_ENABLE |
                            CP_INT_OPCODE_ERROR_ENABLE);
  pci_->reg_write32(sdma, pci_->reg_read32(sdma) | SDMA_CNTL_TRAP_ENABLE);
}

void Device::init_compute_queue() {
  compute_.ring_mem = alloc_vram(kRingBytes);
  mqd_ = alloc_vram(kPage);
  eop_ = alloc_vram(kPage);
  std::memset(compute_.ring_mem.cpu, 0, kRingBytes);
  compute_.ring.init(compute_.ring_mem);
  program_compute_hqd();
}

void Device::program_compute_hqd() {
  // Fill the MQD the way the MEC firmware would load it, then program the HQD registers of
  // ME 1 pipe 0 queue 0 directly from it (no MES, no KIQ).
  auto* mqd = reinterpret_cast<uint32_t*>(mqd_.cpu);
  std::memset(mqd, 0, kPage);
  // gfx_v11_0_compute_mqd_init's values: each HQD field from its register's reset value, the
  // rest of the HQD image 0 as amdgpu's MAP_QUEUES loads it.
  using namespace mqd;
  const uint32_t ring_dwords = uint32_t(kRingBytes / 4);
  mqd[header] = kHeader;
  for (uint32_t se : {compute_static_thread_mgmt_se0, compute_static_thread_mgmt_se1,
                      compute_static_thread_mgmt_se2, compute_static_thread_mgmt_se3})
    mqd[se] = kAllCus;
  mqd[compute_misc_reserved] = kComputeMiscReserved;
  mqd[cp_mqd_base_addr_lo] = uint32_t(mqd_.va);
  mqd[cp_mqd_base_addr_hi] = uint32_t(mqd_.va >> 32);
  mqd[cp_mqd_control] = kCpMqdControlDefault; // VMID 0
  mqd[cp_hqd_vmid] = 0;
  mqd[cp_hqd_persistent_state] = kCpHqdPersistentStateDefault; // PRELOAD_SIZE 0x55
  mqd[cp_hqd_ib_control] = kCpHqdIbControlDefault;             // MIN_IB_AVAIL_SIZE 3
  mqd[cp_hqd_pq_base_lo] = uint32_t(compute_.ring_mem.va >> 8);
  mqd[cp_hqd_pq_base_hi] = uint32_t(compute_.ring_mem.va >> 40);
  mqd[cp_hqd_pq_control] = pq_control(uint32_t(std::countr_zero(ring_dwords)) - 1);
  const uint64_t rptr_va = signals_.va + 8 * kComputeRptr;
  const uint64_t wptr_va = signals_.va + 8 * kComputeWptrPoll;
  mqd[cp_hqd_pq_rptr_report_addr_lo] = uint32_t(rptr_va);
  mqd[cp_hqd_pq_rptr_report_addr_hi] = uint32_t(rptr_va >> 32);
  mqd[cp_hqd_pq_wptr_poll_addr_lo] = uint32_t(wptr_va);
  mqd[cp_hqd_pq_wptr_poll_addr_hi] = uint32_t(wptr_va >> 32);
  mqd[cp_hqd_pq_doorbell_control] = (kMecDoorbell << CP_HQD_DOORBELL_OFFSET_SHIFT) | CP_HQD_DOORBELL_EN;
  mqd[cp_hqd_eop_base_addr_lo] = uint32_t(eop_.va >> 8);
  mqd[cp_hqd_eop_base_addr_hi] = uint32_t(eop_.va >> 40);
  mqd[cp_hqd_eop_control] = (kCpHqdEopControlDefault & ~EOP_CONTROL_EOP_SIZE_MASK) |
                            (uint32_t(std::countr_zero(uint32_t(kPage / 4))) - 1);

  // The MEC ignores doorbells outside its range (amdgpu sets it with the KIQ, from 0 to the
  // last user queue's doorbell).
  pci_->reg_write32(reg(gc_->CP_MEC_DOORBELL_RANGE_LOWER), 0);
  pci_->reg_write32(reg(gc_->CP_MEC_DOORBELL_RANGE_UPPER), kMecDoorbellRangeUpper);
  // A queue a previous session left running comes off first (kiq_init_register: "disable the
  // queue if it's active").
  dequeue_compute_or_throw();
  // The write pointer comes by doorbell only: the CP must not poll the MQD's poll address.
  const uint32_t poll = reg(gc_->CP_PQ_WPTR_POLL_CNTL);
  pci_->reg_write32(poll, pci_->reg_read32(poll) & ~CP_PQ_WPTR_POLL_CNTL_EN);
  // HQD registers mirror MQD dwords 128.. in order: program every one we filled.
  for (uint32_t idx = kHqdFirst; idx <= cp_hqd_pq_wptr_hi; ++idx) {
    if (idx == cp_hqd_active) continue;
    pci_->reg_write32(reg(gc_->CP_MQD_BASE_ADDR) + (idx - kHqdFirst), mqd[idx]);
  }
  pci_->reg_write32(reg(gc_->CP_HQD_ACTIVE), 1);
  const uint32_t status = reg(gc_->CP_PQ_STATUS);
  pci_->reg_write32(status, pci_->reg_read32(status) | CP_PQ_STATUS_DOORBELL_ENABLE);
  pci_->reg_write32(reg(gc_->GRBM_GFX_CNTL), 0);
}

// The dequeue amdgpu's soft reset does for every compute queue (and tinygrad's AM at fini): a
// request to reset the queue's waves and the SPI's queue reset, then CP_HQD_ACTIVE polled to 0.
// amdgpu never clears CP_HQD_ACTIVE of a running queue directly.
bool Device::dequeue_compute() {
  pci_->reg_write32(reg(gc_->GRBM_GFX_CNTL), grbm_gfx_cntl(1, 0, 0, 0));
  const uint32_t active = reg(gc_->CP_HQD_ACTIVE);
  if (!(pci_->reg_read32(active) & 1)) return true;
  pci_->reg_write32(reg(gc_->CP_HQD_DEQUEUE_REQUEST), kDequeueResetWaves);
  pci_->reg_write32(reg(gc_->SPI_COMPUTE_QUEUE_RESET), SPI_COMPUTE_QUEUE_RESET_RESET);
  const bool off = wait_reg(*pci_, active, 1, 0, std::chrono::milliseconds(1000));
  pci_->reg_write32(reg(gc_->CP_HQD_DEQUEUE_REQUEST), 0);
  return off;
}

// The same, for the paths that cannot go on with the queue still on the hardware. Leaves the
// compute queue selected in GRBM_GFX_CNTL on success.
void Device::dequeue_compute_or_throw() {
  if (dequeue_compute()) return;
  pci_->reg_write32(reg(gc_->GRBM_GFX_CNTL), 0);
  throw DeviceError(info_.pci_address + ": the compute queue stays active after a dequeue request");
}

void Device::init_sdma_queue() {
  sdma_.ring_mem = alloc_vram(kRingBytes);
  std::memset(sdma_.ring_mem.cpu, 0, kRingBytes);
  sdma_.ring.init(sdma_.ring_mem);
  program_sdma_queue();
}

void Device::program_sdma_queue() {
  const uint64_t rptr_va = signals_.va + 8 * kSdmaRptr;
  const uint32_t log2_dwords = uint32_t(std::countr_zero(uint32_t(kRingBytes / 4)));
  auto w = [&](Reg r, uint32_t v) { pci_->reg_write32(reg(r), v); };
  // sdma_v6_0_gfx_resume's order: the ring off and described, the pointers zeroed (a write-
  // pointer move backwards inside a MINOR_PTR_UPDATE bracket), the doorbell, the engine
  // unhalted, the ring on, then its indirect buffers. The ring control is the bare-metal one:
  // the firmware's write-pointer polling on, the ring's own (WPTR_POLL_ENABLE) off.
  const uint32_t rb_cntl = (log2_dwords << SDMA_RB_CNTL_RB_SIZE_SHIFT) |
                           SDMA_RB_CNTL_F32_WPTR_POLL_ENABLE | SDMA_RB_CNTL_RPTR_WRITEBACK_ENABLE |
                           (kSdmaRptrWritebackTimer << SDMA_RB_CNTL_RPTR_WRITEBACK_TIMER_SHIFT) |
                           SDMA_RB_CNTL_RB_PRIV;
  w(gc_->SDMA0_QUEUE0_RB_CNTL, 0);
  w(gc_->SDMA0_QUEUE0_RB_BASE, uint32_t(sdma_.ring_mem.va >> 8));
  w(gc_->SDMA0_QUEUE0_RB_BASE_HI, uint32_t(sdma_.ring_mem.va >> 40));
  w(gc_->SDMA0_QUEUE0_RB_RPTR, 0);
  w(gc_->SDMA0_QUEUE0_RB_RPTR_HI, 0);
  w(gc_->SDMA0_QUEUE0_MINOR_PTR_UPDATE, 1);
  w(gc_->SDMA0_QUEUE0_RB_WPTR, 0);
  w(gc_->SDMA0_QUEUE0_RB_WPTR_HI, 0);
  w(gc_->SDMA0_QUEUE0_MINOR_PTR_UPDATE, 0);
  w(gc_->SDMA0_QUEUE0_RB_RPTR_ADDR_LO, uint32_t(rptr_va));
  w(gc_->SDMA0_QUEUE0_RB_RPTR_ADDR_HI, uint32_t(rptr_va >> 32));
  const uint64_t wptr_va = signals_.va + 8 * kSdmaWptrPoll;
  w(gc_->SDMA0_QUEUE0_RB_WPTR_POLL_ADDR_LO, uint32_t(wptr_va));
  w(gc_->SDMA0_QUEUE0_RB_WPTR_POLL_ADDR_HI, uint32_t(wptr_va >> 32));
  w(gc_->SDMA0_QUEUE0_DOORBELL_OFFSET, kSdmaDoorbell << 2);
  w(gc_->SDMA0_QUEUE0_DOORBELL, SDMA_DOORBELL_ENABLE);
  const uint32_t engine = pci_->reg_read32(reg(gc_->SDMA0_ENGINE_CNTL));
  w(gc_->SDMA0_ENGINE_CNTL, engine & ~gc_->sdma_engine_run_clear);
  w(gc_->SDMA0_QUEUE0_RB_CNTL, rb_cntl | SDMA_RB_CNTL_RB_ENABLE);
  const uint32_t ib_cntl = pci_->reg_read32(reg(gc_->SDMA0_QUEUE0_IB_CNTL));
  w(gc_->SDMA0_QUEUE0_IB_CNTL, ib_cntl | SDMA_IB_CNTL_IB_ENABLE);
}

Allocation Device::alloc_vram(uint64_t size, uint64_t align, bool executable) {
  size = round_up(size ? size : 1, kPage);
  align = std::max<uint64_t>(align, size >= kHuge ? uint64_t(kHuge) : uint64_t(kPage));
  auto phys = vram_.allocate(size, align);
  if (!phys) throw DeviceError("out of VRAM: " + std::to_string(size) + " bytes requested, " +
                               std::to_string(vram_.largest_free()) + " largest free block");
  auto va = VaSpace::process().allocate(size, align);
  if (!va) {
    vram_.free(*phys, size);
    throw DeviceError("out of GPU virtual address space");
  }
  uint32_t flags = PageTable::kRead | PageTable::kWrite | (executable ? uint32_t(PageTable::kExecute) : 0u);
  pt_->map(*va, *phys, size, flags);
  invalidate_gpu_tlb();
  ++live_;
  live_bytes_ += size;
  const Allocation a{*va, size, pci_->vram() + *phys, MemoryKind::Vram, *phys};
  track(a);
  return a;
}

Allocation Device::alloc_system(uint64_t size) {
  size = round_up(size ? size : 1, kPage);
  void* host = nullptr;
  if (posix_memalign(&host, kPage, size) != 0) throw DeviceError("out of host memory");
  std::memset(host, 0, size);
  std::vector<uint64_t> pages;
  try {
    pages = pci_->dma_map(host, size);
  } catch (const std::exception& e) {
    std::free(host);
    throw DeviceError(std::string("DMA map failed: ") + e.what());
  }
  auto va = VaSpace::process().allocate(size, kPage);
  if (!va) {
    pci_->dma_unmap(host, size);
    std::free(host);
    throw DeviceError("out of GPU virtual address space");
  }
  pt_->map_pages(*va, pages, PageTable::kRead | PageTable::kWrite | PageTable::kSystem | PageTable::kSnooped);
  invalidate_gpu_tlb();
  ++live_;
  live_bytes_ += size;
  const Allocation a{*va, size, static_cast<uint8_t*>(host), MemoryKind::System, pages.front()};
  track(a);
  return a;
}

void Device::free(const Allocation& a) {
  if (!a) return;
  untrack(a.va);
  pt_->unmap(a.va, a.size);
  invalidate_gpu_tlb(); // before the memory or its address can be handed out again
  VaSpace::process().free(a.va, a.size);
  if (a.kind == MemoryKind::Vram) {
    vram_.free(a.phys, a.size);
  } else {
    pci_->dma_unmap(a.cpu, a.size);
    std::free(a.cpu);
  }
  --live_;
  live_bytes_ -= a.size;
}

void Device::map_peer(const Allocation& remote) {
  if (remote.kind != MemoryKind::Vram || !remote.cpu)
    throw DeviceError("peer mapping needs another card's VRAM allocation");
  for (const Allocation& p : peers_)
    if (p.va == remote.va) throw DeviceError("that allocation is already mapped here");
  // The remote card's VRAM is its BAR0 aperture; the IOMMU makes it reachable from this card.
  std::vector<uint64_t> pages;
  try {
    pages = pci_->dma_map(remote.cpu, remote.size);
  } catch (const std::exception& e) {
    throw DeviceError(std::string("peer mapping failed: ") + e.what());
  }
  pt_->map_pages(remote.va, pages, PageTable::kRead | PageTable::kWrite | PageTable::kSystem);
  invalidate_gpu_tlb();
  Allocation here = remote;
  here.kind = MemoryKind::System;
  here.phys = pages.front();
  peers_.push_back(here);
  track(here);
}

void Device::unmap_peer(const Allocation& remote) {
  auto it = std::find_if(peers_.begin(), peers_.end(), [&](const Allocation& p) { return p.va == remote.va; });
  if (it == peers_.end()) return;
  untrack(it->va);
  pt_->unmap(it->va, it->size);
  invalidate_gpu_tlb();
  pci_->dma_unmap(it->cpu, it->size);
  peers_.erase(it);
}

void Device::invalidate_gpu_tlb() {
  // One request in flight on each engine at a time. The page-table stores reach memory
  // before the request does (WC buffers, then the HDP): flushed under the lock, so two threads'
  // flushes never both precede the first request and leave the second request unflushed.
  std::lock_guard lock(tlb_mutex_);
  flush_hdp();
  for (const VmHub& hub : hubs_)
    pci_->reg_write32(hub.reg(hub.regs.INVALIDATE_ENG17_REQ), vm_invalidate_req(1u << 0, 0));
  const auto start = std::chrono::steady_clock::now();
  for (const VmHub& hub : hubs_) {
    while (!(pci_->reg_read32(hub.reg(hub.regs.INVALIDATE_ENG17_ACK)) & 1u)) {
      if (std::chrono::steady_clock::now() - start > std::chrono::milliseconds(100))
        throw DeviceError(std::string("GPU TLB invalidation was not acknowledged by ") +
                          hub.regs.name + " (INVALIDATE_ENG17_ACK)");
    }
  }
}

uint64_t Device::signal_va(Engine e) const {
  return signals_.va + 8 * (e == Engine::Compute ? kComputeSignal : kSdmaSignal);
}

uint64_t Device::completed(Engine e) const {
  return slot_value(e == Engine::Compute ? kComputeSignal : kSdmaSignal);
}

// Slots of the signal page are written by the GPU while the CPU polls them.
uint64_t Device::slot_value(unsigned slot) const {
  return std::atomic_ref<uint64_t>(reinterpret_cast<uint64_t*>(signals_.cpu)[slot])
      .load(std::memory_order_acquire);
}

void Device::set_slot(unsigned slot, uint64_t value) {
  std::atomic_ref<uint64_t>(reinterpret_cast<uint64_t*>(signals_.cpu)[slot])
      .store(value, std::memory_order_release);
}

template <class Write> uint64_t Device::submit(Queue& q, Engine e, Write&& write) {
  std::lock_guard lock(q.mutex);
  // The value is handed out only once its packets are on the ring: a submission that fails
  // (too large for the ring, a hung queue) must not leave a value nothing will ever signal.
  const uint64_t value = q.issued + 1;
  auto start = std::chrono::steady_clock::now();
  while (!write(value)) {
    // Ring full: wait for the engine to consume.
    pci_->wait_interrupt(std::chrono::microseconds(200));
    if (std::chrono::steady_clock::now() - start > hang_timeout_)
      throw DeviceError(std::string(e == Engine::Compute ? "compute" : "SDMA") +
                        " ring stays full: the queue is hung");
  }
  q.issued = value;
  return value;
}

uint64_t Device::submit_compute(const Pm4Builder& packets) {
  return submit(compute_, Engine::Compute, [&](uint64_t value) {
    Pm4Builder tail;
    tail.release_mem_signal(signal_va(Engine::Compute), value, true);
    std::vector<uint32_t> all = packets.words();
    all.insert(all.end(), tail.words().begin(), tail.words().end());
    Ring& ring = compute_.ring;
    auto read = [&] {
      uint64_t report = slot_value(kComputeRptr) & 0xffffffff;
      uint64_t w = ring.wptr(), size = ring.dwords();
      return w - ((w % size - report + size) % size);
    };
    if (!ring.write(all, read)) return false;
    // The write pointer goes to the queue's poll address too, then to the doorbell, as
    // amdgpu's set_wptr does for its compute and SDMA rings: where the firmware reads it from
    // memory (a queue it restores, a poll) it finds the same value.
    set_slot(kComputeWptrPoll, ring.wptr());
    flush_hdp();
    pci_->doorbell_write64(kMecDoorbell, ring.wptr());
    return true;
  });
}

uint64_t Device::submit_sdma(const SdmaBuilder& packets) {
  const std::vector<uint32_t>& words = packets.words();
  const std::vector<size_t>& starts = packets.packet_starts();
  size_t begin = 0;
  uint64_t last = 0;
  do {
    size_t end = words.size();
    if (end - begin > kMaxSubmissionDwords) {
      // The last packet that starts within reach ends this piece.
      auto next = std::upper_bound(starts.begin(), starts.end(), begin + kMaxSubmissionDwords);
      if (next != starts.begin() && *std::prev(next) > begin) end = *std::prev(next);
    }
    last = submit_sdma_words(std::span(words).subspan(begin, end - begin));
    begin = end;
  } while (begin < words.size());
  return last;
}

uint64_t Device::submit_sdma_words(std::span<const uint32_t> packets) {
  return submit(sdma_, Engine::Sdma, [&](uint64_t value) {
    SdmaBuilder tail;
    const uint64_t sig = signal_va(Engine::Sdma);
    tail.fence(sig + 4, uint32_t(value >> 32));
    tail.fence(sig, uint32_t(value));
    tail.trap();
    std::vector<uint32_t> all(packets.begin(), packets.end());
    all.insert(all.end(), tail.words().begin(), tail.words().end());
    Ring& ring = sdma_.ring;
    auto read = [&] {
      uint64_t report = slot_value(kSdmaRptr) / 4;
      uint64_t w = ring.wptr(), size = ring.dwords();
      return w - ((w - report) % size);
    };
    if (!ring.write(all, read)) return false;
    set_slot(kSdmaWptrPoll, ring.wptr() * 4); // as for compute; SDMA pointers are in bytes
    flush_hdp();
    pci_->doorbell_write64(kSdmaDoorbell, ring.wptr() * 4);
    return true;
  });
}

void Device::service_interrupts() {
  for (const hw::ih::IvEntry& iv : ih_.drain()) {
    std::string msg;
    std::optional<WaveFault> wave;
    if (iv.client_id == hw::ih::CLIENTID_GFX && iv.source_id == hw::ih::SRCID_UTCL2_FAULT) {
      const uint64_t page = iv.src_data[0] | (uint64_t(iv.src_data[1] & 0xf) << 32);
      const uint32_t status = pci_->reg_read32(reg(gc_->GCVM_L2_PROTECTION_FAULT_STATUS));
      char buf[160];
      std::snprintf(buf, sizeof buf, "GPU page fault (%s) at address 0x%llx, GCVM_L2_PROTECTION_FAULT_STATUS 0x%08x",
                    (iv.ring_id & hw::ih::FAULT_RING_PROT_WRITE) ? "write" : "read",
                    static_cast<unsigned long long>(page << 12), status);
      msg = buf;
      rearm_vm_fault_latch();
    } else if (iv.source_id == hw::ih::SRCID_SQ_INTERRUPT_MSG) {
      // kfd_int_process_v11.c: only ERROR words are faults (AUTO and INST ones are the SQ's
      // own events and a shader's s_sendmsg).
      const sq::InterruptWord word = sq::decode(iv.src_data[0], iv.src_data[1]);
      if (word.encoding != sq::ENCODING_ERROR) continue;
      wave = read_wave_fault(word);
      msg = wave ? describe(*wave)
                 : "shader exception: a wave executed an illegal or unsupported instruction";
      if (debug_level() >= 1)
        std::fprintf(stderr,
                     "amcl am %s: SQ error interrupt (type %u, wave %u simd %u wgp %u sa %u): "
                     "%s%s\n",
                     info_.pci_address.c_str(), word.error_type, word.wave_id, word.simd_id,
                     word.wgp_id, word.sh_id, msg.c_str(), wave ? "" : " (no halted wave found)");
    } else if (iv.source_id == hw::ih::SRCID_CP_BAD_OPCODE) {
      msg = "compute queue stopped on a packet it cannot execute";
      compute_stopped_ = true;
    } else if (iv.client_id == hw::ih::CLIENTID_GFX &&
               iv.source_id == hw::ih::SRCID_SDMA_QUEUE_HANG) {
      msg = "SDMA queue stopped on a packet it cannot execute";
      sdma_stopped_ = true;
    }
    if (msg.empty()) continue; // end-of-pipe and SDMA trap entries only wake waiters
    std::lock_guard lock(fault_mutex_);
    faults_.push_back({msg, wave});
  }
}

uint32_t Device::read_wave_register(uint32_t wave_id, uint32_t index) {
  pci_->reg_write32(reg(sq_regs_->SQ_IND_INDEX), sq::sq_ind_index(wave_id, index));
  return pci_->reg_read32(reg(sq_regs_->SQ_IND_DATA));
}

// gfx_v11_0_read_wave_data's reads, after select_se_sh. The word names the shader array, WGP,
// SIMD and wave but not the shader engine: each engine is asked in turn, and the wave is the
// one whose HW_ID1 matches the word and whose exception register is set.
std::optional<WaveFault> Device::read_wave_fault(const sq::InterruptWord& word) {
  if (!sq_regs_) return std::nullopt;
  const sq::SqRegs& s = *sq_regs_;
  std::optional<WaveFault> found;
  {
    std::lock_guard lock(sq_mutex_);
    for (uint32_t se = 0; se < sq::kMaxShaderEngines && !found; ++se) {
      pci_->reg_write32(
          reg(s.GRBM_GFX_INDEX),
          sq::grbm_gfx_index(se, word.sh_id, sq::wave_instance(word.wgp_id, word.simd_id)));
      const uint32_t hw_id1 = read_wave_register(word.wave_id, s.ix_hw_id1);
      const uint32_t exception = read_wave_register(word.wave_id, s.ix_exception);
      const sq::HwId1 id = sq::decode_hw_id1(hw_id1);
      if (!exception || id.se_id != se || id.sa_id != word.sh_id || id.wgp_id != word.wgp_id ||
          id.simd_id != word.simd_id || id.wave_id != word.wave_id)
        continue;
      WaveFault f;
      f.kind = (exception & s.illegal_inst) ? WaveFault::Kind::IllegalInstruction
                                            : WaveFault::Kind::Exception;
      f.exception = exception;
      f.exception_name = s.exception_name;
      f.hw_id1 = hw_id1;
      f.pc = read_wave_register(word.wave_id, s.ix_pc_lo) |
             uint64_t(read_wave_register(word.wave_id, s.ix_pc_hi) & sq::SQ_WAVE_PC_HI_MASK) << 32;
      found = f;
    }
    pci_->reg_write32(reg(s.GRBM_GFX_INDEX), sq::kGrbmGfxIndexBroadcast);
  }
  if (found) found->words = read_code(found->pc, found->dwords);
  return found;
}

unsigned Device::read_code(uint64_t va, uint32_t out[3]) {
  std::lock_guard lock(mapped_mutex_);
  unsigned n = 0;
  for (; n < 3; ++n) {
    const uint64_t at = va + 4 * n;
    auto it = mapped_.upper_bound(at);
    if (it == mapped_.begin()) break;
    const Allocation& a = std::prev(it)->second;
    if (at + 4 > a.va + a.size || !a.cpu) break;
    std::memcpy(&out[n], a.cpu + (at - a.va), 4);
  }
  return n;
}

void Device::track(const Allocation& a) {
  std::lock_guard lock(mapped_mutex_);
  mapped_[a.va] = a;
}

void Device::untrack(uint64_t va) {
  std::lock_guard lock(mapped_mutex_);
  mapped_.erase(va);
}

void Device::discard_faults() {
  service_interrupts();
  std::lock_guard lock(fault_mutex_);
  faults_.clear();
}

void Device::reset_queue(Engine e) {
  Queue& q = queue(e);
  std::lock_guard lock(q.mutex);
  if (e == Engine::Compute) {
    dequeue_compute_or_throw();
    pci_->reg_write32(reg(gc_->GRBM_GFX_CNTL), 0);
    discard_faults(); // whatever the killed work reported belongs to it, not to later work
    q.ring.reset();
    set_slot(kComputeRptr, 0);
    set_slot(kComputeWptrPoll, 0);
    program_compute_hqd();
    compute_stopped_ = false;
  } else {
    pci_->reg_write32(reg(gc_->SDMA0_QUEUE0_RB_CNTL), 0);
    discard_faults();
    q.ring.reset();
    set_slot(kSdmaRptr, 0);
    set_slot(kSdmaWptrPoll, 0);
    program_sdma_queue();
    sdma_stopped_ = false;
  }
  // Work submitted before the reset is gone: complete its timeline so no waiter blocks on it,
  // and remember which values never ran so their waiters learn it.
  const uint64_t done = completed(e);
  if (q.issued > done) q.lost.push_back({done + 1, q.issued});
  set_slot(e == Engine::Compute ? kComputeSignal : kSdmaSignal, q.issued);
  ++resets_;
}

uint64_t Device::submitted(Engine e) {
  Queue& q = queue(e);
  std::lock_guard lock(q.mutex);
  return q.issued;
}

void Device::wait(Engine e, uint64_t value) {
  const char* name = e == Engine::Compute ? "compute queue" : "SDMA queue";
  auto start = std::chrono::steady_clock::now();
  for (;;) {
    service_interrupts();
    if (completed(e) >= value) break;
    if ((e == Engine::Compute ? compute_stopped_ : sdma_stopped_).load()) {
      reset_queue(e);
      throw DeviceError(std::string(name) +
                        " stopped on a packet it cannot execute; the queue has been reset");
    }
    pci_->wait_interrupt(std::chrono::microseconds(500));
    if (std::chrono::steady_clock::now() - start > hang_timeout_) {
      reset_queue(e);
      throw DeviceError(std::string(name) + " did not reach signal value " + std::to_string(value) +
                        " within " + std::to_string(hang_timeout_.count()) +
                        " ms: the queue was hung and has been reset");
    }
  }
  service_interrupts();
  {
    Queue& q = queue(e);
    std::lock_guard lock(q.mutex);
    for (const auto& [first, last] : q.lost)
      if (value >= first && value <= last)
        throw DeviceError(std::string(name) + " was reset (after a hang or a packet it could not execute) "
                                              "before this work ran");
  }
  std::vector<Fault> faults;
  {
    std::lock_guard lock(fault_mutex_);
    faults.swap(faults_);
  }
  if (!faults.empty()) {
    std::string msg = faults.front().message;
    if (faults.size() > 1) msg += " (and " + std::to_string(faults.size() - 1) + " more)";
    throw DeviceError(msg, faults.front().wave);
  }
}

} // namespace am
