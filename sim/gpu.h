// sim::Gpu — an emulated RDNA3 card (gfx1100, RX 7900 XTX, PCI 1002:744c) behind am::Pci.
// It models the hardware contract, not amcl's driver: registers with the side effects the
// hardware has, VRAM behind BAR0, doorbells, an IOMMU, the GMC page walker, the MEC and SDMA
// engines on their own threads, and the shader core.
#pragma once
#include "am/pci.h"
#include "gmc.h"
#include "ih.h"
#include "iommu.h"
#include "mec.h"
#include "register_file.h"
#include "sdma_engine.h"

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

namespace sim {

struct GpuConfig {
  std::string gfx = "gfx1100";
  uint16_t device_id = 0x744c;
  uint8_t revision = 0xc8;
  uint64_t vram_bytes = 4ull << 30;
  unsigned index = 0;
};

class Gpu final : public am::Pci, public DeviceServices {
public:
  explicit Gpu(const GpuConfig& config);
  ~Gpu() override;
  Gpu(const Gpu&) = delete;
  Gpu& operator=(const Gpu&) = delete;

  // am::Pci
  uint32_t config_read32(uint32_t offset) override;
  uint32_t reg_read32(uint32_t index) override;
  void reg_write32(uint32_t index, uint32_t value) override;
  void doorbell_write64(uint32_t index, uint64_t value) override;
  uint8_t* vram() override { return vram_; }
  uint64_t vram_size() const override { return config_.vram_bytes; }
  uint64_t dma_map(void* host, uint64_t size) override { return iommu_.map(host, size); }
  void dma_unmap(uint64_t bus, uint64_t size) override { iommu_.unmap(bus, size); }
  bool wait_interrupt(std::chrono::microseconds timeout) override;
  std::string address() const override { return "sim:" + std::to_string(config_.index); }
  bool emulated() const override { return true; }

  // DeviceServices
  Gmc& gmc() override { return gmc_; }
  uint32_t reg_read(uint32_t index) override { return reg_read32(index); }
  void reg_write(uint32_t index, uint32_t value) override { reg_write32(index, value); }
  void post_interrupt(const am::hw::ih::IvEntry& entry) override;
  void report_vm_fault(uint64_t address, bool write, const std::string& what) override;
  uint64_t gpu_clock() override;
  uint32_t sh_mem_bases(unsigned vmid) override;
  shader::Gfx shader_isa() const override {
    return config_.gfx.starts_with("gfx12") ? shader::Gfx::v12 : shader::Gfx::v11;
  }

  const GpuConfig& config() const { return config_; }
  Mec& mec() { return mec_; }
  SdmaEngine& sdma() { return sdma_; }
  const Iommu& iommu() const { return iommu_; }
  const Ih& ih() const { return ih_; }

private:
  bool hqd_register(uint32_t index) const;
  HqdState latch_hqd(); // the selected queue's registers, with reg_mutex_ held
  void raise_interrupt();

  GpuConfig config_;
  int debug_ = 0;
  uint8_t* vram_ = nullptr;
  RegisterFile regs_;
  Iommu iommu_;
  Gmc gmc_;
  Ih ih_;
  std::mutex reg_mutex_;
  uint32_t grbm_select_ = 0;
  uint32_t sh_mem_bases_[16] = {}; // SH_MEM_BASES per VMID
  uint32_t sh_mem_config_[16] = {};
  std::unordered_map<uint32_t, std::unordered_map<uint32_t, uint32_t>> hqd_banks_;
  Mec mec_;
  SdmaEngine sdma_;
  std::mutex irq_mutex_;
  std::condition_variable irq_cv_;
  uint64_t irq_count_ = 0;
  uint64_t irq_seen_ = 0;
};

// The emulated cards of this process, created on first use and kept for its lifetime, so that
// a driver that closes and reopens a card finds it as it left it (the fast re-init path).
std::shared_ptr<Gpu> open_emulated_gpu(const std::string& gfx, unsigned index);

} // namespace sim
