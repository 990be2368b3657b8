// AM_DEBUG in the driver (am/debug_log.h): what a boot of the emulated gfx1100 and gfx1201
// prints at each level, the boot failures it names at every level, and whole lines from
// concurrent threads. The level is set with ScopedDebugLevel, so the emulator (which reads
// AM_DEBUG itself) stays quiet and only the driver's lines are seen.
#include "device_fixture.h"

#include "am/debug_log.h"
#include "am/forwarding_pci.h"
#include "am/hw/discovery.h"
#include "am/packet_names.h"
#include "sim/ip_discovery.h"

#include <cstdlib>
#include <sstream>
#include <thread>
#include <vector>

using namespace am_test;

namespace {

constexpr const char* kPrefix = "amcl: am ";

// The driver's lines among what `run` wrote to stderr (the emulator's own start "amcl sim:").
std::vector<std::string> driver_lines(const std::function<void()>& run) {
  testing::internal::CaptureStderr();
  try {
    run();
  } catch (...) {
    (void)testing::internal::GetCapturedStderr();
    throw;
  }
  std::istringstream all(testing::internal::GetCapturedStderr());
  std::vector<std::string> lines;
  for (std::string line; std::getline(all, line);)
    if (line.starts_with(kPrefix)) lines.push_back(line);
  return lines;
}

std::string joined(const std::vector<std::string>& lines) {
  std::string s;
  for (const std::string& l : lines) s += l + "\n";
  return s;
}

// The index of the first line after `from` that contains `text`, or lines.size().
size_t find_line(const std::vector<std::string>& lines, const std::string& text, size_t from = 0) {
  for (size_t i = from; i < lines.size(); ++i)
    if (lines[i].find(text) != std::string::npos) return i;
  return lines.size();
}

// An emulated card that says it is a real one, so the driver takes a real card's paths (its
// firmware from the firmware directory).
class RealCardPath : public am::ForwardingPci {
public:
  using ForwardingPci::ForwardingPci;
  bool emulated() const override { return false; }
};

} // namespace

// Cards of their own (indices 90 and up for gfx1100, 110 and up for gfx1201), fresh for each
// test that needs one.
class AmDebugLog : public OwnCards<90, 110> {};

INSTANTIATE_TEST_SUITE_P(Cards, AmDebugLog, testing::Values("gfx1100", "gfx1201"),
                         [](const auto& info) { return std::string(info.param); });

TEST_P(AmDebugLog, LevelZeroPrintsNothingOnAGoodBoot) {
  am::ScopedDebugLevel level(0);
  auto gpu = card(0);
  const auto lines = driver_lines([&] {
    am::Device dev(gpu);
    expect_sdma_fills(dev, 0x10);
  });
  EXPECT_TRUE(lines.empty()) << joined(lines);
}

// One line per phase, in the boot's order, each with its time; the card's name, address,
// boot state and VRAM size are among them, and the teardown says when it is done.
TEST_P(AmDebugLog, LevelOnePrintsTheBootPhasesInOrder) {
  am::ScopedDebugLevel level(1);
  auto gpu = card(1);
  const auto lines = driver_lines([&] { am::Device dev(gpu); });
  const std::string prefix = kPrefix + gpu->address() + ": ";
  for (const std::string& l : lines) EXPECT_TRUE(l.starts_with(prefix)) << l;
  size_t at = 0;
  for (const char* phase :
       {"card: ", "boot state: ", "reset: ", "SOC: ", "GMC: ", "IH: ", "firmware: ", "PSP: ",
        "SMU: ", "GFX: ", "SDMA: ", "clock: ", "booted (", "teardown: "}) {
    const size_t found = find_line(lines, prefix + phase, at);
    ASSERT_LT(found, lines.size()) << phase << " missing or out of order in\n" << joined(lines);
    if (std::string(phase) != "booted (" && std::string(phase) != "teardown: ")
      EXPECT_NE(lines[found].find(" ms)"), std::string::npos) << lines[found];
    at = found + 1;
  }
  const std::string all = joined(lines);
  EXPECT_NE(all.find("boot state: fresh"), std::string::npos) << all;
  EXPECT_NE(all.find("reset: none needed"), std::string::npos) << all;
  EXPECT_NE(all.find("VRAM " + std::to_string(gpu->vram_bytes() >> 20) + " MiB"), std::string::npos)
      << all;
  EXPECT_NE(all.find(std::string(GetParam()) + ", PCI 1002:"), std::string::npos) << all;
  EXPECT_NE(all.find("firmware: from synthetic: psp_"), std::string::npos) << all;
  EXPECT_EQ(find_line(lines, "PSP bootloader"), lines.size()) << "a level 2 line at level 1";
}

