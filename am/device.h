// am::Device — the user-space driver for one RDNA3 or RDNA4 card (emulated or real) reached through
// am::Pci: boot, VMID 0 page tables, VRAM/system memory, the MEC compute queue (pipe 0
// queue 0, MES bypassed) and SDMA engine 0 queue 0, with 64-bit timeline signals.
#pragma once
#include "device_error.h"
#include "hw/gc_regs.h"
#include "hw/gmc.h"
#include "hw/mp_regs.h"
#include "hw/nbio_regs.h"
#include "hw/sq.h"
#include "hw/vm_hub_regs.h"
#include "ih_ring.h"
#include "ip_discovery.h"
#include "memory.h"
#include "page_table.h"
#include "pci.h"
#include "pm4_builder.h"
#include "ring.h"
#include "sdma_builder.h"
#include "vram_allocator.h"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace am {

struct DeviceInfo {
  std::string gfx;        // "gfx1100"
  std::string name;       // marketing name
  uint16_t vendor_id = 0, device_id = 0;
  uint8_t revision = 0;
  uint64_t vram_size = 0;
  unsigned compute_units = 0;
  unsigned max_clock_mhz = 0;
  std::string pci_address;
  bool emulated = false;
};

enum class Engine { Compute, Sdma };

// How a boot found the card (DESIGN.md's three boot states).
enum class BootState {
  Fresh,        // nothing ran on it: full boot (PSP, firmware, SMU, then GFX and SDMA)
  ResetThenFull, // its firmware ran without AM's marker (amdgpu had it) or AM_RESET=1 asked:
                 // mode1 reset, then a full boot
  FastReinit,   // AM booted it earlier (SCRATCH_REG7): only GFX and SDMA are re-initialised
};
const char* to_string(BootState s);

class Psp;
struct PspBuffers;
class Smu;

class Device {
public:
  explicit Device(std::shared_ptr<Pci> pci);
  ~Device();
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

  const DeviceInfo& info() const { return info_; }
  // What the card's IP discovery binary lists (blocks, versions, register bases).
  const IpDiscovery& ip_discovery() const { return discovery_; }
  bool booted_fast() const { return boot_state_ == BootState::FastReinit; }
  BootState boot_state() const { return boot_state_; }
  // Where the firmware came from ("synthetic" for an emulated card), and the SMU firmware's
  // version; empty / 0 after a fast re-init, which loads none.
  const std::string& firmware_source() const { return firmware_source_; }
  uint32_t smu_version() const { return smu_version_; }

  // Memory. Sizes are rounded up to whole pages; failures throw DeviceError.
  Allocation alloc_vram(uint64_t size, uint64_t align = 4096, bool executable = false);
  Allocation alloc_system(uint64_t size);
  void free(const Allocation& a);
  // Peer-to-peer: maps another card's VRAM allocation into this card's page tables at the same
  // GPU address (one VA space for all cards), through that card's BAR0 as this card's IOMMU
  // sees it, so this card's engines read and write it directly. Undo with unmap_peer before the
  // owner frees it; the device unmaps what is left when it goes away.
  void map_peer(const Allocation& remote);
  void unmap_peer(const Allocation& remote);
  uint64_t vram_free() const { return vram_.free_bytes(); }
  // Allocations (VRAM and system memory) not yet freed, and their bytes: what a test checks
  // returns to where it was once everything using the device is released.
  uint64_t live_allocations() const { return live_; }
  uint64_t live_bytes() const { return live_bytes_; }

  // Submits packets to an engine and returns the timeline value that marks their completion.
  // An SDMA stream longer than kMaxSubmissionDwords goes as several submissions, split between
  // packets (a rectangular copy of many rows is one packet per row).
  uint64_t submit_compute(const Pm4Builder& packets);
  uint64_t submit_sdma(const SdmaBuilder& packets);
  static constexpr size_t kMaxSubmissionDwords = 16 * 1024; // a quarter of a ring
  // The address of an engine's timeline signal (for GPU-side waits) and its current value.
  uint64_t completed(Engine e) const;
  // The last timeline value handed out for the engine: once completed() reaches it, everything
  // submitted so far has finished (memory an earlier submission used may then be freed).
  uint64_t submitted(Engine e);
  // Blocks until the engine's timeline reaches `value`. Throws DeviceError when the work
  // faulted (VM fault or shader exception reported through the IH ring) or the queue hung; a
  // hung queue is reset first, so the next submission works.
  void wait(Engine e, uint64_t value);
  uint64_t queue_resets() const { return resets_; }
  uint64_t gpu_clock_hz() const { return 100'000'000; }
  // A GPU timestamp (RELEASE_MEM / COPY_DATA, gpu_clock_hz ticks) as host steady_clock
  // nanoseconds, through an offset measured when the device came up.
  uint64_t host_ns_from_gpu_ticks(uint64_t ticks) const;
  // The SDMA engine's major version (6 on gfx11 parts, 7 on gfx12 parts): SdmaBuilder's encoding.
  unsigned sdma_major() const { return sdma_major_; }

