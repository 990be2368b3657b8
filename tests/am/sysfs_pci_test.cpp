// Scanning sysfs for cards and moving them to and from vfio-pci, on a fake sysfs tree laid out
// as Linux lays it out (bus/pci/devices/<address> with vendor, device, resource, a driver
// symlink into bus/pci/drivers and an iommu_group symlink; driver_override; drivers_probe).
#include "am/bar_apertures.h"
#include "am/enumerate.h"
#include "am/firmware.h"
#include "am/pagemap.h"
#include "am/pci_config_state.h"
#include "am/sysfs_pci.h"
#include "am/sysfs_pci_device.h"
#include "runtime/device_backends.h"
#include "holder_process.h"
#include "scoped_lock_dir.h"

#include <gtest/gtest.h>

#include <sys/inotify.h>
#include <unistd.h>

#include <cstring>
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
  amcl_test::ScopedLockDir locks_;
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
  // enumerate opens such a card through sysfs by itself: no VFIO=0 is needed (the message said
  // so until stop 27).
  EXPECT_NE(am::usability(found[1]).find("drives it through sysfs without an IOMMU"),
            std::string::npos);
  EXPECT_EQ(am::usability(found[1]).find("VFIO=0"), std::string::npos);
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

namespace {

// A card's BAR files as sparse regular files: mmap works on them as on sysfs resourceN.
void add_bars(FakeSysfs& sys, const std::string& address) {
  const fs::path dir = sys.root() / "bus/pci/devices" / address;
  std::vector<uint8_t> config(256, 0);
  const uint32_t ids = 0x1002u | (0x744cu << 16);
  std::memcpy(config.data(), &ids, 4);
  config[8] = 0xc8;
  std::ofstream(dir / "config", std::ios::binary).write(reinterpret_cast<const char*>(config.data()), 256);
  for (auto [n, size] : {std::pair{0, 16u << 20}, std::pair{2, 8u << 10}, std::pair{5, 1u << 20}}) {
    const fs::path bar = dir / ("resource" + std::to_string(n));
    std::ofstream{bar};
    fs::resize_file(bar, size);
  }
}

} // namespace

// The sysfs backend maps the BAR files: registers and doorbells are 32/64-bit accesses at
// their dword index, VRAM is BAR0, config space comes from the config file.
TEST(SysfsPciDevice, MapsTheBarsOfACard) {
  FakeSysfs sys;
  sys.add("0000:03:00.0", "0x1002", "0x744c", "", false);
  add_bars(sys, "0000:03:00.0");
  am::SysfsPciDevice dev(sys.root(), "0000:03:00.0");
  EXPECT_EQ(dev.vendor_id(), 0x1002);
  EXPECT_EQ(dev.device_id(), 0x744c);
  EXPECT_EQ(dev.config_read32(8) & 0xff, 0xc8u);
  EXPECT_EQ(dev.bar0_size(), 16u << 20);
  EXPECT_FALSE(dev.emulated());
  dev.reg_write32(0x1234, 0xdeadbeef);
  EXPECT_EQ(dev.reg_read32(0x1234), 0xdeadbeefu);
  EXPECT_EQ(dev.reg_read32(1u << 20), 0xffffffffu); // beyond BAR5
  dev.doorbell_write64(6, 0x1122334455667788ull);
  dev.vram()[12345] = 0x5a;
  // What the backend wrote is in the files (MAP_SHARED), as it would be in the device.
  std::ifstream bar2(sys.root() / "bus/pci/devices/0000:03:00.0/resource2", std::ios::binary);
  bar2.seekg(24);
  uint64_t db = 0;
  bar2.read(reinterpret_cast<char*>(&db), 8);
  EXPECT_EQ(db, 0x1122334455667788ull);
  std::ifstream bar0(sys.root() / "bus/pci/devices/0000:03:00.0/resource0", std::ios::binary);
  bar0.seekg(12345);
  EXPECT_EQ(bar0.get(), 0x5a);
}

