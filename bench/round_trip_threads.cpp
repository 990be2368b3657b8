// Where a kernel + clFinish round trip's time goes between threads: chunks of round trips on
// amcl, each printed with its median, p75 and p99 (µs), the CPUs the application thread ran on,
// and for each of the process's named threads (amcl mec, amcl sdma, amcl wave N, amcl submit)
// the CPU it was last on and its voluntary / involuntary context switches during the chunk.
// A chunk in a slow mode then shows which thread switched, and which CPUs were shared.
//
//   OCL_ICD_VENDORS=<build>/icd build/bench/round_trip_threads [chunks] [round trips per chunk]
#include "bench_util.h"

#include <dirent.h>
#include <sched.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>

namespace {

struct ThreadState {
  std::string name;
  int cpu = -1;
  long voluntary = 0, involuntary = 0;
};

// The process's threads from /proc/self/task: name (comm), last CPU (stat field 39) and
// context switches (status).
std::map<int, ThreadState> read_threads() {
  std::map<int, ThreadState> threads;
  DIR* dir = opendir("/proc/self/task");
  if (!dir) return threads;
  while (dirent* entry = readdir(dir)) {
    if (entry->d_name[0] == '.') continue;
    const std::string base = std::string("/proc/self/task/") + entry->d_name;
    ThreadState t;
    std::ifstream comm(base + "/comm"), stat_file(base + "/stat");
    std::getline(comm, t.name);
    std::string stat;
    std::getline(stat_file, stat);
    // Fields after the parenthesised name start at field 3.
    std::istringstream fields(stat.substr(stat.rfind(')') + 2));
    std::string field;
    for (int i = 3; i <= 39 && fields >> field; ++i)
      if (i == 39) t.cpu = std::atoi(field.c_str());
    std::ifstream status(base + "/status");
    for (std::string line; std::getline(status, line);) {
      if (line.rfind("voluntary_ctxt_switches:", 0) == 0)
        t.voluntary = std::atol(line.c_str() + 24);
      if (line.rfind("nonvoluntary_ctxt_switches:", 0) == 0)
        t.involuntary = std::atol(line.c_str() + 27);
    }
    threads[std::atoi(entry->d_name)] = t;
  }
  closedir(dir);
  return threads;
}

} // namespace

int main(int argc, char** argv) {
  const int chunks = argc > 1 ? std::atoi(argv[1]) : 8;
  const int per_chunk = argc > 2 ? std::atoi(argv[2]) : 5000;
  bench::Platform p(bench::kAmcl);
  if (!p) {
    std::fprintf(stderr, "no amcl platform\n");
    return 1;
  }
  cl_program prog = p.build("__kernel void empty(__global int* p) { }");
  if (!prog) return 1;
  cl_kernel k = clCreateKernel(prog, "empty", nullptr);
  cl_mem buf = clCreateBuffer(p.context, CL_MEM_READ_WRITE, 4096, nullptr, nullptr);
  clSetKernelArg(k, 0, sizeof buf, &buf);
  const size_t global = 64, local = 64;
  auto round_trip = [&] {
    clEnqueueNDRangeKernel(p.queue, k, 1, nullptr, &global, &local, 0, nullptr, nullptr);
    clFinish(p.queue);
  };
  for (int i = 0; i < 2000; ++i) round_trip(); // the first dispatches' one-time work

  std::printf("chunk  median    p75    p99 (µs) | application CPUs | thread@CPU "
              "voluntary/involuntary switches\n");
  std::map<int, ThreadState> before = read_threads();
  std::vector<double> samples(static_cast<size_t>(per_chunk));
  for (int c = 0; c < chunks; ++c) {
    std::map<int, int> app_cpus;
    for (double& s : samples) {
      const double t0 = bench::now_us();
      round_trip();
      s = bench::now_us() - t0;
      ++app_cpus[sched_getcpu()];
    }
    std::map<int, ThreadState> after = read_threads();
    std::sort(samples.begin(), samples.end());
    const size_t n = samples.size();
    std::printf("%5d %7.2f %6.2f %6.2f |", c, samples[n / 2], samples[n * 3 / 4],
                samples[n * 99 / 100]);
    for (auto [cpu, count] : app_cpus) std::printf(" cpu%d:%d", cpu, count);
    std::printf(" |");
    for (const auto& [tid, t] : after) {
      const auto was = before.find(tid);
      const long v = t.voluntary - (was != before.end() ? was->second.voluntary : 0);
      const long i = t.involuntary - (was != before.end() ? was->second.involuntary : 0);
      if (t.name.rfind("amcl", 0) == 0 || v + i > 0)
        std::printf(" %s@%d %ld/%ld", t.name.c_str(), t.cpu, v, i);
    }
    std::printf("\n");
    before = std::move(after);
  }
  clReleaseMemObject(buf);
  clReleaseKernel(k);
  clReleaseProgram(prog);
  return 0;
}
