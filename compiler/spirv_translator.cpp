#include "spirv_translator.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <dlfcn.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace amcl::compiler {
namespace {

bool executable(const std::string& path) {
  struct stat st {};
  return !path.empty() && ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
         ::access(path.c_str(), X_OK) == 0;
}

std::string directory_of_this_code() {
  Dl_info info{};
  if (!::dladdr(reinterpret_cast<void*>(&spirv_translator_path), &info) || !info.dli_fname)
    return "";
  std::string path = info.dli_fname;
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? "." : path.substr(0, slash);
}

// A file descriptor closed when it goes out of scope.
struct Fd {
  int fd = -1;
  ~Fd() { reset(); }
  void reset() {
    if (fd >= 0) ::close(fd);
    fd = -1;
  }
};

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// SIGPIPE blocked on this thread while it writes to the helper (which may exit before reading
// all of its input); a SIGPIPE raised meanwhile is consumed, never delivered to the process.
struct NoSigpipe {
  sigset_t pipe_set{}, old{};
  NoSigpipe() {
    sigemptyset(&pipe_set);
    sigaddset(&pipe_set, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_set, &old);
  }
  ~NoSigpipe() {
    const timespec zero{0, 0};
    while (sigtimedwait(&pipe_set, nullptr, &zero) > 0) {
    }
    pthread_sigmask(SIG_SETMASK, &old, nullptr);
  }
};

} // namespace

std::string spirv_translator_identity() {
#ifdef AMCL_SPIRV_TRANSLATOR_LIB
  struct stat st {};
  if (::stat(AMCL_SPIRV_TRANSLATOR_LIB, &st) == 0)
    return std::to_string(st.st_size) + "@" + std::to_string(st.st_mtim.tv_sec);
#endif
  return "none";
}

bool spirv_translator_built() {
#ifdef AMCL_SPIRV_HELPER_BUILD
  return true;
#else
  return false;
#endif
}

std::string spirv_translator_path() {
  if (const char* env = std::getenv("AMCL_SPIRV_TRANSLATOR"); env && *env)
    return executable(env) ? env : "";
#ifdef AMCL_SPIRV_HELPER_BUILD
  for (const std::string& candidate :
       {directory_of_this_code() + "/amcl-spirv",
        directory_of_this_code() + "/" + AMCL_SPIRV_HELPER_FROM_LIBDIR,
        std::string(AMCL_SPIRV_HELPER_INSTALLED),
        std::string(AMCL_SPIRV_HELPER_BUILD)})
    if (executable(candidate)) return candidate;
#endif
  return "";
}

SpirvTranslation translate_spirv(std::span<const uint8_t> module, int timeout_ms,
                                 size_t max_output) {
  SpirvTranslation r;
  const auto t0 = std::chrono::steady_clock::now();
  const std::string helper = spirv_translator_path();
  if (helper.empty()) {
    r.log = "error: the SPIR-V translator (amcl-spirv) is not installed\n";
    return r;
  }
  Fd in[2], out[2], err[2];
  for (Fd* p : {in, out, err}) {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) {
      r.log = "error: cannot create a pipe for the SPIR-V translator\n";
      return r;
    }
    p[0].fd = fds[0], p[1].fd = fds[1];
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in[0].fd, 0);
  posix_spawn_file_actions_adddup2(&actions, out[1].fd, 1);
  posix_spawn_file_actions_adddup2(&actions, err[1].fd, 2);
  char* argv[] = {const_cast<char*>(helper.c_str()), nullptr};
  pid_t pid = -1;
  const int spawned = ::posix_spawn(&pid, helper.c_str(), &actions, nullptr, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  r.spawn_ms = ms_since(t0);
  if (spawned != 0) {
    r.log = "error: cannot start the SPIR-V translator " + helper + "\n";
    return r;
  }
  in[0].reset(), out[1].reset(), err[1].reset();
  for (Fd* f : {&in[1], &out[0], &err[0]}) ::fcntl(f->fd, F_SETFL, O_NONBLOCK);

  NoSigpipe no_sigpipe;
  // Feed stdin while draining stdout and stderr, so that neither side blocks on a full pipe.
  std::string errors;
  size_t written = 0;
  bool killed_for_time = false, killed_for_size = false;
  while (out[0].fd >= 0 || err[0].fd >= 0) {
    const int left = timeout_ms - int(ms_since(t0));
    if (left <= 0) {
      killed_for_time = true;
      break;
    }
    pollfd fds[3];
    nfds_t n = 0;
    if (in[1].fd >= 0) fds[n++] = {in[1].fd, POLLOUT, 0};
    if (out[0].fd >= 0) fds[n++] = {out[0].fd, POLLIN, 0};
    if (err[0].fd >= 0) fds[n++] = {err[0].fd, POLLIN, 0};
    if (::poll(fds, n, left) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    for (nfds_t i = 0; i < n; ++i) {
      if (!fds[i].revents) continue;
      if (fds[i].fd == in[1].fd) {
        const ssize_t k = ::write(in[1].fd, module.data() + written, module.size() - written);
        if (k > 0) written += size_t(k);
        if (k < 0 && errno != EAGAIN && errno != EINTR) written = module.size(); // EPIPE
        if (written == module.size()) in[1].reset();
        continue;
      }
      char buf[65536];
      const ssize_t k = ::read(fds[i].fd, buf, sizeof buf);
      if (k > 0) {
        if (fds[i].fd == out[0].fd)
          r.bitcode.insert(r.bitcode.end(), buf, buf + k);
        else if (errors.size() < 65536)
          errors.append(buf, size_t(k));
      } else if (k == 0 || (errno != EAGAIN && errno != EINTR)) {
        (fds[i].fd == out[0].fd ? out[0] : err[0]).reset();
      }
    }
    if (r.bitcode.size() > max_output) {
      killed_for_size = true;
      break;
    }
  }
  if (killed_for_time || killed_for_size) ::kill(pid, SIGKILL);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  r.total_ms = ms_since(t0);
  if (killed_for_time) {
    r.log = "error: the SPIR-V translator did not finish within " + std::to_string(timeout_ms) +
            " ms\n";
  } else if (killed_for_size) {
    r.log =
        "error: the SPIR-V translator's output passed " + std::to_string(max_output) + " bytes\n";
  } else if (WIFSIGNALED(status)) {
    r.log = errors + "error: the SPIR-V translator crashed (signal " +
            std::to_string(WTERMSIG(status)) + "): translator 15 does not take this module (its message is above)\n";
  } else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || r.bitcode.empty()) {
    r.log = "error: invalid SPIR-V module: " +
            (errors.empty() ? std::string("(no message)\n") : errors);
  } else {
    r.ok = true;
    r.log = errors;
  }
  if (!r.ok) r.bitcode.clear();
  return r;
}

} // namespace amcl::compiler
