#include "device.h"

#include "firmware.h"
#include "firmware_set.h"
#include "hw/ih_v6.h"
#include "hw/pci_ids.h"
#include "pci_config_state.h"

#include <cstdlib>
#include <thread>

namespace am {
namespace {

using namespace hw;

// Written to SCRATCH_REG7 once AM has booted the card (the fast re-init marker).
constexpr uint32_t kAmBootedMagic = 0xA3C1B007;

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
    : pci_(std::move(pci)), nbio_(*pci_), gmc_(*pci_, nbio_), memory_(*pci_, gmc_), ih_(*pci_),
      psp_(*pci_, nbio_), smu_(*pci_), gfx_(*pci_, nbio_), sdma_(*pci_, nbio_),
      hang_timeout_(hang_timeout_from_env()) {
  boot();
}

// tinygrad's AMDev.fini: the engines stop fetching before their rings and page tables go away.
Device::~Device() {
  sdma_.fini_hw();
  gfx_.fini_hw();
  ih_.fini_hw();
  memory_.fini();
}

const char* to_string(BootState s) {
  switch (s) {
  case BootState::Fresh:
    return "full boot";
  case BootState::ResetThenFull:
    return "mode1 reset (firmware was running), then a full boot";
  case BootState::FastReinit:
    return "fast re-init (amcl had booted it before)";
  }
  return "?";
}

// DESIGN.md's boot sequence, in tinygrad's AMDev order: identify and discover, pick the boot
// state, then SOC, GMC, IH, PSP and SMU (skipped by the fast re-init), GFX and SDMA.
void Device::boot() {
  discover();
  // Which of the three boot states: AM's marker in SCRATCH_REG7 means only GFX and SDMA need
  // re-initialising (unless AM_RESET=1); a running sOS without it means another driver booted
  // the card, which a mode1 reset returns to the power-on state before the full boot.
  const char* force = std::getenv("AM_RESET");
  const GcRegisters& gc = gfx_.gc();
  const bool am_booted = pci_->reg_read32(gc(gc->SCRATCH_REG7)) == kAmBootedMagic;
  if (am_booted && !(force && std::string(force) == "1")) {
    boot_state_ = BootState::FastReinit;
  } else if (psp_.sos_alive()) {
    boot_state_ = BootState::ResetThenFull;
    mode1_reset();
  }
  try {
    pci_->enable_bus_master(); // after any reset, which clears it
  } catch (const std::runtime_error& e) {
    throw DeviceError(info_.pci_address + ": " + e.what());
  }
  nbio_.init_hw();
  gmc_.init_hw(memory_.vram());
  signals_.init(memory_.alloc_vram(4096));
  add_interrupt_sources();
  ih_.init_hw(memory_, signals_);
  gmc_.rearm_fault_latch(); // so the first fault of this session is recorded
  uint64_t mec_entry = 0;   // where the MEC firmware is linked (its file's ucode_start_addr)
  if (boot_state_ != BootState::FastReinit) {
    const FirmwareSet fw = info_.emulated ? synthetic_firmware_set(discovery_)
                                          : load_firmware_set(discovery_, firmware_dir());
    firmware_source_ = fw.source;
    mec_entry = fw.mec_entry;
    psp_.init_hw(fw, memory_, gmc_.fb_base());
    smu_.init_hw(memory_, gmc_.fb_base());
  } else { // the firmware runs; only where the MEC's is linked is needed
    mec_entry = info_.emulated ? synthetic_mec_entry(discovery_)
                               : load_mec_entry(discovery_, firmware_dir());
  }
  gfx_.init_hw(memory_, signals_, mec_entry);
  sdma_.init_hw(memory_, signals_);
  calibrate_clock();
  pci_->reg_write32(gc(gc->SCRATCH_REG7), kAmBootedMagic);
}

// The PCI id names the product; the IP discovery binary at the top of VRAM says which blocks
// the card has, their versions and where their registers are. Each block takes its register
// table by the exact version listed, and refuses one amcl has not read a table for by name,
// before the first register write.
void Device::discover() {
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
  discovery_ = read_ip_discovery(*pci_);
  gfx_.init_sw(discovery_);
  ih_.init_sw(discovery_);
  gmc_.init_sw(discovery_, gfx_.gc());
  nbio_.init_sw(discovery_);
  psp_.init_sw(discovery_);
  smu_.init_sw(discovery_);
  sdma_.init_sw(discovery_, gfx_.gc());
  info_.gfx = gfx_.target(); // the silicon's own word wins over the PCI id table
  if (info_.emulated) info_.name += " (amcl emulated)";
}

// amdgpu_device_mode1_reset with smu_v13_0_0_mode1_reset / smu_v14_0_2_mode1_reset: the SMU
// resets the whole chip except its memory. amdgpu saves the function's config space, turns bus
// mastering off, asks the SMU, leaves the card alone (no register access: the chip is not there
// while it resets), then restores config space (the BARs' addresses first) before touching the
// card again; the PSP's bootloader is back, waiting, when the reset is done.
void Device::mode1_reset() {
  if (!smu_.responding())
    throw DeviceError(info_.pci_address +
                      ": the card was initialised by another driver and its SMU "
                      "does not answer, so it cannot be reset; power-cycle the machine");
  const PciConfigHeader saved = save_config_header(*pci_);
  try {
    pci_->config_write32(kPciCommand, saved.dwords[1] & 0xffffu & ~uint32_t(kPciCommandBusMaster));
    smu_.mode1_reset();
    restore_config_header(*pci_, saved);
    pci_->after_config_restore();
  } catch (const std::runtime_error& e) { // config space not writable (not root, vfio error)
    throw DeviceError(info_.pci_address + ": mode1 reset: " + e.what());
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(3);
  while (psp_.sos_alive() || !psp_.bootloader_ready())
    if (std::chrono::steady_clock::now() > deadline)
      throw DeviceError(info_.pci_address + ": mode1 reset did not complete");
}

// Each block handles the interrupt sources it owns, as its sw_init registers them with
// amdgpu_irq_add_id (gmc_v11_0, gfx_v11_0 and amdkfd's SQ handler, sdma_v6_0). End-of-pipe and
// SDMA trap entries have no handler: they only wake the waiters.
void Device::add_interrupt_sources() {
  using namespace hw::ih;
  ih_.add_source(CLIENTID_GFX, SRCID_UTCL2_FAULT,
                 [this](const IvEntry& iv) { return gmc_.on_vm_fault(iv); });
  ih_.add_source(Ih::kAnyClient, SRCID_SQ_INTERRUPT_MSG,
                 [this](const IvEntry& iv) { return gfx_.on_sq_interrupt(iv); });
  ih_.add_source(Ih::kAnyClient, SRCID_CP_BAD_OPCODE,
                 [this](const IvEntry& iv) { return gfx_.on_bad_opcode(iv); });
  ih_.add_source(CLIENTID_GFX, SRCID_SDMA_QUEUE_HANG,
                 [this](const IvEntry& iv) { return sdma_.on_queue_hang(iv); });
}

// One GPU clock sample between two host clock reads: the offset that puts GPU timestamps on
// the host's steady clock (the GPU's 100 MHz reference and the host clock do not drift apart
// measurably over a process's life).
void Device::calibrate_clock() {
  Pm4Builder p;
  p.copy_data_to_mem(hw::pm4::COPY_DATA_TIMESTAMP, 0, signals_.va(SignalPage::kClockSample), true);
  const auto before = std::chrono::steady_clock::now();
  wait(Engine::Compute, submit_compute(p));
  const auto after = std::chrono::steady_clock::now();
  const int64_t host_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                              (before + (after - before) / 2).time_since_epoch())
                              .count();
  clock_offset_ns_ = host_ns - int64_t(gpu_ns(signals_.load(SignalPage::kClockSample)));
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

Allocation Device::alloc_vram(uint64_t size, uint64_t align, bool executable) {
  return memory_.alloc_vram(size, align, executable);
}

Allocation Device::alloc_system(uint64_t size) {
  return memory_.alloc_system(size);
}

void Device::free(const Allocation& a) {
  memory_.free(a);
}

void Device::map_peer(const Allocation& remote) {
  memory_.map_peer(remote);
}

void Device::unmap_peer(const Allocation& remote) {
  memory_.unmap_peer(remote);
}

void Device::map_host(void* host, uint64_t size) {
  memory_.map_host(host, size);
}

void Device::unmap_host(void* host, uint64_t size) {
  memory_.unmap_host(host, size);
}

} // namespace am
