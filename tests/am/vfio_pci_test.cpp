// The vfio-pci backend against a fake kernel (am::VfioSystem): the container / group / device
// sequence of Documentation/driver-api/vfio.rst, the BARs and config space through the device
// fd, bus mastering, MSI into an eventfd, and DMA mappings at iova = physical address, merged
// into physically contiguous runs; plus each thing that can be missing, with its message.
#include "am/vfio_pci.h"
#include "holder_process.h"
#include "scoped_lock_dir.h"

#include <fcntl.h>
#include <linux/vfio.h>
#include <sys/mman.h>

#include <gtest/gtest.h>

#include <cerrno>
#include <cstring>
#include <map>
#include <set>

namespace {

constexpr int kContainer = 3, kGroup = 4, kDevice = 5, kEventfd = 6;
uint64_t region_offset(unsigned index) { return uint64_t(index) << 40; } // as vfio-pci lays them out

struct FakeVfio final : am::VfioSystem {
  bool module_loaded = true, viable = true, noiommu_enabled = false;
  uint32_t msi_count = 1;
  std::vector<std::string> calls;
  int accesses = 0; // every call the backend made into this fake kernel
  amcl_test::ScopedLockDir locks;
  uint64_t iommu_type = 0;
  int attached_container = -1;
  int irq_eventfd = -1;
  bool irq_pending = false;
  std::map<uint64_t, std::pair<uint64_t, uint64_t>> dma; // iova -> (vaddr, size)
  std::set<void*> pinned;
  std::vector<uint8_t> config = std::vector<uint8_t>(256, 0);
  std::vector<uint64_t> physical; // what pin() reports, page by page
  // The IOVA ranges VFIO_IOMMU_GET_INFO reports (an x86 IOMMU's: all but the MSI window);
  // empty: the ioctl fails, as a kernel without the capability would leave it unsaid.
  std::vector<std::pair<uint64_t, uint64_t>> iova_ranges = {{0, 0xfedfffff},
                                                            {0xfef00000, 0xffffffffffffull}};
  int info_calls = 0;
  std::vector<std::string> files_read;
  std::optional<std::string> disable_idle_d3 = "Y";

