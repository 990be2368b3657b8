// What the vfio-pci backend asks of the kernel, as an interface: the real one makes the
// system calls (Documentation/driver-api/vfio.rst, <linux/vfio.h>); tests substitute a fake
// kernel to check the sequence without hardware or root.
#pragma once
#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace am {

class VfioSystem {
public:
  virtual ~VfioSystem() = default;
  virtual int open(const std::string& path, int flags) = 0; // -1 with errno on failure
  virtual int close(int fd) = 0;
  virtual int ioctl(int fd, unsigned long request, void* arg) = 0;
  virtual void* mmap(size_t length, int fd, off_t offset) = 0; // MAP_FAILED on failure
  virtual int munmap(void* p, size_t length) = 0;
  virtual ssize_t pread(int fd, void* buf, size_t n, off_t offset) = 0;
  virtual ssize_t pwrite(int fd, const void* buf, size_t n, off_t offset) = 0;
  virtual int eventfd() = 0;
  // Blocks up to `timeout_us` for the eventfd to fire; true (and reset) when it did.
  virtual bool wait_eventfd(int fd, int64_t timeout_us) = 0;
  // Pins the pages and returns their physical addresses (am/pagemap.h for real).
  virtual std::vector<uint64_t> pin(void* host, uint64_t size) = 0;
  virtual void unpin(void* host, uint64_t size) = 0;
  // Where BAR `index` of the device at `address` sits on the bus (sysfs "resource" for real):
  // other cards reach its VRAM there. Nothing when unknown.
  virtual std::optional<uint64_t> bar_start(const std::string& address, unsigned index) = 0;
  // The first line of a small text file (a module parameter under /sys/module); nothing when
  // it cannot be read.
  virtual std::optional<std::string> read_line(const std::string& path) = 0;
};

// The kernel's.
VfioSystem& linux_vfio_system();

} // namespace am