// Bus mastering, which unbinding amdgpu clears, is set in the config file's command register
// (memory decoding too); a config file this process may only read gets a clear error. Root
// reads and writes every file whatever its mode, so the read-only half runs only for others.
TEST(SysfsPciDevice, EnablesBusMasteringThroughTheConfigFile) {
  FakeSysfs sys;
  sys.add("0000:03:00.0", "0x1002", "0x744c", "", false);
  add_bars(sys, "0000:03:00.0");
  const fs::path config = sys.root() / "bus/pci/devices/0000:03:00.0/config";
  auto command = [&] {
    std::ifstream in(config, std::ios::binary);
    in.seekg(4);
    uint16_t c = 0;
    in.read(reinterpret_cast<char*>(&c), 2);
    return c;
  };
  {
    am::SysfsPciDevice dev(sys.root(), "0000:03:00.0");
    EXPECT_EQ(command(), 0u);
    dev.enable_bus_master();
    EXPECT_EQ(command(), am::kPciCommandMemory | am::kPciCommandBusMaster);
    EXPECT_EQ(dev.config_read32(am::kPciCommand) & 0xffff, 0x6u);
  }
  if (geteuid() == 0) return;
  std::ofstream(config, std::ios::binary | std::ios::in | std::ios::out).seekp(4).put(0).put(0);
  fs::permissions(config, fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);
  am::SysfsPciDevice dev(sys.root(), "0000:03:00.0");
  try {
    dev.enable_bus_master();
    ADD_FAILURE() << "a read-only config file took the write";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("read-only"), std::string::npos) << e.what();
  }
}

// A mode1 reset clears the function's config space; the header saved before it is written back
// through the config file afterwards (BAR addresses and the command register), as amdgpu's
// amdgpu_device_load_pci_state does. Read-only fields already equal are left alone.
TEST(SysfsPciDevice, ConfigHeaderSavedBeforeAResetIsRestored) {
  FakeSysfs sys;
  sys.add("0000:03:00.0", "0x1002", "0x744c", "", false);
  add_bars(sys, "0000:03:00.0");
  const fs::path config = sys.root() / "bus/pci/devices/0000:03:00.0/config";
  auto dword = [&](unsigned i) {
    std::ifstream in(config, std::ios::binary);
    in.seekg(4 * i);
    uint32_t v = 0;
    in.read(reinterpret_cast<char*>(&v), 4);
    return v;
  };
  auto put = [&](unsigned i, uint32_t v) {
    std::fstream f(config, std::ios::binary | std::ios::in | std::ios::out);
    f.seekp(4 * i);
    f.write(reinterpret_cast<const char*>(&v), 4);
  };
  const uint32_t bars[6] = {0x0000000c, 0x00000040, 0x0000000c, 0x00000041, 0x0000e001, 0xfc000000};
  for (unsigned i = 0; i < 6; ++i) put(4 + i, bars[i]);
  put(15, 0x1ff);
  am::SysfsPciDevice dev(sys.root(), "0000:03:00.0");
  dev.enable_bus_master();
  const am::PciConfigHeader saved = am::save_config_header(dev);
  for (unsigned i = 1; i < 16; ++i)
    if (i != 2) put(i, 0); // what the reset leaves: no command bits, no BAR addresses
  am::restore_config_header(dev, saved);
  for (unsigned i = 0; i < 6; ++i) EXPECT_EQ(dword(4 + i), bars[i]) << "BAR dword " << 4 + i;
  EXPECT_EQ(dword(1) & 0xffff, uint32_t(am::kPciCommandMemory | am::kPciCommandBusMaster));
  EXPECT_EQ(dword(15), 0x1ffu);
  EXPECT_EQ(dword(0), 0x1002u | (0x744cu << 16));
}

// Another card's VRAM is reached through its BAR0: a peer mapping of this card's aperture gets
// bus addresses from the BAR's start in sysfs "resource" (pagemap cannot translate BAR
// mappings), and pins nothing.
TEST(SysfsPciDevice, PeerMappingsOfTheVramApertureUseTheBarBusAddress) {
  FakeSysfs sys;
  sys.add("0000:03:00.0", "0x1002", "0x744c", "", false);
  add_bars(sys, "0000:03:00.0");
  std::ofstream(sys.root() / "bus/pci/devices/0000:03:00.0/resource")
      << "0x0000007c00000000 0x0000007c00ffffff 0x000000000014220c\n"
         "0x0000000000000000 0x0000000000000000 0x0000000000000000\n";
  am::SysfsPciDevice dev(sys.root(), "0000:03:00.0");
  std::vector<uint64_t> pages = dev.dma_map(dev.vram() + 0x20000, 3 * 4096);
  EXPECT_EQ(pages, (std::vector<uint64_t>{0x7c00020000ull, 0x7c00021000ull, 0x7c00022000ull}));
  dev.dma_unmap(dev.vram() + 0x20000, 3 * 4096);
  EXPECT_EQ(am::sysfs_bar_start(sys.root() / "bus/pci/devices/0000:03:00.0", 0), 0x7c00000000ull);
  EXPECT_FALSE(am::sysfs_bar_start(sys.root() / "bus/pci/devices/0000:03:00.0", 1)) << "unassigned BAR";
  EXPECT_FALSE(am::sysfs_bar_start(sys.root() / "bus/pci/devices/0000:03:00.0", 7)) << "no such line";
  // A range running past the aperture is not a peer mapping.
  EXPECT_FALSE(am::aperture_bus_address(dev.vram() + dev.bar0_size() - 4096, 8192));
}

