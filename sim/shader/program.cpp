// Program: a code object's instructions decoded once per address and shared by the waves of a
// dispatch on every worker thread, and by later dispatches while its code pages hold the same
// bytes (ProgramCache).
#include "executor.h"

#include <algorithm>
#include <cstring>

namespace sim::shader {

Program::Program(MemoryPort& memory, uint64_t entry, Gfx gfx)
    : memory_(&memory), base_(entry), gfx_(gfx) {}

Program::~Program() = default;

// Compares only the bytes decodes read (an empty kernel's one dword, not its page's 4 KiB):
// once per dispatch, the whole page's memcmp was a tenth of the emulated MEC's time.
bool Program::revalidate(MemoryPort& memory) {
  // No lock: no dispatch runs the program now (the workers of the last one have been joined),
  // so nothing decodes into pages_ (a lock pair was 2 % of the emulated MEC's work).
  for (const auto& [page, copy] : pages_) {
    try {
      const uint8_t* now = memory.translate(page, 4096, false, true);
      if (std::memcmp(now + copy.lo, copy.bytes.data() + copy.lo, copy.hi - copy.lo) != 0)
        return false;
    } catch (const MemoryFault&) {
      return false;
    }
  }
  memory_ = &memory;
  return true;
}

// Keeps the bytes of the code page holding the dword at `va`, and marks that dword as read by
// a decode, for revalidate.
void Program::snapshot_dword(uint64_t va, MemoryPort& memory) {
  const uint64_t page_va = va & ~uint64_t(4095);
  auto it = pages_.find(page_va);
  if (it == pages_.end()) {
    const uint8_t* p = memory.translate(page_va, 4096, false, true);
    it = pages_.emplace(page_va, PageCopy{std::vector<uint8_t>(p, p + 4096), 4096, 0}).first;
  }
  const uint32_t off = uint32_t(va & 4095);
  it->second.lo = std::min(it->second.lo, off);
  it->second.hi = std::max(it->second.hi, off + 4);
}

const Program::Node& Program::decode_at(uint64_t pc, MemoryPort& memory) {
  if (pc & 3) throw ShaderFault("misaligned program counter " + hex(pc));
  const uint64_t slot = (pc - base_) / 4;
  const bool indexed = pc >= base_ && slot < kMaxIndexed;
  std::lock_guard lock(decode_mutex_);
  // Another worker may have decoded it while this one waited.
  Slot* chunk = indexed ? chunks_[slot / kChunk].load(std::memory_order_relaxed) : nullptr;
  if (chunk)
    if (const Node* n = chunk[slot % kChunk].load(std::memory_order_relaxed)) return *n;
  if (!indexed)
    if (auto it = far_.find(pc); it != far_.end()) return it->second;
  // An instruction is at most 3 dwords (64-bit encoding + literal); read what is mapped.
  uint32_t words[3] = {};
  size_t n = 0;
  for (; n < 3; ++n) {
    try {
      std::memcpy(&words[n], memory.translate(pc + 4 * n, 4, false, true), 4);
      snapshot_dword(pc + 4 * n, memory);
    } catch (const MemoryFault&) {
      if (n == 0) throw;
      break;
    }
  }
  std::string why;
  auto inst = decode(std::span<const uint32_t>(words, n), gfx_, &why);
  if (!inst) throw ShaderFault(why + " at pc " + hex(pc));
  if (!indexed) return far_.try_emplace(pc, *inst).first->second; // before the entry or far away
  if (!chunk) {
    owned_chunks_.push_back(std::make_unique<Slot[]>(kChunk));
    chunk = owned_chunks_.back().get();
    chunks_[slot / kChunk].store(chunk, std::memory_order_release);
  }
  insts_.emplace_back(*inst);
  // Published after it is complete: lookups on other threads take no lock.
  chunk[slot % kChunk].store(&insts_.back(), std::memory_order_release);
  return insts_.back();
}

} // namespace sim::shader
