// IP discovery: the layout facts against Linux's discovery.h / soc15_hw_ip.h / kfd_device.c,
// the emulated card's binary, the parser's validation of damaged binaries, and the driver
// taking the GC version and register bases from it.
#include "am/device.h"
#include "am/hw/discovery.h"
#include "am/ip_discovery.h"
#include "sim/gpu.h"
#include "sim/card_model.h"
#include "sim/ip_discovery.h"

#include <gtest/gtest.h>

#include <cstring>

using namespace am::hw::discovery;

namespace {

void put16(std::vector<uint8_t>& b, size_t at, uint16_t v) {
  b[at] = uint8_t(v), b[at + 1] = uint8_t(v >> 8);
}
uint16_t get16(const std::vector<uint8_t>& b, size_t at) { return uint16_t(b[at] | (b[at + 1] << 8)); }

// Recomputes both checksums after a test edits the binary, so the edit itself is what the
// parser has to catch.
void reseal(std::vector<uint8_t>& b) {
  const size_t table = get16(b, kBinTables), size = get16(b, kBinTables + 4);
  put16(b, kBinTables + 2, checksum(&b[table], uint32_t(size)));
  put16(b, kBinChecksum, checksum(&b[kBinSize], uint32_t(get16(b, kBinSize) - kBinSize)));
}

std::string parse_error(const std::vector<uint8_t>& b) {
  std::string error;
  auto ip = am::parse_ip_discovery(b, &error);
  return ip ? "" : error;
}

} // namespace

TEST(IpDiscovery, LayoutFactsMatchLinux) {
  EXPECT_EQ(kBinarySignature, 0x28211407u);
  EXPECT_EQ(kTableSignature, 0x53445049u); // "IPDS"
  EXPECT_EQ(kOffsetFromVramTop, 64u << 10);
  EXPECT_EQ(kBinaryHeaderBytes, 60u);      // 4 + 2 + 2 + 2 + 2 + 6 * 8
  EXPECT_EQ(kIpHeaderBytes, 80u);          // 4 + 2 + 2 + 4 + 2 + 16 * 4 + 2
  EXPECT_EQ(GC_HWID, 11);
  EXPECT_EQ(SDMA0_HWID, 42);
  EXPECT_EQ(OSSSYS_HWID, 40);
  EXPECT_EQ(MP0_HWID, 255);
  EXPECT_EQ(MP1_HWID, 1);
  EXPECT_EQ(NBIF_HWID, 108);
  EXPECT_EQ(MMHUB_HWID, 34);
  EXPECT_EQ(HDP_HWID, 41);
}

TEST(IpDiscovery, GcVersionsNameTheirCompilerTargets) {
  auto gfx = [](uint8_t major, uint8_t minor, uint8_t rev) {
    am::IpBlock gc;
    gc.major = major, gc.minor = minor, gc.revision = rev;
    return am::gfx_target_of(gc);
  };
  EXPECT_EQ(gfx(11, 0, 0), "gfx1100");
  EXPECT_EQ(gfx(11, 0, 1), "gfx1103");
  EXPECT_EQ(gfx(11, 0, 2), "gfx1102");
  EXPECT_EQ(gfx(11, 0, 3), "gfx1101");
  EXPECT_EQ(gfx(12, 0, 0), "gfx1200");
  EXPECT_EQ(gfx(12, 0, 1), "gfx1201");
  EXPECT_EQ(gfx(10, 3, 0), "");
}

TEST(IpDiscovery, EmulatedCardListsItsBlocks) {
  const std::vector<uint8_t> bin = sim::build_ip_discovery(sim::find_card_model("gfx1100")->blocks);
  std::string error;
  auto ip = am::parse_ip_discovery(bin, &error);
  ASSERT_TRUE(ip) << error;
  EXPECT_EQ(ip->version, 4);
  const am::IpBlock* gc = ip->find(GC_HWID);
  ASSERT_TRUE(gc);
  EXPECT_EQ(gc->major, 11);
  EXPECT_EQ(gc->minor, 0);
  EXPECT_EQ(gc->revision, 0);
  ASSERT_GE(gc->bases.size(), 2u);
  EXPECT_EQ(gc->bases[0], 0x1260u); // GC_BASE__INST0_SEG0
  EXPECT_EQ(gc->bases[1], 0xA000u); // GC_BASE__INST0_SEG1
  const am::IpBlock* oss = ip->find(OSSSYS_HWID);
  ASSERT_TRUE(oss);
  EXPECT_EQ(oss->major, 6);
  EXPECT_EQ(oss->bases.at(0), 0x10A0u); // OSSSYS_BASE__INST0_SEG0
  ASSERT_TRUE(ip->find(SDMA0_HWID));
  EXPECT_EQ(ip->find(SDMA0_HWID)->major, 6);
  EXPECT_FALSE(ip->find(GC_HWID, 1)); // one instance only
}

