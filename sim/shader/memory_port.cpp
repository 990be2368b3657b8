#include "memory_port.h"

#include "worker_pool.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <exception>
#include <vector>

namespace sim::shader {
namespace {

// Waves on different compute units may race on the same bytes (a kernel storing to one word
// from many work-items is legal OpenCL and well defined on the hardware: one store wins). The
// host threads that run those waves therefore touch guest memory with relaxed atomics, one
// naturally aligned word or byte at a time: plain moves on x86, but defined behaviour in C++
// and no false reports under ThreadSanitizer.
template <class T> void copy_relaxed(uint8_t* dst, const uint8_t* src, size_t n, bool to_guest) {
  for (size_t i = 0; i < n; i += sizeof(T)) {
    T v;
    if (to_guest) {
      std::memcpy(&v, src + i, sizeof(T));
      std::atomic_ref<T>(*reinterpret_cast<T*>(dst + i)).store(v, std::memory_order_relaxed);
    } else {
      v = std::atomic_ref<T>(*reinterpret_cast<T*>(const_cast<uint8_t*>(src + i)))
              .load(std::memory_order_relaxed);
      std::memcpy(dst + i, &v, sizeof(T));
    }
  }
}

// Both sides in guest memory: relaxed loads and relaxed stores.
template <class T> void move_relaxed(uint8_t* dst, const uint8_t* src, size_t n) {
  for (size_t i = 0; i < n; i += sizeof(T)) {
    const T v = std::atomic_ref<T>(*reinterpret_cast<T*>(const_cast<uint8_t*>(src + i)))
                    .load(std::memory_order_relaxed);
    std::atomic_ref<T>(*reinterpret_cast<T*>(dst + i)).store(v, std::memory_order_relaxed);
  }
}

// Both sides in guest memory at different alignments (a DMA copy of rows whose pitch is no
// multiple of 8): the source is read into a host bounce buffer as the aligned words inside it
// (bytes at its ends: a DMA engine reads only what it copies, and the source may end inside a
// host allocation mapped for DMA), then written as aligned words, with bytes only at the ends of
// the destination.
void move_misaligned(uint8_t* dst, const uint8_t* src, size_t n) {
  constexpr size_t kPiece = 4096;
  uint8_t bounce[kPiece];
  while (n) {
    const size_t piece = std::min(n, kPiece);
    const size_t src_head = std::min(piece, (8 - reinterpret_cast<uintptr_t>(src) % 8) % 8);
    const size_t src_words = (piece - src_head) & ~size_t{7};
    copy_relaxed<uint8_t>(bounce, src, src_head, false);
    copy_relaxed<uint64_t>(bounce + src_head, src + src_head, src_words, false);
    copy_relaxed<uint8_t>(bounce + src_head + src_words, src + src_head + src_words,
                          piece - src_head - src_words, false);
    const size_t head = std::min(piece, (8 - reinterpret_cast<uintptr_t>(dst) % 8) % 8);
    copy_relaxed<uint8_t>(dst, bounce, head, true);
    const size_t words = (piece - head) & ~size_t{7};
    copy_relaxed<uint64_t>(dst + head, bounce + head, words, true);
    copy_relaxed<uint8_t>(dst + head + words, bounce + head + words, piece - head - words, true);
    dst += piece, src += piece, n -= piece;
  }
}

#if !defined(__SANITIZE_THREAD__)
// Whether the host ranges [a, a + n) and [b, b + n) share a byte.
bool overlap(const uint8_t* a, const uint8_t* b, size_t n) {
  const auto x = reinterpret_cast<uintptr_t>(a), y = reinterpret_cast<uintptr_t>(b);
  return x < y + n && y < x + n;
}

// Long moves of separate ranges go to the C library's memcpy, at the host's copy bandwidth (the
// relaxed word loops below move 8 bytes a load and a store, which compilers do not vectorise:
// a quarter of memcpy's rate on cached data, stop 34). memcpy is an opaque call that reads only
// the source's bytes, and it moves them with vector or fast-string moves that write an aligned
// word once, so a wave racing on those bytes sees each word old or new as with the word loops
// (the same argument as flat.cpp's coalesced rows). TSan builds keep the word loops, whose
// relaxed atomics it sees.
constexpr size_t kMemcpyFrom = 64;
bool by_memcpy(uint8_t* dst, const uint8_t* src, size_t n) {
  if (n < kMemcpyFrom || overlap(dst, src, n)) return false;
  std::memcpy(dst, src, n);
  return true;
}
#else
bool by_memcpy(uint8_t*, const uint8_t*, size_t) {
  return false;
}
#endif

// fill32's pattern block, in bytes.
[[maybe_unused]] constexpr size_t kFillPattern = 256;

// One translated run of a DMA copy, in the widest words both sides' alignment allows.
// Overlapping ranges keep the word loops' forward order.
void move_run(uint8_t* dst, const uint8_t* src, size_t n) {
  if (by_memcpy(dst, src, n)) return;
  const uintptr_t both = reinterpret_cast<uintptr_t>(src) | reinterpret_cast<uintptr_t>(dst) | n;
  if (both % 8 == 0)
    move_relaxed<uint64_t>(dst, src, n);
  else if (both % 4 == 0)
    move_relaxed<uint32_t>(dst, src, n);
  else if (n < 16)
    move_relaxed<uint8_t>(dst, src, n);
  else
    move_misaligned(dst, src, n);
}

void guest_copy(uint8_t* dst, const uint8_t* src, size_t n, bool to_guest) {
  if (by_memcpy(dst, src, n)) return;
  const uintptr_t guest = reinterpret_cast<uintptr_t>(to_guest ? dst : src);
  if ((guest | n) % 8 == 0)
    copy_relaxed<uint64_t>(dst, src, n, to_guest);
  else if ((guest | n) % 4 == 0)
    copy_relaxed<uint32_t>(dst, src, n, to_guest);
  else if ((guest | n) % 2 == 0)
    copy_relaxed<uint16_t>(dst, src, n, to_guest);
  else
    copy_relaxed<uint8_t>(dst, src, n, to_guest);
}

} // namespace

// Splits an access where host contiguity ends (page boundaries) so each piece is translated on
// its own.
void MemoryPort::read(uint64_t va, void* dst, size_t len) {
  auto* out = static_cast<uint8_t*>(dst);
  while (len) {
    size_t chunk = std::min<size_t>(len, contiguous(va));
    guest_copy(out, translate(va, chunk, false), chunk, false);
    va += chunk, out += chunk, len -= chunk;
  }
}

void MemoryPort::write(uint64_t va, const void* src, size_t len) {
  auto* in = static_cast<const uint8_t*>(src);
  while (len) {
    size_t chunk = std::min<size_t>(len, contiguous(va));
    guest_copy(translate(va, chunk, true), in, chunk, true);
    va += chunk, in += chunk, len -= chunk;
  }
}

void MemoryPort::copy(uint64_t dst_va, uint64_t src_va, size_t len) {
  while (len) {
    // Both sides' runs (whole pages to a page table's end) before moving any byte, so a fault
    // on either side stops the copy where page-by-page translation would.
    size_t src_run = 0, dst_run = 0;
    const uint8_t* src = translate_run(src_va, len, false, src_run);
    uint8_t* dst = translate_run(dst_va, src_run, true, dst_run);
    const size_t chunk = std::min(src_run, dst_run);
    move_run(dst, src, chunk);
    src_va += chunk, dst_va += chunk, len -= chunk;
  }
}

void MemoryPort::copy_parallel(uint64_t dst_va, uint64_t src_va, size_t len, WorkerPool& pool,
                               unsigned parts) {
  if (parts < 2 || (dst_va < src_va + len && src_va < dst_va + len))
    return copy(dst_va, src_va, len); // overlapping ranges copy forwards
  struct Run {
    uint8_t* dst;
    const uint8_t* src;
    size_t n;
  };
  std::vector<Run> runs;
  std::exception_ptr fault;
  size_t planned = 0;
  uintptr_t src_lo = UINTPTR_MAX, src_hi = 0, dst_lo = UINTPTR_MAX, dst_hi = 0;
  try {
    while (planned < len) {
      size_t src_run = 0, dst_run = 0;
      const uint8_t* src = translate_run(src_va + planned, len - planned, false, src_run);
      uint8_t* dst = translate_run(dst_va + planned, src_run, true, dst_run);
      const size_t n = std::min(src_run, dst_run);
      runs.push_back({dst, src, n});
      planned += n;
      src_lo = std::min(src_lo, reinterpret_cast<uintptr_t>(src));
      src_hi = std::max(src_hi, reinterpret_cast<uintptr_t>(src) + n);
      dst_lo = std::min(dst_lo, reinterpret_cast<uintptr_t>(dst));
      dst_hi = std::max(dst_hi, reinterpret_cast<uintptr_t>(dst) + n);
    }
  } catch (const MemoryFault&) {
    fault = std::current_exception();
  }
  // Two addresses of one page (the same memory mapped twice) would make the order matter.
  if (src_lo < dst_hi && dst_lo < src_hi) parts = 1;
  // Slices cut at 4 KiB multiples of the copy, so each side keeps its alignment in every slice.
  auto slice = [&](unsigned i) {
    const size_t begin = i ? planned * i / parts & ~size_t{4095} : 0;
    const size_t end = i + 1 < parts ? planned * (i + 1) / parts & ~size_t{4095} : planned;
    size_t at = 0;
    for (const Run& r : runs) {
      const size_t from = std::max(begin, at), to = std::min(end, at + r.n);
      if (from < to) move_run(r.dst + (from - at), r.src + (from - at), to - from);
      at += r.n;
      if (at >= end) break;
    }
  };
  if (parts == 1)
    slice(0);
  else
    pool.run(parts, slice);
  if (fault) std::rethrow_exception(fault);
}

void MemoryPort::fill32(uint64_t va, uint32_t value, size_t len) {
  const uint64_t pair = uint64_t(value) << 32 | value;
  while (len) {
    size_t run = 0;
    uint8_t* p = translate_run(va, len, true, run);
    size_t i = 0;
#if !defined(__SANITIZE_THREAD__)
    if (run >= 2 * kFillPattern && !(reinterpret_cast<uintptr_t>(p) & 3)) {
      // Long runs as memcpy of a pattern (by_memcpy's single copies): the word loop below
      // stored 8 bytes a store, which compilers do not vectorise for atomics.
      alignas(16) uint32_t pattern[kFillPattern / 4];
      std::fill_n(pattern, kFillPattern / 4, value);
      for (; i + kFillPattern <= run; i += kFillPattern) std::memcpy(p + i, pattern, kFillPattern);
      std::memcpy(p + i, pattern, run - i); // run and i are dword multiples
      va += run, len -= run;
      continue;
    }
#endif
    if (reinterpret_cast<uintptr_t>(p) & 3) { // host bytes not dword aligned (a test's memory)
      for (; i < run; i += 4) guest_copy(p + i, reinterpret_cast<const uint8_t*>(&value), 4, true);
    } else if (reinterpret_cast<uintptr_t>(p) & 7) {
      std::atomic_ref<uint32_t>(*reinterpret_cast<uint32_t*>(p))
          .store(value, std::memory_order_relaxed);
      i = 4;
    }
    for (; i + 8 <= run; i += 8)
      std::atomic_ref<uint64_t>(*reinterpret_cast<uint64_t*>(p + i))
          .store(pair, std::memory_order_relaxed);
    if (i < run)
      std::atomic_ref<uint32_t>(*reinterpret_cast<uint32_t*>(p + i))
          .store(value, std::memory_order_relaxed);
    va += run, len -= run;
  }
}

void MemoryPort::store32(uint64_t va, uint32_t value) {
  if (va & 3) throw MemoryFault(va, true, "misaligned 32-bit write");
  std::atomic_ref<uint32_t>(*reinterpret_cast<uint32_t*>(translate(va, 4, true)))
      .store(value, std::memory_order_release);
}

void MemoryPort::store64(uint64_t va, uint64_t value) {
  if (va & 7) throw MemoryFault(va, true, "misaligned 64-bit write");
  std::atomic_ref<uint64_t>(*reinterpret_cast<uint64_t*>(translate(va, 8, true)))
      .store(value, std::memory_order_release);
}

} // namespace sim::shader
