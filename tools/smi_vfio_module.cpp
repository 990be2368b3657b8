// Loading vfio-pci the way amcl needs it: with disable_idle_d3, as tinygrad's AM does
// (`modprobe vfio-pci disable_idle_d3=1`). Without it vfio-pci puts an idle card in D3 between
// uses, and a GPU there loses the state a warm boot relies on. The parameter is writable at run
// time by root (vfio_pci.c: module_param(disable_idle_d3, bool, S_IRUGO | S_IWUSR)), so a
// module loaded without it is fixed in place.
#include "smi.h"

#include "am/sysfs_pci.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <spawn.h>
#include <sys/wait.h>
#include <vector>

extern char** environ;

namespace smi {
namespace fs = std::filesystem;
namespace {

// modprobe, or AMCL_SMI_MODPROBE for tests on a fake sysfs tree (honoured only with
// AMCL_SYSFS_ROOT set; on a fake tree without it nothing is run).
std::string modprobe_command() {
  const char* fake = std::getenv("AMCL_SYSFS_ROOT");
  if (!fake || !*fake) return "modprobe";
  const char* cmd = std::getenv("AMCL_SMI_MODPROBE");
  return cmd && *cmd ? cmd : "";
}

bool run(const std::string& cmd, std::initializer_list<const char*> args) {
  std::vector<char*> argv{const_cast<char*>(cmd.c_str())};
  for (const char* a : args) argv.push_back(const_cast<char*>(a));
  argv.push_back(nullptr);
  pid_t pid = 0;
  if (posix_spawnp(&pid, cmd.c_str(), nullptr, nullptr, argv.data(), environ) != 0) return false;
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return false;
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

} // namespace

std::string load_vfio_pci(const fs::path& root) {
  const fs::path idle_d3 = root / "module/vfio_pci/parameters/disable_idle_d3";
  if (!vfio_pci_loaded(root)) {
    const std::string cmd = modprobe_command();
    if (cmd.empty() || !run(cmd, {"vfio-pci", "disable_idle_d3=1"}) || !vfio_pci_loaded(root))
      return "the vfio-pci driver is not loaded and `modprobe vfio-pci disable_idle_d3=1` did "
             "not load it: is vfio-pci built for this kernel (CONFIG_VFIO_PCI)?";
    std::printf("vfio-pci loaded with disable_idle_d3=1\n");
    return "";
  }
  const std::string v = am::read_line(idle_d3);
  if (v == "N" || v == "0") {
    std::ofstream f(idle_d3);
    f << "Y" << std::flush;
    if (f)
      std::printf("vfio-pci: disable_idle_d3 set, so that an idle card is not put in D3\n");
    else
      std::fprintf(stderr,
                   "amcl-smi: warning: vfio-pci runs without disable_idle_d3 and %s cannot be "
                   "written: an idle card may be put in D3 and lose its state\n",
                   idle_d3.c_str());
  }
  return "";
}

} // namespace smi
