#include "vram_memory.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>

namespace sim {
namespace {

[[noreturn]] void fail(const char* what, uint64_t bytes) {
  throw std::runtime_error("sim: cannot " + std::string(what) + " for " +
                           std::to_string(bytes >> 20) +
                           " MiB of emulated VRAM: " + std::strerror(errno));
}

} // namespace

VramMemory::VramMemory(uint64_t bytes, uint64_t bar0_bytes)
    : bytes_(bytes), bar0_bytes_(bar0_bytes < bytes ? bar0_bytes : bytes) {
  const int fd = memfd_create("amcl-sim-vram", MFD_CLOEXEC);
  if (fd < 0) fail("create a memory file", bytes);
  if (ftruncate(fd, off_t(bytes)) != 0) {
    close(fd);
    fail("size the memory file", bytes);
  }
  void* chip = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_NORESERVE, fd, 0);
  if (chip == MAP_FAILED) {
    close(fd);
    fail("map the memory file", bytes);
  }
  chip_ = static_cast<uint8_t*>(chip);
  if (bar0_bytes_ == bytes || kBarWindowIsTheChipView) {
    bar0_ = chip_;
  } else {
    // The whole VRAM's size of address space, inaccessible; then the BAR's part made the file.
    void* window =
        mmap(nullptr, bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (window == MAP_FAILED || mmap(window, bar0_bytes_, PROT_READ | PROT_WRITE,
                                     MAP_SHARED | MAP_FIXED, fd, 0) == MAP_FAILED) {
      if (window != MAP_FAILED) munmap(window, bytes);
      munmap(chip_, bytes);
      close(fd);
      fail("map the BAR0 window", bytes);
    }
    bar0_ = static_cast<uint8_t*>(window);
  }
  close(fd); // the mappings keep the memory
}

VramMemory::~VramMemory() {
  if (bar0_ != chip_) munmap(bar0_, bytes_);
  munmap(chip_, bytes_);
}

} // namespace sim
