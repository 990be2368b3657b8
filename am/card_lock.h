// One process per card: an exclusive, non-blocking flock on the lock file tinygrad's AM driver
// uses for the same PCI address, taken before the first BAR mapping or register access, so
// amcl and tinygrad exclude each other as two amcl processes do. The kernel drops the lock
// with the process, so a crashed holder leaves a file that blocks nobody.
#pragma once
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>

namespace am {

// <tempdir>/am_<address lowercased>.lock, tempdir as Python's tempfile.gettempdir() picks it
// from the environment (TMPDIR, TEMP, TMP, else /tmp): tinygrad's System.flock_acquire called
// with f"{devpref.lower()}_{pcibus.lower()}.lock", devpref "am" (runtime/support/system.py).
std::filesystem::path card_lock_path(const std::string& address);

// The process holding a card's lock, as /proc/locks names it.
struct LockHolder {
  int pid = 0;         // 0: the holder is not visible from here (another pid namespace)
  std::string command; // /proc/<pid>/comm, "" when unreadable
};

// Who holds the lock of the card at `address`, or nothing when the card is free (or its lock
// file does not exist). Never creates or opens the lock file for writing.
std::optional<LockHolder> card_lock_holder(const std::string& address);

// "pid 1234 (python3) holds /tmp/am_0000:03:00.0.lock: end that process (kill 1234) to free
// the card" — what a user needs to free it.
std::string describe_holder(const std::string& address, const std::optional<LockHolder>& holder);

// Another process holds the card.
class CardBusy : public std::runtime_error {
public:
  CardBusy(const std::string& address, std::optional<LockHolder> holder);
  const std::optional<LockHolder>& holder() const { return holder_; }

private:
  std::optional<LockHolder> holder_;
};

class CardLock {
public:
  // Takes the card's lock. Throws CardBusy when another process holds it, std::runtime_error
  // when the lock file cannot be used (a symbolic link, not a regular file, unreadable).
  explicit CardLock(const std::string& address);
  ~CardLock();
  CardLock(const CardLock&) = delete;
  CardLock& operator=(const CardLock&) = delete;

private:
  int fd_ = -1;
};

} // namespace am
