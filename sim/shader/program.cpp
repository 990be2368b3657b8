// Program: a code object's instructions decoded once per address and shared by the waves of a
// dispatch, and by later dispatches while its code pages hold the same bytes (ProgramCache).
#include "executor.h"

#include <cstring>

namespace sim::shader {

bool Program::revalidate(MemoryPort& memory) {
  for (const auto& [page, bytes] : pages_) {
    try {
      if (std::memcmp(memory.translate(page, 4096, false, true), bytes.data(), 4096) != 0)
        return false;
    } catch (const MemoryFault&) {
      return false;
    }
  }
  memory_ = &memory;
  return true;
}

// Keeps the bytes of a code page the program decodes from, for revalidate.
void Program::snapshot_page(uint64_t page_va) {
  if (pages_.count(page_va)) return;
  const uint8_t* p = memory_->translate(page_va, 4096, false, true);
  pages_.emplace(page_va, std::vector<uint8_t>(p, p + 4096));
}

const Inst& Program::decode_at(uint64_t pc) {
  if (pc & 3) throw ShaderFault("misaligned program counter " + hex(pc));
  // An instruction is at most 3 dwords (64-bit encoding + literal); read what is mapped.
  uint32_t words[3] = {};
  size_t n = 0;
  for (; n < 3; ++n) {
    try {
      std::memcpy(&words[n], memory_->translate(pc + 4 * n, 4, false, true), 4);
      snapshot_page((pc + 4 * n) & ~uint64_t(4095));
    } catch (const MemoryFault&) {
      if (n == 0) throw;
      break;
    }
  }
  std::string why;
  auto inst = decode(std::span<const uint32_t>(words, n), gfx_, &why);
  if (!inst) throw ShaderFault(why + " at pc " + hex(pc));
  const uint64_t slot = (pc - base_) / 4;
  if (pc >= base_ && slot < kMaxIndexed) {
    if (slot >= index_.size()) index_.resize(size_t(slot) + 1, nullptr);
    insts_.push_back(*inst);
    index_[slot] = &insts_.back();
    return insts_.back();
  }
  return far_.emplace(pc, *inst).first->second; // code before the entry or far away
}

} // namespace sim::shader
