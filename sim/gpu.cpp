#include "gpu.h"

#include "ip_discovery.h"

#include "am/hw/discovery.h"
#include "am/hw/nbio_regs.h"

#include <sys/mman.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <stdexcept>

namespace sim {
namespace {

using namespace am::hw;

int debug_level() {
  const char* v = std::getenv("AM_DEBUG");
  return v ? std::atoi(v) : 0;
}

// AMCL_SIM_REBAR=1: every emulated card gets a BAR0 as large as its VRAM.
bool resizable_bar_from_environment() {
  const char* v = std::getenv("AMCL_SIM_REBAR");
  return v && std::string(v) == "1";
}

const CardModel& model_of(const GpuConfig& config) {
  return config.model ? *config.model : *find_card_model("gfx1100");
}

// The BARs (config dwords 4..9) the system firmware assigns the emulated card: BAR0/1 the VRAM
// aperture and BAR2/3 the doorbells (64-bit prefetchable memory: type bits 0xc), BAR4 I/O
// (bit 0), BAR5 the registers (32-bit memory). The addresses are made up; sizes are not
// modelled (a sizing write of all ones reads back the address bits written).
constexpr std::array<uint32_t, 6> kPowerOnBars = {0x0000000c, 0x00000040, 0x0000000c,
                                                  0x00000041, 0x0000e001, 0xfc000000};
// The read-only type bits of each BAR dword (none in the high halves of 64-bit BARs).
constexpr std::array<uint32_t, 6> kBarTypeBits = {0xf, 0, 0xf, 0, 0x3, 0xf};

} // namespace

// Registers the model knows (their writes are expected); writes elsewhere are logged.
bool Gpu::known_register(uint32_t index) const {
  const GcRegs& g = gc_regs_;
  auto in = [&](Reg first, Reg last) { return index >= gc(first) && index <= gc(last); };
  const IhRegs& i = *model_.ih;
  const uint32_t ih_first = std::min({i.IH_RB_CNTL, i.IH_RB_BASE, i.IH_RB_RPTR});
  return in(g.SDMA0_QUEUE0_RB_CNTL, g.SDMA0_QUEUE0_MINOR_PTR_UPDATE) ||
         index == gc(g.SDMA0_ENGINE_CNTL) || known_hub_register(gmc_, index) ||
         known_hub_register(mmhub_, index) || in(g.CP_MQD_BASE_ADDR, g.CP_HQD_PQ_WPTR_HI) ||
         in(g.CP_MEC_DOORBELL_RANGE_LOWER, g.CP_MEC_DOORBELL_RANGE_UPPER) ||
         in(g.GCVM_L2_PROTECTION_FAULT_CNTL, g.GCVM_L2_PROTECTION_FAULT_ADDR_HI32) ||
         nbio_.known_register(index) || index == gc(g.GRBM_GFX_CNTL) ||
         in(g.SCRATCH_REG6, g.SCRATCH_REG7) || index == gc(g.SH_MEM_BASES) ||
         index == gc(g.SH_MEM_CONFIG) || mec_control_.is_register(index) ||
         index == gc(g.CP_ME1_PIPE0_INT_CNTL) || index == gc(g.SDMA0_CNTL) ||
         index == gc(g.SPI_COMPUTE_QUEUE_RESET) || index == gc(g.CP_PQ_WPTR_POLL_CNTL) ||
         index == gc(g.CP_PQ_STATUS) || index == gc(g.GRBM_CNTL) || index == gc(g.CP_DEBUG) ||
         index == gc(sq_regs_.GRBM_GFX_INDEX) || index == gc(sq_regs_.SQ_IND_INDEX) ||
         index == gc(sq_regs_.SQ_IND_DATA) || index == am::hw::kMmIndex ||
         index == am::hw::kMmIndexHi ||
         (index >= ih(ih_first) && index <= ih(i.IH_DOORBELL_RPTR)) || index == ih(i.IH_CNTL);
}

// A VM hub's registers the model knows: the apertures, L1 TLB and L2 controls, the fault
// default page, VMID 0's context (CNTL, the page-table base/start/end, the invalidation
// request) and the invalidation engines' address ranges.
bool Gpu::known_hub_register(const Gmc& hub, uint32_t index) const {
  const VmHubRegs& h = hub.hub();
  auto in = [&](Reg first, Reg last) { return index >= hub.reg(first) && index <= hub.reg(last); };
  auto is = [&](std::initializer_list<Reg> regs) {
    return std::any_of(regs.begin(), regs.end(), [&](Reg r) { return index == hub.reg(r); });
  };
  return in(h.INVALIDATE_ENG0_ADDR_RANGE_LO32,
            invalidate_range_hi32(h, kInvalidationEngines - 1)) ||
         in(h.PAGE_TABLE_BASE_LO32, h.PAGE_TABLE_BASE_HI32) ||
         in(h.PAGE_TABLE_START_LO32, h.PAGE_TABLE_START_HI32) ||
         in(h.PAGE_TABLE_END_LO32, h.PAGE_TABLE_END_HI32) ||
         is({h.L2_CNTL3, h.L2_CNTL4, h.L2_CNTL5, h.L2_PROTECTION_FAULT_CNTL,
             h.L2_PROTECTION_FAULT_CNTL2}) ||
         (h.invalidate_semaphore &&
          is({h.INVALIDATE_ENG17_SEM, h.L2_BANK_SELECT_RESERVED_CID2})) ||
         is({h.CONTEXT0_CNTL, h.INVALIDATE_ENG17_REQ, h.FB_LOCATION_BASE, h.FB_LOCATION_TOP,
             h.AGP_TOP, h.AGP_BOT, h.AGP_BASE, h.SYSTEM_APERTURE_LOW_ADDR,
             h.SYSTEM_APERTURE_HIGH_ADDR, h.SYSTEM_APERTURE_DEFAULT_ADDR_LSB,
             h.SYSTEM_APERTURE_DEFAULT_ADDR_MSB, h.MX_L1_TLB_CNTL, h.L2_CNTL, h.L2_CNTL2,
             h.L2_PROTECTION_FAULT_DEFAULT_ADDR_LO32, h.L2_PROTECTION_FAULT_DEFAULT_ADDR_HI32});
}

Gpu::Gpu(const GpuConfig& config)
    : config_(config), model_(model_of(config)), gc_regs_(*model_.gc),
      gfxhub_regs_(gfxhub_regs(gc_regs_)), debug_(debug_level()),
      vram_(config.vram_bytes, config.bar0_bytes), nbio_(regs_, model_),
      gmc_("GFXHUB", Gmc::Hub::Gfx, gfxhub_regs_, model_.gc_seg, regs_, model_, vram_.chip(),
           config.vram_bytes, iommu_),
      mmhub_("MMHUB", Gmc::Hub::Mm, *model_.mmhub, model_.mmhub_seg, regs_, model_, vram_.chip(),
             config.vram_bytes, iommu_),
      fb_(regs_, model_, vram_.chip(), config.vram_bytes), ih_(regs_, model_, mmhub_),
      smu_(regs_, model_, fw_, debug_),
      psp_(regs_, model_, fb_, fw_, smu_, debug_,
           FbAperture::kFbBase + config.vram_bytes - (1ull << 20)),
      mec_control_(model_, fw_, debug_),
      sq_regs_(*am::hw::sq::sq_regs_for_gc_major(model_.isa == shader::Gfx::v12 ? 12 : 11)),
      sq_(sq_regs_, gc(sq_regs_.GRBM_GFX_INDEX), gc(sq_regs_.SQ_IND_INDEX),
          gc(sq_regs_.SQ_IND_DATA), debug_),
      mec_(*this), sdma_(*this) {
  fb_.set_power_on_location(regs_); // the VBIOS places the frame buffer
  regs_.store(gc(gc_regs_.SDMA0_ENGINE_CNTL), gc_regs_.sdma_engine_cntl_reset); // halted
  for (unsigned i = 0; i < bars_.size(); ++i) bars_[i].store(kPowerOnBars[i]);
  // Firmware leaves the IP discovery binary at the top of VRAM before any driver runs.
  const std::vector<uint8_t> discovery = build_ip_discovery(model_.blocks);
  std::memcpy(vram_.chip() + config.vram_bytes - am::hw::discovery::kOffsetFromVramTop,
              discovery.data(), discovery.size());
  mec_.start();
  sdma_.start();
}

Gpu::~Gpu() {
  mec_.stop();
  sdma_.stop();
}

uint32_t Gpu::config_read32(uint32_t offset) {
  switch (offset & ~3u) {
  case 0x00: return 0x1002u | (uint32_t(model_.device_id) << 16);
  case am::kPciCommand:
    return pci_command_.load();
  case 0x08: return 0x03000000u | model_.revision; // class: display controller, VGA
  case 0x0c:
    return cache_line_.load();
  case 0x10:
  case 0x14:
  case 0x18:
  case 0x1c:
  case 0x20:
  case 0x24:
    return bars_[((offset & ~3u) - 0x10) / 4].load();
  case 0x2c: return 0x1002u | (0x0e3bu << 16);      // subsystem
  case 0x3c:
    return interrupt_line_.load() | (1u << 8); // interrupt pin INTA
  default: return 0;
  }
}

// The header's writable parts: the command register, cache line size, the BARs' address bits
// and the interrupt line. Everything else in it is read-only.
void Gpu::config_write32(uint32_t offset, uint32_t value) {
  switch (offset & ~3u) {
  case am::kPciCommand:
    pci_command_.store(uint16_t(value));
    iommu_.set_bus_master(value & am::kPciCommandBusMaster);
    break;
  case 0x0c:
    cache_line_.store(value & 0xff);
    break;
  case 0x10:
  case 0x14:
  case 0x18:
  case 0x1c:
  case 0x20:
  case 0x24: {
    const unsigned i = ((offset & ~3u) - 0x10) / 4;
    bars_[i].store((value & ~kBarTypeBits[i]) | (kPowerOnBars[i] & kBarTypeBits[i]));
    break;
  }
  case 0x3c:
    interrupt_line_.store(value & 0xff);
    break;
  default:
    break;
  }
}

void Gpu::reset_config_space() {
  pci_command_.store(0);
  iommu_.set_bus_master(false);
  for (unsigned i = 0; i < bars_.size(); ++i) bars_[i].store(kPowerOnBars[i] & kBarTypeBits[i]);
  cache_line_.store(0);
  interrupt_line_.store(0);
}

// Whether the card answers an access through `bar` (2: doorbells, 5: registers): memory space
// on and the BAR holding an address.
bool Gpu::decodes(unsigned bar, const char* access, uint32_t index) {
  uint64_t address = bars_[bar].load() & ~uint64_t(kBarTypeBits[bar]);
  if (bar + 1 < bars_.size() && (kPowerOnBars[bar] & 0x6) == 0x4) // 64-bit BAR: add the high half
    address |= uint64_t(bars_[bar + 1].load()) << 32;
  if ((pci_command_.load() & am::kPciCommandMemory) && address) return true;
  if (undecoded_accesses_.fetch_add(1) == 0 || debug_ >= 2)
    std::fprintf(stderr,
                 "amcl sim: %s of 0x%x not decoded: memory space is off or BAR%u has no address "
                 "(a mode1 reset clears config space; restore it as amdgpu does)\n",
                 access, index, bar);
  return false;
}

void Gpu::enable_bus_master() {
  pci_command_.fetch_or(am::kPciCommandMemory | am::kPciCommandBusMaster);
  iommu_.set_bus_master(true);
}

bool Gpu::hqd_register(uint32_t index) const {
  return index >= gc(gc_regs_.CP_MQD_BASE_ADDR) && index <= gc(gc_regs_.CP_HQD_PQ_WPTR_HI);
}

bool Gpu::in_bar(uint32_t index, const char* access) const {
  if (uint64_t(index) * 4 + 4 <= reg_bytes()) return true;
  // The access never reaches the card: nothing answers past the BAR.
  std::fprintf(stderr,
               "amcl sim: register %s at dword 0x%x lies past BAR5 (%llu bytes): it reaches "
               "nothing (registers there go through PCIE_INDEX2/PCIE_DATA2)\n",
               access, index, static_cast<unsigned long long>(reg_bytes()));
  return false;
}

bool Gpu::hdp_flushed(std::atomic<uint64_t>& mark, const char* what) {
  if (nbio_.flushed_since(mark)) return true;
  hdp_faults_.fetch_add(1);
  std::fprintf(stderr,
               "amcl sim: %s without an HDP flush since the previous one: the engine could read "
               "stale data the CPU wrote to VRAM through the BAR\n",
               what);
  return false;
}

bool Gpu::in_reset(const char* access, uint32_t index) {
  // Every register access and doorbell comes here: read the clock only while a reset runs.
  int64_t ends = reset_ends_ns_.load(std::memory_order_acquire);
  if (ends == 0) return false;
  const int64_t now = std::chrono::steady_clock::now().time_since_epoch().count();
  if (now >= ends) {
    reset_ends_ns_.compare_exchange_strong(ends, 0); // over (unless a new reset began)
    return false;
  }
  if (accesses_during_reset_.fetch_add(1) == 0 || debug_ >= 2)
    std::fprintf(stderr,
                 "amcl sim: %s of 0x%x while the chip is in a mode1 reset: a real card is off the "
                 "bus (reads all ones, writes lost); wait for the reset as amdgpu does\n",
                 access, index);
  return true;
}

uint32_t Gpu::reg_read32(uint32_t index) {
  if (in_reset("register read", index)) return 0xffffffffu;
  if (!decodes(5, "register read", index)) return 0xffffffffu;
  if (!in_bar(index, "read")) return 0xffffffffu;
  if (index == nbio_.pcie_data2()) return read_reg(nbio_.indirect_target());
  if (nbio_.is_hdp_flush(index)) return 0; // the flush has completed by the time it answers
  if (index == am::hw::kMmData) return mm_data_read();
  return read_reg(index);
}

void Gpu::reg_write32(uint32_t index, uint32_t value) {
  if (in_reset("register write", index)) return;
  if (!decodes(5, "register write", index)) return;
  if (!in_bar(index, "write")) return;
  if (index == nbio_.pcie_data2()) {
    write_reg(nbio_.indirect_target(), value);
  } else if (index == am::hw::kMmData) {
    mm_data_write(value);
  } else if (nbio_.is_hdp_flush(index)) {
    nbio_.hdp_flush();
  } else {
    write_reg(index, value);
  }
}

// amdgpu_device_mm_access's window: MM_INDEX bit 31 selects VRAM, its bits 30:0 and MM_INDEX_HI
// the byte address (MM_INDEX_HI << 31); without bit 31 MM_INDEX names a register.
uint32_t Gpu::mm_data_read() {
  const uint32_t index = read_reg(am::hw::kMmIndex);
  if (!(index & am::hw::kMmIndexVram)) return read_reg(index / 4);
  const uint64_t at = (uint64_t(read_reg(am::hw::kMmIndexHi)) << 31 | (index & 0x7fffffff)) & ~3ull;
  if (at + 4 > vram_.bytes()) return 0xffffffffu;
  uint32_t v;
  std::memcpy(&v, vram_.chip() + at, 4);
  return v;
}

void Gpu::mm_data_write(uint32_t value) {
  const uint32_t index = read_reg(am::hw::kMmIndex);
  if (!(index & am::hw::kMmIndexVram)) return write_reg(index / 4, value);
  const uint64_t at = (uint64_t(read_reg(am::hw::kMmIndexHi)) << 31 | (index & 0x7fffffff)) & ~3ull;
  if (at + 4 <= vram_.bytes()) std::memcpy(vram_.chip() + at, &value, 4);
}

uint32_t Gpu::read_reg(uint32_t index) {
  std::lock_guard lock(reg_mutex_);
  // nbio_v4_3_get_memsize: the VRAM size in MiB, as the VBIOS leaves it (read-only).
  if (index == am::hw::kRccConfigMemsize) return uint32_t(config_.vram_bytes >> 20);
  if (hqd_register(index)) {
    auto& bank = hqd_banks_[grbm_select_];
    if (index == gc(gc_regs_.CP_HQD_PQ_RPTR) && grbm_select_ == grbm_gfx_cntl(1, 0, 0, 0))
      return uint32_t(mec_.rptr() % std::max<uint32_t>(1, mec_.hqd().ring_dwords));
    auto it = bank.find(index);
    return it == bank.end() ? 0 : it->second;
  }
  if (uint32_t v; mec_control_.read(index, grbm_select_, v)) return v;
  if (uint32_t v; sq_.read(index, v)) return v;
  if (index == gc(gc_regs_.SH_MEM_BASES)) return sh_mem_bases_[(grbm_select_ >> 4) & 0xf];
  if (index == gc(gc_regs_.SH_MEM_CONFIG)) return sh_mem_config_[(grbm_select_ >> 4) & 0xf];
  if (model_.mmhub->invalidate_semaphore &&
      index == mmhub_.reg(model_.mmhub->INVALIDATE_ENG17_SEM)) {
    // A read of 1 grants engine 17's semaphore to the reader; 0 while someone holds it.
    return mmhub_sem_held_ ? 0 : (mmhub_sem_held_ = true, 1);
  }
  if (index == gc(gc_regs_.SDMA0_QUEUE0_RB_RPTR)) return uint32_t(sdma_.rptr());
  if (index == gc(gc_regs_.SDMA0_QUEUE0_RB_RPTR_HI)) return uint32_t(sdma_.rptr() >> 32);
  return regs_.read(index);
}

// Register writes update the register file under reg_mutex_; side effects on the engines run
// after it is released, because the engines take their own locks and read registers too.
void Gpu::write_reg(uint32_t index, uint32_t value) {
  enum class Effect {
    None,
    HqdOn,
    HqdOff,
    SdmaOn,
    SdmaOff,
    SdmaRun,
    MecRun,
    Mode1Reset
  } effect = Effect::None;
  HqdState hqd;
  bool mec_started = false;
  uint64_t sdma_base = 0, sdma_wb = 0;
  uint32_t sdma_bytes = 0;
  {
    std::lock_guard lock(reg_mutex_);
    if (debug_ >= 4) std::fprintf(stderr, "amcl sim: write reg 0x%05x = 0x%08x\n", index, value);
    bool reset = false;
    const PspRegs& pr = *model_.psp;
    if ((index == model_.psp_reg(pr.bl_cmd) || index == model_.psp_reg(pr.ring_wptr)) &&
        !hdp_flushed(psp_hdp_mark_, "PSP command")) {
      return; // the PSP would take the command from stale memory; the model drops it
    }
    const int64_t autoload_before = fw_.autoload_done_ns.load();
    const bool mailbox = psp_.write(index, value) || smu_.write(index, value, reset);
    if (fw_.autoload_done_ns.load() != autoload_before) reset_gc_vm();
    if (reset) effect = Effect::Mode1Reset;
    if (!mailbox && debug_ >= 2 && !known_register(index))
      std::fprintf(stderr, "amcl sim: write to unmodelled register 0x%05x = 0x%08x\n", index, value);
    if (mailbox) {
      // the PSP or SMU took it
    } else if (index == gc(gc_regs_.GRBM_GFX_CNTL)) {
      grbm_select_ = value & 0x7ff;
      regs_.store(index, value);
    } else if (sq_.write(index, value)) {
      // GRBM_GFX_INDEX, SQ_IND_INDEX, SQ_IND_DATA (sq.h)
    } else if (mec_control_.write(index, value, grbm_select_, mec_started)) {
      if (mec_started) effect = Effect::MecRun;
    } else if (index == gc(gc_regs_.SH_MEM_BASES)) {
      sh_mem_bases_[(grbm_select_ >> 4) & 0xf].store(value, std::memory_order_release);
    } else if (index == gc(gc_regs_.SH_MEM_CONFIG)) {
      sh_mem_config_[(grbm_select_ >> 4) & 0xf].store(value, std::memory_order_release);
    } else if (hqd_register(index)) {
      hqd_banks_[grbm_select_][index] = value;
      if (index == gc(gc_regs_.CP_HQD_ACTIVE)) {
        if (grbm_select_ != grbm_gfx_cntl(1, 0, 0, 0)) {
          std::fprintf(stderr, "amcl sim: CP_HQD_ACTIVE for unmodelled queue (GRBM_GFX_CNTL 0x%x)\n",
                       grbm_select_);
        } else if ((value & 1) && !fw_.gfx_running) {
          std::fprintf(stderr, "amcl sim: CP_HQD_ACTIVE but the MEC runs no firmware (no RLC "
                               "autoload since power-on or reset): the queue stays idle\n");
        } else if (value & 1) {
          hqd = latch_hqd();
          effect = Effect::HqdOn;
        } else {
          if (mec_.active()) {
            // amdgpu takes a running queue off with CP_HQD_DEQUEUE_REQUEST and waits for
            // CP_HQD_ACTIVE to fall; what a real MEC does with a bare clear is not published.
            hqd_cleared_while_active_.fetch_add(1);
            std::fprintf(stderr, "amcl sim: CP_HQD_ACTIVE cleared while the MEC runs the queue, "
                                 "without a dequeue request (CP_HQD_DEQUEUE_REQUEST)\n");
          }
          effect = Effect::HqdOff;
        }
      }
      if (index == gc(gc_regs_.CP_HQD_DEQUEUE_REQUEST) &&
          grbm_select_ == grbm_gfx_cntl(1, 0, 0, 0) && value != 0) {
        if ((value & 0xf) != kDequeueResetWaves) {
          std::fprintf(stderr,
                       "amcl sim: CP_HQD_DEQUEUE_REQUEST type %u not modelled (only %u, "
                       "reset waves): ignored\n",
                       value & 0xf, kDequeueResetWaves);
        } else {
          // The queue's waves are killed (the halted ones too) and the queue leaves the
          // hardware: ACTIVE falls.
          hqd_banks_[grbm_select_][gc(gc_regs_.CP_HQD_ACTIVE)] = 0;
          sq_.reset();
          effect = Effect::HqdOff;
        }
      }
    } else if (index == gc(gc_regs_.GCVM_L2_PROTECTION_FAULT_CNTL)) {
      // CLEAR_PROTECTION_FAULT_STATUS_ADDR[0] re-arms the fault latch.
      regs_.store(index, value & ~1u);
      if (value & 1) {
        regs_.store(gc(gc_regs_.GCVM_L2_PROTECTION_FAULT_STATUS), 0);
        regs_.store(gc(gc_regs_.GCVM_L2_PROTECTION_FAULT_ADDR_LO32), 0);
        regs_.store(gc(gc_regs_.GCVM_L2_PROTECTION_FAULT_ADDR_HI32), 0);
      }
    } else if (model_.mmhub->invalidate_semaphore &&
               index == mmhub_.reg(model_.mmhub->INVALIDATE_ENG17_SEM)) {
      if (!(value & 1)) mmhub_sem_held_ = false; // written 0: released
    } else if (model_.mmhub->invalidate_semaphore &&
               index == mmhub_.reg(model_.mmhub->L2_BANK_SELECT_RESERVED_CID2)) {
      // The private invalidation completes at once; the bit does not stay set.
      if (value & RESERVED_CACHE_PRIVATE_INVALIDATION) private_invalidations_.fetch_add(1);
      regs_.store(index, value & ~RESERVED_CACHE_PRIVATE_INVALIDATION);
    } else if (Gmc* hub = index == gmc_.reg(gmc_.hub().INVALIDATE_ENG17_REQ)       ? &gmc_
                          : index == mmhub_.reg(mmhub_.hub().INVALIDATE_ENG17_REQ) ? &mmhub_
                                                                                   : nullptr) {
      // The model's invalidation completes at once: VMID 0's cached translations in that hub
      // go when the request names VMID 0 and any TLB level, and ACK reports every VMID the
      // request named. The engine reaches only the pages its ADDR_RANGE covers: one short of
      // the context's last page leaves translations cached (the model then drops none).
      regs_.store(index, value);
      (void)hdp_flushed(hub == &gmc_ ? gfxhub_hdp_mark_ : mmhub_hdp_mark_,
                        hub == &gmc_ ? "GFXHUB TLB invalidation" : "MMHUB TLB invalidation");
      const VmHubRegs& h = hub->hub();
      if (h.invalidate_semaphore && !mmhub_sem_held_) {
        // gmc_v11_0_flush_gpu_tlb takes the semaphore so that no other client's request
        // (another driver instance, the firmware) races this one on engine 17.
        unguarded_invalidations_.fetch_add(1);
        std::fprintf(stderr, "amcl sim: %s invalidation request without engine 17's semaphore\n",
                     h.name);
      }
      const uint64_t range = uint64_t(regs_.read(hub->reg(invalidate_range_lo32(h, 17)))) |
                             uint64_t(regs_.read(hub->reg(invalidate_range_hi32(h, 17))) & 0x1f)
                                 << 32;
      const uint64_t last_page = uint64_t(regs_.read(hub->reg(h.PAGE_TABLE_END_LO32))) |
                                 uint64_t(regs_.read(hub->reg(h.PAGE_TABLE_END_HI32)) & 0xf) << 32;
      if ((value & 1) && (value & VM_INVALIDATE_REQ_ALL_LEVELS)) {
        if (range >= last_page) {
          hub->invalidate_tlb();
        } else {
          invalidation_range_faults_.fetch_add(1);
          std::fprintf(stderr,
                       "amcl sim: %s invalidation through engine 17 whose ADDR_RANGE (page 0x%llx) "
                       "ends below VMID 0's last page 0x%llx: translations beyond it stay cached\n",
                       h.name, static_cast<unsigned long long>(range),
                       static_cast<unsigned long long>(last_page));
        }
      }
      regs_.store(hub->reg(hub->hub().INVALIDATE_ENG17_ACK), value & 0xffff);
    } else if (index == ih(model_.ih->IH_RB_CNTL)) {
      regs_.store(index, value & ~IH_RB_CNTL_WPTR_OVERFLOW_CLEAR);
      if (value & IH_RB_CNTL_WPTR_OVERFLOW_CLEAR) {
        const uint32_t wptr = ih(model_.ih->IH_RB_WPTR);
        regs_.store(wptr, regs_.read(wptr) & ~IH_RB_WPTR_RB_OVERFLOW);
      }
    } else if (index == gc(gc_regs_.SDMA0_ENGINE_CNTL)) {
      // Clearing HALT starts the engine's microcontroller; a doorbell it got while halted is
      // taken up then.
      const bool was_halted = regs_.read(index) & SDMA_ENGINE_CNTL_HALT;
      regs_.store(index, value);
      if (was_halted && !(value & SDMA_ENGINE_CNTL_HALT)) effect = Effect::SdmaRun;
    } else {
      regs_.store(index, value);
      nbio_.observe_write(index, value);
      if (index == gc(gc_regs_.SDMA0_QUEUE0_RB_CNTL)) {
        if ((value & SDMA_RB_CNTL_RB_ENABLE) && !fw_.gfx_running) {
          std::fprintf(stderr, "amcl sim: SDMA ring enabled but the SDMA engine runs no firmware: "
                               "it stays idle\n");
        } else if (value & SDMA_RB_CNTL_RB_ENABLE) {
          sdma_base = regs_.read64(gc(gc_regs_.SDMA0_QUEUE0_RB_BASE), gc(gc_regs_.SDMA0_QUEUE0_RB_BASE_HI)) << 8;
          sdma_bytes = 4u << ((value >> SDMA_RB_CNTL_RB_SIZE_SHIFT) & 0x1f);
          if (value & SDMA_RB_CNTL_RPTR_WRITEBACK_ENABLE)
            sdma_wb = regs_.read64(gc(gc_regs_.SDMA0_QUEUE0_RB_RPTR_ADDR_LO),
                                   gc(gc_regs_.SDMA0_QUEUE0_RB_RPTR_ADDR_HI));
          effect = Effect::SdmaOn;
        } else {
          effect = Effect::SdmaOff;
        }
      }
    }
  }
  switch (effect) {
  case Effect::HqdOn: mec_.activate(hqd); break;
  case Effect::HqdOff: mec_.deactivate(); break;
  case Effect::SdmaOn: sdma_.enable(sdma_base, sdma_bytes, sdma_wb); break;
  case Effect::SdmaOff: sdma_.disable(); break;
  case Effect::SdmaRun: {
    const uint64_t pending = sdma_pending_wptr_.exchange(kNoPendingWptr);
    if (pending != kNoPendingWptr && sdma_.enabled()) sdma_.ring(pending);
    break;
  }
  case Effect::MecRun: {
    const uint64_t pending = cp_pending_wptr_.exchange(kNoPendingWptr);
    if (mec_.active()) mec_.ring(pending != kNoPendingWptr ? pending : mec_.last_wptr());
    break;
  }
  case Effect::Mode1Reset: mode1_reset(); break;
  case Effect::None: break;
  }
}

// A mode1 reset returns the chip, all but its memory, to the power-on state: engines stopped,
// registers cleared, the PSP's bootloader waiting, no firmware running. The SMU's answer to the
// reset message stays readable.
void Gpu::mode1_reset() {
  mec_.deactivate();
  sdma_.disable();
  std::lock_guard lock(reg_mutex_);
  const uint32_t resp = model_.smu_reg(model_.smu->resp);
  const uint32_t answer = regs_.read(resp);
  regs_.clear();
  nbio_.reset();
  regs_.store(resp, answer);
  fb_.set_power_on_location(regs_);
  regs_.store(gc(gc_regs_.SDMA0_ENGINE_CNTL), gc_regs_.sdma_engine_cntl_reset);
  sdma_pending_wptr_.store(kNoPendingWptr);
  cp_pending_wptr_.store(kNoPendingWptr);
  mec_control_.reset();
  grbm_select_ = 0;
  mmhub_sem_held_ = false;
  for (auto& r : sh_mem_bases_) r.store(0, std::memory_order_relaxed);
  for (auto& r : sh_mem_config_) r.store(0, std::memory_order_relaxed);
  hqd_banks_.clear();
  sq_.reset();
  smu_.reset();
  psp_.reset();
  // The reset takes the function's config space with it (amdgpu restores its saved PCI state
  // afterwards): memory space and bus mastering off, the BARs without addresses.
  reset_config_space();
  ++mode1_resets_;
  reset_ends_ns_.store(
      (std::chrono::steady_clock::now() + kMode1ResetTime).time_since_epoch().count(),
      std::memory_order_release);
}

// The RLC autoload resets GC, GFXHUB's VM registers with it: what a driver programmed there
// before is lost (amdgpu's gfx_v11_0_hw_init and tinygrad's AM_GFX.init_hw program GFXHUB only
// after the autoload). The frame buffer's location, which the VBIOS set, stays.
void Gpu::reset_gc_vm() {
  const VmHubRegs& h = gfxhub_regs_;
  for (Reg r : {h.CONTEXT0_CNTL, h.PAGE_TABLE_BASE_LO32, h.PAGE_TABLE_BASE_HI32,
                h.PAGE_TABLE_START_LO32, h.PAGE_TABLE_START_HI32, h.PAGE_TABLE_END_LO32,
                h.PAGE_TABLE_END_HI32, h.AGP_TOP, h.AGP_BOT, h.AGP_BASE,
                h.SYSTEM_APERTURE_LOW_ADDR, h.SYSTEM_APERTURE_HIGH_ADDR,
                h.SYSTEM_APERTURE_DEFAULT_ADDR_LSB, h.SYSTEM_APERTURE_DEFAULT_ADDR_MSB,
                h.MX_L1_TLB_CNTL, h.L2_CNTL, h.L2_CNTL2, h.L2_PROTECTION_FAULT_DEFAULT_ADDR_LO32,
                h.L2_PROTECTION_FAULT_DEFAULT_ADDR_HI32, h.L2_CNTL3, h.L2_CNTL4, h.L2_CNTL5,
                h.L2_PROTECTION_FAULT_CNTL, h.L2_PROTECTION_FAULT_CNTL2})
    regs_.store(gc(r), 0);
  for (unsigned e = 0; e < 2 * kInvalidationEngines; ++e)
    regs_.store(gc(h.INVALIDATE_ENG0_ADDR_RANGE_LO32) + e, 0);
  gmc_.invalidate_tlb();
}

void Gpu::assume_booted_by_another_driver() {
  // Unbinding amdgpu disables the device (pci_disable_device): bus mastering off.
  pci_command_.store(am::kPciCommandMemory);
  iommu_.set_bus_master(false);
  std::lock_guard lock(reg_mutex_);
  psp_.assume_booted_elsewhere();
}

uint32_t Gpu::sh_mem_bases(unsigned vmid) {
  return sh_mem_bases_[vmid & 0xf].load(std::memory_order_acquire);
}

uint32_t Gpu::sh_mem_config(unsigned vmid) {
  return sh_mem_config_[vmid & 0xf].load(std::memory_order_acquire);
}

HqdState Gpu::latch_hqd() {
  auto& bank = hqd_banks_[grbm_select_];
  auto reg = [&](Reg r) { return bank[gc(r)]; };
  HqdState hqd;
  hqd.ring_va = (uint64_t(reg(gc_regs_.CP_HQD_PQ_BASE)) | (uint64_t(reg(gc_regs_.CP_HQD_PQ_BASE_HI)) << 32)) << 8;
  hqd.ring_dwords = 2u << (reg(gc_regs_.CP_HQD_PQ_CONTROL) & CP_HQD_PQ_CONTROL_QUEUE_SIZE_MASK);
  hqd.rptr_report_va = uint64_t(reg(gc_regs_.CP_HQD_PQ_RPTR_REPORT_ADDR)) |
                       (uint64_t(reg(gc_regs_.CP_HQD_PQ_RPTR_REPORT_ADDR_HI)) << 32);
  const uint32_t db = reg(gc_regs_.CP_HQD_PQ_DOORBELL_CONTROL);
  hqd.doorbell_index = (db & CP_HQD_DOORBELL_OFFSET_MASK) >> CP_HQD_DOORBELL_OFFSET_SHIFT;
  hqd.doorbell_enabled = db & CP_HQD_DOORBELL_EN;
  if (!hqd.ring_va || (hqd.ring_va & 0xff))
    std::fprintf(stderr, "amcl sim: CP_HQD_ACTIVE with an invalid ring base\n");
  return hqd;
}

void Gpu::doorbell_write64(uint32_t index, uint64_t value) {
  if (debug_ >= 3) std::fprintf(stderr, "amcl sim: doorbell %u = %llu\n", index,
                                static_cast<unsigned long long>(value));
  if (in_reset("doorbell write", index)) return;
  if (!decodes(2, "doorbell write", index)) return;
  // The bus interface drops doorbell writes until the driver opens the aperture, and sends
  // each one to the port its S2A entries name.
  if (!nbio_.aperture_open()) {
    std::fprintf(stderr,
                 "amcl sim: doorbell write to index %u with the doorbell aperture closed "
                 "(RCC_DEV0_EPF0_RCC_DOORBELL_APER_EN): dropped\n",
                 index);
    return;
  }
  const Nbio::Port port = nbio_.route_doorbell(index);
  if (port == Nbio::Port::Cp) {
    // The MEC listens only to doorbells inside CP_MEC_DOORBELL_RANGE (byte offsets, inclusive).
    const uint64_t at = uint64_t(index) * 4;
    if (at < regs_.read(gc(gc_regs_.CP_MEC_DOORBELL_RANGE_LOWER)) ||
        at > regs_.read(gc(gc_regs_.CP_MEC_DOORBELL_RANGE_UPPER))) {
      std::fprintf(stderr,
                   "amcl sim: doorbell write to index %u outside CP_MEC_DOORBELL_RANGE: the MEC "
                   "ignores it\n",
                   index);
      return;
    }
    const HqdState& hqd = mec_.hqd();
    if (mec_.active() && hqd.doorbell_enabled && hqd.doorbell_index == index) {
      if (!hdp_flushed(cp_hdp_mark_, "CP doorbell")) return;
      if (!mec_control_.pipe0_running()) {
        // A halted (or never started) pipe fetches nothing; it finds the write pointer once
        // it runs.
        cp_pending_wptr_.store(value);
        if (debug_ >= 2)
          std::fprintf(stderr, "amcl sim: compute doorbell while MEC pipe 0 does not run "
                               "(CP_MEC_RS64_CNTL)\n");
        if (!mec_control_.pipe0_running()) return;
        // The pipe started meanwhile and may have missed the pending pointer: take it here.
        value = cp_pending_wptr_.exchange(kNoPendingWptr);
        if (value == kNoPendingWptr) return;
      }
      mec_.ring(value);
      return;
    }
  } else if (port == Nbio::Port::Sdma0) {
    uint32_t sdma_db = regs_.read(gc(gc_regs_.SDMA0_QUEUE0_DOORBELL));
    uint32_t sdma_off = (regs_.read(gc(gc_regs_.SDMA0_QUEUE0_DOORBELL_OFFSET)) >> 2) & 0x3ffffff;
    if (sdma_.enabled() && (sdma_db & SDMA_DOORBELL_ENABLE) && sdma_off == index) {
      if (!hdp_flushed(sdma_hdp_mark_, "SDMA doorbell")) return;
      if (regs_.read(gc(gc_regs_.SDMA0_ENGINE_CNTL)) & SDMA_ENGINE_CNTL_HALT) {
        // A halted engine fetches nothing; it sees the write pointer once unhalted.
        if (debug_ >= 2)
          std::fprintf(stderr, "amcl sim: SDMA doorbell while the engine is halted (%s.HALT)\n",
                       sdma_major() >= 7 ? "SDMA0_MCU_CNTL" : "SDMA0_F32_CNTL");
        sdma_pending_wptr_.store(value);
        return;
      }
      sdma_.ring(value);
      return;
    }
  } else {
    std::fprintf(stderr,
                 "amcl sim: doorbell write to index %u, which no S2A doorbell entry routes to a "
                 "modelled engine: dropped\n",
                 index);
    return;
  }
  std::fprintf(stderr, "amcl sim: doorbell write to unassigned index %u ignored\n", index);
}

void Gpu::post_interrupt(const am::hw::ih::IvEntry& entry) {
  if (!interrupt_enabled(entry)) {
    suppressed_interrupts_.fetch_add(1);
    if (debug_ >= 2)
      std::fprintf(stderr,
                   "amcl sim: interrupt (client %u, source %u) from a disabled source: no IV\n",
                   entry.client_id, entry.source_id);
    return;
  }
  ih_.post(entry);
  raise_interrupt();
}

// The per-source enables in front of the IH: the MEC pipe's end-of-pipe (RELEASE_MEM) and
// bad-opcode interrupts and SDMA 0's TRAP. VM faults are gated by their context's enables
// (report_vm_fault); the rest are always on.
bool Gpu::interrupt_enabled(const am::hw::ih::IvEntry& entry) const {
  using namespace am::hw::ih;
  if (entry.client_id == CLIENTID_GRBM_CP && entry.source_id == SRCID_CP_EOP_INTERRUPT)
    return regs_.read(gc(gc_regs_.CP_ME1_PIPE0_INT_CNTL)) & CP_INT_TIME_STAMP_ENABLE;
  if (entry.client_id == CLIENTID_GRBM_CP && entry.source_id == SRCID_CP_BAD_OPCODE)
    return regs_.read(gc(gc_regs_.CP_ME1_PIPE0_INT_CNTL)) & CP_INT_OPCODE_ERROR_ENABLE;
  if (entry.client_id == CLIENTID_GFX && entry.source_id == SRCID_SDMA_TRAP)
    return regs_.read(gc(gc_regs_.SDMA0_CNTL)) & SDMA_CNTL_TRAP_ENABLE;
  return true;
}

// The wave halts with ILLEGAL_INST in its exception register, and the SQ raises its error
// interrupt (client GRBM_CP, SQ_INTERRUPT_ID) with the wave's coordinates in the word.
void Gpu::report_wave_exception(bool wave, const am::hw::sq::HwId1& id, uint64_t pc) {
  using namespace am::hw;
  if (wave) sq_.halt({id, pc, sq_regs_.illegal_inst});
  sq::InterruptWord w;
  w.encoding = sq::ENCODING_ERROR;
  w.error_type = sq::ERROR_TYPE_ILLEGAL_INST;
  if (wave)
    w.sh_id = id.sa_id, w.wave_id = id.wave_id, w.simd_id = id.simd_id, w.wgp_id = id.wgp_id;
  ih::IvEntry iv;
  iv.client_id = ih::CLIENTID_GRBM_CP;
  iv.source_id = ih::SRCID_SQ_INTERRUPT_MSG;
  iv.timestamp = gpu_clock();
  sq::encode(w, iv.src_data[0], iv.src_data[1]);
  post_interrupt(iv);
}

void Gpu::report_vm_fault(uint64_t address, bool write, const std::string& what) {
  if (debug_ >= 1) std::fprintf(stderr, "amcl sim: %s\n", what.c_str());
  {
    std::lock_guard lock(reg_mutex_);
    // GCVM_L2_PROTECTION_FAULT_STATUS keeps the first fault until the driver clears it;
    // later ones only set MORE_FAULTS.
    const uint32_t status_reg = gc(gc_regs_.GCVM_L2_PROTECTION_FAULT_STATUS);
    uint32_t status = regs_.read(status_reg);
    if (status == 0) {
      regs_.store(status_reg, VM_FAULT_STATUS_MAPPING_ERROR | (write ? VM_FAULT_STATUS_RW : 0u));
      regs_.store(gc(gc_regs_.GCVM_L2_PROTECTION_FAULT_ADDR_LO32), uint32_t(address >> 12));
      regs_.store(gc(gc_regs_.GCVM_L2_PROTECTION_FAULT_ADDR_HI32), uint32_t(address >> 44) & 0xf);
    } else {
      regs_.store(status_reg, status | VM_FAULT_STATUS_MORE_FAULTS);
    }
  }
  // The model reports every translation failure as an invalid-PTE (VALID) fault; the hub raises
  // its interrupt only when VMID 0's context enables that one.
  const VmHubRegs& h = gmc_.hub();
  if (!(regs_.read(gmc_.reg(h.CONTEXT0_CNTL)) &
        vm_context_valid_fault_interrupt(h.block_size_shift))) {
    suppressed_interrupts_.fetch_add(1);
    if (debug_ >= 2)
      std::fprintf(stderr,
                   "amcl sim: VM fault with %s CONTEXT0_CNTL's fault interrupts off: no IV\n",
                   h.name);
    return;
  }
  am::hw::ih::IvEntry iv;
  iv.client_id = am::hw::ih::CLIENTID_GFX;
  iv.source_id = am::hw::ih::SRCID_UTCL2_FAULT;
  iv.ring_id = am::hw::ih::FAULT_RING_PROT_VALID |
               (write ? am::hw::ih::FAULT_RING_PROT_WRITE : am::hw::ih::FAULT_RING_PROT_READ);
  iv.timestamp = gpu_clock();
  iv.src_data[0] = uint32_t(address >> 12);
  iv.src_data[1] = uint32_t(address >> 44) & 0xf;
  post_interrupt(iv);
}

void Gpu::raise_interrupt() {
  if (!iommu_.bus_master()) return; // an MSI is a memory write the card may not issue
  {
    std::lock_guard lock(irq_mutex_);
    ++irq_count_;
  }
  irq_cv_.notify_all();
}

bool Gpu::wait_interrupt(std::chrono::microseconds timeout) {
  std::unique_lock lock(irq_mutex_);
  bool got = irq_cv_.wait_for(lock, timeout, [&] { return irq_count_ != irq_seen_; });
  irq_seen_ = irq_count_;
  return got;
}

uint64_t Gpu::gpu_clock() {
  // The 100 MHz reference clock behind RELEASE_MEM/SDMA timestamps.
  auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                std::chrono::steady_clock::now().time_since_epoch()).count();
  return uint64_t(ns) / 10;
}

