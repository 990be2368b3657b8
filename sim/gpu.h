// sim::Gpu — an emulated RDNA3 or RDNA4 card (a CardModel: gfx1100 RX 7900 XTX 1002:744c,
// gfx1200 RX 9060 XT 1002:7590, gfx1201 RX 9070 XT 1002:7550) behind am::Pci.
// It models the hardware contract, not amcl's driver: registers with the side effects the
// hardware has, VRAM (the CPU reaching only BAR0's part of it), doorbells, an IOMMU, the GMC
// page walker, the MEC and SDMA engines on their own threads, and the shader core.
#pragma once
#include "am/pci.h"
#include "card_model.h"
#include "fb_aperture.h"
#include "firmware_state.h"
#include "gmc.h"
#include "ih.h"
#include "iommu.h"
#include "mec.h"
#include "mec_control.h"
#include "nbio.h"
#include "psp.h"
#include "register_file.h"
#include "sdma_engine.h"
#include "smu.h"
#include "sq.h"
#include "vram_memory.h"

#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

namespace sim {

struct GpuConfig {
  const CardModel* model = nullptr; // nullptr: the gfx1100 model
  uint64_t vram_bytes = 4ull << 30;
  // BAR0, the CPU's window onto VRAM: 256 MiB as on a card without resizable BAR (the PCI
  // default amdgpu finds when the firmware does not resize it); kResizableBar: all of VRAM.
  uint64_t bar0_bytes = kDefaultBar0;
  unsigned index = 0;
  static constexpr uint64_t kDefaultBar0 = 256ull << 20;
  static constexpr uint64_t kResizableBar = ~0ull;
};

class Gpu final : public am::Pci, public DeviceServices {
public:
  explicit Gpu(const GpuConfig& config);
  ~Gpu() override;
  Gpu(const Gpu&) = delete;
  Gpu& operator=(const Gpu&) = delete;

  // am::Pci
  uint32_t config_read32(uint32_t offset) override;
  void enable_bus_master() override;
  void config_write32(uint32_t offset, uint32_t value) override;
  uint32_t reg_read32(uint32_t index) override;
  void reg_write32(uint32_t index, uint32_t value) override;
  uint64_t reg_bytes() const override { return uint64_t(RegisterFile::kDwords) * 4; }
  void doorbell_write64(uint32_t index, uint64_t value) override;
  uint8_t* vram() override { return vram_.bar0(); }
  uint64_t bar0_size() const override { return vram_.bar0_bytes(); }
  // The emulated root complex hands out one contiguous bus range per mapping.
  std::vector<uint64_t> dma_map(void* host, uint64_t size) override {
    const uint64_t bus = iommu_.map(host, size);
    std::vector<uint64_t> pages(size / 4096);
    for (size_t i = 0; i < pages.size(); ++i) pages[i] = bus + 4096 * i;
    return pages;
  }
  void dma_unmap(void* host, uint64_t size) override { iommu_.unmap_host(host, size); }
  bool wait_interrupt(std::chrono::microseconds timeout) override;
  std::string address() const override { return "sim:" + std::to_string(config_.index); }
  bool emulated() const override { return true; }

  // DeviceServices
  Gmc& gmc() override { return gmc_; }
  uint32_t reg_read(uint32_t index) override { return read_reg(index); }
  void reg_write(uint32_t index, uint32_t value) override { write_reg(index, value); }
  void post_interrupt(const am::hw::ih::IvEntry& entry) override;
  void report_vm_fault(uint64_t address, bool write, const std::string& what) override;
  void report_wave_exception(bool wave, const am::hw::sq::HwId1& id, uint64_t pc) override;
  uint64_t gpu_clock() override;
  uint32_t sh_mem_bases(unsigned vmid) override;
  uint32_t sh_mem_config(unsigned vmid) override;
  shader::Gfx shader_isa() const override { return model_.isa; }
  unsigned shader_engines() const override { return model_.shader_engines(); }
  bool mec_pipe0_runs() const override { return mec_control_.pipe0_running(); }
  unsigned sdma_major() const override { return model_.isa == shader::Gfx::v12 ? 7 : 6; }