  FakeVfio() {
    const uint32_t ids = 0x1002u | (0x7550u << 16);
    std::memcpy(config.data(), &ids, 4);
  }
  int open(const std::string& path, int) override {
    ++accesses;
    calls.push_back("open " + path);
    if (path == "/dev/vfio/vfio") return module_loaded ? kContainer : (errno = ENOENT, -1);
    if (path == "/dev/vfio/12" || path == "/dev/vfio/noiommu-12") return kGroup;
    errno = ENOENT;
    return -1;
  }
  int close(int) override {
    ++accesses;
    return 0;
  }
  int ioctl(int fd, unsigned long request, void* arg) override {
    ++accesses;
    switch (request) {
    case VFIO_GET_API_VERSION: return VFIO_API_VERSION;
    case VFIO_CHECK_EXTENSION: {
      const auto type = reinterpret_cast<uintptr_t>(arg);
      return type == VFIO_TYPE1v2_IOMMU ? 1 : type == VFIO_NOIOMMU_IOMMU ? int(noiommu_enabled) : 0;
    }
    case VFIO_GROUP_GET_STATUS:
      static_cast<vfio_group_status*>(arg)->flags = viable ? VFIO_GROUP_FLAGS_VIABLE : 0;
      return 0;
    case VFIO_GROUP_SET_CONTAINER: attached_container = *static_cast<int*>(arg); return 0;
    case VFIO_SET_IOMMU: iommu_type = reinterpret_cast<uintptr_t>(arg); return 0;
    case VFIO_GROUP_GET_DEVICE_FD:
      return fd == kGroup && std::strcmp(static_cast<char*>(arg), "0000:03:00.0") == 0 ? kDevice : (errno = ENODEV, -1);
    case VFIO_DEVICE_GET_REGION_INFO: {
      auto* info = static_cast<vfio_region_info*>(arg);
      static const std::map<uint32_t, uint64_t> sizes = {{VFIO_PCI_BAR0_REGION_INDEX, 16u << 20},
                                                         {VFIO_PCI_BAR2_REGION_INDEX, 8u << 10},
                                                         {VFIO_PCI_BAR5_REGION_INDEX, 1u << 20},
                                                         {VFIO_PCI_CONFIG_REGION_INDEX, 256}};
      auto it = sizes.find(info->index);
      if (it == sizes.end()) return -1;
      info->size = it->second;
      info->offset = region_offset(info->index);
      info->flags = info->index == VFIO_PCI_CONFIG_REGION_INDEX ? 0 : VFIO_REGION_INFO_FLAG_MMAP;
      return 0;
    }
    case VFIO_DEVICE_GET_IRQ_INFO: static_cast<vfio_irq_info*>(arg)->count = msi_count; return 0;
    case VFIO_DEVICE_SET_IRQS: {
      auto* set = static_cast<vfio_irq_set*>(arg);
      if (set->flags & VFIO_IRQ_SET_DATA_EVENTFD) std::memcpy(&irq_eventfd, set->data, 4);
      else irq_eventfd = -1;
      return 0;
    }
    case VFIO_IOMMU_MAP_DMA: {
      auto* m = static_cast<vfio_iommu_type1_dma_map*>(arg);
      if (m->flags != (VFIO_DMA_MAP_FLAG_READ | VFIO_DMA_MAP_FLAG_WRITE)) return -1;
      dma[m->iova] = {m->vaddr, m->size};
      return 0;
    }
    case VFIO_IOMMU_GET_INFO: {
      // As the kernel answers: argsz grows to what the capability chain needs, and the chain
      // is filled only when the caller's buffer holds it.
      ++info_calls;
      if (iova_ranges.empty()) return -1;
      auto* info = static_cast<vfio_iommu_type1_info*>(arg);
      const uint32_t cap_at = (sizeof(vfio_iommu_type1_info) + 7) & ~7u;
      const uint32_t need = cap_at + sizeof(vfio_iommu_type1_info_cap_iova_range) +
                            uint32_t(iova_ranges.size() * sizeof(vfio_iova_range));
      const uint32_t given = info->argsz;
      info->flags = VFIO_IOMMU_INFO_PGSIZES | VFIO_IOMMU_INFO_CAPS;
      info->iova_pgsizes = 0x40201000;
      info->argsz = need;
      if (given < need) {
        info->cap_offset = 0;
        return 0;
      }
      info->cap_offset = cap_at;
      auto* cap = reinterpret_cast<vfio_iommu_type1_info_cap_iova_range*>(
          static_cast<uint8_t*>(arg) + cap_at);
      cap->header.id = VFIO_IOMMU_TYPE1_INFO_CAP_IOVA_RANGE;
      cap->header.version = 1;
      cap->header.next = 0;
      cap->nr_iovas = uint32_t(iova_ranges.size());
      for (size_t i = 0; i < iova_ranges.size(); ++i)
        cap->iova_ranges[i] = {iova_ranges[i].first, iova_ranges[i].second};
      return 0;
    }
    case VFIO_IOMMU_UNMAP_DMA: {
      auto* u = static_cast<vfio_iommu_type1_dma_unmap*>(arg);
      return dma.erase(u->iova) ? 0 : -1;
    }
    default: return -1;
    }
  }
  void* mmap(size_t length, int, off_t) override {
    ++accesses;
    return ::mmap(nullptr, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  }
  int munmap(void* p, size_t length) override {
    ++accesses;
    return ::munmap(p, length);
  }
  ssize_t pread(int, void* buf, size_t n, off_t offset) override {
    ++accesses;
    const uint64_t at = uint64_t(offset) - region_offset(VFIO_PCI_CONFIG_REGION_INDEX);
    if (at + n > config.size()) return -1;
    std::memcpy(buf, config.data() + at, n);
    return ssize_t(n);
  }
  ssize_t pwrite(int, const void* buf, size_t n, off_t offset) override {
    ++accesses;
    const uint64_t at = uint64_t(offset) - region_offset(VFIO_PCI_CONFIG_REGION_INDEX);
    if (at + n > config.size()) return -1;
    std::memcpy(config.data() + at, buf, n);
    return ssize_t(n);
  }
  int eventfd() override {
    ++accesses;
    return kEventfd;
  }
  bool wait_eventfd(int fd, int64_t) override {
    ++accesses;
    const bool fired = fd == irq_eventfd && irq_pending;
    irq_pending = false;
    return fired;
  }
  std::vector<uint64_t> pin(void* host, uint64_t size) override {
    ++accesses;
    pinned.insert(host);
    return std::vector<uint64_t>(physical.begin(), physical.begin() + std::ptrdiff_t(size / 4096));
  }
  void unpin(void* host, uint64_t) override {
    ++accesses;
    pinned.erase(host);
  }
  std::optional<uint64_t> bar0_bus = 0x7c00000000ull;
  std::optional<uint64_t> bar_start(const std::string&, unsigned index) override {
    ++accesses;
    return index == 0 ? bar0_bus : std::nullopt;
  }
  std::optional<std::string> read_line(const std::string& path) override {
    ++accesses;
    files_read.push_back(path);
    return path == "/sys/module/vfio_pci/parameters/disable_idle_d3" ? disable_idle_d3
                                                                      : std::nullopt;
  }
};

std::string error_of(FakeVfio& sys, bool noiommu = false) {
  try {
    am::VfioPci pci(sys, "0000:03:00.0", "12", noiommu);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

} // namespace

TEST(VfioPci, OpensTheCardThroughItsGroupAndContainer) {
  FakeVfio sys;
  am::VfioPci pci(sys, "0000:03:00.0", "12", false);
  EXPECT_EQ(sys.calls, (std::vector<std::string>{"open /dev/vfio/vfio", "open /dev/vfio/12"}));
  EXPECT_EQ(sys.attached_container, kContainer);
  EXPECT_EQ(sys.iommu_type, uint64_t(VFIO_TYPE1v2_IOMMU));
  EXPECT_EQ(pci.device_id(), 0x7550);
  EXPECT_EQ(pci.bar0_size(), 16u << 20);
  EXPECT_EQ(sys.config[4] & 0x6, 0x6); // memory space and bus mastering on
  pci.reg_write32(0x40, 0xabcd);
  EXPECT_EQ(pci.reg_read32(0x40), 0xabcdu);
  EXPECT_EQ(pci.reg_read32(1u << 20), 0xffffffffu);
  ASSERT_TRUE(pci.interrupts());
  EXPECT_EQ(sys.irq_eventfd, kEventfd);
  EXPECT_FALSE(pci.wait_interrupt(std::chrono::microseconds(10)));
  sys.irq_pending = true;
  EXPECT_TRUE(pci.wait_interrupt(std::chrono::microseconds(10)));
}

// After a reset the kernel did not see, the backend writes the command register (vfio-pci then
// restores the real BARs) and switches MSI off and on so vfio programs the capability again.
TEST(VfioPci, ConfigRestoreAfterAResetReenablesMemoryAndRearmsMsi) {
  FakeVfio sys;
  am::VfioPci pci(sys, "0000:03:00.0", "12", false);
  ASSERT_TRUE(pci.interrupts());
  sys.config[4] = 0;    // the reset cleared the command register
  sys.irq_eventfd = -1; // and the MSI set-up
  pci.after_config_restore();
  EXPECT_EQ(sys.config[4] & 0x6, 0x6);
  EXPECT_EQ(sys.irq_eventfd, kEventfd);
  sys.irq_pending = true;
  EXPECT_TRUE(pci.wait_interrupt(std::chrono::microseconds(10)));
}

// Each page at iova = its physical address; physically contiguous pages in one mapping.
TEST(VfioPci, DmaMapsEveryPageAtItsPhysicalAddress) {
  FakeVfio sys;
  sys.physical = {0x10000000, 0x10001000, 0x7000000, 0x7001000, 0x7002000};
  am::VfioPci pci(sys, "0000:03:00.0", "12", false);
  alignas(4096) static uint8_t buf[5 * 4096];
  const std::vector<uint64_t> pages = pci.dma_map(buf, sizeof buf);
  EXPECT_EQ(pages, sys.physical);
  ASSERT_EQ(sys.dma.size(), 2u);
  EXPECT_EQ(sys.dma.at(0x10000000), (std::pair<uint64_t, uint64_t>{reinterpret_cast<uintptr_t>(buf), 2 * 4096}));
  EXPECT_EQ(sys.dma.at(0x7000000), (std::pair<uint64_t, uint64_t>{reinterpret_cast<uintptr_t>(buf) + 2 * 4096, 3 * 4096}));
  EXPECT_TRUE(sys.pinned.count(buf));
  pci.dma_unmap(buf, sizeof buf);
  EXPECT_TRUE(sys.dma.empty());
  EXPECT_FALSE(sys.pinned.count(buf));
}

TEST(VfioPci, NoIommuModePinsWithoutMappingAndWarns) {
  FakeVfio sys;
  sys.noiommu_enabled = true;
  sys.physical = {0x5000};
  am::VfioPci pci(sys, "0000:03:00.0", "12", true);
  EXPECT_EQ(sys.calls.back(), "open /dev/vfio/noiommu-12");
  EXPECT_EQ(sys.iommu_type, uint64_t(VFIO_NOIOMMU_IOMMU));
  alignas(4096) static uint8_t page[4096];
  EXPECT_EQ(pci.dma_map(page, 4096), std::vector<uint64_t>{0x5000});
  EXPECT_TRUE(sys.dma.empty());
  pci.dma_unmap(page, 4096);
  EXPECT_FALSE(sys.pinned.count(page));
}

TEST(VfioPci, EachMissingPieceIsNamedWithWhatToDo) {
  FakeVfio no_module;
  no_module.module_loaded = false;
  EXPECT_NE(error_of(no_module).find("modprobe vfio-pci"), std::string::npos);
  FakeVfio not_viable;
  not_viable.viable = false;
  EXPECT_NE(error_of(not_viable).find("IOMMU group 12 is not viable"), std::string::npos);
  FakeVfio noiommu_off;
  EXPECT_NE(error_of(noiommu_off, true).find("enable_unsafe_noiommu_mode"), std::string::npos);
  FakeVfio no_msi; // still usable: waits poll
  no_msi.msi_count = 0;
  am::VfioPci pci(no_msi, "0000:03:00.0", "12", false);
  EXPECT_FALSE(pci.interrupts());
}

// Another card's VRAM aperture (this process's mapping of its BAR0) is mapped for DMA at
// iova = the BAR's bus address, in one run, and never pinned; unmapping takes it out again.
TEST(VfioPci, PeerMappingOfAVramApertureUsesTheBarBusAddress) {
  FakeVfio sys;
  am::VfioPci pci(sys, "0000:03:00.0", "12", false);
  uint8_t* host = pci.vram() + 0x40000;
  std::vector<uint64_t> pages = pci.dma_map(host, 2 * 4096);
  EXPECT_EQ(pages, (std::vector<uint64_t>{0x7c00040000ull, 0x7c00041000ull}));
  ASSERT_EQ(sys.dma.count(0x7c00040000ull), 1u);
  EXPECT_EQ(sys.dma[0x7c00040000ull].first, reinterpret_cast<uint64_t>(host));
  EXPECT_EQ(sys.dma[0x7c00040000ull].second, 2u * 4096);
  EXPECT_TRUE(sys.pinned.empty());
  pci.dma_unmap(host, 2 * 4096);
  EXPECT_TRUE(sys.dma.empty());
}

// Two processes open the same card: the second is refused with the holder before it has made a
// single call into vfio (no container, no group, no BAR); after the first exits it opens.
TEST(VfioPci, SecondProcessIsRefusedBeforeAnyVfioCall) {
  FakeVfio first_sys, second_sys; // TMPDIR is second_sys's lock directory, for both processes
  std::unique_ptr<am::VfioPci> first_pci;
  amcl_test::HolderProcess first(
      [&] { first_pci = std::make_unique<am::VfioPci>(first_sys, "0000:03:00.0", "12", false); });
  ASSERT_TRUE(first.holding());
  try {
    am::VfioPci second(second_sys, "0000:03:00.0", "12", false);
    ADD_FAILURE() << "two processes drive one card";
  } catch (const am::CardBusy& busy) {
    ASSERT_TRUE(busy.holder());
    EXPECT_EQ(busy.holder()->pid, first.pid());
  }
  EXPECT_EQ(second_sys.accesses, 0);
  EXPECT_TRUE(second_sys.calls.empty());
  EXPECT_EQ(first.finish(), 0);
  am::VfioPci second(second_sys, "0000:03:00.0", "12", false);
  EXPECT_GT(second_sys.accesses, 0);
  EXPECT_EQ(second.device_id(), 0x7550);
}

// A crashed holder (SIGKILL) blocks nobody.
TEST(VfioPci, CardOfAKilledProcessOpens) {
  FakeVfio sys;
  std::unique_ptr<am::VfioPci> held;
  amcl_test::HolderProcess crashed(
      [&] { held = std::make_unique<am::VfioPci>(sys, "0000:03:00.0", "12", false); });
  ASSERT_TRUE(crashed.holding());
  EXPECT_NE(error_of(sys).find("in use by another process"), std::string::npos);
  crashed.kill_hard();
  EXPECT_EQ(error_of(sys), "");
}

// The container's IOMMU tells which IOVA ranges it can map (VFIO_IOMMU_GET_INFO, the IOVA range
// capability, asked again with the size the kernel asked for): a page whose physical address lies
// outside them (here in the x86 MSI window) is refused by name before any mapping, and nothing of
// the buffer stays mapped or pinned.
TEST(VfioPci, APageOutsideTheIommusIovaRangesIsRefusedClearly) {
  FakeVfio sys;
  sys.physical = {0x10000000, 0xfee00000};
  am::VfioPci pci(sys, "0000:03:00.0", "12", false);
  EXPECT_EQ(sys.info_calls, 2);
  alignas(4096) static uint8_t buf[2 * 4096];
  try {
    pci.dma_map(buf, sizeof buf);
    ADD_FAILURE() << "mapped a page in the MSI window";
  } catch (const std::runtime_error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("0xfee00000"), std::string::npos) << what;
    EXPECT_NE(what.find("outside the IOVA ranges the IOMMU allows"), std::string::npos) << what;
    EXPECT_NE(what.find("[0x0, 0xfedfffff]"), std::string::npos) << what;
  }
  EXPECT_TRUE(sys.dma.empty());
  EXPECT_FALSE(sys.pinned.count(buf));
  sys.physical = {0x10000000, 0x10001000}; // inside: mapped as before
  EXPECT_EQ(pci.dma_map(buf, sizeof buf).size(), 2u);
  EXPECT_EQ(sys.dma.size(), 1u);
  pci.dma_unmap(buf, sizeof buf);
}

// A kernel that says nothing of IOVA ranges leaves the mapping unchecked.
TEST(VfioPci, WithoutAnIovaRangeCapabilityEveryPageMaps) {
  FakeVfio sys;
  sys.iova_ranges.clear();
  sys.physical = {0xfee00000};
  am::VfioPci pci(sys, "0000:03:00.0", "12", false);
  alignas(4096) static uint8_t page[4096];
  EXPECT_EQ(pci.dma_map(page, 4096), std::vector<uint64_t>{0xfee00000});
  pci.dma_unmap(page, 4096);
}

// vfio-pci without disable_idle_d3 may put an idle card in D3: opening says how to load it as
// tinygrad does; with it, nothing is said.
TEST(VfioPci, VfioPciWithoutDisableIdleD3IsWarnedAbout) {
  for (const char* value : {"N", "Y"}) {
    SCOPED_TRACE(value);
    FakeVfio sys;
    sys.disable_idle_d3 = value;
    testing::internal::CaptureStderr();
    { am::VfioPci pci(sys, "0000:03:00.0", "12", false); }
    const std::string err = testing::internal::GetCapturedStderr();
    EXPECT_EQ(sys.files_read,
              std::vector<std::string>{"/sys/module/vfio_pci/parameters/disable_idle_d3"});
    EXPECT_EQ(err.find("disable_idle_d3=1") != std::string::npos, std::string(value) == "N")
        << err;
  }
}
