// One process per card, through the ICD loader: a real card another process holds (here an
// flock on its lock file, as tinygrad takes it) is listed but not available, a context on it
// fails with CL_DEVICE_NOT_AVAILABLE while the other cards work, and AM_DEBUG=1 names the
// holder. Emulated cards belong to their process: two processes use sim:gfx1100 at once.
// Each scenario runs in a fresh child process, since amcl reads its devices once.
#include "cl_helpers.h"

#include <CL/cl_ext.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>

namespace fs = std::filesystem;

namespace {

class TempDir {
public:
  TempDir() {
    char tmpl[] = "/tmp/amcl-card-in-use-XXXXXX";
    path_ = mkdtemp(tmpl);
  }
  ~TempDir() { fs::remove_all(path_); }
  const fs::path& path() const { return path_; }

private:
  fs::path path_;
};

// Runs `body` in a child process (gtest failures there are printed there) and returns its
// exit status: 0 when nothing failed.
pid_t start_child(const std::function<void()>& body) {
  const pid_t pid = fork();
  if (pid == 0) {
    body();
    _exit(::testing::Test::HasFailure() ? 1 : 0);
  }
  return pid;
}
int wait_child(pid_t pid) {
  int status = -1;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// Adds 1 to each element on `device` and checks the result: the card is usable.
void use_device(cl_device_id device, cl_uint seed) {
  cl_int err = CL_SUCCESS;
  cl_context context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  cl_command_queue queue = clCreateCommandQueueWithProperties(context, device, nullptr, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  const char* src = "__kernel void inc(__global uint* b) { b[get_global_id(0)] += 1; }";
  cl_program program = clCreateProgramWithSource(context, 1, &src, nullptr, &err);
  ASSERT_EQ(clBuildProgram(program, 1, &device, "", nullptr, nullptr), CL_SUCCESS);
  cl_kernel kernel = clCreateKernel(program, "inc", &err);
  std::vector<cl_uint> data(4096);
  for (size_t i = 0; i < data.size(); ++i) data[i] = seed + cl_uint(i);
  cl_mem buf = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, data.size() * 4,
                              data.data(), &err);
  ASSERT_EQ(err, CL_SUCCESS);
  clSetKernelArg(kernel, 0, sizeof buf, &buf);
  const size_t global = data.size();
  ASSERT_EQ(
      clEnqueueNDRangeKernel(queue, kernel, 1, nullptr, &global, nullptr, 0, nullptr, nullptr),
      CL_SUCCESS);
  ASSERT_EQ(clEnqueueReadBuffer(queue, buf, CL_TRUE, 0, data.size() * 4, data.data(), 0, nullptr,
                                nullptr),
            CL_SUCCESS);
  for (size_t i = 0; i < data.size(); ++i) ASSERT_EQ(data[i], seed + cl_uint(i) + 1) << i;
  clReleaseMemObject(buf);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
}

// An RX 7900 XTX with no driver and no IOMMU group (amcl would take the sysfs backend), as
// Linux's sysfs shows it; its BAR files are absent, so amcl could not drive it anyway: the lock
// refuses it before any of them is looked for.
void add_fake_card(const fs::path& sys) {
  const fs::path dev = sys / "bus/pci/devices/0000:03:00.0";
  fs::create_directories(dev);
  std::ofstream(dev / "vendor") << "0x1002\n";
  std::ofstream(dev / "device") << "0x744c\n";
  std::ofstream(dev / "revision") << "0xc8\n";
  std::ofstream(dev / "resource") << "0x0000007800000000 0x0000007bffffffff 0x0\n"; // BAR0: 16 GiB
}

} // namespace

TEST(CardInUse, HeldCardIsListedNotAvailableAndOtherCardsWork) {
  TempDir dir;
  add_fake_card(dir.path() / "sys");
  // The holder: this process, as tinygrad's System.flock_acquire takes it.
  const fs::path lock_file = dir.path() / "am_0000:03:00.0.lock";
  const int fd = open(lock_file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0666);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(flock(fd, LOCK_EX | LOCK_NB), 0);
  const std::string holder = std::to_string(getpid());
  const fs::path log = dir.path() / "stderr.txt";
  const pid_t child = start_child([&] {
    setenv("AMCL_SYSFS_ROOT", (dir.path() / "sys").c_str(), 1);
    setenv("TMPDIR", dir.path().c_str(), 1);
    setenv("AMCL_DEVICES", "0000:03:00.0,sim:gfx1100", 1);
    setenv("AM_DEBUG", "1", 1);
    const int err_fd = open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    dup2(err_fd, 2);
    cl_platform_id platform = amcl_test::amcl_platform();
    ASSERT_NE(platform, nullptr);
    cl_device_id devices[2];
    cl_uint n = 0;
    ASSERT_EQ(clGetDeviceIDs(platform, CL_DEVICE_TYPE_GPU, 2, devices, &n), CL_SUCCESS);
    ASSERT_EQ(n, 2u) << "the held card is still listed";
    cl_device_id held = devices[0], sim = devices[1];
    EXPECT_EQ(amcl_test::device_info<cl_bool>(held, CL_DEVICE_AVAILABLE), CL_FALSE);
    EXPECT_EQ(amcl_test::device_info<cl_bool>(sim, CL_DEVICE_AVAILABLE), CL_TRUE);
    // Its identity is what sysfs says, read without touching the card.
    EXPECT_EQ(amcl_test::device_string(held, CL_DEVICE_NAME), "gfx1100");
    EXPECT_NE(amcl_test::device_string(held, CL_DEVICE_VERSION).find("RX 7900 XTX"),
              std::string::npos);
    EXPECT_EQ(amcl_test::device_info<cl_uint>(held, CL_DEVICE_VENDOR_ID), 0x1002u);
    EXPECT_EQ(amcl_test::device_info<cl_ulong>(held, CL_DEVICE_GLOBAL_MEM_SIZE),
              (16ull << 30) - (64ull << 20));
    const auto bus =
        amcl_test::device_info<cl_device_pci_bus_info_khr>(held, CL_DEVICE_PCI_BUS_INFO_KHR);
    EXPECT_EQ(bus.pci_bus, 3u);
    cl_int err = CL_SUCCESS;
    EXPECT_EQ(clCreateContext(nullptr, 1, &held, nullptr, nullptr, &err), nullptr);
    EXPECT_EQ(err, CL_DEVICE_NOT_AVAILABLE);
    EXPECT_EQ(clCreateContext(nullptr, 2, devices, nullptr, nullptr, &err), nullptr);
    EXPECT_EQ(err, CL_DEVICE_NOT_AVAILABLE);
    // By type: the cards that are available.
    cl_context by_type =
        clCreateContextFromType(nullptr, CL_DEVICE_TYPE_GPU, nullptr, nullptr, &err);
    ASSERT_EQ(err, CL_SUCCESS);
    cl_uint in_context = 0;
    clGetContextInfo(by_type, CL_CONTEXT_NUM_DEVICES, sizeof in_context, &in_context, nullptr);
    EXPECT_EQ(in_context, 1u);
    clReleaseContext(by_type);
    use_device(sim, 7);
    std::stringstream said;
    said << std::ifstream(log).rdbuf();
    const std::string text = said.str();
    EXPECT_NE(text.find("0000:03:00.0 is in use by another process: pid " + holder + " ("),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("kill " + holder + ") to free the card"), std::string::npos) << text;
  });
  EXPECT_EQ(wait_child(child), 0);
  close(fd);
}

// Only the held card: clCreateContextFromType finds none available.
TEST(CardInUse, ContextFromTypeWithEveryCardHeldIsNotAvailable) {
  TempDir dir;
  add_fake_card(dir.path() / "sys");
  const int fd =
      open((dir.path() / "am_0000:03:00.0.lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0666);
  ASSERT_EQ(flock(fd, LOCK_EX | LOCK_NB), 0);
  const pid_t child = start_child([&] {
    setenv("AMCL_SYSFS_ROOT", (dir.path() / "sys").c_str(), 1);
    setenv("TMPDIR", dir.path().c_str(), 1);
    setenv("AMCL_DEVICES", "auto", 1); // a real card is present: no emulated one is added
    unsetenv("AM_DEBUG");
    cl_platform_id platform = amcl_test::amcl_platform();
    ASSERT_NE(platform, nullptr);
    cl_uint n = 0;
    ASSERT_EQ(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, nullptr, &n), CL_SUCCESS);
    EXPECT_EQ(n, 1u);
    cl_int err = CL_SUCCESS;
    EXPECT_EQ(clCreateContextFromType(nullptr, CL_DEVICE_TYPE_GPU, nullptr, nullptr, &err),
              nullptr);
    EXPECT_EQ(err, CL_DEVICE_NOT_AVAILABLE);
  });
  EXPECT_EQ(wait_child(child), 0);
  close(fd);
}

// Emulated cards take no lock: two processes each run kernels on sim:gfx1100, both with a
// context open at the same time, and no lock file appears.
TEST(CardInUse, TwoProcessesUseEmulatedCardsAtOnce) {
  TempDir dir;
  int ready[2], go[2];
  ASSERT_EQ(pipe(ready), 0);
  ASSERT_EQ(pipe(go), 0);
  auto body = [&](cl_uint seed) {
    return [&, seed] {
      setenv("TMPDIR", dir.path().c_str(), 1);
      setenv("AMCL_DEVICES", "sim:gfx1100", 1);
      cl_platform_id platform = amcl_test::amcl_platform();
      ASSERT_NE(platform, nullptr);
      cl_device_id device;
      ASSERT_EQ(clGetDeviceIDs(platform, CL_DEVICE_TYPE_GPU, 1, &device, nullptr), CL_SUCCESS);
      cl_int err = CL_SUCCESS;
      cl_context context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
      ASSERT_EQ(err, CL_SUCCESS);
      char c = 1;
      ASSERT_EQ(write(ready[1], &c, 1), 1);
      close(ready[1]);
      ASSERT_EQ(read(go[0], &c, 1), 1); // both processes hold a context now
      use_device(device, seed);
      clReleaseContext(context);
    };
  };
  signal(SIGPIPE, SIG_IGN); // a child that failed early has closed its end of `go`
  const pid_t first = start_child(body(100)), second = start_child(body(200));
  close(ready[1]); // so that a child that died early reads as end of file
  close(go[0]);
  char c;
  bool both_ready = read(ready[0], &c, 1) == 1 && read(ready[0], &c, 1) == 1;
  EXPECT_TRUE(both_ready);
  const char go_bytes[2] = {1, 1};
  EXPECT_EQ(write(go[1], go_bytes, 2), 2);
  EXPECT_EQ(wait_child(first), 0);
  EXPECT_EQ(wait_child(second), 0);
  EXPECT_TRUE(fs::is_empty(dir.path())) << "an emulated card took a lock";
  close(ready[0]);
  close(go[1]);
}