  const GpuConfig& config() const { return config_; }
  // All of VRAM as the chip sees it, for tests that plant or inspect data the CPU cannot reach
  // through BAR0 (no PCI path: the driver reaches it only through vram() or the MM_INDEX window).
  uint8_t* chip_vram() { return vram_.chip(); }
  uint64_t vram_bytes() const { return vram_.bytes(); }
  const CardModel& model() const { return model_; }
  Mec& mec() { return mec_; }
  const Sq& sq() const { return sq_; }
  const MecControl& mec_control() const { return mec_control_; }
  SdmaEngine& sdma() { return sdma_; }
  const Iommu& iommu() const { return iommu_; }
  const Ih& ih() const { return ih_; }
  const FirmwareState& firmware() const { return fw_; }
  uint64_t mode1_resets() const { return mode1_resets_; }
  const Nbio& nbio() const { return nbio_; }
  // Engine notices (doorbells, TLB invalidations, PSP commands) that came without an HDP flush
  // since the engine's previous one; each was reported on stderr (and a doorbell or PSP
  // command dropped).
  uint64_t hdp_faults() const { return hdp_faults_.load(); }
  // Register and doorbell accesses made while the chip was in a mode1 reset, when a real card
  // is off the bus (reads come back all ones, writes are lost); each reset's first was
  // reported on stderr.
  uint64_t accesses_during_reset() const { return accesses_during_reset_.load(); }
  // Register and doorbell accesses the card did not decode: memory space off in the command
  // register, or the BAR without an address (a mode1 reset clears both until the driver
  // restores its saved config space, as amdgpu does). Each reported on stderr.
  uint64_t undecoded_accesses() const { return undecoded_accesses_.load(); }
  // TLB invalidations whose engine's ADDR_RANGE did not cover VMID 0 (reported on stderr; the
  // translations stayed cached).
  uint64_t invalidation_range_faults() const { return invalidation_range_faults_.load(); }
  // MMHUB invalidation requests made without holding engine 17's semaphore (each reported on
  // stderr), and MMHUB private invalidations (L2_BANK_SELECT_RESERVED_CID2 bit 25).
  uint64_t unguarded_invalidations() const { return unguarded_invalidations_.load(); }
  uint64_t private_invalidations() const { return private_invalidations_.load(); }
  // Interrupts an engine raised from a source the driver had not enabled (CP_ME1_PIPE0_INT_CNTL,
  // SDMA0_CNTL, the VM context's fault interrupts): the hardware writes no IV for them; the
  // memory writes (and fault status) they came with happen.
  uint64_t suppressed_interrupts() const { return suppressed_interrupts_.load(); }
  // Times the driver cleared CP_HQD_ACTIVE of the queue the MEC was running instead of
  // dequeuing it (each reported on stderr).
  uint64_t hqd_cleared_while_active() const { return hqd_cleared_while_active_.load(); }
  // How long the emulated chip stays unreachable after a mode1 reset starts. Real parts do not
  // publish theirs; amdgpu waits 500 ms (SMU 13) or 1 s (SMU 14) before touching the card, and
  // the model's time lies well inside both.
  static constexpr std::chrono::milliseconds kMode1ResetTime{100};
  // Puts the card in the state another driver (amdgpu) leaves: firmware running, the sOS up,
  // but no AM marker. Tests use it to exercise the driver's reset-then-boot path.
  void assume_booted_by_another_driver();
  // A config-space write of the command register from outside the driver (setpci, a test).
  void write_pci_command(uint16_t command) {
    pci_command_.store(command);
    iommu_.set_bus_master(command & am::kPciCommandBusMaster);
  }

private:
  // The register space as the chip's own bus sees it (no BAR limit): BAR5 accesses, the PCIe
  // index/data pair and the engines come through here.
  uint32_t read_reg(uint32_t index);
  void write_reg(uint32_t index, uint32_t value);
  bool in_bar(uint32_t index, const char* access) const;
  // MM_DATA: the VRAM dword (or register) MM_INDEX and MM_INDEX_HI name.
  uint32_t mm_data_read();
  void mm_data_write(uint32_t value);
  // Whether `what` (an engine notice) follows an HDP flush made after the previous notice
  // through `mark`; says so on stderr when it does not.
  bool hdp_flushed(std::atomic<uint64_t>& mark, const char* what);
  bool hqd_register(uint32_t index) const;
  bool known_register(uint32_t index) const;
  bool known_hub_register(const Gmc& hub, uint32_t index) const;
  HqdState latch_hqd(); // the selected queue's registers, with reg_mutex_ held
  void raise_interrupt();
  bool interrupt_enabled(const am::hw::ih::IvEntry& entry) const;
  void mode1_reset();
  void reset_gc_vm(); // at the RLC autoload
  uint32_t gc(am::hw::Reg r) const { return model_.gc_reg(r); }
  uint32_t ih(uint32_t offset) const { return model_.ih_reg(offset); }

