#include "device.h"

#include "boot_probe.h"
#include "debug_log.h"
#include "firmware.h"
#include "firmware_set.h"
#include "hw/ih_v6.h"
#include "hw/pci_ids.h"
#include "pci_config_state.h"
#include "register_log_pci.h"
#include "trace_pci.h"
#include "vram_access.h"

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <thread>

namespace am {
namespace {

using namespace hw;

// 60 s on a real card: amdgpu's bare-metal default for compute jobs (amdgpu_drv.c,
// lockup_timeout, 2021-2025; KFD's compute queues have none). A long kernel is not a hang, and
// the emulated card runs kernels three to four orders of magnitude slower than a real one: the
// CTS's min_max_constant_buffer_size (62 s) and samplerlessReads' large images ran past 60 s
// on a busy 2-core machine. It gets 10 minutes.
constexpr long kDefaultHangTimeoutMs = 60000, kEmulatedHangTimeoutMs = 600000;
// How long the boot's own submissions (the clock calibration) may make no progress.
constexpr std::chrono::milliseconds kBootWaitLimit{10000};

std::chrono::milliseconds hang_timeout_from_env(bool emulated) {
  const long fallback = emulated ? kEmulatedHangTimeoutMs : kDefaultHangTimeoutMs;
  const char* v = std::getenv("AMCL_HANG_TIMEOUT_MS");
  long ms = v ? std::atol(v) : fallback;
  return std::chrono::milliseconds(ms > 0 ? ms : fallback);
}

int64_t steady_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// printf into a std::string, for the boot phases' results.
__attribute__((format(printf, 1, 2))) std::string printf_string(const char* fmt, ...) {
  va_list args;
  va_start(args, fmt);
  char buf[1024];
  std::vsnprintf(buf, sizeof buf, fmt, args);
  va_end(args);
  return buf;
}

double milliseconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

uint64_t nanoseconds_since(std::chrono::steady_clock::time_point start) {
  return uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(
                      std::chrono::steady_clock::now() - start)
                      .count());
}

} // namespace

Device::Device(std::shared_ptr<Pci> pci)
    : pci_(with_trace(with_register_log(std::move(pci)))), nbio_(*pci_), gmc_(*pci_, nbio_),
      memory_(*pci_, gmc_), ih_(*pci_), psp_(*pci_, nbio_), smu_(*pci_), gfx_(*pci_, nbio_),
      sdma_(*pci_, nbio_), interrupts_(*pci_),
      hang_timeout_(hang_timeout_from_env(pci_->emulated())) {
  boot();
}