  Pci& pci() { return *pci_; }

private:
  struct Queue {
    Ring ring;
    Allocation ring_mem;
    uint64_t issued = 0;  // timeline values handed out
    // Timeline values of work a queue reset threw away (first, last): their waiters get an
    // error, though the reset completed the timeline so that nobody blocks on them.
    std::vector<std::pair<uint64_t, uint64_t>> lost;
    std::mutex mutex;
  };
  void boot();
  void discover();
  // The PSP and SMU, through the MP0/MP1 register bases IP discovery gave.
  Psp make_psp(const PspBuffers& buffers);
  Psp make_psp(); // without buffers: for register queries only
  Smu make_smu();
  void mode1_reset();
  void load_firmware(); // PSP: sOS, ring, TOC/TMR, SMU and GFX firmware, RLC autoload
  void init_smu();
  // Boot memory: the region below the discovery table that no later allocation (of this or a
  // later session) overwrites, because the PSP keeps firmware in it (the TMR).
  Allocation alloc_boot(uint64_t size, uint64_t align);
  // A GC register's BAR5 dword index, from the bases IP discovery gave.
  uint32_t reg(hw::Reg r) const { return gc_base_[r.base_idx] + r.offset; }
  // SOC/NBIO: opens the doorbell aperture (nbio_v4_3 / nbif_v6_3_1 enable_doorbell_aperture),
  // routes the CP's and SDMA 0's doorbells (S2A entries) and maps the HDP flush register into
  // BAR5 (remap_hdp_registers).
  void init_nbio();
  // A register anywhere in the register space: through BAR5 when it lies inside, else through
  // the PCIe index/data pair (amdgpu_device_indirect_wreg; boot only, one thread).
  void write_reg_any(uint32_t index, uint32_t value);
  // Makes the CPU's earlier writes to VRAM through BAR0 visible to the engines: HDP's write
  // buffer drains (hdp_v6_0_flush_hdp: a write to the remapped flush register, read back).
  // Before every doorbell, TLB invalidation and PSP command.
  void flush_hdp();
  void init_gmc();
  void init_hub_l2_and_fault_defaults();
  void calibrate_clock();
  uint64_t gpu_ns(uint64_t ticks) const;
  // After the page tables change: both VM hubs drop their cached translations of VMID 0
  // (INVALIDATE_ENG17_REQ, then ACK's VMID 0 bit), so the GPU sees new mappings and stops
  // reaching unmapped memory before that memory is reused.
  void invalidate_gpu_tlb();
  void init_shader_memory();
  // The MEC after the RLC autoload: its pipes started at the firmware's entry, unhalted.
  void start_mec();
  // The interrupt sources the waits sleep on: end-of-pipe and bad opcode of MEC 1 pipe 0, and
  // SDMA 0's TRAP.
  void enable_interrupts();
  void init_compute_queue();
  void program_compute_hqd();
  // Takes MEC 1 pipe 0 queue 0 off the hardware if it is active; false if it stayed active.
  // Leaves the queue selected in GRBM_GFX_CNTL.
  bool dequeue_compute();
  void dequeue_compute_or_throw(); // DeviceError if the queue stayed active
  void init_sdma_queue();
  void program_sdma_queue();
  void init_ih();
  void rearm_vm_fault_latch();
  // Reads the IH ring and records faults; returns the messages of new faults.
  void service_interrupts();
  // A shader exception the SQ reported: the halted wave's state (GRBM_GFX_INDEX selects its
  // shader engine, array and SIMD; SQ_IND_INDEX/SQ_IND_DATA read its registers), then the code
  // at its PC. Empty when no halted wave answers to the word.
  std::optional<WaveFault> read_wave_fault(const hw::sq::InterruptWord& word);
  uint32_t read_wave_register(uint32_t wave_id, uint32_t index);
  // Copies up to three dwords at GPU address `va` from the driver's own mappings of the
  // allocations it made; returns how many were inside them.
  unsigned read_code(uint64_t va, uint32_t out[3]);
  void track(const Allocation& a);
  void untrack(uint64_t va);
  void reset_queue(Engine e);
  void discard_faults();
  Queue& queue(Engine e) { return e == Engine::Compute ? compute_ : sdma_; }
  uint64_t signal_va(Engine e) const;
  uint64_t slot_value(unsigned slot) const;
  void set_slot(unsigned slot, uint64_t value);
  template <class Write> uint64_t submit(Queue& q, Engine e, Write&& write);
  uint64_t submit_sdma_words(std::span<const uint32_t> packets);

