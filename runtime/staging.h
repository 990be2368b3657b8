// Host <-> device copies through pinned staging memory, and SDMA streams run to completion: the
// building blocks of every transfer (runtime/transfer.h) and of buffers made from host memory.
#pragma once
#include "box_copy.h"
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
// A box of rows (box_copy.h) between device memory and the application's memory whose first
// row is at `host`, all its rows within `span` bytes from there: by SDMA straight from or to
// the application's pages, mapped for DMA once for the whole box, when the box moves 1 MiB or
// more and its rows fill at least half the span. False when that is not possible (nothing was
// copied): the caller stages.
bool copy_box_direct(am::Device& dev, const BoxSide& device, uint8_t* host, size_t host_row_pitch,
                     size_t host_slice_pitch, size_t span, const size_t* region, bool to_device);
// Host <-> device copies made so far in this process by DMA of the application's own pages
// (for tests: a large transfer must not stage).
uint64_t direct_transfers();
void ensure_staging(cl_command_queue q);
// Submits SDMA packets and waits for them.
void run_sdma(am::Device& dev, const am::SdmaBuilder& packets);
void run_sdma(cl_command_queue q, const am::SdmaBuilder& packets);

} // namespace amcl::rt