  GpuConfig config_;
  const CardModel& model_;
  const am::hw::GcRegs& gc_regs_;
  am::hw::VmHubRegs gfxhub_regs_;
  int debug_ = 0;
  VramMemory vram_;
  RegisterFile regs_;
  Nbio nbio_;
  std::atomic<uint64_t> cp_hdp_mark_{0}, sdma_hdp_mark_{0}, psp_hdp_mark_{0};
  std::atomic<uint64_t> gfxhub_hdp_mark_{0}, mmhub_hdp_mark_{0};
  std::atomic<uint64_t> hdp_faults_{0};
  Iommu iommu_;
  Gmc gmc_;   // GFXHUB: the CP, the shaders, SDMA (and, in this model, the PSP)
  Gmc mmhub_; // MMHUB: the IH's ring and write-back
  FbAperture fb_; // the PSP's MC addresses
  Ih ih_;
  FirmwareState fw_;
  Smu smu_;
  Psp psp_;
  uint64_t mode1_resets_ = 0;
  std::atomic<int64_t> reset_ends_ns_{0}; // steady-clock time the current reset ends
  std::atomic<uint64_t> accesses_during_reset_{0};
  bool in_reset(const char* access, uint32_t index);
  // PCI command register: memory decoding on (the firmware enumerated the card), bus mastering
  // off until the driver sets it.
  std::atomic<uint16_t> pci_command_{am::kPciCommandMemory};
  // Config dwords 4..9, the BARs as the firmware assigned them (see kPowerOnBars), and the two
  // writable header bytes (cache line size, interrupt line). A mode1 reset clears them.
  std::array<std::atomic<uint32_t>, 6> bars_{};
  std::atomic<uint32_t> cache_line_{0}, interrupt_line_{0};
  std::atomic<uint64_t> undecoded_accesses_{0};
  std::atomic<uint64_t> invalidation_range_faults_{0};
  std::atomic<uint64_t> unguarded_invalidations_{0}, private_invalidations_{0};
  bool mmhub_sem_held_ = false; // MMHUB engine 17's semaphore, under reg_mutex_
  std::atomic<uint64_t> suppressed_interrupts_{0};
  std::atomic<uint64_t> hqd_cleared_while_active_{0};
  // The last SDMA doorbell while the engine was halted, taken up when it is unhalted; the same
  // for the compute queue's doorbell while MEC pipe 0 does not run.
  static constexpr uint64_t kNoPendingWptr = ~0ull;
  std::atomic<uint64_t> sdma_pending_wptr_{kNoPendingWptr};
  std::atomic<uint64_t> cp_pending_wptr_{kNoPendingWptr};
  bool decodes(unsigned bar, const char* access, uint32_t index);
  void reset_config_space();
  std::mutex reg_mutex_;
  uint32_t grbm_select_ = 0;
  // SH_MEM_BASES / SH_MEM_CONFIG per VMID: written under reg_mutex_, read by the MEC on every
  // dispatch without it (the values change only when the driver programs a VMID).
  std::array<std::atomic<uint32_t>, 16> sh_mem_bases_{};
  std::array<std::atomic<uint32_t>, 16> sh_mem_config_{};
  std::unordered_map<uint32_t, std::unordered_map<uint32_t, uint32_t>> hqd_banks_;
  MecControl mec_control_;
  const am::hw::sq::SqRegs& sq_regs_;
  Sq sq_;
  Mec mec_;
  SdmaEngine sdma_;
  std::mutex irq_mutex_;
  std::condition_variable irq_cv_;
  uint64_t irq_count_ = 0;
  uint64_t irq_seen_ = 0;
};

// The emulated cards of this process, created on first use and kept for its lifetime, so that
// a driver that closes and reopens a card finds it as it left it (the fast re-init path).
// `spec` is a card model ("gfx1100"), optionally with ":rebar" for a BAR0 as large as VRAM
// (AMCL_SIM_REBAR=1 gives every card one); the default BAR0 is 256 MiB. AMCL_SIM_VRAM_MB sizes
// VRAM. The first open of an index decides its configuration.
std::shared_ptr<Gpu> open_emulated_gpu(const std::string& spec, unsigned index);

} // namespace sim
