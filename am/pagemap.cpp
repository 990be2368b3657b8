#include "pagemap.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>

namespace am {
namespace {

constexpr uint64_t kPage = 4096;
constexpr uint64_t kPresent = 1ull << 63;
constexpr uint64_t kPfnMask = (1ull << 55) - 1;

} // namespace

std::vector<uint64_t> pin_physical_pages(void* host, uint64_t size) {
  const auto base = reinterpret_cast<uintptr_t>(host);
  if ((base | size) & (kPage - 1) || size == 0)
    throw std::runtime_error("pinning needs page-aligned memory");
  if (mlock(host, size) != 0)
    throw std::runtime_error(std::string("mlock failed (raise RLIMIT_MEMLOCK: ulimit -l): ") + std::strerror(errno));
  const int fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    munlock(host, size);
    throw std::runtime_error(std::string("cannot open /proc/self/pagemap: ") + std::strerror(errno));
  }
  std::vector<uint64_t> pages(size / kPage);
  const ssize_t want = ssize_t(pages.size() * 8);
  const ssize_t got = pread(fd, pages.data(), size_t(want), off_t(base / kPage * 8));
  close(fd);
  if (got != want) {
    munlock(host, size);
    throw std::runtime_error("short read from /proc/self/pagemap");
  }
  for (uint64_t& e : pages) {
    if (!(e & kPresent) || !(e & kPfnMask)) {
      munlock(host, size);
      throw std::runtime_error(
          "physical addresses are hidden: reading them from /proc/self/pagemap needs CAP_SYS_ADMIN "
          "(run as root)");
    }
    e = (e & kPfnMask) * kPage;
  }
  return pages;
}

void unpin_pages(void* host, uint64_t size) { munlock(host, size); }

} // namespace am