TEST(SysfsPciDevice, MissingBarFileIsNamed) {
  FakeSysfs sys;
  sys.add("0000:03:00.0", "0x1002", "0x744c", "", false);
  add_bars(sys, "0000:03:00.0");
  fs::remove(sys.root() / "bus/pci/devices/0000:03:00.0/resource5");
  try {
    am::SysfsPciDevice dev(sys.root(), "0000:03:00.0");
    ADD_FAILURE() << "opened without BAR5";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("resource5"), std::string::npos) << e.what();
  }
}

// AMCL_DEVICES=<pci address>: a card with no driver and no IOMMU group opens through sysfs
// (also with VFIO=0); VFIO=1 wants it bound to vfio-pci and says so.
TEST(SysfsPciDevice, EnumerationPicksTheBackendByTheCardsStateAndVfio) {
  FakeSysfs sys;
  sys.add("0000:03:00.0", "0x1002", "0x744c", "", false);
  add_bars(sys, "0000:03:00.0");
  ::setenv("AMCL_SYSFS_ROOT", sys.root().c_str(), 1);
  ::setenv("AMCL_DEVICES", "0000:03:00.0", 1);
  std::vector<std::string> messages;
  ::setenv("VFIO", "1", 1); // vfio-pci forced, but the card is not bound to it
  EXPECT_TRUE(amcl::rt::open_device_backends(&messages).empty());
  ASSERT_EQ(messages.size(), 1u);
  EXPECT_NE(messages[0].find("not bound to vfio-pci"), std::string::npos) << messages[0];
  ::unsetenv("VFIO"); // no driver, no IOMMU group: the sysfs backend
  auto devices = amcl::rt::open_device_backends(&messages);
  ASSERT_EQ(devices.size(), 1u);
  devices.clear(); // closes the card, so this process may open it again
  ::setenv("VFIO", "0", 1);
  devices = amcl::rt::open_device_backends(&messages);
  ASSERT_EQ(devices.size(), 1u);
  ASSERT_TRUE(devices[0].pci);
  EXPECT_EQ(devices[0].pci->address(), "0000:03:00.0");
  ::setenv("AMCL_DEVICES", "0000:09:00.0", 1);
  EXPECT_TRUE(amcl::rt::open_device_backends(&messages).empty());
  EXPECT_NE(messages.at(0).find("no RDNA3/RDNA4 card"), std::string::npos);
  ::unsetenv("VFIO");
  ::unsetenv("AMCL_DEVICES");
  ::unsetenv("AMCL_SYSFS_ROOT");
}

namespace {

// Counts what the fake card sees of a process: opens and accesses of its BAR and config files
// (a register access needs a BAR mapped, a mapping needs the file opened).
class CardAccessCounter {
public:
  explicit CardAccessCounter(const fs::path& dir) : fd_(inotify_init1(IN_NONBLOCK | IN_CLOEXEC)) {
    inotify_add_watch(fd_, dir.c_str(), IN_OPEN | IN_ACCESS | IN_MODIFY);
  }
  ~CardAccessCounter() { close(fd_); }
  int count() {
    alignas(inotify_event) char buf[4096];
    ssize_t n;
    while ((n = read(fd_, buf, sizeof buf)) > 0)
      for (ssize_t at = 0; at < n;) {
        const auto* e = reinterpret_cast<const inotify_event*>(buf + at);
        const std::string name = e->len ? e->name : "";
        if (name == "config" || (name.rfind("resource", 0) == 0 && name != "resource")) ++count_;
        at += ssize_t(sizeof(inotify_event) + e->len);
      }
    return count_;
  }

private:
  int fd_;
  int count_ = 0;
};

// The card as enumeration opens it, through AMCL_SYSFS_ROOT (VFIO unset: no driver, no IOMMU
// group, so the sysfs backend).
am::RealCard open_fake_card(const FakeSysfs& sys) {
  ::setenv("AMCL_SYSFS_ROOT", sys.root().c_str(), 1);
  std::vector<std::string> messages;
  am::RealCard card = am::open_real_card("0000:03:00.0", messages);
  ::unsetenv("AMCL_SYSFS_ROOT");
  return card;
}

} // namespace

