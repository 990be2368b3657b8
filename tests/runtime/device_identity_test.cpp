// cl_khr_device_uuid and cl_khr_pci_bus_info values from a card's identity.
#include "runtime/device_identity.h"

#include <gtest/gtest.h>

using namespace amcl;

TEST(DeviceIdentity, PciBusInfoFromAddresses) {
  auto real = rt::pci_bus_info("0001:c3:1f.7");
  ASSERT_TRUE(real);
  EXPECT_EQ(real->pci_domain, 1u);
  EXPECT_EQ(real->pci_bus, 0xc3u);
  EXPECT_EQ(real->pci_device, 0x1fu);
  EXPECT_EQ(real->pci_function, 7u);
  auto sim = rt::pci_bus_info("sim:2");
  ASSERT_TRUE(sim);
  EXPECT_EQ(sim->pci_domain, 0xffffu);
  EXPECT_EQ(sim->pci_bus, 2u);
  for (const char* bad : {"", "sim:", "sim:1x", "0000:03:00", "0000:100:00.0", "0000:03:20.0",
                          "0000:03:00.8", "0000:03:00.0 ", "sim:256"})
    EXPECT_FALSE(rt::pci_bus_info(bad)) << bad;
}

TEST(DeviceIdentity, UuidsAreStablePerCardAndDistinctAcrossCards) {
  am::DeviceInfo a;
  a.vendor_id = 0x1002;
  a.device_id = 0x744c;
  a.pci_address = "0000:03:00.0";
  am::DeviceInfo b = a;
  b.pci_address = "0000:04:00.0";
  am::DeviceInfo c = a;
  c.device_id = 0x7550;
  EXPECT_EQ(rt::device_uuid(a), rt::device_uuid(a));
  EXPECT_NE(rt::device_uuid(a), rt::device_uuid(b));
  EXPECT_NE(rt::device_uuid(a), rt::device_uuid(c));
  EXPECT_NE(rt::device_uuid(a), rt::driver_uuid());
  for (const auto& u : {rt::device_uuid(a), rt::driver_uuid()}) {
    EXPECT_EQ(u[6] >> 4, 8) << "version 8";
    EXPECT_EQ(u[8] >> 6, 2) << "variant 10";
  }
}