  std::shared_ptr<Pci> pci_;
  DeviceInfo info_;
  IpDiscovery discovery_;
  uint32_t gc_base_[2] = {0, 0}; // GC segment 0 and 1 bases
  // The VM hubs in front of memory, both given VMID 0 with the one page directory: GFXHUB (CP,
  // shaders, SDMA) and MMHUB (the IH), each with its registers and their segment bases.
  struct VmHub {
    hw::VmHubRegs regs;
    uint32_t base[2];
    uint32_t reg(hw::Reg r) const { return base[r.base_idx] + r.offset; }
  };
  std::vector<VmHub> hubs_;
  const hw::NbioRegs* nbio_regs_ = nullptr;
  uint32_t nbio_base_[4] = {0, 0, 0, 0};
  uint64_t fb_base_ = 0; // the frame buffer's MC address (the PSP's and the SMU's addresses)
  uint64_t fb_top_ = 0;  // its last byte
  uint64_t scratch_page_ = 0, fault_page_ = 0; // VRAM offsets: the hubs' default and fault pages
  uint32_t oss_base_ = 0;        // OSSSYS segment 0 base
  const hw::GcRegs* gc_ = nullptr; // the GC generation's register table
  const hw::IhRegs* ih_regs_ = nullptr;
  const hw::sq::SqRegs* sq_regs_ = nullptr;
  hw::gmc::PteFormat pte_format_ = hw::gmc::PteFormat::v11;
  BootState boot_state_ = BootState::Fresh;
  std::string firmware_source_;
  uint64_t mec_entry_ = 0; // where the MEC firmware is linked (its file's ucode_start_addr)
  uint32_t smu_version_ = 0;
  const hw::PspRegs* psp_regs_ = nullptr;
  const hw::SmuRegs* smu_regs_ = nullptr;
  unsigned mp0_major_ = 0;
  unsigned sdma_major_ = 6;
  uint32_t mp0_base_[2] = {0, 0}, mp1_base_[2] = {0, 0};
  uint64_t boot_next_ = 0;          // next free byte of the boot region (VRAM offset)
  std::vector<Allocation> boot_allocs_; // their VA mappings, released with the device
  std::vector<Allocation> peers_;       // peer mappings (phys = the bus address here)
  VramAllocator vram_;
  std::unique_ptr<PageTable> pt_;
  Allocation signals_;   // one 64-bit timeline slot per engine + read-pointer write-backs
  Allocation mqd_, eop_, ih_mem_;
  Queue compute_, sdma_;
  IhRing ih_;
  std::mutex fault_mutex_;
  std::mutex tlb_mutex_;
  int64_t clock_offset_ns_ = 0; // host steady_clock ns minus GPU ns
  struct Fault {
    std::string message;
    std::optional<WaveFault> wave;
  };
  std::vector<Fault> faults_; // device faults not yet reported to a waiter
  std::mutex sq_mutex_;       // the GRBM_GFX_INDEX / SQ_IND_INDEX selection while a wave is read
  // Every allocation the driver has mapped, by GPU address: its own view of memory.
  std::map<uint64_t, Allocation> mapped_;
  std::mutex mapped_mutex_;
  std::atomic<bool> compute_stopped_ = false; // the MEC reported a bad packet
  std::atomic<bool> sdma_stopped_ = false;    // the SDMA engine reported a stuck queue
  std::atomic<uint64_t> resets_ = 0;
  std::atomic<uint64_t> live_ = 0, live_bytes_ = 0;
  std::chrono::milliseconds hang_timeout_;
};

} // namespace am
