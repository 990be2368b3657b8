// What the AM driver's tests share: each boots am::Device on an emulated gfx1100 and gfx1201
// (one driver, per-generation register tables and page-table formats) and checks what the
// card saw. The tests are split as am/ is, by IP block (boot, nbio, gmc, ih, gfx, sdma_queue,
// memory, submission).
#pragma once
#include "am/device.h"
#include "sim/gpu.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <thread>

namespace am_test {

// What an engine does after the signal a wait sees (an interrupt it raises, a read pointer it
// moves past the last packet) follows a moment later: true once `done` holds, within 5 s.
inline bool eventually(const std::function<bool()>& done) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (!done() && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  return done();
}

// An engine held by a control bit runs nothing: with `bit` set in the register at `index`,
// `submit` (work writing `value` to the first dword of a fresh VRAM page, returning its fence)
// leaves the page alone for 50 ms; once the bit is cleared the work runs.
inline void expect_held_while_set(sim::Gpu& gpu, am::Device& dev, uint32_t index, uint32_t bit,
                                  am::Engine engine, uint32_t value,
                                  const std::function<uint64_t(uint64_t va)>& submit) {
  am::Allocation mem = dev.alloc_vram(4096);
  std::memset(mem.cpu, 0, 4096);
  const auto first = [&] { return reinterpret_cast<uint32_t*>(mem.cpu)[0]; };
  gpu.reg_write32(index, gpu.reg_read32(index) | bit);
  const uint64_t done = submit(mem.va);
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_EQ(first(), 0u) << "the held engine ran the work";
  gpu.reg_write32(index, gpu.reg_read32(index) & ~bit);
  dev.wait(engine, done);
  EXPECT_EQ(first(), value);
  dev.free(mem);
}

// The compute queue runs a write of `value` to a fresh VRAM page (after a fault, a reset or
// an unusual boot: the queue works).
inline void expect_compute_writes(am::Device& dev, uint32_t value) {
  am::Allocation mem = dev.alloc_vram(4096);
  am::Pm4Builder p;
  p.write_data_mem(mem.va, {value});
  dev.wait(am::Engine::Compute, dev.submit_compute(p));
  EXPECT_EQ(reinterpret_cast<uint32_t*>(mem.cpu)[0], value);
  dev.free(mem);
}

// The SDMA queue fills the first 64 bytes of a fresh VRAM page with `value`.
inline void expect_sdma_fills(am::Device& dev, uint32_t value) {
  am::Allocation mem = dev.alloc_vram(4096);
  am::SdmaBuilder b;
  b.const_fill(mem.va, value, 64);
  dev.wait(am::Engine::Sdma, dev.submit_sdma(b));
  EXPECT_EQ(reinterpret_cast<uint32_t*>(mem.cpu)[0], value);
  dev.free(mem);
}

// A queue stopped by a packet it cannot execute is reported at once with `message`, not after
// the hang timeout (60 s), and reset once.
inline void expect_stop_reported_at_once(am::Device& dev, am::Engine engine,
                                         const std::function<uint64_t()>& submit_bad,
                                         const std::string& message) {
  const auto start = std::chrono::steady_clock::now();
  try {
    dev.wait(engine, submit_bad());
    ADD_FAILURE() << "the bad packet completed";
  } catch (const am::DeviceError& e) {
    EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << e.what();
  }
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  EXPECT_EQ(dev.queue_resets(), 1u);
}

// An SDMA fill of `value` into `mem` fails (a DeviceError) until `restore` has run; then a fill
// of value + 1 lands. `mem` is freed.
// Work checked right after a queue reset in tests whose device hangs after 200 ms: a loaded
// machine may take longer than that for it without anything being wrong.
inline constexpr std::chrono::milliseconds kAfterResetLimit{10000};

inline void expect_sdma_fill_fails_until(am::Device& dev, const am::Allocation& mem, uint32_t value,
                                         const std::function<void()>& restore) {
  am::SdmaBuilder b;
  b.const_fill(mem.va, value, 64);
  EXPECT_THROW(dev.wait(am::Engine::Sdma, dev.submit_sdma(b)), am::DeviceError);
  restore();
  b.clear();
  b.const_fill(mem.va, value + 1, 64);
  dev.wait(am::Engine::Sdma, dev.submit_sdma(b), kAfterResetLimit);
  EXPECT_EQ(reinterpret_cast<uint32_t*>(mem.cpu)[0], value + 1);
  dev.free(mem);
}

// Tests parameterised by the emulated card ("gfx1100" or "gfx1201") that use cards of their
// own, so other tests' devices are not disturbed: indices from `Gfx11First` for gfx11 parts,
// from `Gfx12First` for gfx12 ones, plus `slot`.
template <unsigned Gfx11First, unsigned Gfx12First>
class OwnCards : public testing::TestWithParam<const char*> {
protected:
  std::shared_ptr<sim::Gpu> card(unsigned slot = 0) {
    const bool gfx12 = std::string(GetParam()).starts_with("gfx12");
    return sim::open_emulated_gpu(GetParam(), (gfx12 ? Gfx12First : Gfx11First) + slot);
  }
};

} // namespace am_test

// The emulated card of the test's parameter ("gfx1100" or "gfx1201"); boot_test.cpp
// instantiates every AmDevice test for both.
// Cards of their own for these tests (indices 40 and up); `slot` 0 is shared by the tests, the
// others are fresh cards for one test each.
class AmDevice : public am_test::OwnCards<40, 60> {
protected:
  // Where in VRAM `text` first occurs, or npos.
  // Where boot puts firmware: the boot region (below) and the top MiB of VRAM, where the
  // emulated PSP keeps its TMR. Searched from `from` on; the GPU-only VRAM between them (3.8 GiB
  // on the default card) holds nothing of the boot, and scanning it made the test take 4 minutes
  // under ThreadSanitizer.
  static size_t find_in_vram(sim::Gpu& gpu, uint64_t from, const std::string& text) {
    const uint8_t* v = gpu.chip_vram();
    const uint64_t top = gpu.vram_bytes(), tmr = top - (1ull << 20);
    const uint64_t visible_end = boot_region_of(gpu) + (32ull << 20);
    for (auto [begin, end] :
         {std::pair{from, std::min(visible_end, tmr)}, std::pair{std::max(from, tmr), top}}) {
      if (begin >= end) continue;
      const uint8_t* hit = std::search(v + begin, v + end, text.begin(), text.end(),
                                       [](uint8_t a, char b) { return a == uint8_t(b); });
      if (hit != v + end) return size_t(hit - v);
    }
    return std::string::npos;
  }
  // The driver's boot region (am/memory_manager.h): 32 MiB at the end of CPU-visible VRAM, which
  // ends at BAR0 (2 MiB-aligned) or 1 MiB below VRAM's top, whichever is lower.
  static uint64_t boot_region_of(sim::Gpu& gpu) {
    const uint64_t visible_end =
        std::min(gpu.bar0_size() & ~((2ull << 20) - 1), gpu.vram_bytes() - (1ull << 20));
    return visible_end - (32ull << 20);
  }
};
