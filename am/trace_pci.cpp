#include "trace_pci.h"

#include <bit>
#include <cstdio>

namespace am {
namespace {

using namespace trace;

std::span<const uint8_t> bytes_of(const void* p, size_t n) {
  return {static_cast<const uint8_t*>(p), n};
}

template <class T> std::span<const uint8_t> bytes_of(const T& v) {
  static_assert(std::endian::native == std::endian::little, "the trace is little-endian");
  return bytes_of(&v, sizeof v);
}

// "0000:03:00.0 1002:744c rev 0xc8 real": the file header's text, from config dwords 0 and 8.
std::string describe(Pci& card, uint32_t id, uint32_t class_rev) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "%s %04x:%04x rev 0x%02x %s", card.address().c_str(), id & 0xffff,
                id >> 16, class_rev & 0xff, card.emulated() ? "emulated" : "real");
  return buf;
}

// Config dwords 0 (ids) and 8 (class, revision), read in that order.
std::pair<uint32_t, uint32_t> config_id_and_class(Pci& card) {
  const uint32_t id = card.config_read32(0);
  return {id, card.config_read32(8)};
}

TraceWriter* writer_of(Pci& pci) {
  if (trace_detail::open_traces.load(std::memory_order_relaxed) == 0) return nullptr;
  auto* traced = dynamic_cast<TracePci*>(&pci);
  return traced ? &traced->writer() : nullptr;
}

} // namespace

TracePci::TracePci(std::shared_ptr<Pci> card, const std::string& path)
    : TracePci(card, path, config_id_and_class(*card)) {}

// The header's two config reads are the trace's first records: every access is in it.
TracePci::TracePci(std::shared_ptr<Pci> card, const std::string& path,
                   std::pair<uint32_t, uint32_t> id_class)
    : ForwardingPci(card), writer_(path, describe(*card, id_class.first, id_class.second)) {
  writer_.access(kRead, kConfigSpace, 4, 0, id_class.first);
  writer_.access(kRead, kConfigSpace, 4, 8, id_class.second);
  trace_detail::open_traces.fetch_add(1);
}

TracePci::~TracePci() {
  trace_detail::open_traces.fetch_sub(1);
}

uint32_t TracePci::config_read32(uint32_t offset) {
  const uint32_t value = card().config_read32(offset);
  writer_.access(kRead, kConfigSpace, 4, offset, value);
  return value;
}

void TracePci::enable_bus_master() {
  writer_.access(kBusMaster, kConfigSpace, 0, 0, 0);
  card().enable_bus_master();
}

void TracePci::config_write32(uint32_t offset, uint32_t value) {
  writer_.access(kWrite, kConfigSpace, 4, offset, value);
  card().config_write32(offset, value);
}

void TracePci::after_config_restore() {
  writer_.access(kConfigRestore, kConfigSpace, 0, 0, 0);
  card().after_config_restore();
}

uint32_t TracePci::reg_read32(uint32_t index) {
  const uint32_t value = card().reg_read32(index);
  writer_.access(kRead, kRegisterBar, 4, index * 4, value);
  return value;
}

void TracePci::reg_write32(uint32_t index, uint32_t value) {
  writer_.access(kWrite, kRegisterBar, 4, index * 4, value);
  card().reg_write32(index, value);
}

void TracePci::doorbell_write64(uint32_t index, uint64_t value) {
  writer_.access(kWrite, kDoorbellBar, 8, index * 4, value);
  card().doorbell_write64(index, value);
}

std::shared_ptr<Pci> with_trace(std::shared_ptr<Pci> card) {
  const std::optional<std::string> path = next_trace_path();
  if (!path) return card;
  try {
    return std::make_shared<TracePci>(card, *path);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "amcl: am %s: %s: not tracing\n", card->address().c_str(), e.what());
    return card;
  }
}

void trace_packets(Pci& pci, TraceEngine engine, uint64_t ring_va, uint32_t doorbell, uint64_t wptr,
                   std::span<const uint32_t> words, std::span<const size_t> starts) {
  TraceWriter* w = writer_of(pci);
  if (!w) return;
  std::vector<uint32_t> starts32(starts.begin(), starts.end());
  const uint32_t count = uint32_t(starts32.size());
  w->with_payload(kPackets, engine, wptr,
                  {bytes_of(ring_va), bytes_of(doorbell), bytes_of(count),
                   bytes_of(starts32.data(), 4 * starts32.size()),
                   bytes_of(words.data(), 4 * words.size())});
}

void trace_interrupt(Pci& pci, std::span<const uint32_t, 8> entry) {
  if (TraceWriter* w = writer_of(pci))
    w->with_payload(kInterrupt, 0, 0, {bytes_of(entry.data(), entry.size_bytes())});
}

void trace_phase(Pci& pci, TracePhase what, const std::string& name, uint64_t elapsed_ns,
                 const std::string& error) {
  TraceWriter* w = writer_of(pci);
  if (!w) return;
  const std::string text = what == kPhaseFailed ? name + "\n" + error : name;
  w->with_payload(kPhase, what, elapsed_ns, {bytes_of(text.data(), text.size())});
  // On disk at every phase boundary: a boot that hangs in a phase (and is killed) leaves the
  // phases before it, and the phase's start, in the file. A dozen writes a boot.
  w->flush();
}

void trace_ip_discovery(Pci& pci, const IpDiscovery& ip) {
  TraceWriter* w = writer_of(pci);
  if (!w) return;
  for (const IpBlock& b : ip.blocks) {
    const uint8_t ids[4] = {b.instance, b.major, b.minor, b.revision};
    const uint16_t count = uint16_t(b.bases.size());
    w->with_payload(kIpBlock, 0, 0,
                    {bytes_of(b.hw_id), bytes_of(ids, 4), bytes_of(count),
                     bytes_of(b.bases.data(), 8 * b.bases.size())});
  }
}

void trace_firmware(Pci& pci, const std::string& name, uint64_t bytes, uint32_t version) {
  if (TraceWriter* w = writer_of(pci))
    w->with_payload(kFirmware, 0, 0,
                    {bytes_of(bytes), bytes_of(version), bytes_of(name.data(), name.size())});
}

void trace_flush(Pci& pci) {
  if (TraceWriter* w = writer_of(pci)) w->flush();
}

} // namespace am
