// Scanning sysfs for cards and moving them to and from vfio-pci, on a fake sysfs tree laid out
// as Linux lays it out (bus/pci/devices/<address> with vendor, device, resource, a driver
// symlink into bus/pci/drivers and an iommu_group symlink; driver_override; drivers_probe).
#include "am/firmware.h"
#include "am/sysfs_pci.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <fstream>

namespace fs = std::filesystem;

namespace {

class FakeSysfs {
public:
  FakeSysfs() {
    char tmpl[] = "/tmp/amcl-sysfs-XXXXXX";
    root_ = mkdtemp(tmpl);
    fs::create_directories(root_ / "bus/pci/drivers/amdgpu");
    fs::create_directories(root_ / "kernel/iommu_groups/12");
    put("bus/pci/drivers_probe", "");
    put("bus/pci/drivers/amdgpu/unbind", "");
  }
  ~FakeSysfs() { fs::remove_all(root_); }
  const fs::path& root() const { return root_; }

  void add(const std::string& address, const std::string& vendor, const std::string& device,
           const std::string& driver, bool iommu, const std::string& resource = "") {
    const std::string dev = "bus/pci/devices/" + address;
    fs::create_directories(root_ / dev);
    put(dev + "/vendor", vendor + "\n");
    put(dev + "/device", device + "\n");
    put(dev + "/driver_override", "(null)\n");
    if (!resource.empty()) put(dev + "/resource", resource);
    if (!driver.empty()) fs::create_directory_symlink(root_ / "bus/pci/drivers" / driver, root_ / dev / "driver");
    if (iommu) fs::create_directory_symlink(root_ / "kernel/iommu_groups/12", root_ / dev / "iommu_group");
  }
  void put(const std::string& rel, const std::string& text) { std::ofstream(root_ / rel) << text; }
  std::string get(const std::string& rel) const {
    std::ifstream f(root_ / rel);
    return std::string(std::istreambuf_iterator<char>(f), {});
  }

private:
  fs::path root_;
};

} // namespace

TEST(SysfsPci, ScanFindsRdnaCardsWithTheirState) {
  FakeSysfs sys;
  // RX 7900 XTX bound to amdgpu, 32 GiB BAR0; its HDMI audio function; an NVIDIA card; an
  // RX 9070 XT with no driver and no IOMMU.
  sys.add("0000:03:00.0", "0x1002", "0x744c", "amdgpu", true,
          "0x0000007800000000 0x0000007fffffffff 0x000000000014220c\n");
  sys.add("0000:03:00.1", "0x1002", "0xab30", "", true);
  sys.add("0000:01:00.0", "0x10de", "0x2684", "", true);
  sys.add("0000:0a:00.0", "0x1002", "0x7550", "", false);
  const auto found = am::scan_pci(sys.root());
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0].address, "0000:03:00.0");
  EXPECT_EQ(found[0].gfx, "gfx1100");
  EXPECT_EQ(found[0].name, "AMD Radeon RX 7900 XTX");
  EXPECT_EQ(found[0].driver, "amdgpu");
  EXPECT_EQ(found[0].iommu_group, "12");
  EXPECT_EQ(found[0].bar0_bytes, 32ull << 30);
  EXPECT_EQ(found[1].gfx, "gfx1201");
  EXPECT_EQ(found[1].driver, "");
  EXPECT_EQ(found[1].iommu_group, "");
  // Each state says what to do.
  EXPECT_NE(am::usability(found[0]).find("sudo amcl-smi bind 0000:03:00.0"), std::string::npos);
  EXPECT_NE(am::usability(found[1]).find("VFIO=0"), std::string::npos);
}