// tinygrad's AMDev.fini: the engines stop fetching before their rings and page tables go away.
Device::~Device() {
  const auto start = std::chrono::steady_clock::now();
  trace_phase(*pci_, trace::kPhaseBegin, "teardown", 0);
  sdma_.fini_hw();
  gfx_.fini_hw();
  ih_.fini_hw();
  memory_.fini();
  trace_phase(*pci_, trace::kPhaseEnd, "teardown", nanoseconds_since(start));
  AM_LOG(kDebugBoot, *pci_, "teardown: queues and interrupts stopped, memory released (%.1f ms)",
         milliseconds_since(start));
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
// state, then SOC, GMC, IH, PSP and SMU (skipped by the fast re-init), GFX and SDMA. Each phase
// says what it found at AM_DEBUG=1; one that fails says so at any level, naming itself.
void Device::boot() {
  const auto start = std::chrono::steady_clock::now();
  boot_phase("card", [&] {
    discover();
    return printf_string(
        "%s, %s, PCI %04x:%04x rev 0x%02x, VRAM %llu MiB (%llu MiB through BAR0), %zu IP blocks",
        info_.name.c_str(), info_.gfx.c_str(), info_.vendor_id, info_.device_id, info_.revision,
        static_cast<unsigned long long>(info_.vram_size >> 20),
        static_cast<unsigned long long>(info_.visible_vram_size >> 20), discovery_.blocks.size());
  });
  // Which of the three boot states: AM's marker in SCRATCH_REG7 means only GFX and SDMA need
  // re-initialising (unless AM_RESET=1); a running sOS without it means another driver booted
  // the card, which a mode1 reset returns to the power-on state before the full boot.
  boot_phase("boot state", [&] {
    const char* force = std::getenv("AM_RESET");
    const bool forced = force && std::string(force) == "1";
    const GcRegisters& gc = gfx_.gc();
    const bool am_booted = pci_->reg_read32(gc(gc->SCRATCH_REG7)) == kAmBootedMagic;
    const bool sos_alive = psp_.sos_alive();
    if (am_booted && !forced)
      boot_state_ = BootState::FastReinit;
    else if (sos_alive)
      boot_state_ = BootState::ResetThenFull;
    const char* found = boot_state_found(am_booted, sos_alive);
    return printf_string("%s%s: %s", found, forced ? ", AM_RESET=1" : "", to_string(boot_state_));
  });
  boot_phase("reset", [&] {
    if (boot_state_ != BootState::ResetThenFull) return std::string("none needed");
    mode1_reset();
    return std::string("mode1 reset done");
  });
  boot_phase("SOC", [&] {
    try {
      pci_->enable_bus_master(); // after any reset, which clears it
    } catch (const std::runtime_error& e) {
      throw DeviceError(info_.pci_address + ": " + e.what());
    }
    nbio_.init_hw();
    return std::string("bus master on, doorbell aperture open, HDP flush remapped");
  });
  boot_phase("GMC", [&] {
    gmc_.init_hw(memory_.vram());
    signals_.init(memory_.alloc_vram(4096));
    return printf_string("VMID 0 page tables up, VA [0, 0x%llx), VRAM %llu MiB",
                         static_cast<unsigned long long>(hw::gmc::kVaSpan),
                         static_cast<unsigned long long>(info_.vram_size >> 20));
  });
  boot_phase("IH", [&] {
    add_interrupt_sources();
    ih_.init_hw(memory_, signals_);
    gmc_.rearm_fault_latch(); // so the first fault of this session is recorded
    return std::string("interrupt ring up");
  });
  uint64_t mec_entry = 0; // where the MEC firmware is linked (its file's ucode_start_addr)
  if (boot_state_ != BootState::FastReinit) {
    FirmwareSet fw;
    boot_phase("firmware", [&] {
      fw = info_.emulated ? synthetic_firmware_set(discovery_)
                          : load_firmware_set(discovery_, firmware_dir());
      std::string versions;
      for (const FirmwareFile& f : fw.files) {
        AM_LOG(kDebugBlocks, *pci_, "firmware: %s, %llu bytes, version 0x%x", f.name.c_str(),
               static_cast<unsigned long long>(f.bytes), f.version);
        trace_firmware(*pci_, f.name, f.bytes, f.version);
        versions +=
            printf_string("%s%s 0x%x", versions.empty() ? "" : ", ", f.name.c_str(), f.version);
      }
      return printf_string("from %s: %s", fw.source.c_str(), versions.c_str());
    });
    firmware_source_ = fw.source;
    mec_entry = fw.mec_entry;
    boot_phase("PSP", [&] {
      psp_.init_hw(fw, memory_, gmc_.fb_base());
      return printf_string("sOS up, %zu images loaded, RLC autoload started", fw.gfx.size() + 1);
    });
    boot_phase("SMU", [&] {
      smu_.init_hw(memory_, gmc_.fb_base());
      return printf_string("firmware version 0x%x, features enabled", smu_.version());
    });
  } else { // the firmware runs; only where the MEC's is linked is needed
    boot_phase("firmware", [&] {
      mec_entry = info_.emulated ? synthetic_mec_entry(discovery_)
                                 : load_mec_entry(discovery_, firmware_dir());
      return std::string("already running (fast re-init): none loaded");
    });
  }
  boot_phase("GFX", [&] {
    // gfx_v11_0_hw_init: gfxhub_enable after wait_for_rlc_autoload_complete, which resets GC.
    gfx_.wait_for_rlc_autoload();
    gmc_.init_gfxhub();
    gfx_.init_hw(memory_, signals_, mec_entry);
    return std::string("GFXHUB up, MEC started, compute queue up (ME 1 pipe 0 queue 0)");
  });
  boot_phase("SDMA", [&] {
    sdma_.init_hw(memory_, signals_);
    return printf_string("SDMA %u engine 0 queue 0 up", sdma_.major());
  });
  boot_phase("clock", [&] {
    calibrate_clock();
    return printf_string("the compute queue ran its first packets; GPU clock on the host's "
                         "within %lld ns",
                         static_cast<long long>(clock_uncertainty_ns_));
  });
  pci_->reg_write32(gfx_.gc()(gfx_.gc()->SCRATCH_REG7), kAmBootedMagic);
  AM_LOG(kDebugBoot, *pci_, "booted (%s) in %.1f ms", to_string(boot_state_),
         milliseconds_since(start));
}

template <class Step> void Device::boot_phase(const char* name, Step&& step) {
  const auto start = std::chrono::steady_clock::now();
  trace_phase(*pci_, trace::kPhaseBegin, name, 0);
  try {
    const std::string result = step();
    AM_LOG(kDebugBoot, *pci_, "%s: %s (%.1f ms)", name, result.c_str(), milliseconds_since(start));
    trace_phase(*pci_, trace::kPhaseEnd, name, nanoseconds_since(start));
  } catch (const std::exception& e) {
    debug_print(pci_->address(), "boot failed in %s after %.1f ms: %s", name,
                milliseconds_since(start), e.what());
    trace_phase(*pci_, trace::kPhaseFailed, name, nanoseconds_since(start), e.what());
    throw;
  }
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
  if (info_.vendor_id != kVendorAmd)
    throw DeviceError(info_.pci_address + ": not an AMD device (vendor " +
                      std::to_string(info_.vendor_id) + ")");
  for (const PciPart& p : kKnownParts)
    if (p.device == info_.device_id) {
      info_.gfx = p.gfx, info_.name = p.marketing;
      info_.compute_units = p.compute_units, info_.max_clock_mhz = p.max_clock_mhz;
      info_.shader_engines = p.shader_engines;
      info_.vram_bus_bits = p.vram_bus_bits;
    }
  if (info_.gfx.empty()) throw DeviceError(info_.pci_address + ": unknown RDNA device id");
  // amdgpu_discovery_read_binary_from_mem: the VRAM size first, then the binary at its top.
  info_.vram_size = read_vram_size(*pci_);
  info_.visible_vram_size = std::min(info_.vram_size, pci_->bar0_size());
  discovery_ = read_ip_discovery(*pci_, info_.vram_size);
  memory_.init_sw(info_.vram_size);
  gfx_.init_sw(discovery_);
  ih_.init_sw(discovery_);
  gmc_.init_sw(discovery_, gfx_.gc());
  nbio_.init_sw(discovery_);
  psp_.init_sw(discovery_);
  smu_.init_sw(discovery_);
  sdma_.init_sw(discovery_, gfx_.gc());
  if (auto* log = find_layer<RegisterLogPci>(*pci_)) // AM_DEBUG=4
    log->set_names(register_names(discovery_, gfx_.gc()));
  trace_ip_discovery(*pci_, discovery_);
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

// The offset that puts GPU timestamps on the host's steady clock (the GPU's 100 MHz reference
// and the host clock do not drift apart measurably over a process's life). Each GPU clock sample
// lies between two host clock reads, which bound the offset from both sides; the bounds of
// several samples are intersected and the offset is the middle of what is left. One sample's
// midpoint was off by microseconds (a waking MEC or waiter), which put a short kernel's START
// before its SUBMIT.
void Device::calibrate_clock() {
  // 16 samples, and up to 64 while the bounds are more than 2 µs apart (a loaded host).
  constexpr int kSamples = 16, kMaxSamples = 64;
  constexpr int64_t kWantedWidthNs = 2000;
  int64_t lowest = INT64_MIN, highest = INT64_MAX; // the offset's bounds
  for (int i = 0; i < kMaxSamples && (i < kSamples || highest - lowest > kWantedWidthNs); ++i) {
    Pm4Builder p;
    p.copy_data_to_mem(hw::pm4::COPY_DATA_TIMESTAMP, 0, signals_.va(SignalPage::kClockSample),
                       true);
    const int64_t before = steady_ns();
    // Not the user's hang limit: a test's 200 ms failed the boot when a loaded host left the
    // emulated MEC unscheduled that long.
    wait(Engine::Compute, submit_compute(p), std::max(hang_timeout_, kBootWaitLimit));
    const int64_t after = steady_ns();
    const int64_t gpu = int64_t(gpu_ns(signals_.load(SignalPage::kClockSample)));
    // The sample is truncated to a tick: the GPU's moment was up to a tick later.
    lowest = std::max(lowest, before - gpu - int64_t(1'000'000'000 / gpu_clock_hz()));
    highest = std::min(highest, after - gpu);
  }
  if (lowest > highest) // a host or GPU clock that stepped: keep the last sample's bounds
    lowest = highest;
  clock_offset_ns_ = lowest + (highest - lowest) / 2;
  clock_uncertainty_ns_ = (highest - lowest) / 2;
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

Allocation Device::alloc_vram_gpu(uint64_t size, uint64_t align) {
  return memory_.alloc_vram_gpu(size, align);
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

Allocation Device::map_transfer(const void* host, uint64_t size, bool device_writes) {
  return memory_.map_transfer(host, size, device_writes);
}

void Device::unmap_transfer(const Allocation& a) {
  memory_.unmap_transfer(a);
}

} // namespace am