// Each IP block's version as discovery lists it, with its register bases; the firmware files;
// the PSP's commands and their status; the SMU's messages by name; the rings' addresses.
TEST_P(AmDebugLog, LevelTwoNamesEachIpBlocksVersion) {
  am::ScopedDebugLevel level(2);
  auto gpu = card(2);
  std::unique_ptr<am::Device> dev;
  const auto lines = driver_lines([&] { dev = std::make_unique<am::Device>(gpu); });
  const std::string all = joined(lines);
  namespace d = am::hw::discovery;
  const struct {
    uint16_t hw_id;
    const char* line;
  } blocks[] = {{d::GC_HWID, "GFX: GC "},       {d::NBIF_HWID, "SOC: NBIF "},
                {d::MMHUB_HWID, "MMHUB "},      {d::OSSSYS_HWID, "IH: OSSSYS "},
                {d::MP0_HWID, "PSP: MP0 "},     {d::MP1_HWID, "SMU: MP1 "},
                {d::SDMA0_HWID, "SDMA: SDMA0 "}};
  for (const auto& b : blocks) {
    const am::IpBlock* block = dev->ip_discovery().find(b.hw_id);
    ASSERT_NE(block, nullptr) << b.line;
    const std::string expected = b.line + am::version_of(*block);
    EXPECT_NE(all.find(expected), std::string::npos) << expected << " missing in\n" << all;
  }
  for (const char* text :
       {"register bases 0x", "firmware: psp_", "PSP bootloader: command", "PSP: sOS up",
        "PSP: LOAD_TOC (command 0x", "PSP: AUTOLOAD_RLC (command 0x", "): status 0",
        "SMU: GetSmuVersion (0x2)", "SMU: EnableAllSmuFeatures", "GMC: page directory at VRAM 0x",
        "IH: ring at VA 0x", "MQD at 0x", "EOP at 0x", "SDMA: engine 0 queue 0 ring at VA 0x"})
    EXPECT_NE(all.find(text), std::string::npos) << text << " missing in\n" << all;
  (void)driver_lines([&] { dev.reset(); });
}

// Every submission by its packets' names, every doorbell, every interrupt.
TEST_P(AmDebugLog, LevelThreeNamesEachPacketStreamDoorbellAndInterrupt) {
  am::ScopedDebugLevel level(3);
  auto gpu = card(6);
  std::unique_ptr<am::Device> dev;
  (void)driver_lines([&] { dev = std::make_unique<am::Device>(gpu); });
  const auto lines = driver_lines([&] {
    const uint64_t posted = gpu->ih().posted();
    expect_sdma_fills(*dev, 0x33);
    expect_compute_writes(*dev, 0x44);
    // A wait that sees its signal at once returns before the interrupt raised after the
    // signal reaches the IH ring (an engine that polls for its doorbell finishes within the
    // waiter's first polls): the next wait services it.
    EXPECT_TRUE(eventually([&] { return gpu->ih().posted() > posted; }));
    dev->wait(am::Engine::Compute, dev->completed(am::Engine::Compute));
  });
  const std::string all = joined(lines);
  for (const char* text : {"SDMA submission ", ": CONST_FILL, then FENCE x2, TRAP (",
                           "compute submission ", ": WRITE_DATA, RELEASE_MEM (", "doorbell 6 = 0x",
                           "doorbell 512 = 0x", "interrupt: client "})
    EXPECT_NE(all.find(text), std::string::npos) << text << " missing in\n" << all;
  // The doorbell follows the stream it hands over.
  EXPECT_LT(find_line(lines, "SDMA submission "), find_line(lines, "doorbell 512 = 0x"));
  (void)driver_lines([&] { dev.reset(); });
}

