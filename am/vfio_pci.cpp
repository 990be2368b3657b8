#include "vfio_pci.h"

#include "bar_apertures.h"
#include "debug_log.h"

#include <fcntl.h>
#include <linux/vfio.h>
#include <sys/mman.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>

namespace am {
namespace {

constexpr uint64_t kPage = 4096;

void* as_arg(uintptr_t v) { return reinterpret_cast<void*>(v); }

} // namespace

VfioPci::VfioPci(VfioSystem& sys, const std::string& address, const std::string& group, bool noiommu)
    : BarMappedPci(address), sys_(sys), noiommu_(noiommu) {
  auto fail = [&](const std::string& what) {
    release();
    throw std::runtime_error(address_ + ": " + what);
  };
  container_ = sys_.open("/dev/vfio/vfio", O_RDWR);
  if (container_ < 0)
    fail(errno == ENOENT ? "/dev/vfio/vfio is missing: load vfio-pci (`sudo modprobe vfio-pci`)"
                         : std::string("cannot open /dev/vfio/vfio: ") + std::strerror(errno) +
                               " (run as root, or give your user the vfio device nodes)");
  if (sys_.ioctl(container_, VFIO_GET_API_VERSION, nullptr) != VFIO_API_VERSION)
    fail("the kernel's vfio speaks another API version");
  const uintptr_t type = noiommu_ ? VFIO_NOIOMMU_IOMMU : VFIO_TYPE1v2_IOMMU;
  if (sys_.ioctl(container_, VFIO_CHECK_EXTENSION, as_arg(type)) <= 0)
    fail(noiommu_ ? "vfio's no-IOMMU mode is off (echo 1 > /sys/module/vfio/parameters/enable_unsafe_noiommu_mode)"
                  : "the kernel's vfio has no type-1 IOMMU support");
  const std::string group_path = "/dev/vfio/" + std::string(noiommu_ ? "noiommu-" : "") + group;
  group_ = sys_.open(group_path, O_RDWR);
  if (group_ < 0) fail("cannot open " + group_path + ": " + std::strerror(errno) + " (is the card bound to vfio-pci?)");
  vfio_group_status status{};
  status.argsz = sizeof status;
  if (sys_.ioctl(group_, VFIO_GROUP_GET_STATUS, &status) != 0 || !(status.flags & VFIO_GROUP_FLAGS_VIABLE))
    fail("IOMMU group " + group + " is not viable: every device in it must be bound to vfio-pci "
         "(`sudo amcl-smi bind <address>` for each)");
  if (sys_.ioctl(group_, VFIO_GROUP_SET_CONTAINER, &container_) != 0)
    fail(std::string("cannot attach the IOMMU group to a vfio container: ") + std::strerror(errno));
  if (sys_.ioctl(container_, VFIO_SET_IOMMU, as_arg(type)) != 0)
    fail(std::string("cannot set the container's IOMMU type: ") + std::strerror(errno));
  if (!noiommu_) read_iova_ranges();
  warn_unless_idle_d3_disabled();
  std::vector<char> name(address_.begin(), address_.end());
  name.push_back('\0');
  device_ = sys_.ioctl(group_, VFIO_GROUP_GET_DEVICE_FD, name.data());
  if (device_ < 0) fail(std::string("vfio refuses the device: ") + std::strerror(errno));
  try {
    config_offset_ = region(VFIO_PCI_CONFIG_REGION_INDEX).offset;
    bar0_ = map_bar(VFIO_PCI_BAR0_REGION_INDEX);
    bar2_ = map_bar(VFIO_PCI_BAR2_REGION_INDEX);
    bar5_ = map_bar(VFIO_PCI_BAR5_REGION_INDEX);
  } catch (const std::runtime_error& e) {
    fail(e.what());
  }
  // Other cards reach this one's VRAM at its BAR0 bus address (peer mappings).
  if (auto bus = sys_.bar_start(address_, 0)) register_aperture(bar0_.base, bar0_.size, *bus);
  enable_bus_master();
  setup_msi();
  if (noiommu_)
    debug_print(address_, "vfio no-IOMMU mode: the card can reach all memory, and a wild DMA "
                          "would corrupt it");
}

VfioPci::~VfioPci() { release(); }

// VFIO_IOMMU_GET_INFO, asked twice when the kernel has capabilities to append (argsz grows):
// the IOVA range capability lists where mappings may go. The IOMMU reserves the rest (the MSI
// window at 0xfee00000 on x86, ranges the platform's firmware reserves), so a page whose
// physical address falls there cannot be mapped at iova = physical address.
void VfioPci::read_iova_ranges() {
  std::vector<uint64_t> buf(sizeof(vfio_iommu_type1_info) / 8 + 1, 0);
  auto* info = reinterpret_cast<vfio_iommu_type1_info*>(buf.data());
  info->argsz = sizeof(vfio_iommu_type1_info);
  if (sys_.ioctl(container_, VFIO_IOMMU_GET_INFO, info) != 0) return; // nothing said: no check
  if ((info->flags & VFIO_IOMMU_INFO_CAPS) && info->argsz > sizeof(vfio_iommu_type1_info)) {
    const uint32_t need = info->argsz;
    buf.assign((need + 7) / 8, 0);
    info = reinterpret_cast<vfio_iommu_type1_info*>(buf.data());
    info->argsz = need;
    if (sys_.ioctl(container_, VFIO_IOMMU_GET_INFO, info) != 0) return;
  }
  if (!(info->flags & VFIO_IOMMU_INFO_CAPS)) return;
  const auto* bytes = reinterpret_cast<const uint8_t*>(buf.data());
  const size_t size = buf.size() * 8;
  for (uint32_t at = info->cap_offset; at && at + sizeof(vfio_info_cap_header) <= size;) {
    const auto* cap = reinterpret_cast<const vfio_info_cap_header*>(bytes + at);
    if (cap->id == VFIO_IOMMU_TYPE1_INFO_CAP_IOVA_RANGE &&
        at + sizeof(vfio_iommu_type1_info_cap_iova_range) <= size) {
      const auto* ranges = reinterpret_cast<const vfio_iommu_type1_info_cap_iova_range*>(cap);
      for (uint32_t i = 0; i < ranges->nr_iovas; ++i) {
        if (at + sizeof(*ranges) + (i + 1) * sizeof(vfio_iova_range) > size) break;
        iova_ranges_.emplace_back(ranges->iova_ranges[i].start, ranges->iova_ranges[i].end);
      }
    }
    if (cap->next <= at) break; // the list only moves forward
    at = cap->next;
  }
}

// vfio-pci puts an idle device in D3 unless loaded with disable_idle_d3 (tinygrad loads it so:
// `modprobe vfio-pci disable_idle_d3=1`); a GPU that drops to D3 between uses loses its state.
void VfioPci::warn_unless_idle_d3_disabled() {
  const std::optional<std::string> v =
      sys_.read_line("/sys/module/vfio_pci/parameters/disable_idle_d3");
  if (v && (*v == "Y" || *v == "1")) return;
  debug_print(address_, "vfio-pci runs without disable_idle_d3: an idle card may be put in D3 "
                        "and lose its state; load it with `sudo modprobe vfio-pci "
                        "disable_idle_d3=1` (or echo Y > "
                        "/sys/module/vfio_pci/parameters/disable_idle_d3)");
}

void VfioPci::check_iova(uint64_t iova, uint64_t size) const {
  if (iova_ranges_.empty()) return;
  for (auto [start, end] : iova_ranges_)
    if (iova >= start && iova + size - 1 <= end && iova + size - 1 >= iova) return;
  std::string allowed;
  char buf[64];
  for (auto [start, end] : iova_ranges_) {
    std::snprintf(buf, sizeof buf, "%s[0x%llx, 0x%llx]", allowed.empty() ? "" : ", ",
                  static_cast<unsigned long long>(start), static_cast<unsigned long long>(end));
    allowed += buf;
  }
  std::snprintf(buf, sizeof buf, "0x%llx..0x%llx", static_cast<unsigned long long>(iova),
                static_cast<unsigned long long>(iova + size - 1));
  throw std::runtime_error(address_ + ": memory at physical address " + buf +
                           " lies outside the IOVA ranges the IOMMU allows (" + allowed +
                           "), so it cannot be mapped for the card at iova = physical address");
}

void VfioPci::release() {
  if (device_ >= 0 && irq_fd_ >= 0) disable_msi();
  if (bar0_.base) unregister_aperture(bar0_.base);
  for (Bar* r : {&bar0_, &bar2_, &bar5_})
    if (r->base) sys_.munmap(r->base, r->size), r->base = nullptr;
  {
    std::lock_guard lock(dma_mutex_);
    for (auto& [host, mapping] : dma_) {
      uint64_t size = 0;
      for (auto [iova, bytes] : mapping.runs) size += bytes;
      if (mapping.pinned) sys_.unpin(host, size);
    }
    dma_.clear(); // closing the container drops its mappings
  }
  for (int* fd : {&irq_fd_, &device_, &group_, &container_})
    if (*fd >= 0) sys_.close(*fd), *fd = -1;
}

VfioPci::Region VfioPci::region(unsigned index) {
  vfio_region_info info{};
  info.argsz = sizeof info;
  info.index = index;
  if (sys_.ioctl(device_, VFIO_DEVICE_GET_REGION_INFO, &info) != 0 || info.size == 0)
    throw std::runtime_error("vfio region " + std::to_string(index) + " is missing");
  return Region{info.offset, info.size, (info.flags & VFIO_REGION_INFO_FLAG_MMAP) != 0};
}

VfioPci::Bar VfioPci::map_bar(unsigned index) {
  const Region r = region(index);
  if (!r.mappable)
    throw std::runtime_error("BAR region " + std::to_string(index) + " cannot be mapped");
  void* p = sys_.mmap(r.size, device_, off_t(r.offset));
  if (p == MAP_FAILED) throw std::runtime_error("cannot map BAR region " + std::to_string(index) + ": " + std::strerror(errno));
  return Bar{static_cast<uint8_t*>(p), r.size};
}

// vfio-pci enables the device but leaves bus mastering to the user, as QEMU sets it.
void VfioPci::enable_bus_master() {
  uint16_t command = 0;
  if (sys_.pread(device_, &command, 2, off_t(config_offset_ + kPciCommand)) != 2)
    throw std::runtime_error(address_ + ": cannot read the PCI command register");
  command |= kPciCommandMemory | kPciCommandBusMaster;
  if (sys_.pwrite(device_, &command, 2, off_t(config_offset_ + kPciCommand)) != 2)
    throw std::runtime_error(address_ + ": cannot enable bus mastering");
}

void VfioPci::config_write32(uint32_t offset, uint32_t value) {
  if (sys_.pwrite(device_, &value, 4, off_t(config_offset_ + (offset & ~3u))) != 4)
    throw std::runtime_error(address_ + ": cannot write config space at " +
                             std::to_string(offset & ~3u));
}

// vfio-pci keeps the header in its virtual config space, so reads after the reset still show
// the saved values and the generic restore writes nothing. What brings the hardware back is
// the command register: when a write turns memory decoding on while the device has it off (a
// reset the kernel did not see), vfio restores the real BARs (vfio_pci_config.c,
// vfio_bar_restore). The reset also cleared the MSI capability the kernel had programmed:
// the vectors are switched off and on again so vfio programs it anew.
void VfioPci::after_config_restore() {
  enable_bus_master();
  if (irq_fd_ < 0) return;
  disable_msi();
  sys_.close(irq_fd_);
  irq_fd_ = -1;
  setup_msi();
}

void VfioPci::disable_msi() {
  vfio_irq_set off{};
  off.argsz = sizeof off;
  off.flags = VFIO_IRQ_SET_DATA_NONE | VFIO_IRQ_SET_ACTION_TRIGGER;
  off.index = VFIO_PCI_MSI_IRQ_INDEX;
  sys_.ioctl(device_, VFIO_DEVICE_SET_IRQS, &off);
}

// MSI into an eventfd, so waits block; a card without MSI is polled.
void VfioPci::setup_msi() {
  vfio_irq_info info{};
  info.argsz = sizeof info;
  info.index = VFIO_PCI_MSI_IRQ_INDEX;
  if (sys_.ioctl(device_, VFIO_DEVICE_GET_IRQ_INFO, &info) != 0 || info.count == 0) return;
  const int fd = sys_.eventfd();
  if (fd < 0) return;
  alignas(vfio_irq_set) uint8_t buf[sizeof(vfio_irq_set) + sizeof(int32_t)] = {};
  auto* set = reinterpret_cast<vfio_irq_set*>(buf);
  set->argsz = sizeof buf;
  set->flags = VFIO_IRQ_SET_DATA_EVENTFD | VFIO_IRQ_SET_ACTION_TRIGGER;
  set->index = VFIO_PCI_MSI_IRQ_INDEX;
  set->start = 0;
  set->count = 1;
  const int32_t efd = fd;
  std::memcpy(buf + sizeof(vfio_irq_set), &efd, sizeof efd);
  if (sys_.ioctl(device_, VFIO_DEVICE_SET_IRQS, set) != 0) {
    sys_.close(fd);
    return;
  }
  irq_fd_ = fd;
}

uint32_t VfioPci::config_read32(uint32_t offset) {
  uint32_t v = 0xffffffffu;
  if (sys_.pread(device_, &v, 4, off_t(config_offset_ + (offset & ~3u))) != 4) return 0xffffffffu;
  return v;
}

// Every page at iova = its physical address: the GPU's page tables carry physical addresses,
// and an address no mapping covers faults in the IOMMU instead of reaching memory. Another
// card's VRAM aperture (this process's mapping of its BAR0) goes at iova = the BAR's bus
// address: type-1 vfio maps such PFN mappings, and pagemap could not name them.
std::vector<uint64_t> VfioPci::dma_map(void* host, uint64_t size) {
  const std::optional<uint64_t> aperture = aperture_bus_address(host, size);
  std::vector<uint64_t> pages = aperture ? contiguous_pages(*aperture, size) : sys_.pin(host, size);
  DmaRuns runs;
  if (!noiommu_) {
    for (size_t i = 0; i < pages.size();) {
      size_t n = 1;
      while (i + n < pages.size() && pages[i + n] == pages[i] + n * kPage) ++n;
      vfio_iommu_type1_dma_map map{};
      map.argsz = sizeof map;
      map.flags = VFIO_DMA_MAP_FLAG_READ | VFIO_DMA_MAP_FLAG_WRITE;
      map.vaddr = reinterpret_cast<uintptr_t>(host) + i * kPage;
      map.iova = pages[i];
      map.size = n * kPage;
      try {
        check_iova(map.iova, map.size);
      } catch (const std::runtime_error&) {
        unmap_dma(runs);
        if (!aperture) sys_.unpin(host, size);
        throw;
      }
      if (sys_.ioctl(container_, VFIO_IOMMU_MAP_DMA, &map) != 0) {
        const std::string why = std::strerror(errno);
        unmap_dma(runs);
        if (!aperture) sys_.unpin(host, size);
        throw std::runtime_error("VFIO_IOMMU_MAP_DMA failed: " + why);
      }
      runs.emplace_back(map.iova, map.size);
      i += n;
    }
  } else {
    runs.emplace_back(pages.front(), size); // nothing to map: remember the pinning
  }
  std::lock_guard lock(dma_mutex_);
  dma_[host] = DmaMapping{std::move(runs), !aperture};
  return pages;
}

void VfioPci::dma_unmap(void* host, uint64_t size) {
  DmaRuns runs;
  bool pinned;
  {
    std::lock_guard lock(dma_mutex_);
    auto it = dma_.find(host);
    if (it == dma_.end()) return;
    runs = std::move(it->second.runs);
    pinned = it->second.pinned;
    dma_.erase(it);
  }
  if (!noiommu_) unmap_dma(runs);
  if (pinned) sys_.unpin(host, size);
}

void VfioPci::unmap_dma(const DmaRuns& runs) {
  for (auto [iova, bytes] : runs) {
    vfio_iommu_type1_dma_unmap unmap{};
    unmap.argsz = sizeof unmap;
    unmap.iova = iova;
    unmap.size = bytes;
    sys_.ioctl(container_, VFIO_IOMMU_UNMAP_DMA, &unmap);
  }
}

bool VfioPci::wait_interrupt(std::chrono::microseconds timeout) {
  if (irq_fd_ >= 0) return sys_.wait_eventfd(irq_fd_, timeout.count());
  return poll_interrupt(timeout); // a card without MSI is polled
}

} // namespace am