std::shared_ptr<Gpu> open_emulated_gpu(const std::string& spec, unsigned index) {
  // "gfx1100" or "gfx1100:rebar" (BAR0 as large as VRAM, as with resizable BAR).
  const size_t colon = spec.find(':');
  const std::string gfx = spec.substr(0, colon);
  const std::string option = colon == std::string::npos ? "" : spec.substr(colon + 1);
  if (!option.empty() && option != "rebar")
    throw std::runtime_error("sim: option '" + option + "' of " + spec +
                             " not understood (the one there is: rebar)");
  const bool rebar = option == "rebar";
  static std::mutex mutex;
  static std::map<unsigned, std::shared_ptr<Gpu>> gpus;
  std::lock_guard lock(mutex);
  auto& slot = gpus[index];
  if (!slot) {
    const CardModel* model = find_card_model(gfx);
    if (!model)
      throw std::runtime_error("sim: no emulated model for " + gfx + " (available: " +
                               card_model_names() + ")");
    GpuConfig config;
    config.model = model;
    config.index = index;
    if (rebar || resizable_bar_from_environment()) config.bar0_bytes = GpuConfig::kResizableBar;
    if (const char* mb = std::getenv("AMCL_SIM_VRAM_MB"); mb && *mb) {
      char* end = nullptr;
      const unsigned long long v = std::strtoull(mb, &end, 10);
      // At least the 32 MiB boot region, the discovery table and room for allocations.
      if (*end || v < 256 || v > (1ull << 20))
        throw std::runtime_error(std::string("sim: AMCL_SIM_VRAM_MB=") + mb +
                                 " is not a VRAM size in MiB between 256 and 1048576");
      config.vram_bytes = uint64_t(v) << 20;
    }
    slot = std::make_shared<Gpu>(config);
  }
  return slot;
}

} // namespace sim