// Every register access, by name where amcl has a table for the register.
TEST_P(AmDebugLog, LevelFourNamesEachRegisterAccess) {
  am::ScopedDebugLevel level(4);
  auto gpu = card(7);
  const auto lines = driver_lines([&] { am::Device dev(gpu); });
  const std::string all = joined(lines);
  for (const char* text :
       {"read SCRATCH_REG7 (0x", "write SCRATCH_REG7 (0x", "write GRBM_GFX_CNTL (0x",
        "write SDMA0_QUEUE0_RB_CNTL (0x", "write MMHUB L2_CNTL (0x", "write IH_RB_CNTL (0x",
        "write MP1_SMN_C2PMSG_66 (0x", "write MP0_SMN_C2PMSG_35 (0x",
        "write RCC_DEV0_EPF0_RCC_DOORBELL_APER_EN (0x", "config: bus master on"})
    EXPECT_NE(all.find(text), std::string::npos) << text << " missing";
  EXPECT_GT(lines.size(), 500u);
}

TEST_P(AmDebugLog, AFastReinitSaysSoAtLevelOne) {
  am::ScopedDebugLevel level(1);
  auto gpu = card(3);
  (void)driver_lines([&] { am::Device first(gpu); });
  const auto lines = driver_lines([&] { am::Device second(gpu); });
  const std::string all = joined(lines);
  EXPECT_NE(all.find("boot state: left by amcl"), std::string::npos) << all;
  EXPECT_NE(all.find("fast re-init"), std::string::npos) << all;
  EXPECT_NE(all.find("firmware: already running"), std::string::npos) << all;
  EXPECT_EQ(find_line(lines, "PSP: "), lines.size()) << all;
}

TEST_P(AmDebugLog, ACardAnotherDriverLeftIsReportedWithItsReset) {
  am::ScopedDebugLevel level(1);
  auto gpu = card(4);
  gpu->assume_booted_by_another_driver();
  const auto lines = driver_lines([&] { am::Device dev(gpu); });
  const std::string all = joined(lines);
  EXPECT_NE(all.find("boot state: left by another driver"), std::string::npos) << all;
  EXPECT_NE(all.find("reset: mode1 reset done"), std::string::npos) << all;
}

// A real card's boot without its firmware files stops in the firmware phase, and says so
// with the file's name even at level 0.
TEST_P(AmDebugLog, MissingFirmwareIsPrintedAtLevelZero) {
  am::ScopedDebugLevel level(0);
  auto gpu = card(5);
  const char* old = std::getenv("AMCL_FIRMWARE_DIR");
  const std::string saved = old ? old : "";
  ::setenv("AMCL_FIRMWARE_DIR", "/nonexistent/amcl-firmware", 1);
  const auto lines = driver_lines(
      [&] { EXPECT_THROW(am::Device dev(std::make_shared<RealCardPath>(gpu)), std::exception); });
  if (old)
    ::setenv("AMCL_FIRMWARE_DIR", saved.c_str(), 1);
  else
    ::unsetenv("AMCL_FIRMWARE_DIR");
  ASSERT_EQ(lines.size(), 1u) << joined(lines);
  EXPECT_NE(lines[0].find("boot failed in firmware after "), std::string::npos) << lines[0];
  EXPECT_NE(lines[0].find("/nonexistent/amcl-firmware/psp_"), std::string::npos) << lines[0];
  EXPECT_NE(lines[0].find(" is missing"), std::string::npos) << lines[0];
}

