// AM_TRACE (am/trace_pci.h): a boot of the emulated gfx1100 and gfx1201 leaves a trace that holds
// every access the driver made, in order (checked against a wrapper below the driver that
// remembers what reached the card), with its boot phases, IP versions, firmware, packet streams
// and interrupts; the reader prints it as AM_DEBUG=4 does; and its writes replayed into a fresh
// card bring that card's registers, boot marker and queues where the driver left the first.
#include "device_fixture.h"

#include "am/debug_log.h"
#include "am/forwarding_pci.h"
#include "am/hw/discovery.h"
#include "am/hw/gc_regs.h"
#include "am/trace_pci.h"
#include "am/trace_reader.h"
#include "am/trace_replay.h"
#include "am/trace_text.h"

#include <filesystem>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <unistd.h>

using namespace am_test;
using namespace am::trace;

namespace {

// One access as the card received it.
struct Access {
  TraceKind kind;
  uint8_t bar;
  uint32_t offset;
  uint64_t value;
  bool operator==(const Access&) const = default;
};

// Below the driver: remembers every access that reaches the card, as RegisterLogPci prints them.
class AccessLog : public am::ForwardingPci {
public:
  using ForwardingPci::ForwardingPci;
  uint32_t config_read32(uint32_t offset) override {
    const uint32_t v = card().config_read32(offset);
    add({kRead, kConfigSpace, offset, v});
    return v;
  }
  void enable_bus_master() override {
    add({kBusMaster, kConfigSpace, 0, 0});
    card().enable_bus_master();
  }
  void config_write32(uint32_t offset, uint32_t value) override {
    add({kWrite, kConfigSpace, offset, value});
    card().config_write32(offset, value);
  }
  uint32_t reg_read32(uint32_t index) override {
    const uint32_t v = card().reg_read32(index);
    add({kRead, kRegisterBar, index * 4, v});
    return v;
  }
  void reg_write32(uint32_t index, uint32_t value) override {
    add({kWrite, kRegisterBar, index * 4, value});
    card().reg_write32(index, value);
  }
  void doorbell_write64(uint32_t index, uint64_t value) override {
    add({kWrite, kDoorbellBar, index * 4, value});
    card().doorbell_write64(index, value);
  }
  std::vector<Access> accesses() {
    std::lock_guard lock(mutex_);
    return accesses_;
  }

private:
  void add(Access a) {
    std::lock_guard lock(mutex_);
    accesses_.push_back(a);
  }
  std::mutex mutex_;
  std::vector<Access> accesses_;
};

// The trace's accesses, in AccessLog's terms.
std::vector<Access> accesses_of(const am::Trace& t) {
  std::vector<Access> out;
  for (const am::TraceRecord& r : t.records)
    if (r.kind == kRead || r.kind == kWrite || r.kind == kBusMaster)
      out.push_back({r.kind, r.bar, r.offset, r.value});
  return out;
}

// A file of its own under the temporary directory, removed (with its numbered siblings) after.
class TempTrace {
public:
  TempTrace()
      : path_(std::filesystem::temp_directory_path() /
              ("amcl_trace_" + std::to_string(::getpid()) + "_" + std::to_string(next_++))) {}
  ~TempTrace() {
    std::error_code ec;
    for (int n = 0; n < 4; ++n)
      std::filesystem::remove(n == 0 ? path_.string() : path_.string() + "." + std::to_string(n),
                              ec);
  }
  std::string path() const { return path_.string(); }

private:
  static inline int next_ = 0;
  std::filesystem::path path_;
};

// Uses both engines once, so the trace holds an SDMA stream, its trap interrupt and a PM4 one.
void submit_on_both_engines(am::Device& dev) {
  am::Allocation mem = dev.alloc_vram(4096);
  am::SdmaBuilder s(dev.sdma_major());
  s.const_fill(mem.va, 0x5a5a5a5a, 4096);
  dev.wait(am::Engine::Sdma, dev.submit_sdma(s));
  expect_compute_writes(dev, 0x1234);
  dev.free(mem);
}

} // namespace

