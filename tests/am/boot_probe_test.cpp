// am/boot_probe (amcl-smi status): how an emulated gfx1100 and gfx1201 were left, read without
// booting — fresh from power-on, left by amcl after a boot, and left by another driver — in the
// words the boot itself uses, and without turning bus mastering on or writing config space.
#include "device_fixture.h"

#include "am/boot_probe.h"
#include "am/forwarding_pci.h"

using namespace am_test;

namespace {

// Fails the test on anything a read-only look must not do to a card.
class NoConfigWrites : public am::ForwardingPci {
public:
  using ForwardingPci::ForwardingPci;
  void enable_bus_master() override { ADD_FAILURE() << "the probe set bus mastering"; }
  void config_write32(uint32_t offset, uint32_t) override {
    ADD_FAILURE() << "the probe wrote config offset " << offset;
  }
};

} // namespace

// Cards of their own (indices 230 and up for gfx1100, 240 and up for gfx1201).
class BootProbe : public OwnCards<230, 240> {};

INSTANTIATE_TEST_SUITE_P(Cards, BootProbe, testing::Values("gfx1100", "gfx1201"),
                         [](const auto& info) { return std::string(info.param); });

TEST_P(BootProbe, AFreshCard) {
  NoConfigWrites card(this->card(0));
  const am::BootProbe p = am::probe_boot_state(card);
  EXPECT_EQ(p.gfx, GetParam());
  EXPECT_FALSE(p.am_marker);
  EXPECT_FALSE(p.sos_alive);
  EXPECT_TRUE(p.bootloader_ready);
  EXPECT_FALSE(p.smu_responding);
  EXPECT_EQ(p.smu_version, 0u);
  EXPECT_EQ(p.found, "fresh (PSP sOS not running)");
}

TEST_P(BootProbe, ACardAmclBooted) {
  auto gpu = card(1);
  uint32_t smu_version = 0;
  {
    am::Device dev(gpu);
    smu_version = dev.smu_version();
  }
  NoConfigWrites card(gpu);
  const am::BootProbe p = am::probe_boot_state(card);
  EXPECT_TRUE(p.am_marker);
  EXPECT_EQ(p.scratch7, am::kAmBootedMagic);
  EXPECT_TRUE(p.sos_alive);
  EXPECT_TRUE(p.smu_responding);
  EXPECT_NE(smu_version, 0u);
  EXPECT_EQ(p.smu_version, smu_version);
  EXPECT_EQ(p.found, "left by amcl (SCRATCH_REG7 marker)");
  // The next boot finds what the probe said.
  am::Device again(gpu);
  EXPECT_EQ(again.boot_state(), am::BootState::FastReinit);
}

TEST_P(BootProbe, ACardAnotherDriverBooted) {
  auto gpu = card(2);
  gpu->assume_booted_by_another_driver();
  NoConfigWrites card(gpu);
  const am::BootProbe p = am::probe_boot_state(card);
  EXPECT_FALSE(p.am_marker);
  EXPECT_TRUE(p.sos_alive);
  EXPECT_EQ(p.found, "left by another driver (amdgpu: PSP sOS running)");
}
