#include "card_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

namespace am {
namespace fs = std::filesystem;
namespace {

fs::path temp_dir() {
  for (const char* name : {"TMPDIR", "TEMP", "TMP"})
    if (const char* v = std::getenv(name); v && *v) return fs::absolute(v);
  return "/tmp";
}

std::string command_of(int pid) {
  std::ifstream f("/proc/" + std::to_string(pid) + "/comm");
  std::string s;
  std::getline(f, s);
  return s;
}

// The FLOCK holder of the file with this device and inode. A /proc/locks line reads
// "1: FLOCK  ADVISORY  WRITE 1234 fe:00:10960599 0 EOF" (fs/locks.c, lock_get_status);
// waiters are "1: -> FLOCK ..." and hold nothing. Some file systems show another device
// number there than stat does, so an inode-only match is the fallback.
std::optional<LockHolder> holder_of(const struct stat& file) {
  std::ifstream locks("/proc/locks");
  std::optional<LockHolder> by_inode;
  for (std::string line; std::getline(locks, line);) {
    std::istringstream in(line);
    std::string id, type, mode, access, where;
    long pid = 0;
    if (!(in >> id >> type) || type != "FLOCK") continue;
    if (!(in >> mode >> access >> pid >> where)) continue;
    unsigned major_no = 0, minor_no = 0;
    unsigned long long inode = 0;
    if (std::sscanf(where.c_str(), "%x:%x:%llu", &major_no, &minor_no, &inode) != 3) continue;
    if (inode != file.st_ino) continue;
    LockHolder h;
    if (pid > 0) h.pid = int(pid), h.command = command_of(h.pid);
    if (major_no == major(file.st_dev) && minor_no == minor(file.st_dev)) return h;
    by_inode = h;
  }
  return by_inode;
}

std::string lowercase(std::string s) {
  for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// Opens the lock file as tinygrad does, but safer: an existing file is opened, never
// replaced (O_CREAT on another user's file in sticky /tmp fails under protected_regular);
// a symbolic link is refused; read-only is enough for flock when the mode forbids writing.
int open_lock_file(const fs::path& path) {
  for (int attempt = 0; attempt < 2; ++attempt) {
    int fd = open(path.c_str(), O_RDWR | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0 && errno == EACCES) fd = open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd >= 0) return fd;
    if (errno != ENOENT) return -1;
    fd = open(path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd >= 0) {
      fchmod(fd, 0666); // whatever the umask: tinygrad and other users' amcl open it too
      return fd;
    }
    if (errno != EEXIST) return -1; // else another process created it just now: open that
  }
  return -1;
}

std::string why_unusable(const fs::path& path, int err) {
  const std::string file = "card lock file " + path.string();
  if (err == ELOOP) return file + " is a symbolic link, which amcl does not follow: remove it";
  std::string owner;
  struct stat st {};
  if (lstat(path.c_str(), &st) == 0) owner = " (owned by uid " + std::to_string(st.st_uid) + ")";
  return file + owner + ": " + std::strerror(err) +
         "; amcl never replaces it: remove it as its owner, or set TMPDIR for both amcl and "
         "tinygrad";
}

} // namespace

fs::path card_lock_path(const std::string& address) {
  return temp_dir() / ("am_" + lowercase(address) + ".lock");
}

std::optional<LockHolder> card_lock_holder(const std::string& address) {
  struct stat st {};
  if (lstat(card_lock_path(address).c_str(), &st) != 0) return std::nullopt;
  return holder_of(st);
}

std::string describe_holder(const std::string& address, const std::optional<LockHolder>& holder) {
  const std::string path = card_lock_path(address).string();
  if (!holder || holder->pid == 0)
    return "a process not visible here holds " + path + " (`sudo lsof " + path +
           "` names it): end it to free the card";
  const std::string pid = std::to_string(holder->pid);
  return "pid " + pid + " (" + (holder->command.empty() ? "?" : holder->command) + ") holds " +
         path + ": end that process (kill " + pid + ") to free the card";
}

CardBusy::CardBusy(const std::string& address, std::optional<LockHolder> holder)
    : std::runtime_error(address +
                         " is in use by another process: " + describe_holder(address, holder)),
      holder_(std::move(holder)) {}

CardLock::CardLock(const std::string& address) {
  const fs::path path = card_lock_path(address);
  fd_ = open_lock_file(path);
  if (fd_ < 0) throw std::runtime_error(why_unusable(path, errno));
  struct stat st {};
  if (fstat(fd_, &st) != 0 || !S_ISREG(st.st_mode)) {
    close(fd_);
    throw std::runtime_error("card lock file " + path.string() +
                             " is not a regular file: remove it");
  }
  if (flock(fd_, LOCK_EX | LOCK_NB) == 0) return;
  const int err = errno;
  close(fd_);
  if (err == EWOULDBLOCK) throw CardBusy(address, holder_of(st));
  throw std::runtime_error("cannot lock " + path.string() + ": " + std::strerror(err));
}

CardLock::~CardLock() {
  if (fd_ >= 0) close(fd_); // the last descriptor of the open file drops the flock
}

} // namespace am
