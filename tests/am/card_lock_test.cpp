// One process per card (am/card_lock.h): the lock file's name and place are tinygrad's, a second
// process is refused with the holder's pid and command, and the kernel drops the lock with the
// process, however it ends.
#include "am/card_lock.h"
#include "holder_process.h"
#include "scoped_lock_dir.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>

#include <gtest/gtest.h>

#include <fstream>
#include <optional>

namespace fs = std::filesystem;

namespace {

std::string own_command() {
  std::ifstream f("/proc/self/comm");
  std::string s;
  std::getline(f, s);
  return s;
}

// The message CardLock refuses with, or "" when it took the lock (and let it go again).
std::string refusal(const std::string& address) {
  try {
    am::CardLock lock(address);
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

} // namespace

// tinygrad: System.flock_acquire(f"{devpref.lower()}_{pcibus.lower()}.lock") with devpref "am",
// in tempfile.gettempdir(): TMPDIR first, /tmp without it.
TEST(CardLock, LockFileIsTinygradsForTheAddress) {
  amcl_test::ScopedLockDir dir;
  EXPECT_EQ(am::card_lock_path("0000:0A:00.0"), dir.path() / "am_0000:0a:00.0.lock");
  const std::string kept = getenv("TMPDIR");
  unsetenv("TMPDIR");
  EXPECT_EQ(am::card_lock_path("0000:03:00.0"), fs::path("/tmp/am_0000:03:00.0.lock"));
  setenv("TMPDIR", kept.c_str(), 1);
  {
    am::CardLock lock("0000:0A:00.0");
    struct stat st {};
    ASSERT_EQ(stat((dir.path() / "am_0000:0a:00.0.lock").c_str(), &st), 0);
    EXPECT_TRUE(S_ISREG(st.st_mode));
    EXPECT_EQ(st.st_mode & 0777, 0666u) << "other users (and tinygrad) must open it too";
  }
  EXPECT_TRUE(fs::exists(dir.path() / "am_0000:0a:00.0.lock"))
      << "the file stays; only the lock goes";
}

// A second process is refused while the first holds the card, learns who holds it (from
// /proc/locks), and gets the card once the first has exited.
TEST(CardLock, SecondProcessIsRefusedUntilTheFirstExits) {
  amcl_test::ScopedLockDir dir;
  std::optional<am::CardLock> held;
  amcl_test::HolderProcess first([&] { held.emplace("0000:03:00.0"); });
  ASSERT_TRUE(first.holding());
  try {
    am::CardLock second("0000:03:00.0");
    ADD_FAILURE() << "two processes hold one card";
  } catch (const am::CardBusy& busy) {
    ASSERT_TRUE(busy.holder());
    EXPECT_EQ(busy.holder()->pid, first.pid());
    EXPECT_EQ(busy.holder()->command, own_command()); // the child is a fork of this program
    const std::string what = busy.what();
    EXPECT_NE(what.find("pid " + std::to_string(first.pid())), std::string::npos) << what;
    EXPECT_NE(what.find("kill " + std::to_string(first.pid())), std::string::npos) << what;
    EXPECT_NE(what.find("am_0000:03:00.0.lock"), std::string::npos) << what;
  }
  const auto holder = am::card_lock_holder("0000:03:00.0");
  ASSERT_TRUE(holder);
  EXPECT_EQ(holder->pid, first.pid());
  EXPECT_FALSE(am::card_lock_holder("0000:04:00.0")) << "no lock file, no holder";
  EXPECT_EQ(first.finish(), 0);
  EXPECT_FALSE(am::card_lock_holder("0000:03:00.0"));
  EXPECT_EQ(refusal("0000:03:00.0"), "");
}

// A crash leaves the lock file behind; the lock itself went with the process.
TEST(CardLock, LockFileOfAKilledProcessDoesNotBlock) {
  amcl_test::ScopedLockDir dir;
  std::optional<am::CardLock> held;
  amcl_test::HolderProcess crashed([&] { held.emplace("0000:03:00.0"); });
  ASSERT_TRUE(crashed.holding());
  EXPECT_NE(refusal("0000:03:00.0"), "");
  crashed.kill_hard();
  EXPECT_TRUE(fs::exists(dir.path() / "am_0000:03:00.0.lock"));
  EXPECT_EQ(refusal("0000:03:00.0"), "");
}

// tinygrad takes the same lock (an flock on the same file): either way round they exclude.
TEST(CardLock, ExcludesAnyFlockOnTheSameFile) {
  amcl_test::ScopedLockDir dir;
  const fs::path file = dir.path() / "am_0000:03:00.0.lock";
  const int fd = open(file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0666);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(flock(fd, LOCK_EX | LOCK_NB), 0);
  EXPECT_NE(refusal("0000:03:00.0").find("in use by another process"), std::string::npos);
  close(fd);
  am::CardLock lock("0000:03:00.0");
  const int other = open(file.c_str(), O_RDWR | O_CLOEXEC);
  EXPECT_NE(flock(other, LOCK_EX | LOCK_NB), 0);
  close(other);
}

// The lock file is never followed through a symbolic link nor replaced.
TEST(CardLock, SymbolicLinkIsRefusedNotFollowed) {
  amcl_test::ScopedLockDir dir;
  const fs::path target = dir.path() / "elsewhere";
  fs::create_symlink(target, dir.path() / "am_0000:03:00.0.lock");
  const std::string why = refusal("0000:03:00.0");
  EXPECT_NE(why.find("symbolic link"), std::string::npos) << why;
  EXPECT_FALSE(fs::exists(target)) << "the link was followed";
  EXPECT_TRUE(fs::is_symlink(dir.path() / "am_0000:03:00.0.lock")) << "the link was replaced";
  fs::remove(dir.path() / "am_0000:03:00.0.lock");
  fs::create_directory(dir.path() / "am_0000:03:00.0.lock");
  EXPECT_NE(refusal("0000:03:00.0"), "");
}

// Another user's lock file is used as it is: read-only is enough for flock. One this user may
// not open at all is refused with its owner, and left in place.
TEST(CardLock, AnotherUsersFileIsUsedAsItIsNeverReplaced) {
  if (geteuid() != 0) GTEST_SKIP() << "needs root to make files of another user";
  amcl_test::ScopedLockDir dir;
  const fs::path file = dir.path() / "am_0000:03:00.0.lock";
  std::ofstream{file};
  fs::permissions(dir.path(), fs::perms::all | fs::perms::sticky_bit); // as /tmp
  ASSERT_EQ(chmod(file.c_str(), 0644), 0);
  struct stat before {};
  ASSERT_EQ(stat(file.c_str(), &before), 0);
  // Taken by user 65534 (nobody): a file of root's that it may only read.
  amcl_test::HolderProcess nobody([&] {
    if (setgid(65534) != 0 || setuid(65534) != 0) throw std::runtime_error("setuid");
    am::CardLock lock("0000:03:00.0");
  });
  EXPECT_TRUE(nobody.holding());
  EXPECT_EQ(nobody.finish(), 0);
  ASSERT_EQ(chmod(file.c_str(), 0600), 0);
  amcl_test::HolderProcess refused([&] {
    if (setgid(65534) != 0 || setuid(65534) != 0) throw std::runtime_error("setuid");
    const std::string why = refusal("0000:03:00.0");
    if (why.find("owned by uid 0") == std::string::npos) throw std::runtime_error(why);
  });
  EXPECT_TRUE(refused.holding()) << "refused without naming the owner";
  refused.finish();
  struct stat after {};
  ASSERT_EQ(stat(file.c_str(), &after), 0);
  EXPECT_EQ(after.st_ino, before.st_ino);
  EXPECT_EQ(after.st_uid, 0u);
}
