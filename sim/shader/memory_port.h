// What the shader core needs from the memory system: GPU virtual addresses translated to host
// bytes, with the permission the access needs. The emulator's GMC implements it; an
// untranslatable access throws MemoryFault.
#pragma once
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace sim::shader {

class WorkerPool;

struct MemoryFault : std::runtime_error {
  uint64_t address;
  bool write;
  MemoryFault(uint64_t addr, bool w, const std::string& why)
      : std::runtime_error(why), address(addr), write(w) {}
};

class MemoryPort {
public:
  virtual ~MemoryPort() = default;
  // Host pointer to `len` bytes at `va` that do not cross a 4 KiB page. Throws MemoryFault.
  virtual uint8_t* translate(uint64_t va, size_t len, bool write, bool execute = false) = 0;

  // How many bytes from `va` are contiguous in host memory (translate never crosses it):
  // a 4 KiB page for virtual memory.
  virtual size_t contiguous(uint64_t va) const { return 4096 - (va & 4095); }

  // Host pointer to the first bytes of [va, va + len) and, in `run`, how many of them (at
  // least the rest of va's page, or len) are contiguous in host memory with the access's
  // rights. A DMA engine's long transfers translate once per run instead of once per page;
  // faults are translate's, for the first page only (the caller's next run starts at the page
  // that would fault).
  virtual uint8_t* translate_run(uint64_t va, size_t len, bool write, size_t& run) {
    run = len < contiguous(va) ? len : contiguous(va);
    return translate(va, run, write);
  }

  void read(uint64_t va, void* dst, size_t len);
  void write(uint64_t va, const void* src, size_t len);
  // Device memory to device memory (a DMA engine's copy), each piece translated on both sides
  // and moved directly. Overlapping ranges copy forwards.
  void copy(uint64_t dst_va, uint64_t src_va, size_t len);
  // copy() by `parts` threads of `pool` (the caller's among them) when the two ranges do not
  // overlap: every run translated first, up to a fault, then the runs moved in `parts` slices
  // of the bytes; a fault is thrown after the bytes before it have moved, as copy() leaves them.
  void copy_parallel(uint64_t dst_va, uint64_t src_va, size_t len, WorkerPool& pool,
                     unsigned parts);
  // `len` bytes from `va` set to `value` repeated (a DMA engine's constant fill; `va` and `len`
  // dword aligned), translated a run at a time: a fault leaves the pages before the faulting
  // one filled and none after, as dword by dword.
  void fill32(uint64_t va, uint32_t value, size_t len);
  // Naturally aligned 32/64-bit writes that a host may be polling (fences, signals, write-back
  // pointers): single-copy atomic with release ordering, as the hardware's memory writes are.
  void store32(uint64_t va, uint32_t value);
  void store64(uint64_t va, uint64_t value);
};

} // namespace sim::shader
