// A second process for the card-lock tests: the child runs `hold` (open a card, take a lock),
// says whether it worked, and keeps what it holds until told to exit or killed.
#pragma once
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <functional>

namespace amcl_test {

class HolderProcess {
public:
  explicit HolderProcess(const std::function<void()>& hold) {
    int ready[2], release[2];
    if (pipe(ready) != 0 || pipe(release) != 0) return;
    pid_ = fork();
    if (pid_ == 0) {
      close(ready[0]);
      close(release[1]);
      char ok = 'E';
      try {
        hold();
        ok = 'R';
      } catch (...) {
      }
      (void)!write(ready[1], &ok, 1);
      char c;
      (void)!read(release[0], &c, 1); // returns when the parent writes or closes its end
      _exit(ok == 'R' ? 0 : 1);       // no destructors: the parent's objects are not ours
    }
    close(ready[1]);
    close(release[0]);
    ready_fd_ = ready[0];
    release_fd_ = release[1];
  }
  ~HolderProcess() { finish(); }
  HolderProcess(const HolderProcess&) = delete;
  HolderProcess& operator=(const HolderProcess&) = delete;

  pid_t pid() const { return pid_; }
  // Waits until the child has run `hold`; true when it returned without throwing.
  bool holding() {
    char c = 0;
    return ready_fd_ >= 0 && read(ready_fd_, &c, 1) == 1 && c == 'R';
  }
  // Lets the child exit and reaps it; its exit status.
  int finish() {
    if (pid_ <= 0) return -1;
    close(release_fd_);
    close(ready_fd_);
    int status = 0;
    waitpid(pid_, &status, 0);
    pid_ = -1;
    return status;
  }
  // As a crash: SIGKILL, no exit handlers, nothing released but by the kernel.
  void kill_hard() {
    if (pid_ <= 0) return;
    kill(pid_, SIGKILL);
    finish();
  }

private:
  pid_t pid_ = -1;
  int ready_fd_ = -1, release_fd_ = -1;
};

} // namespace amcl_test