TEST(IpDiscovery, DamagedBinariesAreRejectedWithAReason) {
  const std::vector<uint8_t> good = sim::build_ip_discovery(sim::find_card_model("gfx1100")->blocks);
  ASSERT_GT(good.size(), size_t(kBinaryHeaderBytes + kIpHeaderBytes));
  const size_t last = good.size() - 1;
  auto damaged = [&](auto edit, bool seal) {
    std::vector<uint8_t> b = good;
    edit(b);
    if (seal) reseal(b);
    return parse_error(b);
  };
  EXPECT_NE(damaged([](std::vector<uint8_t>& b) { b[0] ^= 1; }, false).find("signature"), std::string::npos);
  EXPECT_NE(damaged([&](std::vector<uint8_t>& b) { b[last] ^= 1; }, false).find("binary checksum"), std::string::npos);
  // The table's own checksum, with the binary's made to match.
  EXPECT_NE(damaged([&](std::vector<uint8_t>& b) {
              b[last] ^= 1;
              put16(b, kBinChecksum, checksum(&b[kBinSize], uint32_t(last + 1 - kBinSize)));
            }, false)
                .find("table checksum"),
            std::string::npos);
  const size_t table = get16(good, kBinTables);
  EXPECT_NE(damaged([&](std::vector<uint8_t>& b) { put16(b, table + kIpNumDies, 0); }, true), "");
  EXPECT_NE(damaged([&](std::vector<uint8_t>& b) { put16(b, table + kIpNumDies, 17); }, true), "");
  EXPECT_NE(damaged([&](std::vector<uint8_t>& b) { put16(b, table + kIpVersion, 9); }, true).find("version"),
            std::string::npos);
  const size_t die = get16(good, table + kIpDieInfo + 2);
  EXPECT_NE(damaged([&](std::vector<uint8_t>& b) { put16(b, die + 2, 5000); }, true).find("outside"), std::string::npos);
  EXPECT_NE(damaged([&](std::vector<uint8_t>& b) { b[die + kDieHeaderBytes + 3] = 200; }, true).find("outside"),
            std::string::npos);
  EXPECT_NE(damaged([&](std::vector<uint8_t>& b) { put16(b, kBinSize, 60000); }, false).find("size"), std::string::npos);
  // Every truncation is refused without reading past the end (ASan builds check that).
  for (size_t n = 0; n < good.size(); ++n)
    EXPECT_NE(parse_error(std::vector<uint8_t>(good.begin(), good.begin() + long(n))), "") << n;
}

TEST(IpDiscovery, DriverTakesTargetAndBasesFromTheCard) {
  auto gpu = sim::open_emulated_gpu("gfx1100", 9);
  {
    am::Device dev(gpu);
    EXPECT_EQ(dev.info().gfx, "gfx1100");
    const am::IpBlock* gc = dev.ip_discovery().find(GC_HWID);
    ASSERT_TRUE(gc);
    EXPECT_EQ(gc->bases.at(0), 0x1260u);
  }
  // A card whose binary is damaged is refused with the reason.
  uint8_t* top = gpu->chip_vram() + gpu->vram_bytes() - kOffsetFromVramTop;
  top[kBinSize + 20] ^= 0xff;
  try {
    am::Device dev(gpu);
    ADD_FAILURE() << "booted with a damaged IP discovery binary";
  } catch (const am::DeviceError& e) {
    EXPECT_NE(std::string(e.what()).find("IP discovery"), std::string::npos) << e.what();
  }
  top[kBinSize + 20] ^= 0xff;
  am::Device again(gpu); // restored: boots again
  EXPECT_EQ(again.info().gfx, "gfx1100");
}
