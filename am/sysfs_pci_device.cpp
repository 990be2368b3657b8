#include "sysfs_pci_device.h"

#include "bar_apertures.h"
#include "debug_log.h"
#include "pagemap.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>

namespace am {
namespace fs = std::filesystem;

namespace {

std::string why_not(const fs::path& file) {
  const std::string reason = std::strerror(errno);
  if (errno == EACCES || errno == EPERM)
    return file.string() + ": " + reason + " (run as root, or give your user access to the card's sysfs files)";
  return file.string() + ": " + reason;
}

} // namespace

SysfsPciDevice::SysfsPciDevice(const fs::path& root, const std::string& address)
    : BarMappedPci(address) {
  const fs::path dir = root / "bus/pci/devices" / address;
  config_path_ = dir / "config";
  // Read-write when allowed (enable_bus_master needs it; root may), else read-only.
  config_fd_ = open(config_path_.c_str(), O_RDWR | O_CLOEXEC);
  config_writable_ = config_fd_ >= 0;
  if (config_fd_ < 0) config_fd_ = open(config_path_.c_str(), O_RDONLY | O_CLOEXEC);
  if (config_fd_ < 0) throw std::runtime_error(why_not(config_path_));
  try {
    bar0_ = map_bar(dir, 0);
    bar2_ = map_bar(dir, 2);
    bar5_ = map_bar(dir, 5);
  } catch (...) {
    for (Bar* b : {&bar0_, &bar2_, &bar5_})
      if (b->base) munmap(b->base, b->size);
    close(config_fd_);
    throw;
  }
  // Other cards reach this one's VRAM at its BAR0 bus address (peer mappings).
  if (auto bus = sysfs_bar_start(dir, 0)) register_aperture(bar0_.base, bar0_.size, *bus);
  debug_print(address_, "driven without an IOMMU (sysfs backend, VFIO=0): the card can reach "
                        "all memory, and a wild DMA would corrupt it");
}

SysfsPciDevice::~SysfsPciDevice() {
  unregister_aperture(bar0_.base);
  for (Bar* b : {&bar0_, &bar2_, &bar5_})
    if (b->base) munmap(b->base, b->size);
  if (config_fd_ >= 0) close(config_fd_);
}

SysfsPciDevice::Bar SysfsPciDevice::map_bar(const fs::path& dir, int index) {
  const fs::path file = dir / ("resource" + std::to_string(index));
  const int fd = open(file.c_str(), O_RDWR | O_CLOEXEC);
  if (fd < 0) throw std::runtime_error(why_not(file));
  struct stat st {};
  if (fstat(fd, &st) != 0 || st.st_size <= 0) {
    close(fd);
    throw std::runtime_error(file.string() + ": no size (is the BAR enabled?)");
  }
  void* p = mmap(nullptr, size_t(st.st_size), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  const int err = errno;
  close(fd);
  if (p == MAP_FAILED) {
    errno = err;
    throw std::runtime_error(why_not(file));
  }
  return Bar{static_cast<uint8_t*>(p), uint64_t(st.st_size)};
}

uint32_t SysfsPciDevice::config_read32(uint32_t offset) {
  uint32_t v = 0xffffffffu;
  if (pread(config_fd_, &v, 4, off_t(offset & ~3u)) != 4) return 0xffffffffu;
  return v;
}

void SysfsPciDevice::enable_bus_master() {
  uint16_t command = 0;
  if (pread(config_fd_, &command, 2, kPciCommand) != 2)
    throw std::runtime_error(why_not(config_path_));
  const uint16_t want = command | kPciCommandMemory | kPciCommandBusMaster;
  if (want == command) return;
  if (!config_writable_)
    throw std::runtime_error(config_path_.string() +
                             " is read-only for this process (run as "
                             "root): bus mastering stays off, so the card could neither reach "
                             "system memory nor raise interrupts");
  if (pwrite(config_fd_, &want, 2, kPciCommand) != 2)
    throw std::runtime_error(why_not(config_path_) + ": cannot enable bus mastering");
}

void SysfsPciDevice::config_write32(uint32_t offset, uint32_t value) {
  if (!config_writable_)
    throw std::runtime_error(config_path_.string() +
                             " is read-only for this process (run as root): the card's config "
                             "space cannot be restored");
  if (pwrite(config_fd_, &value, 4, off_t(offset & ~3u)) != 4)
    throw std::runtime_error(why_not(config_path_) + ": cannot write config space");
}

// No IOMMU: the bus address is the physical address. Another card's VRAM aperture is already
// resident and has its BAR's bus address; anything else is pinned memory.
std::vector<uint64_t> SysfsPciDevice::dma_map(void* host, uint64_t size) {
  if (auto bus = aperture_bus_address(host, size)) return contiguous_pages(*bus, size);
  return pin_physical_pages(host, size);
}

void SysfsPciDevice::dma_unmap(void* host, uint64_t size) {
  if (aperture_bus_address(host, size)) return;
  unpin_pages(host, size);
}

} // namespace am