// Cards of their own (indices 180 and up for gfx1100, 200 and up for gfx1201).
class AmTrace : public OwnCards<180, 200> {};

INSTANTIATE_TEST_SUITE_P(Cards, AmTrace, testing::Values("gfx1100", "gfx1201"),
                         [](const auto& info) { return std::string(info.param); });

TEST_P(AmTrace, HoldsEveryAccessInOrderWithThePhases) {
  TempTrace file;
  am::ScopedTraceFile tracing(file.path());
  auto gpu = card(0);
  auto log = std::make_shared<AccessLog>(gpu);
  std::string gc_version;
  {
    am::Device dev(log);
    submit_on_both_engines(dev);
    gc_version = am::version_of(*dev.ip_discovery().find(am::hw::discovery::GC_HWID));
  } // the teardown flushes
  const am::Trace t = am::read_trace(file.path());
  EXPECT_FALSE(t.truncated);
  EXPECT_EQ(t.version, kTraceVersion);
  EXPECT_TRUE(t.card.starts_with(gpu->address() + " 1002:")) << t.card;
  EXPECT_NE(t.card.find("emulated"), std::string::npos);

  const std::vector<Access> seen = log->accesses();
  const std::vector<Access> traced = accesses_of(t);
  ASSERT_GT(seen.size(), 100u);
  EXPECT_EQ(traced.size(), seen.size());
  EXPECT_TRUE(traced == seen) << "the trace's accesses differ from what reached the card";

  // Every boot phase began and ended, in the boot's order, and so did the teardown.
  std::vector<std::string> ended;
  std::set<std::string> begun;
  for (const am::TraceRecord& r : t.records)
    if (r.kind == kPhase) {
      if (r.bar == kPhaseBegin) begun.insert(am::phase_name_of(r));
      if (r.bar == kPhaseEnd) ended.push_back(am::phase_name_of(r));
      EXPECT_NE(r.bar, kPhaseFailed) << am::phase_error_of(r);
    }
  const std::vector<std::string> expected = {"card", "boot state", "reset",   "SOC", "GMC",
                                             "IH",   "firmware",   "PSP",     "SMU", "GFX",
                                             "SDMA", "clock",      "teardown"};
  EXPECT_EQ(ended, expected);
  for (const std::string& phase : expected) EXPECT_TRUE(begun.count(phase)) << phase;

  // The header's IP versions and firmware, the packet streams and the SDMA trap's interrupt.
  const am::IpDiscovery ip = am::ip_discovery_of(t);
  ASSERT_NE(ip.find(am::hw::discovery::GC_HWID), nullptr);
  EXPECT_EQ(am::version_of(*ip.find(am::hw::discovery::GC_HWID)), gc_version);
  std::map<TraceKind, size_t> kinds;
  size_t compute = 0, sdma = 0;
  for (const am::TraceRecord& r : t.records) {
    ++kinds[r.kind];
    if (std::optional<am::TracePackets> p = am::packets_of(r)) {
      EXPECT_FALSE(p->words.empty());
      EXPECT_NE(p->ring_va, 0u);
      ++(p->engine == kEngineCompute ? compute : sdma);
      if (p->engine == kEngineSdma) EXPECT_FALSE(p->starts.empty());
    }
  }
  EXPECT_GT(kinds[kFirmware], 0u);
  EXPECT_GE(compute, 2u); // the clock's calibration and the write
  EXPECT_GE(sdma, 1u);
  EXPECT_GE(kinds[kInterrupt], 1u);
}