// Two processes open the same card: the second learns who holds it, and has opened none of the
// card's files; once the first has exited, the second gets the card.
TEST(SysfsPciDevice, SecondProcessGetsTheHolderAndTouchesNothing) {
  FakeSysfs sys;
  sys.add("0000:03:00.0", "0x1002", "0x744c", "", false, "0x7800000000 0x7800ffffff 0x0\n");
  add_bars(sys, "0000:03:00.0");
  std::shared_ptr<am::Pci> first_pci;
  amcl_test::HolderProcess first([&] {
    first_pci = open_fake_card(sys).pci;
    if (!first_pci) throw std::runtime_error("not opened");
  });
  ASSERT_TRUE(first.holding());
  CardAccessCounter accesses(sys.root() / "bus/pci/devices/0000:03:00.0");
  am::RealCard second = open_fake_card(sys);
  EXPECT_FALSE(second.pci);
  ASSERT_TRUE(second.held);
  EXPECT_EQ(accesses.count(), 0);
  EXPECT_EQ(second.held->function.address, "0000:03:00.0");
  EXPECT_EQ(second.held->function.gfx, "gfx1100");
  EXPECT_EQ(second.held->function.bar0_bytes, 16u << 20);
  ASSERT_TRUE(second.held->holder);
  EXPECT_EQ(second.held->holder->pid, first.pid());
  EXPECT_NE(second.held->message.find("kill " + std::to_string(first.pid())), std::string::npos)
      << second.held->message;
  EXPECT_EQ(first.finish(), 0);
  am::RealCard after = open_fake_card(sys);
  ASSERT_TRUE(after.pci);
  EXPECT_FALSE(after.held);
  EXPECT_GT(accesses.count(), 0) << "the counter sees an open that happens";
}

// A process killed while it drove the card leaves the lock file, not the lock.
TEST(SysfsPciDevice, CardOfAKilledProcessOpens) {
  FakeSysfs sys;
  sys.add("0000:03:00.0", "0x1002", "0x744c", "", false);
  add_bars(sys, "0000:03:00.0");
  std::unique_ptr<am::SysfsPciDevice> held;
  amcl_test::HolderProcess crashed(
      [&] { held = std::make_unique<am::SysfsPciDevice>(sys.root(), "0000:03:00.0"); });
  ASSERT_TRUE(crashed.holding());
  EXPECT_THROW(am::SysfsPciDevice(sys.root(), "0000:03:00.0"), am::CardBusy);
  crashed.kill_hard();
  EXPECT_TRUE(fs::exists(am::card_lock_path("0000:03:00.0")));
  am::SysfsPciDevice dev(sys.root(), "0000:03:00.0");
  EXPECT_EQ(dev.device_id(), 0x744c);
}

// /proc/self/pagemap for real: as root every pinned page has a physical address; without
// CAP_SYS_ADMIN the kernel hides them and pinning says so.
TEST(Pagemap, PhysicalAddressesOfPinnedPages) {
  void* p = nullptr;
  ASSERT_EQ(posix_memalign(&p, 4096, 4 * 4096), 0);
  std::memset(p, 1, 4 * 4096);
  if (geteuid() != 0) {
    EXPECT_THROW(am::pin_physical_pages(p, 4 * 4096), std::runtime_error);
  } else {
    std::vector<uint64_t> pages;
    try {
      pages = am::pin_physical_pages(p, 4 * 4096);
    } catch (const std::runtime_error& e) {
      std::free(p);
      GTEST_SKIP() << "pinning refused here: " << e.what();
    }
    ASSERT_EQ(pages.size(), 4u);
    for (size_t i = 0; i < 4; ++i) {
      EXPECT_NE(pages[i], 0u);
      EXPECT_EQ(pages[i] % 4096, 0u);
      for (size_t j = 0; j < i; ++j) EXPECT_NE(pages[i], pages[j]);
    }
    EXPECT_EQ(am::pin_physical_pages(p, 4 * 4096), pages); // stable while pinned
    am::unpin_pages(p, 4 * 4096);
    am::unpin_pages(p, 4 * 4096);
  }
  std::free(p);
}
