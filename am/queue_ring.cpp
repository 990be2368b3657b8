#include "queue_ring.h"

#include "debug_log.h"
#include "trace_pci.h"

#include <cstring>

namespace am {

void QueueRing::init(Pci& pci, Nbio& nbio, SignalPage& signals, const Allocation& mem,
                     Layout layout) {
  pci_ = &pci;
  nbio_ = &nbio;
  signals_ = &signals;
  mem_ = mem;
  layout_ = layout;
  std::memset(mem.cpu, 0, mem.size);
  ring_.init(mem);
}

bool QueueRing::submit(std::span<const uint32_t> words, std::span<const size_t> starts) {
  if (!write(words)) return false;
  owed_ = false;
  const uint64_t wptr = ring_.wptr() * layout_.pointer_scale;
  signals_->store(layout_.wptr_poll, wptr);
  nbio_->flush_hdp();
  trace(words, starts);
  doorbell(wptr);
  return true;
}

bool QueueRing::submit_deferred(std::span<const uint32_t> words) {
  if (!write(words)) return false;
  trace(words, {});
  owed_ = true;
  return true;
}

void QueueRing::ring() {
  if (!owed_) return;
  owed_ = false;
  const uint64_t wptr = ring_.wptr() * layout_.pointer_scale;
  signals_->store(layout_.wptr_poll, wptr);
  nbio_->flush_hdp();
  doorbell(wptr);
}

bool QueueRing::write(std::span<const uint32_t> words) {
  // The read pointer the engine wrote back, in dwords; only its position in the ring counts
  // (the MEC's wraps at the ring's size, SDMA's does not).
  auto read = [&] {
    const uint64_t report = signals_->load(layout_.rptr) / layout_.pointer_scale;
    const uint64_t w = ring_.wptr();
    return w - ((w - report) % ring_.dwords());
  };
  if (ring_.write(words, read)) return true;
  ring(); // the engine cannot make room while packets it was not given wait on the ring
  return false;
}

void QueueRing::trace(std::span<const uint32_t> words, std::span<const size_t> starts) {
  // The MEC counts its pointers in dwords, SDMA in bytes: the scale tells the engines apart.
  trace_packets(*pci_, layout_.pointer_scale == 1 ? trace::kEngineCompute : trace::kEngineSdma,
                mem_.va, layout_.doorbell, ring_.wptr() * layout_.pointer_scale, words, starts);
}

void QueueRing::doorbell(uint64_t wptr) {
  pci_->doorbell_write64(layout_.doorbell, wptr);
  AM_LOG(kDebugPackets, *pci_, "doorbell %u = 0x%llx", layout_.doorbell,
         static_cast<unsigned long long>(wptr));
}

void QueueRing::reset() {
  owed_ = false;
  ring_.reset();
  signals_->store(layout_.rptr, 0);
  signals_->store(layout_.wptr_poll, 0);
}

} // namespace am