// The reader prints a register access as AM_DEBUG=4 does: the same line for the same access.
TEST_P(AmTrace, ReaderLinesMatchAmDebugFour) {
  TempTrace file;
  am::ScopedTraceFile tracing(file.path());
  auto gpu = card(1);
  testing::internal::CaptureStderr();
  {
    am::ScopedDebugLevel level(4);
    am::Device dev(gpu);
  }
  std::istringstream err(testing::internal::GetCapturedStderr());
  const std::string prefix = "amcl: am " + gpu->address() + ": ";
  std::vector<std::string> debug_lines;
  for (std::string line; std::getline(err, line);)
    if (line.starts_with(prefix + "read ") || line.starts_with(prefix + "write "))
      debug_lines.push_back(line.substr(prefix.size()));

  const am::Trace t = am::read_trace(file.path());
  const am::RegisterNames names = am::trace_register_names(am::ip_discovery_of(t));
  // AM_DEBUG=4 names registers once discovery has chosen the tables: compare from there on.
  std::vector<std::string> trace_lines;
  bool named = false;
  for (const am::TraceRecord& r : t.records) {
    named |= r.kind == kIpBlock;
    if (named && (r.kind == kRead || r.kind == kWrite) && r.bar == kRegisterBar)
      trace_lines.push_back(am::trace_line(r, names));
  }
  ASSERT_GT(trace_lines.size(), 100u);
  ASSERT_GE(debug_lines.size(), trace_lines.size());
  const std::vector<std::string> tail(debug_lines.end() - long(trace_lines.size()),
                                      debug_lines.end());
  EXPECT_EQ(tail, trace_lines);
  bool scratch = false;
  for (const std::string& l : trace_lines) scratch |= l.starts_with("write SCRATCH_REG7 (0x");
  EXPECT_TRUE(scratch) << "the boot marker's write is not named";
}

// The trace's writes, replayed into a fresh card, leave it where the driver left the first: the
// registers the driver wrote (those that kept the value written) read back the same, the boot
// marker SCRATCH_REG7 is set, and both queues are on (the compute queue's HQD active, the SDMA
// ring enabled). What the trace does not carry (memory, the values of reads) is counted.
TEST_P(AmTrace, ReplayedWritesReachTheSameState) {
  TempTrace file;
  am::ScopedTraceFile tracing(file.path());
  auto gpu = card(2);
  am::Device dev(gpu);
  am::trace_flush(dev.pci()); // the running device's trace, complete so far
  const am::Trace t = am::read_trace(file.path());

  auto fresh = card(3);
  const am::ReplayResult replay = am::replay_trace(t, *fresh);
  EXPECT_GT(replay.register_writes, 100u);
  EXPECT_GE(replay.doorbells, 1u);
  EXPECT_GE(replay.config_writes, 1u);
  EXPECT_GT(replay.reads, 0u);

  std::map<uint32_t, uint32_t> last_written;
  for (const am::TraceRecord& r : t.records)
    if (r.kind == kWrite && r.bar == kRegisterBar) last_written[r.offset / 4] = uint32_t(r.value);
  size_t compared = 0;
  for (const auto& [index, value] : last_written) {
    if (gpu->reg_read32(index) != value) continue; // a register the hardware changes itself
    ++compared;
    EXPECT_EQ(fresh->reg_read32(index), value) << "register 0x" << std::hex << index;
  }
  EXPECT_GT(compared, last_written.size() / 2);

  const sim::CardModel& m = gpu->model();
  const uint32_t scratch7 = m.gc_reg(m.gc->SCRATCH_REG7);
  EXPECT_NE(gpu->reg_read32(scratch7), 0u);
  EXPECT_EQ(fresh->reg_read32(scratch7), gpu->reg_read32(scratch7));
  for (sim::Gpu* g : {gpu.get(), fresh.get()}) {
    g->reg_write32(m.gc_reg(m.gc->GRBM_GFX_CNTL), am::hw::grbm_gfx_cntl(1, 0, 0, 0));
    EXPECT_EQ(g->reg_read32(m.gc_reg(m.gc->CP_HQD_ACTIVE)) & 1u, 1u) << g->address();
    g->reg_write32(m.gc_reg(m.gc->GRBM_GFX_CNTL), 0);
    EXPECT_NE(g->reg_read32(m.gc_reg(m.gc->SDMA0_QUEUE0_RB_CNTL)) & 1u, 0u) << g->address();
  }
  std::fprintf(stderr, "replay: %zu register writes, %zu doorbells, %zu reads (%zu differ)\n",
               replay.register_writes, replay.doorbells, replay.reads, replay.reads_differing);
  for (const std::string& d : replay.first_differences) std::fprintf(stderr, "  %s\n", d.c_str());
}

