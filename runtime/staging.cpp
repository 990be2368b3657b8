#include "staging.h"

#include "am/device_error.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <exception>
#include <mutex>

namespace amcl::rt {

// Host <-> device copies of 1 MiB and more are one SDMA copy from or to the application's own
// pages (copy_direct). The others, and those whose pages cannot be mapped, go through the
// staging buffer in two halves: while the SDMA engine moves one half, the host fills (or
// empties) the other, so a large transfer takes about as long as the slower of the two copies
// instead of their sum.
namespace {

constexpr size_t kHalf = kStagingBytes / 2;

am::Device& device_of(cl_command_queue q) {
  return *q->device->am;
}

void ensure_staging(am::Device& dev, am::Allocation& staging) {
  if (!staging) staging = dev.alloc_system(kStagingBytes);
}

// Waits for every SDMA submission in `pending` (values, 0 = none), even if one fails, so no
// copy still runs into the staging buffer when the error reaches the caller.
void drain(am::Device& dev, uint64_t (&pending)[2]) {
  std::exception_ptr first;
  for (uint64_t& v : pending) {
    if (!v) continue;
    try {
      dev.wait(am::Engine::Sdma, v);
    } catch (...) {
      if (!first) first = std::current_exception();
    }
    v = 0;
  }
  if (first) std::rethrow_exception(first);
}

uint64_t submit_copy(am::Device& dev, uint64_t dst, uint64_t src, size_t n) {
  am::SdmaBuilder b;
  b.copy_linear(dst, src, n);
  return dev.submit_sdma(b);
}

// Transfers of at least this size skip the staging buffer when the application's pages can be
// mapped for DMA: one SDMA copy instead of a host memcpy and an SDMA copy competing for cores.
// Below it, pinning and mapping the pages costs more than the staging copy saves.
constexpr size_t kDirectMin = 1 << 20;

// One direct transfer at a time in the process: two sharing a page of the application would
// pin it twice, and the first to finish would unpin it for both (munlock does not count). A
// transfer that finds the slot busy goes through staging instead of waiting for it.
std::mutex direct_slot;

std::atomic<uint64_t> direct_count{0};

// Maps [host, host + span) of the application for DMA and runs the packets `build` adds, given
// the device address `host` is mapped at (as a real card's driver pins user memory); false when
// that is not possible, and the caller stages.
template <class Build>
bool dma_application_pages(am::Device& dev, const uint8_t* host, size_t span, bool device_writes,
                           Build build) {
  std::unique_lock slot(direct_slot, std::try_to_lock);
  if (!slot) return false;
  am::Allocation mapped;
  try {
    mapped = dev.map_transfer(host, span, device_writes);
  } catch (const am::DeviceError&) {
    return false; // e.g. no CAP_SYS_ADMIN to pin, read-only pages, shared virtual memory
  }
  try {
    am::SdmaBuilder b(dev.sdma_major());
    build(b, mapped.va + uint64_t(host - mapped.cpu));
    run_sdma(dev, b);
  } catch (...) {
    dev.unmap_transfer(mapped);
    throw;
  }
  dev.unmap_transfer(mapped);
  direct_count.fetch_add(1, std::memory_order_relaxed);
  return true;
}

// Copies between device memory and the application's memory by one SDMA copy that reads or
// writes the application's pages directly.
bool copy_direct(am::Device& dev, uint64_t device_va, const uint8_t* host, size_t size,
                 bool to_device) {
  if (size < kDirectMin) return false;
  return dma_application_pages(dev, host, size, !to_device, [&](am::SdmaBuilder& b, uint64_t va) {
    if (to_device)
      b.copy_linear(device_va, va, size);
    else
      b.copy_linear(va, device_va, size);
  });
}

} // namespace

void ensure_staging(cl_command_queue q) {
  ensure_staging(device_of(q), q->staging);
}

void copy_to_device(am::Device& dev, am::Allocation& staging, uint64_t dst_va, const uint8_t* src,
                    size_t size) {
  if (copy_direct(dev, dst_va, src, size, true)) return;
  ensure_staging(dev, staging);
  uint64_t pending[2] = {0, 0};
  try {
    for (size_t done = 0, chunk = 0; done < size; ++chunk) {
      const size_t n = std::min<size_t>(size - done, kHalf), half = chunk & 1;
      if (pending[half]) { // that half's previous copy must be done before it is refilled
        dev.wait(am::Engine::Sdma, pending[half]);
        pending[half] = 0;
      }
      std::memcpy(staging.cpu + half * kHalf, src + done, n);
      pending[half] = submit_copy(dev, dst_va + done, staging.va + half * kHalf, n);
      done += n;
    }
  } catch (...) {
    try {
      drain(dev, pending);
    } catch (...) {
    } // the first error is the one to report
    throw;
  }
  drain(dev, pending);
}

void copy_to_device(cl_command_queue q, uint64_t dst_va, const uint8_t* src, size_t size) {
  copy_to_device(device_of(q), q->staging, dst_va, src, size);
}

bool copy_box_direct(am::Device& dev, const BoxSide& device, uint8_t* host, size_t host_row_pitch,
                     size_t host_slice_pitch, size_t span, const size_t* region, bool to_device) {
  const size_t bytes = region[0] * region[1] * region[2];
  if (bytes < kDirectMin || span > 2 * bytes) return false;
  return dma_application_pages(dev, host, span, !to_device, [&](am::SdmaBuilder& b, uint64_t va) {
    const BoxSide h{va, host_row_pitch, host_slice_pitch};
    if (to_device)
      copy_box(b, device, h, region);
    else
      copy_box(b, h, device, region);
  });
}

uint64_t direct_transfers() {
  return direct_count.load(std::memory_order_relaxed);
}

void copy_from_device(cl_command_queue q, uint8_t* dst, uint64_t src_va, size_t size) {
  copy_from_device(device_of(q), q->staging, dst, src_va, size);
}

void copy_from_device(am::Device& dev, am::Allocation& staging, uint8_t* dst, uint64_t src_va,
                      size_t size) {
  if (copy_direct(dev, src_va, dst, size, false)) return;
  ensure_staging(dev, staging);
  const size_t chunks = (size + kHalf - 1) / kHalf;
  auto bytes = [&](size_t c) { return std::min<size_t>(size - c * kHalf, kHalf); };
  uint64_t pending[2] = {0, 0};
  try {
    pending[0] = submit_copy(dev, staging.va, src_va, bytes(0));
    for (size_t c = 0; c < chunks; ++c) {
      const size_t half = c & 1;
      dev.wait(am::Engine::Sdma, pending[half]);
      pending[half] = 0;
      if (c + 1 < chunks) // the next chunk lands in the other half while this one is read out
        pending[half ^ 1] = submit_copy(dev, staging.va + (half ^ 1) * kHalf,
                                        src_va + (c + 1) * kHalf, bytes(c + 1));
      std::memcpy(dst + c * kHalf, staging.cpu + half * kHalf, bytes(c));
    }
  } catch (...) {
    try {
      drain(dev, pending);
    } catch (...) {
    }
    throw;
  }
}

void run_sdma(am::Device& dev, const am::SdmaBuilder& packets) {
  dev.wait(am::Engine::Sdma, dev.submit_sdma(packets));
}

void run_sdma(cl_command_queue q, const am::SdmaBuilder& packets) {
  run_sdma(device_of(q), packets);
}

} // namespace amcl::rt