TEST(SysfsPci, BindOverridesUnbindsAndReprobes) {
  FakeSysfs sys;
  sys.add("0000:03:00.0", "0x1002", "0x744c", "amdgpu", true);
  // Without the vfio-pci module nothing is touched.
  std::string err = am::bind_vfio(sys.root(), "0000:03:00.0");
  EXPECT_NE(err.find("modprobe vfio-pci"), std::string::npos) << err;
  EXPECT_EQ(sys.get("bus/pci/devices/0000:03:00.0/driver_override"), "(null)\n");
  fs::create_directories(sys.root() / "bus/pci/drivers/vfio-pci");
  EXPECT_EQ(am::bind_vfio(sys.root(), "0000:03:00.0"), "");
  EXPECT_EQ(sys.get("bus/pci/devices/0000:03:00.0/driver_override"), "vfio-pci");
  EXPECT_EQ(sys.get("bus/pci/drivers/amdgpu/unbind"), "0000:03:00.0");
  EXPECT_EQ(sys.get("bus/pci/drivers_probe"), "0000:03:00.0");
  // Unknown addresses and other vendors are refused by name.
  EXPECT_NE(am::bind_vfio(sys.root(), "0000:99:00.0").find("no PCI function"), std::string::npos);
  sys.add("0000:01:00.0", "0x10de", "0x2684", "", true);
  EXPECT_NE(am::bind_vfio(sys.root(), "0000:01:00.0").find("not an AMD device"), std::string::npos);
}

TEST(SysfsPci, UnbindReleasesVfioAndClearsTheOverride) {
  FakeSysfs sys;
  fs::create_directories(sys.root() / "bus/pci/drivers/vfio-pci");
  sys.put("bus/pci/drivers/vfio-pci/unbind", "");
  sys.add("0000:03:00.0", "0x1002", "0x744c", "vfio-pci", true);
  sys.add("0000:04:00.0", "0x1002", "0x744c", "amdgpu", true);
  EXPECT_EQ(am::unbind_vfio(sys.root(), "0000:03:00.0"), "");
  EXPECT_EQ(sys.get("bus/pci/drivers/vfio-pci/unbind"), "0000:03:00.0");
  EXPECT_EQ(sys.get("bus/pci/devices/0000:03:00.0/driver_override"), "\n");
  EXPECT_EQ(sys.get("bus/pci/drivers_probe"), "0000:03:00.0");
  // A card amdgpu holds is left alone.
  EXPECT_NE(am::unbind_vfio(sys.root(), "0000:04:00.0").find("bound to amdgpu"), std::string::npos);
}

TEST(SysfsPci, MissingAttributesAreReportedNotCreated) {
  FakeSysfs sys;
  fs::create_directories(sys.root() / "bus/pci/drivers/vfio-pci");
  sys.add("0000:03:00.0", "0x1002", "0x744c", "", true);
  fs::remove(sys.root() / "bus/pci/drivers_probe");
  const std::string err = am::bind_vfio(sys.root(), "0000:03:00.0");
  EXPECT_NE(err.find("drivers_probe does not exist"), std::string::npos) << err;
  EXPECT_FALSE(fs::exists(sys.root() / "bus/pci/drivers_probe"));
}

TEST(Firmware, GcFilesOfAProcessor) {
  FakeSysfs dir; // any empty directory will do
  for (const char* f : {"gc_11_0_0_mec.bin", "gc_11_0_0_rlc.bin", "gc_11_0_3_mec.bin", "psp_13_0_0_sos.bin",
                        "gc_12_0_1_mec.bin"})
    dir.put(f, "x");
  EXPECT_EQ(am::gc_firmware_files(dir.root(), "gfx1100"),
            (std::vector<std::string>{"gc_11_0_0_mec.bin", "gc_11_0_0_rlc.bin"}));
  EXPECT_EQ(am::gc_firmware_files(dir.root(), "gfx1101"), std::vector<std::string>{"gc_11_0_3_mec.bin"});
  EXPECT_EQ(am::gc_firmware_files(dir.root(), "gfx1201"), std::vector<std::string>{"gc_12_0_1_mec.bin"});
  EXPECT_TRUE(am::gc_firmware_files(dir.root(), "gfx9999").empty());
}
