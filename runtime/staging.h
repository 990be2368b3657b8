// Host <-> device copies through pinned staging memory, and SDMA streams run to completion: the
// building blocks of every transfer (runtime/transfer.h) and of buffers made from host memory.
#pragma once
#include "objects.h"

#include <cstddef>
#include <cstdint>

namespace amcl::rt {

inline constexpr uint64_t kStagingBytes = 4 << 20; // two halves, see copy_to_device

// Host <-> device copies: large ones by DMA straight from or to `src`/`dst` (mapped for the
// copy's duration), others staged through a pinned staging buffer the caller holds exclusively:
// the queue's (q->mutex held) or the device's (device->staging_mutex held, for work outside any
// queue).
void copy_to_device(am::Device& dev, am::Allocation& staging, uint64_t dst_va, const uint8_t* src,
                    size_t size);
void copy_to_device(cl_command_queue q, uint64_t dst_va, const uint8_t* src, size_t size);
void copy_from_device(am::Device& dev, am::Allocation& staging, uint8_t* dst, uint64_t src_va,
                      size_t size);
void copy_from_device(cl_command_queue q, uint8_t* dst, uint64_t src_va, size_t size);
// Host <-> device copies made so far in this process by DMA of the application's own pages
// (for tests: a large transfer must not stage).
uint64_t direct_transfers();
void ensure_staging(cl_command_queue q);
// Submits SDMA packets and waits for them.
void run_sdma(am::Device& dev, const am::SdmaBuilder& packets);
void run_sdma(cl_command_queue q, const am::SdmaBuilder& packets);

} // namespace amcl::rt
