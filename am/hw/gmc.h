// Page-table entry layout of GMC v11 (gfxhub 3.0 / mmhub 3.0) and GMC v12 (gfxhub 12.0 /
// mmhub 4.1), VMID 0.
// Source: Linux drivers/gpu/drm/amd/amdgpu/amdgpu_vm.h (AMDGPU_PTE_*, AMDGPU_PDE_*, and the
// gfx12 format change: AMDGPU_PDE_PTE_GFX12, AMDGPU_PTE_IS_PTE, AMDGPU_PTE_MTYPE_GFX12),
// gmc_v11_0.c / gmc_v12_0.c (3-level layout: PAGE_TABLE_DEPTH, 9-bit blocks), and tinygrad's
// AM driver (am/amdev.py: on GC >= 12 leaves carry IS_PTE, PDE-as-PTE uses bit 63). Pinned by
// tests/am/hw_facts_test.cpp.
#pragma once
#include <cstdint>

namespace am::hw::gmc {

inline constexpr uint64_t PTE_VALID = 1ull << 0;
inline constexpr uint64_t PTE_SYSTEM = 1ull << 1;
inline constexpr uint64_t PTE_SNOOPED = 1ull << 2;
inline constexpr uint64_t PTE_TMZ = 1ull << 3;
inline constexpr uint64_t PTE_EXECUTABLE = 1ull << 4;
inline constexpr uint64_t PTE_READABLE = 1ull << 5;
inline constexpr uint64_t PTE_WRITEABLE = 1ull << 6;
inline constexpr uint64_t pte_fragment(uint64_t x) { return (x & 0x1f) << 7; }
inline constexpr uint64_t pte_fragment_of(uint64_t e) { return (e >> 7) & 0x1f; }
// A PDE whose PDE_PTE bit is set maps a whole block directly (2 MiB at the PDB0 level).
// GMC v11 keeps the flag in bit 54; GMC v12 moved it to bit 63, where bits [55:54] became the
// memory type, so a v11-style entry on a v12 walker points at a "page table" instead.
inline constexpr uint64_t PDE_PTE = 1ull << 54;
inline constexpr uint64_t PDE_PTE_GFX12 = 1ull << 63;
// GMC v12 leaves (PTB entries) mark themselves as PTEs with bit 63 too.
inline constexpr uint64_t PTE_IS_PTE_GFX12 = 1ull << 63;
inline constexpr uint64_t pte_mtype_gfx12(uint64_t mtype) { return (mtype & 3) << 54; }

// The two entry formats, by GC major version.
enum class PteFormat { v11, v12 };
inline constexpr PteFormat pte_format_for_gc_major(unsigned major) {
  return major >= 12 ? PteFormat::v12 : PteFormat::v11;
}
inline constexpr uint64_t pde_pte_flag(PteFormat f) {
  return f == PteFormat::v12 ? PDE_PTE_GFX12 : PDE_PTE;
}
// Address field of PDEs and PTEs: bits [47:12].
inline constexpr uint64_t kAddressMask = 0x0000FFFFFFFFF000ull;

inline constexpr uint64_t kPageSize = 4096;
inline constexpr uint32_t kEntriesPerTable = 512; // 9 bits per level (block size 0)
inline constexpr uint32_t kLevels = 3;            // PDB1 -> PDB0 -> PTB
inline constexpr uint32_t kPageTableDepth = 2;    // GCVM_CONTEXT0_CNTL.PAGE_TABLE_DEPTH
inline constexpr uint64_t kVaSpan = 1ull << 39;   // 512 GiB covered by one PDB1

// Bit position of the index at each level (level 0 = PTB, 2 = root).
inline constexpr uint32_t level_shift(uint32_t level) { return 12 + 9 * level; }

} // namespace am::hw::gmc