// A boot that fails leaves its trace on disk, ending with the phase that failed and why.
TEST_P(AmTrace, AFailedBootIsTraced) {
  TempTrace file;
  am::ScopedTraceFile tracing(file.path());
  class NotAmd : public am::ForwardingPci {
  public:
    using ForwardingPci::ForwardingPci;
    uint32_t config_read32(uint32_t offset) override {
      const uint32_t v = card().config_read32(offset);
      return offset == 0 ? (v & 0xffff0000u) | 0x10de : v;
    }
  };
  EXPECT_THROW(am::Device dev(std::make_shared<NotAmd>(card(4))), am::DeviceError);
  const am::Trace t = am::read_trace(file.path());
  ASSERT_FALSE(t.records.empty());
  const am::TraceRecord& last = t.records.back();
  ASSERT_EQ(last.kind, kPhase);
  EXPECT_EQ(last.bar, kPhaseFailed);
  EXPECT_EQ(am::phase_name_of(last), "card");
  EXPECT_NE(am::phase_error_of(last).find("not an AMD device"), std::string::npos);
}

// Each card of a process gets its own file: the first AM_TRACE's name, the next ones numbered.
TEST_P(AmTrace, EachCardHasItsOwnFile) {
  TempTrace file;
  am::ScopedTraceFile tracing(file.path());
  auto first = card(5), second = card(6);
  {
    am::Device a(first);
    am::Device b(second);
  }
  EXPECT_TRUE(am::read_trace(file.path()).card.starts_with(first->address() + " "));
  EXPECT_TRUE(am::read_trace(file.path() + ".1").card.starts_with(second->address() + " "));
}

// Without AM_TRACE the card is used directly; a file that cannot be made leaves it untraced.
TEST(AmTraceOff, NoTraceNoWrapperAndABadPathIsSaid) {
  auto gpu = sim::open_emulated_gpu("gfx1100", 220);
  EXPECT_EQ(am::with_trace(gpu), gpu);
  am::ScopedTraceFile tracing("/nonexistent-dir/trace");
  testing::internal::CaptureStderr();
  EXPECT_EQ(am::with_trace(gpu), gpu);
  EXPECT_NE(testing::internal::GetCapturedStderr().find("cannot create /nonexistent-dir/trace"),
            std::string::npos);
}

// A file that is not a trace, or of another version, is refused by name.
TEST(AmTraceReader, RefusesWhatIsNotATrace) {
  TempTrace file;
  {
    std::FILE* f = std::fopen(file.path().c_str(), "wb");
    std::fputs("not a trace at all", f);
    std::fclose(f);
  }
  EXPECT_THROW(am::read_trace(file.path()), std::runtime_error);
  {
    am::TraceWriter w(file.path(), "card");
    w.access(kWrite, kRegisterBar, 4, 0x40, 7);
  }
  am::Trace t = am::read_trace(file.path());
  ASSERT_EQ(t.records.size(), 1u);
  EXPECT_EQ(t.card, "card");
  EXPECT_EQ(am::trace_line(t.records[0], am::RegisterNames()), "write 0x00010 = 0x00000007");
  // A cut-off file reads up to the last whole record.
  std::filesystem::resize_file(file.path(), std::filesystem::file_size(file.path()) - 3);
  t = am::read_trace(file.path());
  EXPECT_TRUE(t.records.empty());
  EXPECT_TRUE(t.truncated);
}