// A GC version without a register table (an APU's 11.0.1 written into the discovery table)
// is refused in the card phase, and the refusal is printed at level 0.
TEST(AmDebugLogErrors, AnUnsupportedIpVersionIsPrintedAtLevelZero) {
  am::ScopedDebugLevel level(0);
  auto gpu = sim::open_emulated_gpu("gfx1100", 130);
  std::vector<sim::IpBlockModel> blocks = gpu->model().blocks;
  for (sim::IpBlockModel& b : blocks)
    if (b.hw_id == am::hw::discovery::GC_HWID) b.revision = 1;
  const std::vector<uint8_t> bin = sim::build_ip_discovery(blocks);
  std::memcpy(gpu->chip_vram() + gpu->vram_bytes() - am::hw::discovery::kOffsetFromVramTop,
              bin.data(), bin.size());
  const auto lines = driver_lines([&] { EXPECT_THROW(am::Device dev(gpu), am::DeviceError); });
  ASSERT_EQ(lines.size(), 1u) << joined(lines);
  EXPECT_NE(lines[0].find("boot failed in card after "), std::string::npos) << lines[0];
  EXPECT_NE(lines[0].find("GC IP version 11.0.1 is not known"), std::string::npos) << lines[0];
}

TEST(AmDebugLogLines, PacketStreamsByName) {
  am::Pm4Builder p;
  p.set_sh_regs(0x2e00, {1, 2});
  p.set_sh_regs(0x2e10, {3});
  p.dispatch_direct(1, 1, 1, 1);
  p.release_mem_signal(0x1000, 1, true);
  EXPECT_EQ(am::pm4_packet_names(p.words()), "SET_SH_REG x2, DISPATCH_DIRECT, RELEASE_MEM");
  am::SdmaBuilder b;
  b.copy_linear(0x1000, 0x2000, 3ull << 30); // three packets of at most 1 GiB
  b.const_fill(0x1000, 7, 64);
  b.copy_sub_window({0x1000}, {0x2000}, 2, 4, 4, 1);
  EXPECT_EQ(am::sdma_packet_names(b.words(), b.packet_starts()),
            "COPY_LINEAR x3, CONST_FILL, COPY_LINEAR_SUB_WINDOW");
  EXPECT_EQ(am::pm4_packet_names({}), "(empty)");
}

// Lines from threads printing at once arrive whole, one to a line.
TEST(AmDebugLogLines, ConcurrentLinesDoNotInterleave) {
  am::ScopedDebugLevel level(1);
  constexpr int kThreads = 4, kLines = 200;
  const auto lines = driver_lines([&] {
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t)
      threads.emplace_back([t] {
        for (int i = 0; i < kLines; ++i)
          am::debug_print("test:" + std::to_string(t), "line %d of thread %d, %s", i, t,
                          std::string(100, char('a' + t)).c_str());
      });
    for (std::thread& th : threads) th.join();
  });
  ASSERT_EQ(lines.size(), size_t(kThreads * kLines));
  for (const std::string& l : lines) {
    const int t = l[std::string(kPrefix).size() + 5] - '0';
    ASSERT_GE(t, 0);
    ASSERT_LT(t, kThreads);
    EXPECT_TRUE(
        l.ends_with(" of thread " + std::to_string(t) + ", " + std::string(100, char('a' + t))))
        << l;
  }
}

// AM_DEBUG outside 0..4 is level 0, with one warning that says why.
TEST(AmDebugLogLines, ABadLevelIsZeroWithAWarning) {
  const char* old = std::getenv("AM_DEBUG");
  const std::string saved = old ? old : "";
  for (const char* bad : {"7", "-1", "verbose", "12"}) {
    ::setenv("AM_DEBUG", bad, 1);
    testing::internal::CaptureStderr();
    EXPECT_EQ(am::debug_detail::level_from_environment(), 0) << bad;
    const std::string warning = testing::internal::GetCapturedStderr();
    EXPECT_NE(warning.find(std::string("AM_DEBUG=") + bad + " is not a level from 0 to 4"),
              std::string::npos)
        << warning;
  }
  ::setenv("AM_DEBUG", "3", 1);
  EXPECT_EQ(am::debug_detail::level_from_environment(), 3);
  if (old)
    ::setenv("AM_DEBUG", saved.c_str(), 1);
  else
    ::unsetenv("AM_DEBUG");
}
