#include "vfio_system.h"

#include "bar_apertures.h"
#include "pagemap.h"

#include <fcntl.h>
#include <fstream>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

namespace am {
namespace {

class LinuxVfio final : public VfioSystem {
public:
  int open(const std::string& path, int flags) override { return ::open(path.c_str(), flags | O_CLOEXEC); }
  int close(int fd) override { return ::close(fd); }
  int ioctl(int fd, unsigned long request, void* arg) override { return ::ioctl(fd, request, arg); }
  void* mmap(size_t length, int fd, off_t offset) override {
    return ::mmap(nullptr, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, offset);
  }
  int munmap(void* p, size_t length) override { return ::munmap(p, length); }
  ssize_t pread(int fd, void* buf, size_t n, off_t offset) override { return ::pread(fd, buf, n, offset); }
  ssize_t pwrite(int fd, const void* buf, size_t n, off_t offset) override { return ::pwrite(fd, buf, n, offset); }
  int eventfd() override { return ::eventfd(0, EFD_CLOEXEC); }
  bool wait_eventfd(int fd, int64_t timeout_us) override {
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, int((timeout_us + 999) / 1000)) <= 0) return false;
    uint64_t count;
    return ::read(fd, &count, sizeof count) == sizeof count;
  }
  std::vector<uint64_t> pin(void* host, uint64_t size) override { return pin_physical_pages(host, size); }
  std::optional<uint64_t> bar_start(const std::string& address, unsigned index) override {
    return sysfs_bar_start(std::filesystem::path("/sys/bus/pci/devices") / address, index);
  }
  void unpin(void* host, uint64_t size) override { unpin_pages(host, size); }
  std::optional<std::string> read_line(const std::string& path) override {
    std::ifstream in(path);
    std::string line;
    if (!in || !std::getline(in, line)) return std::nullopt;
    return line;
  }
};

} // namespace

VfioSystem& linux_vfio_system() {
  static LinuxVfio sys;
  return sys;
}

} // namespace am
