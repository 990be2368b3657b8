// Host memory: resident set growth of an idle context (context + queue + one built program)
// and of each small buffer, amcl beside PoCL in the same process. For amcl's emulated GPU the
// VRAM is host memory too, so buffers are created without being written: the figure is the
// runtime's own overhead, not the data.
//
//   OCL_ICD_VENDORS=<build>/vendors build/bench/memory_footprint [buffers]
#include "bench_util.h"

#include <cstdlib>
#include <fstream>
#include <malloc.h>
#include <unistd.h>

namespace {

double rss_kib() {
  std::ifstream f("/proc/self/statm");
  size_t pages = 0, resident = 0;
  f >> pages >> resident;
  return double(resident) * double(sysconf(_SC_PAGESIZE)) / 1024.0;
}

// Bytes the calling thread's malloc arena has handed out: unlike RSS, it does not hide
// allocations that reuse memory an earlier phase freed.
double heap_bytes() {
  return double(mallinfo2().uordblks);
}

struct Figures {
  double context_kib = 0, per_buffer_bytes = 0, per_buffer_heap = 0;
};

Figures measure(const char* name, size_t buffers) {
  Figures f;
  const double before = rss_kib();
  auto* p = new bench::Platform(name);
  if (!*p) {
    delete p;
    return f;
  }
  cl_program prog = p->build("__kernel void k(__global int* p) { p[get_global_id(0)] = 1; }");
  f.context_kib = rss_kib() - before;
  std::vector<cl_mem> mems;
  mems.reserve(buffers);
  const double b0 = rss_kib(), h0 = heap_bytes();
  for (size_t i = 0; i < buffers; ++i)
    mems.push_back(clCreateBuffer(p->context, CL_MEM_READ_WRITE, 4096, nullptr, nullptr));
  f.per_buffer_bytes = (rss_kib() - b0) * 1024.0 / double(buffers);
  f.per_buffer_heap = (heap_bytes() - h0) / double(buffers);
  for (cl_mem m : mems) clReleaseMemObject(m);
  if (prog) clReleaseProgram(prog);
  delete p;
  return f;
}

} // namespace

int main(int argc, char** argv) {
  const size_t buffers = argc > 1 ? size_t(std::atol(argv[1])) : 10000;
  // Loads every ICD (and boots amcl's emulated GPU) before anything is measured.
  cl_uint n = 0;
  clGetPlatformIDs(0, nullptr, &n);
  const double base = rss_kib();
  const Figures a = measure(bench::kAmcl, buffers);
  const Figures p = measure(bench::kPocl, buffers);
  std::printf("process RSS after loading the ICDs: %.0f KiB\n", base);
  std::printf("%-40s %12s %12s %10s\n", "figure", "amcl", "PoCL", "amcl/PoCL");
  std::printf("%-40s %12.0f %12.0f %10s\n", "idle context + queue + program (KiB)", a.context_kib,
              p.context_kib, bench::ratio(a.context_kib, p.context_kib).c_str());
  std::printf("%-40s %12.0f %12.0f %10s\n", "per 4 KiB buffer, unwritten: RSS (bytes)",
              a.per_buffer_bytes, p.per_buffer_bytes,
              bench::ratio(a.per_buffer_bytes, p.per_buffer_bytes).c_str());
  std::printf("%-40s %12.0f %12.0f %10s\n", "per 4 KiB buffer, unwritten: heap (bytes)",
              a.per_buffer_heap, p.per_buffer_heap,
              bench::ratio(a.per_buffer_heap, p.per_buffer_heap).c_str());
  return 0;
}
