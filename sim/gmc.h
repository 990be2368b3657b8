// One emulated VM hub of the GMC (GFXHUB: gfxhub 3.0 on gfx11, 12.0 on gfx12; MMHUB: 3.0 /
// 4.1): translates GPU virtual addresses of VMID 0 by walking the driver's 3-level page tables,
// found through this hub's own context 0 registers, with the card's real PDE/PTE bit layout,
// then resolves VRAM or IOMMU-mapped system memory. Untranslatable accesses raise MemoryFault;
// a hub the driver has not programmed faults every access (its L1 TLB is off and its context 0
// disabled). Addresses in the hub's system aperture are MC addresses of the frame buffer.
// Translations are cached as the UTCL1/UTCL2 TLBs cache them: a page-table change is seen only
// after the driver invalidates (GCVM_INVALIDATE_ENG17_REQ), so a driver that forgets to, after
// freeing memory say, keeps reaching the old pages here as it would on a real card.
#pragma once
#include "am/hw/gmc.h"
#include "am/hw/vm_hub_regs.h"
#include "card_model.h"
#include "iommu.h"
#include "register_file.h"
#include "shader/memory_port.h"

#include <atomic>
#include <cstdint>

namespace sim {

class Gmc : public shader::MemoryPort {
public:
  // Which of a card's two hubs this is; a thread keeps one TLB for each (gmc.cpp).
  enum class Hub : unsigned { Gfx = 0, Mm = 1 };
  // `hub` names the hub's registers; `seg` maps their BASE_IDX to BAR5 dword indices.
  Gmc(const char* name, Hub which, const am::hw::VmHubRegs& hub, const uint32_t (&seg)[2],
      const RegisterFile& regs, const CardModel& model, uint8_t* vram, uint64_t vram_size,
      const Iommu& iommu)
      : name_(name), which_(which), hub_(hub), seg_{seg[0], seg[1]}, regs_(regs), model_(model),
        vram_(vram), vram_size_(vram_size), iommu_(iommu) {}

  uint8_t* translate(uint64_t va, size_t len, bool write, bool execute = false) override;
  // The run of pages after va's that continue it in host memory with the same rights: one
  // walk, then the leaf table's next entries (or the rest of a 2 MiB PDE-as-PTE block), each
  // taken from the TLB when it holds the page, as a page-by-page walk would; the run ends
  // before the first page that differs or would fault, and the IOMMU is asked once per run.
  uint8_t* translate_run(uint64_t va, size_t len, bool write, size_t& run) override;
  // The BAR5 dword index of one of this hub's registers.
  uint32_t reg(am::hw::Reg r) const { return seg_[r.base_idx] + r.offset; }
  const am::hw::VmHubRegs& hub() const { return hub_; }
  // An invalidation request for VMID 0: every cached translation is dropped.
  void invalidate_tlb() { generation_.fetch_add(1, std::memory_order_acq_rel); }

  // Device-physical access (page-table walks, VRAM addresses).
  uint8_t* vram_at(uint64_t pa, uint64_t len) const {
    return pa + len <= vram_size_ && pa + len >= pa ? vram_ + pa : nullptr;
  }

private:
  struct Tlb; // this thread's cache of leaf entries (gmc.cpp)
  static Tlb& this_thread_tlb(Hub which);
  // translate's misses and faults: the cache refilled, the walk, the fault's report.
  [[gnu::noinline]] uint8_t* translate_slow(Tlb& entries, uint64_t va, size_t len, bool write,
                                            bool execute);
  // Whether the entry allows the access: the one statement of the rule (check_rights, which
  // says why not, asks it first).
  bool rights_allow(uint64_t pte, bool write, bool execute) const {
    const uint64_t need = (write ? am::hw::gmc::PTE_WRITEABLE : am::hw::gmc::PTE_READABLE) |
                          (execute ? am::hw::gmc::PTE_EXECUTABLE : 0);
    return (pte & need) == need && (!(pte & am::hw::gmc::PTE_SYSTEM) || iommu_.bus_master());
  }
  // VMID 0 addresses inside the system aperture (SYSTEM_APERTURE_LOW/HIGH_ADDR, 256 KiB units,
  // inclusive) are MC addresses: the frame buffer by offset from FB_LOCATION_BASE, no page walk
  // (amdgpu and tinygrad's AM aim it at the frame buffer). nullptr outside the aperture.
  uint8_t* system_aperture(uint64_t va, size_t len, bool write) const;
  uint64_t read_entry(uint64_t table_pa, unsigned index, uint64_t va) const;
  // Where a walk ended: the table holding the leaf entry, its index and level (0: a PTB,
  // 1: a PDE-as-PTE block).
  struct Leaf {
    uint64_t table = 0;
    unsigned index = 0, level = 0;
  };
  // Walks the page tables: the leaf entry for va's 4 KiB page, its address narrowed to that
  // page; `leaf` (optional) receives where it was found.
  uint64_t walk(uint64_t va, size_t len, bool write, Leaf* leaf = nullptr) const;
  // How many bytes after va's page (up to `want`) continue `pte`'s page contiguously with the
  // same rights, 0 when none do. Never faults.
  uint64_t extend_run(uint64_t va, uint64_t pte, uint64_t want, bool write) const;
  // Faults unless the entry allows the access (and, for system memory, bus mastering is on).
  void check_rights(uint64_t pte, uint64_t va, bool write, bool execute) const;
  // Checks the entry's permissions and returns the host memory behind it.
  uint8_t* resolve(uint64_t pte, uint64_t va, size_t len, bool write, bool execute) const;
  [[noreturn]] void fault(const char* what, uint64_t va, bool write) const;
  const char* name_;
  Hub which_;
  am::hw::VmHubRegs hub_;
  uint32_t seg_[2];
  const RegisterFile& regs_;
  const CardModel& model_;
  uint8_t* vram_;
  uint64_t vram_size_;
  const Iommu& iommu_;
  const uint64_t id_ = next_id_.fetch_add(1); // tells this GMC's cache lines from another's
  std::atomic<uint64_t> generation_{0};       // bumped by each invalidation
  static inline std::atomic<uint64_t> next_id_{1};
};

} // namespace sim
